package phases

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// genOptKernel wraps a body that leaves its result in %r30: every lane
// stores %r30 to out[tid.x]. %r1 = n, %r2 = tid.x, %rd4 = &out[tid.x].
func genOptKernel(body string) string {
	return `
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<8>;
	.reg .b32 %r<40>;
	.reg .b16 %rs<8>;
	.reg .b64 %rd<12>;
	.reg .f32 %f<8>;
	.reg .f64 %fd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r2, 4;
	add.u64 %rd4, %rd2, %rd3;
` + body + `
	st.global.u32 [%rd4], %r30;
	ret;
}
`
}

type genOptCase struct {
	name    string
	body    string
	want    []string // instructions (exact text) that must be in the result
	notWant []string // substrings that must not be
}

// runGenOpt runs the sub-passes CopyProp and ConstantFold alone, on the
// function as written (no SSA form), on function fn of src with the given
// knob settings ("Name=Value").
func runGenOpt(t *testing.T, src, fn string, knobs ...string) (before, after *ir.Func, body string, stats []PhaseStat) {
	t.Helper()
	return runSubs(t, src, fn, []subPass{spCopyProp, spFold}, knobs...)
}

// runSubs runs the given GeneralOptimize sub-passes, to a fixed point, in
// the slot GeneralOptimizeEarly (the one before SSA form) alone, on
// function fn of src.
func runSubs(t *testing.T, src, fn string, subs []subPass, knobs ...string) (before, after *ir.Func, body string, stats []PhaseStat) {
	t.Helper()
	return runSubsHooks(t, new(testHooks), src, fn, subs, knobs...)
}

// runSubsHooks is runSubs with the test hooks h on the configuration (it
// sets h.earlySubs).
func runSubsHooks(t *testing.T, h *testHooks, src, fn string, subs []subPass, knobs ...string) (before, after *ir.Func, body string, stats []PhaseStat) {
	t.Helper()
	h.earlySubs = subs
	return runPassHooks(t, h, src, fn, "GeneralOptimizeEarly", knobs...)
}

// ruleCounter sums the counters of the rules whose name starts with
// prefix ("" for all; a prefix ending in NUL names one rule exactly).
func ruleCounter(stats []PhaseStat, prefix string) int64 {
	var n int64
	for _, s := range stats {
		for _, c := range s.Counters {
			if exact, ok := strings.CutSuffix(prefix, "\x00"); ok && c.Name == "rule "+exact || !ok && strings.HasPrefix(c.Name, "rule "+prefix) {
				n += c.N
			}
		}
	}
	return n
}

func runGenOptCases(t *testing.T, cases []genOptCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, _ := runGenOpt(t, genOptKernel(tc.body), "k")
			lines := map[string]bool{}
			for _, l := range strings.Split(body, "\n") {
				lines[l] = true
			}
			for _, w := range tc.want {
				if !lines[w] {
					t.Errorf("want %q in:\n%s", w, body)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(body, w) {
					t.Errorf("%q should be gone:\n%s", w, body)
				}
			}
			simtest.CheckEquivalent(t, before, after, 4)
		})
	}
}

