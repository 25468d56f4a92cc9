package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// OriDoPredication (seed 000, phase 63): if-conversion of small triangles
// and diamonds on SSA form (NeedsSSA). Knob: PredicationMaxInstrs.
//
// Shapes, in layout order (A's branch is its last instruction, guarded by
// a predicate register, "@%p bra" or "@!%p bra"):
//
//	triangle:  A: … @%p bra J;   B: … [bra J;]   J: PHIs …
//	diamond:   A: … @%p bra C;   B: … bra J;     C: …   J: PHIs …
//
// B (and C) follow A in the layout, have exactly one predecessor (A) and
// no PHI; J follows the last arm and has exactly two predecessors (A and
// B, or B and C). Each PHI of J picks by the edge it came in on: its
// value becomes "selp.t %x, taken, fallthrough, %p" (operands swapped for
// "@!%p") placed in A, so every PHI's type must be one selp takes (not
// .pred).
//
// The arms' instructions move to the end of A, before its branch, and run
// unguarded in every lane (speculation, instead of guards: a guarded
// definition would keep its register live from the function's entry,
// since a guarded write kills nothing). So every one of them must be
// harmless to run on the other path and write only fresh values:
// unguarded, PPure without PReadsMem (no load that may fault, no store,
// atomic, barrier, call, convergent or volatile operation, no carry
// chain, no PHI), not div or rem, and each register it writes has that
// one definition in the function (an SSA value, so nothing on the other
// path sees it: in SSA its uses are dominated by the arm, that is, inside
// the arm or in J's PHIs). At most PredicationMaxInstrs instructions move
// per shape; 0 turns the phase off.
//
// Only divergent branches (the condition may differ between the lanes of
// a warp: core.Uniformity) are converted unless PredicateUniformBranches:
// at a divergent branch the warp runs both arms anyway, so speculation
// costs no extra issue slots, while at a uniform one it runs the arm
// every warp skipped. The selects keep both arms' values live at once,
// which can cost a register (see the report of issue 12). A uniform
// branch whose arms hold nothing but plain movs converts too (select
// formation: the join only chooses among values computed before the
// branch, so the lanes run no work they would have skipped, only copies
// the copy propagation after it folds into the selects), when J has at
// most maxUniformChoices PHIs; counter "uniform value choices made
// selects". A's branch and B's "bra J" are removed: A falls into the emptied arms, which fall into J
// (GeneralOptimizeLate2's CFG cleanup merges the chain).
//
// Diamonds: an instruction of C equal to one moved from B (same opcode,
// modifiers, types, state space and operands as written; the operands'
// registers hold the same values at both, as nothing between them writes
// a register they read) is not moved: its uses read B's result, and a
// PHI choosing between the two becomes a mov. This is the redundancy
// predication exposes (seed 000: LateOriCommoning's reason to follow it).
//
// Why it is exact: the moved instructions compute, in every lane, what
// they computed on their path, and values nobody on the other path reads;
// the selects give each PHI's result the value of the edge the lane would
// have taken (the branch's predicate, unchanged since A computed it: SSA).
// Counters: "branches predicated", "duplicates merged".
//
//	before:  @%p bra L;  add %r2, %r1, 1;  L: %r3 = phi(%r1 from A, %r2 from B)
//	after:   add %r2, %r1, 1;  selp.b32 %r3, %r1, %r2, %p;
func predication(p *Pass) bool { return predicationWith(p, nil) }

// predTest is a test's hold on OriDoPredication. whole: every round
// walks the whole layout with analyses of its own (rejectStale off), as
// the phase did before scan. first counts the branches the runs' first
// rounds predicated, rounds the rounds run after the first, fresh those
// of them that computed the analyses.
type predTest struct {
	whole                bool
	first, rounds, fresh int64
}

