package core

import (
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// PHI operands are read on the edge they come from, not in the PHI's
// block: a PHI "d = phi v0 [p0], v1 [p1]" reads v0 at the end of p0 and
// v1 at the end of p1. Liveness therefore counts v0 live out of p0 (and
// live into p0 unless p0 defines it), never live into the PHI's block,
// and a backward walk over a block steps over a PHI's uses (its
// definition still ends the defined value's life at the block's head).

// PhiIncoming calls fn for each incoming pair of PHI i: the value operand
// (a register or an immediate) and the predecessor block it comes from.
func PhiIncoming(f *ir.Func, i ir.InstrID, fn func(k int, v ir.Operand, pred ir.BlockID)) {
	ops := f.Ops(i)
	for k := 1; k+1 < len(ops); k += 2 {
		fn(k, ops[k], ir.BlockID(ops[k+1].Index()))
	}
}

// phiOuts lists, per block p, the registers the PHIs of p's successors
// read on edges from p (sorted, each once): the CSR start[p]..start[p+1]
// over regs. It reports false, and leaves the lists empty, when f holds
// no PHI (the common case costs one look at each block's head).
func phiOuts(f *ir.Func, start []uint32, regs []ir.RegID) ([]uint32, []ir.RegID, bool) {
	nb := f.NumBlocks()
	any := false
	for b := range nb {
		if i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi {
			any = true
			break
		}
	}
	if !any {
		return start[:0], regs[:0], false
	}
	start = grow(start, nb+1)
	// Count, then fill (counting sort by predecessor).
	for b := range nb {
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			PhiIncoming(f, i, func(_ int, v ir.Operand, p ir.BlockID) {
				if v.IsReg() && int(p) < nb {
					start[p+1]++
				}
			})
		}
	}
	for b := range nb {
		start[b+1] += start[b]
	}
	regs = grow(regs, int(start[nb]))
	fill := make([]uint32, nb) // PHIs are rare next to instructions
	for b := range nb {
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			PhiIncoming(f, i, func(_ int, v ir.Operand, p ir.BlockID) {
				if v.IsReg() && int(p) < nb {
					regs[start[p]+fill[p]] = v.Reg()
					fill[p]++
				}
			})
		}
	}
	// Sort and dedupe each block's list in place, compacting.
	n := uint32(0)
	for b := range nb {
		lo, hi := start[b], start[b+1]
		start[b] = n
		l := regs[lo:hi]
		slices.Sort(l)
		l = slices.Compact(l)
		n += uint32(copy(regs[n:], l))
	}
	start[nb] = n
	return start, regs[:n], true
}