func TestGeneralOptimizeCopyPropagation(t *testing.T) {
	runGenOptCases(t, []genOptCase{
		{name: "local register copy", body: `
	mov.u32 %r3, %r2;
	add.u32 %r30, %r3, %r1;`,
			want: []string{"add.u32 %r30, %r2, %r1;"}},
		{name: "copy chain", body: `
	mov.u32 %r3, %r2;
	mov.u32 %r4, %r3;
	mov.b32 %r5, %r4;
	xor.b32 %r30, %r5, %r1;`,
			want: []string{"mov.u32 %r4, %r2;", "mov.b32 %r5, %r2;", "xor.b32 %r30, %r2, %r1;"}},
		{name: "immediate into second source and shift amount", body: `
	mov.u32 %r3, 5;
	mov.u32 %r4, 3;
	add.u32 %r5, %r2, %r3;
	shl.b32 %r6, %r5, %r4;
	mov.u64 %rd5, 2;
	shr.u64 %rd6, %rd3, %rd5;
	cvt.u32.u64 %r7, %rd6;
	add.u32 %r30, %r6, %r7;`,
			want: []string{"add.u32 %r5, %r2, 5;", "shl.b32 %r6, %r5, 3;",
				// a 64-bit register is no .u32 shift amount: not replaced
				"shr.u64 %rd6, %rd3, %rd5;"}},
		{name: "immediate not into first source or address", body: `
	mov.u32 %r3, 5;
	sub.u32 %r30, %r3, %r2;
	mov.u64 %rd5, 0;
	ld.global.u32 %r4, [%rd4];
	st.global.u32 [%rd4], %r3;`,
			want: []string{"sub.u32 %r30, %r3, %r2;", "st.global.u32 [%rd4], %r3;"}},
		{name: "folding through the copy table", body: `
	mov.u32 %r3, 6;
	mov.u32 %r4, 7;
	mul.lo.u32 %r5, %r3, %r4;
	sub.u32 %r6, %r5, 2;
	add.u32 %r30, %r2, %r6;`,
			want: []string{"mov.u32 %r5, 42;", "mov.u32 %r6, 40;", "add.u32 %r30, %r2, 40;"}},
		{name: "guarded copy is no copy", body: `
	setp.lt.u32 %p1, %r2, 3;
	mov.u32 %r3, %r1;
	@%p1 mov.u32 %r3, %r2;
	add.u32 %r30, %r3, 1;`,
			want: []string{"add.u32 %r30, %r3, 1;"}},
		{name: "source redefined", body: `
	add.u32 %r5, %r2, %r1;
	mov.u32 %r3, %r5;
	add.u32 %r5, %r5, 1;
	add.u32 %r30, %r3, %r5;`,
			want: []string{"add.u32 %r30, %r3, %r5;"}},
		{name: "source redefined under a guard", body: `
	setp.lt.u32 %p1, %r2, 3;
	add.u32 %r5, %r2, %r1;
	mov.u32 %r3, %r5;
	@%p1 add.u32 %r5, %r5, 1;
	add.u32 %r30, %r3, %r5;`,
			want: []string{"add.u32 %r30, %r3, %r5;"}},
		{name: "source redefined as a vector element", body: `
	add.u32 %r5, %r2, %r1;
	mov.u32 %r3, %r5;
	mov.b64 {%r5, %r6}, %rd3;
	add.u32 %r30, %r3, %r5;`,
			want: []string{"add.u32 %r30, %r3, %r5;"}},
		{name: "destination redefined", body: `
	mov.u32 %r3, %r2;
	add.u32 %r3, %r3, %r1;
	add.u32 %r30, %r3, 1;`,
			want: []string{"add.u32 %r3, %r2, %r1;", "add.u32 %r30, %r3, 1;"}},
		{name: "guarded block-local copy across blocks", body: `
	mov.u32 %r3, 5;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 mov.u32 %r3, %r2;
	@%p1 bra $L__a;
	add.u32 %r3, %r3, 1;
$L__a:
	add.u32 %r30, %r3, 2;`,
			want: []string{"add.u32 %r3, %r3, 1;", "add.u32 %r30, %r3, 2;"}},
		{name: "global single-definition copies", body: `
	mov.u32 %r3, %r2;
	mov.u32 %r4, 16;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	add.u32 %r30, %r3, 1;
	bra.uni $L__b;
$L__a:
	shl.b32 %r30, %r3, %r4;
$L__b:`,
			want: []string{"add.u32 %r30, %r2, 1;", "shl.b32 %r30, %r2, 16;"}},
		{name: "global constants fold in another block", body: `
	mov.u32 %r3, 40;
	mov.u32 %r4, 2;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.u32 %r30, %r2;
	bra.uni $L__b;
$L__a:
	add.u32 %r30, %r3, %r4;
$L__b:`,
			want: []string{"mov.u32 %r30, 42;"}},
		{name: "loop-carried source not propagated", body: `
	mov.u32 %r5, 0;
	mov.u32 %r6, %r2;
$L__loop:
	mov.u32 %r7, %r6;
	add.u32 %r6, %r6, %r5;
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p1, %r5, 4;
	@%p1 bra $L__loop;
	add.u32 %r30, %r7, %r6;`,
			want: []string{"add.u32 %r30, %r7, %r6;"}},
		{name: "single-definition source defined after the copy in a loop", body: `
	mov.u32 %r5, 0;
$L__loop:
	mov.u32 %r7, %r9;
	add.u32 %r9, %r5, 10;
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p1, %r5, 3;
	@%p1 bra $L__loop;
	add.u32 %r30, %r7, %r9;`,
			want: []string{"add.u32 %r30, %r7, %r9;"}},
		{name: "copy not dominating the use", body: `
	mov.u32 %r3, 1;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.u32 %r4, %r2;
	bra.uni $L__b;
$L__a:
	mov.u32 %r30, 9;
$L__b:
	add.u32 %r30, %r2, %r4;`,
			want: []string{"add.u32 %r30, %r2, %r4;"}},
		{name: "volatile and convergent operands untouched", body: `
	mov.u32 %r3, %r2;
	shfl.sync.idx.b32 %r4, %r3, 0, 31, -1;
	mov.u64 %rd5, %rd4;
	ld.volatile.global.u32 %r5, [%rd5];
	add.u32 %r30, %r4, %r5;`,
			want: []string{"shfl.sync.idx.b32 %r4, %r3, 0, 31, -1;", "ld.volatile.global.u32 %r5, [%rd5];"}},
		{name: "carry chain untouched", body: `
	mov.u32 %r3, -1;
	add.cc.u32 %r4, %r3, %r2;
	addc.u32 %r5, 0, 0;
	add.u32 %r30, %r4, %r5;`,
			want: []string{"add.cc.u32 %r4, %r3, %r2;", "addc.u32 %r5, 0, 0;"}},
		{name: "float register no integer operand", body: `
	cvt.rn.f32.u32 %f1, %r2;
	mov.b32 %r3, %f1;
	add.u32 %r30, %r3, 1;`,
			want: []string{"add.u32 %r30, %r3, 1;"}},
		{name: "float immediates not propagated", body: `
	cvt.rn.f32.u32 %f1, %r2;
	mov.f32 %f2, 0f3F800000;
	add.f32 %f3, %f1, %f2;
	mov.b32 %r30, %f3;`,
			want: []string{"add.f32 %f3, %f1, %f2;"}},
		{name: "self move removed", body: `
	add.u32 %r3, %r2, %r1;
	mov.u32 %r4, %r3;
	mov.u32 %r3, %r4;
	add.u32 %r30, %r3, 1;`,
			want:    []string{"add.u32 %r30, %r3, 1;"},
			notWant: []string{"mov.u32 %r3, %r3;"}},
	})
}

