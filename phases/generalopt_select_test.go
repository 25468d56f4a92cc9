package phases

import "testing"

// TestEarlyKnobs: DisableMergeEquivalentConditionalFlow skips
// GeneralOptimizeEarly whole; MergeEquivalentConditionalFlowBudget caps
// its rounds (0: none; the default, unlimited, runs to the fixed point).
func TestEarlyKnobs(t *testing.T) {
	body := "mov.u32 %r3, %r2;\n mov.u32 %r4, %r3;\n add.u32 %r30, %r4, 1;"
	copies := func(knobs ...string) int64 {
		_, _, _, stats := runPass(t, genOptKernel(body), "k", "GeneralOptimizeEarly", knobs...)
		return phaseCounter(stats, "GeneralOptimizeEarly", "CopyProp: copies propagated")
	}
	if n := copies(); n == 0 {
		t.Fatal("GeneralOptimizeEarly propagated nothing by default")
	}
	if n := copies("DisableMergeEquivalentConditionalFlow=true"); n != 0 {
		t.Errorf("DisableMergeEquivalentConditionalFlow: %d copies propagated, want 0", n)
	}
	if n := copies("MergeEquivalentConditionalFlowBudget=0"); n != 0 {
		t.Errorf("MergeEquivalentConditionalFlowBudget=0: %d copies propagated, want 0", n)
	}
	if n := copies("MergeEquivalentConditionalFlowBudget=1"); n == 0 {
		t.Errorf("MergeEquivalentConditionalFlowBudget=1: nothing propagated in the one round")
	}
}
