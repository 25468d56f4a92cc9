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
	// Every instruction starts on the worklist; a register whose last use
	// goes puts its definitions back on it (def-use chains, built once:
	// deleted instructions are skipped by their Dead mark). The chains
	// also count the reads: a use row holds one entry per register
	// operand read (AppendRegRefs' uses), over the placed instructions.
	du := p.A.DefUse()
	uses := take[int32](p.Scratch, f.NumRegs())
	for r := range min(len(uses), du.NumRegs()) {
		uses[r] = int32(len(du.Uses(ir.RegID(r))))
	}
	// Return registers are read by the caller.
	for _, r := range f.ReturnRegs(nil) {
		uses[r]++
	}
	var refsBuf [32]core.RegRef
	refs := refsBuf[:0]
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
		if f.IsDead(i) || f.Block[i] == ir.NoBlock || !removable(f, i) {
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
// again with a fresh whole-function liveness, the sweep notes where a
// register lost a read and its liveness may have shrunk (deleting a dead
// definition changes no register's liveness; removing a use can only
// shrink its register's): a deleted read that the walk up its block
// meets a kept read or a killing definition of the same register above
// changed nothing the sweep did not see, and the others become seeds
// (register, block). The cascade (cascade) takes the seeds one by one: it
// walks the seed's block backwards from the register's liveness at its
// end, found again by a forward search bounded by the liveness before
// the deletions, deletes the definitions of the register that became
// dead, seeds the registers those read, and goes on to the predecessors
// whose end the register may no longer be live at. Its cost is that of
// the blocks around the deletions, not of the function nor of a
// register's whole live range (the def-use chains a whole-range analysis
// needs cost a walk over every instruction, which on a large function is
// most of the phase for a few hundred deletions). Walks that together
// look at more than a share of the function (minScan) hand what is left
// to the whole-range analysis (wholeRange: the chains, and per register
// a backward search from its references). Either way this reaches the
// fixed point the repeated sweeps reach.
//
// A phase that deletes nothing leaves the cache's liveness (and every
// other analysis) describing the function as it is, so the slot preserves
// all; one that deletes brings the cached def-use chains and the
// liveness up to date (keepAnalyses) and drops the rest of what it made
// stale, or, when canceled midway, drops every instruction analysis.
//
// A canceled run stops between two blocks of the sweep or two seeds of
// the cascade: every deletion made was of an instruction whose results
// are dead (liveness before deletions only over-approximates liveness
// after them), so the function is correct, with less removed.
func liveDead(p *Pass) bool {
	f := p.F
	if p.Canceled() {
		return false
	}
	// The liveness first: an update a sweep before deferred reads the
	// lists deadState empties.
	l := p.A.Liveness()
	d := p.Scratch.deadState(f, p.hooks())
	d.poll, d.canceled = newPoller(p), false
	defer func() { d.poll, d.a = nil, nil }()
	if d.poll.now() {
		return false
	}
	removed := d.sweep(f, l)
	if removed > 0 {
		if d.canceled {
			p.A.Invalidate(instrAnalyses)
		} else {
			d.a = p.A
			removed += d.cascade(f, l)
			d.keepAnalyses(p.A, l)
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
// recompute both whole. Cached chains lose the deleted instructions'
// references (chains not cached are not made: the phase that next asks
// for them builds them from the function as it is); the liveness
// changes only for the registers that lost a read (core.Liveness.Shrink,
// run when the liveness is next asked for, with the chains and the
// instruction positions then). What is computed from them (uniformity,
// the pressure trace) is dropped.
func (d *deadState) keepAnalyses(a *Analyses, l *core.Liveness) {
	if a.have(ADefUse) {
		slices.Sort(d.named)
		a.DefUse().DropDead(a.f, d.named)
	}
	a.Invalidate(AUniformity | APressure)
	// The liveness update is left to the next phase that asks (most
	// drop the liveness unread): it reads d's lists and positions, which
	// stay as they are until the next sweep, and that asks first.
	// Of the registers that lost a read, only those whose live-in sets
	// the cascade saw shrink (or that it could not follow: the
	// whole-range ones, those read by a deleted PHI) need the update,
	// which costs each its references: a register read all over the
	// function loses a read far more often than it stops being live
	// anywhere.
	regs := d.lost[:0:0]
	if len(d.moved) > 0 {
		regs = d.shrinkRegs[:0]
		for _, r := range d.lost {
			if d.moved[r] {
				regs = append(regs, r)
			}
		}
		d.shrinkRegs = regs
	}
	f := a.f
	a.deferLiveness(func() bool {
		du := a.DefUse()
		d.positions(f)
		return l.Shrink(&d.shrink, du, d.pos, regs, d.gone, d.killed)
	})
}

// move records that r's liveness at a block boundary may have changed.
func (d *deadState) move(r ir.RegID) {
	d.moved[r] = true
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
	// moved[r]: the cascade saw r stop being live into a block, or could
	// not tell (keepAnalyses passes only these on to Shrink)
	moved        []bool
	shrinkRegs   []ir.RegID
	gone, killed []core.RegBlock
	// goneHead[r]: the index in gone of r's last deleted read (-1: none),
	// goneNext[k]: that of the one before gone[k] (-1: none); per
	// register lists, so that the whole-range analysis can ask whether
	// r's deleted reads changed its live-in sets (wholeShrank)
	goneHead, goneNext []int32
	shrink             core.ShrinkState
	out                core.OutSet
	// state[r]: the block stamp when bit 0 holds whether r is live at
	// the sweep's point and bit 1 whether a read of r below that point
	// in the block was deleted with no kept read or killing definition
	// of r met since (stamp<<2 | pending<<1 | live; 4 bytes a register,
	// so the table of a large function stays twice as long in cache)
	state   []uint32
	refs    []core.RegRef
	outs    []ir.RegID
	pending []ir.RegID // registers marked pending in the block being swept
	// seeds: where a register lost a read and its liveness may have
	// shrunk (the end of the block: a deleted read in it, or a deleted
	// PHI's operand read on the edge out of it), for the cascade
	seeds    []core.RegBlock
	pos      []int32 // instruction's position in its block
	posValid bool    // pos describes the function (positions)
	// The cascade's walks, by block: visit (the seed's walk, under
	// wstamp), qvisit (one forward search, under qstamp), notIn (not live
	// in, under wstamp: what a search that found nothing met)
	visit, qvisit, notIn []uint32
	seedMark             []uint32 // a seed's block (under wstamp)
	round                []core.RegBlock
	// scanned counts the instructions the cascade's walks and searches
	// have looked at in this phase; past scanBudget (a share of the
	// function) every register left goes to the whole-range analysis
	// (whole), on the worklist work (freed: waiting on it)
	scanned, scanBudget int
	whole               bool
	spared              int // registers wholeRange found unchanged (tests)
	freed               []bool
	work, big           []ir.RegID // big: registers of more than bigRefs references, taken last
	bigNow              bool       // work holds the big ones

	wstamp, qstamp      uint32
	met, wstack, qstack []ir.BlockID
	refs2               []core.RegRef
	a                   *Analyses // the chains, for the whole-range analysis (wholeRange)
	// per-register search, by block: stamps and marks
	stamp   uint32
	seen    []uint32 // block has a reference of the register (this stamp)
	inMark  []uint32
	outMark []uint32
	stack   []ir.BlockID
	rr      []regRef
	rrPhi   bool // a PHI reads the register analyzed
	atExit  []bool
	other   *deadState // a second register's analysis (otherLiveAfter)
	// poll: the run's context, polled per block and per register (nil:
	// never canceled); canceled: the sweep or the worklist stopped.
	poll     *poller
	canceled bool
	// wholeOnly (the wholeRangeOnly test hook): the cascade takes the
	// whole-range analysis for every register
	wholeOnly bool
}

// deadState readies the scratch's deadState for f, with the test hooks h
// (nil outside tests).
func (s *Scratch) deadState(f *ir.Func, h *testHooks) *deadState {
	if s.dead == nil {
		s.dead = &deadState{}
	}
	d := s.dead
	nr, nb := f.NumRegs(), f.NumBlocks()
	if len(d.state) < nr {
		d.state = make([]uint32, nr)
	}
	d.namedMark = growBool(d.namedMark, nr)
	d.lostMark = growBool(d.lostMark, nr)
	d.moved = growBool(d.moved, nr)
	d.named, d.lost, d.gone, d.killed = d.named[:0], d.lost[:0], d.gone[:0], d.killed[:0]
	d.goneNext = d.goneNext[:0]
	if cap(d.goneHead) < nr {
		d.goneHead = make([]int32, nr)
	}
	d.goneHead = d.goneHead[:nr]
	for r := range d.goneHead {
		d.goneHead[r] = -1
	}
	d.atExit = growBool(d.atExit, nr)
	for _, r := range f.ReturnRegs(d.outs[:0]) {
		d.atExit[r] = true
	}
	d.seeds, d.pending, d.posValid = d.seeds[:0], d.pending[:0], false
	d.freed, d.work, d.big, d.whole, d.bigNow = growBool(d.freed, nr), d.work[:0], d.big[:0], false, false
	d.spared = 0
	floor := minScan
	if h != nil && h.minScan > 0 {
		floor = h.minScan
	}
	d.scanned, d.scanBudget = 0, max(f.NumInstrs()/4, floor)
	d.wholeOnly = h != nil && h.wholeRangeOnly
	if len(d.visit) < nb {
		d.visit = make([]uint32, nb)
		d.qvisit = make([]uint32, nb)
		d.notIn = make([]uint32, nb)
		d.seedMark = make([]uint32, nb)
		d.wstamp, d.qstamp = 0, 0
	}
	if len(d.seen) < nb {
		d.seen = make([]uint32, nb)
		d.inMark = make([]uint32, nb)
		d.outMark = make([]uint32, nb)
		d.other = nil // (the stamp keeps counting: state holds older stamps)
	}
	return d
}

// stampLimit bounds the stamps of state, seen, inMark and outMark: state
// keeps one in its 30 high bits.
const stampLimit = 1 << 30

// nextStamp starts a new stamp for state, seen, inMark and outMark.
// Stamps stay below stampLimit: at the limit the tables are cleared and
// the count starts again, so an old entry never reads as current.
func (d *deadState) nextStamp() {
	if d.stamp+1 >= stampLimit {
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
// instructions it deleted and leaves the cascade its seeds.
func (d *deadState) sweep(f *ir.Func, l *core.Liveness) int64 {
	n := int64(0)
	// A register's state is looked up in the block's live-out set the first
	// time the walk meets it and kept under the block's stamp afterwards:
	// a block costs its references, not its live registers.
	// The stamp and the state share one word per register (one cache
	// line per lookup on large functions): stamp<<2 | pending<<1 | live.
	cur := func(r ir.RegID) uint32 {
		v := d.state[r]
		if v>>2 != d.stamp {
			v = d.stamp << 2
			if d.out.Has(r) {
				v |= 1
			}
			d.state[r] = v
		}
		return v
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
					if x.Def && cur(x.Reg)&1 != 0 {
						live = true
						break
					}
				}
				if !live {
					d.note(f, i, d.refs)
					if f.Op[i] == ir.OpPhi {
						d.seedPhi(f, i)
					} else {
						// Pending until the walk up the block meets a
						// kept read or a killing definition.
						for _, x := range d.refs {
							if x.Def {
								continue
							}
							if v := cur(x.Reg); v&2 == 0 {
								d.state[x.Reg] = v | 2
								d.pending = append(d.pending, x.Reg)
							}
						}
					}
					f.Remove(i)
					n++
					i = prev
					continue
				}
			}
			if f.Guard[i] == ir.NoOperand {
				for _, x := range d.refs {
					if x.Def {
						d.state[x.Reg] = d.stamp << 2
					}
				}
			}
			if f.Op[i] == ir.OpPhi {
				// A PHI's operands are read on the edges into the block,
				// not above it here: they settle nothing pending.
				for _, x := range d.refs {
					if !x.Def {
						d.state[x.Reg] = cur(x.Reg)&2 | d.stamp<<2 | 1
					}
				}
			} else {
				for _, x := range d.refs {
					if !x.Def {
						d.state[x.Reg] = d.stamp<<2 | 1
					}
				}
			}
			i = prev
		}
		// Reads deleted with nothing above them in the block that settles
		// them: the register's liveness into the block may have shrunk.
		for _, r := range d.pending {
			if d.state[r]&2 != 0 {
				d.seeds = append(d.seeds, core.RegBlock{Reg: r, Block: b})
			}
		}
		d.pending = d.pending[:0]
	}
	return n
}

// seedPhi seeds the operands of PHI i (about to go) at the ends of the
// predecessors they are read on.
func (d *deadState) seedPhi(f *ir.Func, i ir.InstrID) {
	ops := f.Ops(i)
	for k := 1; k+1 < len(ops); k += 2 {
		if ops[k].IsReg() {
			d.seeds = append(d.seeds, core.RegBlock{Reg: ops[k].Reg(), Block: ir.BlockID(ops[k+1].Index())})
		}
	}
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
				d.addGone(v.Reg(), p)
				d.move(v.Reg()) // its PHI reads (Shrink: phiUse)
			}
		})
		return
	}
	b := f.Block[i]
	for _, x := range refs {
		if !x.Def {
			d.addGone(x.Reg, b)
		}
	}
}

