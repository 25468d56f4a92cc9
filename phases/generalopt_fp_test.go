package phases

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// The floating-point folder (generalopt_fp.go) against the simulator:
// every foldable instruction form is compiled once into a kernel that
// loads its sources from memory, runs the one instruction and stores the
// result, so a launch evaluates thousands of operand sets; each result the
// folder gives must equal the simulator's bits exactly. The folder never
// looks at the simulator: they are two implementations of PTX's rules.

// fpForm is one instruction form under test.
type fpForm struct {
	text   string  // the mnemonic ("add.rz.ftz.f32")
	op     string  // the base opcode
	dt, st ir.Type // destination and source types
	nsrc   int
	// decoded by the parser, what a rule sees
	t, t2 ir.Type
	m     ir.Mods

	once sync.Once
	prog *sim.Program
	err  error
}

var fpTypes = []ir.Type{ir.TF16, ir.TBF16, ir.TF32, ir.TF64}
var fpIntTypes = []ir.Type{ir.TS16, ir.TU16, ir.TS32, ir.TU32, ir.TS64, ir.TU64}

func tyName(t ir.Type) string { return t.String() }

// fpForms lists the forms: every combination the folder handles, and a
// few it must refuse (div.approx, the integer roundings on a narrowing).
var fpForms = func() []*fpForm {
	var fs []*fpForm
	add := func(op, mods string, dt, st ir.Type, n int) {
		text := op + mods + "." + tyName(dt)
		if op == "cvt" {
			text += "." + tyName(st)
		}
		fs = append(fs, &fpForm{text: text, op: op, dt: dt, st: st, nsrc: n})
	}
	rnds := []string{"", ".rn", ".rz", ".rm", ".rp"}
	for _, t := range fpTypes {
		for _, r := range rnds {
			for _, fl := range []string{"", ".ftz", ".sat", ".ftz.sat"} {
				add("add", r+fl, t, t, 2)
				add("sub", r+fl, t, t, 2)
				add("mul", r+fl, t, t, 2)
				if r != "" {
					add("fma", r+fl, t, t, 3)
					if t == ir.TF32 || t == ir.TF64 {
						add("mad", r+fl, t, t, 3)
					}
				}
			}
		}
		for _, fl := range []string{"", ".ftz"} {
			add("min", fl, t, t, 2)
			add("max", fl, t, t, 2)
			add("neg", fl, t, t, 1)
			add("abs", fl, t, t, 1)
			for c := ir.CmpEq; c <= ir.CmpNan; c++ {
				if c >= ir.CmpLo && c <= ir.CmpHs {
					continue
				}
				add("setp", "."+c.String()+fl, t, t, 2)
			}
		}
		if t == ir.TF32 || t == ir.TF64 {
			for _, r := range rnds[1:] {
				for _, fl := range []string{"", ".ftz"} {
					add("div", r+fl, t, t, 2)
					add("rcp", r+fl, t, t, 1)
					add("sqrt", r+fl, t, t, 1)
				}
			}
		}
	}
	for _, it := range fpIntTypes {
		for _, ft := range fpTypes {
			for _, r := range rnds[1:] {
				for _, fl := range []string{"", ".sat"} {
					add("cvt", r+fl, ft, it, 1)
				}
			}
			for _, r := range []string{".rni", ".rzi", ".rmi", ".rpi"} {
				for _, fl := range []string{"", ".ftz"} {
					add("cvt", r+fl, it, ft, 1)
				}
			}
		}
		for _, it2 := range fpIntTypes {
			add("cvt", "", it, it2, 1)
			add("cvt", ".sat", it, it2, 1)
		}
	}
	for _, st := range fpTypes {
		for _, dt := range fpTypes {
			if dt == st {
				for _, r := range []string{".rni", ".rzi", ".rmi", ".rpi"} {
					add("cvt", r, dt, st, 1)
					add("cvt", r+".ftz.sat", dt, st, 1)
				}
				continue
			}
			for _, r := range rnds {
				for _, fl := range []string{"", ".ftz", ".sat"} {
					add("cvt", r+fl, dt, st, 1)
				}
			}
			add("cvt", ".rzi", dt, st, 1)
		}
	}
	add("div", ".approx", ir.TF32, ir.TF32, 2)
	add("div", ".full", ir.TF32, ir.TF32, 2)
	add("sqrt", ".approx", ir.TF32, ir.TF32, 1)
	add("min", ".NaN", ir.TF32, ir.TF32, 2)
	return fs
}()

