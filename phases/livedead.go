package phases

import (
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Liveness-based dead-code elimination: EarlyOriSimpleLiveDead and the
// four OriPerformLiveDead* instances (one function, four slots).
//
// Purpose: delete instructions whose results are never used and that have
// no side effects (the opcode table says which). Preconditions: none (works
// on SSA and non-SSA form). Guarantees: no pure instruction with only dead
// definitions survives.
//
//	before:  add.s32 %r3, %r1, %r2;   // %r3 never read
//	after:   (removed)
//
// Dataflow (per register file, backwards):
//
//	live_out(b) = ∪ live_in(s) for s in succ(b)
//	live_in(b)  = use(b) ∪ (live_out(b) − def(b))

// What may be deleted: an instruction the opcode table calls pure, after
// the per-instruction refinement (.cc, .volatile, special registers such
// as %clock), that is not convergent, a branch, a call, a pseudo other
// than a PHI, or a carry-chain member, and that reads no memory; and a
// plain load (ld or ldu without .volatile, an ordering qualifier or
// .mmio: the table marks those volatile): reading memory has no effect
// but its result, and a load that would fault on an address out of
// bounds is undefined behaviour, not a result to keep. Its register
// results must all be dead; a result written to the sink "_" is dead by
// definition.
const keepProps = ir.PSideEffect | ir.PVolatile | ir.PConvergent | ir.PCall | ir.PReadsMem | ir.PWritesMem |
	ir.PTerminator | ir.PBranch | ir.POpaque | ir.PPseudo | ir.PCarry | ir.PBarrier | ir.PAsync

func removable(f *ir.Func, i ir.InstrID) bool {
	if f.Op[i] == ir.OpPhi {
		return true // a PHI whose result is dead goes like any pure value
	}
	p := f.InstrProps(i)
	if op := f.Op[i]; op == ir.OpLd || op == ir.OpLdu {
		return p&(keepProps&^(ir.PReadsMem|ir.PPure)) == 0
	}
	return p&ir.PPure != 0 && p&keepProps == 0
}

// simpleLiveDead: EarlyOriSimpleLiveDead, a local sweep without global
// liveness: a removable instruction whose register results are read by no
// instruction anywhere is deleted, and the registers it read lose a use,
// which may make their definitions dead in turn (a worklist over use
// counts, so chains of dead temporaries go in one phase).
func simpleLiveDead(p *Pass) bool {
	f := p.F
	if p.Canceled() {
		return false
	}
	uses := take[int32](p.Scratch, f.NumRegs())
	var refsBuf [32]core.RegRef
	refs := refsBuf[:0]
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = core.AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if !x.Def {
					uses[x.Reg]++
				}
			}
		}
	}
	// Return registers are read by the caller.
	for _, r := range f.ReturnRegs(nil) {
		uses[r]++
	}
	// Every instruction starts on the worklist; a register whose last use
	// goes puts its definitions back on it (def-use chains, built once:
	// deleted instructions are skipped by their Dead mark).
	du := p.A.DefUse()
	var work []ir.InstrID
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			work = append(work, i)
		}
	}
	// Each deletion is of an instruction nothing reads: a canceled run
	// stops between two.
	pl := newPoller(p)
	removed := int64(0)
	canceled := false
	for len(work) > 0 {
		if pl.stop() {
			canceled = true
			break
		}
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if f.Dead[i] || f.Block[i] == ir.NoBlock || !removable(f, i) {
			continue
		}
		refs = core.AppendRegRefs(f, i, refs[:0])
		dead := true
		for _, x := range refs {
			if x.Def && uses[x.Reg] > 0 {
				dead = false
				break
			}
		}
		if !dead {
			continue
		}
		f.Remove(i)
		removed++
		for _, x := range refs {
			if !x.Def {
				uses[x.Reg]--
				if uses[x.Reg] == 0 {
					for _, d := range du.Defs(x.Reg) {
						work = append(work, d.Instr)
					}
				}
			}
		}
	}
	if removed > 0 {
		p.Count("instructions removed", removed)
	}
	if !canceled {
		p.FixedPoint() // the use-count worklist ran to the end
	}
	return removed > 0
}

