package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// DoSinkMovement (our name for an unnamed sibling movement of ptxas):
// pure computations and loads of memory the kernel never writes move
// down to where their value is used.
//
// Purpose: -O0 code reads every kernel parameter, special register and
// converted pointer at the top of the kernel; once promotion has removed
// the frame, those values are live from the entry to their use, often
// past an early exit, and raise the register pressure that LLVM (which
// emits them at their use) does not have.
//
// Where: in SSA form (Form NeedsSSA), with the movements after LICM: a
// value's one definition dominates its uses, so it may move to any block
// on the dominator path between them.
//
// What moves: an unguarded instruction defining one register, pure (not
// convergent, volatile, opaque, carry-chained or a barrier) or a load the
// table marks invariant (ld.const, ld.global.nc, ldu, a kernel's own
// ld.param), none of whose uses is a PHI, and every register it reads
// has one unguarded definition (or none). Its target is the nearest
// common dominator of the blocks using it, raised along the dominator
// tree until it lies in the definition's innermost loop (nothing moves
// into a loop, nothing out of one); when that is another block than its
// own, it goes just before its first use there, or to the head of the
// target (after its PHIs). Inside its own block it moves down to just
// before its first use, except a load of global or constant memory
// (issued early, its latency hides behind what follows). It
// moves only when that lengthens no other value's live range by more
// than it shortens its own: at most one register operand ends at the
// instruction, no wider than its result. Instructions are visited
// bottom-up, so a chain (ld.param, cvta.to.global, add) follows its last
// member down. A loaded value now read on fewer paths is read less often,
// never more.
func sinkMovementSSA(p *Pass) bool {
	f := p.F
	if !p.SSA() {
		return false
	}
	du := p.A.DefUse()
	dom := p.A.Dom()
	loops := p.A.Loops()
	order := p.A.Order()
	moved := 0
	pos := newInstrOrder(f)
	for k := len(order.RPO) - 1; k >= 0; k-- {
		b := order.RPO[k]
		for i := f.BlockLast[b]; i != ir.NoInstr; {
			prev := f.Prev[i]
			if sinkTarget(p, i, b, du, dom, loops, pos) {
				moved++
			}
			i = prev
		}
	}
	if moved == 0 {
		return false
	}
	p.A.Invalidate(instrAnalyses)
	p.Count("instructions sunk", int64(moved))
	return true
}

// sinkable reports whether i may move: it defines one register, and is
// pure or an invariant load.
func sinkable(f *ir.Func, i ir.InstrID) (ir.RegID, bool) {
	if f.Guard[i] != ir.NoOperand || f.Op[i] == ir.OpPhi || f.Dead[i] {
		return 0, false
	}
	pr := f.InstrProps(i)
	if pr&(ir.PSideEffect|ir.PVolatile|ir.PConvergent|ir.POpaque|ir.PCarry|ir.PBarrier|ir.PCall|ir.PAsync|ir.PPseudo|ir.PBranch|ir.PTerminator|ir.PWritesMem) != 0 {
		return 0, false
	}
	if pr&ir.PPure == 0 && !(pr&ir.PInvariant != 0 && (f.Op[i] == ir.OpLd || f.Op[i] == ir.OpLdu)) {
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

// sinkTarget moves i (in block b) down when it may and it pays; it
// reports whether i moved.
func sinkTarget(p *Pass, i ir.InstrID, b ir.BlockID, du *core.DefUse, dom *core.DomTree, loops *core.Loops, pos *instrOrder) bool {
	f := p.F
	r, ok := sinkable(f, i)
	if !ok {
		return false
	}
	defs := du.Defs(r)
	if len(defs) != 1 || defs[0].Instr != i || !operandsStable(f, i, du) {
		return false
	}
	if touchesMultiVersion(p, i) {
		return false
	}
	uses := du.Uses(r)
	if len(uses) == 0 {
		return false
	}
	target := ir.NoBlock
	for _, u := range uses {
		ub := f.Block[u.Instr]
		if f.Op[u.Instr] == ir.OpPhi || ub == ir.NoBlock {
			return false
		}
		if target == ir.NoBlock {
			target = ub
			continue
		}
		for !dom.Dominates(target, ub) {
			target = dom.IDom(target)
		}
	}
	if !dom.Dominates(b, target) {
		return false
	}
	for target != b && loops.Innermost[target] != loops.Innermost[b] {
		target = dom.IDom(target)
	}
	// the first use in target, if any (uses of an SSA value are its
	// readers: in target, the earliest of them)
	first := ir.NoInstr
	for _, u := range uses {
		if j := u.Instr; f.Block[j] == target && (first == ir.NoInstr || pos.before(j, first)) {
			first = j
		}
	}
	if target == b {
		// within the block: just before the first use, when that is
		// further down than the next instruction; a load of global or
		// constant memory keeps its place there (issued early, its
		// latency hides behind what follows)
		if first == ir.NoInstr || first == f.Next[i] || f.Op[i] == ir.OpLdu || f.Op[i] == ir.OpLd && f.Space[i] != ir.SpaceParam || !sinkPays(f, i, du) || !p.Allow() {
			return false
		}
		f.Unlink(i)
		f.InsertBefore(first, i)
		pos.moved(i)
		return true
	}
	if !sinkPays(f, i, du) || !p.Allow() {
		return false
	}
	f.Unlink(i)
	defer pos.moved(i)
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

// operandsStable reports whether every register i reads has at most one
// definition, unguarded: registers IntoSSA leaves alone (guarded
// definitions) may change between i's place and its target.
func operandsStable(f *ir.Func, i ir.InstrID, du *core.DefUse) bool {
	var buf [16]core.RegRef
	for _, x := range core.AppendRegRefs(f, i, buf[:0]) {
		if x.Def {
			continue
		}
		if defs := du.Defs(x.Reg); len(defs) > 1 || len(defs) == 1 && f.Guard[defs[0].Instr] != ir.NoOperand {
			return false
		}
	}
	return true
}

// sinkPays: at most one register operand of i has i as its last use
// (no other use anywhere), and it is no wider than i's result.
func sinkPays(f *ir.Func, i ir.InstrID, du *core.DefUse) bool {
	w := f.RegType[f.Ops(i)[0].Reg()].Bits()
	ending := 0
	var buf [16]core.RegRef
	for _, x := range core.AppendRegRefs(f, i, buf[:0]) {
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
	return ending <= 1
}

// touchesMultiVersion: i defines or reads a version of a register written
// several times. Moving it changes where that version lives relative to
// the register's other versions; where they come to overlap, OutOfSSA
// must split them (a register of their own and copies on the edges),
// which costs more than the move gains (measured on the corpus: most of
// the CSSA copies left were there).
func touchesMultiVersion(p *Pass, i ir.InstrID) bool {
	st := p.ssa
	if st == nil {
		return false
	}
	var refs [16]core.RegRef
	for _, x := range core.AppendRegRefs(p.F, i, refs[:0]) {
		if st.multiVersion(x.Reg) {
			return true
		}
	}
	return false
}
