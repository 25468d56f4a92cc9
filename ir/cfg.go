package ir

// ComputeCFG rebuilds the successor and predecessor arrays from the
// instructions. A block's successors are the targets of its branches (a
// guarded branch anywhere in the block, brx.idx tables) and, when its last
// instruction does not end control unconditionally, the next block in the
// layout. Edges are listed once each, in a deterministic order.
func (f *Func) ComputeCFG() {
	nb := f.NumBlocks()
	next := make([]BlockID, nb)
	for i := range next {
		next[i] = NoBlock
	}
	for k := 0; k+1 < len(f.Layout); k++ {
		next[f.Layout[k]] = f.Layout[k+1]
	}
	f.SuccStart = f.SuccStart[:0]
	f.Succs = f.Succs[:0]
	seen := make([]uint32, nb) // stamp per block to drop duplicate edges
	for b := range nb {
		f.SuccStart = append(f.SuccStart, uint32(len(f.Succs)))
		stamp := uint32(b) + 1
		add := func(t BlockID) {
			if t != NoBlock && seen[t] != stamp {
				seen[t] = stamp
				f.Succs = append(f.Succs, t)
			}
		}
		ends := false
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			p := f.Op[i].Props()
			if p.Has(PBranch) {
				for _, o := range f.Ops(i) {
					switch o.Kind() {
					case KLabel:
						add(BlockID(o.Index()))
					case KSym:
						s := &f.Mod.Syms[o.Index()]
						if s.Kind == SymBranchTargets {
							for _, e := range f.ListElems(s.List) {
								if e.Kind() == KLabel {
									add(BlockID(e.Index()))
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
			add(next[b])
		}
	}
	f.SuccStart = append(f.SuccStart, uint32(len(f.Succs)))

	// Predecessors: count, prefix-sum, fill (in block order, so stable).
	f.PredStart = append(f.PredStart[:0], make([]uint32, nb+1)...)
	for _, s := range f.Succs {
		f.PredStart[s+1]++
	}
	for b := range nb {
		f.PredStart[b+1] += f.PredStart[b]
	}
	f.Preds = append(f.Preds[:0], make([]BlockID, len(f.Succs))...)
	fill := make([]uint32, nb)
	copy(fill, f.PredStart[:nb])
	for b := range nb {
		for _, s := range f.SuccsOf(BlockID(b)) {
			f.Preds[fill[s]] = BlockID(b)
			fill[s]++
		}
	}
	f.cfgValid = true
}

// Entry returns the entry block (the first in the layout), or NoBlock for
// a function without a body.
func (f *Func) Entry() BlockID {
	if len(f.Layout) == 0 {
		return NoBlock
	}
	return f.Layout[0]
}
