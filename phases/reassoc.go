package phases

import (
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// OriReassociateAndCommon (seed 000, phase 50): reassociate trees of one
// associative, commutative integer operation into a canonical order, then
// common equal instructions within a short window of each block, so that
// (a+b)+c and (a+c)+b become one value.
//
// Runs on SSA form (NeedsSSA): every register the trees touch has one
// definition.
//
// Operations: add (no .cc, no .sat), mul.lo, and, or, xor, unguarded, of
// one integer type (.b/.u/.s, 16 to 64 bits), writing a plain register
// from two sources that are registers or integer immediates without
// operand flags (a minus sign on an immediate is allowed).
//
// Steps, per block in layout order (AllowReassociateCSE off: nothing):
//
//  0. sub.t %d, %a, IMM whose every use is an associative add of type t
//     becomes add.t %d, %a, -IMM, so the add chain absorbs it (the seed's
//     SUB rule, only in the form that needs no new negation; a register
//     subtrahend would cost a neg and is left alone).
//  1. Flatten. A root is an operation whose result is not itself an
//     interior node. A source is an interior node when it is a register
//     defined in the same block by the same operation (opcode, type,
//     modifiers) and used nowhere else; otherwise it is a leaf (another
//     opcode, a constant, a definition in another block, several uses).
//     Trees of two leaves are left alone.
//  2. Sort the leaves: registers first by register number (a register is
//     its own value number on SSA form), constants last, folded into one
//     with the operation's wrap-around arithmetic. A fold to the identity
//     (0 for add, or, xor; 1 for mul; all ones for and) drops it.
//     64-bit adds whose folded constant does not fit a signed 32-bit
//     immediate are left alone unless ReassociateLargeImmInUIADD64.
//  3. Rebuild left-leaning ((l0 op l1) op l2 …) in place: the tree's own
//     instructions, latest last, keep their positions and destinations;
//     leftovers (when constants folded) are deleted. Only when every
//     register leaf is defined before the tree's first instruction (or in
//     another block, or nowhere), so no leaf is read before it exists and
//     no live range starts earlier than it did.
//
// Why it is exact: the operations are associative and commutative in
// wrap-around arithmetic of the type's width (mul.lo keeps the low half:
// a ring product), every interior result had one use, inside the tree,
// so nothing else saw the intermediate values that change, and the
// root's value is the same polynomial in the same leaves. SSA makes a
// register one value wherever it is read, so moving a leaf's read within
// the block reads the same value.
//
// Distribution (DistributeAndReassociateMulBudget per function): add.t %d,
// %x, %y with %x = mul.lo.t %a, %b and %y = mul.lo.t %a, %c in the same
// block, each used only there: the later multiply becomes add.t of %b and
// %c, the add becomes mul.lo.t of that sum and %a, the earlier multiply is
// deleted (a*b + a*c = a*(b+c) in the ring).
//
// Commoning (ReassociateCSEWindow): in each block, an associative
// operation equal to one at most Window instructions before it (same
// opcode, type, modifiers, the two sources in either order) is removed
// and its uses read the earlier result, when both destinations are of one
// register type, every use is a plain operand or a guard, and the earlier
// destination is not a version of a register with several versions
// (lengthening such a live range makes OutOfSSA keep a copy; see the
// report of issue 12). Register sources compare equal only when the
// register has at most one definition (IntoSSA leaves guarded
// definitions' registers unrenamed, with several).
//
// Budgets: ReassociateCSEBudget trees rebuilt per function;
// ReassociateCSESkip skips the first N rewrites (bisection). Counters:
// "chains reassociated", "subs rewritten", "products distributed",
// "expressions commoned".
//
//	before:  add %r5, %r2, %r3; add %r6, %r5, %r4;  add %r7, %r2, %r4; add %r8, %r7, %r3;
//	after:   add %r5, %r2, %r3; add %r6, %r5, %r4;  (uses of %r8 read %r6)
func reassociateAndCommon(p *Pass) bool {
	if !p.Knobs.Bool(AllowReassociateCSE) || p.F.NumInstrs() == 0 || !p.SSA() {
		return false
	}
	r := &reassoc{f: p.F, p: p, du: p.A.DefUse(),
		budget:    p.Knobs.Budget(ReassociateCSEBudget),
		skip:      p.Knobs.Int(ReassociateCSESkip),
		mulBudget: p.Knobs.Budget(DistributeAndReassociateMulBudget),
		largeImm:  p.Knobs.Bool(ReassociateLargeImmInUIADD64),
		window:    int32(p.Knobs.Int(ReassociateCSEWindow)),
	}
	r.pos = take[int32](p.Scratch, r.f.NumInstrs())
	changed := false
	for _, b := range r.f.Layout {
		k := int32(0)
		for i := r.f.BlockFirst[b]; i != ir.NoInstr; i = r.f.Next[i] {
			r.pos[i] = k
			k++
		}
	}
	for _, b := range r.f.Layout {
		if r.block(b) {
			changed = true
		}
	}
	if changed {
		p.A.Invalidate(ADefUse)
		r.du = p.A.DefUse()
	}
	if r.common() {
		changed = true
	}
	for _, c := range []struct {
		name string
		n    int64
	}{{"chains reassociated", r.nChains}, {"subs rewritten", r.nSubs}, {"products distributed", r.nDist}, {"expressions commoned", r.nCommon}} {
		if c.n > 0 {
			p.Count(c.name, c.n)
		}
	}
	return changed
}

type reassoc struct {
	f         *ir.Func
	p         *Pass
	du        *core.DefUse
	pos       []int32
	budget    int64
	skip      int64
	mulBudget int64
	largeImm  bool
	window    int32

	leaves []ir.Operand
	nodes  []ir.InstrID
	ops    []ir.Operand

	nChains, nSubs, nDist, nCommon int64
}

// assocOp reports whether i is an operation the pass reassociates.
func (r *reassoc) assocOp(i ir.InstrID) bool {
	f := r.f
	if f.IsDead(i) || f.Guard[i] != ir.NoOperand || f.OpCount[i] != 3 || !isIntType(f.Type[i]) ||
		f.Type[i].Bits() < 16 || f.Type2[i] != ir.TNone {
		return false
	}
	switch f.Op[i] {
	case ir.OpAdd, ir.OpAnd, ir.OpOr, ir.OpXor:
		if f.Mods[i] != 0 {
			return false
		}
	case ir.OpMul:
		if f.Mods[i] != ir.ModLo {
			return false
		}
	default:
		return false
	}
	ops := f.Ops(i)
	if !ops[0].IsReg() || !ops[0].IsDef() || ops[0].Flags() != 0 || f.RegVec[ops[0].Reg()] != 0 ||
		f.RegParam(ops[0].Reg()) != ir.NoSym {
		return false
	}
	for _, o := range ops[1:] {
		switch {
		case o.IsReg():
			if o.Flags() != 0 || o.IsDef() {
				return false
			}
		case intImm(f, o):
		default:
			return false
		}
	}
	return true
}

// sameOp: a and b are the same operation (opcode, type, modifiers).
func (r *reassoc) sameOp(a, b ir.InstrID) bool {
	f := r.f
	return f.Op[a] == f.Op[b] && f.Type[a] == f.Type[b] && f.Mods[a] == f.Mods[b]
}

// interior returns the instruction defining source o of node n when it is
// an interior node of n's tree.
func (r *reassoc) interior(n ir.InstrID, o ir.Operand) (ir.InstrID, bool) {
	if !o.IsReg() {
		return ir.NoInstr, false
	}
	reg := o.Reg()
	defs := r.du.Defs(reg)
	if len(defs) != 1 || len(r.du.Uses(reg)) != 1 {
		return ir.NoInstr, false
	}
	d := defs[0].Instr
	if r.f.Block[d] != r.f.Block[n] || !r.assocOp(d) || !r.sameOp(d, n) || r.pos[d] >= r.pos[n] {
		return ir.NoInstr, false
	}
	return d, true
}

// isRoot: i's result is not an interior node of another tree.
func (r *reassoc) isRoot(i ir.InstrID) bool {
	d := r.f.Ops(i)[0].Reg()
	uses := r.du.Uses(d)
	if len(uses) != 1 || len(r.du.Defs(d)) != 1 {
		return true
	}
	u := uses[0].Instr
	if !r.assocOp(u) {
		return true
	}
	_, in := r.interior(u, r.f.Ops(u)[1])
	if !in || r.f.Ops(u)[1].Reg() != d {
		_, in = r.interior(u, r.f.Ops(u)[2])
		in = in && r.f.Ops(u)[2].IsReg() && r.f.Ops(u)[2].Reg() == d
	}
	return !in
}

// flatten collects the leaves and nodes of n's tree.
func (r *reassoc) flatten(n ir.InstrID) {
	r.nodes = append(r.nodes, n)
	for _, o := range r.f.Ops(n)[1:] {
		if d, ok := r.interior(n, o); ok {
			r.flatten(d)
		} else {
			r.leaves = append(r.leaves, o)
		}
	}
}

func (r *reassoc) block(b ir.BlockID) bool {
	f := r.f
	changed := false
	for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
		if r.subToAdd(i) {
			changed = true
		}
	}
	for i := f.BlockFirst[b]; i != ir.NoInstr; {
		next := f.Next[i]
		if r.assocOp(i) && r.isRoot(i) {
			if r.distribute(i) {
				changed = true
			} else if r.rebuild(i) {
				changed = true
			}
		}
		i = next
	}
	return changed
}