// predicationWith is OriDoPredication under a test's hold (pt nil: as
// the pipeline runs it).
func predicationWith(p *Pass, pt *predTest) bool {
	limit := int(p.Knobs.Int(PredicationMaxInstrs))
	f := p.F
	if limit <= 0 || f.NumInstrs() == 0 || !p.SSA() || p.Canceled() {
		return false
	}
	// The def-use chains and the uniformity analysis are asked for at a
	// round's first shape that passes the checks needing neither (before
	// the round changes anything): a function with no such shape computes
	// neither, and under PredicateUniformBranches no round computes the
	// uniformity.
	pr := &predicator{p: p, f: f, limit: limit, all: p.Knobs.Bool(PredicateUniformBranches), test: pt}
	changed := false
	// Layout positions change only for the blocks a conversion empties,
	// which no later shape can use as A (they are left without
	// instructions). A round walks the layout (the first round all of it,
	// a later one the positions around the round before's conversions:
	// scan) with the analyses of its start, skipping past each converted
	// shape (its blocks are the only ones whose edges, definitions and
	// uses changed); the analyses are recomputed once per round that
	// finds a shape, and a new round takes the shapes a conversion
	// exposed (an inner diamond turned straight-line, a join that can
	// now start a shape).
	// A canceled run stops between two shapes (each conversion is
	// whole), and ends the round as usual: the CFG rebuilt, the analyses
	// dropped.
	pl := newPoller(p)
	for round := 0; round < maxPredicationRounds; round++ {
		n := pr.nBranches
		pr.scan(round, pl)
		if pt != nil && round == 0 {
			pt.first += pr.nBranches
		}
		if pt != nil && round > 0 {
			pt.rounds++
			if pr.fresh {
				pt.fresh++
			}
		}
		if pr.nBranches == n {
			break
		}
		changed = true
		f.InvalidateCFG()
		f.ComputeCFG()
		p.A.Invalidate(PreserveAll)
		if pl.now() {
			break
		}
		pr.fresh = false // (pr.du and pr.uni: the round before's, for rejectStale)
	}
	if pr.nBranches > 0 {
		p.Count("branches predicated", pr.nBranches)
	}
	if pr.nDup > 0 {
		p.Count("duplicates merged", pr.nDup)
	}
	if pr.nChoices > 0 {
		p.Count("uniform value choices made selects", pr.nChoices)
	}
	return changed
}

// scan is one round's walk of the layout: round 0 tries every position,
// a later round only the positions next to the shapes the round before
// converted (pr.at lists them), where a shape can have changed. A shape
// at layout position k reads blocks k to k+3 only (their instructions,
// edges and last branches), and a conversion at c changes blocks c to at
// most c+3 (a, its arms, the join) and no edge into any other block; so a
// shape whose blocks no conversion touched (k < c-3 or k > c+3 for every
// c) is the shape the round before tried, with the same arms, and fails
// again: the registers its arms define keep their one definition (a
// conversion moves definitions, turns a PHI into a select of the same
// register, and removes duplicates whose registers nothing else
// defines), and its branch, if uniform then, is uniform still. A
// conversion only adds dominance and post-dominance, removes a join and
// shortens live ranges, and its selects read what the PHIs read and the
// branch's predicate, which at a divergent branch is varying already: no
// register turns varying, and a uniform branch (the stricter case) stays
// uniform. The positions the round before skipped past a conversion
// (c+1 to c+3) are among them. So the later rounds convert exactly what a
// walk of the whole layout would, in the same order, and a round whose
// positions hold no shape computes no analysis. A canceled run stops the
// walk between two shapes.
func (pr *predicator) scan(round int, pl *poller) {
	f := pr.f
	prev := pr.at
	pr.at = pr.prevAt[:0]
	defer func() { pr.prevAt = prev[:0] }()
	try := func(lo, hi int) (next int, ok bool) {
		k := lo
		for ; k <= hi && k+2 < len(f.Layout); k++ {
			if pl.stop() {
				return k, false
			}
			if pr.try(k) {
				pr.at = append(pr.at, int32(k))
				k += 3 // a, its arms and the join
			}
		}
		return k, true
	}
	if round == 0 || pr.test != nil && pr.test.whole {
		try(0, len(f.Layout))
		return
	}
	k := 0
	for _, c := range prev {
		var ok bool
		if k, ok = try(max(int(c)-3, k), int(c)+3); !ok {
			return
		}
	}
}

// maxPredicationRounds bounds the rounds of if-conversion (each exposes
// the shapes one nesting level out).
const maxPredicationRounds = 4

// maxUniformChoices: the most values a uniform branch may choose for it
// to become selects (a triangle's one branch, a diamond's two, are worth
// about that many selects).
const maxUniformChoices = 2