// addGone records a deleted read of r in block b (gone, and r's list).
func (d *deadState) addGone(r ir.RegID, b ir.BlockID) {
	d.gone = append(d.gone, core.RegBlock{Reg: r, Block: b})
	d.goneNext = append(d.goneNext, d.goneHead[r])
	d.goneHead[r] = int32(len(d.gone) - 1)
}

// remove deletes i (with register references refs) for the cascade and
// seeds the registers it read in its block (a PHI's: at the ends of
// their predecessors), or queues them for the whole-range analysis once
// the walks have handed over.
func (d *deadState) remove(f *ir.Func, i ir.InstrID, refs []core.RegRef) {
	d.note(f, i, refs)
	if d.whole {
		for _, x := range refs {
			if !x.Def {
				d.queue(x.Reg)
			}
		}
	} else if f.Op[i] == ir.OpPhi {
		d.seedPhi(f, i)
	} else {
		b := f.Block[i]
		for _, x := range refs {
			if !x.Def {
				d.seeds = append(d.seeds, core.RegBlock{Reg: x.Reg, Block: b})
			}
		}
	}
	f.Remove(i)
}

// positions numbers each instruction within its block (d.pos), once per
// phase: the whole-range analysis and the liveness update order
// references by it.
func (d *deadState) positions(f *ir.Func) {
	if d.posValid {
		return
	}
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
	d.posValid = true
}

