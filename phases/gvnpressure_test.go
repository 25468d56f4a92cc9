package phases

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
)

// TestGvnCsePressureEstimate: on the generated kernel of 30,499
// instructions (ptxgen -size 30000 -pool 64, a scaling benchmark's
// kernel), GvnCse and LateOriCommoning under the default pipeline decline
// the commonings their estimate says would raise the maximum live
// registers, neither raises the function's maximum live data slots or
// predicates, and the register retry does not run; without the estimate
// (as before it) GvnCse raises the predicates, and the retry reruns the
// pipeline.
func TestGvnCsePressureEstimate(t *testing.T) {
	skipUnderRace(t)
	if testing.Short() {
		t.Skip("a 30K-instruction kernel through -O3 twice")
	}
	target, _ := ParseTarget("sm_80")
	base := gen.Func(gen.Kernel(gen.Config{Seed: 1, Size: 30000, Pool: 64}))
	// first: GvnCse's commonings in the first run of the pipeline (the
	// retry's guarded run may undo them)
	var first int64
	run := func(held bool) (rises map[string][2]int, stats []PhaseStat) {
		first = -1
		c, err := NewConfig(MaxOpt, target, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		rises = map[string][2]int{}
		// measure runs fn as the slot name, recording how far it raised
		// the maximum live data slots and predicates.
		measure := func(name string, fn PassFunc, p *Pass) bool {
			before := NewAnalyses(p.F).LiveClasses()
			keep := p.regCapSet
			if !held {
				p.regCapSet = false
			}
			changed := fn(p)
			p.regCapSet = keep
			if name == "GvnCse" && first < 0 {
				first = phaseCounter([]PhaseStat{*p.stat}, "", "expressions commoned")
			}
			after := NewAnalyses(p.F).LiveClasses()
			r := rises[name]
			r[0] = max(r[0], after[ir.FileR]-before[ir.FileR])
			r[1] = max(r[1], after[ir.FileP]-before[ir.FileP])
			rises[name] = r
			return changed
		}
		// two function literals: the settled skip keys slots by code
		// address
		if err := c.Override("GvnCse", func(p *Pass) bool { return measure("GvnCse", gvnCse, p) }); err != nil {
			t.Fatal(err)
		}
		if err := c.Override("LateOriCommoning", func(p *Pass) bool { return measure("LateOriCommoning", lateCommoning, p) }); err != nil {
			t.Fatal(err)
		}
		stats, err = Run(context.Background(), c, nil, base.Clone(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return rises, stats
	}
	rises, stats := run(true)
	for name, r := range rises {
		if r[0] > 0 || r[1] > 0 {
			t.Errorf("%s raised the maximum live data slots by %d, predicates by %d", name, r[0], r[1])
		}
	}
	if n := phaseCounter(stats, "GvnCse", "not commoned: would raise the maximum live registers"); n == 0 {
		t.Errorf("GvnCse declined nothing: the estimate did not fire")
	}
	if n := counterPrefix(stats, "pipeline run again for the register cap"); n != 0 {
		t.Errorf("the register retry ran (%d) with the estimate on", n)
	}
	commoned := first
	rises, stats = run(false)
	all := first
	t.Logf("GvnCse commoned %d expressions with the estimate, %d without", commoned, all)
	if 10*commoned < 8*all {
		t.Errorf("GvnCse commoned %d expressions with the estimate, %d without: want 80%% of them still (88%% when written)", commoned, all)
	}
	if r := rises["GvnCse"]; r[1] <= 0 {
		t.Errorf("without the estimate GvnCse raised nothing (%v): the kernel no longer tests it", r)
	}
	if n := counterPrefix(stats, "pipeline run again for the register cap"); n == 0 {
		t.Errorf("without the estimate the retry did not run: the kernel no longer tests it")
	}
}

// TestWideTree: the tree the estimate keeps its values in, against a
// plain array under random range additions and range maxima, at sizes
// from one position to five levels.
func TestWideTree(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	sc := NewScratch()
	for _, n := range []int{1, 2, 3, 7, 15, 16, 17, 33, 64, 255, 256, 257, 1000, 4097, 70000} {
		vals := make([]int32, n)
		for i := range vals {
			vals[i] = int32(rnd.Intn(100))
		}
		var tr wideTree
		tr.build(sc, slices.Clone(vals))
		for k := range 3000 {
			l := int32(rnd.Intn(n))
			r := l + int32(rnd.Intn(n-int(l)))
			if k%3 == 0 { // short ranges, as most commonings charge
				r = min(int32(n-1), l+int32(rnd.Intn(40)))
			}
			want := int32(-1 << 30)
			for i := l; i <= r; i++ {
				want = max(want, vals[i])
			}
			if got := tr.max(l, r); got != want {
				t.Fatalf("n %d: max(%d, %d) = %d, want %d", n, l, r, got, want)
			}
			w := int32(rnd.Intn(5))
			tr.add(l, r, w)
			for i := l; i <= r; i++ {
				vals[i] += w
			}
		}
		sc.reset()
	}
}
