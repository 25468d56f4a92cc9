package phases

import (
	"cmp"
	"slices"

	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Live-range splitting by rematerialization (seed 002: OriSplitLiveRanges,
// phase 19, and its late sibling OriSplitHighPressureLiveRanges, phase
// 138).
//
// A value defined before a loop (or a high-pressure region) and read only
// after it occupies a register across the whole region. The seeds split
// such a live range: the value is given anew near its distant uses, so
// the register is free in between. ptxopt prints virtual registers, and a
// split that only copies the value (a copy before the region, another
// after it) keeps it live in the copy: what frees the register is to
// compute the value again where it is used. That is done for values that
// are cheap and safe to compute anywhere they are used:
//
//   - reads of special registers whose value is fixed for the thread
//     (%tid, %ntid, %ctaid, %nctaid, ...; not clocks, %warpid or %smid,
//     which the IR marks volatile),
//   - moves of an immediate or of a symbol's address, cvta of a symbol,
//   - ld.param of the kernel's own parameters (memory nothing writes),
//   - single-cycle integer ALU instructions (mov, cvta, setp, add, sub,
//     shifts, logic, mul, bfe, cvt between integers) over such operands or
//     over registers that are live at the new point anyway (so recomputing
//     does not lengthen their lives).
//
// Soundness of recomputing v = op(r...) at a use u: v has one definition
// d, unguarded, which dominates u; each source register r has one
// unguarded definition that dominates d. Then on every path the last
// execution of d comes after the last execution of each r's definition
// (a path from r's definition to u that skipped d, prefixed by a shortest
// path to r's definition, which cannot pass d since r's definition
// dominates d, would reach u without d), so r holds at u the value d
// read, and op(r...) at u is v.
//
// The new definition writes the same register v right before the first
// use of each block that reads v (other than d's own block, whose uses
// after d keep reading d): v then lives only inside blocks, from a
// definition to the last use after it, and is live into no block. Where
// d's block no longer reads v, d is dead and the next dead-code sweep
// removes it.
//
// A register source that is not live at a recomputation point may be
// computed again there too when it is a leaf (a cheap value of no
// register, no wider than v): a chain of two, as a pointer parameter's
// ld.param and cvta.to.global; otherwise, when it is narrower than v, it
// is kept live to the sites in v's place (splitlive_sink.go: narrower
// sources). A definition may also move down its own block to its first
// reader, past points at the maximum (splitlive_sink.go: sinks); the
// cover below weighs these with the recomputations. What the seeds also do — split a value
// that is not cheap with a copy into a new register at a loop boundary —
// is not done: in printed PTX the copy keeps the value live, so it lowers
// nothing here.
//
// Where to split (the seeds' per-register bit vectors and probes). Each
// round measures the pressure at every instruction (one liveness, one
// trace: core.PressureTrace, data and predicates as the register cap
// counts them) and finds the hot points, the instructions where a class
// reaches its maximum. Each hot point is a constraint: the maximum of the
// class falls only if, at every hot point, some value stops being live.
// After the split a candidate v lives, in a block other than its
// definition's, only from the recomputation before its first reference
// there to its last reference, and in its definition's block from the
// definition to its last use; so v, live at a hot point h now, is free
// there afterwards when h lies outside the span of v's references in h's
// block. Per candidate the pass keeps the set of constraints it frees as
// a bit vector over the constraints — the seeds' live-through set of a
// virtual register, restricted to the hot points — and covers the
// constraints of each class greedily: the first uncovered constraint is
// probed with a single bit test of each candidate's set before the full
// intersection (Intersects, the first common constraint) and the count
// of newly covered ones; a candidate's gain divided by the instructions
// it adds decides, and the class is covered when its constraints are a
// subset of the covered ones (IsSubsetOf). A class with a constraint no
// candidate frees, or whose cover would exceed the budget, is left alone
// in that round (lowering the other points would add instructions for
// nothing). The chosen splits are made together, the analyses dropped,
// and the next round measures again. A round's splits lower each class
// they cover by at least one register: every point at the maximum loses a
// live value, and no point gains one (a recomputation sits right before a
// reference whose own point held v already, and its register sources are
// live there; a chain's leaf stands in for v, no wider, before v is
// defined; a narrower source kept live stands in for v, and where both
// are live it stays below the maximum; a sunk definition sits where its
// value was live already). The rounds stop when no class has a cover, every class is at
// or below the register budget (PressureBudgetR or TargetOccupancy's for
// data, PressureBudgetP for predicates; none by default), after
// maxSplitRounds, or when the knob SplitLiveRangesBudget (instructions
// added per function) is spent.

// maxSplitRounds bounds the rounds of one run (each costs a liveness and
// a trace of the function).
const maxSplitRounds = 8

// maxSplitSites is the most blocks one value is recomputed in: a value
// read in many places is not cheap to give anew everywhere.
const maxSplitSites = 4

// maxSplitRoundCost is the most instructions one round may add: a round
// lowers each class it covers by one register (more where a 64-bit value
// goes), and past that many instructions a register is not worth them
// (on the -O0 quality suite the rounds cost 1 to 6; softmax_row, which
// one of 8 recomputed instructions lowered by one register, gets there
// for 1 by keeping a narrower source live and moving a load down its
// block).
const maxSplitRoundCost = 6

// maxSplitConstraints bounds the hot points one round looks at: a
// function whose maximum is reached at more points than that has a flat
// profile that a few splits cannot lower.
const maxSplitConstraints = 1024

// splitCand is a value the pass may recompute.
type splitCand struct {
	reg   ir.RegID
	def   ir.InstrID
	sites int32 // blocks it is recomputed in
	slots int32 // 32-bit slots of its register
	class ir.File
	cost  int32 // instructions it adds, net of its definition when that dies
	nsrc  int8
	srcs  [4]ir.RegID // register sources (live at every site)
	// chain: register sources computed again before it at every site
	nchain int8
	chain  [2]ir.RegID
	// next: how many of srcs (the last ones) are not live at the sites
	// and are kept live to them instead (narrower than the value: see
	// "Narrower sources" in splitlive_sink.go)
	next int8
	// sink: a move of def down its block to just before to (no new
	// instruction; splitlive_sink.go), freeing the points from its
	// position to to's
	sink bool
	to   ir.InstrID
}

// splitter holds one run's state; its arrays are borrowed from the
// pass's scratch arena or reused between rounds.
type splitter struct {
	p    *Pass
	f    *ir.Func
	pos  []int32 // position of each instruction in its block
	lidx []int32 // position of each block in the layout
	live [2][]int32
	// bmax: per block and register file, the block's maximum (its
	// points' and its live-out set's: what the pressure walk returns);
	// the maximum of a class over the function is the larger of these
	// per file, summed over the class's files
	bmax  []int32
	state []int32 // per register: 0 unknown, -1 not a candidate, k+1 candidate k
	param []bool  // .reg parameters and return registers
	cands []splitCand
	refs  []core.RegRef
	regs  []ir.RegID
	ops   []ir.Operand
	// constraints: hot points, by class
	conBlock []ir.BlockID
	conClass []int8
	// pairs (constraint, candidate), grouped by constraint
	pairCon  []int32
	pairCand []int32
	hit      []int32 // per candidate: the constraint (+1) it was last paired with
	refLo    []int32 // per candidate: its first and last reference in that block (-1: none)
	refHi    []int32
	outOf    []bool // per candidate: live out of that block
	stamp    int32
	values   int // values split so far
	// the candidates live into or out of the block being looked at
	blockCands []int32
	chosen     []uint8 // per register: chosenSplit, chosenSource (of a split's recomputation)
	// max: this round's maximum per class; sinks: the block's sink
	// candidates (splitlive_sink.go); extPicked: a candidate with a
	// narrower source kept live is chosen this round (one per round)
	max       [2]int
	sinks     []int32
	extPicked bool
	sunk      int // values moved down their block
	narrowed  int // values whose narrower source is kept live instead
	sinkRefs  []core.RegRef
	hotPos    []int32
	// the pressure walk: its walker (kept for the next run) and its
	// callback, which records each instruction's pressure in live
	pw *core.PressureWalker
	at func(i ir.InstrID, live [ir.NumFiles]int)
	// what the round's splits edited, for refresh (splitlive_update.go)
	upd splitUpdate
}

// splitLiveRanges is OriSplitLiveRanges: the conservative form, run early
// (before SSA construction) on the values live across loops: it lowers
// the maximum of a class only where the hot points lie inside loops.
func splitLiveRanges(p *Pass) bool { return runSplit(p, true) }

// splitHighPressure is OriSplitHighPressureLiveRanges: the late form, on
// every hot point of the function, after the last phase that commons
// values again.
func splitHighPressure(p *Pass) bool { return runSplit(p, false) }

func runSplit(p *Pass, loopsOnly bool) bool {
	f := p.F
	if !f.HasBody || f.NumBlocks() == 0 {
		return false
	}
	if loopsOnly && len(p.A.Loops().Loops) == 0 {
		// Without a loop every block has depth 0: round marks each hot
		// class dead before it gathers a constraint, and picks nothing.
		// (The loops are usually cached from OriUnrollLoops; the trace
		// of the whole function is what this skips.)
		return false
	}
	s := newSplitter(p, f)
	budget := p.Knobs.Budget(SplitLiveRangesBudget)
	// The target per class: the register budget (below it, fewer
	// registers do not let more threads run).
	target := [2]int{budgetR(p.Knobs), int(p.Knobs.Int(PressureBudgetP))}
	changed := false
	var before, after [2]int
	split, rounds := int64(0), int64(0)
	max := s.measure()
	before = max
	for round := 0; ; round++ {
		after = max
		if round == maxSplitRounds || split >= budget || p.Canceled() {
			break
		}
		var want [2]bool
		for c := range want {
			want[c] = max[c] > target[c] && max[c] > 0
		}
		if !want[0] && !want[1] {
			break
		}
		picked, added := s.round(max, want, loopsOnly, budget-split)
		if picked == 0 {
			break
		}
		split += added
		rounds++
		changed = true
		max = s.refresh()
	}
	// Every analysis the cache holds now describes the function after
	// the last round's edits: the CFG analyses (no edge changed), the
	// def-use chains and the liveness (each round's refresh brings them
	// up to date, or drops the liveness and solves it again), and
	// nothing else (refresh drops uniformity and pressure). The
	// pipeline's table declares them preserved (PreserveAll), so the
	// chains and the liveness serve the phases after this one (IntoSSA
	// after OriSplitLiveRanges) as they do when nothing was split.
	if changed {
		// What the run did and the maximum live registers per class
		// before and after it (data: R and UR; predicates: P and UP).
		p.Count("values rematerialized", int64(s.values-s.sunk))
		if s.sunk > 0 {
			p.Count("values sunk within their block", int64(s.sunk))
		}
		if s.narrowed > 0 {
			p.Count("narrower sources kept live", int64(s.narrowed))
		}
		p.Count("instructions added", split)
		p.Count("rounds that lowered the maximum", rounds)
		p.Count("max live R+UR before", int64(before[0]))
		p.Count("max live R+UR after", int64(after[0]))
		p.Count("max live P+UP before", int64(before[1]))
		p.Count("max live P+UP after", int64(after[1]))
	}
	return changed
}

// classOf maps a register file of the liveness (R, P) to the pass's
// class index.
func classIdx(k ir.File) int {
	if k == ir.FileP || k == ir.FileUP {
		return 1
	}
	return 0
}

// measure numbers the instructions and traces the pressure of the whole
// function, returning the maximum per class (0: data, 1: predicates).
// Rounds after the first bring what they edited up to date instead
// (refresh).
func (s *splitter) measure() [2]int {
	f := s.f
	n := f.NumInstrs()
	s.pos = grow32(s.pos, n)
	s.live[0] = grow32(s.live[0], n)
	s.live[1] = grow32(s.live[1], n)
	nb := f.NumBlocks()
	s.lidx = grow32(s.lidx, nb)
	s.bmax = grow32(s.bmax, nb*int(ir.NumFiles))
	for k, b := range f.Layout {
		s.lidx[b] = int32(k)
		s.number(b)
	}
	s.startTrace()
	for _, b := range f.Layout {
		s.traceBlock(b)
	}
	return s.maxima()
}

// number gives the instructions of b their positions in it.
func (s *splitter) number(b ir.BlockID) {
	f := s.f
	k := int32(0)
	for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
		s.pos[i] = k
		k++
	}
}

// place orders instructions as the layout does.
func (s *splitter) place(i ir.InstrID) uint64 {
	return uint64(s.lidx[s.f.Block[i]])<<32 | uint64(uint32(s.pos[i]))
}

// startTrace readies the pressure walker over the current liveness (the
// walk PressureTrace makes, block by block).
func (s *splitter) startTrace() {
	s.pw = core.NewPressureWalkerInto(s.pw, s.p.A.Liveness(), nil)
	if s.at == nil {
		s.at = func(i ir.InstrID, live [ir.NumFiles]int) {
			s.live[0][i] = int32(live[ir.FileR] + live[ir.FileUR])
			s.live[1][i] = int32(live[ir.FileP] + live[ir.FileUP])
		}
	}
}

// traceBlock records the pressure at every instruction of b and b's
// maximum per file.
func (s *splitter) traceBlock(b ir.BlockID) {
	q := s.pw.Block(b, s.at)
	for k := range ir.NumFiles {
		s.bmax[int(b)*int(ir.NumFiles)+int(k)] = int32(q.Max[k])
	}
}

// maxima returns the maximum per class over the function, as
// PressureTrace's maxima per file give it.
func (s *splitter) maxima() [2]int {
	var m [ir.NumFiles]int32
	for _, b := range s.f.Layout {
		for k, x := range s.bmax[int(b)*int(ir.NumFiles) : int(b+1)*int(ir.NumFiles)] {
			m[k] = max(m[k], x)
		}
	}
	return [2]int{int(m[ir.FileR] + m[ir.FileUR]), int(m[ir.FileP] + m[ir.FileUP])}
}

// bound is the most slots of class c live at any point of b (the sum of
// b's maxima of the class's files; for an empty block, its live-out
// slots of the class).
func (s *splitter) bound(b ir.BlockID, c int) int {
	m := s.bmax[int(b)*int(ir.NumFiles) : int(b+1)*int(ir.NumFiles)]
	if c == 1 {
		return int(m[ir.FileP] + m[ir.FileUP])
	}
	return int(m[ir.FileR] + m[ir.FileUR])
}

// newSplitter returns the splitter of a run on f: the worker's one,
// emptied, when the pass has a Scratch (its arrays grown by earlier runs
// are reused; every round resets what it reads), else a new one.
func newSplitter(p *Pass, f *ir.Func) *splitter {
	sc := p.Scratch
	if sc == nil {
		return &splitter{p: p, f: f}
	}
	o := sc.split
	if o == nil {
		o = &splitter{}
		sc.split = o
	}
	*o = splitter{p: p, f: f,
		pos: o.pos, lidx: o.lidx, bmax: o.bmax, pw: o.pw, at: o.at, live: o.live, state: o.state, param: o.param, chosen: o.chosen,
		upd:   o.upd.reuse(),
		cands: o.cands[:0], refs: o.refs[:0], regs: o.regs[:0], ops: o.ops[:0],
		conBlock: o.conBlock[:0], conClass: o.conClass[:0], pairCon: o.pairCon[:0], pairCand: o.pairCand[:0],
		hit: o.hit[:0], refLo: o.refLo[:0], refHi: o.refHi[:0], outOf: o.outOf[:0],
		blockCands: o.blockCands[:0], sinks: o.sinks[:0], sinkRefs: o.sinkRefs[:0], hotPos: o.hotPos[:0]}
	return o
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// round finds this round's constraints and candidates, chooses a cover
// per class and makes the splits; it returns how many values it split
// (0: nothing to do) and the instructions that adds, net of definitions
// left dead.
func (s *splitter) round(max [2]int, want [2]bool, loopsOnly bool, budget int64) (int, int64) {
	f, a := s.f, s.p.A
	l := a.Liveness()
	s.max = max
	var loops *core.Loops
	if loopsOnly {
		loops = a.Loops()
	}
	nr := f.NumRegs()
	if cap(s.state) < nr {
		s.state = make([]int32, nr)
		s.param = make([]bool, nr)
	}
	s.state = s.state[:nr]
	clear(s.state)
	s.param = s.param[:nr]
	clear(s.param)
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if r, ok := f.ParamReg(id); ok {
				s.param[r] = true
			}
		}
	}
	s.cands = s.cands[:0]
	clear(s.hit)
	s.stamp = 0
	s.conBlock, s.conClass = s.conBlock[:0], s.conClass[:0]
	s.pairCon, s.pairCand = s.pairCon[:0], s.pairCand[:0]
	var dead [2]bool // a class with a constraint no candidate frees
	for _, b := range f.Layout {
		for c := range 2 {
			if !want[c] || dead[c] {
				continue
			}
			// Does class c reach its maximum in b? Not where b's bound
			// is below it (an empty block's bound is its live-out
			// slots).
			if s.bound(b, c) < max[c] {
				continue
			}
			hot := false
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if int(s.live[c][i]) == max[c] {
					hot = true
					break
				}
			}
			if !hot && (f.BlockFirst[b] != ir.NoInstr || s.outSlots(l, b, c) < max[c]) {
				continue
			}
			if loopsOnly && loops.Depth(b) == 0 {
				dead[c] = true // a hot point outside loops: not this form's job
				continue
			}
			if !s.constraints(l, b, c, max[c]) {
				dead[c] = true
			}
			if len(s.conBlock) > maxSplitConstraints {
				return 0, 0
			}
		}
	}
	// Drop the constraints of dead classes (and their pairs).
	nc := len(s.conBlock)
	sc := s.p.Scratch
	need := sc.Bits(nc)
	for k := range nc {
		if !dead[s.conClass[k]] {
			need.Set(k)
		}
	}
	if need.IsEmpty() {
		return 0, 0
	}
	// Each candidate's set of constraints it frees.
	slab := bitvec.NewSlab(nc, len(s.cands))
	for k, con := range s.pairCon {
		slab.Get(int(s.pairCand[k])).Set(int(con))
	}
	covered := sc.Bits(nc)
	uncov := sc.Bits(nc)
	tmp := sc.Bits(nc)
	classNeed := sc.Bits(nc)
	if cap(s.chosen) < nr {
		s.chosen = make([]uint8, nr)
	}
	s.chosen = s.chosen[:nr]
	clear(s.chosen)
	s.extPicked = false
	var picked []int32
	added := int64(0)
	// Predicates first (a predicate's recomputation reads data registers,
	// which the data class's cover must then leave alone), then data; a
	// class whose cover fails (no compatible candidate left for some
	// constraint, or over the budget) keeps none of its picks.
	for _, c := range [2]int8{1, 0} {
		classNeed.Copy(need)
		for k := range nc {
			if s.conClass[k] != c {
				classNeed.ClearBit(k)
			}
		}
		if classNeed.IsEmpty() {
			continue
		}
		mark, markAdded := len(picked), added
		ok := true
		for !classNeed.IsSubsetOf(covered) {
			uncov.Copy(classNeed)
			uncov.AndNot(covered)
			first := uncov.NextSet(0)
			best, bestScore := -1, 0.0
			for k := range s.cands {
				v := slab.Get(k)
				// The single-bit probe: a candidate that does not free
				// the first uncovered constraint is skipped before the
				// full intersection.
				if !v.Test(first) || !s.compatible(&s.cands[k]) {
					continue
				}
				if v.Intersects(uncov) < 0 {
					continue
				}
				tmp.AssignAnd(v, uncov)
				// (2·cost+1: a split that adds nothing, d moving to
				// its one remote use, still ranks by its gain)
				gain := float64(tmp.PopCount()) / float64(2*s.cands[k].cost+1)
				if best < 0 || gain > bestScore || gain == bestScore && s.cands[k].slots > s.cands[best].slots {
					best, bestScore = k, gain
				}
			}
			if best < 0 || added+int64(s.cands[best].cost) > min(budget, maxSplitRoundCost) {
				ok = false
				break
			}
			added += int64(s.cands[best].cost)
			picked = append(picked, int32(best))
			covered.Or(slab.Get(best))
			s.mark(&s.cands[best])
		}
		if !ok {
			picked, added = picked[:mark], markAdded
			clear(s.chosen)
			s.extPicked = false
			covered.Clear()
			for _, k := range picked {
				s.mark(&s.cands[k])
				covered.Or(slab.Get(int(k)))
			}
		}
	}
	if len(picked) == 0 {
		return 0, 0
	}
	for _, k := range picked {
		c := &s.cands[k]
		s.apply(c)
		if c.sink {
			s.sunk++
		} else if c.next > 0 {
			s.narrowed++
		}
	}
	s.values += len(picked)
	return len(picked), added
}