// The cascade's walks cost the instructions they look at, which is
// usually a few blocks around each seed; but a register whose remaining
// reads lie far from the seeds (a long live range, few reads) costs a
// walk or a search over the blocks in between, and where registers are
// reused for many values (before IntoSSA) a dead region can be most of
// the function. So the walks of one phase look at most at a quarter of
// the function's instructions (at least minScan) in all: a walk past
// that hands its register, and every register seeded after it, to the
// whole-range analysis (wholeRange), which costs the def-use chains once
// and then each register's references. On the generated
// 1M-instruction kernel (719K instruction slots at the second sweep) the
// walks of the second and fourth sweeps look at 87K and 41K instructions
// in all (one register's walk, live into 5.6K blocks, 27K of them); the
// first and third, on registers reused across the function, run out and
// finish the whole-range way, at both sizes.
const minScan = 1024 // (tests lower it to mix the two ways: testHooks.minScan)

// bigRefs: the whole-range worklist takes registers of more references
// than this after the others (wholeRange).
const bigRefs = 256

// cascade runs the seeds the sweep left (see liveDead), deleting what
// became dead, with the liveness before the deletions l; it returns how
// many more instructions it deleted. The seeds of one register are taken
// together (one walk), those the walks add in later rounds.
func (d *deadState) cascade(f *ir.Func, l *core.Liveness) int64 {
	n := int64(0)
	d.whole = d.wholeOnly
	for len(d.seeds) > 0 && !d.canceled {
		round := append(d.round[:0], d.seeds...)
		d.round, d.seeds = round, d.seeds[:0]
		slices.SortFunc(round, func(a, b core.RegBlock) int { return int(a.Reg) - int(b.Reg) })
		for k := 0; k < len(round); {
			if d.poll.stop() {
				d.canceled = true
				break
			}
			r := round[k].Reg
			m := k + 1
			for m < len(round) && round[m].Reg == r {
				m++
			}
			if !d.whole {
				del, ok := d.walk(f, l, r, round[k:m])
				n += del
				if !ok {
					d.whole = true
				}
			}
			if d.whole {
				d.queue(r)
			}
			k = m
		}
		if d.whole {
			for _, s := range d.seeds {
				d.queue(s.Reg)
			}
			d.seeds = d.seeds[:0]
		}
	}
	if d.whole && !d.canceled {
		n += d.wholeRange(f, l)
	}
	return n
}

