package phases

import (
	"fmt"
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The second kill sweep decides again only where a move can have changed
// the answer.
//
// The second sweep of DoKillMovement moves only into other blocks, and it
// ran sinkOne on every instruction of the function again for the few
// moves the first sweep's exposed (on the 1M-instruction scaling kernel
// that took about 40 ns per instruction, on a 10K one 8: a few cache
// misses per instruction, reading its operands, its result's row of
// readers and their blocks). What sinkOne decides for an instruction i
// depends on things that stay as they are between the sweeps (i's
// operation and operands, the def-use rows, the register flags, the
// dominator tree and loops, the register files, asked once per run) and
// on:
//   - the blocks and places of the readers of i's result r (its target and
//     first reader there), which change only when a reader of r moves;
//   - i's own block, which changes only when i moves;
//   - for an operand x of i in a uniform file (sinkPaysAcross takes the
//     per-lane ones as live through, asking nothing), whether x is live
//     out of the target (liveOut: the first sweep's solve S1; in the
//     second sweep S1 for a register no move touched up to T2 and the
//     liveness at T2 for the others, regTouched: movement_live.go) and the
//     places of x's readers (liveAt), which change only when a reader of
//     x moves.
//
// touch marks the registers of every moved instruction, in both sweeps,
// dirty (regDirty). An instruction that defines no dirty register and
// reads no dirty register of a uniform file decides in the second sweep
// what it decided in the first: it did not move into another block there
// (or moved there, where the second sweep finds it in its target and
// leaves it). So the second sweep walks the blocks in its order (reverse
// RPO, bottom up) but runs sinkOne only on the instructions marked
// (visitIt): the definitions of the dirty registers and the readers of
// the dirty uniform ones, found from their def-use rows, those of the
// registers marked before it starts and, as it goes, those of the
// registers its own moves mark (a move goes into a block the sweep has
// passed, so what it marks that is still to come is visited in order).
//
// T2, the point of the second sweep's first liveness question, decides
// what the answers say. An instruction that is skipped follows the path
// it took in the first sweep, so it asks in the second sweep exactly
// when it asked from sinkPaysAcross in the first (the askers, recorded
// there, marked visitAsk): the walk marks T2 where it passes one, so
// that the moves after it see the answers they would have. The marks
// need the first sweep's solve and register flags (the answers of
// movement_live.go) and no register cap's prefix (p.Allow counts every
// move a candidate asks for, skipped or not: with a limit the sweep
// decides for everything as before). Tests compare the two ways
// (killSecondFull) and check, instruction by instruction, that a skipped
// one decides as in the first sweep (killSkipCheck).

// The test hooks killSecondFull, killSkipCheck and the counters
// killSecondVisited and killSkipped (hooks.go) check and count these
// sweeps.

// The marks of the second sweep's instructions (mover.visit).
const (
	visitIt  = 1 << iota // a register of it is dirty: sinkOne decides again
	visitAsk             // it asked sinkPaysAcross's liveness question in the first sweep
)

// marksOK reports whether the second sweep may visit only the
// instructions it marks.
func (m *mover) marksOK() bool {
	return (m.h == nil || !m.h.killSecondFull) && m.ls.on && m.p.limit < 0
}

// markDirty marks the registers of refs dirty (an instruction naming them
// is about to move), and during the second sweep marks the instructions
// whose decision a newly dirty register can change.
func (m *mover) markDirty(refs []core.RegRef) {
	for _, x := range refs {
		if m.regFlags[x.Reg]&regDirty != 0 {
			continue
		}
		m.regFlags[x.Reg] |= regDirty
		m.dirtyRegs = append(m.dirtyRegs, x.Reg)
		if m.wl {
			m.markReg(x.Reg)
		}
	}
}

// markReg marks for the second sweep the instructions whose decision a
// move of an instruction naming x can change: x's definitions (their
// target and first reader follow x's readers) and, when x is in a uniform
// file, its readers (sinkPaysAcross asks whether such an operand is live
// where the reader would go: the liveness and the places of x's readers).
// A per-lane operand is not asked about (sinkPaysAcross takes it as live
// through), and marks nothing.
func (m *mover) markReg(x ir.RegID) {
	du := m.p.A.DefUse()
	for _, d := range du.Defs(x) {
		m.visit[d.Instr] |= visitIt
	}
	if k := m.files[x]; k == ir.FileUR || k == ir.FileUP {
		for _, u := range du.Uses(x) {
			m.visit[u.Instr] |= visitIt
		}
	}
}

// startMarks marks, as the second sweep starts, the instructions it
// decides again for and the first sweep's askers.
func (m *mover) startMarks() {
	if sc := m.p.Scratch; sc != nil {
		m.visit = take[uint8](sc, len(m.f.Op))
	} else {
		m.visit = make([]uint8, len(m.f.Op))
	}
	m.wl = true
	for _, x := range m.dirtyRegs {
		m.markReg(x)
	}
	for _, a := range m.askers {
		m.visit[a] |= visitAsk
	}
}

// checkSkip (tests, killSkipCheck) keeps the decision sinkOne just made
// for i in the first sweep, and compares it, in a second sweep visiting
// everything, with the first sweep's when the marks would not decide
// again for i: the target, the first reader there and the liveness
// answers of sinkPaysAcross must be the ones the first sweep had. (The
// within-block path's answers, of sinkPays, are not kept: the second
// sweep does not take it.)
func (m *mover) checkSkip(i ir.InstrID) {
	if !m.second {
		if m.firstSig == nil {
			m.firstSig = map[ir.InstrID][]int64{}
		}
		m.firstSig[i] = slices.Clone(m.sig)
		return
	}
	if !m.wl || m.visit[i]&visitIt != 0 {
		return
	}
	if want := m.firstSig[i]; !slices.Equal(m.sig, want) {
		panic(fmt.Sprintf("DoKillMovement: the second sweep skips instruction %d, whose decision changed: %v, in the first sweep %v", i, m.sig, want))
	}
	m.h.killSkipped.Add(1)
}

// sinkMarked is the second sinkSweep, deciding again only for the
// instructions it marks.
func (m *mover) sinkMarked(du *core.DefUse, dom *core.DomTree, loops *core.Loops, order *core.Order, pos *instrOrder) int64 {
	f := m.f
	m.startMarks()
	defer func() { m.wl = false }()
	moved, visited := int64(0), int64(0)
	if m.h != nil {
		defer func() { m.h.killSecondVisited.Add(visited) }()
	}
	for k := len(order.RPO) - 1; k >= 0 && m.budget > 0; k-- {
		if m.pl.stop() {
			break
		}
		b := order.RPO[k]
		for i := f.BlockLast[b]; i != ir.NoInstr; {
			prev := f.Prev[i]
			switch v := m.visit[i]; {
			case v&visitIt != 0:
				visited++
				if m.sinkOne(i, b, du, dom, loops, pos) {
					moved++
				}
			case v&visitAsk != 0:
				// it would ask here, as it did in the first sweep (T2)
				m.startT2()
			}
			i = prev
		}
	}
	return moved
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