// mark records c as chosen.
func (s *splitter) mark(c *splitCand) {
	s.chosen[c.reg] = chosenSplit
	if c.next > 0 {
		s.extPicked = true
	}
	for _, r := range c.srcs[:c.nsrc] {
		s.chosen[r] = chosenSource
	}
}

// compatible reports whether c may be split together with the values
// chosen so far: a recomputation reads its sources under their names, so
// no chosen value may be a source of c, and c may not be a source of a
// chosen one (its old value would no longer reach that recomputation).
func (s *splitter) compatible(c *splitCand) bool {
	if s.chosen[c.reg] != 0 || c.next > 0 && s.extPicked {
		return false
	}
	for _, r := range c.srcs[:c.nsrc] {
		if s.chosen[r] == chosenSplit {
			return false
		}
	}
	return true
}

const (
	chosenSplit  = 1
	chosenSource = 2
)

// outSlots is the slots of class c live out of b.
func (s *splitter) outSlots(l *core.Liveness, b ir.BlockID, c int) int {
	n := 0
	s.regs = l.LiveOutRegs(b, s.regs[:0])
	for _, r := range s.regs {
		if classIdx(ir.FileOf(s.f.RegType[r], false)) == c {
			n += core.RegSlots(s.f, r)
		}
	}
	return n
}

