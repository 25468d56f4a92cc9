package phases

// The GeneralOptimize bundle (six slots: GeneralOptimizeEarly, GeneralOptimize,
// GeneralOptimizeMid, GeneralOptimizeMid2, GeneralOptimizeLate,
// GeneralOptimizeLate2): copy propagation (CopyPropBudget,
// CopyPropGlobalBudget, CopyPropForceGlobal, CopyPropUseReachingDefs),
// constant folding (limit-fold-fp), algebraic simplification and merging
// of equivalent conditional flow (MergeEquivalentConditionalFlowBudget),
// iterated to a fixed point within the budgets.
//
//	before:  mov.u32 %r2, %r1;  add.u32 %r3, %r2, 0;
//	after:   (uses of %r3 read %r1)

// generalOptimize: the GeneralOptimize bundle.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func generalOptimize(p *Pass) bool { return false }
