package phases

import (
	"context"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"

	"github.com/ptxopt/ptxopt/sim/simtest"
)

// predKernel wraps BODY: %r2 is an input, %r3 the thread index, %rd2
// the output; %r4 and %r6 are stored at the end.
const predKernel = `
.visible .entry k(.param .u64 out, .param .u32 a)
{
	.reg .b32 %r<20>;
	.reg .b64 %rd<6>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r2, [a];
	mov.u32 %r3, %tid.x;
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r4, %r2;
	mov.u32 %r6, %r3;
	BODY
	st.global.u32 [%rd2], %r4;
	st.global.u32 [%rd2+4], %r6;
	ret;
}
`

func TestOriDoPredication(t *testing.T) {
	triangle := `
	setp.lt.u32 %p1, %r3, 5;
	@%p1 bra L1;
	add.s32 %r4, %r2, %r3;
L1:`
	diamond := `
	setp.lt.u32 %p2, %r3, 9;
	@!%p2 bra L2;
	mul.lo.s32 %r5, %r2, %r3;
	add.s32 %r6, %r5, 1;
	bra L3;
L2:
	mul.lo.s32 %r5, %r2, %r3;
	add.s32 %r6, %r5, 2;
L3:`
	cases := []struct {
		name     string
		body     string
		knobs    []string
		want     []string
		notWant  []string
		branches int64
		dups     int64
		choices  int64
	}{
		{name: "triangle", body: triangle, want: []string{"selp.b32"}, notWant: []string{"bra"}, branches: 1},
		{name: "diamond: the arms' duplicate merges", body: diamond, want: []string{"selp.b32"}, notWant: []string{"bra"}, branches: 1, dups: 1},
		{name: "PredicationMaxInstrs below the arms' size", body: diamond, knobs: []string{"PredicationMaxInstrs=2"},
			want: []string{"bra"}},
		{name: "off", body: triangle, knobs: []string{"PredicationMaxInstrs=0"}, want: []string{"bra"}},
		{name: "never over a store", body: `
	setp.lt.u32 %p1, %r3, 5;
	@%p1 bra L1;
	st.global.u32 [%rd2+8], %r3;
L1:`, want: []string{"bra"}},
		{name: "never over a load", body: `
	setp.lt.u32 %p1, %r3, 5;
	@%p1 bra L1;
	ld.global.u32 %r4, [%rd2+8];
L1:`, want: []string{"bra"}},
		{name: "never over a convergent operation", body: `
	setp.lt.u32 %p1, %r2, 5;
	@%p1 bra L1;
	shfl.sync.idx.b32 %r4, %r3, 0, 31, -1;
L1:`, want: []string{"bra"}},
		{name: "never over a division", body: `
	setp.lt.u32 %p1, %r3, 5;
	@%p1 bra L1;
	div.u32 %r4, %r2, %r3;
L1:`, want: []string{"bra"}},
		{name: "uniform branch choosing a value", body: `
	setp.lt.u32 %p1, %r2, 5;
	@%p1 bra L1;
	mov.u32 %r4, 9;
L1:`, want: []string{"selp.b32"}, notWant: []string{"bra"}, branches: 1, choices: 1},
		{name: "uniform diamond choosing two values", body: `
	setp.lt.u32 %p1, %r2, 5;
	@%p1 bra L1;
	mov.u32 %r4, %r3;
	mov.u32 %r6, 7;
	bra L2;
L1:
	mov.u32 %r6, %r2;
L2:`, want: []string{"selp.b32"}, notWant: []string{"bra"}, branches: 1, choices: 1},
		{name: "uniform branch over work stays", body: `
	setp.lt.u32 %p1, %r2, 5;
	@%p1 bra L1;
	add.s32 %r4, %r2, 3;
L1:`, want: []string{"bra"}},
		{name: "uniform branch choosing three values stays", body: `
	setp.lt.u32 %p1, %r2, 5;
	@%p1 bra L1;
	mov.u32 %r4, 9;
	mov.u32 %r6, 8;
	mov.u32 %r7, 1;
L1:
	add.s32 %r4, %r4, %r7;`, want: []string{"bra"}},
		{name: "uniform branch, PredicateUniformBranches", body: `
	setp.lt.u32 %p1, %r2, 5;
	@%p1 bra L1;
	add.s32 %r4, %r2, 3;
L1:`, knobs: []string{"PredicateUniformBranches=true"}, want: []string{"selp.b32"}, notWant: []string{"bra"}, branches: 1},
		{name: "no predicate PHI", body: `
	setp.lt.u32 %p1, %r3, 5;
	setp.lt.u32 %p3, %r2, 1;
	@%p1 bra L1;
	setp.lt.u32 %p3, %r2, 7;
L1:
	selp.b32 %r4, 1, 2, %p3;`, want: []string{"bra"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(predKernel, "BODY", tc.body, 1)
			before, after, body, stats := runPass(t, src, "k", "OriDoPredication", tc.knobs...)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("missing %q in\n%s", w, body)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(body, w) {
					t.Errorf("%q still there in\n%s", w, body)
				}
			}
			if got := counter(stats, "branches predicated"); got != tc.branches {
				t.Errorf("branches predicated %d, want %d\n%s", got, tc.branches, body)
			}
			if got := counter(stats, "uniform value choices made selects"); got != tc.choices {
				t.Errorf("uniform value choices %d, want %d\n%s", got, tc.choices, body)
			}
			if got := counter(stats, "duplicates merged"); got != tc.dups {
				t.Errorf("duplicates merged %d, want %d\n%s", got, tc.dups, body)
			}
			simtest.CheckEquivalent(t, before, after, 8)
		})
	}
}