func TestGeneralOptimizeFolding(t *testing.T) {
	runGenOptCases(t, []genOptCase{
		{name: "add wraps", body: `
	add.s32 %r30, 2147483647, 1;`,
			want: []string{"mov.s32 %r30, -2147483648;"}},
		{name: "sub u16 wraps", body: `
	sub.u16 %rs1, 0, 1;
	cvt.u32.u16 %r30, %rs1;`,
			want: []string{"mov.u16 %rs1, 65535;"}},
		{name: "mul.lo 64", body: `
	mul.lo.u64 %rd5, 4294967296, 4294967297;
	cvt.u32.u64 %r3, %rd5;
	shr.u64 %rd6, %rd5, 32;
	cvt.u32.u64 %r4, %rd6;
	add.u32 %r30, %r3, %r4;`,
			want: []string{"mov.u64 %rd5, 0x100000000;"}},
		{name: "shl by width", body: `
	shl.b32 %r30, 1, 32;`,
			want: []string{"mov.b32 %r30, 0;"}},
		{name: "shr.s fills with the sign", body: `
	shr.s32 %r30, -8, 40;`,
			want: []string{"mov.s32 %r30, -1;"}},
		{name: "shr.s16 by 15", body: `
	shr.s16 %rs1, 0x8000, 15;
	cvt.u32.u16 %r30, %rs1;`,
			want: []string{"mov.s16 %rs1, -1;"}},
		{name: "shr.u is logical", body: `
	shr.u32 %r30, 0x80000000, 31;`,
			want: []string{"mov.u32 %r30, 1;"}},
		{name: "shr.u by width", body: `
	shr.u32 %r30, 0x80000000, 33;`,
			want: []string{"mov.u32 %r30, 0;"}},
		{name: "min signed and unsigned", body: `
	min.s32 %r3, -1, 1;
	min.u32 %r4, -1, 1;
	max.s64 %rd5, -5, -7;
	cvt.u32.u64 %r5, %rd5;
	add.u32 %r6, %r3, %r4;
	add.u32 %r30, %r6, %r5;`,
			want: []string{"mov.s32 %r3, -1;", "mov.u32 %r4, 1;", "mov.s64 %rd5, -5;"}},
		{name: "not and neg", body: `
	not.b32 %r3, 0;
	neg.s32 %r4, -2147483648;
	xor.b32 %r30, %r3, %r4;`,
			want: []string{"mov.b32 %r3, 0xffffffff;", "mov.s32 %r4, -2147483648;"}},
		{name: "negative hexadecimal immediate", body: `
	and.b32 %r30, -0x10, 0xff;`,
			want: []string{"mov.b32 %r30, 240;"}},
		{name: "guard kept", body: `
	mov.u32 %r30, %r2;
	setp.lt.u32 %p1, %r2, 5;
	@%p1 add.u32 %r30, 3, 4;`,
			want: []string{"@%p1 mov.u32 %r30, 7;"}},
		{name: "float folded exactly", body: `
	add.f32 %f1, 0f3F800000, 0f3F800000;
	mov.b32 %r30, %f1;`,
			want: []string{"mov.f32 %f1, 0f40000000;"}},
		{name: "saturating and carry forms not folded", body: `
	add.sat.s32 %r3, 2147483647, 1;
	add.cc.u32 %r4, -1, 1;
	addc.u32 %r5, 0, 0;
	add.u32 %r6, %r3, %r4;
	add.u32 %r30, %r6, %r5;`,
			want: []string{"add.sat.s32 %r3, 2147483647, 1;", "add.cc.u32 %r4, -1, 1;"}},
		{name: "mul.hi and mul.wide not folded", body: `
	mul.hi.u32 %r3, 65536, 65536;
	mul.wide.u32 %rd5, 65536, 65536;
	cvt.u32.u64 %r4, %rd5;
	add.u32 %r30, %r3, %r4;`,
			want: []string{"mul.hi.u32 %r3, 65536, 65536;", "mul.wide.u32 %rd5, 65536, 65536;"}},
	})
}

