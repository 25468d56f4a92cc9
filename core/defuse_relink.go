package core

import (
	"cmp"
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// RelinkWork is the working memory of Relink, reused across calls.
type RelinkWork struct {
	refs []RegRef
	ins  []relinkRef
	regs []ir.RegID
	// borrows and regaps count, over the calls given this work, the
	// groups widened by moving later groups' rows into their gaps
	// (borrow) and the relayouts of every row (regap): tests ask whether
	// their edits took those paths. Per caller, so that tests running at
	// once do not see each other's counts.
	borrows, regaps int
}

type relinkRef struct {
	reg   ir.RegID
	place uint64
	ref   Ref
}

// Relink brings the chains up to date after instructions were inserted
// into blocks (added, each linked now) and others moved to another place
// (moved), with no other change: the rows of the registers they name
// take the new references in layout order, and the rows of the others
// move down as a whole (sequential copies, as in DropDead), instead of
// the whole function's references being gathered and sorted again. place
// orders the linked instructions as the layout does (increasing along
// it). An instruction must not be in both lists.
func (d *DefUse) Relink(f *ir.Func, added, moved []ir.InstrID, place func(ir.InstrID) uint64, w *RelinkWork) {
	// A moved instruction keeps its references; only their order in its
	// registers' rows changes. The rows are sorted again by an insertion
	// sort, linear in a row that few entries left out of order.
	w.regs = w.regs[:0]
	for _, m := range moved {
		w.refs = AppendRegRefs(f, m, w.refs[:0])
		for _, x := range w.refs {
			w.regs = append(w.regs, x.Reg)
		}
	}
	slices.Sort(w.regs)
	for _, r := range slices.Compact(w.regs) {
		sortRow(d.Defs(r), place)
		sortRow(d.Uses(r), place)
	}
	if len(added) == 0 {
		return
	}
	for pass := range 2 {
		def := pass == 0
		w.ins = w.ins[:0]
		for _, i := range added {
			w.refs = AppendRegRefs(f, i, w.refs[:0])
			for _, x := range w.refs {
				if x.Def == def {
					w.ins = append(w.ins, relinkRef{x.Reg, place(i), Ref{i, x.Loc}})
				}
			}
		}
		// By register, then place; stable, so the references of one
		// instruction keep the order AppendRegRefs gives them (the
		// order a full computation lists them in).
		slices.SortStableFunc(w.ins, func(a, b relinkRef) int {
			if a.reg != b.reg {
				return cmp.Compare(a.reg, b.reg)
			}
			return cmp.Compare(a.place, b.place)
		})
		if def {
			d.defs = w.insertGroups(d.defStart, d.defs, place)
		} else {
			d.uses = w.insertGroups(d.useStart, d.uses, place)
		}
	}
}

// Refresh brings the chains up to date after some instructions had their
// operands rewritten in place or were deleted, with none added or moved:
// edited reports them (every one: the rows drop the references of what
// it reports, and of nothing else), regs (sorted, each once) lists every register
// they named when the chains were last current and every one they name
// now, and live lists those of them still linked into blocks. Their
// references leave the rows of regs and the live ones' present
// references go back in at their places (as Relink's added), so the rows
// are those a new computation would give, at the cost of moving the rows
// of the groups of regs within the groups (see DefUse) rather than
// gathering and sorting every reference again.
func (d *DefUse) Refresh(f *ir.Func, regs []ir.RegID, edited func(ir.InstrID) bool, live []ir.InstrID, place func(ir.InstrID) uint64, w *RelinkWork) {
	if len(regs) == 0 {
		return
	}
	dropGroups(d.defStart, d.defs, regs, edited)
	dropGroups(d.useStart, d.uses, regs, edited)
	d.Relink(f, live, nil, place, w)
}

// sortRow sorts a row by place, stably (the references of one instruction
// keep their order).
func sortRow(row []Ref, place func(ir.InstrID) uint64) {
	for k := 1; k < len(row); k++ {
		x := row[k]
		p := place(x.Instr)
		j := k
		for j > 0 && place(row[j-1].Instr) > p {
			row[j] = row[j-1]
			j--
		}
		row[j] = x
	}
}

// insertGroups merges w.ins (sorted by register, then place) into the rows
// given by start and rows, group by group (insertRows), into the groups'
// gaps; when a group's gap is too small for what goes into it, every
// row is first laid out again with gaps that leave room (regap).
func (w *RelinkWork) insertGroups(start []uint32, rows []Ref, place func(ir.InstrID) uint64) []Ref {
	ins := w.ins
	for a := 0; a < len(ins); {
		k := int(ins[a].reg >> rowGroupShift)
		b := a
		for b < len(ins) && int(ins[b].reg>>rowGroupShift) == k {
			b++
		}
		lo := k * groupRows
		if need := uint32(b - a); start[lo+groupRows]-start[lo+rowGroup] < need {
			if borrow(start, rows, k, need) {
				w.borrows++
			} else {
				rows = regap(start, rows, ins[a:])
				w.regaps++
			}
		}
		insertRows(start[lo:lo+groupRows], rows, ins[a:b], place)
		a = b
	}
	return rows
}

// borrowGroups bounds how many groups' rows borrow moves: beyond, a
// relayout of every row costs little more.
const borrowGroups = 64

// borrow widens the gap of group k to need references by moving the rows
// of the groups after it right, into their own gaps, as far as it takes,
// and reports whether they had room (within borrowGroups groups).
func borrow(start []uint32, rows []Ref, k int, need uint32) bool {
	ng := (len(start) - 1) / groupRows
	gap := func(j int) uint32 {
		lo := j * groupRows
		return start[lo+groupRows] - start[lo+rowGroup]
	}
	// Group j (k < j <= m) moves right by shift[j-k-1]: what group k
	// still lacks after the gaps of the groups between.
	var shift [borrowGroups]uint32
	x := need - gap(k)
	m := k
	for x > 0 {
		if m+1 >= ng || m-k >= borrowGroups {
			return false
		}
		m++
		shift[m-k-1] = x
		x -= min(x, gap(m))
	}
	// From the last group back, so that every copy reads rows no earlier
	// step overwrote.
	for j := m; j > k; j-- {
		s := shift[j-k-1]
		lo := j * groupRows
		a, b := start[lo], start[lo+rowGroup]
		copy(rows[a+s:b+s], rows[a:b])
		for e := lo; e <= lo+rowGroup; e++ {
			start[e] += s
		}
	}
	return true
}

// regap lays the rows given by start and rows out again in a new array,
// every group's gap gapFor of its rows plus the references of ins
// (sorted by register) that go into it.
func regap(start []uint32, rows []Ref, ins []relinkRef) []Ref {
	ng := (len(start) - 1) / groupRows
	total, q := uint32(0), 0
	for k := range ng {
		n := start[k*groupRows+rowGroup] - start[k*groupRows]
		extra := uint32(0)
		for ; q < len(ins) && int(ins[q].reg>>rowGroupShift) == k; q++ {
			extra++
		}
		total += n + gapFor(n) + extra
	}
	out := make([]Ref, total)
	pos, q := uint32(0), 0
	for k := range ng {
		lo := k * groupRows
		a, b := start[lo], start[lo+rowGroup]
		copy(out[pos:], rows[a:b])
		for e := lo; e <= lo+rowGroup; e++ {
			start[e] = start[e] - a + pos
		}
		extra := uint32(0)
		for ; q < len(ins) && int(ins[q].reg>>rowGroupShift) == k; q++ {
			extra++
		}
		pos += b - a + gapFor(b-a) + extra
	}
	start[len(start)-1] = pos
	return out
}

// insertRows merges ins (sorted by register, then place; registers of
// one group) into the group's rows, given by start (the group's entries,
// the last its gap's start) and rows, moving each row down by the number
// of references inserted before it, into the gap, which must have room.
// It works from the last register down, so that every copy reads what no
// earlier step overwrote.
func insertRows(start []uint32, rows []Ref, ins []relinkRef, place func(ir.InstrID) uint64) {
	k := len(ins)
	hi := len(start) - 1 // the rows of registers after the group are done up to hi
	for j := k; j > 0; {
		r := int(ins[j-1].reg & (rowGroup - 1))
		g := j - 1
		for g > 0 && ins[g-1].reg == ins[j-1].reg {
			g--
		}
		// The rows of registers r+1 .. hi-1 move down by j (the
		// references inserted into rows up to r's), as do the starts of
		// r+1 .. hi.
		lo, end := start[r+1], start[hi]
		copy(rows[int(lo)+j:int(end)+j], rows[lo:end])
		for q := r + 1; q <= hi; q++ {
			start[q] += uint32(j)
		}
		// Row r: its old references rows[a:b] and ins[g:j], merged from
		// the back into rows[a+g : b+j]: each inserted reference goes
		// after the old ones at its place or before it, found by a
		// binary search (a long row, a register read all over the
		// function, asks place of a few of its references, not of all).
		a, b := int(start[r]), int(lo)
		wr, x := b+j, b
		for y := j - 1; y >= g; y-- {
			p := ins[y].place
			lo, hi := a, x
			for lo < hi {
				mid := int(uint(lo+hi) >> 1)
				if place(rows[mid].Instr) > p {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			wr -= copy(rows[wr-(x-lo):wr], rows[lo:x])
			x = lo
			wr--
			rows[wr] = ins[y].ref
		}
		copy(rows[a+g:wr], rows[a:x])
		j, hi = g, r
	}
}

// MoveUses brings the use rows up to date after every reader of from[k]
// was made to read to[k] instead (the operand rewritten in place, as when
// a duplicate's readers take the value it duplicates), with no other
// change: the rows of from go empty and their references join the rows
// of to in layout order (place, as for Relink; the rows of to must be in
// that order), an instruction's references in the order AppendRegRefs
// lists them, as a full computation has them. The from registers are
// distinct and none is a to register.
func (d *DefUse) MoveUses(f *ir.Func, from, to []ir.RegID, place func(ir.InstrID) uint64, w *RelinkWork) {
	if len(from) == 0 {
		return
	}
	w.ins = w.ins[:0]
	for k, r := range from {
		for _, u := range d.Uses(r) {
			w.ins = append(w.ins, relinkRef{to[k], place(u.Instr), u})
		}
	}
	// empty the rows of from
	w.regs = append(w.regs[:0], from...)
	slices.Sort(w.regs)
	dropGroups(d.useStart, d.uses, w.regs, func(ir.InstrID) bool { return true })
	slices.SortStableFunc(w.ins, func(a, b relinkRef) int {
		if a.reg != b.reg {
			return cmp.Compare(a.reg, b.reg)
		}
		return cmp.Compare(a.place, b.place)
	})
	d.uses = w.insertGroups(d.useStart, d.uses, place)
	// An instruction now reading a to register through several operands
	// has its references side by side; put them in AppendRegRefs's order.
	w.regs = append(w.regs[:0], to...)
	slices.Sort(w.regs)
	for _, r := range slices.Compact(w.regs) {
		row := d.Uses(r)
		for a := 0; a < len(row); {
			b := a + 1
			for b < len(row) && row[b].Instr == row[a].Instr {
				b++
			}
			if b-a > 1 {
				i := row[a].Instr
				w.refs = AppendRegRefs(f, i, w.refs[:0])
				e := a
				for _, x := range w.refs {
					if x.Reg == r && !x.Def && e < b {
						row[e] = Ref{i, x.Loc}
						e++
					}
				}
			}
			a = b
		}
	}
}
