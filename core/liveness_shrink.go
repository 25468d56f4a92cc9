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
	// The per-block questions of the walk (stillLive), under stamp:
	// useMark/minUse, the first read of the register in the block (a
	// PHI operand at the end of its predecessor), minKill the first
	// killing definition (under killMark), deadKill a deleted one;
	// yes/no the answers found so far; full: newMark holds the whole
	// search's answer (search, its stack).
	useMark, deadKill, yes, no []uint32
	minUse, minKill            []int32
	full                       bool
	// visit: block → query stamp (qstamp), the blocks one query met
	// (from: the block each was met from)
	visit  []uint32
	from   []ir.BlockID
	qstamp uint32
	met    []ir.BlockID
	search []ir.BlockID
	// segMark/segIdx: per segment of the dense method, the register's
	// index in the segment's numbering (-1: not numbered), found once
	// per register (under stamp) rather than by a search per block
	segMark []uint32
	segIdx  []int32
	// changed lists the blocks whose in set the last Shrink or Grow
	// changed (a block once per register), for a caller that keeps
	// per-block results computed from the sets (a pressure trace).
	changed []ir.BlockID
}

// Changed returns the blocks whose live-in set the last Shrink or Grow
// call on st changed (a block may repeat, once per register).
func (st *ShrinkState) Changed() []ir.BlockID { return st.changed }

// size readies st's per-block and per-segment marks for l's function
// (new marks when they are too short: zero, under no stamp).
func (st *ShrinkState) size(l *Liveness) {
	nb := l.F.NumBlocks()
	if len(st.newMark) < nb {
		st.newMark = make([]uint32, nb)
		st.oldMark = make([]uint32, nb)
		st.killMark = make([]uint32, nb)
		st.useMark = make([]uint32, nb)
		st.deadKill = make([]uint32, nb)
		st.yes = make([]uint32, nb)
		st.no = make([]uint32, nb)
		st.minUse = make([]int32, nb)
		st.minKill = make([]int32, nb)
		st.visit = make([]uint32, nb)
		st.from = make([]ir.BlockID, nb)
		st.stamp, st.qstamp = 0, 0
		clear(st.segMark)
	}
	if n := len(l.segs); len(st.segMark) < n {
		st.segMark = append(st.segMark, make([]uint32, n-len(st.segMark))...)
		st.segIdx = append(st.segIdx, make([]int32, n-len(st.segIdx))...)
	}
}

