package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Dead code after the first sweep: only what the edits since can have
// made dead. The sweep (deadCode) visits every instruction backwards,
// again while it removes (at most four passes); once a sweep ended with a
// pass that removed nothing, no instruction was dead, and one becomes
// dead only when it is edited itself or a register it defines loses a
// read: when an instruction reading it is edited or removed. Every such
// edit is announced by touch, which logs the instruction and the
// registers it named before the edit (deadLog). The next sweep then
// visits only the candidates — the logged instructions and the
// definitions of the logged registers — and, for each removal, the
// definitions of the registers it read, in the order the full sweep
// would (backwards in layout order, a pass at a time: a definition
// before the removed instruction in the same pass, one after it in the
// next), so it removes the same instructions in the same order. Edits
// not announced (the CFG cleanup's, PHI simplification's) make the next
// sweep a full one. A full sweep whose read counts come from current
// chains (firstPassThenCandidates) makes only its first pass over every
// instruction: after it, what can be dead is what a removal of that pass
// left unread and the pass had already visited, so the passes after it
// visit those candidates alone, the same way.

// deadLogState logs the edits since the last sweep that ended with
// nothing dead (on: only logged edits since; cfg: g.cfgEdits then).
type deadLogState struct {
	editLog
	// the heap's marks: hmark[i] == hgen, i is a candidate of the pass
	// under way
	hgen  uint32
	hmark []uint32
	b     *deadBufs
}

// deadBufs are the sweep's growable lists, kept in the worker's Scratch.
type deadBufs struct {
	instrs []ir.InstrID
	regs   []ir.RegID
	refs   []core.RegRef
	heap   []deadCand
	next   []ir.InstrID
}

// deadCand is a candidate with its place in the layout (block position
// and position in the block).
type deadCand struct {
	place uint64
	i     ir.InstrID
}

// deadLogStart begins logging after a sweep that found nothing more dead.
func (g *genOpt) deadLogStart() {
	l := &g.deadLog
	f := g.f
	if l.begin(g.sc, f.NumInstrs(), g.cfgEdits) {
		l.hmark = nil // taken by the first sweep over candidates
		l.hgen = 0
	}
	l.b = &g.sc.genOpt.dead
	l.b.instrs, l.b.regs = l.b.instrs[:0], l.b.regs[:0]
}

// deadNote logs instruction i, about to be edited.
func (g *genOpt) deadNote(i ir.InstrID) {
	l := &g.deadLog
	if !l.first(i) {
		return
	}
	b := l.b
	b.instrs = append(b.instrs, i)
	b.refs = core.AppendRegRefs(g.f, i, b.refs[:0])
	for _, x := range b.refs {
		if !x.Def {
			b.regs = append(b.regs, x.Reg)
		}
	}
}

// deadCandidates reports whether the sweep may visit only the logged
// candidates: nothing but logged edits since the last sweep, which found
// nothing more dead, with the chains current (g.du) and the positions
// of the last global walk still ordering each block.
func (g *genOpt) deadCandidates() bool {
	l := &g.deadLog
	f := g.f
	return (g.h == nil || !g.h.deadFullSweeps) && l.on && g.cfgEdits == l.cfg && g.walkedLayout && len(g.pos) == f.NumInstrs() &&
		len(l.mark) == f.NumInstrs() && g.du != nil && g.du.NumRegs() == f.NumRegs()
}

// deadKeptUses brings uses, the read counts (returns included) as they
// were when the log began (deadUsesKept), up to date: the logged
// instructions' reads then leave, the live ones' reads now come in. Every
// edit since is logged (deadCandidates), so this counts what counting
// the function would, at the cost of the edits.
func (g *genOpt) deadKeptUses(uses []int32) {
	f := g.f
	b := g.deadLog.b
	g.refs = replayReads(f, uses, b.regs, b.instrs, g.refs)
	if g.h != nil {
		if g.h.duCheck {
			checkUseCounts(f, uses, f.ReturnRegs(nil))
		}
		g.h.deadKeptCounts.Add(1)
	}
}

// sweepCandidates is deadCode's sweep over the candidates (uses: the
// read counts, current). It returns the instructions removed and whether
// the last pass removed nothing.
func (g *genOpt) sweepCandidates(uses []int32) (int64, bool) {
	l := &g.deadLog
	b := l.b
	if g.h != nil {
		g.h.deadCandSweeps.Add(1)
	}
	place := g.deadPlaces()
	// The first pass's candidates (the log is read whole before the
	// sweep's own touches add to it).
	b.next = b.next[:0]
	b.next = append(b.next, b.instrs...)
	for _, r := range b.regs {
		for _, d := range g.du.Defs(r) {
			b.next = append(b.next, d.Instr)
		}
	}
	return g.candidatePasses(uses, place, 4)
}

// deadPlaces sizes the candidate marks and returns the order of the
// backward passes: an instruction's block position and position in its
// block (g.pos).
func (g *genOpt) deadPlaces() func(ir.InstrID) uint64 {
	f := g.f
	l := &g.deadLog
	if len(l.hmark) != f.NumInstrs() {
		l.hmark = take[uint32](g.sc, f.NumInstrs())
		l.hgen = 0
	}
	lp := take[int32](g.sc, f.NumBlocks())
	for k, blk := range f.Layout {
		lp[blk] = int32(k)
	}
	return func(i ir.InstrID) uint64 { return uint64(lp[f.Block[i]])<<32 | uint64(uint32(g.pos[i])) }
}