// constraints records the hot points of class c in block b (those at
// its maximum m; when b is empty, its end, where its live-out set is at
// the maximum) with the candidates that free each. It reports false when
// one of them has none.
//
// After the split a candidate v lives in a block other than its
// definition's only from the recomputation right before its first
// reference there to its last, and in its definition's block from the
// definition to its last use; it is live into no block. So v, live at a
// hot point h now, is free there afterwards when h lies outside the span
// of its references in b. The recomputation itself sits at the point
// right before the first reference, which holds what that reference's own
// point held: a hot point there is a constraint too, which another
// value must free.
func (s *splitter) constraints(l *core.Liveness, b ir.BlockID, c int, m int) bool {
	f := s.f
	// Candidates of class c live into or out of b.
	s.blockCands = s.blockCands[:0]
	s.stamp++
	s.regs = l.LiveOutRegs(b, s.regs[:0])
	nout := len(s.regs)
	s.regs = l.LiveInRegs(b, s.regs)
	for n, r := range s.regs {
		if classIdx(ir.FileOf(f.RegType[r], false)) != c {
			continue
		}
		k := s.candidate(r)
		if k < 0 {
			continue
		}
		if len(s.hit) < len(s.cands) {
			grow := len(s.cands) - len(s.hit)
			s.hit = append(s.hit, make([]int32, grow)...)
			s.refLo = append(s.refLo, make([]int32, grow)...)
			s.refHi = append(s.refHi, make([]int32, grow)...)
			s.outOf = append(s.outOf, make([]bool, grow)...)
		}
		if s.hit[k] == s.stamp {
			s.outOf[k] = s.outOf[k] || n < nout
			continue // live in and out: listed once
		}
		s.hit[k] = s.stamp
		s.refLo[k], s.refHi[k] = -1, -1
		s.outOf[k] = n < nout
		s.blockCands = append(s.blockCands, int32(k))
	}
	s.sinkCands(l, b, c, m)
	if len(s.blockCands) == 0 && len(s.sinks) == 0 {
		return false
	}
	if f.BlockFirst[b] == ir.NoInstr {
		// An empty block: every value live out of it is free there.
		con := int32(len(s.conBlock))
		s.conBlock = append(s.conBlock, b)
		s.conClass = append(s.conClass, int8(c))
		for _, k := range s.blockCands {
			s.pairCon = append(s.pairCon, con)
			s.pairCand = append(s.pairCand, k)
		}
		return true
	}
	// The first and last reference of each candidate in b.
	for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
		s.refs = core.AppendRegRefs(f, i, s.refs[:0])
		for _, x := range s.refs {
			if st := s.state[x.Reg]; st > 0 && s.hit[st-1] == s.stamp {
				k := st - 1
				if s.refLo[k] < 0 {
					s.refLo[k] = s.pos[i]
				}
				s.refHi[k] = s.pos[i]
			}
		}
	}
	for h := f.BlockFirst[b]; h != ir.NoInstr; h = f.Next[h] {
		if int(s.live[c][h]) != m {
			continue
		}
		con := int32(len(s.conBlock))
		s.conBlock = append(s.conBlock, b)
		s.conClass = append(s.conClass, int8(c))
		ph := s.pos[h]
		start := len(s.pairCon)
		for _, k := range s.blockCands {
			lo, hi := s.refLo[k], s.refHi[k]
			var free bool
			if f.Block[s.cands[k].def] == b {
				// Live from the definition (a reference) to the last one.
				free = ph > hi
			} else {
				live := s.outOf[k] || lo >= 0 && ph <= hi
				free = live && (lo < 0 || ph < lo || ph > hi)
			}
			if free {
				s.pairCon = append(s.pairCon, con)
				s.pairCand = append(s.pairCand, k)
			}
		}
		for _, k := range s.sinks {
			// free from the definition's place to the one before to's
			if sc := &s.cands[k]; s.pos[sc.def] <= ph && ph < s.pos[sc.to] {
				s.pairCon = append(s.pairCon, con)
				s.pairCand = append(s.pairCand, k)
			}
		}
		if len(s.pairCon) == start {
			return false
		}
		if len(s.conBlock) > maxSplitConstraints {
			return true
		}
	}
	return true
}

