package phases

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// TestSubsumedBundles: which GeneralOptimize slots an earlier bundle's
// unchanged run settles (Config.subsumes). GeneralOptimizeMid2 (CopyProp,
// ConstantFold) is settled by GeneralOptimize (CopyProp, ConstantFold,
// PredicateSimplify, DeadCode); GeneralOptimizeLate (MovWindow,
// ConstantFold) only when LateCopyPropComplPred is off (the guarded-copy
// completion is the late slots' own); GeneralOptimizeLate2 (its combining
// walk) and GeneralOptimizeEarly never; IntoSSA between two slots breaks
// the relation.
func TestSubsumedBundles(t *testing.T) {
	target, err := ParseTarget("sm_80")
	if err != nil {
		t.Fatal(err)
	}
	settledBy := func(c *Config, name string) []string {
		i, ok := Lookup(name)
		if !ok {
			t.Fatalf("no phase %s", name)
		}
		var out []string
		for _, k := range c.subsumers[i] {
			out = append(out, pipeline[k].Name)
		}
		return out
	}
	def, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	noCompl, err := NewConfig(MaxOpt, target, mustKnobs(t, "LateCopyPropComplPred=false"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    *Config
		slot string
		want []string
	}{
		{def, "GeneralOptimizeMid2", []string{"GeneralOptimize"}},
		{def, "GeneralOptimizeLate", nil},
		{def, "GeneralOptimizeLate2", nil},
		{def, "GeneralOptimize", nil}, // after IntoSSA; Early has MergeEquivalentConditionalFlow
		{def, "GeneralOptimizeMid", nil},
		{noCompl, "GeneralOptimizeLate", []string{"GeneralOptimize", "GeneralOptimizeMid2"}},
		{noCompl, "GeneralOptimizeLate2", nil},
	} {
		if got := settledBy(tc.c, tc.slot); !slices.Equal(got, tc.want) {
			t.Errorf("%s settled by %v, want %v", tc.slot, got, tc.want)
		}
	}
	// The rounds alone: GeneralOptimizeLate2's (the same sub-passes as
	// GeneralOptimize and GeneralOptimizeMid, one key) whatever
	// LateCopyPropComplPred says, GeneralOptimizeLate's while it is on
	// (the bundles then look for guarded movs); no other slot's.
	for _, tc := range []struct {
		c    *Config
		want map[string][]string
	}{
		{def, map[string][]string{"GeneralOptimizeLate2": {"GeneralOptimize"}, "GeneralOptimizeLate": {"GeneralOptimize", "GeneralOptimizeMid2"}}},
		{noCompl, map[string][]string{"GeneralOptimizeLate2": {"GeneralOptimize"}}},
	} {
		for i := range pipeline {
			var got []string
			for _, k := range tc.c.roundSubsumers[i] {
				got = append(got, pipeline[k].Name)
			}
			if want := tc.want[pipeline[i].Name]; !slices.Equal(got, want) {
				t.Errorf("%s's rounds settled by %v, want %v", pipeline[i].Name, got, want)
			}
		}
	}
}

// TestSettledRoundsSkipped: GeneralOptimizeLate2 runs only its combining
// walk, and GeneralOptimizeLate nothing, where GeneralOptimize left the
// function unchanged and nothing changed it since (saxpy, and generated
// kernels); the result is the one check mode gives, which runs the
// rounds and fails the phase if they change the function.
func TestSettledRoundsSkipped(t *testing.T) {
	skipUnderRace(t)
	target, _ := ParseTarget("sm_80")
	run, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := new(testHooks)
	run.hooks = h
	check, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	check.Verify = true
	var mods []*ir.Module
	for seed := range int64(8) {
		cfg := gen.Config{Seed: 8900 + seed, Size: 120 + int(seed%4)*80, Fold: seed%2 == 0}
		if seed%3 == 0 {
			cfg.Inject = gen.AllKinds
		}
		mods = append(mods, gen.Kernel(cfg))
	}
	m := saxpyModule(t)
	mods = append(mods, m)
	sc := NewScratch()
	for k, m := range mods {
		text := ptx.Format(m)
		a, err := ptx.Parse("a.ptx", text)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ptx.Parse("b.ptx", text)
		if err != nil {
			t.Fatal(err)
		}
		before := h.settledRounds.Load()
		for _, f := range a.Funcs {
			if _, err := Run(context.Background(), run, sc, f, nil); err != nil {
				t.Fatalf("kernel %d: %v", k, err)
			}
		}
		for _, f := range b.Funcs {
			if _, err := Run(context.Background(), check, sc, f, nil); err != nil {
				t.Fatalf("kernel %d in check mode: %v", k, err)
			}
		}
		if x, y := ptx.Format(a), ptx.Format(b); !slices.Equal(x, y) {
			t.Errorf("kernel %d: the output differs from check mode's", k)
		}
		if k == len(mods)-1 && h.settledRounds.Load() == before {
			t.Errorf("saxpy: no GeneralOptimize rounds skipped")
		}
	}
	t.Logf("rounds skipped in %d runs", h.settledRounds.Load())
}

// TestSubsumedBundleSkipped: on generated kernels with folding work and
// on the corpus, the default -O3 pipeline skips GeneralOptimizeMid2 as
// settled where GeneralOptimize left the function unchanged and nothing
// changed it since (the skip fires), and check mode, which runs the
// slots it would skip and fails one that changes the function, passes on
// every kernel (the relation holds).
func TestSubsumedBundleSkipped(t *testing.T) {
	skipUnderRace(t)
	target, _ := ParseTarget("sm_80")
	run, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	check, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	check.Verify = true
	var funcs []*ir.Func
	n := 24
	if testing.Short() {
		n = 8
	}
	for seed := range int64(n) {
		cfg := gen.Config{Seed: 8800 + seed, Size: 150 + int(seed%4)*100, Fold: seed%2 == 0}
		if seed%3 == 0 {
			cfg.Inject = gen.AllKinds
		}
		funcs = append(funcs, gen.Func(gen.Kernel(cfg)))
	}
	if src, err := os.ReadFile("../examples/saxpy.ptx"); err == nil {
		m, err := ptx.Parse("saxpy.ptx", src)
		if err != nil {
			t.Fatal(err)
		}
		funcs = append(funcs, m.Funcs[0])
	}
	skipped := 0
	sc := NewScratch()
	for k, f := range funcs {
		g := f.Clone()
		stats, err := Run(context.Background(), run, sc, g, nil)
		if err != nil {
			t.Fatalf("kernel %d: %v", k, err)
		}
		for _, s := range stats {
			if s.Name == "GeneralOptimizeMid2" && s.Settled {
				skipped++
			}
		}
		if _, err := Run(context.Background(), check, sc, f.Clone(), nil); err != nil {
			t.Errorf("kernel %d in check mode: %v", k, err)
		}
	}
	if skipped == 0 {
		t.Errorf("GeneralOptimizeMid2 settled on none of %d kernels", len(funcs))
	}
	t.Logf("GeneralOptimizeMid2 settled on %d of %d kernels", skipped, len(funcs))
}

// TestSplitLiveRangesLoopFree: the loop-only form returns at once on a
// function without loops (it computes no analysis but the loops), and
// still splits on kernels with loops (TestSplitLiveRangesGenerated).
func TestSplitLiveRangesLoopFree(t *testing.T) {
	f := saxpyModule(t).Funcs[0]
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, mustKnobs(t, "SplitLiveRangesBudget=100"), nil, []string{"OriSplitLiveRanges"})
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnalyses(f)
	i, _ := Lookup("OriSplitLiveRanges")
	p := &Pass{F: f, A: a, Phase: &pipeline[i], Config: c, Knobs: c.Knobs, Scratch: NewScratch(), stat: &PhaseStat{}, limit: -1}
	if splitLiveRanges(p) {
		t.Fatal("OriSplitLiveRanges changed a function without loops")
	}
	want := [numAnalyses]int{}
	want[iOrder], want[iDom], want[iLoops] = 1, 1, 1
	if a.Computed != want {
		t.Errorf("OriSplitLiveRanges on a loop-free function computed %v, want only the loops (and the order and dominators they need): %v", a.Computed, want)
	}
}

// saxpyModule parses examples/saxpy.ptx, the README's small kernel.
func saxpyModule(t *testing.T) *ir.Module {
	t.Helper()
	src, err := os.ReadFile("../examples/saxpy.ptx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse("saxpy.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
