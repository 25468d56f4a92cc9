package ir

// ComputeCFG brings the successor and predecessor arrays up to date with
// the instructions, rebuilding them only when they are marked stale
// (CFGValid). A block's successors are the targets of its branches (a
// guarded branch anywhere in the block, brx.idx tables) and, when its last
// instruction does not end control unconditionally, the next block in the
// layout. Edges are listed once each, in a deterministic order.
//
// What marks the arrays stale: AddBlock; linking, unlinking or removing a
// branch or terminator (Append, InsertBefore, InsertAfter, Unlink,
// Remove); SetOps and SetFormSameEdges on one; SetForm on any
// instruction; and InvalidateCFG, which code that
// edits Layout, a guard of a terminator, or a label in place must call.
// Edits of other instructions leave the edges as they are.
func (f *Func) ComputeCFG() {
	if f.cfgValid && len(f.SuccStart) == f.NumBlocks()+1 {
		return
	}
	f.rebuildCFG()
}

func (f *Func) rebuildCFG() {
	f.cfgVersion++
	nb := f.NumBlocks()
	// One scratch allocation: next-in-layout, a stamp per block to drop
	// duplicate edges, and the fill cursors for predecessors.
	if cap(f.cfgScratch) < 3*nb {
		f.cfgScratch = make([]uint32, 3*nb)
	}
	scratch := f.cfgScratch[:3*nb]
	clear(scratch)
	next := scratch[:nb:nb]
	seen := scratch[nb : 2*nb : 2*nb]
	fill := scratch[2*nb:]
	for i := range next {
		next[i] = uint32(NoBlock)
	}
	for k := 0; k+1 < len(f.Layout); k++ {
		next[f.Layout[k]] = uint32(f.Layout[k+1])
	}
	if cap(f.SuccStart) < nb+1 {
		f.SuccStart = make([]uint32, 0, nb+1)
	}
	f.SuccStart = f.SuccStart[:0]
	if f.Succs == nil {
		f.Succs = make([]BlockID, 0, nb+nb/2)
	}
	f.Succs = f.Succs[:0]
	for b := range nb {
		f.SuccStart = append(f.SuccStart, uint32(len(f.Succs)))
		stamp := uint32(b) + 1
		ends := false
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			p := f.Op[i].Props()
			if p.Has(PBranch) {
				for _, o := range f.Ops(i) {
					switch o.Kind() {
					case KLabel:
						f.addSucc(seen, stamp, BlockID(o.Index()))
					case KSym:
						s := &f.Mod.Syms[o.Index()]
						if s.Kind == SymBranchTargets {
							for _, e := range f.ListElems(s.List) {
								if e.Kind() == KLabel {
									f.addSucc(seen, stamp, BlockID(e.Index()))
								}
							}
						}
					}
				}
			}
			if i == f.BlockLast[b] && p.Has(PTerminator) && f.Guard[i] == NoOperand {
				ends = true
			}
		}
		if !ends {
			f.addSucc(seen, stamp, BlockID(next[b]))
		}
	}
	f.SuccStart = append(f.SuccStart, uint32(len(f.Succs)))

	// Predecessors: count, prefix-sum, fill (in block order, so stable).
	if cap(f.PredStart) < nb+1 {
		f.PredStart = make([]uint32, nb+1)
	}
	f.PredStart = f.PredStart[:nb+1]
	clear(f.PredStart)
	for _, s := range f.Succs {
		f.PredStart[s+1]++
	}
	for b := range nb {
		f.PredStart[b+1] += f.PredStart[b]
	}
	if cap(f.Preds) < len(f.Succs) {
		f.Preds = make([]BlockID, len(f.Succs))
	}
	f.Preds = f.Preds[:len(f.Succs)]
	copy(fill, f.PredStart[:nb])
	for b := range nb {
		for _, s := range f.SuccsOf(BlockID(b)) {
			f.Preds[fill[s]] = BlockID(b)
			fill[s]++
		}
	}
	f.cfgValid = true
}

// addSucc appends the edge to t unless t is none or already listed for
// the block being built (stamp).
func (f *Func) addSucc(seen []uint32, stamp uint32, t BlockID) {
	if t != NoBlock && int(t) < len(seen) && seen[t] != stamp {
		seen[t] = stamp
		f.Succs = append(f.Succs, t)
	}
}

// Entry returns the entry block (the first in the layout), or NoBlock for
// a function without a body.
func (f *Func) Entry() BlockID {
	if len(f.Layout) == 0 {
		return NoBlock
	}
	return f.Layout[0]
}