// candidate returns the candidate index of register r, or -1 when r's
// value cannot be recomputed at its uses (decided once per round).
func (s *splitter) candidate(r ir.RegID) int {
	if st := s.state[r]; st != 0 {
		return int(st) - 1
	}
	s.state[r] = -1
	f, a := s.f, s.p.A
	if s.param[r] || f.RegVec[r] != 0 {
		return -1
	}
	du := a.DefUse()
	defs := du.Defs(r)
	if len(defs) != 1 || defs[0].Loc.InList() || defs[0].Loc.IsGuard() {
		return -1
	}
	d := defs[0].Instr
	if !s.rematerializable(d, r) {
		return -1
	}
	dom := a.Dom()
	bd := f.Block[d]
	// Register sources: one unguarded definition dominating d.
	s.refs = core.AppendRegRefs(f, d, s.refs[:0])
	var srcBuf [4]ir.RegID
	srcs := srcBuf[:0]
	for _, x := range s.refs {
		if x.Def {
			continue
		}
		if x.Reg == r || len(srcs) == len(srcBuf) {
			return -1
		}
		sd := du.Defs(x.Reg)
		if len(sd) != 1 || f.Guard[sd[0].Instr] != ir.NoOperand || s.param[x.Reg] {
			return -1
		}
		si := sd[0].Instr
		if sb := f.Block[si]; !(dom.StrictlyDominates(sb, bd) || sb == bd && s.pos[si] < s.pos[d]) {
			return -1
		}
		srcs = append(srcs, x.Reg)
	}
	// Uses: after d in its block, else in blocks d dominates; one site
	// per block.
	l := a.Liveness()
	var siteBuf [maxSplitSites]ir.InstrID
	sites := siteBuf[:0]
	usedAtHome := false // read in d's block after d
	lastBlock := ir.NoBlock
	for _, u := range du.Uses(r) {
		ub := f.Block[u.Instr]
		if ub == bd {
			if s.pos[u.Instr] <= s.pos[d] {
				return -1
			}
			usedAtHome = true
			continue
		}
		if !dom.StrictlyDominates(bd, ub) {
			return -1
		}
		if ub == lastBlock {
			continue // uses are in layout order: not the block's first
		}
		lastBlock = ub
		if len(sites) == maxSplitSites {
			return -1
		}
		sites = append(sites, u.Instr)
	}
	if len(sites) == 0 {
		return -1
	}
	// Each register source must be live right before every site, or be
	// a leaf (a cheap value of no register) computed again there too:
	// a chain of two, as a pointer parameter's ld.param and cvta.
	var chainBuf [2]ir.RegID
	chain := chainBuf[:0]
	slots := core.RegSlots(f, r)
	var extBuf [4]ir.RegID
	ext := extBuf[:0]
	extSlots := 0
	j := 0
	for _, src := range srcs {
		live := true
		for _, u := range sites {
			if !s.liveBefore(l, src, u) {
				live = false
				break
			}
		}
		if live {
			srcs[j] = src
			j++
			continue
		}
		if len(chain) < len(chainBuf) && s.leaf(src, slots) {
			chain = append(chain, src)
			continue
		}
		// kept live to the sites instead (splitlive_sink.go)
		if classIdx(ir.FileOf(f.RegType[src], false)) != classIdx(ir.FileOf(f.RegType[r], false)) || f.RegVec[src] != 0 {
			return -1
		}
		ext = append(ext, src)
		extSlots += core.RegSlots(f, src)
	}
	srcs = srcs[:j]
	if len(ext) > 0 {
		if extSlots >= slots || !s.homeRoom(d, r, extSlots) {
			return -1
		}
		srcs = append(srcs, ext...)
	}
	// The instructions the split adds: a recomputation (and its chain)
	// per site, less d itself where its block no longer reads v (the
	// last dead-code sweep removes it).
	cost := len(sites) * (1 + len(chain))
	if !usedAtHome {
		cost--
	}
	k := len(s.cands)
	c := splitCand{reg: r, def: d, sites: int32(len(sites)), cost: int32(cost), slots: int32(slots),
		class: ir.File(classIdx(ir.FileOf(f.RegType[r], false))), nsrc: int8(len(srcs)), nchain: int8(len(chain)), next: int8(len(ext))}
	copy(c.srcs[:], srcs)
	copy(c.chain[:], chain)
	s.cands = append(s.cands, c)
	s.state[r] = int32(k + 1)
	return k
}

