package phases

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim/simtest"
)

// reassocKernel wraps BODY: %r2, %r3, %r4 are inputs, %rd2 points to 8
// output words; %r20..%r23 are stored in the first four at the end.
const reassocKernel = `
.visible .entry k(.param .u64 out, .param .u32 a, .param .u32 b, .param .u32 c)
{
	.reg .b32 %r<40>;
	.reg .b64 %rd<6>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r2, [a];
	ld.param.u32 %r3, [b];
	ld.param.u32 %r4, [c];
	mov.u32 %r20, 0;
	mov.u32 %r21, 0;
	mov.u32 %r22, 0;
	mov.u32 %r23, 0;
	cvta.to.global.u64 %rd2, %rd1;
	BODY
	st.global.u32 [%rd2], %r20;
	st.global.u32 [%rd2+4], %r21;
	st.global.u32 [%rd2+8], %r22;
	st.global.u32 [%rd2+12], %r23;
	ret;
}
`

func TestReassociateAndCommon(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		knobs   []string
		want    []string // after the phase (SSA register names as printed)
		gone    []string
		counter string
		n       int64
	}{
		{name: "seed example: (R2+R3)+R4 and (R2+R4)+R3 are one value",
			body:    "add.s32 %r5, %r2, %r3;\n add.s32 %r6, %r5, %r4;\n add.s32 %r7, %r2, %r4;\n add.s32 %r8, %r7, %r3;\n st.global.u32 [%rd2+16], %r6;\n st.global.u32 [%rd2+20], %r8;",
			want:    []string{"st.global.u32 [%rd2+20], %r6;"},
			gone:    []string{"add.s32 %r7, %r2, %r4;"},
			counter: "expressions commoned", n: 2},
		{name: "no commoning onto a register written several times",
			body:    "add.s32 %r5, %r2, %r3;\n add.s32 %r20, %r5, %r4;\n add.s32 %r7, %r2, %r4;\n add.s32 %r21, %r7, %r3;",
			want:    []string{"add.s32 %r21, %r5, %r4;"},
			counter: "expressions commoned", n: 1},
		{name: "a source redefined under a guard in between",
			body:    "setp.lt.s32 %p1, %r2, 3;\n and.b32 %r5, %r3, 255;\n @%p1 add.s32 %r3, %r3, 1;\n and.b32 %r6, %r3, 255;\n add.s32 %r20, %r5, %r6;",
			counter: "expressions commoned", n: 0},
		{name: "constants last and folded",
			body:    "add.s32 %r5, %r2, 3;\n add.s32 %r6, %r5, %r3;\n add.s32 %r20, %r6, 4;",
			want:    []string{"add.s32 %r6, %r2, %r3;", "7;"},
			counter: "chains reassociated", n: 1},
		{name: "sub of a constant feeding adds",
			body:    "sub.s32 %r5, %r2, 3;\n add.s32 %r6, %r5, %r3;\n add.s32 %r20, %r6, 3;",
			want:    []string{"add.s32 %r20, %r2, %r3;"},
			counter: "subs rewritten", n: 1},
		{name: "distribution a*b + a*c",
			body:    "mul.lo.s32 %r5, %r2, %r3;\n mul.lo.s32 %r6, %r2, %r4;\n add.s32 %r20, %r5, %r6;",
			want:    []string{"add.s32 %r6, %r3, %r4;", "mul.lo.s32 %r20, %r6, %r2;"},
			counter: "products distributed", n: 1},
		{name: "AllowReassociateCSE=false",
			body:    "add.s32 %r5, %r2, %r3;\n add.s32 %r20, %r5, %r4;\n add.s32 %r7, %r2, %r4;\n add.s32 %r21, %r7, %r3;",
			knobs:   []string{"AllowReassociateCSE=false"},
			want:    []string{"add.s32 %r7, %r2, %r4;"},
			counter: "expressions commoned", n: 0},
		{name: "budget 0",
			body:    "add.s32 %r5, %r2, 3;\n add.s32 %r6, %r5, %r3;\n add.s32 %r20, %r6, 4;",
			knobs:   []string{"ReassociateCSEBudget=0"},
			counter: "chains reassociated", n: 0},
		{name: "skip the first rewrite",
			body:    "add.s32 %r5, %r2, 3;\n add.s32 %r6, %r5, %r3;\n add.s32 %r20, %r6, 4;",
			knobs:   []string{"ReassociateCSESkip=1"},
			counter: "chains reassociated", n: 0},
		{name: "floating point is left alone",
			body:    "cvt.rn.f32.s32 %r30, %r2;\n add.f32 %r5, %r30, 0f3F800000;\n add.f32 %r6, %r5, %r30;\n add.f32 %r20, %r6, 0f3F800000;",
			counter: "chains reassociated", n: 0},
		{name: "a leaf defined inside the chain's span: left alone",
			body:    "add.s32 %r5, %r2, %r3;\n mul.lo.s32 %r8, %r2, %r2;\n add.s32 %r6, %r5, %r8;\n add.s32 %r20, %r6, %r2;",
			counter: "chains reassociated", n: 0},
		{name: "64-bit large folded immediate needs ReassociateLargeImmInUIADD64",
			body:    "cvt.u64.u32 %rd3, %r2;\n add.s64 %rd4, %rd3, 0x70000000;\n add.s64 %rd5, %rd4, %rd1;\n add.s64 %rd3, %rd5, 0x70000000;\n cvt.u32.u64 %r20, %rd3;",
			counter: "chains reassociated", n: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(reassocKernel, "BODY", tc.body, 1)
			before, after, body, stats := runPass(t, src, "k", "OriReassociateAndCommon", tc.knobs...)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("missing %q in\n%s", w, body)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(body, g) {
					t.Errorf("%q still there in\n%s", g, body)
				}
			}
			if got := counter(stats, tc.counter); got != tc.n {
				t.Errorf("%s = %d, want %d\n%s", tc.counter, got, tc.n, body)
			}
			simtest.CheckEquivalent(t, before, after, 8)
		})
	}
}

// Generated kernels through the phase alone and the whole pipeline.
func TestReassociateGenerated(t *testing.T) {
	checkGenerated(t, "OriReassociateAndCommon", "chains reassociated", 7000, func(int64) int { return 600 })
}
