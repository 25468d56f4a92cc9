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
func predication(p *Pass) bool {
	limit := int(p.Knobs.Int(PredicationMaxInstrs))
	f := p.F
	if limit <= 0 || f.NumInstrs() == 0 || !p.SSA() || p.Canceled() {
		return false
	}
	// The def-use chains and the uniformity analysis are asked for at a
	// round's first shape (before it changes anything): a function with
	// no shape computes neither, and under PredicateUniformBranches no
	// round computes the uniformity.
	pr := &predicator{p: p, f: f, limit: limit, all: p.Knobs.Bool(PredicateUniformBranches)}
	changed := false
	// Layout positions change only for the blocks a conversion empties,
	// which no later shape can use as A (they are left without
	// instructions). A round walks the layout once with the analyses of
	// its start, skipping past each converted shape (its blocks are the
	// only ones whose edges, definitions and uses changed); the analyses
	// are recomputed once per round, and a new round takes the shapes a
	// conversion exposed (an inner diamond turned straight-line).
	// A canceled run stops between two shapes (each conversion is
	// whole), and ends the round as usual: the CFG rebuilt, the analyses
	// dropped.
	pl := newPoller(p)
	for round := 0; round < maxPredicationRounds; round++ {
		n := pr.nBranches
		for k := 0; k+2 < len(f.Layout); k++ {
			if pl.stop() {
				break
			}
			if pr.try(k) {
				k += 3 // a, its arms and the join
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
		pr.du, pr.uni = nil, nil
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

// maxPredicationRounds bounds the rounds of if-conversion (each exposes
// the shapes one nesting level out).
const maxPredicationRounds = 4

// maxUniformChoices: the most values a uniform branch may choose for it
// to become selects (a triangle's one branch, a diamond's two, are worth
// about that many selects).
const maxUniformChoices = 2

type predicator struct {
	p     *Pass
	f     *ir.Func
	du    *core.DefUse // nil until the round's first shape
	limit int
	uni   *core.Uniformity // nil until a shape asks (never under PredicateUniformBranches)
	all   bool             // PredicateUniformBranches
	// uniform: the shape under try has a uniform branch (and all is off).
	uniform bool
	moved   []ir.InstrID

	nBranches, nDup, nChoices int64
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

// movable: instruction i of an arm may run in every lane (file comment).
func (pr *predicator) movable(i ir.InstrID) bool {
	f := pr.f
	if f.Guard[i] != ir.NoOperand || f.Op[i] == ir.OpDiv || f.Op[i] == ir.OpRem || f.Op[i] == ir.OpPhi {
		return false
	}
	p := f.InstrProps(i)
	if !p.Has(ir.PPure) || p&(ir.PReadsMem|ir.PWritesMem|ir.PVolatile|ir.PConvergent|ir.PCarry|ir.PSideEffect|
		ir.PCall|ir.PAsync|ir.POpaque|ir.PPseudo|ir.PBarrier|ir.PBranch|ir.PTerminator) != 0 {
		return false
	}
	var refs [16]core.RegRef
	for _, x := range core.AppendRegRefs(f, i, refs[:0]) {
		if x.Def && (len(pr.du.Defs(x.Reg)) != 1 || f.RegParam(x.Reg) != ir.NoSym) {
			return false
		}
	}
	return true
}

// armBody checks arm x and returns how many instructions it moves and
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

// analyses gives pr the round's def-use chains and says whether a's
// branch is uniform (false under PredicateUniformBranches), computing
// what the round has not asked for yet. convert calls it before any
// change, so what it computes describes the function as the round found
// it.
func (pr *predicator) analyses(a ir.BlockID) {
	if pr.du == nil {
		pr.du = pr.p.A.DefUse()
	}
	if pr.all {
		pr.uniform = false
		return
	}
	if pr.uni == nil {
		pr.uni = pr.p.A.Uniformity()
	}
	pr.uniform = !pr.uni.Divergent[a]
}

// convert if-converts: a ends with branch br (guard g) to taken; the arms
// are b (and c, NoBlock for a triangle); j is the join; fromTaken and
// fromFall name the predecessors of j on the taken and fall-through side.
func (pr *predicator) convert(a ir.BlockID, br ir.InstrID, g ir.Operand, b, c, j, fromTaken, fromFall ir.BlockID) bool {
	f := pr.f
	// At a uniform branch only a choice of values converts (arms that
	// move nothing).
	pr.analyses(a)
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
	if nb+nc > pr.limit || pr.uniform && !copies {
		return false
	}
	// J's PHIs must all be of a type selp takes, with one value per edge.
	// A uniform branch chooses at most maxUniformChoices values: each
	// becomes a select the warp issues where one branch did.
	nphi := 0
	for i := f.BlockFirst[j]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
		if nphi++; pr.uniform && nphi > maxUniformChoices {
			return false
		}
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
	if pr.uniform {
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
		if f.Dead[u.Instr] {
			continue
		}
		o := core.OperandAt(f, u.Instr, u.Loc)
		if o.IsReg() && o.Reg() == from {
			core.SetOperandAt(f, u.Instr, u.Loc, o.WithIndex(uint32(to)))
		}
	}
}
