package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The GeneralOptimize bundle (six slots: GeneralOptimizeEarly, GeneralOptimize,
// GeneralOptimizeMid, GeneralOptimizeMid2, GeneralOptimizeLate,
// GeneralOptimizeLate2): copy propagation, integer constant folding and
// integer algebraic simplification, iterated to a fixed point within the
// budgets. The copies it makes dead are left to OriPerformLiveDead, which
// follows most slots.
//
// Purpose: -O0-style PTX moves every value through temporaries and
// materialises constants in registers; the bundle lets each use read the
// original value and folds what becomes constant.
//
// Preconditions: none. The IR is not assumed to be in SSA form: a register
// may be written many times, and a guarded write ("@%p mov …") keeps the
// old value in the lanes whose guard is false.
//
// Guarantees: the program computes exactly what it computed before. Every
// rewrite below is justified on its own, per lane:
//
//   - Local copy propagation. Walking a block forward, an unguarded plain
//     copy "mov.t %d, s" (InstrProps has PCopy: register destination, one
//     register or immediate source of the same width) makes s the value
//     of %d until either %d or s is written again (any definition counts:
//     guarded ones, list and vector elements, "%p|%q"). Until then a read
//     of %d may read s instead.
//   - Global copy propagation, without SSA. %d has exactly one definition
//     in the function, the unguarded copy c = "mov %d, s", and c
//     dominates the use (c's block strictly dominates the use's block, or
//     c comes first in the same block). Then on every path to the use the
//     last write of %d is c. If s is an immediate that settles it. If s is
//     a register, s must also have exactly one definition D (guarded or
//     not), and D must dominate c the same way. Then s changes only when D
//     runs; any path from an execution of D to the use passes c (otherwise
//     D reaches the use avoiding c, and since D dominates c and c
//     dominates the use, D would dominate c and c dominate D, with D != c),
//     so s still holds at the use the value %d got from it at c.
//   - Folding: add, sub, mul.lo, and, or, xor, not, neg, shl, shr, min and
//     max of integer type (16, 32 or 64 bits), with no other modifier, all
//     of whose sources are integer immediates, become "mov.t %d, imm" with
//     PTX's semantics: arithmetic modulo 2^width, signedness from the type,
//     shift amounts read as .u32, shl/shr.u by width or more give 0, shr.s
//     fills with the sign.
//   - Identities on the same integer opcodes: x+0, 0+x, x-0, x*1, 1*x,
//     x|0, 0|x, x^0, 0^x, x&-1, -1&x, x<<0, x>>0 become "mov.t %d, x";
//     x*0, 0*x, x&0, 0&x become "mov.t %d, 0". An unguarded "mov %a, %a"
//     is removed. Floating point is never folded nor simplified (-0.0,
//     NaN and rounding make the identities false), so limit-fold-fp has
//     nothing to limit.
//
// What is never touched: operands of instructions that are volatile,
// convergent, carry-chain, calls, asynchronous, opaque or pseudo (a
// substitution there would be correct, but those keep their exact
// operands by policy); .reg parameter registers and vector registers on
// either side of a copy; special registers (a mov from %tid.x is not a
// copy). A register replaces a register only where the types are
// interchangeable for PTX's type rules (the same type; integer types of
// one width; a .b register for anything of its width). An immediate
// replaces a register only at a whitelisted position: the source of an
// integer mov, the second source of integer add/sub/mul/and/or/xor/min/
// max and of a plain two-source setp, the shift amount of shl/shr; never
// an address, a vector element, a guard, a store value or a call
// argument; only integer immediates, and only when the register, the
// copy and the using instruction have the same width (the immediate is
// then truncated the same way in both places).
//
// Budgets: CopyPropBudget bounds local rewrites, CopyPropGlobalBudget
// cross-block rewrites, per function and bundle run. The global rule is
// always on (it is exact without SSA), so CopyPropForceGlobal and
// CopyPropUseReachingDefs change nothing.
//
//	before:  mov.u32 %r2, %r1;  add.u32 %r3, %r2, 0;  mov.u32 %r4, 8;  shl.b32 %r5, %r3, %r4;
//	after:   mov.u32 %r2, %r1;  mov.u32 %r3, %r1;     mov.u32 %r4, 8;  shl.b32 %r5, %r1, 8;
//	         (the dead moves go in the next OriPerformLiveDead)

// generalOptimize: the GeneralOptimize bundle.
func generalOptimize(p *Pass) bool {
	f := p.F
	g := &genOpt{
		f:            f,
		a:            p.A,
		sc:           p.Scratch,
		localBudget:  p.Knobs.Budget(CopyPropBudget),
		globalBudget: p.Knobs.Budget(CopyPropGlobalBudget),
	}
	changed := false
	for round := 0; round < maxGeneralOptimizeRounds; round++ {
		n := g.localCopyProp()
		n += g.simplify()
		n += g.globalCopyProp()
		if n == 0 {
			// A round that changed nothing: rerun, the bundle would
			// change nothing either — unless a budget cut a round short
			// (a rerun gets a fresh budget).
			if g.localBudget > 0 && g.globalBudget > 0 {
				p.FixedPoint()
			}
			break
		}
		changed = true
	}
	if g.copies > 0 {
		p.Count("copies propagated", g.copies)
	}
	if g.folded > 0 {
		p.Count("constants folded", g.folded)
	}
	if g.simplified > 0 {
		p.Count("identities simplified", g.simplified)
	}
	return changed
}

// maxGeneralOptimizeRounds bounds the fixed-point iteration; each round is
// linear, and chains of copies usually settle in two or three.
const maxGeneralOptimizeRounds = 8

// genOpt is one bundle run's state: budgets, counters, reused buffers.
type genOpt struct {
	f                         *ir.Func
	a                         *Analyses
	sc                        *Scratch
	duAt                      int64 // edits when the cached def-use chains were last known current
	localBudget, globalBudget int64
	copies, folded            int64
	simplified                int64

	refs []core.RegRef
	// Local copy table, indexed by the copy's destination register: the
	// source word, the source's version when the copy ran, and the block
	// stamp (entries of other blocks are stale). ver[r] counts the
	// definitions of r seen so far.
	ent    []copyEnt
	ver    []uint32
	stamp  uint32
	pos    []int32 // instruction's position in its block (global pass)
	opaque []bool  // registers an opaque instruction names (global pass)
}

type copyEnt struct {
	src   ir.Operand
	ver   uint32
	stamp uint32
}

// noRewrite: instructions whose operands are left exactly as written.
const noRewrite = ir.PVolatile | ir.PConvergent | ir.PCarry | ir.PCall | ir.PAsync | ir.POpaque | ir.PPseudo

// copySource returns the source word of instruction i when i is a copy the
// bundle may propagate: an unguarded plain mov whose destination and
// register source are ordinary scalar registers of interchangeable types,
// or whose immediate source is an integer of the destination's width.
func (g *genOpt) copySource(i ir.InstrID) (dst ir.RegID, src ir.Operand, ok bool) {
	f := g.f
	if f.Op[i] != ir.OpMov || f.Guard[i] != ir.NoOperand || !f.InstrProps(i).Has(ir.PCopy) {
		return ir.NoReg, ir.NoOperand, false
	}
	ops := f.Ops(i)
	d := ops[0].Reg()
	if ops[0].Flags() != 0 || !g.plainReg(d) {
		return ir.NoReg, ir.NoOperand, false
	}
	s := ops[1]
	switch s.Kind() {
	case ir.KReg:
		r := s.Reg()
		if r == d || s.Flags() != 0 || !g.plainReg(r) || !regsInterchangeable(f.RegType[d], f.RegType[r]) {
			return ir.NoReg, ir.NoOperand, false
		}
	case ir.KImm:
		t := f.RegType[d]
		if !intImm(f, s) || !isIntType(t) || !isIntType(f.Type[i]) || f.Type[i].Bits() != t.Bits() {
			return ir.NoReg, ir.NoOperand, false
		}
	default:
		return ir.NoReg, ir.NoOperand, false
	}
	return d, s.AsUse(), true
}

// plainReg: an ordinary scalar register (not a .reg parameter, not a
// vector register).
func (g *genOpt) plainReg(r ir.RegID) bool {
	return g.f.RegVec[r] == 0 && g.f.RegParam(r) == ir.NoSym
}

// regsInterchangeable reports whether a register of type s may stand
// wherever a register of type d stood: the same type; or one width with
// s a bit type (allowed with any type of its size); or two integer types.
func regsInterchangeable(d, s ir.Type) bool {
	if d == s {
		return true
	}
	if d == ir.TPred || s == ir.TPred || d.Bits() != s.Bits() || d.Bits() == 0 {
		return false
	}
	return isBitType(s) || (isIntType(d) && isIntType(s))
}

func isBitType(t ir.Type) bool { return t >= ir.TB8 && t <= ir.TB64 }

// isIntType: .b, .u, .s of 8 to 64 bits.
func isIntType(t ir.Type) bool { return t >= ir.TB8 && t <= ir.TS64 && t != ir.TB128 }

// intImm reports whether o is an integer immediate (not a float literal)
// with no flag other than a minus sign.
func intImm(f *ir.Func, o ir.Operand) bool {
	return o.Kind() == ir.KImm && !f.Imms[o.Index()].Kind.IsFloat() && o.Flags()&^ir.FlagNeg == 0
}

// immBits returns the value of integer immediate o (sign applied), 64 bits.
func immBits(f *ir.Func, o ir.Operand) uint64 {
	v := f.Imms[o.Index()].Bits
	if o.Has(ir.FlagNeg) {
		v = -v
	}
	return v
}

// immAllowed reports whether the register use at l of instruction i (a
// use of register r) may be replaced by an integer immediate: see the
// whitelist in the file comment.
func (g *genOpt) immAllowed(i ir.InstrID, l core.Loc, r ir.RegID) bool {
	f := g.f
	if l.IsGuard() || l.InList() || core.OperandAt(f, i, l).Flags() != 0 {
		return false
	}
	t := f.Type[i]
	if !isIntType(t) || t.Bits() < 16 {
		return false
	}
	ops := f.Ops(i)
	k := core.OperandIndex(f, i, l)
	w := f.RegType[r].Bits()
	switch f.Op[i] {
	case ir.OpMov:
		return len(ops) == 2 && k == 1 && ops[0].Kind() == ir.KReg && w == t.Bits()
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpMin, ir.OpMax, ir.OpSetp:
		return len(ops) == 3 && k == 2 && w == t.Bits()
	case ir.OpShl, ir.OpShr:
		return len(ops) == 3 && k == 2 && w == 32
	}
	return false
}

// localCopyProp runs the block-local propagation over every block.
func (g *genOpt) localCopyProp() int64 {
	f := g.f
	if g.localBudget <= 0 {
		return 0
	}
	if len(g.ent) < f.NumRegs() {
		g.ent = take[copyEnt](g.sc, f.NumRegs())
		g.ver = take[uint32](g.sc, f.NumRegs())
		g.stamp = 0
	}
	n, folds := int64(0), int64(0)
	for _, b := range f.Layout {
		g.stamp++
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if op := g.foldable(i); op != fNone && g.foldKnown(i, op, g.localConst) {
				folds++
			}
			g.refs = core.AppendRegRefs(f, i, g.refs[:0])
			if f.InstrProps(i)&noRewrite == 0 {
				for _, x := range g.refs {
					if x.Def || g.localBudget <= 0 {
						continue
					}
					e := g.ent[x.Reg]
					if e.stamp != g.stamp {
						continue
					}
					if e.src.Kind() == ir.KReg {
						if g.ver[e.src.Reg()] != e.ver {
							continue
						}
						o := core.OperandAt(f, i, x.Loc)
						core.SetOperandAt(f, i, x.Loc, o.WithIndex(uint32(e.src.Reg())))
					} else {
						if !g.immAllowed(i, x.Loc, x.Reg) {
							continue
						}
						core.SetOperandAt(f, i, x.Loc, e.src)
					}
					g.localBudget--
					n++
				}
			}
			for _, x := range g.refs {
				if x.Def {
					g.ver[x.Reg]++
					g.ent[x.Reg].stamp = 0
				}
			}
			if f.InstrProps(i).Has(ir.POpaque) {
				// It may write more than the operands marked as
				// definitions: forget every copy of the block so far.
				g.stamp++
			}
			if d, src, ok := g.copySource(i); ok {
				e := copyEnt{src: src, stamp: g.stamp}
				if src.Kind() == ir.KReg {
					e.ver = g.ver[src.Reg()]
				}
				g.ent[d] = e
			}
		}
	}
	g.copies += n
	return n + folds
}