type predicator struct {
	p *Pass
	f *ir.Func
	// du and uni are the def-use chains and the uniformity (never asked
	// for under PredicateUniformBranches) of the round's start once fresh
	// (nil until the first round asks), else the round before's.
	du    *core.DefUse
	limit int
	uni   *core.Uniformity
	fresh bool
	all   bool // PredicateUniformBranches
	moved []ir.InstrID
	// at lists the layout positions of the shapes the round converted,
	// in order (the next round's scan tries the positions around them);
	// prevAt is the spare list the round after reuses.
	at, prevAt []int32

	nBranches, nDup, nChoices int64
	test                      *predTest
}

// braTarget returns the label bra i names (NoBlock for anything else).
func braTarget(f *ir.Func, i ir.InstrID) ir.BlockID {
	if i == ir.NoInstr || f.Op[i] != ir.OpBra {
		return ir.NoBlock
	}
	ops := f.Ops(i)
	if len(ops) != 1 || ops[0].Kind() != ir.KLabel {
		return ir.NoBlock
	}
	return ir.BlockID(ops[0].Index())
}

// onlyPred: b's only predecessor is a.
func onlyPred(f *ir.Func, b, a ir.BlockID) bool {
	ps := f.PredsOf(b)
	return len(ps) == 1 && ps[0] == a
}

// predsAre: b's predecessors are exactly x and y.
func predsAre(f *ir.Func, b, x, y ir.BlockID) bool {
	ps := f.PredsOf(b)
	return len(ps) == 2 && ((ps[0] == x && ps[1] == y) || (ps[0] == y && ps[1] == x))
}

// try converts the shape starting at layout position k, if there is one.
func (pr *predicator) try(k int) bool {
	f := pr.f
	a, b := f.Layout[k], f.Layout[k+1]
	br := f.BlockLast[a]
	g := ir.NoOperand
	if br != ir.NoInstr {
		g = f.Guard[br]
	}
	if g == ir.NoOperand || !g.IsReg() || g.Flags()&^ir.FlagNot != 0 || f.Mods[br] != 0 && !f.Mods[br].Has(ir.ModUni) {
		return false
	}
	t := braTarget(f, br)
	if t == ir.NoBlock || t == a || t == b || !onlyPred(f, b, a) {
		return false
	}
	// Triangle: t is the block after b, b falls into it (or jumps).
	if f.Layout[k+2] == t && predsAre(f, t, a, b) && pr.armEnds(b, t) {
		return pr.convert(a, br, g, b, ir.NoBlock, t, a, b)
	}
	// Diamond: t is the block after b, b jumps to j after t.
	if k+3 < len(f.Layout) && f.Layout[k+2] == t && onlyPred(f, t, a) {
		j := f.Layout[k+3]
		if braTarget(f, f.BlockLast[b]) == j && f.Guard[f.BlockLast[b]] == ir.NoOperand &&
			pr.armEnds(t, j) && predsAre(f, j, b, t) {
			return pr.convert(a, br, g, b, t, j, t, b)
		}
	}
	return false
}

// armEnds: arm x ends by falling into j or with an unguarded "bra j".
func (pr *predicator) armEnds(x, j ir.BlockID) bool {
	f := pr.f
	last := f.BlockLast[x]
	if last == ir.NoInstr || !f.InstrProps(last).Has(ir.PTerminator) {
		return true
	}
	return braTarget(f, last) == j && f.Guard[last] == ir.NoOperand
}

// movable: instruction i of an arm may run in every lane (file comment),
// as far as its own operation tells: singleDefs checks that the registers
// it writes have that one definition, which needs the def-use chains.
func (pr *predicator) movable(i ir.InstrID) bool {
	f := pr.f
	if f.Guard[i] != ir.NoOperand || f.Op[i] == ir.OpDiv || f.Op[i] == ir.OpRem || f.Op[i] == ir.OpPhi {
		return false
	}
	p := f.InstrProps(i)
	return p.Has(ir.PPure) && p&(ir.PReadsMem|ir.PWritesMem|ir.PVolatile|ir.PConvergent|ir.PCarry|ir.PSideEffect|
		ir.PCall|ir.PAsync|ir.POpaque|ir.PPseudo|ir.PBarrier|ir.PBranch|ir.PTerminator) == 0
}

// singleDefs: every register arm x's instructions (before its
// terminator) write has that one definition in the function and is no
// .reg parameter.
func (pr *predicator) singleDefs(x ir.BlockID) bool {
	f := pr.f
	for i := f.BlockFirst[x]; i != ir.NoInstr; i = f.Next[i] {
		if f.InstrProps(i).Has(ir.PTerminator) && i == f.BlockLast[x] {
			break
		}
		var refs [16]core.RegRef
		for _, r := range core.AppendRegRefs(f, i, refs[:0]) {
			if r.Def && (len(pr.du.Defs(r.Reg)) != 1 || f.RegParam(r.Reg) != ir.NoSym) {
				return false
			}
		}
	}
	return true
}

