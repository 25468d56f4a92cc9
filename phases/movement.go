package phases

import (
	"cmp"
	"slices"
	"sort"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The instruction movement engine (seed 003): one parameterized primitive
// behind four thin phases, as ptxas runs one engine under DoKillMovement,
// DoTexMovement and two unnamed siblings. The phases differ only in the
// kind they pass, and the kind decides everything through one table:
//
//	kind  phase                   class    direction  clean-up + second sweep
//	0     DoKillMovement          kill     down       yes
//	1     DoKillMovementUp        kill     up         yes
//	2     DoTexMovement           texture  up         yes
//	3     DoTexMovementRaw        texture  up         no
//
// The kill class is the pure definitions: computations and loads of
// invariant memory (legal motion: motion_legal.go, shared with LICM). The
// texture class is the long-latency fetches tex, tld4, suld and
// ld.global.nc. The clean-up is the seed's use-def rebuild: after a sweep
// that moved something, liveness and pressure are dropped and computed
// once again (the def-use chains stay: moving an instruction changes
// none), and a second sweep moves what the first one exposed; kind 3 runs one sweep on what the analyses said
// before it. (Kind 0's second sweep reads the liveness as it is when it
// first asks, without solving it again: movement_live.go.) (The seed's reading of kinds 1 and 3 is its own "medium
// confidence"; the names DoKillMovementUp and DoTexMovementRaw are ours:
// ptxas prints its siblings under their predecessors' names, and a
// pipeline slot needs a name of its own.)
//
// Gates, as the seed's: the engine runs only above -O2 (the slots'
// MinOpt is 3: ptxas's wrappers let -O2 through and the engine itself
// returns there); the named-phase family HoistInvariants, shared with
// OriHoistInvariantsLate, disables all four at once; and each function
// must be eligible: the seeds' per-function knob 381 is MovementMaxInstrs
// here, a function with more live instructions than it is skipped.
// MovementBudget bounds the moves of one phase run per function.
//
// What each direction does:
//
//   - kill, down (kind 0): in SSA form, a definition moves to the block
//     of its uses: the nearest common dominator of its readers, raised
//     along the dominator tree until it lies in the definition's own
//     innermost loop (nothing moves into a loop, nothing out of one), so
//     on a branch it goes into the only successor path that reads it;
//     there just before its first reader (or at the head, after the
//     PHIs). Within its own block it moves down to just before its first
//     reader, except a load of global or constant memory (issued early,
//     its latency hides behind what follows). It moves only when that
//     lengthens no other value's live range more than it shortens its
//     own, in every register file: at the point it moves to, the
//     operands that were not live there before take no more slots of
//     any file (uniform or per lane, data or predicates) than its result
//     gave back (sinkPays; into another block, per-lane operands with
//     other readers are taken as live through: sinkPaysAcross). Blocks
//     are visited in reverse RPO and instructions bottom-up, so a chain
//     (ld.param, cvta.to.global) follows its last member down where each
//     step pays. The second sweep moves only into other blocks (what the
//     first placed within a block is settled), and decides again only for
//     the instructions a move can have given another answer: those naming
//     a register a moved instruction names (movement_second.go). A sink
//     whose walk up the dominator tree would pass sinkWalk steps is not
//     made. Equal instructions the moves put side by side are commoned
//     (commonMoved, motion_common.go; the def-use chains are kept, brought
//     up to date with its edits).
//   - kill, up (kind 1): in SSA form, a pure computation that is the
//     last reader of operands defined in its block moves up towards
//     their definitions,
//     across at most MovementWindow instructions, stopping at any
//     instruction that shares a register with it, when in every register
//     file the slots of the operands that end at it are at least the
//     slots of its result and more in total: the live set shrinks at
//     every point it crosses.
//   - texture, up (kinds 2 and 3): a fetch whose first reader in its
//     block follows within MovementWindow instructions moves up within
//     the block, away from that reader, until the two are
//     MovementWindow instructions apart, carrying (in SSA form) the
//     address computation only it reads, crossing no instruction it
//     depends on, no write or ordering of memory, no call and no
//     guarded exit, and only points where the per-instruction pressure
//     trace plus the fetch's results less the operands ending in the
//     moved group stays within the function's maximum live of each
//     register file at the sweep's start: the maximum never rises. A dry
//     run of the walk on the def-use chains alone first lists the blocks
//     holding a fetch that could move at all; only those are traced (one
//     block each, updated as its fetches move), and the function's
//     maximum is computed only when a point passes the largest maximum
//     of the blocks traced so far. The second sweep looks only at the
//     blocks where the first moved something. Moves within a block keep
//     the live sets, the uniformity and (rows reordered) the def-use
//     chains: kinds 1 to 3 keep them cached for the phases after them.
//
// A sweep reads analyses from the cache and computes each at most once;
// the moves of a sweep are batched and the cache drops what they staled
// once at its end. Moving non-branch instructions keeps the CFG.
type moveKind uint8

const (
	moveKillDown moveKind = iota // DoKillMovement
	moveKillUp                   // DoKillMovementUp
	moveTexUp                    // DoTexMovement
	moveTexRaw                   // DoTexMovementRaw
)

// The decision table.
func (k moveKind) texture() bool { return k >= moveTexUp }
func (k moveKind) down() bool    { return k == moveKillDown }
func (k moveKind) cleanup() bool { return k <= moveTexUp }

func killMovement(p *Pass) bool   { return movementEngine(p, moveKillDown) }
func killMovementUp(p *Pass) bool { return movementEngine(p, moveKillUp) }
func texMovement(p *Pass) bool    { return movementEngine(p, moveTexUp) }
func texMovementRaw(p *Pass) bool { return movementEngine(p, moveTexRaw) }

// counterOf names what a kind counts.
func (k moveKind) counter() string {
	switch k {
	case moveKillDown:
		return "instructions sunk"
	case moveKillUp:
		return "instructions raised"
	}
	return "fetches spaced"
}

// movementEngine runs movement kind on p's function.
func movementEngine(p *Pass, kind moveKind) bool {
	f := p.F
	if p.Config != nil && p.Config.Opt <= 2 {
		return false // the engine's own gate: above -O2 only
	}
	if int64(f.NumInstrs()-f.NumDead()) > p.Knobs.Budget(MovementMaxInstrs) {
		return false // not eligible: the per-function knob
	}
	if !kind.texture() && !p.SSA() {
		return false // the kill class walks SSA def-use chains
	}
	m := &mover{p: p, f: f, kind: kind, budget: p.Knobs.Budget(MovementBudget),
		window: int(p.Knobs.Int(MovementWindow)), pl: newPoller(p), h: p.hooks()}
	m.skipCheck = m.h != nil && m.h.killSkipCheck
	if sc := p.Scratch; sc != nil {
		// the buffers of the last run on this worker, given back at the
		// end (with what this run grew them to)
		m.moveBufs = sc.move
		m.targets, m.movedInstrs = m.targets[:0], m.movedInstrs[:0]
		m.dirtyRegs, m.askers = m.dirtyRegs[:0], m.askers[:0]
		defer func() {
			m.ls.full, m.ls.check = nil, nil // solves kept by no later run
			sc.move = m.moveBufs
		}()
	}
	defer func() {
		if m.walk != nil {
			m.walkOf.ReturnWalker(m.walk)
		}
	}()
	first := m.sweep()
	second := int64(0)
	if first > 0 && kind.cleanup() && m.budget > 0 && !m.pl.now() {
		// The use-def clean-up. Moving an instruction changes no def-use
		// chain (only the order of its rows, which keepRows and sortRows
		// restore): the chains stay; after the kill class's
		// sinks into other blocks
		// liveness and what is computed from it go. The moves within a
		// block (kinds 1 and 2) cross no definition or use of what they
		// define and no definition of what they read, so every block's
		// live-in and live-out sets, and the uniformity computed from
		// them, stay as they were: only the pressure at the crossed
		// points changed.
		if kind.down() {
			// The second sweep reads the liveness as it is when it first
			// asks, answered without a second solve where it can
			// (secondLiveStart, movement_live.go).
			p.A.Invalidate(ALiveness)
			m.secondLiveStart()
		} else {
			p.A.Invalidate(APressure)
		}
		m.second = true
		second = m.sweep()
	}
	if first+second == 0 {
		return false
	}
	if kind.down() {
		// The chains stay valid (their rows put back in layout order at
		// the end: sortRows) and are declared preserved, so
		// DoKillMovementUp finds them cached; when the commoning removes
		// something, they are brought up to date after it (below).
		p.A.Invalidate(ALiveness)
	} else {
		// Liveness, uniformity and (rows kept in layout order: keepRows)
		// the def-use chains stay valid; the pipeline's table declares
		// them preserved, so the next movement finds them cached.
		p.A.Invalidate(APressure)
	}
	p.Count(kind.counter(), first+second)
	if second > 0 {
		p.Count("moved by the second sweep", second)
	}
	if kind == moveKillDown {
		// The commoning keeps the chains when they are cached (and the
		// places of sortRows fit in 64 bits): it lists its edits, and
		// the chains are brought up to date here (a large function that
		// commons something would otherwise leave the next phase to
		// compute them again).
		var ed *commonEdits
		keep := p.A.Valid()&ADefUse != 0
		if keep && f.NumBlocks() < 1<<20 && len(f.Op) < 1<<23 {
			m.edits.from, m.edits.to, m.edits.regs = m.edits.from[:0], m.edits.to[:0], m.edits.regs[:0]
			ed = &m.edits
		}
		n := commonMoved(p, m.targets, ed, m.regFlags)
		if n > 0 {
			p.Count("duplicates commoned", n)
		}
		if keep && (n == 0 || ed != nil) {
			m.layoutAt = slices.Grow(m.layoutAt[:0], f.NumBlocks())[:f.NumBlocks()]
			for k, b := range f.Layout {
				m.layoutAt[b] = int32(k)
			}
			du := p.A.DefUse()
			if n > 0 {
				regs := m.rowRegs[:0]
				for _, x := range ed.regs {
					regs = append(regs, x.Reg)
				}
				slices.Sort(regs)
				regs = slices.Compact(regs)
				du.DropDead(f, regs)
				m.rowRegs = regs
			}
			m.sortRows(du)
			if n > 0 {
				at, pos := m.layoutAt, m.pos.pos
				du.MoveUses(f, ed.from, ed.to, func(i ir.InstrID) uint64 {
					return uint64(at[f.Block[i]])<<44 | pos[i]
				}, &m.relink)
			}
		}
	}
	return true
}

// mover is one engine run.
type mover struct {
	p      *Pass
	f      *ir.Func
	kind   moveKind
	budget int64 // MovementBudget left
	window int
	pl     *poller
	du     *core.DefUse   // texture kinds in SSA form: which operands end at a fetch
	files  []ir.File      // register files, asked once per run when a candidate needs them (kept across the sweeps)
	live   *core.Liveness // kill, down: the liveness at the sweep's start, asked when a candidate needs it
	// kill, down: per register, regMulti and regUnstable (operandsMovable;
	// computed when a candidate first asks)
	regFlags []uint8
	// kill, down: the second sweep's marks (movement_second.go): wl,
	// whether a move marks what it makes the sweep decide again for;
	// visit, per instruction, its marks
	wl    bool
	visit []uint8
	// tests (killSkipCheck): the decision of the instruction sinkOne is
	// on, and of each instruction in the first sweep
	sig      []int64
	firstSig map[ir.InstrID][]int64
	second   bool // the sweep after the clean-up
	// the instruction order of the last sweep (kept up to date by its
	// moves; kinds 0 and 1)
	pos instrOrder
	// the texture sweep's pressure: the walker and the bound (texLimit)
	walk   *core.PressureWalker
	walkOf *core.Liveness // the liveness that lent walk
	lim    texLimit
	moveBufs

	// h: p's test hooks (hooks.go), nil outside tests; skipCheck: their
	// killSkipCheck, read per instruction
	h         *testHooks
	skipCheck bool
}

// moveBufs are the engine's growable buffers. They are kept in the
// worker's scratch from run to run (their contents are not: a run resets
// what it reads), so that a run on a small function allocates nothing.
type moveBufs struct {
	refs    []core.RegRef
	jrefs   []core.RegRef
	targets []ir.BlockID // blocks the kill movement put something into (for commoning)
	// texture kinds: the moving group (the fetch first, then the address
	// instructions it carries, bottom up), the pressure change at each
	// crossed point (bottom up), and buffers for the relinking
	group   []ir.InstrID
	deltas  [][ir.NumFiles]int32
	seg     [][ir.NumFiles]int32
	order   []ir.InstrID
	members []ir.InstrID
	rowBuf  []core.Ref
	// kill, down: the instructions moved and the registers whose rows
	// sortRows sorts
	movedInstrs []ir.InstrID
	rowRegs     []ir.RegID
	// the trace of the block the texture sweep is on
	trace [][ir.NumFiles]int32
	// the blocks the sweep visits (layout positions) and each block's
	// layout position (-1: outside the layout, or listed); layoutPos
	// keeps the positions of the texture sweep (keepRows)
	blocks    []int32
	layoutAt  []int32
	layoutPos []int32
	cands     []ir.InstrID // texCandidates' batch
	// kill, down: the commoning's edits and the chains' working memory
	edits  commonEdits
	relink core.RelinkWork
	// kill, down: the second sweep's liveness answers (movement_live.go)
	ls liveSearch
	// kill, down: the second sweep's marks (movement_second.go)
	dirtyRegs []ir.RegID
	askers    []ir.InstrID
}

// newOrder numbers the instructions of f in m.pos (the numbers in the
// worker's scratch, valid while the phase runs) and returns it.
func (m *mover) newOrder() *instrOrder {
	f := m.f
	if m.p.Scratch == nil {
		m.pos = *newInstrOrder(f)
		return &m.pos
	}
	// (not cleared: every instruction linked into a block is numbered,
	// and only those are asked about)
	m.pos = instrOrder{f: f, pos: takeRaw[uint64](m.p.Scratch, len(f.Op))}
	for _, b := range f.Layout {
		m.pos.number(b)
	}
	return &m.pos
}

// sweep makes one pass of the kind's movement over the function and
// returns how many instructions moved.
func (m *mover) sweep() int64 {
	switch m.kind {
	case moveKillDown:
		return m.sinkSweep()
	case moveKillUp:
		return m.raiseSweep()
	}
	return m.texSweep()
}

// take reports whether one more move is allowed: within the budget and
// the register guard's prefix.
func (m *mover) take() bool {
	if m.budget <= 0 || !m.p.Allow() {
		return false
	}
	m.budget--
	return true
}

// ---- kind 0: kill class, down ----

func (m *mover) sinkSweep() int64 {
	p, f := m.p, m.f
	du := p.A.DefUse()
	dom := p.A.Dom()
	loops := p.A.Loops()
	order := p.A.Order()
	moved, visited := int64(0), int64(0)
	// The second sweep keeps the first one's numbering, which its moves
	// kept up to date (pos.moved): the sweeps ask only which of two
	// instructions of a block comes first, and numbering the whole
	// function again is one more walk of it, at random over the
	// instructions on a large one.
	pos := &m.pos
	if !m.second || pos.f != f {
		pos = m.newOrder()
	}
	if m.second && m.marksOK() {
		return m.sinkMarked(du, dom, loops, order, pos)
	}
	if m.second && m.skipCheck && m.ls.on && m.p.limit < 0 {
		m.startMarks() // (what the marks would decide again for: checkSkip)
		defer func() { m.wl = false }()
	}
	for k := len(order.RPO) - 1; k >= 0 && m.budget > 0; k-- {
		if m.pl.stop() {
			break
		}
		b := order.RPO[k]
		for i := f.BlockLast[b]; i != ir.NoInstr; {
			prev := f.Prev[i]
			m.sig = m.sig[:0]
			if m.sinkOne(i, b, du, dom, loops, pos) {
				moved++
			}
			if m.skipCheck {
				m.checkSkip(i)
			}
			i = prev
			visited++
		}
	}
	if m.second && m.h != nil {
		m.h.killSecondVisited.Add(visited)
	}
	return moved
}

// sinkable reports whether i may sink: it is of the kill class and
// defines one register, not a fixed one.
func sinkable(f *ir.Func, i ir.InstrID) (ir.RegID, bool) {
	r, ok := sinkableAny(f, i)
	return r, ok && !fixedReg(f, r)
}

// sinkableAny is sinkable without the test of fixedReg (the kill sweeps
// ask it of the register flags: regFixed).
func sinkableAny(f *ir.Func, i ir.InstrID) (ir.RegID, bool) {
	if !pureDef(f, i) && !invariantLoad(f, i) || pinned(f, i) {
		return 0, false
	}
	ops := f.Ops(i)
	if len(ops) == 0 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() {
		return 0, false
	}
	for _, o := range ops[1:] {
		if o.IsDef() {
			return 0, false
		}
	}
	return ops[0].Reg(), true
}

// sinkOne moves i (in block b) down when it may and it pays; it reports
// whether i moved.
func (m *mover) sinkOne(i ir.InstrID, b ir.BlockID, du *core.DefUse, dom *core.DomTree, loops *core.Loops, pos *instrOrder) bool {
	f := m.f
	r, ok := sinkableAny(f, i)
	if !ok {
		return false
	}
	// r's only definition is i: asked of the per-register flags (one
	// byte each, filled by a sequential pass over the chains) rather
	// than of r's row of definitions, a row header and a reference read
	// at random per instruction (on the 1M-instruction kernel that read
	// took about 15 ns per instruction more than on a 10K one). i
	// defines r (sinkable) and is in the layout, so one definition of r
	// is i.
	if m.regFlags == nil {
		m.computeRegFlags(du)
	}
	if m.regFlags[r]&(regOneDef|regFixed) != regOneDef {
		return false // (r fixed: the flags hold fixedReg, filled in order rather than asked at random per candidate)
	}
	// The checks of i's operands (their definitions, their versions)
	// come last, on the instructions that would move: most stay where
	// they are for a reason their uses give, and the operands'
	// definitions are scattered over the function (a cache miss each on
	// a large one).
	uses := du.Uses(r)
	if len(uses) == 0 {
		return false
	}
	// The walks up the dominator tree stop after sinkWalk steps (the
	// instruction then stays): on a long chain of blocks they would make
	// the sweep quadratic.
	steps := 0
	target := ir.NoBlock
	if m.regFlags[r]&regPhiUse != 0 {
		return false // a PHI reads r (asked of the flags, not of each reader's opcode: one read at random less per use)
	}
	for _, u := range uses {
		ub := f.Block[u.Instr]
		if ub == ir.NoBlock {
			return false
		}
		if target == ir.NoBlock {
			target = ub
			continue
		}
		for !dom.Dominates(target, ub) {
			if target == b || steps >= sinkWalk {
				return false
			}
			target = dom.IDom(target)
			steps++
		}
	}
	if !dom.Dominates(b, target) {
		return false
	}
	for target != b && loops.Innermost[target] != loops.Innermost[b] {
		if steps >= sinkWalk {
			return false
		}
		target = dom.IDom(target)
		steps++
	}
	// the first reader in target, if any
	first := ir.NoInstr
	for _, u := range uses {
		if j := u.Instr; f.Block[j] == target && (first == ir.NoInstr || pos.before(j, first)) {
			first = j
		}
	}
	if m.skipCheck {
		m.sig = append(m.sig, int64(target), int64(first))
	}
	if target == b {
		// within the block: just before the first reader, when that is
		// further down than the next instruction; a load of global or
		// constant memory keeps its place (issued early, its latency
		// hides behind what follows). Only the first sweep: what it
		// placed within a block is settled (two chains sunk before one
		// reader would otherwise trade places on every sweep), and the
		// second one moves what a move into another block exposed.
		if m.second || first == ir.NoInstr || first == f.Next[i] || f.Op[i] == ir.OpLdu || f.Op[i] == ir.OpLd && f.Space[i] != ir.SpaceParam ||
			!m.operandsMovable(i, du) || !m.sinkPays(i, r, target, first, du, pos) || !m.take() {
			return false
		}
		m.touch(i)
		f.Unlink(i)
		f.InsertBefore(first, i)
		pos.moved(i)
		m.movedInstrs = append(m.movedInstrs, i)
		return true
	}
	if !m.operandsMovable(i, du) || !m.sinkPaysAcross(i, r, target, first, du, pos) || !m.take() {
		return false
	}
	m.touch(i)
	f.Unlink(i)
	defer pos.moved(i)
	m.movedInstrs = append(m.movedInstrs, i)
	m.targets = append(m.targets, target)
	switch {
	case first != ir.NoInstr:
		f.InsertBefore(first, i)
	default:
		at := ir.NoInstr
		for j := f.BlockFirst[target]; j != ir.NoInstr && f.Op[j] == ir.OpPhi; j = f.Next[j] {
			at = j
		}
		if at != ir.NoInstr {
			f.InsertAfter(at, i)
		} else if f.BlockFirst[target] != ir.NoInstr {
			f.InsertBefore(f.BlockFirst[target], i)
		} else {
			f.Append(target, i)
		}
	}
	return true
}

// keepNewReg puts x at refs[n] unless refs[:n] names its register, and
// returns how many refs are kept (refs[:n] are distinct registers taken
// from refs in order, so refs[n] is free to overwrite).
func keepNewReg(refs []core.RegRef, n int, x core.RegRef) int {
	for _, y := range refs[:n] {
		if y.Reg == x.Reg {
			return n
		}
	}
	refs[n] = x
	return n + 1
}

// sortRows puts the def-use chains back in order after the kill class's
// sweeps, so that they stay valid for the phases after it (the pipeline
// declares them preserved, and DoKillMovementUp finds them cached). A
// move changes no chain's references, only where the moved instruction's
// references belong in the rows of the registers it reads, which hold
// references in layout order (blocks by layout position, instructions by
// place, an instruction's references together in operand order). The
// sweeps themselves read the rows as they were at the phase's start (the
// dominator walk of sinkOne takes the uses in row order and is bounded:
// putting each row in order as the moves happen changed which sinks the
// second sweep made), so the rows are sorted once, at the end: the rows
// of the registers the moved instructions read, by layout position and
// place (stable: an instruction's own references keep their order).
func (m *mover) sortRows(du *core.DefUse) {
	f, pos := m.f, &m.pos
	regs := m.rowRegs[:0]
	for _, i := range m.movedInstrs {
		m.jrefs = core.AppendRegRefs(f, i, m.jrefs[:0])
		for _, x := range m.jrefs {
			if !x.Def {
				regs = append(regs, x.Reg)
			}
		}
	}
	slices.Sort(regs)
	regs = slices.Compact(regs)
	m.rowRegs = regs
	at := m.layoutAt
	cmpRef := func(x, y core.Ref) int {
		bx, by := at[f.Block[x.Instr]], at[f.Block[y.Instr]]
		if bx != by {
			return int(bx) - int(by)
		}
		return cmp.Compare(pos.pos[x.Instr], pos.pos[y.Instr])
	}
	// A row's references of instructions that did not move are in order
	// still (moves keep the others' order): only those of the moved ones
	// are taken out, sorted, and put back each where a binary search
	// places it. Sorting a whole row instead reads the block and place of
	// every reference many times over, at random on a large function,
	// where a register read all over it (a pointer) has a long row.
	// The result is the stable sort's: no two instructions have equal
	// places, and the references of one keep their order.
	var moved []bool
	if m.p.Scratch != nil {
		moved = take[bool](m.p.Scratch, f.NumInstrs())
	} else {
		moved = make([]bool, f.NumInstrs())
	}
	for _, i := range m.movedInstrs {
		moved[i] = true
	}
	for _, r := range regs {
		row := du.Uses(r)
		out := m.rowBuf[:0]
		kept := 0
		for _, x := range row {
			if moved[x.Instr] {
				out = append(out, x)
			} else {
				row[kept] = x
				kept++
			}
		}
		m.rowBuf = out
		slices.SortStableFunc(out, cmpRef)
		hi := len(row) // row[hi:] is in place
		for j := len(out) - 1; j >= 0; j-- {
			x := out[j]
			// the kept references after x move up behind it
			p := sort.Search(kept, func(t int) bool { return cmpRef(row[t], x) > 0 })
			n := kept - p
			copy(row[hi-n:hi], row[p:kept])
			hi -= n + 1
			kept = p
			row[hi] = x
		}
	}
}

// operandsMovable: i's register operands have at most one unguarded
// definition each and none is a version of a register written several
// times (operandsStable, touchesMultiVersion).
//
// The answer per register is computed once per run (regFlags), in
// sequential passes over the registers and the guards: asking each
// candidate's operands' definitions instead reads a row header, a
// distant instruction's guard and two SSA tables at random per operand
// (on the 1M-instruction kernel that grew from 3 to 23 ns per
// instruction between 10K and 1M). Nothing the sweeps do changes the
// chains or the versions, so the flags hold for both sweeps.
func (m *mover) operandsMovable(i ir.InstrID, du *core.DefUse) bool {
	if m.regFlags == nil {
		m.computeRegFlags(du)
	}
	return !flagged(m.f, i, m.regFlags, regMulti, regMulti|regUnstable)
}

// flagged reports whether a register i defines has one of the bits def
// in flags, or one it reads one of the bits use (flags: computeRegFlags).
func flagged(f *ir.Func, i ir.InstrID, flags []uint8, def, use uint8) bool {
	var buf [16]core.RegRef
	for _, x := range core.AppendRegRefs(f, i, buf[:0]) {
		mask := use
		if x.Def {
			mask = def
		}
		if flags[x.Reg]&mask != 0 {
			return true
		}
	}
	return false
}

// The bits of mover.regFlags.
const (
	regMulti    = 1 << iota // a version of a register written several times (touchesMultiVersion)
	regUnstable             // more than one definition, or one guarded (operandsStable)
	regOneDef               // exactly one definition (sinkOne)
	regPhiUse               // a PHI reads it (sinkOne)
	regTouched              // an instruction reading or writing it moved after the first sweep's liveness solve (movement_live.go)
	regDirty                // an instruction reading or writing it moved (either sweep; movement_second.go)
	regFixed                // fixedReg: a vector register or a .reg parameter (sinkOne, raiseOne)
)

// computeRegFlags fills m.regFlags: per register, what operandsStable and
// touchesMultiVersion ask of it, whether it has one definition and
// whether a PHI reads it.
func (m *mover) computeRegFlags(du *core.DefUse) {
	f := m.f
	n := f.NumRegs()
	var fl []uint8
	if m.p.Scratch != nil {
		fl = take[uint8](m.p.Scratch, n)
	} else {
		fl = make([]uint8, n)
	}
	st := m.p.ssa
	for r := range n {
		reg := ir.RegID(r)
		if r < du.NumRegs() {
			switch len(du.Defs(reg)) {
			case 0:
			case 1:
				fl[r] |= regOneDef
			default:
				fl[r] |= regUnstable
			}
		}
		if st != nil && st.multiVersion(reg) {
			fl[r] |= regMulti
		}
		if f.RegVec[r] != 0 {
			fl[r] |= regFixed
		}
	}
	// the .reg parameters (fixedReg's other half), from the signature
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if pr, ok := f.ParamReg(id); ok && int(pr) < n {
				fl[pr] |= regFixed
			}
		}
	}
	// a register's only definition guarded: found from the guarded
	// instructions (few), not from each register's definition
	var refs [16]core.RegRef
	for k, g := range f.Guard {
		if g == ir.NoOperand {
			continue
		}
		i := ir.InstrID(k)
		for _, x := range core.AppendRegRefs(f, i, refs[:0]) {
			if !x.Def {
				continue
			}
			if defs := du.Defs(x.Reg); len(defs) == 1 && defs[0].Instr == i {
				fl[x.Reg] |= regUnstable
			}
		}
	}
	// the registers PHIs read: from the PHIs (few, at the heads of the
	// blocks in SSA form), not from each candidate's readers
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			for _, x := range core.AppendRegRefs(f, i, refs[:0]) {
				if !x.Def {
					fl[x.Reg] |= regPhiUse
				}
			}
		}
	}
	m.regFlags = fl
}

