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
//
// Rows are kept by groups of 16 registers, each group's rows followed
// by a gap (slack): the start arrays hold, per group, the starts of its
// 16 rows (empty ones past the last register) and then of its gap, a
// row no register owns (rowIndex maps a register to its entry). A pass
// that rewrites a few instructions (Refresh, DropDead, MoveUses) moves
// only the rows of the groups whose registers it changes, up to their
// gaps, instead of every row after the first register changed: on a
// large function, work in proportion to the edits rather than to the
// function. A group whose gap is too small for what is inserted into it
// takes room from the gaps of the groups after it (borrow), or, when
// those are full too, has every row laid out again with new gaps
// (regap).
type DefUse struct {
	defStart, useStart []uint32 // by row index (rowIndex): groups of rowGroup rows and a gap
	defs, uses         []Ref
	rows               []Ref // large functions: the array defs and uses were cut from
	nr                 int   // registers covered

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
func (d *DefUse) NumRegs() int { return d.nr }

// Defs returns the definitions of r.
func (d *DefUse) Defs(r ir.RegID) []Ref {
	e := rowIndex(r)
	return d.defs[d.defStart[e]:d.defStart[e+1]]
}

// Uses returns the uses of r.
func (d *DefUse) Uses(r ir.RegID) []Ref {
	e := rowIndex(r)
	return d.uses[d.useStart[e]:d.useStart[e+1]]
}

// Row groups: rowGroup registers' rows, then the group's gap.
const (
	rowGroupShift = 4
	rowGroup      = 1 << rowGroupShift
	groupRows     = rowGroup + 1 // row entries per group, the gap's included
)

// rowIndex is the index of r's row in the start arrays: the rows of the
// groups before r's and their gaps come first.
func rowIndex(r ir.RegID) uint32 { return uint32(r) + uint32(r)>>rowGroupShift }

// numRows is how many row entries (gaps included) cover nr registers:
// whole groups, the last padded with empty rows.
func numRows(nr int) int { return (nr + rowGroup - 1) >> rowGroupShift * groupRows }

// gapFor is the slack left after a group whose rows hold n references:
// room for the references a round of edits typically adds to a group
// (a group that outgrows it makes every row laid out again).
func gapFor(n uint32) uint32 { return 1 + n/8 }

// layoutStarts turns per-row counts (start[e+1] holds row e's count;
// gaps' counts are ignored) into row starts, giving every group's gap
// gapFor of its rows' references.
func layoutStarts(start []uint32) {
	ne := len(start) - 1
	pos := uint32(0)
	for g := 0; g < ne; g += groupRows {
		group := pos
		for e := g; e < g+rowGroup; e++ {
			c := start[e+1] // (read before the entry is overwritten)
			start[e] = pos
			pos += c
		}
		start[g+rowGroup] = pos
		pos += gapFor(pos - group)
	}
	start[ne] = pos
}

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
	d.nr = nr
	ne := numRows(nr)
	// Register blocks of 1<<shift registers: at least 256, and at most
	// about 128 blocks (nr/128 registers each), so that the scatter into
	// blocks writes at most 128 streams, and a block's part of the row
	// starts, its references and its rows (tens of thousands) fit in the
	// L2 cache together.
	shift := max(8, bits.Len(uint(nr))-7)
	if nr > 1<<shift && f.NumInstrs() >= directFillInstrs {
		d.defStart, d.useStart = resize(d.defStart, ne+1), resize(d.useStart, ne+1)
		d.computeBlocked(f, w, shift)
		return d
	}
	d.defStart, d.useStart = grow(d.defStart, ne+1), grow(d.useStart, ne+1)
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
					d.defStart[rowIndex(x.Reg)+1]++
				} else {
					d.useStart[rowIndex(x.Reg)+1]++
				}
				all = append(all, instrRef{i, x})
			}
		}
	}
	w.all = all
	layoutStarts(d.defStart)
	layoutStarts(d.useStart)
	nd, nu := d.defStart[ne], d.useStart[ne]
	// (the fill writes every row slot; nothing reads the gaps)
	d.defs = resize(d.defs, int(nd))
	d.uses = resize(d.uses, int(nu))
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
	nr := d.nr
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
	// The gaps: at most gapFor of all the references, a group's
	// rounding (gapFor(0)) per group besides.
	groups := numRows(nr) / groupRows
	ndg := nd + int(gapFor(uint32(nd))) + int(gapFor(0))*groups
	nug := len(all) - nd + int(gapFor(uint32(len(all)-nd))) + int(gapFor(0))*groups
	// Definitions and uses in one array, so that the fill writes either
	// without a branch: the uses' slots are offset by the definitions'
	// room.
	d.rows = resize(d.rows, ndg+nug)
	rows := d.rows
	// cnt holds the block's definition counts, then its use counts (from
	// 1<<shift); slot gives a reference's place in it.
	w.cnt = resize(w.cnt, 2<<shift)
	cnt := w.cnt
	dbase, ubase := uint32(0), uint32(ndg)
	dgroup, ugroup := dbase, ubase // where the group under way starts
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
			e := rowIndex(ir.RegID(lo + j))
			d.defStart[e], d.useStart[e] = dbase, ubase-uint32(ndg)
			cd[j], dbase = dbase, dbase+cd[j]
			cu[j], ubase = ubase, ubase+cu[j]
			if r := lo + j; r%rowGroup == rowGroup-1 || r == nr-1 {
				// the group's last register: empty rows up to its gap,
				// then the gap
				for q := r%rowGroup + 1; q < rowGroup; q++ {
					d.defStart[e+uint32(q-r%rowGroup)], d.useStart[e+uint32(q-r%rowGroup)] = dbase, ubase-uint32(ndg)
				}
				gd, gu := gapFor(dbase-dgroup), gapFor(ubase-ugroup)
				g := e + uint32(rowGroup-r%rowGroup)
				d.defStart[g], d.useStart[g] = dbase, ubase-uint32(ndg)
				dbase, ubase = dbase+gd, ubase+gu
				dgroup, ugroup = dbase, ubase
			}
		}
		for _, x := range blk {
			s := slot(x.reg, lo, shift)
			rows[cnt[s]] = Ref{x.instr, x.loc}
			cnt[s]++
		}
	}
	ne := numRows(nr)
	d.defStart[ne], d.useStart[ne] = dbase, ubase-uint32(ndg)
	d.defs, d.uses = rows[:dbase:ndg], rows[ndg:ubase]
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
	ne := len(d.defStart) - 1
	w.fill = grow(w.fill, 2*ne)
	fd := w.fill
	copy(fd, d.defStart[:ne])
	copy(fd[ne:], d.useStart[:ne])
	for _, x := range all {
		e := int(rowIndex(x.Reg))
		if x.Def {
			d.defs[fd[e]] = Ref{x.instr, x.Loc}
			fd[e]++
		} else {
			d.uses[fd[ne+e]] = Ref{x.instr, x.Loc}
			fd[ne+e]++
		}
	}
}

