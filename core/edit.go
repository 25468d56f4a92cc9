package core

import (
	"github.com/ptxopt/ptxopt/ir"
)

// CFG edits: splitting critical edges and inserting loop preheaders.
//
// A new block n on the edge p→s is placed so that no existing
// fall-through changes meaning:
//   - when p reaches s by falling through (s follows p in the layout),
//     n goes between them in the layout and stays empty: p falls into n,
//     n falls into s. Any branch of p to s is retargeted to n too (the
//     CFG lists the edge once).
//   - otherwise p reaches s by branch labels only: every label of p's
//     branches naming s is retargeted to n, and n (placed at the end of
//     the layout) holds "bra s".
// Branch tables (brx.idx .branchtargets) are edited in place; a table
// shared by several brx instructions is retargeted for all of them.
// A new block reached by a branch gets no label symbol: the printer names
// unlabeled branch targets (so no pass adds to the module's symbol table,
// and functions of one module can be optimized in parallel).

// editor batches block insertions and rebuilds the layout once.
type editor struct {
	f     *ir.Func
	after map[ir.BlockID][]ir.BlockID // new blocks to place after an old one (few: a map is fine)
	atEnd []ir.BlockID
}

func newEditor(f *ir.Func) *editor {
	return &editor{f: f, after: map[ir.BlockID][]ir.BlockID{}}
}

// retarget rewrites every branch label of block p that names s to n and
// reports whether one was found.
func (e *editor) retarget(p, s, n ir.BlockID) bool {
	f := e.f
	found := false
	for i := f.BlockFirst[p]; i != ir.NoInstr; i = f.Next[i] {
		if !f.Op[i].Props().Has(ir.PBranch) {
			continue
		}
		ops := f.Ops(i)
		for k, o := range ops {
			switch o.Kind() {
			case ir.KLabel:
				if ir.BlockID(o.Index()) == s {
					ops[k] = o.WithIndex(uint32(n))
					found = true
				}
			case ir.KSym:
				sym := &f.Mod.Syms[o.Index()]
				if sym.Kind == ir.SymBranchTargets {
					el := f.ListElems(sym.List)
					for j, x := range el {
						if x.Kind() == ir.KLabel && ir.BlockID(x.Index()) == s {
							el[j] = x.WithIndex(uint32(n))
							found = true
						}
					}
				}
			}
		}
	}
	return found
}

// layoutNext returns the block after b in the layout, NoBlock at the end.
func layoutNextMap(f *ir.Func) []ir.BlockID {
	next := make([]ir.BlockID, f.NumBlocks())
	for i := range next {
		next[i] = ir.NoBlock
	}
	for k := 0; k+1 < len(f.Layout); k++ {
		next[f.Layout[k]] = f.Layout[k+1]
	}
	return next
}

// splitEdge inserts a block on p→s. next is the layout successor map of
// the original layout.
func (e *editor) splitEdge(p, s ir.BlockID, next []ir.BlockID) ir.BlockID {
	f := e.f
	n := f.AddBlock(ir.NoSym)
	f.Layout = f.Layout[:len(f.Layout)-1] // placed by finish
	relabelPhis(f, s, p, n)
	if next[p] == s && fallsThrough(f, p) {
		e.retarget(p, s, n)
		e.after[p] = append(e.after[p], n)
		return n
	}
	e.retarget(p, s, n)
	e.addBra(n, s)
	e.atEnd = append(e.atEnd, n)
	return n
}

func (e *editor) addBra(n, s ir.BlockID) {
	f := e.f
	i := f.NewInstr(ir.Form{Op: ir.OpBra}, []ir.Operand{ir.Pack(ir.KLabel, uint32(s), 0, false)})
	f.Append(n, i)
}

// relabelPhis makes the PHIs of s name n where they named the
// predecessor p.
func relabelPhis(f *ir.Func, s, p, n ir.BlockID) {
	for i := f.BlockFirst[s]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
		ops := f.Ops(i)
		for k := 2; k < len(ops); k += 2 {
			if ops[k].Kind() == ir.KLabel && ir.BlockID(ops[k].Index()) == p {
				ops[k] = ops[k].WithIndex(uint32(n))
			}
		}
	}
}

// splitPhis moves the incoming values from the outside predecessors of
// the PHIs of h into the new block n (which will be their only
// predecessor): one value when they agree, else a PHI in n.
func splitPhis(f *ir.Func, h, n ir.BlockID, outside []ir.BlockID, newReg func(r, like ir.RegID)) {
	isOut := func(p ir.BlockID) bool {
		for _, q := range outside {
			if q == p {
				return true
			}
		}
		return false
	}
	for i := f.BlockFirst[h]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
		ops := f.Ops(i)
		dst := ops[0].Reg()
		var keep, out []ir.Operand
		keep = append(keep, ops[0])
		same := true
		for k := 1; k+1 < len(ops); k += 2 {
			if isOut(ir.BlockID(ops[k+1].Index())) {
				if len(out) > 0 && ops[k] != out[0] {
					same = false
				}
				out = append(out, ops[k], ops[k+1])
			} else {
				keep = append(keep, ops[k], ops[k+1])
			}
		}
		v := out[0]
		if !same {
			t := f.AddReg(f.RegName[dst], f.RegType[dst])
			f.RegVec[t] = f.RegVec[dst]
			if newReg != nil {
				newReg(t, dst)
			}
			phi := f.NewInstr(ir.Form{Op: ir.OpPhi, Type: f.RegType[dst]}, append([]ir.Operand{ir.RegDef(t)}, out...))
			f.Append(n, phi)
			v = ir.RegOp(t)
		}
		keep = append(keep, v, ir.Pack(ir.KLabel, uint32(n), 0, false))
		f.SetOps(i, keep)
	}
}