func TestGeneralOptimizeIdentities(t *testing.T) {
	runGenOptCases(t, []genOptCase{
		{name: "moves", body: `
	add.u32 %r3, %r2, 0;
	add.u32 %r4, 0, %r3;
	sub.u32 %r5, %r4, 0;
	mul.lo.u32 %r6, %r5, 1;
	or.b32 %r7, %r6, 0;
	xor.b32 %r8, 0, %r7;
	and.b32 %r9, %r8, -1;
	and.b32 %r10, 0xffffffff, %r9;
	shl.b32 %r11, %r10, 0;
	shr.s32 %r30, %r11, 0;`,
			want: []string{"mov.u32 %r3, %r2;", "mov.u32 %r4, %r2;", "mov.u32 %r5, %r2;", "mov.u32 %r6, %r2;",
				"mov.b32 %r7, %r2;", "mov.b32 %r8, %r2;", "mov.b32 %r9, %r2;", "mov.b32 %r10, %r2;",
				"mov.b32 %r11, %r2;", "mov.s32 %r30, %r2;"}},
		{name: "zeros", body: `
	mul.lo.u32 %r3, %r2, 0;
	and.b32 %r4, 0, %r2;
	add.u32 %r30, %r3, %r4;`,
			want: []string{"mov.u32 %r3, 0;", "mov.b32 %r4, 0;", "mov.u32 %r30, 0;"}},
		{name: "64-bit", body: `
	and.b64 %rd5, %rd3, -1;
	and.b64 %rd6, %rd3, 0xffffffff;
	shl.b64 %rd7, %rd6, 0;
	add.u64 %rd8, %rd5, %rd7;
	cvt.u32.u64 %r30, %rd8;`,
			want: []string{"mov.b64 %rd5, %rd3;", "and.b64 %rd6, %rd3, 0xffffffff;", "mov.b64 %rd7, %rd6;"}},
		{name: "not identities", body: `
	sub.u32 %r3, 0, %r2;
	and.b32 %r4, %r2, 0xffff;
	shl.b32 %r5, 0, %r2;
	mul.wide.u16 %r6, %rs1, 1;
	add.sat.s32 %r7, %r2, 0;
	add.u32 %r8, %r3, %r4;
	add.u32 %r9, %r8, %r5;
	add.u32 %r30, %r9, %r7;`,
			want: []string{"sub.u32 %r3, 0, %r2;", "and.b32 %r4, %r2, 0xffff;", "shl.b32 %r5, 0, %r2;",
				"mul.wide.u16 %r6, %rs1, 1;", "add.sat.s32 %r7, %r2, 0;"}},
		{name: "float identities untouched", body: `
	cvt.rn.f32.u32 %f1, %r2;
	add.f32 %f2, %f1, 0f00000000;
	mul.rn.f32 %f3, %f2, 0f3F800000;
	sub.f32 %f4, %f3, 0f80000000;
	mov.b32 %r30, %f4;`,
			want: []string{"add.f32 %f2, %f1, 0f00000000;", "mul.rn.f32 %f3, %f2, 0f3F800000;", "sub.f32 %f4, %f3, 0f80000000;"}},
	})
}