// sinkWalk bounds the dominator-tree steps one sink may take.
const sinkWalk = 256

// sinkPays reports whether sinking i (defining r) within its block to
// just before first (target: the block) raises no register file
// anywhere (sinkPaysAcross holds the sinks into other blocks). Call P the point the move puts i at. r was
// live at P (first reads it, or a block below target does) and is not
// any more; an operand x of i is live at P afterwards, and was before
// only when something at or after P reads it: a reader in target at or
// after first, or x live out of target. So at P each file changes by
// the slots of the operands newly live there less r's slots in r's
// file; at any point crossed above P an operand can only have been live
// already, so the change there is no larger. The move pays when no file
// gains at P: it lengthens no other value's live range more than it
// shortens its own, counted per register file. Counting a reader
// anywhere as keeping x live (the old rule took an operand with another
// reader anywhere as live through) let chains of fma sink past each
// other's constant operands (measured on the corpus: UR 1 -> 2 in three
// OptiX intersection programs); not splitting by file let a uniform
// address (UR) stay live so that the per-lane sum it feeds (R) formed
// later (UR 2 -> 3 and 4 -> 5 in two others). The register classes are
// checked first (no analysis but liveness); the files, when the classes
// leave it open, from the uniformity analysis, asked for once per run.
func (m *mover) sinkPays(i ir.InstrID, r ir.RegID, target ir.BlockID, first ir.InstrID, du *core.DefUse, pos *instrOrder) bool {
	f := m.f
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	n := 0 // the operands newly live at P, first in m.refs
	for _, x := range m.refs {
		if x.Def || x.Reg == r || m.liveAt(x.Reg, i, target, first, du, pos) {
			continue
		}
		n = keepNewReg(m.refs, n, x)
	}
	if n == 0 {
		return true
	}
	ext := m.refs[:n]
	if !sinkGains(f, r, ext, nil) {
		return false
	}
	if m.files == nil {
		m.files = m.p.A.Files()
	}
	return sinkGains(f, r, ext, m.files)
}

