package phases

// Back copy propagation (OriBackCopyPropagate, BackCopyPropBudget): for
// "op %r1, …; mov %r2, %r1;" with %r1 used nowhere else, define %r2
// directly and drop the move. AdvancedPhaseBackPropVReg is ptxas's
// per-target hook in front of it; no target overrides it here.
//
//	before:  add.s32 %r1, %r5, %r6; mov.b32 %r2, %r1;
//	after:   add.s32 %r2, %r5, %r6;

// advancedBackPropVReg: AdvancedPhaseBackPropVReg, a per-target gate.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func advancedBackPropVReg(p *Pass) bool { return false }

// backCopyPropagate: OriBackCopyPropagate.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func backCopyPropagate(p *Pass) bool { return false }