func TestIntegerFoldHelpers(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(ir.Type, uint64, uint64) uint64
		t    ir.Type
		a, b uint64
		want uint64
	}{
		{"shl", shiftLeft, ir.TB16, 1, 15, 0x8000},
		{"shl", shiftLeft, ir.TB16, 1, 16, 0},
		{"shr", shiftRight, ir.TS16, 0x8000, 100, 0xffff},
		{"shr", shiftRight, ir.TU64, 1 << 63, 63, 1},
		{"shr", shiftRight, ir.TS64, 1 << 63, 64, ^uint64(0)},
		{"shr", shiftRight, ir.TU32, 0x80000000, 32, 0},
		{"min", minInt, ir.TS16, 0xffff, 1, 0xffff},
		{"min", minInt, ir.TU16, 0xffff, 1, 1},
		{"max", maxInt, ir.TS32, 0x80000000, 0x7fffffff, 0x7fffffff},
		{"max", maxInt, ir.TU32, 0x80000000, 0x7fffffff, 0x80000000},
	} {
		got := tc.fn(tc.t, tc.a, tc.b) & widthMask(tc.t)
		if got != tc.want {
			t.Errorf("%s.%s %#x, %#x = %#x, want %#x", tc.name, tc.t, tc.a, tc.b, got, tc.want)
		}
	}
	for _, tc := range []struct {
		c    ir.Cmp
		t    ir.Type
		a, b uint64
		want uint64
	}{
		{ir.CmpLt, ir.TS32, 0xffffffff, 0, 1},
		{ir.CmpLt, ir.TU32, 0xffffffff, 0, 0},
		{ir.CmpLo, ir.TS32, 0xffffffff, 0, 0},
		{ir.CmpGe, ir.TS16, 0x8000, 0x7fff, 0},
		{ir.CmpHs, ir.TS16, 0x8000, 0x7fff, 1},
		{ir.CmpNe, ir.TB64, 1, 1, 0},
	} {
		if got, ok := cmpInt(tc.c, tc.t, tc.a, tc.b); !ok || got != tc.want {
			t.Errorf("setp.%s.%s %#x, %#x = %d (%v), want %d", tc.c, tc.t, tc.a, tc.b, got, ok, tc.want)
		}
	}
	if _, ok := cmpInt(ir.CmpEqu, ir.TU32, 1, 1); ok {
		t.Error("an unordered comparison was folded on integers")
	}
}

