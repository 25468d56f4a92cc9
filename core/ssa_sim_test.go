package core_test

import (
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// TestSSARoundTripInSimulator takes generated kernels (loops, divergent
// branches, predication, shared memory, shuffles) into SSA and back, and
// asks the simulator whether the result still computes the same memory
// on random inputs: the semantic check of SSA construction and
// destruction (lost copies, swaps) on whole SIMT programs.
func TestSSARoundTripInSimulator(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	phis := 0
	for seed := range int64(seeds) {
		m := gen.Kernel(gen.Config{Seed: seed, Size: 300})
		before := gen.Func(m)
		after := before.Clone()
		after.ComputeCFG()
		info, err := core.BuildSSA(after)
		if err != nil {
			t.Fatalf("seed %d: BuildSSA: %v", seed, err)
		}
		phis += info.Phis
		if errs := ir.Verify(after); len(errs) > 0 {
			t.Fatalf("seed %d: IR invalid in SSA: %v", seed, errs[0])
		}
		core.DestroySSA(after)
		after.ComputeCFG()
		if errs := ir.Verify(after); len(errs) > 0 {
			t.Fatalf("seed %d: IR invalid after SSA destruction: %v", seed, errs[0])
		}
		for i := range after.NumInstrs() {
			if !after.IsDead(ir.InstrID(i)) && after.Block[i] != ir.NoBlock && after.Op[i] == ir.OpPhi {
				t.Fatalf("seed %d: a PHI survived DestroySSA", seed)
			}
		}
		simtest.CheckEquivalent(t, before, after, 4)
	}
	if phis == 0 {
		t.Fatal("no PHI was placed in any kernel: the test exercised nothing")
	}
	t.Logf("%d kernels, %d PHIs placed and removed", seeds, phis)
}
