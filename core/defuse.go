package core

import "github.com/ptxopt/ptxopt/ir"

// Ref is one occurrence of a register: the instruction and where in it
// the operand word is stored (OperandAt/SetOperandAt read and rewrite it;
// OperandIndex gives its position among the operands).
type Ref struct {
	Instr ir.InstrID
	Loc   Loc
}

// DefUse holds, per register, its definitions and its uses in compressed
// rows: two counting passes over the instructions, a prefix sum, one
// fill — four slices in all, no per-use objects. Only instructions linked
// into blocks are seen; rows list them in layout order. The guard of an
// instruction is a use; a guarded definition is a definition.
type DefUse struct {
	defStart, useStart []uint32
	defs, uses         []Ref
}

// Defs returns the definitions of r.
func (d *DefUse) Defs(r ir.RegID) []Ref { return d.defs[d.defStart[r]:d.defStart[r+1]] }

// Uses returns the uses of r.
func (d *DefUse) Uses(r ir.RegID) []Ref { return d.uses[d.useStart[r]:d.useStart[r+1]] }

// ComputeDefUse builds the def-use chains of f.
func ComputeDefUse(f *ir.Func) *DefUse {
	nr := f.NumRegs()
	d := &DefUse{defStart: make([]uint32, nr+1), useStart: make([]uint32, nr+1)}
	var refs []RegRef
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if x.Def {
					d.defStart[x.Reg+1]++
				} else {
					d.useStart[x.Reg+1]++
				}
			}
		}
	}
	for r := range nr {
		d.defStart[r+1] += d.defStart[r]
		d.useStart[r+1] += d.useStart[r]
	}
	d.defs = make([]Ref, d.defStart[nr])
	d.uses = make([]Ref, d.useStart[nr])
	fd := make([]uint32, 2*nr)
	copy(fd, d.defStart[:nr])
	copy(fd[nr:], d.useStart[:nr])
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if x.Def {
					d.defs[fd[x.Reg]] = Ref{i, x.Loc}
					fd[x.Reg]++
				} else {
					d.uses[fd[nr+int(x.Reg)]] = Ref{i, x.Loc}
					fd[nr+int(x.Reg)]++
				}
			}
		}
	}
	return d
}