// leaf reports whether register r (a source of a value of slots slots)
// may be computed again before that value's recomputations: one
// unguarded definition (it dominates the value's, checked by the
// caller), rematerializable, with no register source, and no wider than
// the value (at the new point it stands in for the value, which is not
// live yet).
func (s *splitter) leaf(r ir.RegID, slots int) bool {
	f := s.f
	if s.param[r] || f.RegVec[r] != 0 || core.RegSlots(f, r) > slots {
		return false
	}
	defs := s.p.A.DefUse().Defs(r)
	if len(defs) != 1 || defs[0].Loc.InList() || defs[0].Loc.IsGuard() {
		return false
	}
	d := defs[0].Instr
	if !s.rematerializable(d, r) {
		return false
	}
	for _, o := range f.Ops(d) {
		if o.Kind() == ir.KReg && !o.IsDef() {
			return false
		}
		if o.Kind() == ir.KAddr {
			for _, e := range f.ListElems(f.Addrs[o.Index()].Elems) {
				if e.Kind() == ir.KReg {
					return false
				}
			}
		}
	}
	return true
}

// liveBefore reports whether r is live right before u: live out of u's
// block, or read at or after u in it (r's one definition lies outside
// the block: it dominates d, which strictly dominates u's block).
func (s *splitter) liveBefore(l *core.Liveness, r ir.RegID, u ir.InstrID) bool {
	b := s.f.Block[u]
	if l.IsLiveOut(b, r) {
		return true
	}
	// The uses are in layout order: the first at or after u decides.
	uses := s.p.A.DefUse().Uses(r)
	pu := s.place(u)
	k, _ := slices.BinarySearchFunc(uses, pu, func(x core.Ref, p uint64) int { return cmp.Compare(s.place(x.Instr), p) })
	return k < len(uses) && s.f.Block[uses[k].Instr] == b
}