// liveDead: OriPerformLiveDead{First,Second,Third,Fourth}, global liveness
// DCE. One sweep walks every block backwards from its live-out set (the
// analysis cache's liveness), deleting removable instructions whose
// register results are not live after them:
//
//	live = live_out(b)
//	for i from last to first:
//	    if removable(i) and defs(i) ∩ live = ∅: delete i
//	    else: live = (live − kills(i)) ∪ uses(i)   (a guarded def kills nothing)
//
// A deletion can make values dead in blocks already walked (a use in a
// later block that fed only the deleted instruction). Rather than sweep
// again with a fresh whole-function liveness, the sweep notes the
// registers that lost a use, and only their liveness can have changed
// (deleting a dead definition changes no register's liveness; removing a
// use can only shrink its register's). A worklist then recomputes, for
// each such register alone, where it is live (a backward search from its
// remaining uses, linear in its live range), deletes its definitions
// that became dead, and adds the registers those read. This reaches the
// fixed point the repeated sweeps reach, at the cost of the registers
// that changed.
//
// A phase that deletes nothing leaves the cache's liveness (and every
// other analysis) describing the function as it is, so the slot preserves
// all; one that deletes brings the def-use chains and the liveness up to
// date (keepAnalyses) and drops the rest of what it made stale, or, when
// canceled midway, drops every instruction analysis.
//
// A canceled run stops between two blocks of the sweep or two registers
// of the worklist: every deletion made was of an instruction whose
// results are dead (liveness before deletions only over-approximates
// liveness after them), so the function is correct, with less removed.
func liveDead(p *Pass) bool {
	f := p.F
	if p.Canceled() {
		return false
	}
	// The liveness first: an update a sweep before deferred reads the
	// lists deadState empties.
	l := p.A.Liveness()
	d := p.Scratch.deadState(f)
	d.poll, d.canceled = newPoller(p), false
	defer func() { d.poll = nil }()
	if d.poll.now() {
		return false
	}
	removed := d.sweep(f, l)
	if removed > 0 {
		if d.canceled {
			p.A.Invalidate(instrAnalyses)
		} else {
			du := p.A.DefUse()
			removed += d.cascade(f, du)
			d.keepAnalyses(p.A, du, l)
		}
	}
	if removed > 0 {
		p.Count("instructions removed", removed)
	}
	if !d.canceled {
		p.FixedPoint() // the worklist ran to the end: nothing more is dead
	}
	return removed > 0
}

// keepAnalyses brings the cache's def-use chains and liveness up to date
// with the deletions instead of dropping them: on a large function the
// sweeps delete a few hundred instructions of a million, and the phase
// after (GvnCse's pressure estimate, the next sweep) would otherwise
// recompute both whole. The chains lose the deleted instructions'
// references; the liveness changes only for the registers that lost a
// read (core.Liveness.Shrink, run when the liveness is next asked for).
// What is computed from them (uniformity, the pressure trace) is dropped.
func (d *deadState) keepAnalyses(a *Analyses, du *core.DefUse, l *core.Liveness) {
	slices.Sort(d.named)
	du.DropDead(a.f, d.named)
	a.Invalidate(AUniformity | APressure)
	// The liveness update is left to the next phase that asks (most
	// drop the liveness unread): it reads d's lists and positions, which
	// stay as they are until the next sweep, and that asks first.
	a.deferLiveness(func() bool { return l.Shrink(&d.shrink, du, d.pos, d.lost, d.gone, d.killed) })
}