// take1 consumes one unit of the rewrite budget and the skip count;
// it reports whether the rewrite may happen.
func (r *reassoc) take1() bool {
	if r.budget <= 0 {
		return false
	}
	if r.skip > 0 {
		r.skip--
		return false
	}
	if !r.p.Allow() {
		return false
	}
	r.budget--
	return true
}

// subToAdd: step 0 of the file comment.
func (r *reassoc) subToAdd(i ir.InstrID) bool {
	f := r.f
	if f.IsDead(i) || f.Op[i] != ir.OpSub || f.Mods[i] != 0 || f.Guard[i] != ir.NoOperand ||
		f.OpCount[i] != 3 || !isIntType(f.Type[i]) || f.Type[i].Bits() < 16 || f.Type2[i] != ir.TNone {
		return false
	}
	ops := f.Ops(i)
	if !ops[0].IsReg() || ops[0].Flags() != 0 || !ops[1].IsReg() || ops[1].Flags() != 0 || !intImm(f, ops[2]) {
		return false
	}
	d := ops[0].Reg()
	uses := r.du.Uses(d)
	if len(uses) == 0 || len(r.du.Defs(d)) != 1 {
		return false
	}
	for _, u := range uses {
		if !r.assocOp(u.Instr) || f.Op[u.Instr] != ir.OpAdd || f.Type[u.Instr] != f.Type[i] || u.Loc.IsGuard() {
			return false
		}
	}
	t := f.Type[i]
	v, ok := immAs(f, ops[2], t)
	if !ok || !r.take1() {
		return false
	}
	neg := (-v) & widthMask(t)
	if t.Bits() == 64 && !r.largeImm && !fitsS32(neg, t) {
		return false
	}
	f.SetOps(i, []ir.Operand{ops[0], ops[1], r.immOperand(t, neg)})
	f.SetForm(i, ir.Form{Op: ir.OpAdd, Type: t})
	r.nSubs++
	return true
}