// armBody checks arm x's instructions with movable (singleDefs does the
// rest) and returns how many instructions it moves and
// whether they are all plain movs (each giving a value a name for the
// join to choose: what a uniform branch may convert, as the copy
// propagation after predication folds them into the selects).
func (pr *predicator) armBody(x ir.BlockID) (n int, copies, ok bool) {
	f := pr.f
	copies = true
	for i := f.BlockFirst[x]; i != ir.NoInstr; i = f.Next[i] {
		if f.InstrProps(i).Has(ir.PTerminator) && i == f.BlockLast[x] {
			break
		}
		if !pr.movable(i) {
			return 0, false, false
		}
		copies = copies && f.Op[i] == ir.OpMov && f.Mods[i] == 0 && f.OpCount[i] == 2
		n++
	}
	return n, copies, true
}

// analyses gives pr the round's def-use chains and the uniformity (none
// under PredicateUniformBranches), computing what the round has not
// asked for yet. convert calls it before any change of the round, so
// what it computes describes the function as the round found it.
func (pr *predicator) analyses() {
	if !pr.fresh {
		pr.fresh = true
		if !pr.all {
			pr.uni = pr.p.A.Uniformity()
		}
		// (after the uniformity, which computes the chains into the
		// memory of the round before's: pr.du is read no more)
		pr.du = pr.p.A.DefUse()
	}
}

// rejectStale reports whether the round before's analyses (a later
// round's, before it computes its own) already reject the shape at a
// with arms b and c (NoBlock for a triangle), copies and nphi as convert
// found them. They may only reject: registers keep their number of
// definitions from round to round, and a branch uniform then is uniform
// still (scan), so a uniform branch whose arms are no choice of values
// fails again; an arm writing a register with other definitions fails
// again. Anything else needs the round's own analyses.
func (pr *predicator) rejectStale(a, b, c ir.BlockID, copies bool, nphi int) bool {
	if pr.fresh || pr.du == nil || pr.test != nil && pr.test.whole {
		return false
	}
	if !pr.singleDefs(b) || c != ir.NoBlock && !pr.singleDefs(c) {
		return true
	}
	return !pr.all && pr.uni != nil && !pr.uni.Divergent[a] && (!copies || nphi > maxUniformChoices)
}