// fpReg names a register of type t holding source k (or the result).
func fpReg(t ir.Type, k int) string {
	switch {
	case t == ir.TF64:
		return fmt.Sprintf("%%fd%d", k)
	case t == ir.TF32:
		return fmt.Sprintf("%%f%d", k)
	case t.Bits() == 16:
		return fmt.Sprintf("%%h%d", k)
	case t.Bits() == 32:
		return fmt.Sprintf("%%r%d", k+10)
	}
	return fmt.Sprintf("%%rd%d", k+20)
}

// fpLoad moves the low bits of %rd<src> into register reg of type t.
func fpLoad(t ir.Type, reg string, src int) string {
	switch {
	case t == ir.TF64:
		return fmt.Sprintf("mov.b64 %s, %%rd%d;", reg, src)
	case t == ir.TF32:
		return fmt.Sprintf("cvt.u32.u64 %%r9, %%rd%d;\n\tmov.b32 %s, %%r9;", src, reg)
	case t.Bits() == 16:
		return fmt.Sprintf("cvt.u16.u64 %s, %%rd%d;", reg, src)
	case t.Bits() == 32:
		return fmt.Sprintf("cvt.u32.u64 %s, %%rd%d;", reg, src)
	}
	return fmt.Sprintf("mov.b64 %s, %%rd%d;", reg, src)
}

// fpKernel is the kernel evaluating form fm on operand triples.
func fpKernel(fm *fpForm) string {
	var b strings.Builder
	b.WriteString(`.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b16 %h<8>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<30>;
	.reg .f32 %f<8>;
	.reg .f64 %fd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	mul.wide.u32 %rd3, %r4, 24;
	add.u64 %rd4, %rd1, %rd3;
	ld.global.u64 %rd5, [%rd4];
	ld.global.u64 %rd6, [%rd4+8];
	ld.global.u64 %rd7, [%rd4+16];
`)
	srcs := make([]string, fm.nsrc)
	for k := range fm.nsrc {
		srcs[k] = fpReg(fm.st, k+1)
		fmt.Fprintf(&b, "\t%s\n", fpLoad(fm.st, srcs[k], 5+k))
	}
	dst := fpReg(fm.dt, 4)
	if fm.op == "setp" {
		dst = "%p1"
	}
	fmt.Fprintf(&b, "\t%s %s, %s;\n", fm.text, dst, strings.Join(srcs, ", "))
	switch {
	case fm.op == "setp":
		b.WriteString("\tselp.u64 %rd8, 1, 0, %p1;\n")
	case fm.dt == ir.TF64:
		fmt.Fprintf(&b, "\tmov.b64 %%rd8, %s;\n", dst)
	case fm.dt == ir.TF32:
		fmt.Fprintf(&b, "\tmov.b32 %%r8, %s;\n\tcvt.u64.u32 %%rd8, %%r8;\n", dst)
	case fm.dt.Bits() == 16:
		fmt.Fprintf(&b, "\tcvt.u64.u16 %%rd8, %s;\n", dst)
	case fm.dt.Bits() == 32:
		fmt.Fprintf(&b, "\tcvt.u64.u32 %%rd8, %s;\n", dst)
	default:
		fmt.Fprintf(&b, "\tmov.b64 %%rd8, %s;\n", dst)
	}
	b.WriteString(`	mul.wide.u32 %rd9, %r4, 8;
	add.u64 %rd10, %rd2, %rd9;
	st.global.u64 [%rd10], %rd8;
	ret;
}
`)
	return b.String()
}

// compile parses and compiles fm's kernel once, and records the decoded
// facts of its instruction.
func (fm *fpForm) compile() error {
	fm.once.Do(func() {
		src := fpKernel(fm)
		mod, err := ptx.Parse("fp.ptx", []byte(src))
		if err != nil {
			fm.err = fmt.Errorf("%s: %v\n%s", fm.text, err, src)
			return
		}
		f := mod.Funcs[0]
		found := false
		for i := range ir.InstrID(len(f.Op)) {
			if f.IsDead(i) {
				continue
			}
			if f.Op[i].String() == fm.op {
				if (fm.op == "cvt" && f.Type2[i] != fm.st) || f.Type[i] != map[bool]ir.Type{true: fm.st, false: fm.dt}[fm.op == "setp"] {
					continue // the kernel's own loads, stores and address arithmetic
				}
				fm.t, fm.t2, fm.m = f.Type[i], f.Type2[i], f.Mods[i]
				found = true
			}
		}
		if !found {
			fm.err = fmt.Errorf("%s: instruction not found in\n%s", fm.text, src)
			return
		}
		fm.prog, fm.err = sim.Compile(f)
	})
	return fm.err
}