func TestGeneralOptimizeRegParams(t *testing.T) {
	src := `
.func (.reg .b32 rv) f(.reg .b32 a)
{
	.reg .b32 %t<4>;
	mov.u32 %t1, a;
	add.u32 %t2, %t1, 1;
	mov.u32 rv, %t2;
	add.u32 %t3, rv, 2;
	mov.u32 rv, %t3;
	ret;
}
`
	_, _, body, _ := runGenOpt(t, src, "f")
	for _, w := range []string{"add.u32 %t2, %t1, 1;", "add.u32 %t3, rv, 2;"} {
		if !strings.Contains(body, w) {
			t.Errorf("a .reg parameter was propagated, want %q:\n%s", w, body)
		}
	}
}

func TestGeneralOptimizeBudgetsAndCounters(t *testing.T) {
	src := genOptKernel(`
	mov.u32 %r3, %r2;
	add.u32 %r4, %r3, %r1;
	add.u32 %r5, %r3, 0;
	add.u32 %r6, 3, 4;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	add.u32 %r30, %r3, %r4;
	bra.uni $L__b;
$L__a:
	add.u32 %r30, %r5, %r6;
$L__b:`)
	_, _, body, stats := runGenOpt(t, src, "k")
	if counter(stats, "CopyProp: copies propagated") == 0 || ruleCounter(stats, "Fold") != 1 || ruleCounter(stats, "AddZero") != 1 {
		t.Errorf("counters %+v:\n%s", stats, body)
	}
	before, after, body, stats := runGenOpt(t, src, "k", "CopyPropBudget=0", "CopyPropGlobalBudget=0")
	if n := counter(stats, "CopyProp: copies propagated"); n != 0 {
		t.Errorf("%d copies propagated with zero budgets:\n%s", n, body)
	}
	if !strings.Contains(body, "add.u32 %r4, %r3, %r1;") || !strings.Contains(body, "add.u32 %r30, %r3, %r4;") {
		t.Errorf("propagated with zero budgets:\n%s", body)
	}
	simtest.CheckEquivalent(t, before, after, 4)
	_, _, body, stats = runGenOpt(t, src, "k", "CopyPropBudget=1", "CopyPropGlobalBudget=0")
	if n := counter(stats, "CopyProp: copies propagated"); n != 1 {
		t.Errorf("%d copies propagated with a budget of 1:\n%s", n, body)
	}
}

