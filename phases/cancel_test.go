package phases

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// TestCanceledPassesStopCorrect: each pass that polls the run's context
// (cancel.go), stopped at its k-th poll for many k, leaves a correct
// function. The stop hook (testHooks.stopPhase) stops it as a cancellation would, but leaves the
// context live, so the driver goes on: check mode verifies the IR, the
// register form and the analysis cache after the pass and after every
// later phase, and the result is compared with the input in the
// simulator. (A real cancellation ends the run right after the pass; the
// function it leaves must be as correct.) OutOfSSA stopped with CSSA's
// copies in place leaves the function in SSA form, verified as such
// (the simulator does not run PHIs), and the next phase, which needs
// ordinary registers, refuses it: the test expects that there.
func TestCanceledPassesStopCorrect(t *testing.T) {
	t.Parallel()
	passes := []string{"EarlyOriSimpleLiveDead", "OriPerformLiveDeadFirst", "GvnCse", "OriDoPredication",
		"LateOriCommoning", "OriHoistInvariantsLate", "CSSA", "OutOfSSA"}
	stops := []uint32{1, 2, 3, 5, 8, 13, 21, 34, 55, 89}
	seeds := 6
	if testing.Short() {
		seeds = 3
	}
	target, _ := ParseTarget("sm_80")
	sc := NewScratch()
	all, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range passes {
		// The whole -O3 pipeline but the other slots of the same pass:
		// they would take a stopped slot that changed nothing for
		// settled, which only a run that goes on after a stop can see.
		k := slices.IndexFunc(pipeline, func(ph Phase) bool { return ph.Name == name })
		var siblings []string
		for i, ph := range pipeline {
			if i != k && all.keys[i] == all.keys[k] {
				siblings = append(siblings, ph.Name)
			}
		}
		c, err := NewConfig(MaxOpt, target, nil, siblings, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Verify = true
		h := &testHooks{stopPhase: name}
		c.hooks = h
		inSSA := 0
		for seed := range int64(seeds) {
			f := gen.Func(gen.Kernel(gen.Config{Seed: 900000 + seed, Size: 120 + int(seed%4)*60, MaxDepth: 2 + int(seed%2)}))
			for _, at := range stops {
				h.stopAt = at
				after := f.Clone()
				if _, err := Run(context.Background(), c, sc, after, nil); err != nil {
					if name == "OutOfSSA" && strings.Contains(err.Error(), "the phase needs ordinary registers but the function is in SSA form") {
						inSSA++ // verified in SSA form after OutOfSSA
						continue
					}
					t.Fatalf("%s stopped at poll %d, seed %d: %v", name, at, seed, err)
				}
				res, err := sim.Diff(f, after, sim.DiffOptions{Seeds: 2, ExtraSeeds: simtest.ExtraSeeds})
				if err != nil {
					t.Fatalf("%s stopped at poll %d, seed %d: %v", name, at, seed, err)
				}
				if res.Mismatch != nil {
					t.Fatalf("%s stopped at poll %d, seed %d: the function computes something else: %v", name, at, seed, res.Mismatch)
				}
			}
		}
		t.Logf("%s: stopped %d times in %d runs", name, h.stopsFired.Load(), seeds*len(stops))
		if h.stopsFired.Load() == 0 {
			t.Errorf("%s never polled the run's context on %d kernels", name, seeds)
		}
		if name == "OutOfSSA" && inSSA == 0 {
			t.Errorf("OutOfSSA never stopped before its rewrite")
		}
	}
}