// fold is what the rules would fold fm to (generalopt_rules_gen.go calls
// the same functions after the patterns' modifier checks, mirrored here).
func (fm *fpForm) fold(a, b, c uint64) (uint64, bool) {
	t, t2, m := fm.t, fm.t2, fm.m
	if m.Has(ir.ModOther) {
		return 0, false
	}
	r := m.Round()
	switch fm.op {
	case "add", "sub", "mul", "fma", "mad", "div", "rcp", "sqrt":
		if !fpRound(r) {
			return 0, false
		}
		if (fm.op == "fma" || fm.op == "mad" || fm.op == "div" || fm.op == "rcp" || fm.op == "sqrt") && r == ir.RoundNone {
			return 0, false
		}
		if (fm.op == "div" || fm.op == "rcp" || fm.op == "sqrt") && m.Has(ir.ModSat) {
			return 0, false
		}
		op := map[string]fpOp{"add": fpAdd, "sub": fpSub, "mul": fpMul, "fma": fpFma, "mad": fpFma, "div": fpDiv, "rcp": fpRcp, "sqrt": fpSqrt}[fm.op]
		return foldFPArith(op, t, m, a, b, c)
	case "min", "max":
		return foldFPMinMax(fm.op == "max", t, m, a, b)
	case "neg", "abs":
		return foldFPNegAbs(fm.op == "abs", t, m, a)
	case "setp":
		return foldFPSetp(t, m, a, b)
	case "cvt":
		return foldCvt(t, t2, m, a)
	}
	return 0, false
}

// fpEdges are the interesting bit patterns of format t: zeros, the
// subnormal and normal extremes, infinities, NaNs (quiet, signalling,
// with payloads, negative), 1 and its neighbours, halves, values whose
// sums and products land on ties.
func fpEdges(t ir.Type) []uint64 {
	ft, ok := fpFormatOf(t)
	if !ok {
		w := t.Bits()
		mask := widthMask(t)
		return []uint64{0, 1, 2, mask, mask - 1, mask >> 1, (mask >> 1) + 1, 1 << (w - 2), 1<<(w/2) + 1, 0x7fff, 0x8000, 0xffff, 1 << 24, 1<<24 + 1, 1<<53 + 1}
	}
	sign := uint64(1) << (ft.bits - 1)
	one := ft.one()
	expAll := uint64(1<<(ft.bits-1-ft.man)-1) << ft.man
	fracMask := uint64(1)<<ft.man - 1
	base := []uint64{
		0, 1, 2, 3, fracMask, fracMask - 1, // zero and subnormals
		1 << ft.man, 1<<ft.man | 1, // min normal
		expAll - 1, expAll - 2, // max normal
		expAll,                         // inf
		expAll | 1<<(ft.man-1),         // quiet NaN
		expAll | 1,                     // signalling NaN
		expAll | fracMask,              // NaN, all payload
		one, one + 1, one - 1, one + 2, // 1 and neighbours
		one - 1<<ft.man, one + 1<<ft.man, // 0.5, 2
		one + 1<<ft.man | 1<<(ft.man-1),  // 3
		one + 1<<(ft.man-1),              // 1.5
		(one - 1<<ft.man) | 1,            // 0.5 + ulp/2 of 1
		uint64(ft.man+ft.emax) << ft.man, // 2^man: ulp 1
		uint64(ft.man+1+ft.emax) << ft.man,
		uint64(ft.man+ft.emax)<<ft.man | 1,
		uint64(ft.emax-ft.man-1) << ft.man, // 2^-(man+1): half an ulp of 1
		uint64(ft.emax-ft.man) << ft.man,   // 2^-man: an ulp of 1
		uint64(ft.emax-ft.man-1)<<ft.man | 1,
		uint64(62+ft.emax) << ft.man, uint64(63+ft.emax) << ft.man, uint64(64+ft.emax) << ft.man, // 2^62..2^64
		uint64(31+ft.emax) << ft.man, uint64(32+ft.emax) << ft.man, uint64(15+ft.emax) << ft.man, uint64(16+ft.emax) << ft.man,
	}
	var out []uint64
	for _, v := range base {
		if v&^(sign|sign-1) != 0 || v>>(ft.bits-1) != 0 && v != 0 {
			continue // beyond the format (the narrow formats' big powers)
		}
		out = append(out, v, v|sign)
	}
	return out
}

