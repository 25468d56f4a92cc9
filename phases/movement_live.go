package phases

import (
	"fmt"
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The second kill sweep's liveness, without a second solve.
//
// The second sweep of DoKillMovement asks liveAt, from the liveness as it
// is when the sweep first asks (T2, in sinkPaysAcross: rare, a uniform
// operand with other readers), whether a register is live out of a block.
// A register's liveness depends only on where its own definitions and
// reads are, and a sink moves one instruction: the registers whose
// liveness can differ from that of the first sweep's solve (S1, made when
// the first sweep first asked) are those of the instructions moved since
// (regTouched; the marking stops at T2, where S1 holds the answer for
// every register untouched until then, whatever moves after). So the
// second sweep answers from S1 for the others, and
// for a touched one from a search of its live range alone (the sparse
// method's backward walk from its reads, exact), made on the function as
// it is at T2: on demand while the register is untouched since T2, and
// before the move, for one a move after T2 is about to touch. Solving the
// whole function again took as long as the first solve (about 80 ns per
// instruction on the 1M-instruction kernel, 45 on a 10K one) for the
// handful of questions the second sweep asks (2 on the 10K kernel, 138 on
// the 1M one). When the searches add up to more than a solve would cost,
// the function is solved after all (then, its answer holds for every
// register not touched between T2 and that point; the others keep their
// searches).

// liveSearch is the second sweep's liveness state.
type liveSearch struct {
	on   bool           // the second sweep answers from S1 and searches
	t2   bool           // the second sweep asked (T2 is past)
	full *core.Liveness // the fallback solve, nil until made
	work int            // blocks and references the searches visited
	// ent: per register, 0 none, k > 0 span k-1 of out: the sorted
	// blocks it is live out of at T2
	ent   []int32
	spans [][2]int32
	out   []ir.BlockID
	// the search's marks (block → stamp) and stack
	inMark, outMark, killMark []uint32
	killFirst                 []ir.InstrID
	stamp                     uint32
	stack                     []ir.BlockID
	rets                      []ir.RegID // f's return registers (live at exit)
	refs                      []core.RegRef
	// tests (secondLiveCheck): a solve at T2 each answer is compared
	// with, and counts of the answers by where they came from
	check                        *core.Liveness
	fromS1, fromSearch, fromFull int
}

// The test hooks secondLiveCheck, secondLiveChecked and secondLiveBound
// (hooks.go) check these answers against a solve and bound the searches.

// secondLiveStart readies the second sweep's answers (before it starts):
// searching is possible when the first sweep solved the liveness, filled
// the register flags (regTouched) and asked for the register files (the
// second sweep must not compute the uniformity from a liveness of its
// own: it would be the solve's, which this replaces). Otherwise the
// second sweep solves again, as before.
func (m *mover) secondLiveStart() {
	s := &m.ls
	s.on = m.live != nil && m.regFlags != nil && m.files != nil
	s.t2, s.full, s.work = false, nil, 0
	s.spans, s.out = s.spans[:0], s.out[:0]
	if !s.on {
		m.live = nil
	}
}

// touch records, before i moves, what the liveness answers need: in the
// first sweep (after its solve) and the second before T2, the registers
// of i are marked touched; after T2, each touched register of i not yet
// kept gets its T2 answer kept (a search). Every move, in both sweeps,
// also marks i's registers dirty, for the second sweep's choice of the
// instructions it decides again for (markDirty, movement_second.go).
func (m *mover) touch(i ir.InstrID) {
	if m.regFlags == nil {
		return
	}
	s := &m.ls
	s.refs = core.AppendRegRefs(m.f, i, s.refs[:0])
	m.markDirty(s.refs) // (every move, both sweeps: movement_second.go)
	if m.live == nil {
		return // no solve yet: the one to come sees the move
	}
	if !m.second || !s.t2 {
		for _, x := range s.refs {
			m.regFlags[x.Reg] |= regTouched
		}
		return
	}
	if !s.on || s.full != nil {
		return // the fallback solve is frozen at a point the registers' answers held
	}
	for _, x := range s.refs {
		// (a register untouched until now stays unmarked: S1 answers
		// for it still)
		if s.ent[x.Reg] != 0 || m.regFlags[x.Reg]&regTouched == 0 {
			continue
		}
		if !m.search(x.Reg) {
			return // solved instead (before the move)
		}
	}
}

// liveOut reports whether x is live out of b in the liveness the current
// sweep reads (the first sweep: its solve; the second: at T2).
func (m *mover) liveOut(b ir.BlockID, x ir.RegID) bool {
	s := &m.ls
	if !m.second || !s.on {
		return m.live.IsLiveOut(b, x)
	}
	m.startT2()
	ans, from := m.liveOutT2(b, x)
	if s.check != nil {
		if want := s.check.IsLiveOut(b, x); ans != want {
			panic(fmt.Sprintf("DoKillMovement second sweep: register %d live out of block %d: %v (from %s), the solve at T2 says %v", x, b, ans, from, want))
		}
		switch from {
		case "S1":
			m.h.secondLiveChecked[0].Add(1)
		case "search":
			m.h.secondLiveChecked[1].Add(1)
		default:
			m.h.secondLiveChecked[2].Add(1)
		}
	}
	return ans
}

// startT2 marks T2, the point of the second sweep's first question
// (once; the marked second sweep calls it where a question it skips
// would have been asked: movement_second.go).
func (m *mover) startT2() {
	s := &m.ls
	if !m.second || !s.on || s.t2 {
		return
	}
	s.t2 = true
	if s.ent == nil || len(s.ent) < m.f.NumRegs() {
		s.ent = make([]int32, m.f.NumRegs())
	} else {
		clear(s.ent)
	}
	s.check = nil
	if m.h != nil && m.h.secondLiveCheck {
		s.check = core.ComputeLivenessInto(nil, m.f, core.LiveOptions{Order: m.p.A.Order()})
	}
}

// liveOutT2 answers liveOut in the second sweep, and says from what.
func (m *mover) liveOutT2(b ir.BlockID, x ir.RegID) (bool, string) {
	s := &m.ls
	e := s.ent[x]
	if e == 0 {
		switch {
		case m.regFlags[x]&regTouched == 0:
			return m.live.IsLiveOut(b, x), "S1"
		case s.full != nil, !m.search(x):
			return s.full.IsLiveOut(b, x), "full"
		}
		e = s.ent[x]
	}
	sp := s.spans[e-1]
	_, ok := slices.BinarySearch(s.out[sp[0]:sp[1]], b)
	return ok, "search"
}

// search finds the blocks x is live out of, on the function as it is, and
// keeps them as x's entry; past the work bound it solves the function
// instead (s.full) and reports false.
func (m *mover) search(x ir.RegID) bool {
	s, f := &m.ls, m.f
	bound := len(f.Op) + f.NumBlocks()
	if m.h != nil && m.h.secondLiveBoundSet {
		bound = m.h.secondLiveBound
	}
	if s.work > bound {
		s.full = core.ComputeLivenessInto(nil, f, core.LiveOptions{Order: m.p.A.Order()})
		return false
	}
	nb := f.NumBlocks()
	if len(s.inMark) < nb {
		s.inMark = make([]uint32, nb)
		s.outMark = make([]uint32, nb)
		s.killMark = make([]uint32, nb)
		s.killFirst = make([]ir.InstrID, nb)
		s.stamp = 0
	}
	s.stamp++
	if s.stamp == 0 {
		clear(s.inMark)
		clear(s.outMark)
		clear(s.killMark)
		s.stamp = 1
	}
	st, pos := s.stamp, &m.pos
	du := m.p.A.DefUse()
	start := int32(len(s.out))
	// the first killing (unguarded) definition of x in each block
	for _, d := range du.Defs(x) {
		j := d.Instr
		b := f.Block[j]
		if b == ir.NoBlock || f.Guard[j] != ir.NoOperand {
			continue
		}
		if s.killMark[b] != st || pos.before(j, s.killFirst[b]) {
			s.killMark[b], s.killFirst[b] = st, j
		}
	}
	s.stack = s.stack[:0]
	liveIn := func(b ir.BlockID) {
		if s.inMark[b] != st {
			s.inMark[b] = st
			s.stack = append(s.stack, b)
		}
	}
	liveOutOf := func(b ir.BlockID) {
		if s.outMark[b] != st {
			s.outMark[b] = st
			s.out = append(s.out, b)
			if s.killMark[b] != st {
				liveIn(b)
			}
		}
	}
	uses := du.Uses(x)
	s.work += len(uses)
	for _, u := range uses {
		j := u.Instr
		b := f.Block[j]
		if b == ir.NoBlock {
			continue
		}
		if f.Op[j] == ir.OpPhi {
			// read at the end of the predecessor it comes from
			core.PhiIncoming(f, j, func(_ int, v ir.Operand, p ir.BlockID) {
				if v.IsReg() && v.Reg() == x && int(p) < nb {
					liveOutOf(p)
				}
			})
			continue
		}
		// upward-exposed: no killing definition of x in b before it (an
		// instruction reads before it writes)
		if s.killMark[b] != st || j == s.killFirst[b] || pos.before(j, s.killFirst[b]) {
			liveIn(b)
		}
	}
	if s.rets = f.ReturnRegs(s.rets[:0]); slices.Contains(s.rets, x) {
		for b := range nb {
			if len(f.SuccsOf(ir.BlockID(b))) == 0 {
				liveOutOf(ir.BlockID(b))
			}
		}
	}
	for len(s.stack) > 0 {
		b := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		preds := f.PredsOf(b)
		s.work += 1 + len(preds)
		for _, p := range preds {
			liveOutOf(p)
		}
	}
	slices.Sort(s.out[start:])
	s.spans = append(s.spans, [2]int32{start, int32(len(s.out))})
	s.ent[x] = int32(len(s.spans))
	return true
}