// sinkPaysAcross is the rule of a sink into another block (to just
// before first in target): at most one register operand of i has i as
// its only reader, no wider than i's result r; an operand with other
// readers in R or P is taken as live through; and, per register file,
// the operands newly live where i goes (the one ending at i, and those of
// the uniform files not live at that point: sinkPays's test) take no
// more slots than r gives back. Taking a per-lane operand read only on
// another path as live through lets sinks lengthen it; the exact test
// (sinkPays) refused sinks that lower the maximum elsewhere (on the 30K
// generated kernel of TestGvnCsePressureEstimate it left max live R at
// 190 instead of 177), and the register retry holds R and P to the
// input's levels. It does not hold UR and UP: there the exact test
// stands (an add of a uniform address and a per-lane offset sunk into a
// branch would keep the address live in UR).
func (m *mover) sinkPaysAcross(i ir.InstrID, r ir.RegID, target ir.BlockID, first ir.InstrID, du *core.DefUse, pos *instrOrder) bool {
	f := m.f
	w := f.RegType[r].Bits()
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	ending := 0
	for _, x := range m.refs {
		if x.Def {
			continue
		}
		if us := du.Uses(x.Reg); len(us) == 1 && us[0].Instr == i {
			ending++
			if f.RegType[x.Reg].Bits() > w {
				return false
			}
		}
	}
	if ending > 1 {
		return false
	}
	if m.files == nil {
		m.files = m.p.A.Files()
	}
	n := 0 // the operands newly live where i goes, first in m.refs
	for _, x := range m.refs {
		if x.Def || x.Reg == r {
			continue
		}
		if us := du.Uses(x.Reg); len(us) != 1 || us[0].Instr != i {
			if k := m.files[x.Reg]; k != ir.FileUR && k != ir.FileUP {
				continue
			}
			if !m.second && (len(m.askers) == 0 || m.askers[len(m.askers)-1] != i) {
				m.askers = append(m.askers, i) // (the second sweep's marks: movement_second.go)
			}
			live := m.liveAt(x.Reg, i, target, first, du, pos)
			if m.skipCheck {
				m.sig = append(m.sig, int64(x.Reg), int64(b2i(live)))
			}
			if live {
				continue
			}
		}
		n = keepNewReg(m.refs, n, x)
	}
	return sinkGains(f, r, m.refs[:n], m.files)
}

