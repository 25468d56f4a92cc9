package ptx

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

const prelude = `.version 8.0
.target sm_80
.address_size 64
.global .align 4 .b8 gvar[64];
.global .texref tex0;
.visible .func (.param .b32 fret) fn(.param .b32 fa);
.visible .entry k(.param .u64 k_p)
{
	.reg .b32 %r<10>;
	.reg .pred %p<4>;
	.reg .b64 %rd<4>;
	.reg .f32 %f<4>;
	.shared .align 4 .b8 sh[64];
`

func parseKernel(t *testing.T, body string) *ir.Func {
	t.Helper()
	src := prelude + body + "\n}\n"
	m, err := Parse("t.ptx", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", body, err)
	}
	f := m.Funcs[len(m.Funcs)-1]
	// The print must re-parse to the same IR.
	out := Format(m)
	m2, err := Parse("printed.ptx", out)
	if err != nil {
		t.Fatalf("printed form of %q does not parse: %v\n%s", body, err, out)
	}
	if d := diffModules(m, m2); d != "" {
		t.Fatalf("%q: reparse differs: %s", body, d)
	}
	return f
}

// opString renders an operand compactly: '=' marks a definition; R reg,
// I imm (kind:value), S sym, L label (block), X special, A addr, {..}/(..)
// lists, _ sink; ! and - flags, | pipe.
func opString(f *ir.Func, o ir.Operand) string {
	var b strings.Builder
	if o.IsDef() {
		b.WriteByte('=')
	}
	if o.Kind() != ir.KList && o.Has(ir.FlagPipe) {
		b.WriteByte('|')
	}
	if o.Has(ir.FlagNot) {
		b.WriteByte('!')
	}
	if o.Has(ir.FlagNeg) {
		b.WriteByte('-')
	}
	switch o.Kind() {
	case ir.KReg:
		b.WriteString("R" + f.Str(f.RegName[o.Index()]))
	case ir.KImm:
		v := f.Imms[o.Index()]
		fmt.Fprintf(&b, "I%d:%#x", v.Kind, v.Bits)
	case ir.KSym:
		b.WriteString("S" + f.Str(f.Mod.Syms[o.Index()].Name))
	case ir.KLabel:
		fmt.Fprintf(&b, "L%d", o.Index())
	case ir.KSpecial:
		b.WriteString("X" + f.Str(f.Mod.Specials[o.Index()]))
	case ir.KSink:
		b.WriteString("_")
	case ir.KList:
		open, close := "{", "}"
		if o.Has(ir.FlagParen) {
			open, close = "(", ")"
		}
		var parts []string
		for _, e := range f.ListElems(o.Index()) {
			parts = append(parts, opString(f, e))
		}
		b.WriteString(open + strings.Join(parts, " ") + close)
	case ir.KAddr:
		a := f.Addrs[o.Index()]
		var parts []string
		for _, e := range f.ListElems(a.Elems) {
			parts = append(parts, opString(f, e))
		}
		b.WriteString("[" + strings.Join(parts, " "))
		if a.HasOff {
			fmt.Fprintf(&b, "%+d", a.Off)
		}
		b.WriteString("]")
	}
	return b.String()
}

func instrString(f *ir.Func, i ir.InstrID) string {
	var parts []string
	if g := f.Guard[i]; g != ir.NoOperand {
		parts = append(parts, "@"+opString(f, g))
	}
	for _, o := range f.Ops(i) {
		parts = append(parts, opString(f, o))
	}
	return strings.Join(parts, " ")
}