func TestOriDoPredicationGenerated(t *testing.T) {
	checkGenerated(t, "OriDoPredication", "branches predicated", 5000, func(seed int64) int { return 200 + int(seed%4)*50 })
}

// TestPredicationLaterRounds: OriDoPredication's later rounds, which try
// only the positions around the round before's conversions and reject
// with the round before's analyses what those already reject (scan,
// rejectStale), give the results and counters of rounds that walk the
// whole layout with analyses of their own, on generated kernels under
// -O3 (with and without PredicateUniformBranches, frames and injected
// diamonds among them); some later round converts, and some computes no
// analysis.
func TestPredicationLaterRounds(t *testing.T) {
	skipUnderRace(t)
	kernels := gvnKernelsWithFrames(90)
	for s := range int64(4) {
		kernels = append(kernels, gen.Config{Seed: 300 + s, Size: 3000, Pool: 32, Inject: gen.Diamond | gen.JoinRecompute})
	}
	later := int64(0)
	var total [2]predTest
	for _, all := range []bool{false, true} {
		for _, kc := range kernels {
			var text [2]string
			var counts [2][3]int64
			for k, whole := range []bool{true, false} {
				pt := &predTest{whole: whole}
				text[k], counts[k] = runPredHeld(t, kc, all, pt)
				total[k].rounds += pt.rounds
				total[k].fresh += pt.fresh
			}
			if text[0] != text[1] {
				t.Fatalf("kernel %+v (uniform branches %v): the result differs from whole-layout rounds", kc, all)
			}
			if counts[0] != counts[1] {
				t.Fatalf("kernel %+v (uniform branches %v): counters %v with whole-layout rounds, %v", kc, all, counts[0], counts[1])
			}
			later += counts[1][2]
		}
	}
	t.Logf("later rounds %d, with analyses %d (whole layout: %d of %d); branches predicated after the first round %d",
		total[1].rounds, total[1].fresh, total[0].fresh, total[0].rounds, later)
	if later == 0 {
		t.Errorf("no later round converted: the kernels do not test scan's positions")
	}
	if total[1].fresh >= total[0].fresh {
		t.Errorf("later rounds computed the analyses %d times, whole-layout rounds %d: the skip did not fire", total[1].fresh, total[0].fresh)
	}
}

// runPredHeld optimizes kc's kernel at -O3 (sm_80) with OriDoPredication
// under pt, and returns the result's text and the phase's counters
// (branches predicated, duplicates merged, and those predicated after
// the first round).
func runPredHeld(t *testing.T, kc gen.Config, all bool, pt *predTest) (string, [3]int64) {
	t.Helper()
	target, _ := ParseTarget("sm_80")
	var settings []KnobSetting
	if all {
		s, err := ParseKnob("PredicateUniformBranches=true")
		if err != nil {
			t.Fatal(err)
		}
		settings = append(settings, s)
	}
	c, err := NewConfig(MaxOpt, target, settings, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Override("OriDoPredication", func(p *Pass) bool { return predicationWith(p, pt) }); err != nil {
		t.Fatal(err)
	}
	first := pt.first
	f := gen.Func(gen.Kernel(kc))
	stats, err := Run(context.Background(), c, nil, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := phaseCounter(stats, "OriDoPredication", "branches predicated")
	return funcText(f), [3]int64{n, phaseCounter(stats, "OriDoPredication", "duplicates merged"), n - (pt.first - first)}
}
