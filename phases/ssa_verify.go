package phases

import (
	"fmt"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// verifyForm checks the register form's invariants in check mode
// (--verify), after every phase: outside SSA no PHI is left; in SSA form
// PHIs stand at block heads with one incoming value per predecessor, and
// every SSA value has at most one definition, which dominates each use (a
// PHI's use sits at the end of the predecessor it comes from).
// Unreachable blocks are not checked: IntoSSA leaves them as written.
func verifyForm(f *ir.Func, st *ssaState) error {
	if st == nil {
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if f.Op[i] == ir.OpPhi {
					return fmt.Errorf("a PHI outside SSA form in block %d", b)
				}
			}
		}
		return nil
	}
	if !f.CFGValid() {
		f.ComputeCFG()
	}
	dom := core.Dominators(f)
	nr := f.NumRegs()
	defAt := make([]ir.InstrID, nr)
	for r := range defAt {
		defAt[r] = ir.NoInstr
	}
	pos := make([]int32, f.NumInstrs())
	var refs []core.RegRef
	for _, b := range f.Layout {
		if !dom.Contains(b) {
			continue
		}
		k := int32(0)
		head := true
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			pos[i] = k
			k++
			if f.Op[i] == ir.OpPhi {
				if !head {
					return fmt.Errorf("a PHI after a non-PHI instruction in block %d", b)
				}
				if err := checkPhiEdges(f, i, b); err != nil {
					return err
				}
			} else {
				head = false
			}
			refs = core.AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if !x.Def || !st.isValue(x.Reg) {
					continue
				}
				if f.Guard[i] != ir.NoOperand {
					return fmt.Errorf("SSA value %s defined under a guard", f.Str(f.RegName[x.Reg]))
				}
				if d := defAt[x.Reg]; d != ir.NoInstr && d != i {
					return fmt.Errorf("SSA value %s (register %d) has two definitions", f.Str(f.RegName[x.Reg]), x.Reg)
				}
				defAt[x.Reg] = i
			}
		}
	}
	// Each use is dominated by its value's definition.
	dominates := func(d ir.InstrID, b ir.BlockID, at int32, phiUse bool) bool {
		db := f.Block[d]
		if db != b {
			return dom.Dominates(db, b)
		}
		return phiUse || pos[d] < at
	}
	for _, b := range f.Layout {
		if !dom.Contains(b) {
			continue
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.Op[i] == ir.OpPhi {
				var err error
				core.PhiIncoming(f, i, func(_ int, v ir.Operand, p ir.BlockID) {
					if err != nil || !v.IsReg() || !st.isValue(v.Reg()) || !dom.Contains(p) {
						return
					}
					if d := defAt[v.Reg()]; d != ir.NoInstr && !dominates(d, p, 1<<30, true) {
						err = fmt.Errorf("PHI operand %s from block %d is not dominated by its definition", f.Str(f.RegName[v.Reg()]), p)
					}
				})
				if err != nil {
					return err
				}
				continue
			}
			refs = core.AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if x.Def || !st.isValue(x.Reg) {
					continue
				}
				if d := defAt[x.Reg]; d != ir.NoInstr && !dominates(d, b, pos[i], false) {
					return fmt.Errorf("use of SSA value %s (register %d) in block %d is not dominated by its definition", f.Str(f.RegName[x.Reg]), x.Reg, b)
				}
			}
		}
	}
	return nil
}

// checkPhiEdges checks that PHI i of block b has exactly one incoming
// pair per predecessor of b.
func checkPhiEdges(f *ir.Func, i ir.InstrID, b ir.BlockID) error {
	preds := f.PredsOf(b)
	ops := f.Ops(i)
	if len(ops) != 1+2*len(preds) {
		return fmt.Errorf("a PHI in block %d has %d incoming values for %d predecessors", b, (len(ops)-1)/2, len(preds))
	}
	for _, p := range preds {
		n, want := 0, 0
		core.PhiIncoming(f, i, func(_ int, _ ir.Operand, q ir.BlockID) {
			if q == p {
				n++
			}
		})
		for _, q := range preds {
			if q == p {
				want++ // two edges from one block (both targets of a branch)
			}
		}
		if n != want {
			return fmt.Errorf("a PHI in block %d has %d incoming values from predecessor %d (want %d)", b, n, p, want)
		}
	}
	return nil
}

// repairPhis brings the PHIs back in line with the CFG after a phase
// that changed edges in SSA form (branch folding drops an edge; removing
// a block that only jumped on hands its edge to its predecessor): pairs
// from blocks that are no longer predecessors go, and when one block
// stopped being a predecessor and one new predecessor has no pair, the
// pair moves to it. It reports an error when a predecessor is left
// without an incoming value it cannot infer. It reports whether it
// changed a PHI.
func repairPhis(f *ir.Func) (bool, error) {
	changed := false
	if !f.CFGValid() {
		f.ComputeCFG()
	}
	var keep []ir.Operand
	for _, b := range f.Layout {
		i := f.BlockFirst[b]
		if i == ir.NoInstr || f.Op[i] != ir.OpPhi {
			continue
		}
		preds := f.PredsOf(b)
		for ; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			if checkPhiEdges(f, i, b) == nil {
				continue
			}
			ops := f.Ops(i)
			keep = append(keep[:0], ops[0])
			var staleVal []ir.Operand
			used := make([]int, len(preds))
			for k := 1; k+1 < len(ops); k += 2 {
				q := ir.BlockID(ops[k+1].Index())
				placed := false
				for j, p := range preds {
					if p == q && used[j] == 0 {
						used[j] = 1
						keep = append(keep, ops[k], ops[k+1])
						placed = true
						break
					}
				}
				if !placed {
					staleVal = append(staleVal, ops[k])
				}
			}
			for j, p := range preds {
				if used[j] != 0 {
					continue
				}
				if len(staleVal) != 1 {
					return changed, fmt.Errorf("block %d: predecessor %d has no PHI value and none can be inferred", b, p)
				}
				keep = append(keep, staleVal[0], ir.Pack(ir.KLabel, uint32(p), 0, false))
			}
			f.SetOps(i, keep)
			changed = true
		}
	}
	return changed, nil
}