// DropDead removes from the rows of regs (each listed once, sorted
// ascending) the references of instructions f marks dead, so chains
// built before a pass deleted instructions describe the function after
// it: a pass that deletes a few instructions of a large function and
// lists the registers they named keeps its chains valid for the phases
// after it at the cost of moving the rows of their groups down to the
// groups' gaps instead of rebuilding them.
func (d *DefUse) DropDead(f *ir.Func, regs []ir.RegID) {
	gone := func(i ir.InstrID) bool { return f.IsDead(i) }
	dropGroups(d.defStart, d.defs, regs, gone)
	dropGroups(d.useStart, d.uses, regs, gone)
}

// dropGroups removes from the rows of regs (sorted, each once) the
// references of the instructions gone reports, group by group: in each
// group with a register listed, the rows after it move down and the
// group's gap grows by what they lost.
func dropGroups(start []uint32, refs []Ref, regs []ir.RegID, gone func(ir.InstrID) bool) {
	var local [rowGroup]ir.RegID
	for a := 0; a < len(regs); {
		k := regs[a] >> rowGroupShift
		n := 0
		for ; a < len(regs) && regs[a]>>rowGroupShift == k; a++ {
			local[n] = regs[a] & (rowGroup - 1)
			n++
		}
		lo := int(k) * groupRows
		// the group's rows and, as the last entry, its gap's start
		dropRows(start[lo:lo+groupRows], refs, local[:n], gone)
	}
}

// dropRows removes from the rows of regs (sorted, each once; indices into
// start) the references of the instructions gone reports, moving the rows
// after them down; the last entry of start, the end of the rows, moves
// down by what they lost.
func dropRows(start []uint32, refs []Ref, regs []ir.RegID, gone func(ir.InstrID) bool) {
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
}