// queue puts r on the whole-range worklist (once while it waits).
func (d *deadState) queue(r ir.RegID) {
	if !d.freed[r] {
		d.freed[r] = true
		d.work = append(d.work, r)
	}
}

// nextWalk starts a new stamp for visit, seedMark and notIn.
func (d *deadState) nextWalk() {
	d.wstamp++
	if d.wstamp == 0 {
		clear(d.visit)
		clear(d.seedMark)
		clear(d.notIn)
		d.wstamp = 1
	}
}

// walk handles the seeds of one register r, each a block c where r lost
// a read (or on the edge out of it). From the seeds' ends it walks up the
// blocks where r may have stopped being live: in each, r's liveness at
// the end is found again (liveOutNow), and the walk up the block deletes
// the definitions of r after which it is dead and that can go (with
// their other results dead too); where r is not live at a block's top,
// the predecessors that had r live at their end are walked too. A
// predecessor where r is still live at the end changes nothing. It
// returns how many instructions it deleted, and ok false when it ran
// past the phase's budget (r is then left to the whole-range analysis).
func (d *deadState) walk(f *ir.Func, l *core.Liveness, r ir.RegID, seeds []core.RegBlock) (n int64, ok bool) {
	d.nextWalk()
	d.wstack = d.wstack[:0]
	for _, s := range seeds {
		if d.seedMark[s.Block] != d.wstamp {
			d.seedMark[s.Block] = d.wstamp
			d.wstack = append(d.wstack, s.Block)
		}
	}
	for len(d.wstack) > 0 {
		x := d.wstack[len(d.wstack)-1]
		d.wstack = d.wstack[:len(d.wstack)-1]
		if d.visit[x] == d.wstamp {
			continue
		}
		d.visit[x] = d.wstamp
		live, ok := d.liveOutNow(f, l, r, x, true)
		if !ok {
			return n, false
		}
		if live && d.seedMark[x] != d.wstamp {
			continue
		}
		for i := f.BlockLast[x]; i != ir.NoInstr; {
			prev := f.Prev[i]
			if d.scanned++; d.scanned > d.scanBudget {
				return n, false
			}
			d.refs = core.AppendRegRefs(f, i, d.refs[:0])
			def, kill, read := false, false, false
			for _, y := range d.refs {
				if y.Reg != r {
					continue
				}
				if y.Def {
					def, kill = true, f.Guard[i] == ir.NoOperand
				} else if f.Op[i] != ir.OpPhi {
					read = true
				}
			}
			if def && !live && removable(f, i) {
				gone, ok := d.othersDead(f, l, r, i)
				if !ok {
					return n, false
				}
				if gone {
					d.remove(f, i, d.refs)
					n++
					i = prev
					continue
				}
			}
			if kill {
				live = false
			}
			if read {
				live = true
			}
			i = prev
		}
		if !live {
			if !d.moved[r] && l.IsLiveIn(x, r) {
				d.move(r) // no longer live into x
			}
			for _, q := range f.PredsOf(x) {
				if d.visit[q] != d.wstamp && l.IsLiveOut(q, r) {
					d.wstack = append(d.wstack, q)
				}
			}
		}
	}
	return n, true
}

