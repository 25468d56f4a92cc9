package phases

// OriDoPredication: if-conversion. A short branch region whose
// instructions can all be guarded becomes straight-line predicated code.
//
//	before:  @%p bra L; add %r1, %r1, 1; L:
//	after:   @!%p add %r1, %r1, 1;

// predication: OriDoPredication.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func predication(p *Pass) bool { return false }