// globalCopyProp propagates single-definition copies across blocks (see
// the file comment for why it is exact).
func (g *genOpt) globalCopyProp() int64 {
	f := g.f
	if g.globalBudget <= 0 || len(f.Layout) < 2 {
		return 0
	}
	// Rewrites since the chains were cached make them stale.
	if edits := g.copies + g.folded + g.simplified; edits != g.duAt {
		g.a.Invalidate(instrAnalyses)
		g.duAt = edits
	}
	du := g.a.DefUse()
	dom := g.a.Dom()
	if cap(g.pos) < f.NumInstrs() {
		g.pos = take[int32](g.sc, f.NumInstrs())
	}
	g.pos = g.pos[:f.NumInstrs()]
	for _, b := range f.Layout {
		k := int32(0)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			g.pos[i] = k
			k++
		}
	}
	// before reports whether instruction a dominates instruction b and
	// is not b.
	before := func(a, b ir.InstrID) bool {
		ba, bb := f.Block[a], f.Block[b]
		if ba == bb {
			return g.pos[a] < g.pos[b] && dom.Contains(ba)
		}
		return dom.Dominates(ba, bb)
	}
	// An opaque instruction may write operands not marked as definitions:
	// a register it names has no known set of definitions.
	if cap(g.opaque) < f.NumRegs() {
		g.opaque = take[bool](g.sc, f.NumRegs())
	}
	g.opaque = g.opaque[:f.NumRegs()]
	clear(g.opaque)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.InstrProps(i).Has(ir.POpaque) {
				g.refs = core.AppendRegRefs(f, i, g.refs[:0])
				for _, x := range g.refs {
					g.opaque[x.Reg] = true
				}
			}
		}
	}
	single := func(r ir.RegID) (ir.InstrID, bool) {
		defs := du.Defs(r)
		if len(defs) != 1 || g.opaque[r] {
			return ir.NoInstr, false
		}
		return defs[0].Instr, true
	}
	n := int64(0)
	for r := range f.NumRegs() {
		if g.globalBudget <= 0 {
			break
		}
		d := ir.RegID(r)
		c, ok := single(d)
		if !ok || len(du.Uses(d)) == 0 {
			continue
		}
		dst, src, ok := g.copySource(c)
		if !ok || dst != d {
			continue
		}
		if src.Kind() == ir.KReg {
			if sd, ok := single(src.Reg()); !ok || !before(sd, c) {
				continue
			}
		}
		for _, u := range du.Uses(d) {
			if g.globalBudget <= 0 {
				break
			}
			i := u.Instr
			if f.Dead[i] || f.Block[i] == ir.NoBlock || !before(c, i) || f.InstrProps(i)&noRewrite != 0 {
				continue
			}
			o := core.OperandAt(f, i, u.Loc)
			if !o.IsReg() || o.Reg() != d || o.IsDef() {
				continue // already rewritten this round
			}
			if src.Kind() == ir.KReg {
				core.SetOperandAt(f, i, u.Loc, o.WithIndex(uint32(src.Reg())))
			} else {
				if !g.immAllowed(i, u.Loc, d) {
					continue
				}
				core.SetOperandAt(f, i, u.Loc, src)
			}
			g.globalBudget--
			n++
		}
	}
	g.copies += n
	// Sources that are single-definition immediate copies dominating the
	// instruction are constants there, also where no immediate may be
	// written (the first source): fold what they make constant.
	known := func(i ir.InstrID, r ir.RegID) (ir.Operand, bool) {
		c, ok := single(r)
		if !ok || !before(c, i) {
			return ir.NoOperand, false
		}
		if _, src, ok := g.copySource(c); ok && src.Kind() == ir.KImm {
			return src, true
		}
		return ir.NoOperand, false
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if op := g.foldable(i); op != fNone && g.foldKnown(i, op, known) {
				n++
			}
		}
	}
	return n
}

