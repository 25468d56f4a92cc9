package phases

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// splitKernel wraps a body: %rd2 is the output base, %r1 = tid.x, %rd4 =
// &out[tid.x]; the body leaves its result in %r30, stored at %rd4.
func splitKernel(body string) string {
	return `
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<8>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<20>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd4, %rd2, %rd3;
` + body + `
	st.global.u32 [%rd4], %r30;
	ret;
}
`
}

// TestSplitSinkWithinBlock: a load whose reader comes after an address
// computation and another load moves down to just before its reader
// (the maximum falls by its register); it stops before a store, and does
// not move when that would keep a source live longer.
func TestSplitSinkWithinBlock(t *testing.T) {
	cases := []struct {
		name string
		body string
		// want: these lines, in this order, adjacent
		want []string
		sunk int64
	}{
		{name: "load past an address computation and a load", body: `
	ld.global.u32 %r2, [%rd4];
	add.u32 %r3, %r1, 7;
	mul.wide.u32 %rd5, %r3, 4;
	add.u64 %rd6, %rd2, %rd5;
	ld.global.u32 %r4, [%rd6];
	add.u32 %r30, %r2, %r4;`,
			want: []string{"ld.global.u32 %r4, [%rd6];", "ld.global.u32 %r2, [%rd4];", "add.u32 %r30, %r2, %r4;"}, sunk: 1},
		{name: "a load stops before a store", body: `
	ld.global.u32 %r2, [%rd4];
	add.u32 %r3, %r1, 7;
	mul.wide.u32 %rd5, %r3, 4;
	add.u64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r1;
	ld.global.u32 %r4, [%rd6+4];
	add.u32 %r30, %r2, %r4;`,
			want: []string{"add.u64 %rd6, %rd2, %rd5;", "ld.global.u32 %r2, [%rd4];", "st.global.u32 [%rd6], %r1;"}, sunk: 1},
		{name: "a source that would live longer", body: `
	add.u64 %rd7, %rd4, 4;
	ld.global.u32 %r2, [%rd7];
	add.u32 %r3, %r1, 7;
	mul.wide.u32 %rd5, %r3, 4;
	add.u64 %rd6, %rd2, %rd5;
	ld.global.u32 %r4, [%rd6];
	add.u32 %r30, %r2, %r4;`,
			want: []string{"ld.global.u32 %r2, [%rd7];", "add.u32 %r3, %r1, 7;"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, stats := runPass(t, splitKernel(tc.body), "k", "OriSplitHighPressureLiveRanges")
			if !strings.Contains(body, strings.Join(tc.want, "\n")) {
				t.Errorf("want\n%s\nin:\n%s", strings.Join(tc.want, "\n"), body)
			}
			if got := counter(stats, "values sunk within their block"); got != tc.sunk {
				t.Errorf("%d values sunk, want %d:\n%s", got, tc.sunk, body)
			}
			if tc.sunk > 0 {
				b, a := NewAnalyses(before).LiveClasses(), NewAnalyses(after).LiveClasses()
				if a[0] >= b[0] {
					t.Errorf("max live R %d -> %d: want lower", b[0], a[0])
				}
			}
			simtest.CheckEquivalent(t, before, after, 4)
		})
	}
}

// TestSplitNarrowerSource: a 64-bit value computed before a loop from a
// 32-bit one that nothing else reads, and read only after the loop, is
// computed again after it, the 32-bit source kept live across the loop
// instead (the loop's maximum falls by one slot); a value no wider than
// its source is left alone.
func TestSplitNarrowerSource(t *testing.T) {
	loop := func(pre, post string) string {
		return splitKernel(`
	ld.param.u32 %r9, [n];
` + pre + `
	mov.u32 %r10, 0;
	mov.u32 %r11, 0;
$L__loop:
	add.u32 %r12, %r10, %r1;
	mad.lo.u32 %r13, %r12, %r9, %r11;
	xor.b32 %r11, %r13, %r12;
	add.u32 %r10, %r10, 1;
	setp.lt.u32 %p1, %r10, 4;
	@%p1 bra $L__loop;
` + post)
	}
	cases := []struct {
		name     string
		src      string
		want     string
		narrowed int64
	}{
		{name: "mul.wide after the loop", src: loop(`
	mad.lo.u32 %r2, %r1, %r9, 3;
	mul.wide.u32 %rd5, %r2, 4;`, `
	add.u64 %rd6, %rd2, %rd5;
	ld.global.u32 %r3, [%rd6];
	add.u32 %r30, %r3, %r11;`),
			want: "@%p1 bra $L__loop;\nmul.wide.u32 %rd5, %r2, 4;", narrowed: 1},
		{name: "no wider than its source", src: loop(`
	mad.lo.u32 %r2, %r1, %r9, 3;
	mul.wide.u32 %rd7, %r2, 4;
	add.u64 %rd8, %rd7, %rd3;
	cvt.u32.u64 %r4, %rd8;`, `
	add.u32 %r30, %r4, %r11;`),
			want: "cvt.u32.u64 %r4, %rd8;\nmov.u32 %r10, 0;"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, stats := runPass(t, tc.src, "k", "OriSplitHighPressureLiveRanges")
			if !strings.Contains(body, tc.want) {
				t.Errorf("want\n%s\nin:\n%s", tc.want, body)
			}
			if got := counter(stats, "narrower sources kept live"); got != tc.narrowed {
				t.Errorf("%d narrower sources kept live, want %d:\n%s", got, tc.narrowed, body)
			}
			simtest.CheckEquivalent(t, before, after, 4)
		})
	}
}

// TestSplitSinkAndNarrowGenerated: moving definitions down their block
// and keeping narrower sources live keep what generated kernels with
// long live ranges compute, alone and in the whole pipeline, and fire on
// them; and the sinks on kernels with -O0-style frames, whose loads and
// stores through aliasing and non-aliasing pointers the moved loads must
// not cross.
func TestSplitSinkAndNarrowGenerated(t *testing.T) {
	skipUnderRace(t)
	frames := func(n int64) gen.Config {
		return gen.Config{Seed: 9900 + n, Size: 150 + int(n%4)*100, Frames: true, Pool: 8}
	}
	for _, tc := range []struct {
		name, counter string
		cfg           func(int64) gen.Config
	}{
		{"sunk, long ranges", "values sunk within their block", longRangeKernel},
		{"narrowed, long ranges", "narrower sources kept live", longRangeKernel},
		{"sunk, frames", "values sunk within their block", frames},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alone, whole := checkGeneratedRun(t, genCheck{named: []string{"OriSplitHighPressureLiveRanges"}, counter: tc.counter, cfg: tc.cfg})
			if alone == 0 || whole == 0 {
				t.Errorf("%q: %d alone, %d in the whole pipeline: want some in both", tc.counter, alone, whole)
			}
		})
	}
}
