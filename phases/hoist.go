package phases

// The HoistInvariants family: OriHoistInvariantsLate (loop-invariant code
// motion) and the four movements that reuse its dataflow, as ptxas runs
// one engine under four names. Convergent operations never move across
// control flow.
//
//	before:  L: mul %r3, %r1, %r2; ...; @%p bra L;     // %r1, %r2 loop-invariant
//	after:   mul %r3, %r1, %r2; L: ...; @%p bra L;

// hoistInvariants: OriHoistInvariantsLate (LICM).
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func hoistInvariants(p *Pass) bool { return false }

// killMovement: DoKillMovement.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func killMovement(p *Pass) bool { return false }

// texMovement: DoTexMovement.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func texMovement(p *Pass) bool { return false }

// memMovement: DoMemMovement (an unnamed sibling movement in ptxas).
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func memMovement(p *Pass) bool { return false }

// sinkMovement: DoSinkMovement (an unnamed sibling movement in ptxas).
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func sinkMovement(p *Pass) bool { return false }