func TestOperandForms(t *testing.T) {
	f32one := uint64(math.Float32bits(1))
	tests := []struct {
		in, want string
	}{
		{"add.s32 %r1, %r2, %r3;", "=R%r1 R%r2 R%r3"},
		{"add.s32 %r1, %r2, 5;", fmt.Sprintf("=R%%r1 R%%r2 I%d:0x5", ir.ImmInt)},
		{"add.s32 %r1, %r2, -5;", fmt.Sprintf("=R%%r1 R%%r2 I%d:%#x", ir.ImmInt, uint64(math.MaxUint64-4))},
		{"add.s32 %r1, %r2, 0x1F;", fmt.Sprintf("=R%%r1 R%%r2 I%d:0x1f", ir.ImmHex)},
		{"add.s32 %r1, %r2, -0x10;", fmt.Sprintf("=R%%r1 R%%r2 -I%d:0x10", ir.ImmHex)},
		{"add.s32 %r1, %r2, 017;", fmt.Sprintf("=R%%r1 R%%r2 I%d:0xf", ir.ImmOct)},
		{"add.s32 %r1, %r2, 0b101;", fmt.Sprintf("=R%%r1 R%%r2 I%d:0x5", ir.ImmBin)},
		{"add.u32 %r1, %r2, 7U;", fmt.Sprintf("=R%%r1 R%%r2 I%d:0x7", ir.ImmUint)},
		{"add.u32 %r1, %r2, 0xFFU;", fmt.Sprintf("=R%%r1 R%%r2 I%d:0xff", ir.ImmHexU)},
		{"add.f32 %f1, %f2, 0f3F800000;", fmt.Sprintf("=R%%f1 R%%f2 I%d:%#x", ir.ImmF32, f32one)},
		{"add.f64 %rd1, %rd2, 0d3FF0000000000000;", fmt.Sprintf("=R%%rd1 R%%rd2 I%d:%#x", ir.ImmF64, math.Float64bits(1))},
		{"add.f32 %f1, %f2, 2.5;", fmt.Sprintf("=R%%f1 R%%f2 I%d:%#x", ir.ImmDecimal, math.Float64bits(2.5))},
		{"add.f32 %f1, %f2, 1e-3;", fmt.Sprintf("=R%%f1 R%%f2 I%d:%#x", ir.ImmDecimal, math.Float64bits(1e-3))},
		{"ld.global.u32 %r1, [%rd1];", "=R%r1 [R%rd1]"},
		{"ld.global.u32 %r1, [%rd1+16];", "=R%r1 [R%rd1+16]"},
		{"ld.global.u32 %r1, [%rd1+-4];", "=R%r1 [R%rd1-4]"},
		{"ld.global.u32 %r1, [%rd1-8];", "=R%r1 [R%rd1-8]"},
		{"ld.global.u32 %r1, [ %rd1 + 0 ];", "=R%r1 [R%rd1+0]"},
		{"ld.global.u32 %r1, [gvar];", "=R%r1 [Sgvar]"},
		{"ld.global.u32 %r1, [gvar+8];", "=R%r1 [Sgvar+8]"},
		{"ld.shared.u32 %r1, [sh+4];", "=R%r1 [Ssh+4]"},
		{"ld.u32 %r1, [0x100];", fmt.Sprintf("=R%%r1 [I%d:0x100]", ir.ImmHex)},
		{"ld.param.u64 %rd1, [k_p];", "=R%rd1 [Sk_p]"},
		{"tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f1, %f2}];", "={=R%f0 =R%f1 =R%f2 =R%f3} [Stex0 {R%f1 R%f2}]"},
		{"st.global.v2.u32 [%rd1], {%r1, %r2};", "[R%rd1] {R%r1 R%r2}"},
		{"mov.b64 {%r1, %r2}, %rd1;", "={=R%r1 =R%r2} R%rd1"},
		{"mov.b64 %rd1, {%r1, %r2};", "=R%rd1 {R%r1 R%r2}"},
		{"setp.lt.s32 %p1|%p2, %r1, %r2;", "=R%p1 =|R%p2 R%r1 R%r2"},
		{"setp.lt.and.s32 %p1, %r1, %r2, !%p3;", "=R%p1 R%r1 R%r2 !R%p3"},
		{"@%p1 add.s32 %r1, %r1, 1;", fmt.Sprintf("@R%%p1 =R%%r1 R%%r1 I%d:0x1", ir.ImmInt)},
		{"@!%p1 add.s32 %r1, %r1, 1;", fmt.Sprintf("@!R%%p1 =R%%r1 R%%r1 I%d:0x1", ir.ImmInt)},
		{"mov.u32 %r1, %tid.x;", "=R%r1 X%tid.x"},
		{"mov.u32 %r1, %laneid;", "=R%r1 X%laneid"},
		{"mov.u64 %rd1, %clock64;", "=R%rd1 X%clock64"},
		{"mov.u32 %r1, %envreg3;", "=R%r1 X%envreg3"},
		{"mov.u32 %r1, %lanemask_lt;", "=R%r1 X%lanemask_lt"},
		{"mov.u64 %rd1, %globaltimer;", "=R%rd1 X%globaltimer"},
		{"mov.u32 %r1, %dynamic_smem_size;", "=R%r1 X%dynamic_smem_size"},
		{"mov.u64 %rd1, gvar;", "=R%rd1 Sgvar"},
		{"mov.u64 %rd1, fn;", "=R%rd1 Sfn"},
		{"mov.u32 %r1, WARP_SZ;", "=R%r1 SWARP_SZ"},
		{"st.global.u32 [%rd1], %r1;", "[R%rd1] R%r1"},
		{"red.global.add.u32 [%rd1], %r1;", "[R%rd1] R%r1"},
		{"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;", "=R%r1 [R%rd1] R%r2 R%r3"},
		{"bar.sync 0;", fmt.Sprintf("I%d:0x0", ir.ImmInt)},
		{"bar.sync %r1;", "R%r1"},
		{"bar.red.popc.u32 %r1, 0, %p1;", fmt.Sprintf("=R%%r1 I%d:0x0 R%%p1", ir.ImmInt)},
		{"shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;", fmt.Sprintf("=R%%r1 =|R%%p1 R%%r2 I%d:0x1 I%d:0x1f I%d:%#x", ir.ImmInt, ir.ImmInt, ir.ImmInt, uint64(math.MaxUint64))},
		{"mbarrier.arrive.shared.b64 _, [%r1];", "=_ [R%r1]"},
		{"cp.async.ca.shared.global [%r1], [%rd1], 16;", fmt.Sprintf("[R%%r1] [R%%rd1] I%d:0x10", ir.ImmInt)},
		{"frobnicate.x %r1, %r2;", "=R%r1 R%r2"},
		{"frobnicate.x [%rd1], %r2;", "[R%rd1] R%r2"},
		{"ret;", ""},
		{"call.uni fn, (%r1);", "Sfn (R%r1)"},
		{"call.uni (%r2), fn, (%r1);", "=(=R%r2) Sfn (R%r1)"},
	}
	for _, tc := range tests {
		f := parseKernel(t, tc.in)
		if got := instrString(f, 0); got != tc.want {
			t.Errorf("%s\n got  %s\n want %s", tc.in, got, tc.want)
		}
	}
}