// deadState is liveDead's working memory, kept in the worker's scratch.
type deadState struct {
	// What the deletions touched, for keepAnalyses: every register a
	// deleted instruction names (named, once each by namedMark), those it
	// read (lost, once each by lostMark), each deleted read with the
	// block it was read at the end of (a PHI's operand: its predecessor),
	// and each deleted unguarded definition with its block (killed).
	named, lost         []ir.RegID
	namedMark, lostMark []bool
	gone, killed        []core.RegBlock
	shrink              core.ShrinkState
	out                 core.OutSet
	// state[r]: the block stamp when bit 0 holds whether r is live at
	// the sweep's point (stamp<<1 | live; 4 bytes a register, so the
	// table of a large function stays twice as long in cache)
	state []uint32
	refs  []core.RegRef
	outs  []ir.RegID
	freed []bool // register lost a use and waits on the worklist
	work  []ir.RegID
	pos   []int32 // instruction's position in its block
	// per-register search, by block: stamps and marks
	stamp   uint32
	seen    []uint32 // block has a reference of the register (this stamp)
	inMark  []uint32
	outMark []uint32
	stack   []ir.BlockID
	rr      []regRef
	atExit  []bool
	other   *deadState // a second register's analysis (otherLiveAfter)
	// poll: the run's context, polled per block and per register (nil:
	// never canceled); canceled: the sweep or the worklist stopped.
	poll     *poller
	canceled bool
}

func (s *Scratch) deadState(f *ir.Func) *deadState {
	if s.dead == nil {
		s.dead = &deadState{}
	}
	d := s.dead
	nr, nb := f.NumRegs(), f.NumBlocks()
	if len(d.state) < nr {
		d.state = make([]uint32, nr)
	}
	d.freed = growBool(d.freed, nr)
	d.namedMark = growBool(d.namedMark, nr)
	d.lostMark = growBool(d.lostMark, nr)
	d.named, d.lost, d.gone, d.killed = d.named[:0], d.lost[:0], d.gone[:0], d.killed[:0]
	d.atExit = growBool(d.atExit, nr)
	for _, r := range f.ReturnRegs(d.outs[:0]) {
		d.atExit[r] = true
	}
	d.work = d.work[:0]
	if len(d.seen) < nb {
		d.seen = make([]uint32, nb)
		d.inMark = make([]uint32, nb)
		d.outMark = make([]uint32, nb)
		d.other = nil // (the stamp keeps counting: state holds older stamps)
	}
	return d
}

// nextStamp starts a new stamp for state, seen, inMark and outMark.
// Stamps stay below 1<<31 (state keeps one in 31 bits): at the limit the
// tables are cleared and the count starts again, so an old entry never
// reads as current.
func (d *deadState) nextStamp() {
	if d.stamp+1 >= 1<<31 {
		clear(d.state)
		clear(d.seen)
		clear(d.inMark)
		clear(d.outMark)
		d.stamp = 0
	}
	d.stamp++
}

func growBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// sweep is the one backward walk over every block; it returns how many
// instructions it deleted and queues the registers that lost a use.
func (d *deadState) sweep(f *ir.Func, l *core.Liveness) int64 {
	n := int64(0)
	// A register's state is looked up in the block's live-out set the first
	// time the walk meets it and kept under the block's stamp afterwards:
	// a block costs its references, not its live registers.
	// The stamp and the state share one word per register (one cache
	// line per lookup on large functions): stamp<<1 | live.
	isLive := func(r ir.RegID) bool {
		if d.state[r]>>1 != d.stamp {
			v := d.stamp << 1
			if d.out.Has(r) {
				v |= 1
			}
			d.state[r] = v
		}
		return d.state[r]&1 != 0
	}
	setLive := func(r ir.RegID, live bool) {
		v := d.stamp << 1
		if live {
			v |= 1
		}
		d.state[r] = v
	}
	for _, b := range f.Layout {
		if d.poll.stop() {
			d.canceled = true
			break
		}
		d.nextStamp()
		l.Out(b, &d.out)
		for i := f.BlockLast[b]; i != ir.NoInstr; {
			prev := f.Prev[i]
			d.refs = core.AppendRegRefs(f, i, d.refs[:0])
			if removable(f, i) {
				live := false
				for _, x := range d.refs {
					if x.Def && isLive(x.Reg) {
						live = true
						break
					}
				}
				if !live {
					d.note(f, i, d.refs)
					f.Remove(i)
					n++
					d.free(d.refs)
					i = prev
					continue
				}
			}
			if f.Guard[i] == ir.NoOperand {
				for _, x := range d.refs {
					if x.Def {
						setLive(x.Reg, false)
					}
				}
			}
			for _, x := range d.refs {
				if !x.Def {
					setLive(x.Reg, true)
				}
			}
			i = prev
		}
	}
	return n
}

