package core

import (
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// Keeping a liveness valid across deletions of dead instructions.
//
// Deleting an instruction whose results are dead changes no register's
// liveness through its definitions (none was live after them), and can
// only shrink the liveness of the registers it read. A pass that deletes
// a few instructions of a large function (the live/dead sweeps) so need
// not throw the whole liveness away: for each register that lost a read,
// its live-in blocks are found again by a backward search from its
// remaining reads (the search the sparse method makes, linear in the
// register's live range), and its bit is cleared in the blocks where it
// was live and no longer is. Those blocks are found from the deleted
// reads: a block where the register was live in and no longer is had a
// path to a deleted read along which the register was live, so a
// backward walk from the deleted reads through the blocks that did not
// kill the register before the deletions meets every one; and the walk
// stops at blocks still live in, since every block it would reach from
// one is live in too.

// RegBlock is a register and a block.
type RegBlock struct {
	Reg   ir.RegID
	Block ir.BlockID
}

// ShrinkState is the working memory of Shrink, reused across calls.
type ShrinkState struct {
	newMark, oldMark []uint32 // block → stamp: live in after the deletions; visited by the walk over the old set
	killMark         []uint32 // block → stamp: the register has a killing definition there
	stamp            uint32
	refs             []shrinkRef
	stack            []ir.BlockID
	gone, killed     []RegBlock
	// changed lists the blocks whose in set the last Shrink or Grow
	// changed (a block once per register), for a caller that keeps
	// per-block results computed from the sets (a pressure trace).
	changed []ir.BlockID
}

// Changed returns the blocks whose live-in set the last Shrink or Grow
// call on st changed (a block may repeat, once per register).
func (st *ShrinkState) Changed() []ir.BlockID { return st.changed }

// sortedFrom returns the index of the first entry of r in s, sorted by
// register.
func sortedFrom(s []RegBlock, r ir.RegID) int {
	k, _ := slices.BinarySearchFunc(s, r, func(x RegBlock, r ir.RegID) int { return int(x.Reg) - int(r) })
	return k
}

type shrinkRef struct {
	blk ir.BlockID
	pos int32 // position in the block; a PHI operand is read at the end of its predecessor (max)
	use bool
}

// Shrink brings l up to date after instructions were deleted from l.F,
// when the registers whose liveness may have changed are those that lost
// a read (regs, each once). du are the chains of the function as it is
// now (without the deleted instructions); pos gives each instruction's
// position in its block; gone lists, for every deleted read, its register
// and the block it was read in (for a PHI operand, the predecessor it
// came from); killed, for every deleted unguarded definition, its
// register and block. It reports false when it cannot (the sparse method's
// lists): the caller then drops l.
func (l *Liveness) Shrink(st *ShrinkState, du *DefUse, pos []int32, regs []ir.RegID, gone, killed []RegBlock) bool {
	if l.Method != Dense {
		return false
	}
	f := l.F
	nb := f.NumBlocks()
	if len(st.newMark) < nb {
		st.newMark = make([]uint32, nb)
		st.oldMark = make([]uint32, nb)
		st.killMark = make([]uint32, nb)
		st.stamp = 0
	}
	if l.hasPhi {
		// A deleted PHI no longer reads its operands at the end of its
		// predecessors.
		l.buf.phiStart, l.buf.phiRegs, l.hasPhi = phiOuts(f, l.buf.phiStart, l.buf.phiRegs)
		l.phiStart, l.phiRegs = l.buf.phiStart, l.buf.phiRegs
	}
	st.changed = st.changed[:0]
	st.gone = append(st.gone[:0], gone...)
	slices.SortFunc(st.gone, func(a, b RegBlock) int { return int(a.Reg) - int(b.Reg) })
	st.killed = append(st.killed[:0], killed...)
	slices.SortFunc(st.killed, func(a, b RegBlock) int { return int(a.Reg) - int(b.Reg) })
	for _, r := range regs {
		if l.Global[r] < 0 {
			continue // live at no boundary before, so at none after
		}
		st.stamp++
		if st.stamp == 0 {
			clear(st.newMark)
			clear(st.oldMark)
			clear(st.killMark)
			st.stamp = 1
		}
		any, phiUse := l.liveInAfter(st, du, pos, r)
		// The blocks r was live into and may no longer be: those a
		// backward walk from the deleted reads reaches (starting where r
		// was live in) without passing a block that killed r before the
		// deletions (the kills now, and the deleted ones). Every block
		// it meets was live in before, and every one that stopped being
		// live in is met.
		for k := sortedFrom(st.killed, r); k < len(st.killed) && st.killed[k].Reg == r; k++ {
			st.killMark[st.killed[k].Block] = st.stamp
		}
		st.stack = st.stack[:0]
		for k := sortedFrom(st.gone, r); k < len(st.gone) && st.gone[k].Reg == r; k++ {
			b := st.gone[k].Block
			if st.oldMark[b] != st.stamp && l.IsLiveIn(b, r) {
				st.oldMark[b] = st.stamp
				st.stack = append(st.stack, b)
			}
		}
		for len(st.stack) > 0 {
			c := st.stack[len(st.stack)-1]
			st.stack = st.stack[:len(st.stack)-1]
			if st.newMark[c] == st.stamp {
				// Still live in: so is every block the walk would reach
				// from here (each is live out, into a block r is live
				// into, and does not kill r).
				continue
			}
			l.clearIn(c, r)
			st.changed = append(st.changed, c)
			for _, q := range f.PredsOf(c) {
				if st.oldMark[q] != st.stamp && st.killMark[q] != st.stamp {
					st.oldMark[q] = st.stamp
					st.stack = append(st.stack, q)
				}
			}
		}
		if !any && !phiUse {
			if _, ok := slices.BinarySearch(l.atExit, r); !ok {
				// In no gen set any more: a fresh solve would call it
				// block-local.
				l.Global[r] = -1
			}
		}
	}
	return true
}

// liveInAfter marks in st.newMark the blocks r is live into, from its
// references in du, and reports whether there is any and whether a PHI
// reads r.
func (l *Liveness) liveInAfter(st *ShrinkState, du *DefUse, pos []int32, r ir.RegID) (any, phiUse bool) {
	f := l.F
	st.refs = st.refs[:0]
	for _, x := range du.Uses(r) {
		i := x.Instr
		if f.Op[i] == ir.OpPhi {
			k := OperandIndex(f, i, x.Loc)
			if ops := f.Ops(i); k >= 1 && k+1 < len(ops) {
				phiUse = true
				st.refs = append(st.refs, shrinkRef{blk: ir.BlockID(ops[k+1].Index()), pos: 1<<31 - 1, use: true})
			}
			continue
		}
		st.refs = append(st.refs, shrinkRef{blk: f.Block[i], pos: pos[i], use: true})
	}
	for _, x := range du.Defs(r) {
		i := x.Instr
		if f.Guard[i] != ir.NoOperand {
			continue // a guarded write kills nothing
		}
		st.refs = append(st.refs, shrinkRef{blk: f.Block[i], pos: pos[i]})
		st.killMark[f.Block[i]] = st.stamp
	}
	slices.SortFunc(st.refs, func(a, b shrinkRef) int { return CompareRefPlaces(a.blk, a.pos, a.use, b.blk, b.pos, b.use) })
	st.stack = st.stack[:0]
	for k, x := range st.refs {
		if k > 0 && st.refs[k-1].blk == x.blk {
			continue
		}
		if x.use { // the block's first reference reads r: upward-exposed
			st.newMark[x.blk] = st.stamp
			st.stack = append(st.stack, x.blk)
			any = true
		}
	}
	if _, ok := slices.BinarySearch(l.atExit, r); ok {
		for b := range ir.BlockID(f.NumBlocks()) {
			if len(f.SuccsOf(b)) == 0 && st.newMark[b] != st.stamp && st.killMark[b] != st.stamp {
				st.newMark[b] = st.stamp
				st.stack = append(st.stack, b)
				any = true
			}
		}
	}
	for len(st.stack) > 0 {
		c := st.stack[len(st.stack)-1]
		st.stack = st.stack[:len(st.stack)-1]
		for _, q := range f.PredsOf(c) {
			if st.newMark[q] != st.stamp && st.killMark[q] != st.stamp {
				st.newMark[q] = st.stamp
				st.stack = append(st.stack, q)
				any = true
			}
		}
	}
	return any, phiUse
}

// clearIn removes r from b's in set and from the copies of it that the
// segments of b's predecessors keep in their numbering.
func (l *Liveness) clearIn(b ir.BlockID, r ir.RegID) {
	f := l.F
	sg := &l.segs[l.segOf[b]]
	if x, ok := slices.BinarySearch(sg.regs, r); ok {
		l.inBits[int(l.inOff[b])+x>>5] &^= 1 << (x & 31)
	}
	for _, q := range f.PredsOf(b) {
		if l.segOf[q] == l.segOf[b] {
			continue
		}
		sq := &l.segs[l.segOf[q]]
		e := slices.Index(sq.exts, b)
		if e < 0 {
			continue
		}
		if x, ok := slices.BinarySearch(sq.regs, r); ok {
			l.inBits[int(sq.extBase)+e*int(sq.sw)+x>>5] &^= 1 << (x & 31)
		}
	}
}

// CompareRefPlaces orders two references to one register by place: by
// block, then by position in the block, and a read before a write at the
// same position (an instruction reads its operands before it writes).
func CompareRefPlaces(ablk ir.BlockID, apos int32, ause bool, bblk ir.BlockID, bpos int32, buse bool) int {
	if ablk != bblk {
		return int(ablk) - int(bblk)
	}
	if apos != bpos {
		return int(apos) - int(bpos)
	}
	if ause != buse {
		if ause {
			return -1
		}
		return 1
	}
	return 0
}