func TestMnemonicFields(t *testing.T) {
	tests := []struct {
		in    string
		mn    string
		typ   ir.Type
		typ2  ir.Type
		space ir.Space
		op    ir.Opcode
	}{
		{"ld.global.nc.v4.f32 {%f0,%f1,%f2,%f3}, [%rd1];", "ld.global.nc.v4.f32", ir.TF32, ir.TNone, ir.SpaceGlobal, ir.OpcodeByName("ld")},
		{"ld.u32 %r1, [%rd1];", "ld.u32", ir.TU32, ir.TNone, ir.SpaceGeneric, ir.OpcodeByName("ld")},
		{"cvt.rn.f16.f32 %r1, %f1;", "cvt.rn.f16.f32", ir.TF16, ir.TF32, ir.SpaceNone, ir.OpcodeByName("cvt")},
		{"st.shared::cta.u32 [%r1], %r2;", "st.shared::cta.u32", ir.TU32, ir.TNone, ir.SpaceShared, ir.OpcodeByName("st")},
		{"bra.uni $L1;\n$L1:", "bra.uni", ir.TNone, ir.TNone, ir.SpaceNone, ir.OpcodeByName("bra")},
	}
	for _, tc := range tests {
		f := parseKernel(t, tc.in)
		if got := f.Str(f.Mnemonic[0]); got != tc.mn {
			t.Errorf("%s: mnemonic %q", tc.in, got)
		}
		if f.Type[0] != tc.typ || f.Type2[0] != tc.typ2 || f.Space[0] != tc.space || f.Op[0] != tc.op {
			t.Errorf("%s: type %v/%v space %v op %v; want %v/%v %v %v", tc.in, f.Type[0], f.Type2[0], f.Space[0], f.Op[0], tc.typ, tc.typ2, tc.space, tc.op)
		}
	}
}

func TestBlocksAndLabels(t *testing.T) {
	f := parseKernel(t, `
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra L_end;
	add.s32 %r1, %r1, 1;
L_loop:
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p1, %r1, 10;
	@%p1 bra L_loop;
L_end:
	ret;`)
	if f.NumBlocks() != 4 {
		t.Fatalf("blocks = %d, want 4", f.NumBlocks())
	}
	var buf bytes.Buffer
	ir.Dump(&buf, f)
	want := []string{
		"b0:  preds  succs b3 b1",
		"b1:  preds b0  succs b2",
		"b2 L_loop:  preds b1 b2  succs b2 b3",
		"b3 L_end:  preds b0 b2  succs",
	}
	for _, w := range want {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("dump lacks %q:\n%s", w, buf.String())
		}
	}
	// The forward branch is a KLabel naming block 3.
	if got := instrString(f, 1); got != "@R%p1 L3" {
		t.Errorf("forward branch: %s", got)
	}
}