// sinkGains reports whether, per register file (files; nil: by class, R
// and P), the slots of r are at least those of the registers in ext.
func sinkGains(f *ir.Func, r ir.RegID, ext []core.RegRef, files []ir.File) bool {
	var gain [ir.NumFiles]int
	gain[fileIn(f, files, r)] += core.RegSlots(f, r)
	for _, x := range ext {
		gain[fileIn(f, files, x.Reg)] -= core.RegSlots(f, x.Reg)
	}
	for _, g := range gain {
		if g < 0 {
			return false
		}
	}
	return true
}

// liveAt reports whether operand x of i is live at the point a sink puts
// i at (before first in target, or target's head), i aside: read there or
// later in target, or live out of target. The liveness is the sweep's
// start's: the moves of a sweep before this one lengthened only the live
// ranges of their operands (a register it then finds dead may be live:
// the move is not made) and shortened those of their results, which are
// defined above the instructions a sweep visits later (it walks blocks in
// reverse RPO, instructions bottom up). A register with more readers
// than maxEndUses that is not live out is taken as not live (the walk
// would make the sweep quadratic).
func (m *mover) liveAt(x ir.RegID, i ir.InstrID, target ir.BlockID, first ir.InstrID, du *core.DefUse, pos *instrOrder) bool {
	if m.live == nil {
		m.live = m.p.A.Liveness()
	}
	if m.liveOut(target, x) {
		return true
	}
	if first == ir.NoInstr {
		return false
	}
	us := du.Uses(x)
	if len(us) > maxEndUses {
		return false
	}
	for _, u := range us {
		if j := u.Instr; j != i && m.f.Block[j] == target && m.f.Op[j] != ir.OpPhi && !pos.before(j, first) {
			return true
		}
	}
	return false
}