// othersDead reports whether every register instruction i defines other
// than r is dead after i (ok false: a search ran out of budget).
func (d *deadState) othersDead(f *ir.Func, l *core.Liveness, r ir.RegID, i ir.InstrID) (dead, ok bool) {
	for _, y := range d.refs {
		if !y.Def || y.Reg == r {
			continue
		}
		live, ok := d.liveAfterNow(f, l, y.Reg, i)
		if !ok || live {
			return false, ok
		}
	}
	return true, true
}

// liveAfterNow reports whether r is live just after instruction i, in the
// function as it is now (ok false: the search ran out of budget).
func (d *deadState) liveAfterNow(f *ir.Func, l *core.Liveness, r ir.RegID, i ir.InstrID) (live, ok bool) {
	for j := f.Next[i]; j != ir.NoInstr; j = f.Next[j] {
		switch d.firstRef(f, r, j) {
		case refRead:
			return true, true
		case refKill:
			return false, true
		}
	}
	return d.liveOutNow(f, l, r, f.Block[i], false)
}

const (
	refNone = iota
	refRead
	refKill
)

// firstRef says how instruction j refers to r: a read (a PHI's operands
// are read on the edges into its block, not here), else a killing
// definition, else neither.
func (d *deadState) firstRef(f *ir.Func, r ir.RegID, j ir.InstrID) int {
	d.refs2 = core.AppendRegRefs(f, j, d.refs2[:0])
	k := refNone
	for _, y := range d.refs2 {
		if y.Reg != r {
			continue
		}
		if !y.Def {
			if f.Op[j] != ir.OpPhi {
				return refRead
			}
		} else if f.Guard[j] == ir.NoOperand {
			k = refKill
		}
	}
	return k
}

