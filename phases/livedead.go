package phases

// Liveness-based dead-code elimination: EarlyOriSimpleLiveDead and the
// four OriPerformLiveDead* instances (one function, four slots).
//
// Purpose: delete instructions whose results are never used and that have
// no side effects (the opcode table says which). Preconditions: none (works
// on SSA and non-SSA form). Guarantees: no pure instruction with only dead
// definitions survives.
//
//	before:  add.s32 %r3, %r1, %r2;   // %r3 never read
//	after:   (removed)
//
// Dataflow (per register file, backwards):
//
//	live_out(b) = ∪ live_in(s) for s in succ(b)
//	live_in(b)  = use(b) ∪ (live_out(b) − def(b))

// simpleLiveDead: EarlyOriSimpleLiveDead, a local sweep of unused results.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func simpleLiveDead(p *Pass) bool { return false }

// liveDead: OriPerformLiveDead{First,Second,Third,Fourth}, global liveness DCE.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func liveDead(p *Pass) bool { return false }