// fitsS32: v, a value of type t, is a sign-extended 32-bit number.
func fitsS32(v uint64, t ir.Type) bool {
	s := signExtend(v, t.Bits())
	return s >= -1<<31 && s < 1<<31
}

func (r *reassoc) immOperand(t ir.Type, c uint64) ir.Operand {
	im := ir.Imm{Bits: c, Kind: ir.ImmInt}
	switch {
	case t.IsSigned():
		im.Bits = uint64(signExtend(c, t.Bits()))
	case c > 1<<31-1:
		im.Kind = ir.ImmHex
	}
	return r.f.AddImm(im)
}

// rebuild: steps 1 to 3 of the file comment for the tree rooted at root.
func (r *reassoc) rebuild(root ir.InstrID) bool {
	f := r.f
	r.leaves, r.nodes = r.leaves[:0], r.nodes[:0]
	r.flatten(root)
	if len(r.leaves) <= 2 {
		return false
	}
	slices.SortFunc(r.nodes, func(a, b ir.InstrID) int { return int(r.pos[a] - r.pos[b]) })
	first := r.pos[r.nodes[0]]
	t := f.Type[root]
	op := f.Op[root]
	// Fold the constants; check every register leaf exists at the first
	// node.
	var c uint64
	nc := 0
	regs := r.leaves[:0:0]
	for _, l := range r.leaves {
		if l.IsReg() {
			if !r.stableFrom(l.Reg(), f.Block[root], first) {
				return false
			}
			regs = append(regs, l)
			continue
		}
		v, ok := immAs(f, l, t)
		if !ok {
			return false
		}
		if nc == 0 {
			c = v
		} else {
			c = foldAssoc(op, c, v) & widthMask(t)
		}
		nc++
	}
	slices.SortStableFunc(regs, func(a, b ir.Operand) int { return int(a.Reg()) - int(b.Reg()) })
	keep := nc > 0 && c != assocIdentity(op, t)
	if keep && t.Bits() == 64 && op == ir.OpAdd && !r.largeImm && !fitsS32(c, t) {
		return false
	}
	n := len(regs)
	if keep {
		n++
	}
	if n < 2 {
		return false // the tree folds to one value: GeneralOptimize's business
	}
	// The canonical operand list, node by node (latest nodes used).
	use := r.nodes[len(r.nodes)-(n-1):]
	r.ops = r.ops[:0]
	var cop ir.Operand
	leaf := func(k int) ir.Operand {
		if k < len(regs) {
			return regs[k].AsUse()
		}
		return cop
	}
	// Would anything change? Compare without allocating an immediate.
	same := len(use) == len(r.nodes)
	for j := 0; same && j < len(use); j++ {
		ops := f.Ops(use[j])
		a := regs[0].AsUse()
		if j > 0 {
			a = f.Ops(use[j-1])[0].AsUse()
		}
		if ops[1] != a {
			same = false
		} else if j+1 < len(regs) {
			same = ops[2] == regs[j+1].AsUse()
		} else {
			v, ok := immAs(f, ops[2], t)
			same = !ops[2].IsReg() && ok && v == c
		}
	}
	if same || !r.take1() {
		return false
	}
	if keep {
		cop = r.immOperand(t, c)
	}
	for j, nd := range use {
		ops := f.Ops(nd)
		var a ir.Operand
		if j == 0 {
			a = leaf(0)
		} else {
			a = f.Ops(use[j-1])[0].AsUse()
		}
		f.SetOps(nd, []ir.Operand{ops[0], a, leaf(j + 1)})
	}
	for _, nd := range r.nodes[:len(r.nodes)-len(use)] {
		f.Remove(nd)
	}
	r.nChains++
	return true
}