// fpOperand draws one source of type t: an edge value, random bits, or a
// value near another operand (so sums cancel and round at ties).
func fpOperand(r *rand.Rand, t ir.Type, edges []uint64, prev uint64) uint64 {
	mask := widthMask(t)
	switch r.Intn(6) {
	case 0, 1:
		return edges[r.Intn(len(edges))]
	case 2:
		return prev ^ uint64(r.Intn(4)) // a neighbour of the previous one
	case 3:
		if ft, ok := fpFormatOf(t); ok { // the previous one's magnitude, negated, shifted a little
			return (prev ^ 1<<(ft.bits-1) + uint64(r.Intn(3))<<ft.man) & mask
		}
	}
	return r.Uint64() & mask
}

// fpBatch evaluates form fm on n operand triples in the simulator and
// compares every fold; it returns how many cases folded and how many
// were refused.
func fpBatch(t testing.TB, fm *fpForm, ops [][3]uint64) (folded, refused int) {
	t.Helper()
	if err := fm.compile(); err != nil {
		t.Fatal(err)
	}
	n := len(ops)
	in := make([]byte, 24*n)
	for k, o := range ops {
		for j := range 3 {
			binary.LittleEndian.PutUint64(in[24*k+8*j:], o[j])
		}
	}
	mem := sim.NewMemory()
	pin := mem.AllocBytes(in)
	pout := mem.Alloc(8 * n)
	block := min(n, 256)
	if n%block != 0 {
		t.Fatalf("batch of %d cases", n)
	}
	params := [][]byte{binary.LittleEndian.AppendUint64(nil, pin), binary.LittleEndian.AppendUint64(nil, pout)}
	if _, err := fm.prog.Run(&sim.Launch{Grid: sim.Dim3{X: n / block, Y: 1, Z: 1}, Block: sim.Dim3{X: block, Y: 1, Z: 1}, Params: params}, mem); err != nil {
		t.Fatalf("%s: %v", fm.text, err)
	}
	out := mem.Bytes(pout)
	mask := widthMask(fm.dt)
	if fm.op == "setp" {
		mask = 1
	}
	for k, o := range ops {
		want := binary.LittleEndian.Uint64(out[8*k:]) & mask
		got, ok := fm.fold(o[0]&widthMask(fm.st), o[1]&widthMask(fm.st), o[2]&widthMask(fm.st))
		if !ok {
			refused++
			continue
		}
		folded++
		if got&mask != want {
			t.Errorf("%s %#x, %#x, %#x: folded %#x, simulator %#x", fm.text, o[0]&widthMask(fm.st), o[1]&widthMask(fm.st), o[2]&widthMask(fm.st), got&mask, want)
		}
	}
	return folded, refused
}

// fpCases draws n operand triples for form fm.
func fpCases(r *rand.Rand, fm *fpForm, n int) [][3]uint64 {
	edges := fpEdges(fm.st)
	ops := make([][3]uint64, n)
	for k := range ops {
		a := fpOperand(r, fm.st, edges, r.Uint64())
		b := fpOperand(r, fm.st, edges, a)
		c := fpOperand(r, fm.st, edges, b)
		if r.Intn(4) == 0 && fm.op == "fma" || fm.op == "mad" && r.Intn(4) == 0 {
			// c near -(a·b): exact cancellations and ties of the fused sum
			if p, ok := foldFPArith(fpMul, fm.st, 0, a, b, 0); ok {
				c = p ^ 1<<(fm.st.Bits()-1) ^ uint64(r.Intn(2))
			}
		}
		ops[k] = [3]uint64{a, b, c}
	}
	return ops
}

