package core

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

// TestRefreshGapsMatchRecompute: Refresh keeps the rows a new computation
// gives while its edits fit the groups' gaps, when a group outgrows its
// gap and takes room from the groups after it (borrow), and when the
// edits pour more references into one group than the gaps around it hold
// (every row laid out again: regap); on a function small enough for the
// direct fill and on one the blocked fill builds. Each round rewrites one
// register source of a number of instructions to read one register (its
// group's rows grow by that many), another register source of a few to
// read a register of the last group (from the second round on), and
// deletes a few instructions (from the second round on). The first
// round's few edits fit the gaps the computation left: the rows move
// within their groups only.
func TestRefreshGapsMatchRecompute(t *testing.T) {
	t.Parallel()
	var borrows, regaps int // over both functions
	for _, f := range []*ir.Func{testgen.StraightLine(3000, 500), testgen.StraightLine(40_000, 6000)} {
		f.ComputeCFG()
		du := ComputeDefUse(f)
		checkDefUse(t, f, du)
		rng := rand.New(rand.NewPCG(3, uint64(f.NumInstrs())))
		var w RelinkWork
		hot := ir.RegID(f.NumRegs() / 3)
		last := ir.RegID(f.NumRegs() - 1)
		for round, n := range []int{3, 40, 3000, 20} {
			var instrs []ir.InstrID
			for _, b := range f.Layout {
				for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
					instrs = append(instrs, i)
				}
			}
			edited := make([]bool, len(f.Op))
			var regs []ir.RegID
			var live []ir.InstrID
			note := func(i ir.InstrID) {
				if !edited[i] {
					edited[i] = true
					for _, x := range AppendRegRefs(f, i, nil) {
						regs = append(regs, x.Reg)
					}
				}
			}
			retarget := func(i ir.InstrID, to ir.RegID) {
				for _, x := range AppendRegRefs(f, i, nil) {
					if !x.Def && x.Reg != to {
						note(i)
						SetOperandAt(f, i, x.Loc, OperandAt(f, i, x.Loc).WithIndex(uint32(to)))
						return
					}
				}
			}
			for range n {
				retarget(instrs[rng.IntN(len(instrs))], hot)
			}
			for range min(round, 1) * 5 {
				retarget(instrs[rng.IntN(len(instrs))], last)
			}
			for range min(round, 1) * 5 {
				i := instrs[rng.IntN(len(instrs))]
				if !f.IsDead(i) && f.Op[i] != ir.OpRet {
					note(i)
					f.Remove(i)
				}
			}
			for i, e := range edited {
				if e && !f.IsDead(ir.InstrID(i)) && f.Block[i] != ir.NoBlock {
					live = append(live, ir.InstrID(i))
					for _, x := range AppendRegRefs(f, ir.InstrID(i), nil) {
						regs = append(regs, x.Reg)
					}
				}
			}
			slices.Sort(regs)
			regs = slices.Compact(regs)
			place := make([]uint64, len(f.Op))
			k := uint64(0)
			for _, b := range f.Layout {
				for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
					place[i] = k
					k++
				}
			}
			rg, bg := w.regaps, w.borrows
			du.Refresh(f, regs, func(i ir.InstrID) bool { return edited[i] }, live,
				func(i ir.InstrID) uint64 { return place[i] }, &w)
			checkDefUse(t, f, du)
			if round == 0 && (w.regaps != rg || w.borrows != bg) {
				t.Errorf("%s: %d rewrites moved rows beyond their groups: no room left in the gaps", f.Name, n)
			}
			if t.Failed() {
				t.Fatalf("%s: round %d (%d rewrites to one register)", f.Name, round, n)
			}
		}
		borrows, regaps = borrows+w.borrows, regaps+w.regaps
	}
	if borrows == 0 || regaps == 0 {
		t.Fatalf("borrows %d, relayouts %d: the edits did not exercise both", borrows, regaps)
	}
}
