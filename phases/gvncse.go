package phases

// GvnCse: global value numbering with common-subexpression elimination
// over the dominator tree. Knobs: EnableGvnCse, EnableGvnCseMode (the SM
// profile picks the default mode), EnableGvnCsePerInstr. Convergent and
// volatile instructions are never merged.
//
//	before:  mul.lo.s32 %r3, %r1, 4; ... mul.lo.s32 %r7, %r1, 4;
//	after:   mul.lo.s32 %r3, %r1, 4; ... (uses of %r7 read %r3)

// gvnCse: GvnCse.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func gvnCse(p *Pass) bool { return false }