// TestFoldFPMatchesSimulator runs every form on its edge values crossed
// (one and two sources; a quarter of the pairs under -short) and on
// random operands. PTXOPT_FPFOLD_CASES=N runs N random cases per form
// (the long run); the default is 256.
func TestFoldFPMatchesSimulator(t *testing.T) {
	skipUnderRace(t)
	per := 256
	if s := os.Getenv("PTXOPT_FPFOLD_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		per = (n + 255) / 256 * 256
	}
	r := rand.New(rand.NewSource(1))
	total, folded := 0, 0
	for _, fm := range fpForms {
		// edges crossed: all pairs (the third source an edge too)
		edges := fpEdges(fm.st)
		var ops [][3]uint64
		stride := 1
		if testing.Short() {
			stride = 4 // a quarter of the pairs (all of them in the full run)
		}
		for ai, a := range edges {
			for bi, b := range edges {
				if (ai+bi)%stride != 0 {
					continue
				}
				ops = append(ops, [3]uint64{a, b, edges[(len(ops)*7)%len(edges)]})
				if fm.nsrc == 1 {
					break
				}
			}
		}
		for len(ops)%256 != 0 {
			ops = append(ops, ops[len(ops)%len(edges)])
		}
		for done := 0; done < per; done += 256 {
			ops = append(ops, fpCases(r, fm, 256)...)
		}
		for k := 0; k < len(ops); k += 1 << 14 {
			f, _ := fpBatch(t, fm, ops[k:min(len(ops), k+1<<14)])
			folded += f
		}
		total += len(ops)
		if t.Failed() {
			t.Fatalf("stopped at %s", fm.text)
		}
	}
	t.Logf("%d forms, %d cases, %d folded (the rest refused), all equal to the simulator", len(fpForms), total, folded)
	if folded < total/2 {
		t.Errorf("only %d of %d cases folded", folded, total)
	}
}

// FuzzFoldFP: one form (by index) on three fuzzed sources.
func FuzzFoldFP(f *testing.F) {
	for k := range fpForms {
		f.Add(uint16(k), uint64(0x3f800000), uint64(0x33800000), uint64(0x7fc00000))
		f.Add(uint16(k), uint64(0x3ff0000000000000), uint64(0x8000000000000001), uint64(0x3c00))
	}
	f.Fuzz(func(t *testing.T, form uint16, a, b, c uint64) {
		fm := fpForms[int(form)%len(fpForms)]
		ops := make([][3]uint64, 256)
		for k := range ops {
			ops[k] = [3]uint64{a, b, c}
		}
		fpBatch(t, fm, ops)
	})
}

// TestFoldFPRefuses: the forms and values the folder leaves alone.
func TestFoldFPRefuses(t *testing.T) {
	f32 := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	for _, tc := range []struct {
		text    string
		a, b, c uint64
	}{
		{"div.approx.f32", f32(1), f32(3), 0},
		{"div.full.f32", f32(1), f32(3), 0},
		{"sqrt.approx.f32", f32(2), 0, 0},
		{"min.NaN.f32", f32(1), f32(2), 0},
		{"add.f64", 0x7ff0000000000000, 0xfff0000000000000, 0}, // inf - inf: an f64 NaN
		{"add.f16", 0x7e00, 0x3c00, 0},                         // an f16 NaN source
		{"neg.f32", 0x7fc00001, 0, 0},                          // NaN bits unspecified
		{"abs.f64", 0x7ff8000000000001, 0, 0},
		{"cvt.rzi.f32.f64", 0x4770000000000001, 0, 0},
		{"cvt.f32.f64", 0x3ff0000000000000, 0, 0}, // narrowing without a rounding
	} {
		var fm *fpForm
		for _, x := range fpForms {
			if x.text == tc.text {
				fm = x
			}
		}
		if fm == nil {
			t.Errorf("%s: not a form under test", tc.text)
			continue
		}
		if err := fm.compile(); err != nil {
			t.Fatal(err)
		}
		if v, ok := fm.fold(tc.a, tc.b, tc.c); ok {
			t.Errorf("%s %#x %#x %#x folded to %#x; want left alone", tc.text, tc.a, tc.b, tc.c, v)
		}
	}
}

