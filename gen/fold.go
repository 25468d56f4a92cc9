package gen

import "github.com/ptxopt/ptxopt/ir"

// Config.Fold: code GeneralOptimize's folding rules act on, as -O0
// compilers leave it: floating-point arithmetic and conversions on
// constants (edge values included: zeros of both signs, subnormals,
// infinities, NaN, ties), comparisons of constants whose predicates then
// guard instructions and selects, compare-and-pick selects (min, max,
// clamps) of integer values, indices widened and scaled, and pairs of
// equal two-level chains under one guard.

// foldPercent is the share of statements that are fold fodder.
const foldPercent = 12

// foldF32 are the f32 constants drawn (bits).
var foldF32 = []uint32{
	0x3f800000, 0xbf800000, 0x3f000000, 0x40400000, 0x33800000, 0x3f800001,
	0x00000001, 0x80000003, 0x00800000, 0x7f7fffff, 0x7f800000, 0xff800000,
	0x7fc00000, 0x00000000, 0x80000000, 0x4b800001, 0xc0200000, 0x3eaaaaab,
}

// foldF64 are the f64 constants drawn (bits).
var foldF64 = []uint64{
	0x3ff0000000000000, 0x4000000000000000, 0x3fd5555555555555, 0xbff8000000000000,
	0x0000000000000001, 0x7fefffffffffffff, 0x8000000000000000, 0x41e0000000000001,
}

var foldF32Ops = []string{"add.f32", "sub.f32", "mul.f32", "add.rz.f32", "add.rp.f32", "sub.rm.f32",
	"mul.rn.ftz.f32", "add.sat.f32", "div.rn.f32", "div.rz.f32", "min.f32", "max.ftz.f32"}

func (g *gen) f32imm(b uint32) ir.Operand {
	return g.f.AddImm(ir.Imm{Bits: uint64(b), Kind: ir.ImmF32})
}

