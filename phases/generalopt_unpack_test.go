package phases

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

const unpackCounter = "CopyProp: repeated unpack elements propagated"

// TestCopyPropRepeatedUnpack: an unpack that repeats a dominating unpack
// of the same register gives its elements' readers the first unpack's
// elements (and is left unread); where the rule's conditions fail, the
// readers keep their registers.
func TestCopyPropRepeatedUnpack(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		want    []string
		notWant []string
		n       int64 // elements propagated
	}{
		{name: "dominated block", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	add.u32 %r30, %r3, %r4;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%r5, %r6}, %rd5;
	mul.lo.u32 %r7, %r5, %r6;
	add.u32 %r30, %r30, %r7;
$L__a:`,
			want: []string{"mul.lo.u32 %r7, %r3, %r4;"}, n: 2},
		{name: "same block, one element read", body: `
	mov.b64 {%r3, %r4}, %rd3;
	mov.b64 {%r5, %r6}, %rd3;
	sub.u32 %r7, %r2, %r6;
	add.u32 %r30, %r7, %r3;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	add.u32 %r30, %r30, %r4;
$L__a:`,
			want: []string{"sub.u32 %r7, %r2, %r4;"}, n: 1},
		{name: "source written twice", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	add.u64 %rd5, %rd5, 1;
	mov.b64 {%r5, %r6}, %rd5;
	add.u32 %r30, %r5, %r6;
	add.u32 %r30, %r30, %r3;
$L__a:`,
			want: []string{"add.u32 %r30, %r5, %r6;"}},
		{name: "sibling arms", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%r3, %r4}, %rd5;
	add.u32 %r30, %r3, %r4;
	bra.uni $L__b;
$L__a:
	mov.b64 {%r5, %r6}, %rd5;
	sub.u32 %r30, %r5, %r6;
$L__b:`,
			want: []string{"sub.u32 %r30, %r5, %r6;"}},
		{name: "first unpack's element written again", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%r5, %r6}, %rd5;
	add.u32 %r3, %r3, 1;
	add.u32 %r30, %r5, %r6;
	add.u32 %r30, %r30, %r3;
$L__a:`,
			want: []string{"add.u32 %r30, %r5, %r6;"}},
		{name: "other piece widths", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%rs1, %rs2, %rs3, %rs4}, %rd5;
	cvt.u32.u16 %r5, %rs2;
	add.u32 %r30, %r5, %r4;
$L__a:`,
			want: []string{"cvt.u32.u16 %r5, %rs2;"}},
		{name: "guarded first unpack", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 mov.b64 {%r3, %r4}, %rd5;
	@%p1 bra $L__a;
	mov.b64 {%r5, %r6}, %rd5;
	add.u32 %r30, %r5, %r6;
$L__a:`,
			want: []string{"add.u32 %r30, %r5, %r6;"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, stats := runSubs(t, genOptKernel(tc.body), "k", []subPass{spCopyProp})
			lines := map[string]bool{}
			for _, l := range strings.Split(body, "\n") {
				lines[l] = true
			}
			for _, w := range tc.want {
				if !lines[w] {
					t.Errorf("want %q in:\n%s", w, body)
				}
			}
			if got := counter(stats, unpackCounter); got != tc.n {
				t.Errorf("%d elements propagated, want %d:\n%s", got, tc.n, body)
			}
			simtest.CheckEquivalent(t, before, after, 4)
		})
	}
}

// TestCopyPropRepeatedUnpackGenerated: the rule keeps what generated
// kernels with -O0-style frames compute (their double-word slots, read
// back as halves, become unpacks once promoted), alone with promotion
// and in the whole pipeline, and fires on them.
func TestCopyPropRepeatedUnpackGenerated(t *testing.T) {
	skipUnderRace(t)
	alone, whole := checkGeneratedRun(t, genCheck{named: []string{"ConvertMemoryToRegister", "GeneralOptimize"}, counter: unpackCounter,
		cfg: func(n int64) gen.Config {
			return gen.Config{Seed: 9700 + n, Size: 100 + int(n%5)*60, Frames: true}
		}})
	if alone == 0 || whole == 0 {
		t.Errorf("repeated unpacks propagated: %d alone, %d in the whole pipeline; want some in both", alone, whole)
	}
}