// foldAssoc applies op to two constants (before masking to the width).
func foldAssoc(op ir.Opcode, a, b uint64) uint64 {
	switch op {
	case ir.OpAdd:
		return a + b
	case ir.OpMul:
		return a * b
	case ir.OpAnd:
		return a & b
	case ir.OpOr:
		return a | b
	}
	return a ^ b
}

func assocIdentity(op ir.Opcode, t ir.Type) uint64 {
	switch op {
	case ir.OpMul:
		return 1
	case ir.OpAnd:
		return widthMask(t)
	}
	return 0
}

// distribute: a*b + a*c → a*(b+c) for the add i (see the file comment).
func (r *reassoc) distribute(i ir.InstrID) bool {
	f := r.f
	if r.mulBudget <= 0 || f.Op[i] != ir.OpAdd {
		return false
	}
	ops := f.Ops(i)
	x, ok1 := r.mulOf(i, ops[1])
	y, ok2 := r.mulOf(i, ops[2])
	if !ok1 || !ok2 || x == y {
		return false
	}
	xo, yo := f.Ops(x), f.Ops(y)
	var a, b, c ir.Operand
	found := false
	for _, p := range [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}} {
		if xo[p[0]].IsReg() && xo[p[0]] == yo[p[1]] {
			a, b, c = xo[p[0]], xo[3-p[0]], yo[3-p[1]]
			found = true
			break
		}
	}
	if !found {
		return false
	}
	early, late := x, y
	if r.pos[y] < r.pos[x] {
		early, late = y, x
	}
	for _, o := range []ir.Operand{a, b, c} {
		if o.IsReg() && !r.stableFrom(o.Reg(), f.Block[i], r.pos[early]) {
			return false
		}
	}
	if !r.take1() {
		return false
	}
	r.mulBudget--
	lo := f.Ops(late)
	f.SetOps(late, []ir.Operand{lo[0], b, c})
	f.SetForm(late, ir.Form{Op: ir.OpAdd, Type: f.Type[i]})
	f.SetOps(i, []ir.Operand{ops[0], lo[0].AsUse(), a})
	f.SetForm(i, ir.Form{Op: ir.OpMul, Type: f.Type[i], Mods: ir.ModLo})
	f.Remove(early)
	r.nDist++
	return true
}