// localConst is the local walk's constant lookup: the immediate the copy
// table holds for r, when the entry is live.
func (g *genOpt) localConst(_ ir.InstrID, r ir.RegID) (ir.Operand, bool) {
	e := g.ent[r]
	if e.stamp != g.stamp || e.src.Kind() != ir.KImm {
		return ir.NoOperand, false
	}
	return e.src, true
}

// foldKnown folds instruction i (checked by foldable) when each register
// source is a constant according to known. It reports whether it did.
func (g *genOpt) foldKnown(i ir.InstrID, op foldOp, known func(ir.InstrID, ir.RegID) (ir.Operand, bool)) bool {
	f := g.f
	ops := f.Ops(i)
	var srcs [2]ir.Operand
	regs := 0
	for k, o := range ops[1:] {
		if o.Kind() == ir.KReg {
			c, ok := known(i, o.Reg())
			if !ok {
				return false
			}
			o = c
			regs++
		}
		srcs[k] = o
	}
	if regs == 0 {
		return false // simplify's work
	}
	return g.foldImms(i, op, ops[0], srcs[:len(ops)-1])
}

// Folding and identities.

// foldOp is one integer opcode the bundle folds, by its mnemonic shape.
type foldOp uint8

const (
	fNone foldOp = iota
	fAdd
	fSub
	fMul
	fAnd
	fOr
	fXor
	fNot
	fNeg
	fShl
	fShr
	fMin
	fMax
)

