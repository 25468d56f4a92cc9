package phases

// SSA in and out: IntoSSA builds pruned SSA with PHI instructions (core
// computes dominance frontiers and liveness); CSSA isolates PHI operands
// into fresh copies so that OutOfSSA can replace each PHI web by a single
// register. These three slots are required: the phases between IntoSSA
// and CSSA assume SSA, the late phases assume it is gone.

// intoSSA: IntoSSA.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func intoSSA(p *Pass) bool { return false }

// cssa: CSSA, conversion to conventional SSA.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func cssa(p *Pass) bool { return false }

// outOfSSA: OutOfSSA, PHIs become moves.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func outOfSSA(p *Pass) bool { return false }
