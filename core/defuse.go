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
// rows: one pass over the instructions that counts and keeps every
// reference in a flat array, a prefix sum, and a fill from that array —
// no per-use objects, and every array reused by the next computation. Only instructions linked into
// blocks are seen; rows list them in layout order. The guard of an
// instruction is a use; a guarded definition is a definition.
//
// The fill is a two-level counting sort so that its write frontier stays
// cache-sized however many registers the function has. Registers are
// grouped in register blocks of 1<<shift consecutive numbers; the rows of
// one register block are one contiguous range of the row array. The
// fill writes every kept reference into the range of its
// register block (a few dozen sequential streams), in layout order, and
// notes its register in a side array; then each register block is
// copied out to a small buffer and scattered into its own rows (a
// frontier of 1<<shift rows). Both passes are stable, so rows stay in
// layout order. Small functions fill directly.
type DefUse struct {
	defStart, useStart []uint32
	defs, uses         []Ref

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
	regOf   []ir.RegID
	fill    []uint32
	scatter []Ref
	refs    []RegRef
	all     []instrRef // every reference, in layout order (the second pass reads these)
}

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

// directFillRefs: below this many references the rows are filled in one
// scatter (the whole row array fits in cache).
const directFillRefs = 16 << 10

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
	// Register blocks of 1<<shift registers: at least 256, and at most
	// about 128 blocks (nr/128 registers each), so that the first-level
	// scatter writes at most a few hundred streams (defs and uses, rows
	// and registers): at a million registers, blocks of sqrt(nr) made
	// about 4000 streams, more pages than the TLB holds; a block's rows
	// (tens of thousands of references) still fit in the L2 cache.
	shift := max(8, bits.Len(uint(nr))-7)
	if int(nd+nu) < directFillRefs || nr <= 1<<shift {
		d.fillDirect(all, w)
		return d
	}
	nblk := (nr + 1<<shift - 1) >> shift
	// fill[k]: next slot of register block k, defs then uses.
	w.fill = grow(w.fill, 2*nblk)
	fill := w.fill
	for k := range nblk {
		fill[k] = d.defStart[k<<shift]
		fill[nblk+k] = d.useStart[k<<shift]
	}
	w.regOf = grow(w.regOf, int(nd+nu))
	regOf := w.regOf
	defReg, useReg := regOf[:nd:nd], regOf[nd:]
	for _, x := range all {
		k := int(x.Reg >> shift)
		if x.Def {
			p := fill[k]
			d.defs[p] = Ref{x.instr, x.Loc}
			defReg[p] = x.Reg
			fill[k]++
		} else {
			p := fill[nblk+k]
			d.uses[p] = Ref{x.instr, x.Loc}
			useReg[p] = x.Reg
			fill[nblk+k]++
		}
	}
	w.scatter = scatterRows(d.defs, defReg, d.defStart, shift, nblk, w.scatter)
	w.scatter = scatterRows(d.uses, useReg, d.useStart, shift, nblk, w.scatter)
	return d
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

// scatterRows sorts each register block of rows (grouped by block, in
// layout order, with reg giving each entry's register) into its rows,
// stably. It returns the scratch buffer for reuse.
func scatterRows(rows []Ref, reg []ir.RegID, start []uint32, shift, nblk int, buf []Ref) []Ref {
	nr := len(start) - 1
	fill := make([]uint32, 1<<shift)
	for k := range nblk {
		lo, hi := k<<shift, min(nr, (k+1)<<shift)
		a, e := start[lo], start[hi]
		if e-a <= 1 {
			continue
		}
		buf = append(buf[:0], rows[a:e]...)
		rg := reg[a:e]
		for r := lo; r < hi; r++ {
			fill[r-lo] = start[r]
		}
		for j, x := range buf {
			r := int(rg[j]) - lo
			rows[fill[r]] = x
			fill[r]++
		}
	}
	return buf
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