// next starts the marks of another register.
func (st *ShrinkState) next() {
	st.stamp++
	if st.stamp == 0 {
		for _, m := range [][]uint32{st.newMark, st.oldMark, st.killMark, st.useMark, st.deadKill, st.yes, st.no, st.segMark} {
			clear(m)
		}
		st.stamp = 1
	}
}

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
	st.size(l)
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
		st.next()
		any, phiUse := st.scanRefs(l, du, pos, r)
		// The blocks r was live into and may no longer be: those a
		// backward walk from the deleted reads reaches (starting where r
		// was live in) without passing a block that killed r before the
		// deletions (the kills now, and the deleted ones). Every block
		// it meets was live in before, and every one that stopped being
		// live in is met.
		for k := sortedFrom(st.killed, r); k < len(st.killed) && st.killed[k].Reg == r; k++ {
			st.deadKill[st.killed[k].Block] = st.stamp
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
			if l.stillLive(st, du, pos, r, c) {
				// Still live in: so is every block the walk would reach
				// from here (each is live out, into a block r is live
				// into, and does not kill r).
				continue
			}
			l.clearIn(c, r)
			st.changed = append(st.changed, c)
			for _, q := range f.PredsOf(c) {
				if st.oldMark[q] != st.stamp && st.killMark[q] != st.stamp && st.deadKill[q] != st.stamp {
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
	st.search = st.search[:0]
	for k, x := range st.refs {
		if k > 0 && st.refs[k-1].blk == x.blk {
			continue
		}
		if x.use { // the block's first reference reads r: upward-exposed
			st.newMark[x.blk] = st.stamp
			st.search = append(st.search, x.blk)
			any = true
		}
	}
	if _, ok := slices.BinarySearch(l.atExit, r); ok {
		for b := range ir.BlockID(f.NumBlocks()) {
			if len(f.SuccsOf(b)) == 0 && st.newMark[b] != st.stamp && st.killMark[b] != st.stamp {
				st.newMark[b] = st.stamp
				st.search = append(st.search, b)
				any = true
			}
		}
	}
	for len(st.search) > 0 {
		c := st.search[len(st.search)-1]
		st.search = st.search[:len(st.search)-1]
		for _, q := range f.PredsOf(c) {
			if st.newMark[q] != st.stamp && st.killMark[q] != st.stamp {
				st.newMark[q] = st.stamp
				st.search = append(st.search, q)
				any = true
			}
		}
	}
	return any, phiUse
}

// Whether r is still live into a block the walk meets (stillLive) is
// asked of the blocks near the deleted reads only: searching r's whole
// live range again (liveInAfter) costs the range for every register that
// lost a read, which on a large function with long ranges is most of the
// blocks times many registers. A block is live in when a path of blocks
// that do not kill r leads from it to a block where r is read before any
// killing definition (exposed), or to an exit when r is live at exit;
// every block on such a path was live in before the deletions, so the
// search forward keeps to those. Answers are kept: a search that finds
// no such block answers no for every block it met (each one's paths
// stay inside what it met), one that finds it answers yes for the block
// asked and the blocks on the way to it. A search that meets more than
// stillLiveBudget blocks gives way to the whole search (liveInAfter),
// once per register, so the cost is never far above that search's (at
// 1M instructions 4096 leaves one register of 16,024 to it, where 256
// left 788 and cost more).

// stillLiveBudget bounds the blocks one forward search meets (a variable
// for tests, which lower it to take the other way).
var stillLiveBudget = 4096

// scanRefs records, per block, r's first read and first killing
// definition (with killMark), and reports whether r is still live into
// some block (read before any kill somewhere, or live at exit out of an
// exit block that does not kill it: a fresh solve numbers it then) and
// whether a PHI reads it.
func (st *ShrinkState) scanRefs(l *Liveness, du *DefUse, pos []int32, r ir.RegID) (any, phiUse bool) {
	f := l.F
	s := st.stamp
	st.full = false
	for _, x := range du.Uses(r) {
		i := x.Instr
		b, p := f.Block[i], pos[i]
		if f.Op[i] == ir.OpPhi {
			k := OperandIndex(f, i, x.Loc)
			ops := f.Ops(i)
			if k < 1 || k+1 >= len(ops) {
				continue
			}
			phiUse = true
			b, p = ir.BlockID(ops[k+1].Index()), 1<<31-1
		}
		if st.useMark[b] != s || p < st.minUse[b] {
			st.useMark[b], st.minUse[b] = s, p
		}
	}
	for _, x := range du.Defs(r) {
		i := x.Instr
		if f.Guard[i] != ir.NoOperand {
			continue // a guarded write kills nothing
		}
		b := f.Block[i]
		if st.killMark[b] != s || pos[i] < st.minKill[b] {
			st.killMark[b], st.minKill[b] = s, pos[i]
		}
	}
	for _, x := range du.Uses(r) {
		i := x.Instr
		b := f.Block[i]
		if f.Op[i] == ir.OpPhi {
			k := OperandIndex(f, i, x.Loc)
			if ops := f.Ops(i); k >= 1 && k+1 < len(ops) {
				b = ir.BlockID(ops[k+1].Index())
			}
		}
		if st.exposed(b) {
			any = true
			break
		}
	}
	if _, ok := slices.BinarySearch(l.atExit, r); ok && !any {
		for b := range ir.BlockID(f.NumBlocks()) {
			if len(f.SuccsOf(b)) == 0 && st.killMark[b] != s {
				any = true
				break
			}
		}
	}
	return any, phiUse
}

// exposed reports whether the register scanRefs looked at is read in b
// before any killing definition there (a read and a write of one
// instruction: the read comes first).
func (st *ShrinkState) exposed(b ir.BlockID) bool {
	s := st.stamp
	return st.useMark[b] == s && (st.killMark[b] != s || st.minUse[b] <= st.minKill[b])
}

// stillLive reports whether r is live into c after the deletions (c was
// live in before them).
func (l *Liveness) stillLive(st *ShrinkState, du *DefUse, pos []int32, r ir.RegID, c ir.BlockID) bool {
	s := st.stamp
	if st.full {
		return st.newMark[c] == s
	}
	if st.yes[c] == s {
		return true
	}
	if st.no[c] == s {
		return false
	}
	f := l.F
	_, atExit := slices.BinarySearch(l.atExit, r)
	st.qstamp++
	if st.qstamp == 0 {
		clear(st.visit)
		st.qstamp = 1
	}
	q := st.qstamp
	st.met = append(st.met[:0], c)
	st.visit[c] = q
	// found: x is live in, and so is every block on the way the search
	// met it from c
	found := func(x ir.BlockID) bool {
		for ; x != c; x = st.from[x] {
			st.yes[x] = s
		}
		st.yes[c] = s
		return true
	}
	for k := 0; k < len(st.met); k++ {
		x := st.met[k]
		if st.yes[x] == s || st.exposed(x) {
			return found(x)
		}
		if st.killMark[x] == s {
			continue // r dies in x before any read
		}
		succs := f.SuccsOf(x)
		if len(succs) == 0 && atExit {
			return found(x)
		}
		for _, y := range succs {
			if st.visit[y] == q || st.no[y] == s {
				continue
			}
			st.visit[y], st.from[y] = q, x
			if !l.wasLiveIn(st, y, r) {
				continue // not live in before the deletions, nor after
			}
			st.met = append(st.met, y)
		}
		if len(st.met) > stillLiveBudget {
			// The whole search, once for r: every answer from here on.
			l.liveInAfter(st, du, pos, r)
			st.full = true
			return st.newMark[c] == s
		}
	}
	for _, x := range st.met {
		st.no[x] = s
	}
	return false
}

// wasLiveIn is IsLiveIn(b, r) under the dense method, with r's index in
// each segment's numbering looked up once per Shrink register.
func (l *Liveness) wasLiveIn(st *ShrinkState, b ir.BlockID, r ir.RegID) bool {
	k := l.segOf[b]
	if st.segMark[k] != st.stamp {
		st.segMark[k] = st.stamp
		st.segIdx[k] = -1
		if x, ok := slices.BinarySearch(l.segs[k].regs, r); ok {
			st.segIdx[k] = int32(x)
		}
	}
	x := st.segIdx[k]
	return x >= 0 && l.inBits[int(l.inOff[b])+int(x>>5)]&(1<<(x&31)) != 0
}

// clearIn removes r from b's in set and from the copies of it that the
// segments of b's predecessors keep in their numbering.
func (l *Liveness) clearIn(b ir.BlockID, r ir.RegID) { l.putIn(b, r, false) }

// putIn sets (on) or clears r's bit in b's in set and in the copies of
// that set the segments of b's predecessors keep, wherever the segment
// numbers r (setIn and clearIn).
func (l *Liveness) putIn(b ir.BlockID, r ir.RegID, on bool) {
	f := l.F
	put := func(word int, x int) {
		if on {
			l.inBits[word+x>>5] |= 1 << (x & 31)
		} else {
			l.inBits[word+x>>5] &^= 1 << (x & 31)
		}
	}
	sg := &l.segs[l.segOf[b]]
	if x, ok := slices.BinarySearch(sg.regs, r); ok {
		put(int(l.inOff[b]), x)
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
			put(int(sq.extBase)+e*int(sq.sw), x)
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