// liveOutNow reports whether r is live at the end of block b in the
// function as it is now: a forward search through the blocks r was live
// into before the deletions (it is live into no other now) for a read
// before any killing definition, a PHI reading it on an edge taken, or
// an exit when it is live at exit. ok is false when the search went past
// the phase's budget (minScan). The walk's own register (walkReg)
// keeps what a search that found nothing met: those blocks are not live
// in, now or after any later deletion.
func (d *deadState) liveOutNow(f *ir.Func, l *core.Liveness, r ir.RegID, b ir.BlockID, walkReg bool) (live, ok bool) {
	if !l.IsLiveOut(b, r) {
		return false, true
	}
	d.qstamp++
	if d.qstamp == 0 {
		clear(d.qvisit)
		d.qstamp = 1
	}
	q := d.qstamp
	d.qstack = append(d.qstack[:0], b)
	d.met = d.met[:0]
	for len(d.qstack) > 0 {
		x := d.qstack[len(d.qstack)-1]
		d.qstack = d.qstack[:len(d.qstack)-1]
		succs := f.SuccsOf(x)
		if len(succs) == 0 && d.atExit[r] {
			return true, true
		}
		for _, s := range succs {
			if phiReads(f, s, r, x) {
				return true, true
			}
		}
		for _, s := range succs {
			if d.qvisit[s] == q || walkReg && d.notIn[s] == d.wstamp {
				continue
			}
			d.qvisit[s] = q
			d.met = append(d.met, s)
			if !l.IsLiveIn(s, r) {
				continue
			}
			through := true
			for j := f.BlockFirst[s]; j != ir.NoInstr; j = f.Next[j] {
				if d.scanned++; d.scanned > d.scanBudget {
					return false, false
				}
				k := d.firstRef(f, r, j)
				if k == refRead {
					return true, true
				}
				if k == refKill {
					through = false
					break
				}
			}
			if through {
				d.qstack = append(d.qstack, s)
			}
		}
	}
	if walkReg {
		for _, s := range d.met {
			d.notIn[s] = d.wstamp
		}
	}
	return false, true
}