// stableFrom: reg has no definition in block b at or after position from
// (its reads may move within that span of the block).
func (r *reassoc) stableFrom(reg ir.RegID, b ir.BlockID, from int32) bool {
	for _, d := range r.du.Defs(reg) {
		if r.f.Block[d.Instr] == b && r.pos[d.Instr] >= from {
			return false
		}
	}
	return true
}

// mulOf returns the mul.lo defining source o of add i, when it is in i's
// block, of i's type, and used only by i.
func (r *reassoc) mulOf(i ir.InstrID, o ir.Operand) (ir.InstrID, bool) {
	f := r.f
	if !o.IsReg() {
		return ir.NoInstr, false
	}
	defs := r.du.Defs(o.Reg())
	if len(defs) != 1 || len(r.du.Uses(o.Reg())) != 1 {
		return ir.NoInstr, false
	}
	d := defs[0].Instr
	if f.Block[d] != f.Block[i] || f.Op[d] != ir.OpMul || !r.assocOp(d) || f.Type[d] != f.Type[i] {
		return ir.NoInstr, false
	}
	return d, true
}

// common: the windowed commoning of the file comment.
func (r *reassoc) common() bool {
	f := r.f
	multi := r.multiVersion()
	changed := false
	for _, b := range f.Layout {
		k := int32(0)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			r.pos[i] = k
			k++
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			if r.assocOp(i) {
				for e := f.Prev[i]; e != ir.NoInstr && r.pos[i]-r.pos[e] <= r.window; e = f.Prev[e] {
					if r.assocOp(e) && r.sameOp(e, i) && r.sameSources(e, i) && r.replaceUses(i, e, multi) {
						changed = true
						break
					}
				}
			}
			i = next
		}
	}
	return changed
}

func (r *reassoc) sameSources(a, b ir.InstrID) bool {
	x, y := r.f.Ops(a), r.f.Ops(b)
	eq := func(p, q ir.Operand) bool {
		if p.IsReg() != q.IsReg() {
			return false
		}
		if p.IsReg() {
			// One value only where the register has at most one
			// definition (registers IntoSSA did not rename may have
			// several, guarded ones among them).
			return p == q && len(r.du.Defs(p.Reg())) <= 1
		}
		v1, ok1 := immAs(r.f, p, r.f.Type[a])
		v2, ok2 := immAs(r.f, q, r.f.Type[b])
		return ok1 && ok2 && v1 == v2
	}
	return (eq(x[1], y[1]) && eq(x[2], y[2])) || (eq(x[1], y[2]) && eq(x[2], y[1]))
}

// multiVersion marks the registers that are versions of an original
// register IntoSSA gave several versions.
func (r *reassoc) multiVersion() []bool {
	st := r.p.ssa
	n := r.f.NumRegs()
	count := take[int32](r.p.Scratch, n)
	for reg := range n {
		count[st.origOf(ir.RegID(reg))]++
	}
	multi := take[bool](r.p.Scratch, n)
	for reg := range n {
		multi[reg] = count[st.origOf(ir.RegID(reg))] > 1
	}
	return multi
}

// replaceUses makes the uses of l's result read e's and deletes l.
func (r *reassoc) replaceUses(l, e ir.InstrID, multi []bool) bool {
	f := r.f
	dl, de := f.Ops(l)[0].Reg(), f.Ops(e)[0].Reg()
	if dl == de || f.RegType[dl] != f.RegType[de] || multi[de] || len(r.du.Defs(dl)) != 1 || len(r.du.Defs(de)) != 1 {
		return false
	}
	uses := r.du.Uses(dl)
	for _, u := range uses {
		if u.Loc.InList() || f.IsDead(u.Instr) {
			return false
		}
	}
	if !r.take1() {
		return false
	}
	for _, u := range uses {
		o := core.OperandAt(f, u.Instr, u.Loc)
		core.SetOperandAt(f, u.Instr, u.Loc, o.WithIndex(uint32(de)))
	}
	f.Remove(l)
	r.nCommon++
	return true
}