// foldable returns the fold operation of instruction i: its mnemonic must
// be exactly "op.t" ("mul.lo.t" for mul) with t an integer type of 16, 32
// or 64 bits (min/max/neg: not a bit type), one register destination as
// wide as t, and sources that are unflagged registers or integer
// immediates.
func (g *genOpt) foldable(i ir.InstrID) foldOp {
	f := g.f
	var op foldOp
	want := 3
	switch f.Op[i] {
	case ir.OpAdd:
		op = fAdd
	case ir.OpSub:
		op = fSub
	case ir.OpMul:
		op = fMul
	case ir.OpAnd:
		op = fAnd
	case ir.OpOr:
		op = fOr
	case ir.OpXor:
		op = fXor
	case ir.OpNot:
		op, want = fNot, 2
	case ir.OpNeg:
		op, want = fNeg, 2
	case ir.OpShl:
		op = fShl
	case ir.OpShr:
		op = fShr
	case ir.OpMin:
		op = fMin
	case ir.OpMax:
		op = fMax
	default:
		return fNone
	}
	t := f.Type[i]
	if !isIntType(t) || t.Bits() < 16 || f.Type2[i] != ir.TNone {
		return fNone
	}
	if isBitType(t) && (op == fMin || op == fMax || op == fNeg) {
		return fNone
	}
	if f.InstrProps(i)&(noRewrite|ir.PSideEffect) != 0 {
		return fNone
	}
	// The mnemonic must be exactly "op.t" ("mul.lo.t"): no modifier but
	// the low half of mul, no space, no vector.
	want0 := ir.Mods(0)
	if op == fMul {
		want0 = ir.ModLo
	}
	if f.Mods[i] != want0 || f.Space[i] != ir.SpaceNone {
		return fNone
	}
	ops := f.Ops(i)
	if len(ops) != want || ops[0].Kind() != ir.KReg || !ops[0].IsDef() || ops[0].Flags() != 0 ||
		f.RegVec[ops[0].Reg()] != 0 || f.RegType[ops[0].Reg()].Bits() != t.Bits() {
		return fNone
	}
	for k, o := range ops[1:] {
		switch o.Kind() {
		case ir.KReg:
			w := t.Bits()
			if k == 1 && k2shift(op) {
				w = 32 // the shift amount is .u32
			}
			if o.Flags() != 0 || o.IsDef() || f.RegVec[o.Reg()] != 0 || f.RegType[o.Reg()].Bits() != w {
				return fNone
			}
		case ir.KImm:
			if !intImm(f, o) {
				return fNone
			}
		default:
			return fNone
		}
	}
	return op
}