// ---- kind 1: kill class, up ----

func (m *mover) raiseSweep() int64 {
	p, f := m.p, m.f
	var du *core.DefUse
	var pos *instrOrder
	moved := int64(0)
	for _, b := range f.Layout {
		if m.budget <= 0 || m.pl.stop() {
			break
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			if f.Prev[i] == ir.NoInstr || !pureDef(f, i) {
				i = next
				continue
			}
			if du == nil {
				du, pos = p.A.DefUse(), m.newOrder()
			}
			if m.raiseOne(i, b, du, pos) {
				pos.moved(i)
				moved++
			}
			i = next
		}
	}
	return moved
}

// raiseOne moves pure instruction i up when its operands end at it and
// free more than its result takes; it reports whether i moved.
func (m *mover) raiseOne(i ir.InstrID, b ir.BlockID, du *core.DefUse, pos *instrOrder) bool {
	f := m.f
	r, ok := sinkableAny(f, i)
	if !ok {
		return false
	}
	// One definition of r, no register of i a version of one written
	// several times, every operand defined once and unguarded: asked of
	// the per-register flags (as sinkOne and operandsMovable), not of
	// the rows of r and of each operand and of the SSA tables, read at
	// random per candidate (22 ns per instruction of the 1M-instruction
	// kernel).
	if m.regFlags == nil {
		m.computeRegFlags(du)
	}
	if m.regFlags[r]&(regOneDef|regFixed) != regOneDef || flagged(f, i, m.regFlags, regMulti, regMulti|regUnstable) {
		return false
	}
	// By register class first (data, predicates: no uniformity analysis
	// needed), then, for a candidate that passes, by file.
	if !m.raiseGains(i, r, b, du, pos, nil) {
		return false
	}
	if m.files == nil {
		m.files = m.p.A.Files()
	}
	if !m.raiseGains(i, r, b, du, pos, m.files) {
		return false
	}
	// up to the first instruction sharing a register with i (the
	// definitions of its operands, other readers of them), a PHI or an
	// opaque or control instruction, within the window
	at := ir.NoInstr // i goes before at
	for j, n := f.Prev[i], 0; j != ir.NoInstr && n < m.window; j, n = f.Prev[j], n+1 {
		if f.InstrProps(j)&(ir.POpaque|ir.PPseudo|ir.PCall|ir.PBranch|ir.PTerminator) != 0 || m.shares(j) {
			break
		}
		at = j
	}
	if at == ir.NoInstr || !m.take() {
		return false
	}
	f.Unlink(i)
	f.InsertBefore(at, i)
	return true
}

// raiseGains reports whether the operands ending at i free at least the
// slots of its result r in every register file (files; nil: by class,
// R and P) and more in total.
func (m *mover) raiseGains(i ir.InstrID, r ir.RegID, b ir.BlockID, du *core.DefUse, pos *instrOrder, files []ir.File) bool {
	f := m.f
	fileOf := func(x ir.RegID) ir.File {
		if files == nil {
			return ir.FileOf(f.RegType[x], false)
		}
		return files[x]
	}
	var gain [ir.NumFiles]int
	gain[fileOf(r)] -= core.RegSlots(f, r)
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	total := -core.RegSlots(f, r)
	for k, x := range m.refs {
		if x.Def || fixedReg(f, x.Reg) {
			continue
		}
		seen := false
		for _, y := range m.refs[:k] {
			seen = seen || y.Reg == x.Reg
		}
		if seen {
			continue
		}
		if endsAt(f, x.Reg, i, b, du, pos) {
			gain[fileOf(x.Reg)] += core.RegSlots(f, x.Reg)
			total += core.RegSlots(f, x.Reg)
		}
	}
	if total <= 0 {
		return false
	}
	for _, g := range gain {
		if g < 0 {
			return false
		}
	}
	return true
}

// maxEndUses: a register with more readers than this is taken to live on
// past any one of them (the checks that walk its readers would make a
// sweep quadratic in a kernel where one pointer is read everywhere).
const maxEndUses = 64

