package phases

import (
	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// corePressure takes the block live-out sets from core's liveness (dense
// or sparse solve, register files as core assigns them) and walks each
// block backwards, keeping the live slot count per file up to date from
// the instruction's register references, so a block costs O(its operands
// + its live-out set):
//
//	before(i) = uses(i) ∪ (after(i) − kdefs(i)), kdefs empty when i is guarded
//	at(i)     = max(slots(before(i)), slots(after(i) ∪ defs(i)))
//
// per file: the larger of the two program points around i, counting a
// dead definition, which still takes a register.
func corePressure(f *ir.Func, files []ir.File) Pressure {
	var p Pressure
	if !f.HasBody || f.NumBlocks() == 0 {
		return p
	}
	l := core.ComputeLiveness(f, core.LiveOptions{Files: files})
	nr := f.NumRegs()
	slots := make([]int32, nr)
	for r, t := range f.RegType {
		slots[r] = int32(ir.Slots(t) * max(1, int(f.RegVec[r])))
	}
	n := 0
	end := make([]int, f.NumBlocks()) // index after the block's last instruction
	for _, b := range f.Layout {
		for range f.Instrs(b) {
			n++
		}
		end[b] = n
	}
	p.PerInstr = make([][ir.NumFiles]int32, n)
	live := bitvec.New(nr)
	var outs []ir.RegID
	var refs []core.RegRef
	for _, b := range f.Layout {
		live.Clear()
		var cur [ir.NumFiles]int32
		outs = l.LiveOutRegs(b, outs[:0])
		for _, r := range outs {
			if !live.Test(int(r)) {
				live.Set(int(r))
				cur[l.Files[r]] += slots[r]
			}
		}
		k := end[b]
		for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
			k--
			refs = core.AppendRegRefs(f, i, refs[:0])
			at := cur
			for _, x := range refs {
				if x.Def && !live.Test(int(x.Reg)) {
					at[l.Files[x.Reg]] += slots[x.Reg]
				}
			}
			if !core.Guarded(f, i) {
				for _, x := range refs {
					if x.Def && live.Test(int(x.Reg)) {
						live.ClearBit(int(x.Reg))
						cur[l.Files[x.Reg]] -= slots[x.Reg]
					}
				}
			}
			for _, x := range refs {
				if !x.Def && !live.Test(int(x.Reg)) {
					live.Set(int(x.Reg))
					cur[l.Files[x.Reg]] += slots[x.Reg]
				}
			}
			for fi := range at {
				at[fi] = max(at[fi], cur[fi])
			}
			p.PerInstr[k] = at
		}
	}
	for _, at := range p.PerInstr {
		for fi := range at {
			p.Max[fi] = max(p.Max[fi], int(at[fi]))
		}
	}
	return p
}