// convert if-converts: a ends with branch br (guard g) to taken; the arms
// are b (and c, NoBlock for a triangle); j is the join; fromTaken and
// fromFall name the predecessors of j on the taken and fall-through side.
func (pr *predicator) convert(a ir.BlockID, br ir.InstrID, g ir.Operand, b, c, j, fromTaken, fromFall ir.BlockID) bool {
	f := pr.f
	// The checks that need no analysis come first: a round asks for the
	// def-use chains and the uniformity at its first shape that passes
	// them (and a round with none computes neither).
	nb, copies, ok := pr.armBody(b)
	if !ok {
		return false
	}
	nc := 0
	if c != ir.NoBlock {
		var cc bool
		if nc, cc, ok = pr.armBody(c); !ok {
			return false
		}
		copies = copies && cc
	}
	if nb+nc > pr.limit {
		return false
	}
	// J's PHIs must all be of a type selp takes, with one value per edge.
	nphi := 0
	for i := f.BlockFirst[j]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
		nphi++
		d := f.Ops(i)[0].Reg()
		if f.RegType[d] == ir.TPred || f.RegVec[d] != 0 {
			return false
		}
		if _, ok := gvnMovType(f.RegType[d]); !ok {
			return false
		}
		if _, _, ok := phiPair(f, i, fromTaken, fromFall); !ok {
			return false
		}
	}
	if pr.rejectStale(a, b, c, copies, nphi) {
		return false
	}
	pr.analyses()
	if !pr.singleDefs(b) || c != ir.NoBlock && !pr.singleDefs(c) {
		return false
	}
	// At a uniform branch only a choice of values converts (arms that
	// move nothing but copies), of at most maxUniformChoices values: each
	// becomes a select the warp issues where one branch did.
	uniform := !pr.all && !pr.uni.Divergent[a]
	if uniform && (!copies || nphi > maxUniformChoices) {
		return false
	}
	if !pr.p.Allow() {
		return false
	}
	// Move the arms' bodies before br.
	pr.moved = pr.moved[:0]
	for _, x := range []ir.BlockID{b, c} {
		if x == ir.NoBlock {
			continue
		}
		for i := f.BlockFirst[x]; i != ir.NoInstr; {
			next := f.Next[i]
			if f.InstrProps(i).Has(ir.PTerminator) {
				f.Remove(i)
				i = next
				continue
			}
			if x == c {
				if e := pr.duplicate(i); e != ir.NoInstr {
					pr.redirect(f.Ops(i)[0].Reg(), f.Ops(e)[0].Reg())
					f.Remove(i)
					pr.nDup++
					i = next
					continue
				}
			}
			f.Unlink(i)
			f.InsertBefore(br, i)
			pr.moved = append(pr.moved, i)
			i = next
		}
	}
	// The PHIs become selects (or movs) before br.
	for i := f.BlockFirst[j]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; {
		next := f.Next[i]
		vt, vf, _ := phiPair(f, i, fromTaken, fromFall)
		d := f.Ops(i)[0]
		mt, _ := gvnMovType(f.RegType[d.Reg()])
		var s ir.InstrID
		if vt == vf {
			s = f.NewInstr(ir.Form{Op: ir.OpMov, Type: mt}, []ir.Operand{d, vt})
		} else {
			if g.Has(ir.FlagNot) {
				vt, vf = vf, vt
			}
			s = f.NewInstr(ir.Form{Op: ir.OpSelp, Type: mt}, []ir.Operand{d, vt, vf, g.WithFlags(0)})
		}
		f.InsertBefore(br, s)
		f.Remove(i)
		i = next
	}
	f.Remove(br)
	pr.nBranches++
	if uniform {
		pr.nChoices++
	}
	return true
}

// phiPair returns PHI i's values on the edges from t and from e.
func phiPair(f *ir.Func, i ir.InstrID, t, e ir.BlockID) (vt, ve ir.Operand, ok bool) {
	ops := f.Ops(i)
	if len(ops) != 5 {
		return 0, 0, false
	}
	seenT, seenE := false, false
	for k := 1; k+1 < len(ops); k += 2 {
		switch ir.BlockID(ops[k+1].Index()) {
		case t:
			vt, seenT = ops[k], true
		case e:
			ve, seenE = ops[k], true
		}
	}
	return vt, ve, seenT && seenE
}

// duplicate returns an instruction moved from B equal to i (as written).
func (pr *predicator) duplicate(i ir.InstrID) ir.InstrID {
	f := pr.f
	for _, e := range pr.moved {
		if f.Op[e] != f.Op[i] || f.Mods[e] != f.Mods[i] || f.Type[e] != f.Type[i] || f.Type2[e] != f.Type2[i] ||
			f.Space[e] != f.Space[i] || f.Mnemonic[e] != f.Mnemonic[i] || f.OpCount[e] != f.OpCount[i] || f.OpCount[i] < 2 {
			continue
		}
		oe, oi := f.Ops(e), f.Ops(i)
		if !oe[0].IsReg() || !oi[0].IsReg() || f.RegType[oe[0].Reg()] != f.RegType[oi[0].Reg()] {
			continue
		}
		same := true
		for k := 1; k < len(oi) && same; k++ {
			x, y := oe[k], oi[k]
			switch {
			case x.Kind() != y.Kind() || x.Flags() != y.Flags():
				same = false
			case x.Kind() == ir.KImm:
				same = f.Imms[x.Index()] == f.Imms[y.Index()]
			case x.Kind() == ir.KReg || x.Kind() == ir.KSym || x.Kind() == ir.KSpecial:
				same = x == y
			default:
				same = false
			}
		}
		if same {
			return e
		}
	}
	return ir.NoInstr
}

// redirect makes the uses of from read to.
func (pr *predicator) redirect(from, to ir.RegID) {
	f := pr.f
	for _, u := range pr.du.Uses(from) {
		if f.IsDead(u.Instr) {
			continue
		}
		o := core.OperandAt(f, u.Instr, u.Loc)
		if o.IsReg() && o.Reg() == from {
			core.SetOperandAt(f, u.Instr, u.Loc, o.WithIndex(uint32(to)))
		}
	}
}