// endsAt reports whether i, in block b, is the last reader of r in SSA
// form: r has one definition, in b, and every reader of r is in b at or
// before i and no PHI (whose read is at the end of a predecessor). r is
// then dead right after i, and live from its definition to i.
func endsAt(f *ir.Func, r ir.RegID, i ir.InstrID, b ir.BlockID, du *core.DefUse, pos *instrOrder) bool {
	defs := du.Defs(r)
	if len(defs) != 1 || f.Block[defs[0].Instr] != b || len(du.Uses(r)) > maxEndUses {
		return false
	}
	for _, u := range du.Uses(r) {
		j := u.Instr
		if j != i && (f.Block[j] != b || f.Op[j] == ir.OpPhi || !pos.before(j, i)) {
			return false
		}
	}
	return true
}

// shares reports whether j names a register of m.refs.
func (m *mover) shares(j ir.InstrID) bool {
	m.jrefs = core.AppendRegRefs(m.f, j, m.jrefs[:0])
	for _, y := range m.jrefs {
		for _, x := range m.refs {
			if x.Reg == y.Reg {
				return true
			}
		}
	}
	return false
}

// ---- kinds 2 and 3: texture class, up ----

func (m *mover) texSweep() int64 {
	p, f := m.p, m.f
	// Could any fetch move, pressure aside? The pressure costs liveness
	// and the uniformity analysis: a dry run of the walk (def-use chains
	// only) first, and nothing more without a candidate. The dry run
	// lists the blocks holding a fetch that could move. It scans the
	// opcodes by instruction number (one small array, read in order:
	// texCandidates) rather than following the blocks' links, and looks
	// further only at a fetch linked below another instruction of a
	// block of the layout. Only those blocks can change in the sweep: a
	// move changes nothing outside its block, and a fetch that cannot
	// cross its neighbour on the chains cannot with the pressure either.
	m.du = nil
	m.blocks = m.blocks[:0]
	if m.second {
		// After the first sweep only the blocks where it moved something
		// can hold a fetch that moves: elsewhere the trace is as it was,
		// and the bound, the function's maximum after those moves, no
		// higher (a move keeps every point it changes within it). The
		// layout is as the first sweep numbered it (its moves stay within
		// their blocks), so only the moved blocks, which it listed (at −1
		// since), get their positions back: not a walk of every block.
		at := m.layoutAt[:f.NumBlocks()]
		for _, b := range m.lim.moved {
			at[b] = m.layoutPos[b]
		}
		for _, b := range m.lim.moved {
			if at[b] >= 0 && m.dryBlock(b) {
				m.blocks = append(m.blocks, at[b])
				at[b] = -1
			}
		}
	} else {
		if len(m.layoutAt) < f.NumBlocks() {
			m.layoutAt = make([]int32, f.NumBlocks())
		}
		at := m.layoutAt[:f.NumBlocks()]
		for k := range at {
			at[k] = -1
		}
		m.layoutPos = slices.Grow(m.layoutPos[:0], f.NumBlocks())[:f.NumBlocks()]
		for k, b := range f.Layout {
			at[b] = int32(k)
			m.layoutPos[b] = int32(k)
		}
		for from := 0; from < len(f.Op); {
			var cands []ir.InstrID
			cands, from = texCandidates(f, from, m.cands[:0])
			m.cands = cands
			for _, j := range cands {
				if f.Prev[j] == ir.NoInstr || at[f.Block[j]] < 0 || !texClass(f, j) {
					continue
				}
				if m.du == nil && p.SSA() {
					m.du = p.A.DefUse()
				}
				// (the chains first: most fetches here are read in other
				// blocks only, which readElsewhere sees without readSoon's
				// walk of the window)
				if m.du != nil && m.readElsewhere(j) || m.readSoon(j) == 0 {
					continue
				}
				b := f.Block[j]
				if m.spaceOne(j, 0, nil, nil) {
					m.blocks = append(m.blocks, at[b])
					at[b] = -1 // listed once
				}
			}
		}
	}
	if m.h != nil && m.h.texFullSweep {
		// every block of the layout
		m.blocks = m.blocks[:0]
		for k := range f.Layout {
			m.blocks = append(m.blocks, int32(k))
		}
	}
	if len(m.blocks) == 0 {
		return 0
	}
	slices.Sort(m.blocks)
	// The register files (the uniformity analysis) are asked for once per
	// phase run: whether a value is uniform depends on its operands and
	// its block, which moves within a block leave as they were.
	if m.files == nil {
		m.files = p.A.Files()
	}
	files := m.files
	if p.SSA() {
		m.du = p.A.DefUse()
	}
	// The pressure is traced block by block, for the blocks where a fetch
	// could move (the dry run's test, per fetch), each before anything in
	// it moves; the function's maximum, the bound no crossed point may
	// pass, is taken as it stood at the sweep's start (m.over).
	if m.walk == nil {
		// The liveness's own walker, borrowed until the phase ends
		// (movementEngine gives it back) and kept for the second sweep
		// (moves within a block leave the liveness it reads as it was):
		// the pipeline's pressure walks of the function before this phase
		// sized its per-register array, which is not allocated or
		// cleared again, so a sweep of a few blocks of a huge function
		// pays for those blocks (a walker of its own cost a clear of
		// 4 bytes a register per run where the worker's arena is not
		// kept: the 1M kernel, 0.2-0.3 ms of a 2 ms phase).
		m.walkOf = p.A.Liveness()
		m.walk = m.walkOf.BorrowWalker(files)
	}
	m.lim = texLimit{}
	if m.h != nil && m.h.texFullSweep {
		m.fullLimit()
	}
	moved := int64(0)
	for _, k := range m.blocks {
		if m.budget <= 0 || m.pl.stop() {
			break
		}
		b := f.Layout[k]
		m.traceBlock(b)
		pos := 0 // index of i in the block's trace
		for i := f.BlockFirst[b]; i != ir.NoInstr; pos++ {
			next := f.Next[i]
			if texClass(f, i) && f.Prev[i] != ir.NoInstr {
				if m.spaceOne(i, pos, m.trace, files) {
					moved++
					m.lim.moved = append(m.lim.moved, b)
				}
			}
			i = next
		}
	}
	return moved
}

// texOps marks the opcodes texOp accepts (one byte an opcode, so that
// the scan of texCandidates reads a table rather than branching per
// opcode; only its first page is ever written or read).
var texOps = func() (t [1 << 16]bool) {
	for op := range ir.NumOpcodes() {
		t[op] = texOp(ir.Opcode(op))
	}
	return
}()

// texBatch is how many instructions texCandidates gathers at most.
const texBatch = 64

// texCandidates appends to buf the instructions from slot from on (in
// slot order, at most texBatch) whose opcode, modifiers and state space
// may make them fetches (texClass's first test: tex, tld4, suld,
// ld.global.nc), and returns them and the slot to go on from (len(f.Op)
// at the end). The opcodes are read four at a time, with one branch for
// the four; then the modifiers of the loads gathered, together (on a
// large function each is a cache miss, and reading them in one loop
// lets them overlap), and the state space only of the .nc ones.
func texCandidates(f *ir.Func, from int, buf []ir.InstrID) ([]ir.InstrID, int) {
	ops, t := f.Op, &texOps
	i := from
	for ; i+4 <= len(ops) && len(buf) <= texBatch-4; i += 4 {
		o := ops[i : i+4 : i+4]
		if !(t[o[0]] || t[o[1]] || t[o[2]] || t[o[3]]) {
			continue
		}
		for k, op := range o {
			if t[op] {
				buf = append(buf, ir.InstrID(i+k))
			}
		}
	}
	if len(buf) <= texBatch-4 {
		for ; i < len(ops); i++ {
			if t[ops[i]] {
				buf = append(buf, ir.InstrID(i))
			}
		}
	}
	n := 0
	for _, j := range buf {
		if ops[j] != ir.OpLd || f.Mods[j].Has(ir.ModNC) {
			buf[n] = j
			n++
		}
	}
	buf = buf[:n]
	n = 0
	for _, j := range buf {
		if ops[j] != ir.OpLd || f.Space[j] == ir.SpaceGlobal {
			buf[n] = j
			n++
		}
	}
	return buf[:n], i
}