// copyBudgetKernel has k copies of one parameter value, each read once:
// in the copies' own block, all into one register (defined k times, so
// only the local rule may propagate them), or in the next block, each
// into its own register (single definitions: the cross-block rule).
func copyBudgetKernel(k int, across bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry k(.param .u64 out, .param .u32 n)\n{\n\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<3>;\n", k+4)
	b.WriteString("\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [n];\n\tadd.u32 %r2, %r1, 1;\n")
	for i := range k {
		if across {
			fmt.Fprintf(&b, "\tmov.u32 %%r%d, %%r1;\n", i+3)
		} else {
			b.WriteString("\tmov.u32 %r3, %r1;\n\tadd.u32 %r2, %r2, %r3;\n")
		}
	}
	if across {
		b.WriteString("\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $L__next;\n$L__next:\n")
		for i := range k {
			fmt.Fprintf(&b, "\tadd.u32 %%r2, %%r2, %%r%d;\n", i+3)
		}
	}
	b.WriteString("\tcvta.to.global.u64 %rd2, %rd1;\n\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n")
	return b.String()
}

// Left at their defaults, the copy budgets grow with the function (one
// rewrite per instruction at least): a function with more copies than the
// fixed figure gets them all propagated in one run, as a small one does.
// Set by the user, a budget is the figure given.
func TestGeneralOptimizeBudgetsGrowWithFunction(t *testing.T) {
	for _, c := range []struct {
		name   string
		across bool
		k      int
		knob   string
		fixed  int64
	}{
		{"local", false, 10_100, "CopyPropBudget", 10_000},
		{"across blocks", true, 2_100, "CopyPropGlobalBudget", 2_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := copyBudgetKernel(c.k, c.across)
			_, _, _, stats := runGenOpt(t, src, "k")
			if n := counter(stats, "CopyProp: copies propagated"); n != int64(c.k) {
				t.Errorf("default budget: %d copies propagated, want all %d", n, c.k)
			}
			_, _, _, stats = runGenOpt(t, src, "k", fmt.Sprintf("%s=%d", c.knob, c.fixed))
			if n := counter(stats, "CopyProp: copies propagated"); n != c.fixed {
				t.Errorf("%s=%d: %d copies propagated, want %d", c.knob, c.fixed, n, c.fixed)
			}
		})
	}
}

// An instruction the table does not know may write any operand it names:
// copies are forgotten after it, in the block and across blocks.
func TestGeneralOptimizeOpaque(t *testing.T) {
	src := genOptKernel(`
	mov.u32 %r3, %r2;
	frobnicate.b32 %r4, %r3;
	add.u32 %r5, %r3, %r4;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.u32 %r30, %r5;
	bra.uni $L__b;
$L__a:
	add.u32 %r30, %r3, 1;
$L__b:`)
	_, _, body, _ := runGenOpt(t, src, "k")
	for _, w := range []string{"frobnicate.b32 %r4, %r3;", "add.u32 %r5, %r3, %r4;", "add.u32 %r30, %r3, 1;"} {
		if !strings.Contains(body, w) {
			t.Errorf("want %q:\n%s", w, body)
		}
	}
}