func (g *gen) foldOp() {
	switch g.rnd.Intn(7) {
	case 6: // two equal chains under one guard (MergeEquivalentConditionalFlow)
		g.equalChains()
	case 0, 1: // f32 arithmetic on constants
		a := g.reg(ir.TF32)
		g.emit("mov.f32", def(a), g.f32imm(foldF32[g.rnd.Intn(len(foldF32))]))
		d := g.reg(ir.TF32)
		switch k := g.rnd.Intn(10); {
		case k < 6:
			g.emit(foldF32Ops[g.rnd.Intn(len(foldF32Ops))], def(d), use(a), g.f32imm(foldF32[g.rnd.Intn(len(foldF32))]))
		case k < 7:
			g.emit("fma.rn.f32", def(d), use(a), g.f32imm(foldF32[g.rnd.Intn(len(foldF32))]), use(a))
		case k < 8:
			g.emit([]string{"sqrt.rn.f32", "neg.f32", "abs.ftz.f32"}[g.rnd.Intn(3)], def(d), use(a))
		default:
			// x·1 + y: an add (FmaOne) on values nothing knows
			g.emit("fma.rn.f32", def(d), use(g.pick(g.p.f32)), g.fimm(1), use(g.pick(g.p.f32)))
		}
		g.p.f32 = append(g.p.f32, d)
	case 2: // conversions of constants
		r := g.reg(ir.TB32)
		g.emit("mov.u32", def(r), g.imm(int64(g.rnd.Intn(1<<25))-1<<24))
		f := g.reg(ir.TF32)
		g.emit([]string{"cvt.rn.f32.s32", "cvt.rz.f32.u32", "cvt.rp.f32.s32"}[g.rnd.Intn(3)], def(f), use(r))
		g.p.f32 = append(g.p.f32, f)
		d, fresh := g.reg(ir.TB32), true
		g.emit([]string{"cvt.rni.s32.f32", "cvt.rzi.u32.f32", "cvt.rmi.s32.f32"}[g.rnd.Intn(3)], def(d), use(f))
		g.def32(d, fresh)
		// f64: a constant through arithmetic and a narrowing
		x, y := g.reg(ir.TB64), g.reg(ir.TB64)
		g.emit("mov.b64", def(x), g.f.AddImm(ir.Imm{Bits: foldF64[g.rnd.Intn(len(foldF64))], Kind: ir.ImmF64}))
		g.emit([]string{"add.rn.f64", "mul.rn.f64", "div.rn.f64", "sub.rn.f64"}[g.rnd.Intn(4)], def(y), use(x),
			g.f.AddImm(ir.Imm{Bits: foldF64[g.rnd.Intn(len(foldF64))], Kind: ir.ImmF64}))
		h := g.reg(ir.TF32)
		g.emit("cvt.rn.f32.f64", def(h), use(y))
		g.p.f32 = append(g.p.f32, h)
		// an index widened and scaled, as -O0 code addresses arrays
		w, sc := g.reg(ir.TB64), g.reg(ir.TB64)
		if g.rnd.Intn(2) == 0 {
			g.emit("cvt.s64.s32", def(w), use(g.pick32()))
		} else {
			g.emit("cvt.u64.u32", def(w), use(g.pick32()))
		}
		g.emit("shl.b64", def(sc), use(w), g.imm(int64(g.rnd.Intn(5))))
		g.p.r64 = append(g.p.r64, sc)
	case 3: // a comparison of constants: a constant predicate
		p := g.reg(ir.TPred)
		if g.rnd.Intn(2) == 0 {
			a := g.reg(ir.TF32)
			g.emit("mov.f32", def(a), g.f32imm(foldF32[g.rnd.Intn(len(foldF32))]))
			cmp := []string{"lt", "gtu", "equ", "num", "nan", "ne", "ge"}[g.rnd.Intn(7)]
			g.emit("setp."+cmp+".f32", def(p), use(a), g.fimm(float32(g.rnd.Intn(3))-1))
		} else {
			a := g.reg(ir.TB32)
			g.emit("mov.u32", def(a), g.imm(int64(g.rnd.Intn(20))))
			g.emit("setp."+[]string{"lt", "ge", "ne"}[g.rnd.Intn(3)]+".s32", def(p), use(a), g.imm(int64(g.rnd.Intn(20))))
		}
		g.p.pred = append(g.p.pred, p)
		// used at once: a guarded instruction and a select
		d, fresh := g.reg(ir.TB32), true
		g.emit("selp.b32", def(d), use(g.pick32()), use(g.pick32()), use(p))
		g.def32(d, fresh)
	default: // compare and pick: min, max, clamps
		a, b := g.pick32(), g.pick32()
		ty := []string{"s32", "u32"}[g.rnd.Intn(2)]
		p := g.reg(ir.TPred)
		d, fresh := g.reg(ir.TB32), true
		if g.rnd.Intn(3) == 0 {
			k := int64(1 + g.rnd.Intn(300))
			g.emit("setp.lt."+ty, def(p), use(a), g.imm(k))
			if g.rnd.Intn(2) == 0 {
				g.emit("selp.b32", def(d), use(a), g.imm(k-1), use(p)) // min(a, k-1)
			} else {
				g.emit("selp.b32", def(d), g.imm(k-1), use(a), use(p)) // max(a, k-1)
			}
		} else {
			cmp := []string{"lt", "le", "gt", "ge"}[g.rnd.Intn(4)]
			g.emit("setp."+cmp+"."+ty, def(p), use(a), use(b))
			if g.rnd.Intn(2) == 0 {
				a, b = b, a
			}
			g.emit("selp.b32", def(d), use(a), use(b), use(p))
		}
		g.def32(d, fresh)
	}
}

// equalChains emits the same two-level computation twice under one guard
// (or none), into registers that hold a value in every lane first.
func (g *gen) equalChains() {
	guard := ir.NoOperand
	if len(g.p.pred) > 0 && g.rnd.Intn(3) != 0 {
		guard = use(g.pick(g.p.pred))
		if g.rnd.Intn(2) == 0 {
			guard = guard.WithFlags(ir.FlagNot)
		}
	}
	a, b, c := g.pick32(), g.pick32(), g.pick32()
	op1 := []string{"add.s32", "xor.b32", "mul.lo.s32", "sub.s32"}[g.rnd.Intn(4)]
	op2 := []string{"add.s32", "and.b32", "shl.b32", "max.s32"}[g.rnd.Intn(4)]
	neg := g.rnd.Intn(2) == 0
	k2 := int64(1 + g.rnd.Intn(7))
	var ds [2]ir.RegID
	for k := range ds {
		d := g.reg(ir.TB32)
		g.emit("mov.b32", def(d), use(c))
		t := g.reg(ir.TB32)
		src := a
		if neg {
			n := g.reg(ir.TB32)
			g.emitG(guard, "neg.s32", def(n), use(a))
			src = n
		}
		g.emitG(guard, op1, def(t), use(src), use(b))
		g.emitG(guard, op2, def(d), use(t), g.imm(k2))
		ds[k] = d
	}
	g.def32(ds[0], true)
	g.def32(ds[1], true)
}