// dryBlock reports whether a fetch of block b could move, pressure aside
// (texSweep's dry run on one block).
func (m *mover) dryBlock(b ir.BlockID) bool {
	f := m.f
	for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
		if f.Prev[i] == ir.NoInstr || !texClass(f, i) || m.readSoon(i) == 0 {
			continue
		}
		if m.du == nil && m.p.SSA() {
			m.du = m.p.A.DefUse()
		}
		if m.spaceOne(i, 0, nil, nil) {
			return true
		}
	}
	return false
}

// texLimit is the function's maximum live slots per file at the start of
// a texture sweep, found lazily: known is the maximum over the blocks
// traced so far (each as it stood before any move in it: a lower bound
// of the function's); full is the function's, computed the first time a
// point would pass known; moved lists the blocks where fetches moved
// (their maxima, taken before, are in known).
type texLimit struct {
	known, full [ir.NumFiles]int
	haveFull    bool
	moved       []ir.BlockID
}

// traceBlock lays out block b's pressure trace in m.trace (its
// instructions in order) and raises the known bound to its maximum.
func (m *mover) traceBlock(b ir.BlockID) {
	f := m.f
	n := 0
	for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
		n++
	}
	if cap(m.trace) < n {
		m.trace = make([][ir.NumFiles]int32, n)
	}
	m.trace = m.trace[:n]
	k := n // the walk goes backwards
	pr := m.walk.Block(b, func(_ ir.InstrID, live [ir.NumFiles]int) {
		k--
		for fl, v := range live {
			m.trace[k][fl] = int32(v)
		}
	})
	for fl, v := range pr.Max {
		m.lim.known[fl] = max(m.lim.known[fl], v)
	}
}

// over reports whether v live slots of file k pass the function's
// maximum at the sweep's start.
func (m *mover) over(k int, v int32) bool {
	if int(v) <= m.lim.known[k] {
		return false
	}
	if !m.lim.haveFull {
		m.fullLimit()
	}
	return int(v) > m.lim.full[k]
}

// fullLimit computes the function's maximum at the sweep's start: the
// blocks where nothing moved yet are as they were then; the others' maxima
// from before their moves are in known.
func (m *mover) fullLimit() {
	full := m.lim.known
	for _, b := range m.f.Layout {
		if slices.Contains(m.lim.moved, b) {
			continue
		}
		for fl, v := range m.walk.Block(b, nil).Max {
			full[fl] = max(full[fl], v)
		}
	}
	m.lim.full, m.lim.haveFull = full, true
	// (for the tests, through the hooks: a counter in the phase's
	// statistics would make a run that moved nothing look as if it fired)
	if m.h != nil {
		m.h.texLimitTraces.Add(1)
	}
}

// fileIn is r's register file: from files, or by its type (R or P) when
// files is nil (a dry run).
func fileIn(f *ir.Func, files []ir.File, r ir.RegID) ir.File {
	if files == nil {
		return ir.FileOf(f.RegType[r], false)
	}
	return files[r]
}

// maxCarried bounds the address instructions a fetch carries up with it.
const maxCarried = 4

// spaceOne moves fetch i (at trace index pos) up, away from its first
// reader, within the room the trace leaves; it reports whether i moved.
//
// In SSA form the fetch carries its address computation with it: an
// instruction right above the moving group that defines a register the
// group reads, is of the kill class and has no reader outside the group
// joins it (at most maxCarried), so "add.s64 %rd6, %rd3, %rd5;
// ld.global.nc [%rd6]" moves as one. At every point the group crosses,
// the change of the live slots is at most the fetch's results less the
// operands that end in the group as it was when it crossed the point
// (live there before, since their definitions lie above; dead after);
// the group's inner results are dead there afterwards.
func (m *mover) spaceOne(i ir.InstrID, pos int, trace [][ir.NumFiles]int32, files []ir.File) bool {
	f := m.f
	if touchesMultiVersion(m.p, i) {
		return false
	}
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	var out [ir.NumFiles]int32 // the fetch's results
	defs := 0
	for _, x := range m.refs {
		if x.Def {
			if fixedReg(f, x.Reg) {
				return false
			}
			out[fileIn(f, files, x.Reg)] += int32(core.RegSlots(f, x.Reg))
			defs++
		}
	}
	if defs == 0 {
		return false
	}
	dist := m.readSoon(i)
	if dist == 0 {
		return false // already spaced, or read in another block
	}
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	m.group = append(m.group[:0], i)
	m.deltas = m.deltas[:0]
	need := m.groupNeed(out, files)
	crossed := 0
	top := i // the highest instruction looked at so far
	for j := f.Prev[i]; j != ir.NoInstr && crossed < m.window-dist; j = f.Prev[j] {
		if m.joins(j) {
			m.group = append(m.group, j)
			m.refs = core.AppendRegRefs(f, j, m.refs)
			need = m.groupNeed(out, files)
			top = j
			continue
		}
		ok := true
		if ok, m.jrefs = crossable(f, m.refs, i, j, m.jrefs); !ok {
			break
		}
		if trace == nil {
			crossed++ // a dry run: any crossing will do
			break
		}
		t := &trace[pos-(len(m.group)-1)-crossed-1] // j's entry
		for k := range need {
			if m.over(k, t[k]+need[k]) {
				ok = false
			}
		}
		if !ok {
			break
		}
		m.deltas = append(m.deltas, need)
		crossed++
		top = j
	}
	if crossed == 0 || trace == nil {
		return crossed > 0
	}
	// Relink: the group's members, in their order, go just above the
	// highest crossed instruction (the anchor); the crossed ones keep
	// their order below.
	g := len(m.group)
	n := g + crossed // the segment [lo, pos] of the trace
	lo := pos - n + 1
	m.seg = m.seg[:0]
	m.order = m.order[:0]
	anchor, at := ir.NoInstr, 0
	for j, k := top, 0; k < n; j, k = f.Next[j], k+1 {
		m.order = append(m.order, j)
		if anchor == ir.NoInstr && !m.inGroup(j) {
			anchor, at = j, lo+k
		}
	}
	// The points among the members at their new place: from the point
	// above the anchor (its entry bounds it), each member adds its results
	// and frees the operands whose last reader it is within the group.
	// Members above the anchor stay where they are, and so do their
	// points (entries kept).
	m.members = m.members[:0]
	for k, j := range m.order {
		if m.inGroup(j) {
			m.members = append(m.members, j)
			if lo+k < at {
				m.seg = append(m.seg, trace[lo+k])
			}
		}
	}
	live := trace[at]
	for idx, j := range m.members {
		if m.stays(j, at-lo) {
			continue
		}
		var d, e [ir.NumFiles]int32
		m.jrefs = core.AppendRegRefs(f, j, m.jrefs[:0])
		for k, y := range m.jrefs {
			if y.Def {
				d[files[y.Reg]] += int32(core.RegSlots(f, y.Reg))
				continue
			}
			dup := false
			for _, z := range m.jrefs[:k] {
				dup = dup || z.Reg == y.Reg && !z.Def
			}
			if !dup && m.endsInGroup(y.Reg, idx) {
				e[files[y.Reg]] += int32(core.RegSlots(f, y.Reg))
			}
		}
		entry := live
		for k := range entry {
			entry[k] += max(0, d[k]-e[k])
			if m.over(k, entry[k]) {
				return false
			}
			live[k] += d[k] - e[k]
		}
		m.seg = append(m.seg, entry)
	}
	if !m.take() {
		return false
	}
	// crossed instructions, top to bottom; m.deltas runs bottom to top
	c := crossed - 1
	for k, j := range m.order {
		if !m.inGroup(j) {
			e := trace[lo+k]
			d := m.deltas[c]
			for fl := range e {
				e[fl] += d[fl]
			}
			m.seg = append(m.seg, e)
			c--
		}
	}
	copy(trace[lo:pos+1], m.seg)
	above := f.Prev[m.order[0]] // the segment's neighbour above (it stays)
	b := f.Block[i]
	for _, j := range m.order {
		if m.inGroup(j) {
			f.Unlink(j)
			f.InsertBefore(anchor, j)
		}
	}
	m.keepRows(b, above)
	if g > 1 {
		m.p.Count("address instructions carried", int64(g-1))
	}
	return true
}

