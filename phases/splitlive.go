package phases

// OriSplitLiveRanges: give each independent live range of a virtual
// register its own register, so SSA construction and pressure see them
// apart. Precondition: non-SSA form. Guarantees: each register's
// definitions reach a connected set of uses.
//
//	before:  mov %r1, 1; st [a], %r1; mov %r1, 2; st [b], %r1;
//	after:   mov %r1, 1; st [a], %r1; mov %r9, 2; st [b], %r9;

// splitLiveRanges: OriSplitLiveRanges.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func splitLiveRanges(p *Pass) bool { return false }