// phiReads reports whether a PHI of block s reads r on the edge from p.
func phiReads(f *ir.Func, s ir.BlockID, r ir.RegID, p ir.BlockID) bool {
	for i := f.BlockFirst[s]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
		ops := f.Ops(i)
		for k := 1; k+1 < len(ops); k += 2 {
			if ops[k].IsReg() && ops[k].Reg() == r && ir.BlockID(ops[k+1].Index()) == p {
				return true
			}
		}
	}
	return false
}

// wholeRange runs the whole-range worklist (see minScan): for each
// register, its references from the def-use chains (asked of the cache:
// built now if it holds none; deleted instructions in them are skipped),
// where it is live from them (analyze), and every definition after which
// it is dead deleted where it can go, queueing the registers those read.
// It returns how many instructions it deleted.
func (d *deadState) wholeRange(f *ir.Func, l *core.Liveness) int64 {
	du := d.a.DefUse()
	d.positions(f)
	n := int64(0)
	for !d.canceled {
		if len(d.work) == 0 {
			if len(d.big) == 0 {
				break
			}
			// The registers of many references, once nothing else
			// waits: each costs its references, and taken while the
			// instructions reading it still go one by one, it would
			// come back after each.
			d.work, d.big = append(d.work, d.big...), d.big[:0]
			d.bigNow = true
		}
		if d.poll.stop() {
			d.canceled = true
			break
		}
		r := d.work[len(d.work)-1]
		d.work = d.work[:len(d.work)-1]
		if !d.bigNow && len(du.Uses(r))+len(du.Defs(r)) > bigRefs {
			d.big = append(d.big, r) // still waiting (freed)
			continue
		}
		if len(d.work) == 0 {
			d.bigNow = false
		}
		d.freed[r] = false
		d.analyze(f, du, r)
		if !d.moved[r] {
			if d.wholeShrank(l, r) {
				d.move(r)
			} else {
				d.spared++
			}
		}
		// Definitions of r whose next reference in their block is a
		// killing definition, or that have none and r is not live out.
		for k, x := range d.rr {
			if x.use || f.IsDead(x.instr) || !removable(f, x.instr) || d.rrLiveAfter(k) {
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
				d.remove(f, i, d.refs)
				n++
			}
		}
	}
	return n
}

// wholeShrank reports whether r, just analyzed (analyze: inMark), may
// have stopped being live into a block it was live into before the
// deletions (l), so that keepAnalyses passes it on to Shrink. Shrink
// would clear r only in blocks reached by a backward walk from r's
// deleted reads that starts at those still live in before and stops at
// those live in now; so r changed iff one of those blocks was live in
// before and is not now, which inMark (r's live-in blocks now, found
// from its remaining references) answers per block, for the cost of r's
// deleted reads, where Shrink would search r's live range again (on the
// generated 1M-instruction kernel, thousands of blocks for each of
// hundreds of registers that the analysis already found unchanged).
// Registers live at exit or read by a PHI are always passed on: analyze
// places a PHI's read in the PHI's block, the liveness at the end of the
// predecessor.
func (d *deadState) wholeShrank(l *core.Liveness, r ir.RegID) bool {
	if d.atExit[r] || d.rrPhi {
		return true
	}
	for k := d.goneHead[r]; k >= 0; k = d.goneNext[k] {
		b := d.gone[k].Block
		if d.inMark[b] != d.stamp && l.IsLiveIn(b, r) {
			return true
		}
	}
	return false
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
	d.rr, d.rrPhi = d.rr[:0], false
	add := func(x core.Ref, use bool) {
		j := x.Instr
		if f.IsDead(j) || f.Block[j] == ir.NoBlock {
			return
		}
		if use && f.Op[j] == ir.OpPhi {
			d.rrPhi = true
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