func k2shift(op foldOp) bool { return op == fShl || op == fShr }

// simplify folds constants and applies the identities over the function.
func (g *genOpt) simplify() int64 {
	f := g.f
	n := int64(0)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			if g.selfMove(i) {
				f.Remove(i)
				g.simplified++
				n++
				i = next
				continue
			}
			op := g.foldable(i)
			if op != fNone {
				n += g.simplifyInstr(i, op)
			}
			i = next
		}
	}
	return n
}

// selfMove: an unguarded "mov.t %a, %a" copy, which changes nothing.
func (g *genOpt) selfMove(i ir.InstrID) bool {
	f := g.f
	if f.Op[i] != ir.OpMov || f.Guard[i] != ir.NoOperand || !f.InstrProps(i).Has(ir.PCopy) {
		return false
	}
	ops := f.Ops(i)
	return ops[1].Kind() == ir.KReg && ops[0].Reg() == ops[1].Reg() && ops[0].Flags() == 0 && ops[1].Flags() == 0
}

// simplifyInstr folds or simplifies instruction i (already checked by
// foldable) and reports 1 when it rewrote it.
func (g *genOpt) simplifyInstr(i ir.InstrID, op foldOp) int64 {
	f := g.f
	t := f.Type[i]
	w := t.Bits()
	mask := ^uint64(0) >> (64 - w)
	ops := f.Ops(i)
	if g.foldImms(i, op, ops[0], ops[1:]) {
		return 1
	}
	if op == fNot || op == fNeg {
		return 0
	}
	dst, a, b := ops[0], ops[1], ops[2]
	// One register, one immediate: the identities. x is the register
	// source, c the immediate (truncated to the width; shift amounts are
	// .u32 and must fit).
	commutes := op == fAdd || op == fMul || op == fAnd || op == fOr || op == fXor
	x, imm := a, b
	if a.Kind() == ir.KImm {
		if !commutes {
			return 0
		}
		x, imm = b, a
	}
	if x.Kind() != ir.KReg || imm.Kind() != ir.KImm {
		return 0
	}
	cv := immBits(f, imm)
	if k2shift(op) {
		if cv>>32 != 0 {
			return 0
		}
		if f.RegType[x.Reg()].Bits() != w {
			return 0
		}
	} else {
		cv &= mask
	}
	switch {
	case (op == fAdd || op == fSub || op == fOr || op == fXor || op == fShl || op == fShr) && cv == 0,
		op == fMul && cv == 1, op == fAnd && cv == mask:
		g.toMov(i, dst, x.AsUse())
	case (op == fMul || op == fAnd) && cv == 0:
		g.toMovImm(i, dst, 0)
	default:
		return 0
	}
	g.simplified++
	return 1
}