// TestFoldFPEdgeCases: results IEEE 754 and PTX state, written out.
func TestFoldFPEdgeCases(t *testing.T) {
	f32 := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	f64 := math.Float64bits
	const nan32 = 0x7fffffff
	for _, tc := range []struct {
		text    string
		a, b, c uint64
		want    uint64
	}{
		{"add.f32", f32(1), 0x33800000, 0, f32(1)},                                                     // 1 + 2^-24: a tie, to even
		{"add.f32", 0x3f800001, 0x33800000, 0, 0x3f800002},                                             // odd: the tie goes up
		{"add.rp.f32", f32(1), 0x33800000, 0, 0x3f800001},                                              // up
		{"add.rm.f32", f32(-1), 0xb3800000, 0, 0xbf800001},                                             // down, negative
		{"add.rz.f32", f32(-1), 0xb3800000, 0, f32(-1)},                                                // towards zero
		{"add.f32", f32(1), f32(-1), 0, 0},                                                             // exact cancellation: +0
		{"add.f32", 0x80000000, 0x80000000, 0, 0x80000000},                                             // -0 + -0
		{"add.f32", 0x7f800000, 0xff800000, 0, nan32},                                                  // inf - inf
		{"add.f32", 0x7fc00001, f32(1), 0, nan32},                                                      // NaN in: the canonical NaN
		{"add.f32", 0x7f7fffff, 0x73800000, 0, 0x7f800000},                                             // max + half an ulp: a tie, even is inf
		{"add.rz.f32", 0x7f7fffff, 0x7f7fffff, 0, 0x7f7fffff},                                          // overflow towards zero: max
		{"add.rm.f32", 0x7f7fffff, 0x7f7fffff, 0, 0x7f7fffff},                                          // positive overflow rounded down: max
		{"add.rm.f32", 0xff7fffff, 0xff7fffff, 0, 0xff800000},                                          // negative overflow rounded down: -inf
		{"add.ftz.f32", 0x00000001, 0x00000001, 0, 0},                                                  // subnormals flushed
		{"sub.rm.f32", f32(1), f32(1), 0, 0x80000000},                                                  // exact cancellation under .rm: -0
		{"add.rm.f64", 0x8000000000000000, 0, 0, 0x8000000000000000},                                   // -0 + +0 under .rm: -0
		{"add.rp.f64", 0x8000000000000000, 0, 0, 0},                                                    // and +0 under .rp
		{"add.rz.f64", 0x7fefffffffffffff, 0x7fefffffffffffff, 0, 0x7fefffffffffffff},                  // f64 overflow towards zero: max
		{"mul.rm.f64", 0x7fefffffffffffff, 0xc000000000000000, 0, 0xfff0000000000000},                  // negative overflow down: -inf
		{"mul.rp.f64", 0x1, 0x3fe0000000000000, 0, 0x1},                                                // half the smallest subnormal, up
		{"mul.rz.f64", 0x1, 0x3fe0000000000000, 0, 0},                                                  // and towards zero
		{"div.rp.f64", 0x1, 0x4008000000000000, 0, 0x1},                                                // a third of it, up
		{"fma.rp.f64", 0x7fe0000000000000, 0x3ff0000000000000, 0x1, 0x7fe0000000000001},                // 2^1023 + 2^-1074, up
		{"fma.rz.f64", 0x7fe0000000000000, 0x3ff0000000000000, 0x8000000000000001, 0x7fdfffffffffffff}, // 2^1023 - 2^-1074, towards zero
		{"add.f32", 0x00000001, 0x00000001, 0, 0x00000002},                                             // kept
		{"add.sat.f32", f32(0.75), f32(0.5), 0, f32(1)},                                                // clamped
		{"add.sat.f32", f32(-0.75), f32(0.5), 0, 0},                                                    // to +0
		{"add.sat.f32", 0x7f800000, 0xff800000, 0, 0},                                                  // NaN to +0
		{"mul.f32", 0x00800000, 0x3f000000, 0, 0x00400000},                                             // min normal / 2: subnormal
		{"mul.ftz.f32", 0x00800000, 0x3f000000, 0, 0},                                                  // flushed result
		{"mul.rz.f32", 0x00800001, 0x3f000000, 0, 0x00400000},                                          // subnormal rounding
		{"mul.f32", 0x00800001, 0x3f000000, 0, 0x00400000},                                             // tie to even in the subnormals
		{"mul.f32", 0x00800003, 0x3f000000, 0, 0x00400002},                                             // tie up to even
		{"mul.f32", 0x80000000, 0x7f800000, 0, nan32},                                                  // 0 · inf
		{"mul.rp.f32", 0x00000001, 0x3f000000, 0, 0x00000001},                                          // underflow rounded up
		{"mul.f32", 0x00000001, 0x3f000000, 0, 0},                                                      // half the smallest: a tie, to 0
		{"mul.f32", 0x80000001, 0x3f000000, 0, 0x80000000},                                             // its sign kept
		{"fma.rn.f32", 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000},                                 // the product's low bits survive
		{"fma.rn.f32", f32(2), f32(3), f32(-6), 0},                                                     // exact zero: +0
		{"fma.rn.f32", 0x80000000, f32(1), 0x80000000, 0x80000000},                                     // -0 + -0
		{"div.rn.f32", f32(1), f32(3), 0, 0x3eaaaaab},
		{"div.rz.f32", f32(1), f32(3), 0, 0x3eaaaaaa},
		{"div.rn.f32", f32(1), 0x80000000, 0, 0xff800000}, // 1 / -0
		{"div.rn.f32", 0, 0, 0, nan32},                    // 0 / 0
		{"div.rn.f64", f64(1), f64(3), 0, 0x3fd5555555555555},
		{"rcp.rn.f64", f64(3), 0, 0, 0x3fd5555555555555},
		{"rcp.rp.f64", f64(3), 0, 0, 0x3fd5555555555556},
		{"sqrt.rn.f32", f32(2), 0, 0, 0x3fb504f3},
		{"sqrt.rp.f32", f32(2), 0, 0, 0x3fb504f4},
		{"sqrt.rn.f32", f32(4), 0, 0, f32(2)},
		{"sqrt.rn.f32", 0x80000000, 0, 0, 0x80000000}, // sqrt(-0) = -0
		{"sqrt.rn.f32", f32(-4), 0, 0, nan32},
		{"sqrt.rn.f64", f64(2), 0, 0, f64(math.Sqrt(2))},
		{"min.f32", 0x7fc00000, f32(1), 0, f32(1)}, // NaN: the other source
		{"min.f32", 0x80000000, 0, 0, 0x80000000},  // -0 below +0
		{"max.f32", 0x80000000, 0, 0, 0},
		{"min.f32", 0x7fc00000, 0x7fc00001, 0, nan32},
		{"max.ftz.f32", 0x80000000, 0x00000001, 0, 0}, // flushed +0 above -0
		{"neg.f32", 0, 0, 0, 0x80000000},
		{"abs.ftz.f32", 0x80000003, 0, 0, 0},
		{"abs.f32", 0x80000003, 0, 0, 3},
		{"setp.ne.f32", 0x7fc00000, f32(1), 0, 0}, // ordered: false with a NaN
		{"setp.neu.f32", 0x7fc00000, f32(1), 0, 1},
		{"setp.eq.f32", 0x80000000, 0, 0, 1},              // -0 == +0
		{"setp.lt.ftz.f32", 0x00000001, 0x00000002, 0, 0}, // both flushed to 0
		{"setp.lt.f32", 0x00000001, 0x00000002, 0, 1},
		{"setp.num.f64", f64(1), 0x7ff0000000000001, 0, 0},
		{"setp.nan.f64", f64(1), 0x7ff0000000000001, 0, 1},
		{"cvt.rni.s32.f32", f32(2.5), 0, 0, 2}, // ties to even
		{"cvt.rni.s32.f32", f32(-2.5), 0, 0, 0xfffffffe},
		{"cvt.rmi.s32.f32", f32(-2.25), 0, 0, 0xfffffffd},
		{"cvt.rpi.u32.f32", f32(-0.5), 0, 0, 0},         // -0 then clamped
		{"cvt.rzi.s32.f32", 0x7fc00000, 0, 0, 0},        // NaN to 0
		{"cvt.rzi.s32.f32", f32(3e9), 0, 0, 0x7fffffff}, // saturated
		{"cvt.rzi.s16.f32", f32(-40000), 0, 0, 0x8000},
		{"cvt.rzi.u64.f64", 0x7ff0000000000000, 0, 0, 0xffffffffffffffff},
		{"cvt.rn.f32.s32", 16777217, 0, 0, 0x4b800000}, // 2^24+1: a tie, to even
		{"cvt.rp.f32.s32", 16777217, 0, 0, 0x4b800001},
		{"cvt.rn.f32.s64", 0x8000000000000000, 0, 0, 0xdf000000}, // -2^63
		{"cvt.rn.f16.s32", 65520, 0, 0, 0x7c00},                  // above f16's max, rounds to inf
		{"cvt.rz.f16.s32", 65520, 0, 0, 0x7bff},
		{"cvt.rn.sat.f32.s32", 5, 0, 0, f32(1)},
		{"cvt.rn.f32.f64", f64(1.0 / 3), 0, 0, 0x3eaaaaab},
		{"cvt.rn.f32.f64", 0x36a0000000000000, 0, 0, 0x00000001}, // 2^-149: the smallest subnormal
		{"cvt.rn.f32.f64", 0x3690000000000000, 0, 0, 0},          // 2^-150: a tie, to 0
		{"cvt.rn.ftz.f32.f64", 0x36a0000000000000, 0, 0, 0},
		{"cvt.rn.f32.f64", 0x7ff0000000000001, 0, 0, nan32},   // NaN: the canonical f32 NaN
		{"cvt.f64.f32", 0x00000001, 0, 0, 0x36a0000000000000}, // widening is exact
		{"cvt.ftz.f64.f32", 0x00000001, 0, 0, 0},
		{"cvt.rn.bf16.f32", 0x3f808000, 0, 0, 0x3f80}, // tie to even
		{"cvt.rn.bf16.f32", 0x3f818000, 0, 0, 0x3f82},
		{"cvt.rni.f32.f32", f32(2.5), 0, 0, f32(2)},
		{"cvt.rmi.f64.f64", f64(-0.5), 0, 0, f64(-1)},
		{"cvt.rzi.f64.f64", f64(-0.5), 0, 0, 0x8000000000000000}, // -0
		{"cvt.s64.s32", 0xffffffff, 0, 0, 0xffffffffffffffff},
		{"cvt.u64.u32", 0xffffffff, 0, 0, 0xffffffff},
		{"cvt.sat.u16.s32", 0xffffffff, 0, 0, 0},
		{"cvt.sat.s16.u32", 0x10000, 0, 0, 0x7fff},
		{"cvt.u16.s32", 0x12345, 0, 0, 0x2345},
	} {
		var fm *fpForm
		for _, x := range fpForms {
			if x.text == tc.text {
				fm = x
			}
		}
		if fm == nil {
			t.Errorf("%s: not a form under test", tc.text)
			continue
		}
		if err := fm.compile(); err != nil {
			t.Fatal(err)
		}
		got, ok := fm.fold(tc.a, tc.b, tc.c)
		if !ok || got != tc.want {
			t.Errorf("%s %#x %#x %#x: folded %#x (%v), want %#x", tc.text, tc.a, tc.b, tc.c, got, ok, tc.want)
		}
		ops := make([][3]uint64, 256)
		for k := range ops {
			ops[k] = [3]uint64{tc.a, tc.b, tc.c}
		}
		fpBatch(t, fm, ops)
	}
}

