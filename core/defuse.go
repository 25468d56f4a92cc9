package core

import (
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

// Ref is one occurrence of a register: the instruction and where in it
// the operand word is stored (OperandAt/SetOperandAt read and rewrite it;
// OperandIndex gives its position among the operands).
type Ref struct {
	Instr ir.InstrID
	Loc   Loc
}

// DefUse holds, per register, its definitions and its uses in compressed
// rows: one pass over the instructions that keeps every reference in a
// flat array, then counts, prefix sums and a fill from that array — no
// per-use objects, and every array reused by the next computation. Only
// instructions linked into blocks are seen; rows list them in layout
// order. The guard of an instruction is a use; a guarded definition is a
// definition.
//
// Small functions count per register during the walk and fill the rows
// in one scatter. Large ones sort by register blocks of 1<<shift
// consecutive registers so that every random access stays cache-sized
// however many registers the function has (computeBlocked): the walk
// counts per register block only, the references are scattered into
// their blocks' ranges (at most about 128 sequential streams), and each
// block then counts, sets the row starts of and fills its own rows. Every
// step is stable, so rows stay in layout order.
type DefUse struct {
	defStart, useStart []uint32
	defs, uses         []Ref
	rows               []Ref // large functions: the array defs and uses were cut from

	// working memory kept for the next ComputeDefUseInto (nil when the
	// caller lends its own, ComputeDefUseWith)
	work *DefUseWork
}

// DefUseWork is the working memory of a def-use computation. It is
// needed only while the chains are built: a caller computing chains
// again and again (an analysis cache) lends one to every computation,
// rather than have each set of chains keep its own (on a function of a
// million instructions, about 60 MB a set).
type DefUseWork struct {
	fill    []uint32
	refs    []RegRef
	all     []instrRef // every reference, in layout order (small functions)
	keep    []blockRef // every reference, in layout order (large functions)
	byBlock []blockRef // keep sorted by register block
	cnt     []uint32   // per register of one block: counts, then next row slots
}

// blockRef is one reference of a large function: the register, with
// refDef set for a definition.
type blockRef struct {
	instr ir.InstrID
	loc   Loc
	reg   uint32
}

const refDef = 1 << 31

// instrRef is one reference with its instruction.
type instrRef struct {
	instr ir.InstrID
	RegRef
}

// NumRegs returns how many registers the chains cover.
func (d *DefUse) NumRegs() int { return len(d.defStart) - 1 }

// Defs returns the definitions of r.
func (d *DefUse) Defs(r ir.RegID) []Ref { return d.defs[d.defStart[r]:d.defStart[r+1]] }

// Uses returns the uses of r.
func (d *DefUse) Uses(r ir.RegID) []Ref { return d.uses[d.useStart[r]:d.useStart[r+1]] }

// directFillInstrs: below this many instructions the rows are filled in
// one scatter (the whole row array fits in cache).
const directFillInstrs = 16 << 10

// ComputeDefUse builds the def-use chains of f.
func ComputeDefUse(f *ir.Func) *DefUse { return ComputeDefUseInto(nil, f) }

// ComputeDefUseInto is ComputeDefUse into old, chains the caller no longer
// needs, whose memory is reused (nil: new ones).
func ComputeDefUseInto(old *DefUse, f *ir.Func) *DefUse {
	var w *DefUseWork
	if old != nil && old.work != nil {
		w = old.work
	} else {
		w = &DefUseWork{}
	}
	d := ComputeDefUseWith(old, f, w)
	d.work = w
	return d
}

// ComputeDefUseWith is ComputeDefUseInto with the working memory w, which
// the chains do not keep (the caller may lend it to the next computation).
func ComputeDefUseWith(old *DefUse, f *ir.Func, w *DefUseWork) *DefUse {
	nr := f.NumRegs()
	d := old
	if d == nil {
		d = &DefUse{}
	}
	d.work = nil
	// Register blocks of 1<<shift registers: at least 256, and at most
	// about 128 blocks (nr/128 registers each), so that the scatter into
	// blocks writes at most 128 streams, and a block's part of the row
	// starts, its references and its rows (tens of thousands) fit in the
	// L2 cache together.
	shift := max(8, bits.Len(uint(nr))-7)
	if nr > 1<<shift && f.NumInstrs() >= directFillInstrs {
		d.defStart, d.useStart = resize(d.defStart, nr+1), resize(d.useStart, nr+1)
		d.computeBlocked(f, w, shift)
		return d
	}
	d.defStart, d.useStart = grow(d.defStart, nr+1), grow(d.useStart, nr+1)
	refs := w.refs
	defer func() { w.refs = refs }()
	// One walk over the instructions: count per register and keep every
	// reference for the fill.
	all := w.all[:0]
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if x.Def {
					d.defStart[x.Reg+1]++
				} else {
					d.useStart[x.Reg+1]++
				}
				all = append(all, instrRef{i, x})
			}
		}
	}
	w.all = all
	for r := range nr {
		d.defStart[r+1] += d.defStart[r]
		d.useStart[r+1] += d.useStart[r]
	}
	nd, nu := d.defStart[nr], d.useStart[nr]
	d.defs = grow(d.defs, int(nd))
	d.uses = grow(d.uses, int(nu))
	d.fillDirect(all, w)
	return d
}