// candidatePasses runs at most passes backward passes over the
// candidates, the first pass's in b.next, and returns the instructions
// removed and whether the last pass removed nothing.
func (g *genOpt) candidatePasses(uses []int32, place func(ir.InstrID) uint64, passes int) (int64, bool) {
	f := g.f
	l := &g.deadLog
	b := l.b
	live := func(i ir.InstrID) bool { return !f.IsDead(i) && f.Block[i] != ir.NoBlock }
	n := int64(0)
	for range passes {
		l.hgen++
		b.heap = b.heap[:0]
		for _, i := range b.next {
			if live(i) && l.hmark[i] != l.hgen {
				l.hmark[i] = l.hgen
				b.heap = heapPush(b.heap, deadCand{place(i), i}, laterPlace)
			}
		}
		b.next = b.next[:0]
		m := int64(0)
		for len(b.heap) > 0 {
			var c deadCand
			c, b.heap = heapPop(b.heap, laterPlace)
			i := c.i
			if !g.deadInstr(i, uses) {
				continue
			}
			g.touch(i)
			g.refs = core.AppendRegRefs(f, i, g.refs[:0])
			for _, x := range g.refs {
				if x.Def {
					continue
				}
				uses[x.Reg]--
				for _, d := range g.du.Defs(x.Reg) {
					j := d.Instr
					if j == i || !live(j) {
						continue
					}
					if p := place(j); p < c.place {
						// still ahead of the backward pass
						if l.hmark[j] != l.hgen {
							l.hmark[j] = l.hgen
							b.heap = heapPush(b.heap, deadCand{p, j}, laterPlace)
						}
					} else {
						b.next = append(b.next, j)
					}
				}
			}
			f.Remove(i)
			m++
		}
		n += m
		if m == 0 {
			return n, true
		}
	}
	return n, false
}

// deadPass is one pass of the dead-code sweep: the layout backwards,
// removing every instruction deadInstr finds dead and taking its reads
// out of uses. removed, when not nil, sees each removed instruction and
// its references before it leaves the function. It returns how many
// were removed.
func (g *genOpt) deadPass(uses []int32, removed func(i ir.InstrID, refs []core.RegRef)) int64 {
	f := g.f
	m := int64(0)
	for k := len(f.Layout) - 1; k >= 0; k-- {
		b := f.Layout[k]
		for i := f.BlockLast[b]; i != ir.NoInstr; {
			prev := f.Prev[i]
			if g.deadInstr(i, uses) {
				g.touch(i)
				g.refs = core.AppendRegRefs(f, i, g.refs[:0])
				for _, x := range g.refs {
					if !x.Def {
						uses[x.Reg]--
					}
				}
				if removed != nil {
					removed(i, g.refs)
				}
				f.Remove(i)
				m++
			}
			i = prev
		}
	}
	return m
}

// firstPassThenCandidates is deadCode's sweep when the read counts come
// from current chains but no log says what changed (the first sweep of a
// bundle run, or one after unlogged edits): the first pass visits every
// instruction, as the full sweep does; the passes after it visit only
// what a removal of the first pass can have made dead — the definitions,
// after the removed instruction in the layout (the pass had visited
// them), of the registers it read — in the order candidatePasses keeps,
// so they remove what the full sweep's passes would. It returns the
// instructions removed and whether the last pass removed nothing.
func (g *genOpt) firstPassThenCandidates(uses []int32) (int64, bool) {
	f := g.f
	l := &g.deadLog
	l.b = &g.sc.genOpt.dead
	b := l.b
	place := g.deadPlaces()
	live := func(i ir.InstrID) bool { return !f.IsDead(i) && f.Block[i] != ir.NoBlock }
	b.next = b.next[:0]
	m := g.deadPass(uses, func(i ir.InstrID, refs []core.RegRef) {
		pi := place(i)
		for _, x := range refs {
			if x.Def {
				continue
			}
			for _, d := range g.du.Defs(x.Reg) {
				if j := d.Instr; j != i && live(j) && place(j) > pi {
					b.next = append(b.next, j)
				}
			}
		}
	})
	if m == 0 {
		return 0, true
	}
	n, converged := g.candidatePasses(uses, place, 3)
	if g.h != nil {
		g.h.deadFirstPassSweeps.Add(1)
		if n > 0 {
			g.h.deadFirstPassLater.Add(1)
		}
	}
	return m + n, converged
}

// laterPlace orders the dead-code candidate heap: the largest place on
// top.
func laterPlace(a, b deadCand) bool { return a.place > b.place }

// replayReads brings per-register read counts taken before some logged
// edits up to date: the registers the logged instructions read then
// (before, one entry per read) lose a read, and the logged instructions
// still in the function add the reads they make now. It returns refs,
// the reused reference buffer.
func replayReads(f *ir.Func, uses []int32, before []ir.RegID, logged []ir.InstrID, refs []core.RegRef) []core.RegRef {
	for _, r := range before {
		uses[r]--
	}
	for _, i := range logged {
		if f.IsDead(i) || f.Block[i] == ir.NoBlock {
			continue
		}
		refs = core.AppendRegRefs(f, i, refs[:0])
		for _, x := range refs {
			if !x.Def {
				uses[x.Reg]++
			}
		}
	}
	return refs
}
