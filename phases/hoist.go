package phases

import (
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The HoistInvariants family: OriHoistInvariantsLate (loop-invariant code
// motion, here) and the movement engine's four phases (movement.go). The
// legality checks both use are in motion_legal.go. Convergent operations
// never move across control flow.
//
//	before:  L: mul %r3, %r1, %r2; ...; @%p bra L;     // %r1, %r2 loop-invariant
//	after:   mul %r3, %r1, %r2; L: ...; @%p bra L;
//
// OriHoistInvariantsLate (LICM).
//
// Purpose: compute once, in the loop's preheader, what a loop computes
// identically on every iteration.
//
// Preconditions: none beyond a valid CFG. The IR may or may not be in
// SSA form: a register may be written many times, and a guarded write
// keeps the old value in the lanes whose guard is false. In SSA form a
// PHI is one more definition in its block (it never moves: PPseudo), its
// operands are read at the end of their predecessors (PHI-aware
// liveness), and a loop whose header has PHIs and several predecessors
// outside the loop gets no preheader, so nothing leaves it. Loops flagged Irreducible, and loops
// whose header is the function entry (no preheader can be made) are
// skipped, as are loops holding an opaque instruction (it may write
// registers it does not mark).
//
// Preheaders: core.InsertPreheaders gives every natural loop a block P
// that is the only predecessor of the header h outside the loop and has
// h as its only successor. It is called only when some loop holds a
// candidate that passes the local tests below (so a function without
// work keeps its CFG). Every edge into a natural loop's body from outside
// targets h (h dominates the body), so every "visit" of loop L (entering
// it until leaving it) begins with P running to its end, then h.
//
// The rule. Instruction I in block B of loop L, writing registers D and
// reading registers S, moves to the end of P (before P's branch, after
// everything hoisted into P before it) when:
//
//  1. I is pure and cannot fault: PPure and nothing of motionPinned
//     (motion_legal.go: no side effect, volatile or convergent work,
//     call, carry, asynchronous work, opaque, PHI, branch, barrier or
//     memory write); not div or rem (PTX leaves division by zero
//     unspecified; we do not execute it where the program did not). Or
//     I is a load safe to execute early: "ld.param [p]" of one of the
//     kernel's own scalar parameters p, no offset, no wider than p
//     (parameter space is never written, and the access cannot fault);
//     or ld.const, ld.global.nc, ldu or a weak ld.global when L holds
//     nothing that may write or order memory or end the thread (no
//     store, atomic, barrier, fence, call, exit or trap: regionWrites)
//     and B dominates every block L can be left from, so that every
//     visit of L that ends ran I: the load then reads the same bytes on
//     every iteration (other threads' writes are not ordered before a
//     weak load without a barrier or fence, which L does not hold) and
//     executes in the preheader only where it ran anyway (a visit that never ends is the one case it runs where it
//     did not). Loads of generic, shared and local memory stay.
//  2. I is unguarded, and names no vector register; no register of D is
//     a .reg parameter or return register of the function.
//  3. Every r in S has no definition (guarded or not) inside L. An
//     instruction already hoisted no longer counts as inside L, so chains
//     move one after the other, in order.
//  4. Every d in D has exactly one definition inside L: I's.
//  5. Every d in D is not live into h.
//  6. For every exit edge X→E of L (X in L, E not), B dominates X or d is
//     not live into E.
//
// Why the program computes the same (per thread; I is not convergent, so
// lanes do not interact through it). By 3, during one visit of L the
// sources of I hold the values they had at the end of P: nothing in L
// writes them and nothing runs between P's end and h. By 1, I then
// computes one value v (of each d) on every execution in that visit, and
// I' (the moved copy) computes the same v at P's end. Compare the
// original O and the transformed T on one visit. Registers other than D
// are written by the same instructions with the same values as long as
// every read of a d gets the same value, so it suffices to show that. In
// T, d holds v from P's end to the end of the visit. In O, by 4, d holds
// its old value d0 until the first execution of I in the visit and v from
// then on. So the two differ only before the first I of the visit:
//   - a read of d inside L at such a point lies on a path from h
//     (the start of the visit) with no write of d (only I writes d in L),
//     so d would be live into h, against 5;
//   - leaving L along X→E before any I ran: if B dominates X, every path
//     from the entry to X passes B, and the part of the path inside this
//     visit does too (a path reaching h first and then X while avoiding B
//     would give a path from the entry to X avoiding B, since h dominates
//     B and B ≠ h; when B = h it is the visit's first block), and B runs
//     whole before X's branch, so I ran: no such exit. Otherwise, by 6, d
//     is not live into E: every path from E writes d before reading it,
//     so the different value is never read. Leaving L by ret or exit
//     ends the thread's registers: d is not a return register (2).
// Before P's end and between visits nothing changed. A visit that never
// ends is covered by the first case. A zero-trip visit (h leaves at
// once) runs I' needlessly: harmless by 1, its effect covered by 6.
//
// (Rule 6 is implied by 4 and 5: if B does not dominate X, a path from h
// to X inside L avoids B, hence writes no d, so d live into E would make
// it live into h. It is checked anyway, as a cheap second guard.)
//
// After the rounds, the preheaders that received instructions are
// commoned locally (commonMoved, motion_common.go): two loops' equal
// cvta or mov of a special register land side by side there.
//
// Profitability, not correctness: a hoisted value stays live across its
// whole loop, so hoisting from a loop stops when the loop's maximum
// register pressure plus the slots of the values hoisted out of it would
// pass the cap of each register file: the larger of licmLimit and
// the function's maximum pressure before the phase. Whatever is hoisted
// therefore never raises the function's maximum above that cap. The knob
// HoistInvariantsBudget bounds the instructions moved per function.
//
// Liveness and pressure are computed once per round, not per loop. Loops
// are taken in rounds by height: first the loops holding no loop, then
// those whose inner loops were all in earlier rounds, and so on, each
// round in the order of the loop numbering (larger bodies later). Inner
// loops thus go before the loops around them, so a value hoisted into an
// inner loop's preheader (which lies in the enclosing loop) may move again,
// out of the enclosing loop. After a round that moved something, the
// cache drops its liveness and the next round computes it once.
//
// Why a round needs nothing recomputed. Moving I out of L into P changes
// the liveness of D and S only, and only at blocks of L:
//   - D: a path from outside L to a use of d that enters L passes P's end,
//     where d is now written, and before the move passed I first (by 5, d
//     was not live into h, and by 6 an exit taken before I leads where d
//     is dead); paths that do not enter L are as they were. So whether d
//     is live into any block outside L is unchanged — P included, which
//     neither reads d nor did before.
//   - S: every path into L passes P's end, where s is now read; before,
//     it reached I in L with no write of s in between, so s was live at
//     P's end already. Liveness into blocks outside L is unchanged.
// The later questions of the round are all about blocks outside L: the
// remaining candidates of L write neither D nor S (S has no definition in
// L; D has only I's), and another loop of the round is disjoint from L and
// asks about its own header and exit targets, none in L (entering L from
// outside means entering h from its preheader, which no disjoint loop
// holds). The pressure a loop's room is computed from lies in its own
// body, where no other loop of the round moves anything (two loops of one
// round are disjoint, and a moved value lands in the preheader, which is
// in the parent loop, of a later round). So every decision is the one a
// fresh computation before each loop would give.
// Moving non-branch instructions leaves the CFG, the dominator tree and
// the loop nest unchanged.
//
//	before:  $L: add.u32 %r9, %r1, %r2; mul.lo.u32 %r10, %r9, 3; add.u32 %r5, %r5, %r10; @%p bra $L;
//	after:   add.u32 %r9, %r1, %r2; mul.lo.u32 %r10, %r9, 3;
//	         $L: add.u32 %r5, %r5, %r10; @%p bra $L;

// hoistInvariants: OriHoistInvariantsLate (LICM).
func hoistInvariants(p *Pass) bool {
	f := p.F
	if len(f.Layout) < 2 {
		return false // a one-block loop has the entry as its header
	}
	// A canceled run polls before the edits (inserting preheaders) and
	// then between two loops: each loop's hoisting is whole, and the
	// round's end drops the analyses it staled.
	pl := newPoller(p)
	if pl.now() {
		return false
	}
	h := &licm{p: p, f: f, a: p.A, sc: p.Scratch, ssa: p.ssa}
	h.analyze()
	if !h.anyCandidate() || pl.now() {
		return false
	}
	h.budget = p.Knobs.Budget(HoistInvariantsBudget)
	if h.budget <= 0 {
		return false
	}
	// Would anything move at all? The rules and the room do not need the
	// preheaders (they add empty blocks in front of headers, which change
	// no live set, no dominance between existing blocks and no block's
	// pressure), so every loop is tried on the CFG as it is. When nothing
	// would move in any loop, no round moves anything (each sees the
	// function unchanged by the rounds before it), and no preheader is
	// inserted: a preheader with nothing in it would only cost a branch.
	live := p.A.Liveness()
	if pl.now() {
		return false
	}
	h.pressure(live, nil)
	if !h.anyMove(live) || pl.now() {
		return false
	}
	var newReg func(r, like ir.RegID)
	if st := h.ssa; st != nil {
		newReg = func(r, like ir.RegID) { st.setOrig(r, st.origOf(like)) }
	}
	inserted := core.InsertPreheadersWith(f, newReg)
	if inserted > 0 {
		h.analyze() // the cache dropped what it held: the CFG was rebuilt
		live = nil
	}
	hoisted := int64(0)
	height := loopHeights(h.loops)
	top := int32(0)
	for _, ht := range height {
		top = max(top, ht)
	}
	for round := int32(1); round <= top && h.budget > 0 && !pl.now(); round++ {
		moved := int64(0)
		// Loops are numbered outermost first: backwards, larger bodies later.
		for k := len(h.loops.Loops) - 1; k >= 0 && h.budget > 0; k-- {
			if pl.stop() {
				break
			}
			if height[k] != round || !h.eligible(k) {
				continue
			}
			if live == nil {
				live = p.A.Liveness()
				// The rounds from here on read the pressure of the blocks
				// of their loops only, and may not walk again (a round that
				// moves nothing leaves live valid): walk the blocks of
				// every loop of this round or a later one, once each (the
				// outermost such loops hold the others).
				only := h.roundBlocks[:0]
				for j := range h.loops.Loops {
					if height[j] < round {
						continue
					}
					if p := h.loops.Loops[j].Parent; p >= 0 && height[p] >= round {
						continue // inside a loop listed already
					}
					only = append(only, h.loops.Body(j)...)
				}
				h.roundBlocks = only
				h.pressure(live, only)
			}
			moved += h.hoistLoop(k, live)
		}
		if moved > 0 {
			hoisted += moved
			p.A.Invalidate(instrAnalyses) // D and S of the moved instructions changed
			live = nil
		}
	}
	if hoisted > 0 {
		p.Count("instructions hoisted", hoisted)
		if n := commonMoved(p, h.filled, nil, nil); n > 0 {
			p.Count("duplicates commoned", n)
		}
	}
	if inserted > 0 {
		p.Count("preheaders inserted", int64(inserted))
	}
	return hoisted > 0 || inserted > 0
}

// licm is one run's state: analyses of the current CFG and the loop being
// worked on.
type licm struct {
	p           *Pass
	f           *ir.Func
	ssa         *ssaState // set in SSA form: registers the preheaders make get their original register
	a           *Analyses
	sc          *Scratch
	roundBlocks []ir.BlockID
	dom         *core.DomTree
	loops       *core.Loops

	refs  []core.RegRef
	inL   []int32 // block stamp: loop index + 1 when the block is in the loop being scanned
	ndefs []int32 // definitions inside the scanned loop, per register
	regs  []ir.RegID
	exits [][2]ir.BlockID // exit edges of the scanned loop
	body  []ir.BlockID
	// leaves: the blocks of the scanned loop it can be left from (the
	// sources of exit edges, blocks without successors); writes: the
	// scanned loop holds an instruction of regionWrites.
	leaves []ir.BlockID
	writes bool

	budget int64        // HoistInvariantsBudget left
	filled []ir.BlockID // preheaders that received instructions (for commonMoved)
	// Register pressure (32-bit slots per file): the cap, fixed from the
	// function as it came in, and the maximum per block of the current
	// liveness.
	limit    [ir.NumFiles]int
	limitSet bool
	blockMax [][ir.NumFiles]int
}

// licmSoftLimit: with no register budget in force (PressureGuard and
// PressureRetry both off), hoisting may raise a function's maximum
// register pressure up to these many slots per file (R, UR, P, UP), never
// beyond the larger of this and the maximum it came in with. A hoisted
// value stays live across its whole loop; unbounded LICM turned a
// 128-register CUTLASS main loop into 1150 live registers.
var licmSoftLimit = [ir.NumFiles]int{64, 32, 6, 6}

// licmLimit is the pressure hoisting may raise a function to (besides the
// maximum it came in with). Under PressureRetry (the default), which runs
// a function again under the guard when it ends above its input's maximum
// live, LICM holds itself to the register budget (budgetR, PressureBudgetP; 0 by
// default): with the soft limit, 23 corpus functions ended -O3 above
// their input and paid for a second run. Under PressureGuard the guard
// trims LICM's hoists to the cap itself; with neither, the soft limit.
func licmLimit(k *Knobs) [ir.NumFiles]int {
	if k.Bool(PressureGuard) || !k.Bool(PressureRetry) {
		return licmSoftLimit
	}
	r, p := budgetR(k), int(k.Int(PressureBudgetP))
	return [ir.NumFiles]int{r, r, p, p}
}

// loopHeights returns each loop's height: 1 for a loop holding no loop,
// else one more than the highest loop it holds.
func loopHeights(ls *core.Loops) []int32 {
	h := make([]int32, len(ls.Loops))
	// Children have larger indices than their parents: backwards, every
	// loop is final before its parent reads it.
	for k := len(ls.Loops) - 1; k >= 0; k-- {
		h[k] = max(h[k], 1)
		if p := ls.Loops[k].Parent; p >= 0 {
			h[p] = max(h[p], h[k]+1)
		}
	}
	return h
}

// pressure records the maximum pressure per block under live, and on the
// first call the function's cap.
//
// Once the cap is set, only blocks the caller lists are walked (the bodies
// of the loops about to be worked on): the room of a loop looks at its own
// blocks only.
func (h *licm) pressure(live *core.Liveness, only []ir.BlockID) {
	f := h.f
	if cap(h.blockMax) < f.NumBlocks() {
		h.blockMax = take[[ir.NumFiles]int](h.sc, f.NumBlocks())
	}
	h.blockMax = h.blockMax[:f.NumBlocks()]
	record := func(i ir.InstrID, at [ir.NumFiles]int) {
		bm := &h.blockMax[f.Block[i]]
		for k, v := range at {
			bm[k] = max(bm[k], v)
		}
	}
	var m core.Pressure
	if !h.limitSet || only == nil {
		clear(h.blockMax)
		m = core.PressureTrace(live, record)
	} else {
		for _, b := range only {
			h.blockMax[b] = [ir.NumFiles]int{}
		}
		core.PressureTraceBlocks(live, only, record)
	}
	if !h.limitSet {
		h.limitSet = true
		soft := licmLimit(h.p.Knobs)
		for k := range h.limit {
			h.limit[k] = max(m.Max[k], soft[k])
		}
	}
}

func (h *licm) analyze() {
	h.dom = h.a.Dom()
	h.loops = h.a.Loops()
	h.inL = take[int32](h.sc, h.f.NumBlocks())
	if len(h.ndefs) < h.f.NumRegs() {
		h.ndefs = take[int32](h.sc, h.f.NumRegs())
	}
}

// eligible: loop k is reducible, has a preheader (after InsertPreheaders;
// before it, a header other than the entry with an outside predecessor)
// and holds no opaque instruction. It leaves the loop scanned: ndefs and
// exits describe it.
func (h *licm) eligible(k int) bool {
	f := h.f
	lp := &h.loops.Loops[k]
	if lp.Irreducible || lp.Header == f.Entry() {
		return false
	}
	for _, r := range h.regs {
		h.ndefs[r] = 0
	}
	h.regs = h.regs[:0]
	h.exits = h.exits[:0]
	h.leaves = h.leaves[:0]
	h.writes = false
	h.body = append(h.body[:0], h.loops.Body(k)...)
	id := int32(k) + 1
	for _, b := range h.body {
		h.inL[b] = id
	}
	outside := false
	for _, p := range f.PredsOf(lp.Header) {
		if h.dom.Contains(p) && h.inL[p] != id {
			outside = true
		}
	}
	if !outside {
		return false
	}
	for _, b := range h.body {
		succs := f.SuccsOf(b)
		leaves := len(succs) == 0
		for _, s := range succs {
			if h.inL[s] != id {
				h.exits = append(h.exits, [2]ir.BlockID{b, s})
				leaves = true
			}
		}
		if leaves {
			h.leaves = append(h.leaves, b)
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			pr := f.InstrProps(i)
			if pr.Has(ir.POpaque) {
				return false
			}
			if pr&regionWrites != 0 {
				h.writes = true
			}
			h.refs = core.AppendRegRefs(f, i, h.refs[:0])
			for _, x := range h.refs {
				if x.Def {
					if h.ndefs[x.Reg] == 0 {
						h.regs = append(h.regs, x.Reg)
					}
					h.ndefs[x.Reg]++
				}
			}
		}
	}
	// Blocks in reverse post-order, so a chain usually moves in one sweep.
	slices.SortFunc(h.body, func(a, b ir.BlockID) int { return int(h.dom.Num[a]) - int(h.dom.Num[b]) })
	return true
}

// anyCandidate reports whether some eligible loop holds an instruction
// passing the tests that need no liveness (1 to 4 of the file comment).
func (h *licm) anyCandidate() bool {
	f := h.f
	for k := range h.loops.Loops {
		if !h.eligible(k) {
			continue
		}
		for _, b := range h.body {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if h.localOK(i) && h.operandsOK(i) {
					return true
				}
			}
		}
	}
	return false
}

// hoistLoop moves every instruction of the scanned loop k that the rule
// allows to the end of its preheader and returns how many it moved.
// anyMove reports whether some loop has an instruction the rule lets
// move, within the room its pressure leaves.
func (h *licm) anyMove(live *core.Liveness) bool {
	f := h.f
	for k := range h.loops.Loops {
		if !h.eligible(k) {
			continue
		}
		room := h.room()
		for _, b := range h.body {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if h.localOK(i) && h.operandsOK(i) && h.liveOK(i, b, h.loops.Loops[k].Header, live) && h.fits(i, room) {
					return true
				}
			}
		}
	}
	return false
}