// computeBlocked builds the chains of a large function (defStart and
// useStart already sized) by register blocks of 1<<shift registers: the
// walk keeps every reference, with its register and whether it is a
// definition, and counts per register block only (not per register, whose
// counters, a million of them, are as large as the references); the
// references are scattered into their register blocks' ranges (in layout
// order within each); then each register block in turn counts its
// registers' references, sets their row starts and scatters its
// references into its rows, while its part of the row starts, its
// references and its rows are in cache.
func (d *DefUse) computeBlocked(f *ir.Func, w *DefUseWork, shift int) {
	nr := len(d.defStart) - 1
	nblk := (nr + 1<<shift - 1) >> shift
	w.fill = grow(w.fill, nblk)
	bc := w.fill
	refs := w.refs
	all := w.keep[:0]
	nd := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			for j := range refs {
				x := &refs[j]
				r := uint32(x.Reg)
				if x.Def {
					r |= refDef
				}
				nd += int(r >> 31)
				bc[x.Reg>>shift]++
				all = append(all, blockRef{i, x.Loc, r})
			}
		}
	}
	w.refs, w.keep = refs, all
	// bc[k]: where block k's references start, then (after the scatter)
	// where they end.
	n := uint32(0)
	for k, c := range bc {
		bc[k] = n
		n += c
	}
	w.byBlock = resize(w.byBlock, len(all))
	byBlock := w.byBlock
	for _, x := range all {
		k := (x.reg &^ refDef) >> shift
		byBlock[bc[k]] = x
		bc[k]++
	}
	// Definitions and uses in one array, so that the fill writes either
	// without a branch: the uses' slots are offset by nd. Each keeps its
	// own capacity limit, so that a pass appending to the definitions
	// (Relink) never writes over the uses.
	d.rows = resize(d.rows, len(all))
	d.defs, d.uses = d.rows[:nd:nd], d.rows[nd:]
	rows := d.rows
	// cnt holds the block's definition counts, then its use counts (from
	// 1<<shift); slot gives a reference's place in it.
	w.cnt = resize(w.cnt, 2<<shift)
	cnt := w.cnt
	dbase, ubase := uint32(0), uint32(nd)
	start := uint32(0)
	for k := range nblk {
		lo, hi := k<<shift, min(nr, (k+1)<<shift)
		n := hi - lo
		clear(cnt[:n])
		clear(cnt[1<<shift : 1<<shift+n])
		blk := byBlock[start:bc[k]]
		start = bc[k]
		for _, x := range blk {
			cnt[slot(x.reg, lo, shift)]++
		}
		cd, cu := cnt[:n], cnt[1<<shift:1<<shift+n]
		for j := range n {
			d.defStart[lo+j], d.useStart[lo+j] = dbase, ubase-uint32(nd)
			cd[j], dbase = dbase, dbase+cd[j]
			cu[j], ubase = ubase, ubase+cu[j]
		}
		for _, x := range blk {
			s := slot(x.reg, lo, shift)
			rows[cnt[s]] = Ref{x.instr, x.loc}
			cnt[s]++
		}
	}
	d.defStart[nr], d.useStart[nr] = dbase, ubase-uint32(nd)
}

// slot is the place of a block reference's register in the count array
// of the register block starting at lo: definitions first, then uses
// from 1<<shift.
func slot(reg uint32, lo, shift int) int {
	return int(reg&^refDef) - lo + int((reg>>31)^1)<<shift
}

// resize returns s resized to n elements, reusing its array when it is
// large enough; unlike grow it leaves the elements as they were (the
// caller writes every one).
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/8)
	}
	return s[:n]
}

// fillDirect fills the rows in one pass over the references, scattering
// each straight into its row.
func (d *DefUse) fillDirect(all []instrRef, w *DefUseWork) {
	nr := len(d.defStart) - 1
	w.fill = grow(w.fill, 2*nr)
	fd := w.fill
	copy(fd, d.defStart[:nr])
	copy(fd[nr:], d.useStart[:nr])
	for _, x := range all {
		if x.Def {
			d.defs[fd[x.Reg]] = Ref{x.instr, x.Loc}
			fd[x.Reg]++
		} else {
			d.uses[fd[nr+int(x.Reg)]] = Ref{x.instr, x.Loc}
			fd[nr+int(x.Reg)]++
		}
	}
}

// DropDead removes from the rows of regs (each listed once, sorted
// ascending) the references of instructions f marks dead, so chains
// built before a pass deleted instructions describe the function after
// it: a pass that deletes a few instructions of a large function and
// lists the registers they named keeps its chains valid for the phases
// after it at the cost of moving the rows down (sequential copies)
// instead of rebuilding them.
func (d *DefUse) DropDead(f *ir.Func, regs []ir.RegID) {
	if len(regs) == 0 {
		return
	}
	gone := func(i ir.InstrID) bool { return f.Dead[i] }
	d.defs = dropRows(d.defStart, d.defs, regs, gone)
	d.uses = dropRows(d.useStart, d.uses, regs, gone)
}

// dropRows removes from the rows of regs (sorted, each once) the
// references of the instructions gone reports, moving the rows after them
// down.
func dropRows(start []uint32, refs []Ref, regs []ir.RegID, gone func(ir.InstrID) bool) []Ref {
	nr := len(start) - 1
	w := start[regs[0]] // next write position; the rows before stay
	for k, r := range regs {
		lo, hi := start[r], start[r+1]
		start[r] = w
		for _, x := range refs[lo:hi] {
			if !gone(x.Instr) {
				refs[w] = x
				w++
			}
		}
		// The rows up to the next listed register keep their references
		// and move down by what r's row lost.
		next := nr
		if k+1 < len(regs) {
			next = int(regs[k+1])
		}
		delta := hi - w
		end := start[next]
		if delta > 0 {
			copy(refs[w:], refs[hi:end])
			for q := int(r) + 1; q < next; q++ {
				start[q] -= delta
			}
		}
		w += end - hi
	}
	start[nr] = w
	return refs[:w]
}