// rematerializable reports whether instruction d, defining r, may be
// executed again elsewhere: unguarded, one register result, and a cheap
// computation of values fixed for the thread.
func (s *splitter) rematerializable(d ir.InstrID, r ir.RegID) bool {
	f := s.f
	if f.Guard[d] != ir.NoOperand {
		return false
	}
	props := f.InstrProps(d)
	if props&(ir.PSideEffect|ir.PVolatile|ir.PConvergent|ir.PCarry) != 0 {
		return false
	}
	t := f.Type[d]
	switch f.Op[d] {
	case ir.OpLd:
		// ld.param of the kernel's own parameter: nothing writes it.
		if f.Space[d] != ir.SpaceParam || props&ir.PInvariant == 0 {
			return false
		}
	case ir.OpMov, ir.OpCvta:
	case ir.OpSetp:
		if t.IsFloat() {
			return false
		}
	case ir.OpAdd, ir.OpSub, ir.OpShl, ir.OpShr, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot, ir.OpMul, ir.OpBfe:
		if t.IsFloat() {
			return false
		}
	case ir.OpCvt:
		if t.IsFloat() || f.Type2[d].IsFloat() {
			return false
		}
	default:
		return false
	}
	if props&ir.PPure == 0 && f.Op[d] != ir.OpLd {
		return false
	}
	ndef := 0
	for _, o := range f.Ops(d) {
		switch o.Kind() {
		case ir.KList:
			return false
		case ir.KReg:
			if o.IsDef() {
				ndef++
			}
		}
	}
	return ndef == 1
}