func TestScopesFlattened(t *testing.T) {
	f := parseKernel(t, `
	{ .reg .b32 %r1; mov.u32 %r1, 1; }
	{ .reg .b32 %r1; mov.u32 %r1, 2; }
	mov.u32 %r1, 3;`)
	regs := map[ir.RegID]bool{}
	for i := range 3 {
		regs[f.Ops(ir.InstrID(i))[0].Reg()] = true
	}
	if len(regs) != 3 {
		t.Errorf("shadowed registers were not kept distinct: %v", regs)
	}
	out := string(Format(f.Mod))
	for _, w := range []string{".reg .b32 %r1$1;", ".reg .b32 %r1$2;", "mov.u32 %r1$1, 1;", "mov.u32 %r1$2, 2;", "mov.u32 %r1, 3;"} {
		if !strings.Contains(out, w) {
			t.Errorf("printed form lacks %q:\n%s", w, out)
		}
	}
}

func TestLocAndPragma(t *testing.T) {
	f := parseKernel(t, `
	.loc 1 5 2
	mov.u32 %r1, 1;
	mov.u32 %r2, 1;
	.loc 1 6 2 // comment
	.pragma "nounroll";
	mov.u32 %r3, 1;`)
	if f.Str(f.InstrLoc(0)) != "1 5 2" || f.InstrLoc(1) != f.InstrLoc(0) || f.Str(f.InstrLoc(3)) != "1 6 2" {
		t.Errorf("loc: %q %q %q", f.Str(f.InstrLoc(0)), f.Str(f.InstrLoc(1)), f.Str(f.InstrLoc(3)))
	}
	if f.Str(f.Mnemonic[2]) != `.pragma "nounroll"` || f.Op[2] != ir.OpcodeByName(".pragma") {
		t.Errorf("pragma instruction: %q", f.Str(f.Mnemonic[2]))
	}
	out := string(Format(f.Mod))
	if strings.Count(out, ".loc") != 2 {
		t.Errorf(".loc printed %d times, want 2:\n%s", strings.Count(out, ".loc"), out)
	}
}

func TestDirectivesAndDecls(t *testing.T) {
	src := "\ufeff"[:0] + `.version 9.0
.target sm_120a
.address_size 64
.file 1 "a.cu", 1595524614, 5649
.global .align 8 .u64 ptrs[2] = {generic(gvar), 0};
.global .align 4 .b8 gvar[4];
.weak .func wf(.param .b32 x) .noreturn;
.visible .entry e(.param .align 8 .b8 blob[16], .hidden .param .u32 h) .reqntid 32, 1, 1 .maxnreg 64
{
	ret;
}
.section .debug_str
{
$L__info_string0:
.b8 97
}
`
	m, err := Parse("d.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "9.0" || m.Target != "sm_120a" || m.AddressSize != 64 {
		t.Errorf("header: %q %q %d", m.Version, m.Target, m.AddressSize)
	}
	out := string(Format(m))
	for _, w := range []string{
		`.file 1 "a.cu", 1595524614, 5649`,
		".global .align 8 .u64 ptrs[2] = {generic(gvar), 0};",
		".weak .func wf(\n\t.param .b32 x\n)\n.noreturn;",
		"\t.param .align 8 .b8 blob[16],\n\t.hidden .param .u32 h\n)\n.reqntid 32, 1, 1\n.maxnreg 64\n{",
		".section .debug_str\n{\n\t$L__info_string0:\n\t.b8 97\n}",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("printed form lacks %q:\n%s", w, out)
		}
	}
}

func TestCRLFAndNoFinalNewline(t *testing.T) {
	src := strings.ReplaceAll(prelude+"\tmov.u32 %r1, 1;\r\n\tret;\n}", "\n", "\r\n")
	m, err := Parse("crlf.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lf, err := Parse("lf.ptx", []byte(strings.ReplaceAll(src, "\r\n", "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(Format(m), Format(lf)) {
		t.Error("CRLF input prints differently from LF input")
	}
}

func TestDeclaredThenDefined(t *testing.T) {
	src := `.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 r) f(.param .b32 a);
.entry k()
{
	.reg .b32 %r<2>;
	{
	.param .b32 p0;
	st.param.b32 [p0], %r0;
	.param .b32 r0;
	call.uni (r0), f, (p0);
	}
	ret;
}
.func (.param .b32 r) f(.param .b32 a)
{
	st.param.b32 [r], 1;
	ret;
}
`
	m, err := Parse("x.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Funcs) != 3 {
		t.Fatalf("funcs = %d", len(m.Funcs))
	}
	k := m.Funcs[1]
	call := k.Ops(1)
	fs := m.Syms[call[1].Index()]
	if fs.Kind != ir.SymFunc || fs.Func != 2 || !m.Funcs[fs.Func].HasBody {
		t.Errorf("call target symbol: %+v", fs)
	}
}