// note records what deleting i (with register references refs) touches,
// before it goes.
func (d *deadState) note(f *ir.Func, i ir.InstrID, refs []core.RegRef) {
	for _, x := range refs {
		if !d.namedMark[x.Reg] {
			d.namedMark[x.Reg] = true
			d.named = append(d.named, x.Reg)
		}
		if !x.Def && !d.lostMark[x.Reg] {
			d.lostMark[x.Reg] = true
			d.lost = append(d.lost, x.Reg)
		}
	}
	if f.Guard[i] == ir.NoOperand {
		for _, x := range refs {
			if x.Def {
				d.killed = append(d.killed, core.RegBlock{Reg: x.Reg, Block: f.Block[i]})
			}
		}
	}
	if f.Op[i] == ir.OpPhi {
		core.PhiIncoming(f, i, func(_ int, v ir.Operand, p ir.BlockID) {
			if v.IsReg() {
				d.gone = append(d.gone, core.RegBlock{Reg: v.Reg(), Block: p})
			}
		})
		return
	}
	b := f.Block[i]
	for _, x := range refs {
		if !x.Def {
			d.gone = append(d.gone, core.RegBlock{Reg: x.Reg, Block: b})
		}
	}
}

// free queues the registers a deleted instruction read.
func (d *deadState) free(refs []core.RegRef) {
	for _, x := range refs {
		if !x.Def && !d.freed[x.Reg] {
			d.freed[x.Reg] = true
			d.work = append(d.work, x.Reg)
		}
	}
}

// cascade runs the worklist of registers that lost uses (see liveDead)
// with def-use chains du (deleted instructions in them are skipped), and
// returns how many more instructions it deleted.
func (d *deadState) cascade(f *ir.Func, du *core.DefUse) int64 {
	if cap(d.pos) < f.NumInstrs() {
		d.pos = make([]int32, f.NumInstrs())
	}
	d.pos = d.pos[:f.NumInstrs()]
	for _, b := range f.Layout {
		k := int32(0)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			d.pos[i] = k
			k++
		}
	}
	n := int64(0)
	for len(d.work) > 0 {
		if d.poll.stop() {
			d.canceled = true
			break
		}
		r := d.work[len(d.work)-1]
		d.work = d.work[:len(d.work)-1]
		d.freed[r] = false
		d.analyze(f, du, r)
		// Definitions of r whose next reference in their block is a
		// killing definition, or that have none and r is not live out.
		for k, x := range d.rr {
			if x.use || f.Dead[x.instr] || !removable(f, x.instr) || d.rrLiveAfter(k) {
				continue
			}
			i := x.instr
			d.refs = core.AppendRegRefs(f, i, d.refs[:0])
			dead := true
			for _, y := range d.refs {
				if y.Def && y.Reg != r && d.otherLiveAfter(f, du, y.Reg, i) {
					dead = false
					break
				}
			}
			if dead {
				d.note(f, i, d.refs)
				f.Remove(i)
				n++
				d.free(d.refs)
			}
		}
	}
	return n
}

// regRef is one reference of the register being analyzed.
type regRef struct {
	blk   ir.BlockID
	pos   int32
	instr ir.InstrID
	use   bool // a read (guard, source, address element)
	kill  bool // an unguarded write
}

