package core

import (
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// Keeping a liveness valid across inserted reads.
//
// A pass that inserts an instruction reading register r, in a block b
// where no write of r before it in b kills r, makes r upward-exposed in
// b. If r
// was live into b already, no block's set changes (every point from which
// the new read is reached without a write of r already reached b's entry
// that way, where r was live). Otherwise r becomes live into b and into
// every block from which b is reached through blocks that do not write r
// (their live-out sets grow with it), up to the blocks where r was live
// in already: a backward walk from b, the search of the sparse method
// limited to what changes. (Shrink, beside, handles the opposite edits:
// reads deleted, or hidden by a definition inserted before them.)

// Grow brings l up to date after reads of r were inserted, r being now
// upward-exposed in each of blocks (read before any unguarded write of r
// there; a block may repeat, and one where r was live in already changes
// nothing), and no other reference of r changed. (After edits that also
// added writes of r, Shrink first and then Grow: Shrink leaves the sets
// at what was live before and is still, and every block that becomes
// live in reaches back, through blocks that do not write r, a block
// where an inserted read is exposed.) du are the chains of the function
// as it is now. It reports false, leaving l unchanged,
// when it cannot: the sparse method's lists, or r not numbered where it
// would become live (r was block-local, or a segment of the dense
// method that r becomes live in does not number it); the caller then
// drops l. The blocks whose in set changed are st.Changed().
func (l *Liveness) Grow(st *ShrinkState, du *DefUse, r ir.RegID, blocks []ir.BlockID) bool {
	st.changed = st.changed[:0]
	if l.Method != Dense {
		return false
	}
	f := l.F
	st.size(l)
	st.next()
	for _, x := range du.Defs(r) {
		if f.Guard[x.Instr] == ir.NoOperand {
			st.killMark[f.Block[x.Instr]] = st.stamp
		}
	}
	// The blocks r becomes live into: from each block of a new read not
	// live in yet, back through predecessors that neither write r nor
	// have it live in already.
	st.stack = st.stack[:0]
	for _, b := range blocks {
		if st.newMark[b] != st.stamp && !l.IsLiveIn(b, r) {
			st.newMark[b] = st.stamp
			st.stack = append(st.stack, b)
			st.changed = append(st.changed, b)
		}
	}
	if len(st.changed) == 0 {
		return true
	}
	if l.Global[r] < 0 {
		return false // live at no boundary before: not numbered
	}
	for len(st.stack) > 0 {
		c := st.stack[len(st.stack)-1]
		st.stack = st.stack[:len(st.stack)-1]
		for _, q := range f.PredsOf(c) {
			if st.newMark[q] != st.stamp && st.killMark[q] != st.stamp && !l.IsLiveIn(q, r) {
				st.newMark[q] = st.stamp
				st.stack = append(st.stack, q)
				st.changed = append(st.changed, q)
			}
		}
	}
	// Every set to change must number r: check all before changing any.
	for _, b := range st.changed {
		if !l.canSetIn(b, r) {
			st.changed = st.changed[:0]
			return false
		}
	}
	for _, b := range st.changed {
		l.setIn(b, r)
	}
	return true
}

// canSetIn reports whether r has a bit in b's in set and in the copies of
// it that the segments of b's predecessors keep.
func (l *Liveness) canSetIn(b ir.BlockID, r ir.RegID) bool {
	f := l.F
	if _, ok := slices.BinarySearch(l.segs[l.segOf[b]].regs, r); !ok {
		return false
	}
	for _, q := range f.PredsOf(b) {
		if l.segOf[q] == l.segOf[b] {
			continue
		}
		sq := &l.segs[l.segOf[q]]
		if slices.Index(sq.exts, b) < 0 {
			continue
		}
		if _, ok := slices.BinarySearch(sq.regs, r); !ok {
			return false
		}
	}
	return true
}

// setIn adds r to b's in set and to the copies of it that the segments of
// b's predecessors keep (canSetIn must hold).
func (l *Liveness) setIn(b ir.BlockID, r ir.RegID) { l.putIn(b, r, true) }