// room is what the scanned loop's pressure leaves below the cap, per file.
func (h *licm) room() [ir.NumFiles]int {
	var room [ir.NumFiles]int
	for k := range room {
		room[k] = h.limit[k]
		for _, b := range h.body {
			room[k] = min(room[k], h.limit[k]-h.blockMax[b][k])
		}
	}
	return room
}

// fits reports whether moving instruction i keeps within room.
func (h *licm) fits(i ir.InstrID, room [ir.NumFiles]int) bool {
	var need [ir.NumFiles]int
	h.refs = core.AppendRegRefs(h.f, i, h.refs[:0])
	for _, x := range h.refs {
		if x.Def {
			fl := ir.FileOf(h.f.RegType[x.Reg], false)
			need[fl] += core.RegSlots(h.f, x.Reg)
			if need[fl] > room[fl] {
				return false
			}
		}
	}
	return true
}

func (h *licm) hoistLoop(k int, live *core.Liveness) int64 {
	f := h.f
	lp := &h.loops.Loops[k]
	pre := lp.Preheader
	if pre == ir.NoBlock {
		return 0
	}
	// Pressure inside the loop: each hoisted value adds its slots
	// everywhere in it (and at the preheader's end, which is no more).
	var room [ir.NumFiles]int
	for k := range room {
		room[k] = h.limit[k]
		for _, b := range h.body {
			room[k] = min(room[k], h.limit[k]-h.blockMax[b][k])
		}
	}
	n := int64(0)
	defer func() {
		if n > 0 {
			h.filled = append(h.filled, pre)
		}
	}()
	for again := true; again; {
		again = false
		for _, b := range h.body {
			for i := f.BlockFirst[b]; i != ir.NoInstr && h.budget > 0; {
				next := f.Next[i]
				if h.localOK(i) && h.operandsOK(i) && h.liveOK(i, b, lp.Header, live) {
					var need [ir.NumFiles]int
					fits := true
					h.refs = core.AppendRegRefs(f, i, h.refs[:0])
					for _, x := range h.refs {
						if x.Def {
							fl := ir.FileOf(f.RegType[x.Reg], false)
							need[fl] += core.RegSlots(f, x.Reg)
							fits = fits && need[fl] <= room[fl]
						}
					}
					if !fits || !h.p.Allow() {
						i = next
						continue
					}
					for k := range room {
						room[k] -= need[k]
					}
					for _, x := range h.refs {
						if x.Def {
							h.ndefs[x.Reg] = 0
						}
					}
					h.budget--
					f.Unlink(i)
					if t := f.BlockLast[pre]; t != ir.NoInstr && f.InstrProps(t)&(ir.PBranch|ir.PTerminator) != 0 {
						f.InsertBefore(t, i)
					} else {
						f.Append(pre, i)
					}
					n++
					again = true
				}
				i = next
			}
		}
	}
	return n
}