// finish rebuilds the layout with the new blocks and recomputes the CFG.
func (e *editor) finish() {
	f := e.f
	if len(e.after) > 0 || len(e.atEnd) > 0 {
		// Blocks ending in "bra" go after the last block that does not
		// fall through, so no fall-through changes. When every block
		// falls through, the last one runs off the end of the function
		// (an exit): it gets an explicit "ret" first.
		host := ir.NoBlock
		for k := len(f.Layout) - 1; k >= 0 && len(e.atEnd) > 0; k-- {
			if !fallsThrough(f, f.Layout[k]) {
				host = f.Layout[k]
				break
			}
		}
		if host == ir.NoBlock && len(e.atEnd) > 0 {
			host = f.Layout[len(f.Layout)-1]
			if len(e.after[host]) > 0 {
				host = e.after[host][len(e.after[host])-1]
			}
			f.Append(host, f.NewInstr(ir.Form{Op: ir.OpRet}, nil))
			host = f.Layout[len(f.Layout)-1]
		}
		lay := make([]ir.BlockID, 0, f.NumBlocks())
		for _, b := range f.Layout {
			lay = append(lay, b)
			lay = append(lay, e.after[b]...)
			if b == host {
				lay = append(lay, e.atEnd...)
			}
		}
		f.Layout = lay
	}
	f.InvalidateCFG()
	f.ComputeCFG()
}

// SplitCriticalEdges inserts a block on every edge from a block with
// several successors to a block with several predecessors (reachable or
// not), and returns how many it inserted. The CFG arrays are rebuilt.
func SplitCriticalEdges(f *ir.Func) int {
	ensureCFG(f)
	e := newEditor(f)
	next := layoutNextMap(f)
	nb := f.NumBlocks()
	type edge struct{ p, s ir.BlockID }
	var crit []edge
	for p := range nb {
		succs := f.SuccsOf(ir.BlockID(p))
		if len(succs) < 2 {
			continue
		}
		for _, s := range succs {
			if len(f.PredsOf(s)) >= 2 {
				crit = append(crit, edge{ir.BlockID(p), s})
			}
		}
	}
	for _, c := range crit {
		e.splitEdge(c.p, c.s, next)
	}
	e.finish()
	return len(crit)
}

// InsertPreheaders gives every natural loop without a preheader a new
// block that becomes the only entry into its header from outside the
// loop, and returns how many it inserted. Outside predecessors that
// branch to the header are retargeted; one that falls through into the
// header gets the preheader placed between them in the layout, otherwise
// the preheader (at the end of the layout) ends in "bra header". Loop
// analyses must be recomputed afterwards.
//
// In SSA form, the header's PHIs get one incoming value from the
// preheader: the outside predecessors' value when they agree, else a new
// PHI in the preheader merging them (its result a new register; newReg,
// when not nil, is told which header PHI result it stands for).
func InsertPreheaders(f *ir.Func) int { return InsertPreheadersWith(f, nil) }

// InsertPreheadersWith is InsertPreheaders with a callback for the
// registers it makes.
func InsertPreheadersWith(f *ir.Func, newReg func(r, like ir.RegID)) int {
	ensureCFG(f)
	dom := Dominators(f)
	ls := FindLoops(f, dom)
	e := newEditor(f)
	next := layoutNextMap(f)
	count := 0
	for k := range ls.Loops {
		lp := &ls.Loops[k]
		if lp.Preheader != ir.NoBlock {
			continue
		}
		h := lp.Header
		var outside []ir.BlockID
		for _, p := range f.PredsOf(h) {
			if !ls.Contains(k, p) {
				outside = append(outside, p)
			}
		}
		hasPhi := f.BlockFirst[h] != ir.NoInstr && f.Op[f.BlockFirst[h]] == ir.OpPhi
		if len(outside) == 0 || h == f.Entry() || (hasPhi && len(outside) > 127) {
			// Nothing enters from outside, or the header is the entry,
			// which the function start enters implicitly: a preheader
			// would have to become the entry. Left alone.
			continue
		}
		n := f.AddBlock(ir.NoSym)
		f.Layout = f.Layout[:len(f.Layout)-1]
		fall := ir.NoBlock
		if hasPhi && len(outside) == 1 {
			relabelPhis(f, h, outside[0], n)
		} else if hasPhi {
			splitPhis(f, h, n, outside, newReg)
		}
		for _, p := range outside {
			if next[p] == h && fallsThrough(f, p) {
				fall = p
			}
			e.retarget(p, h, n)
		}
		if fall != ir.NoBlock {
			e.after[fall] = append(e.after[fall], n)
		} else {
			e.addBra(n, h)
			e.atEnd = append(e.atEnd, n)
		}
		count++
	}
	e.finish()
	return count
}
