package phases

// OriReassociateAndCommon: reassociate chains of associative integer
// operations into a canonical order so equal sub-chains become common
// (AllowReassociateCSE, ReassociateCSEBudget, ReassociateCSEWindow,
// ReassociateCSESkip, DistributeAndReassociateMulBudget). Floating point
// is never reassociated unless AllowFPReassociate is set.
//
//	before:  add %r4, %r1, %r2; add %r5, %r4, %r3;  add %r6, %r1, %r3; add %r7, %r6, %r2;
//	after:   add %r4, %r1, %r2; add %r5, %r4, %r3;  (uses of %r7 read %r5)

// reassociateAndCommon: OriReassociateAndCommon.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func reassociateAndCommon(p *Pass) bool { return false }