// TestFoldRulesGenerated: the float, conversion and select rules and
// MergeEquivalentConditionalFlow on generated kernels (gen.Config.Fold),
// the GeneralOptimize bundles alone and the whole pipeline, each result
// checked in the simulator; every rule named here must fire, and the
// merging too.
func TestFoldRulesGenerated(t *testing.T) {
	skipUnderRace(t)
	want := []string{"FoldFAdd", "FoldFSub", "FoldFMul", "FoldFDiv", "FoldFSqrt", "FoldFFma", "FoldFMin", "FoldFMax",
		"FoldFNeg", "FoldFAbs", "FoldCvt", "FoldFSetp", "FmaOne", "SelpMin", "SelpMax", "MadForm", "WideShlS", "WideShlU"}
	n := envCount(t, "PTXOPT_GEN_KERNELS", 40) // -short too: a few seconds
	target, _ := ParseTarget("sm_80")
	only, err := NewConfig(MaxOpt, target, nil, nil, []string{"GeneralOptimizeEarly", "GeneralOptimize"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	only.Verify, all.Verify = true, true
	fired := map[string]int64{}
	merged := int64(0)
	for seed := int64(0); seed < n; seed++ {
		f := gen.Func(gen.Kernel(gen.Config{Seed: seed, Size: 150 + int(seed%5)*50, Fold: true}))
		for _, c := range []*Config{only, all} {
			after := f.Clone()
			stats, err := Run(context.Background(), c, nil, after, nil)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for _, r := range want {
				fired[r] += ruleCounter(stats, r+"\x00")
			}
			merged += phaseCounter(stats, "GeneralOptimizeEarly", "MergeEquivalentConditionalFlow: equivalent chains merged")
			res, err := sim.Diff(f, after, sim.DiffOptions{Seeds: 3, ExtraSeeds: simtest.ExtraSeeds})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if res.Mismatch != nil {
				t.Fatalf("seed %d (whole pipeline %v): changes what the kernel computes: %v", seed, c == all, res.Mismatch)
			}
			if msg := simtest.Verdict(res); msg != "" {
				t.Fatalf("seed %d: the change was not checked: %s", seed, msg)
			}
		}
	}
	t.Logf("over %d kernels: %v; MergeEquivalentConditionalFlow merged %d", n, fired, merged)
	if merged == 0 {
		t.Errorf("MergeEquivalentConditionalFlow never merged on %d generated kernels", n)
	}
	for _, r := range want {
		if fired[r] == 0 {
			t.Errorf("rule %s never fired on %d generated kernels", r, n)
		}
	}
}