// randCopyKernel writes a random kernel rich in what the bundle rewrites:
// copies, guarded copies, immediates in every source position, foldable
// and near-identity integer operations, branches around code and loops,
// over eight registers that are all stored at the end.
func randCopyKernel(rnd *rand.Rand) string {
	var b strings.Builder
	reg := func() string { return fmt.Sprintf("%%r%d", 3+rnd.Intn(8)) }
	imm := func() string {
		switch rnd.Intn(6) {
		case 0:
			return "0"
		case 1:
			return "1"
		case 2:
			return "-1"
		case 3:
			return fmt.Sprint(rnd.Intn(40))
		case 4:
			return "0x80000000"
		}
		return fmt.Sprint(rnd.Int31() - 1<<30)
	}
	src := func() string {
		if rnd.Intn(4) == 0 {
			return imm()
		}
		return reg()
	}
	lbl := 0
	var stmt func(depth int)
	stmt = func(depth int) {
		g := ""
		if rnd.Intn(5) == 0 {
			g = "@%p1 "
			if rnd.Intn(2) == 0 {
				g = "@!%p2 "
			}
		}
		switch k := rnd.Intn(14); {
		case k < 4:
			fmt.Fprintf(&b, "\t%smov.u32 %s, %s;\n", g, reg(), src())
		case k < 9:
			ops := []string{"add.u32", "sub.u32", "mul.lo.u32", "and.b32", "or.b32", "xor.b32", "shl.b32", "shr.s32", "shr.u32", "min.s32", "max.u32", "min.u32", "add.s32"}
			op := ops[rnd.Intn(len(ops))]
			a := reg()
			if rnd.Intn(3) == 0 {
				a = imm()
			}
			fmt.Fprintf(&b, "\t%s%s %s, %s, %s;\n", g, op, reg(), a, src())
		case k < 10:
			fmt.Fprintf(&b, "\tsetp.lt.u32 %%p%d, %s, %s;\n", 1+rnd.Intn(2), reg(), src())
		case k < 11:
			fmt.Fprintf(&b, "\t%snot.b32 %s, %s;\n", g, reg(), src())
		case k < 12 && depth < 3:
			lbl++
			l := lbl
			fmt.Fprintf(&b, "\t@%%p1 bra $L__s%d;\n", l)
			for range 1 + rnd.Intn(5) {
				stmt(depth + 1)
			}
			fmt.Fprintf(&b, "$L__s%d:\n", l)
		case k < 13 && depth < 2:
			lbl++
			l := lbl
			c := fmt.Sprintf("%%r%d", 20+depth)
			fmt.Fprintf(&b, "\tmov.u32 %s, 0;\n$L__l%d:\n", c, l)
			for range 1 + rnd.Intn(6) {
				stmt(depth + 1)
			}
			fmt.Fprintf(&b, "\tadd.u32 %s, %s, 1;\n\tsetp.lt.u32 %%p3, %s, 3;\n\t@%%p3 bra $L__l%d;\n", c, c, c, l)
		default:
			fmt.Fprintf(&b, "\t%smov.u32 %s, %s;\n", g, reg(), reg())
		}
	}
	b.WriteString(`.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
`)
	for r := 3; r <= 10; r++ {
		fmt.Fprintf(&b, "\tmul.lo.u32 %%r%d, %%r2, %d;\n\txor.b32 %%r%d, %%r%d, %%r1;\n", r, r*7+1, r, r)
	}
	b.WriteString("\tsetp.lt.u32 %p1, %r2, 13;\n\tsetp.gt.u32 %p2, %r1, %r2;\n")
	for range 10 + rnd.Intn(30) {
		stmt(0)
	}
	b.WriteString("\tcvta.to.global.u64 %rd2, %rd1;\n\tmul.wide.u32 %rd3, %r2, 32;\n\tadd.u64 %rd4, %rd2, %rd3;\n")
	for r := 3; r <= 10; r++ {
		fmt.Fprintf(&b, "\tst.global.u32 [%%rd4+%d], %%r%d;\n", (r-3)*4, r)
	}
	b.WriteString("\tret;\n}\n")
	return b.String()
}

// TestGeneralOptimizeRandom checks the bundle alone and the whole
// pipeline on random copy-heavy kernels in the simulator.
func TestGeneralOptimizeRandom(t *testing.T) {
	n := int64(300)
	if testing.Short() {
		n = 50
	}
	target, _ := ParseTarget("sm_80")
	for _, named := range [][]string{{"GeneralOptimize"}, nil} {
		c, err := NewConfig(MaxOpt, target, nil, nil, named)
		if err != nil {
			t.Fatal(err)
		}
		c.Verify = true
		var changes int64
		for seed := int64(0); seed < n; seed++ {
			src := dceHeader + randCopyKernel(rand.New(rand.NewSource(seed)))
			m, err := ptx.Parse("f.ptx", []byte(src))
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			f := m.Funcs[0]
			after := f.Clone()
			stats, err := Run(context.Background(), c, nil, after, nil)
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			changes += counter(stats, "CopyProp: copies propagated") + ruleCounter(stats, "")
			res, err := sim.Diff(f, after, sim.DiffOptions{Seeds: 2})
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			if res.Mismatch != nil {
				t.Fatalf("%v seed %d: %v\n%s", named, seed, res.Mismatch, src)
			}
			if res.Matches == 0 {
				t.Fatalf("seed %d never ran", seed)
			}
		}
		if changes == 0 {
			t.Errorf("%v changed nothing", named)
		}
	}
}