// foldImms rewrites instruction i into "mov.t dst, result" when every
// source word in srcs is an integer immediate, and reports whether it did.
func (g *genOpt) foldImms(i ir.InstrID, op foldOp, dst ir.Operand, srcs []ir.Operand) bool {
	f := g.f
	for _, o := range srcs {
		if o.Kind() != ir.KImm {
			return false
		}
	}
	t := f.Type[i]
	mask := ^uint64(0) >> (64 - t.Bits())
	var r uint64
	switch op {
	case fNot:
		r = ^immBits(f, srcs[0])
	case fNeg:
		r = -immBits(f, srcs[0])
	default:
		var ok bool
		if r, ok = foldBinary(op, t, immBits(f, srcs[0]), immBits(f, srcs[1])); !ok {
			return false
		}
	}
	g.toMovImm(i, dst, r&mask)
	g.folded++
	return true
}

// foldBinary computes a op b for integer type t with PTX's semantics; the
// result is truncated by the caller.
func foldBinary(op foldOp, t ir.Type, a, b uint64) (uint64, bool) {
	w := t.Bits()
	mask := ^uint64(0) >> (64 - w)
	a &= mask
	switch op {
	case fAdd:
		return a + b, true
	case fSub:
		return a - b, true
	case fMul:
		return a * (b & mask), true
	case fAnd:
		return a & b, true
	case fOr:
		return a | b, true
	case fXor:
		return a ^ b, true
	case fShl, fShr:
		if b>>32 != 0 {
			return 0, false // not a .u32 amount as written
		}
		if op == fShl {
			if b >= uint64(w) {
				return 0, true
			}
			return a << b, true
		}
		if t.IsSigned() {
			s := min(b, uint64(w-1))
			return uint64(signExtend(a, w) >> s), true
		}
		if b >= uint64(w) {
			return 0, true
		}
		return a >> b, true
	case fMin, fMax:
		b &= mask
		less := a < b
		if t.IsSigned() {
			less = signExtend(a, w) < signExtend(b, w)
		}
		if less == (op == fMin) {
			return a, true
		}
		return b, true
	}
	return 0, false
}

func signExtend(v uint64, w int) int64 {
	s := uint(64 - w)
	return int64(v<<s) >> s
}

// toMov rewrites instruction i, in place and keeping its guard, into
// "mov.t dst, src" with t its type.
func (g *genOpt) toMov(i ir.InstrID, dst, src ir.Operand) {
	f := g.f
	f.SetOps(i, []ir.Operand{dst, src})
	f.SetForm(i, ir.Form{Op: ir.OpMov, Type: f.Type[i]})
}

// toMovImm rewrites i into "mov.t dst, v", v already truncated to the
// width: signed types print it as a (possibly negative) decimal, the
// others as decimal when small, else hexadecimal.
func (g *genOpt) toMovImm(i ir.InstrID, dst ir.Operand, v uint64) {
	f := g.f
	t := f.Type[i]
	im := ir.Imm{Bits: v, Kind: ir.ImmInt}
	switch {
	case t.IsSigned():
		im.Bits = uint64(signExtend(v, t.Bits()))
	case v > 1<<31-1:
		im.Kind = ir.ImmHex
	}
	g.toMov(i, dst, f.AddImm(im))
}