// apply recomputes candidate c's value right before the first use of v
// in every block other than its definition's that reads it.
func (s *splitter) apply(c *splitCand) {
	f := s.f
	if c.sink {
		f.Unlink(c.def)
		f.InsertBefore(c.to, c.def)
		s.upd.moved = append(s.upd.moved, c.def)
		s.upd.edit(f.Block[c.def])
		return
	}
	du := s.p.A.DefUse()
	bd := f.Block[c.def]
	lastBlock := ir.NoBlock
	for _, u := range du.Uses(c.reg) {
		ub := f.Block[u.Instr]
		if ub == bd || ub == lastBlock {
			continue
		}
		lastBlock = ub
		for _, x := range c.chain[:c.nchain] {
			ni := s.clone(du.Defs(x)[0].Instr)
			f.InsertBefore(u.Instr, ni)
			s.upd.added = append(s.upd.added, ni)
		}
		ni := s.clone(c.def)
		f.InsertBefore(u.Instr, ni)
		s.upd.added = append(s.upd.added, ni)
		s.upd.edit(ub)
	}
}

// clone copies instruction i, with lists and addresses of its own.
func (s *splitter) clone(i ir.InstrID) ir.InstrID {
	f := s.f
	s.ops = s.ops[:0]
	for _, o := range f.Ops(i) {
		if o.Kind() == ir.KAddr {
			a := f.Addrs[o.Index()]
			var buf [4]ir.Operand
			el := append(buf[:0], f.ListElems(a.Elems)...)
			o = o.WithIndex(f.AddAddr(el, a.Off, a.HasOff).Index())
		}
		s.ops = append(s.ops, o)
	}
	ni := f.NewInstrDecoded(f.Form(i), f.Mnemonic[i], s.ops)
	f.SetLoc(ni, f.InstrLoc(i))
	return ni
}

// splitHidExcess reports whether the late splitting phase, in the
// pipeline run stats describe, found the function above cap and brought
// it within: the register retry (pressure.go) then optimizes it again
// all the same, since holding the phases that raised it to the cap and
// splitting after them ends lower than splitting alone (measured on
// generated kernels with long live ranges).
func splitHidExcess(stats []PhaseStat, cap capLevels) bool {
	for _, st := range stats {
		if st.Name != "OriSplitHighPressureLiveRanges" || !st.Changed {
			continue
		}
		for _, c := range st.Counters {
			switch c.Name {
			case "max live R+UR before":
				if int(c.N) > cap[ir.FileR] {
					return true
				}
			case "max live P+UP before":
				if int(c.N) > cap[ir.FileP] {
					return true
				}
			}
		}
	}
	return false
}