// analyze gathers the live references of r sorted by block and position
// (an instruction's read before its write) into d.rr, and marks the blocks
// r is live into (inMark) and out of (outMark) under a new stamp: a
// backward search from the blocks that read r before killing it, stopping
// at blocks that kill it. Linear in r's references and live range, plus
// the sort.
func (d *deadState) analyze(f *ir.Func, du *core.DefUse, r ir.RegID) {
	d.rr = d.rr[:0]
	add := func(x core.Ref, use bool) {
		j := x.Instr
		if f.Dead[j] || f.Block[j] == ir.NoBlock {
			return
		}
		d.rr = append(d.rr, regRef{blk: f.Block[j], pos: d.pos[j], instr: j, use: use, kill: !use && f.Guard[j] == ir.NoOperand})
	}
	for _, x := range du.Uses(r) {
		add(x, true)
	}
	for _, x := range du.Defs(r) {
		add(x, false)
	}
	slices.SortFunc(d.rr, func(a, b regRef) int { return core.CompareRefPlaces(a.blk, a.pos, a.use, b.blk, b.pos, b.use) })
	d.nextStamp()
	st := d.stamp
	// Live in where the first deciding reference of the block is a read.
	d.stack = d.stack[:0]
	for k := 0; k < len(d.rr); k++ {
		x := d.rr[k]
		if k > 0 && d.rr[k-1].blk == x.blk {
			continue
		}
		d.seen[x.blk] = st
		for m := k; m < len(d.rr) && d.rr[m].blk == x.blk; m++ {
			if d.rr[m].use {
				d.inMark[x.blk] = st
				d.stack = append(d.stack, x.blk)
				break
			}
			if d.rr[m].kill {
				break
			}
		}
	}
	kills := func(c ir.BlockID) bool {
		if d.seen[c] != st {
			return false
		}
		k, _ := slices.BinarySearchFunc(d.rr, c, func(x regRef, c ir.BlockID) int { return int(x.blk) - int(c) })
		for ; k < len(d.rr) && d.rr[k].blk == c; k++ {
			if d.rr[k].kill {
				return true
			}
		}
		return false
	}
	if d.atExit[r] {
		for _, c := range f.Layout {
			if len(f.SuccsOf(c)) == 0 {
				d.outMark[c] = st
				if d.inMark[c] != st && !kills(c) {
					d.inMark[c] = st
					d.stack = append(d.stack, c)
				}
			}
		}
	}
	for len(d.stack) > 0 {
		c := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		for _, q := range f.PredsOf(c) {
			d.outMark[q] = st
			if d.inMark[q] != st && !kills(q) {
				d.inMark[q] = st
				d.stack = append(d.stack, q)
			}
		}
	}
}

// rrLiveAfter reports whether the register analyzed is live just after
// its reference d.rr[k] (a definition): the next read or killing write in
// the block decides; with none, whether it is live out of the block.
func (d *deadState) rrLiveAfter(k int) bool {
	x := d.rr[k]
	for m := k + 1; m < len(d.rr) && d.rr[m].blk == x.blk; m++ {
		y := d.rr[m]
		if y.pos == x.pos {
			continue // the same instruction: its reads come first
		}
		if y.use {
			return true
		}
		if y.kill {
			return false
		}
	}
	return d.outMark[x.blk] == d.stamp
}

// otherLiveAfter is rrLiveAfter for another register y that instruction i
// also writes (rare: a second destination). It analyzes y in a state of
// its own so the current register's analysis stays.
func (d *deadState) otherLiveAfter(f *ir.Func, du *core.DefUse, y ir.RegID, i ir.InstrID) bool {
	if d.other == nil {
		d.other = &deadState{}
	}
	o := d.other
	o.pos, o.atExit = d.pos, d.atExit
	if len(o.seen) < len(d.seen) {
		o.seen = make([]uint32, len(d.seen))
		o.inMark = make([]uint32, len(d.seen))
		o.outMark = make([]uint32, len(d.seen))
	}
	o.analyze(f, du, y)
	for k, x := range o.rr {
		if x.instr == i && !x.use {
			return o.rrLiveAfter(k)
		}
	}
	return true
}