// movWorthHoisting: a mov of a register, an immediate or a symbol's
// address costs nothing to redo on each iteration, and hoisting it only
// stretches a live range over the loop (in SSA form, a loop's constant
// start values would all move out and take a register each): only a mov
// reading a special register (%ntid, %nctaid, …), which is a real read,
// moves.
func (h *licm) movWorthHoisting(i ir.InstrID) bool {
	for _, o := range h.f.Ops(i)[1:] {
		if o.Kind() != ir.KSpecial {
			return false
		}
	}
	return true
}

// localOK checks rules 1 and 2 for instruction i (the legality checks of
// motion_legal.go; the scanned loop's facts for loads).
func (h *licm) localOK(i ir.InstrID) bool {
	f := h.f
	if pinned(f, i) {
		return false
	}
	if f.Op[i] == ir.OpMov && !h.movWorthHoisting(i) {
		return false
	}
	p := f.InstrProps(i)
	if p.Has(ir.PReadsMem) {
		if !ownParamLoad(f, i) && !h.earlyLoadOK(i) {
			return false
		}
	} else if !p.Has(ir.PPure) || !speculable(f, i) {
		return false
	}
	h.refs = core.AppendRegRefs(f, i, h.refs[:0])
	defs := 0
	for _, x := range h.refs {
		if f.RegVec[x.Reg] != 0 {
			return false
		}
		if x.Def {
			if fixedReg(f, x.Reg) {
				return false
			}
			defs++
		}
	}
	return defs > 0
}