// keepRows puts back into layout order the use rows of the def-use
// chains the cache holds (when it holds them) after spaceOne relinked the
// segment m.order of block b, now just below above (NoInstr: at b's
// head). Only a register the group reads can have a reader among the
// crossed instructions (crossable refuses any other shared register), and
// its references in the segment are contiguous in its row (rows are in
// layout order): they are rewritten in the segment's new order. Defs rows
// and the rows of what the group defines hold no reference of a crossed
// instruction, so their order stands.
func (m *mover) keepRows(b ir.BlockID, above ir.InstrID) {
	f, a := m.f, m.p.A
	if a.Valid()&ADefUse == 0 {
		return
	}
	du := a.DefUse()
	first := f.BlockFirst[b]
	if above != ir.NoInstr {
		first = f.Next[above]
	}
	for k, x := range m.refs {
		if x.Def {
			continue
		}
		if readBefore(m.refs, k) {
			continue
		}
		row := du.Uses(x.Reg)
		// The row's references in block b start where a binary search by
		// layout position puts them: a register read all over a large
		// function (a kernel parameter's pointer) has a row that grows
		// with it, and the segment lies in one block.
		pos := m.layoutPos
		kb := pos[b]
		e0, _ := slices.BinarySearchFunc(row, kb, func(u core.Ref, k int32) int {
			return cmp.Compare(pos[f.Block[u.Instr]], k)
		})
		lo, hi := -1, -1 // the row's references in the segment: row[lo:hi]
		for e := e0; e < len(row) && f.Block[row[e].Instr] == b; e++ {
			u := row[e]
			if slices.Contains(m.order, u.Instr) {
				if lo < 0 {
					lo = e
				}
				hi = e + 1
			} else if lo >= 0 {
				break
			}
		}
		if hi-lo < 2 {
			continue
		}
		m.rowBuf = append(m.rowBuf[:0], row[lo:hi]...)
		w := lo
		for j, n := first, 0; n < len(m.order); j, n = f.Next[j], n+1 {
			for _, u := range m.rowBuf {
				if u.Instr == j {
					row[w] = u
					w++
				}
			}
		}
	}
}

// readSoon returns the distance from fetch i to the first instruction
// of its block that reads one of its results, when that is within the
// window; else 0. It leaves i's registers in m.refs.
func (m *mover) readSoon(i ir.InstrID) int {
	f := m.f
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	dist := 0
	for j := f.Next[i]; j != ir.NoInstr && dist < m.window; j = f.Next[j] {
		dist++
		m.jrefs = core.AppendRegRefs(f, j, m.jrefs[:0])
		for _, y := range m.jrefs {
			for _, x := range m.refs {
				if x.Def && x.Reg == y.Reg {
					return dist
				}
			}
		}
	}
	return 0
}

// readElsewhere reports, from the def-use chains, that no instruction of
// i's block but i names a result of i: each has i for its only
// definition and no use in the block. readSoon(i), which looks below i
// for such an instruction, is then 0, known without its walk of the
// window: on a large function that walk misses the cache at every
// instruction, where this is a few lookups per result (on the 1M
// scaling kernel, 410 of the dry run's 418 fetches are read in other
// blocks only). False when it cannot tell (readSoon decides).
func (m *mover) readElsewhere(i ir.InstrID) bool {
	f, du := m.f, m.du
	b := f.Block[i]
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	for _, x := range m.refs {
		if !x.Def {
			continue
		}
		if d := du.Defs(x.Reg); len(d) != 1 || d[0].Instr != i {
			return false
		}
		for _, u := range du.Uses(x.Reg) {
			if f.Block[u.Instr] == b {
				return false
			}
		}
	}
	return true
}

// joins reports whether j, right above the moving group, joins it: in
// SSA form, a kill-class instruction of one result that the group reads
// and nothing outside the group reads.
func (m *mover) joins(j ir.InstrID) bool {
	f, du := m.f, m.du
	if du == nil || len(m.group)-1 >= maxCarried {
		return false
	}
	r, ok := sinkable(f, j)
	if !ok || !pureDef(f, j) || len(du.Defs(r)) != 1 || touchesMultiVersion(m.p, j) {
		return false
	}
	us := du.Uses(r)
	if len(us) == 0 || len(us) > maxEndUses {
		return false
	}
	for _, u := range us {
		if !m.inGroup(u.Instr) {
			return false
		}
	}
	return true
}

// stays reports whether member j lies above the anchor, the k-th
// instruction of m.order.
func (m *mover) stays(j ir.InstrID, k int) bool {
	for _, x := range m.order[:k] {
		if x == j {
			return true
		}
	}
	return false
}

// endsInGroup reports whether register r, read by m.members[idx], has
// one definition and no reader but members up to idx (in SSA form): it
// is dead after that member.
func (m *mover) endsInGroup(r ir.RegID, idx int) bool {
	f, du := m.f, m.du
	if du == nil || fixedReg(f, r) || len(du.Defs(r)) != 1 {
		return false
	}
	us := du.Uses(r)
	if len(us) > maxEndUses {
		return false
	}
	for _, u := range us {
		ok := false
		for _, j := range m.members[:idx+1] {
			ok = ok || u.Instr == j
		}
		if !ok {
			return false
		}
	}
	return len(us) > 0
}

func (m *mover) inGroup(j ir.InstrID) bool {
	for _, g := range m.group {
		if g == j {
			return true
		}
	}
	return false
}

// groupNeed is the change of live slots per file at a point the group
// crosses: the fetch's results out, less each register the group reads
// that is defined outside it and read by nothing else (in SSA form).
func (m *mover) groupNeed(out [ir.NumFiles]int32, files []ir.File) [ir.NumFiles]int32 {
	f, du := m.f, m.du
	need := out
	if du == nil {
		return need
	}
	for k, x := range m.refs {
		if x.Def || fixedReg(f, x.Reg) || len(du.Defs(x.Reg)) != 1 || m.inGroup(du.Defs(x.Reg)[0].Instr) {
			continue
		}
		if readBefore(m.refs, k) {
			continue
		}
		us := du.Uses(x.Reg)
		ends := len(us) > 0 && len(us) <= maxEndUses
		for _, u := range us {
			if ends = ends && m.inGroup(u.Instr); !ends {
				break
			}
		}
		if ends {
			need[fileIn(f, files, x.Reg)] -= int32(core.RegSlots(f, x.Reg))
		}
	}
	return need
}

// readBefore reports whether refs[k]'s register is read by an earlier
// entry of refs (one instruction's references): its reads count once.
func readBefore(refs []core.RegRef, k int) bool {
	for _, y := range refs[:k] {
		if y.Reg == refs[k].Reg && !y.Def {
			return true
		}
	}
	return false
}
