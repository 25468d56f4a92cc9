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
		sortRow(d.defs[d.defStart[r]:d.defStart[r+1]], place)
		sortRow(d.uses[d.useStart[r]:d.useStart[r+1]], place)
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
			d.defs = insertRows(d.defStart, d.defs, w.ins, place)
		} else {
			d.uses = insertRows(d.useStart, d.uses, w.ins, place)
		}
	}
}

// Refresh brings the chains up to date after some instructions had their
// operands rewritten in place or were deleted, with none added or moved:
// edited reports them, regs (sorted, each once) lists every register
// they named when the chains were last current and every one they name
// now, and live lists those of them still linked into blocks. Their
// references leave the rows of regs and the live ones' present
// references go back in at their places (as Relink's added), so the rows
// are those a new computation would give, at the cost of moving the rows
// after the first register of regs (sequential copies) rather than
// gathering and sorting every reference again.
func (d *DefUse) Refresh(f *ir.Func, regs []ir.RegID, edited func(ir.InstrID) bool, live []ir.InstrID, place func(ir.InstrID) uint64, w *RelinkWork) {
	if len(regs) == 0 {
		return
	}
	gone := func(i ir.InstrID) bool { return f.Dead[i] || edited(i) }
	d.defs = dropRows(d.defStart, d.defs, regs, gone)
	d.uses = dropRows(d.useStart, d.uses, regs, gone)
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

// insertRows merges ins (sorted by register, then place) into the rows
// given by start and rows, moving each row down by the number of
// references inserted before it. It works from the last register down,
// so that every copy reads what no earlier step overwrote.
func insertRows(start []uint32, rows []Ref, ins []relinkRef, place func(ir.InstrID) uint64) []Ref {
	k := len(ins)
	if k == 0 {
		return rows
	}
	n := len(rows)
	rows = slices.Grow(rows, k)[:n+k]
	hi := len(start) - 1 // the rows of registers after the group are done up to hi
	for j := k; j > 0; {
		r := int(ins[j-1].reg)
		g := j - 1
		for g > 0 && int(ins[g-1].reg) == r {
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
		// the back into rows[a+g : b+j].
		a, b := int(start[r]), int(lo)
		wr := b + j
		x, y := b-1, j-1
		for wr > a+g {
			wr--
			if y < g || x >= a && place(rows[x].Instr) > ins[y].place {
				rows[wr] = rows[x]
				x--
			} else {
				rows[wr] = ins[y].ref
				y--
			}
		}
		j, hi = g, r
	}
	return rows
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
	d.uses = dropRows(d.useStart, d.uses, w.regs, func(ir.InstrID) bool { return true })
	slices.SortStableFunc(w.ins, func(a, b relinkRef) int {
		if a.reg != b.reg {
			return cmp.Compare(a.reg, b.reg)
		}
		return cmp.Compare(a.place, b.place)
	})
	d.uses = insertRows(d.useStart, d.uses, w.ins, place)
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