// earlyLoadOK: load i of the scanned loop may execute once in the
// preheader instead of on every iteration. The memory it reads does not
// change during the loop (earlyLoad: constant, read-only or weak global
// memory; the loop holds nothing of regionWrites: no store, atomic,
// barrier, fence, call, exit or trap), and the load does not execute
// where it did not: its block dominates every block the loop can be left
// from (exit edges, and blocks ending the thread), so every visit that
// ends has run it. (Its address registers are invariant by rule 3.)
func (h *licm) earlyLoadOK(i ir.InstrID) bool {
	if h.writes || !earlyLoad(h.f, i) {
		return false
	}
	b := h.f.Block[i]
	for _, x := range h.leaves {
		if !h.dom.Dominates(b, x) {
			return false
		}
	}
	return true
}

// operandsOK checks rules 3 and 4 against the scanned loop (h.refs holds
// i's registers, from localOK).
func (h *licm) operandsOK(i ir.InstrID) bool {
	h.refs = core.AppendRegRefs(h.f, i, h.refs[:0])
	for _, x := range h.refs {
		if x.Def && h.ndefs[x.Reg] != 1 || !x.Def && h.ndefs[x.Reg] != 0 {
			return false
		}
	}
	return true
}

// liveOK checks rules 5 and 6 for instruction i in block b of the scanned
// loop with header hd.
func (h *licm) liveOK(i ir.InstrID, b, hd ir.BlockID, live *core.Liveness) bool {
	h.refs = core.AppendRegRefs(h.f, i, h.refs[:0])
	for _, x := range h.refs {
		if !x.Def {
			continue
		}
		if live.IsLiveIn(hd, x.Reg) {
			return false
		}
		for _, e := range h.exits {
			if !h.dom.Dominates(b, e[0]) && live.IsLiveIn(e[1], x.Reg) {
				return false
			}
		}
	}
	return true
}
