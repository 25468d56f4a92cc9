package phases

import (
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

// The run-time side of the reuse rules (rules/reuse.rules): op(y + c)
// becomes E + c' where E, an unguarded instruction of the same form
// dominating it, computes op(y).

// reuseScan bounds the uses of y findReuse looks at for E (the rows list
// them in layout order: an unrolled loop's first copy comes first).
const reuseScan = 64

// findReuse reports whether instruction i, whose source x is a register
// defined (validly here) by "add y, c", can be rewritten as E + c', and
// remembers E and c' for reuse. Only in the global walk: E is found among
// the uses of y in the def-use chains, which only it keeps.
func (g *genOpt) findReuse(i ir.InstrID, x val) bool {
	if g.mode != walkGlobal || g.du == nil {
		return false
	}
	f := g.f
	ops := f.Ops(i)
	pos := -1
	for k := 1; k < len(ops); k++ {
		if ops[k] == x.o {
			pos = k
			break
		}
	}
	xr := x.o.Reg()
	a, ok := g.defOf(xr)
	if pos < 0 || !ok || f.Op[a] != ir.OpAdd || f.Mods[a] != 0 || f.OpCount[a] != 3 {
		return false
	}
	at := f.Type[a]
	w := at.Bits()
	if !isIntType(at) || w != f.RegType[xr].Bits() {
		return false
	}
	aops := f.Ops(a)
	yr, c := ir.NoReg, uint64(0)
	for k := 1; k <= 2 && yr == ir.NoReg; k++ {
		if y := aops[k]; y.Kind() == ir.KReg && y.Flags() == 0 && g.plainReg(y.Reg()) {
			if v, ok := g.constOf(aops[3-k], at); ok {
				yr, c = y.Reg(), v
			}
		}
	}
	if yr == ir.NoReg {
		return false
	}
	t := f.Type[i]
	var c2 uint64
	switch f.Op[i] {
	case ir.OpCvt:
		// sext or zext: y + c = y | c, whose extension is y's plus c
		if f.Type2[i].Bits() != 32 || w != 32 || !g.lowClear(yr, c, t.IsSigned()) {
			return false
		}
		c2 = c
	case ir.OpMul:
		k, ok := g.constOf(ops[3-pos], t)
		if f.Mods[i] != ir.ModLo || t.Bits() != w || !ok {
			return false
		}
		c2 = c * k
	case ir.OpShl:
		s, ok := g.constOf(ops[2], ir.TU32)
		if pos != 1 || !ok || t.Bits() != w {
			return false
		}
		c2 = shiftLeft(t, c, s)
	case ir.OpAdd:
		if t.Bits() != w {
			return false
		}
		if z := ops[3-pos]; z.Kind() == ir.KReg {
			if _, ok := g.single(z.Reg()); !ok {
				return false // z must be one value wherever it is read
			}
		}
		c2 = c
	default:
		return false
	}
	dt := f.RegType[ops[0].Reg()]
	for n, u := range g.du.Uses(yr) {
		if n == reuseScan {
			break
		}
		e := u.Instr
		if e == i || f.IsDead(e) || f.Block[e] == ir.NoBlock || f.Guard[e] != ir.NoOperand ||
			f.Op[e] != f.Op[i] || f.Type[e] != t || f.Type2[e] != f.Type2[i] || f.Mods[e] != f.Mods[i] || f.OpCount[e] != f.OpCount[i] {
			continue
		}
		eops := f.Ops(e)
		if d := eops[0]; d.Kind() != ir.KReg || !d.IsDef() || d.Flags() != 0 || f.RegType[d.Reg()] != dt {
			continue
		}
		if !g.sameOthers(eops, ops, pos, yr, f.Op[i] == ir.OpAdd) || !g.before(e, i) {
			continue
		}
		g.reuseE, g.reuseC = e, c2&widthMask(dt)
		return true
	}
	return false
}

// sameOthers reports whether instruction operands eops are ops with y in
// place of source pos (for a commutative add, in either order).
func (g *genOpt) sameOthers(eops, ops []ir.Operand, pos int, y ir.RegID, comm bool) bool {
	isY := func(o ir.Operand) bool { return o.Kind() == ir.KReg && o.Flags() == 0 && o.Reg() == y }
	same := func(a, b ir.Operand) bool {
		if a.Kind() == ir.KImm && b.Kind() == ir.KImm {
			return a.Flags() == b.Flags() && g.f.Imms[a.Index()] == g.f.Imms[b.Index()]
		}
		return a == b
	}
	ok := true
	for k := 1; k < len(ops); k++ {
		if k == pos && !isY(eops[k]) || k != pos && !same(eops[k], ops[k]) {
			ok = false
		}
	}
	if !ok && comm && len(ops) == 3 {
		ok = isY(eops[3-pos]) && same(eops[pos], ops[3-pos])
	}
	return ok
}

// constOf returns the bits of operand o when it is an integer immediate
// or a register the walk knows the value of, read as type t.
func (g *genOpt) constOf(o ir.Operand, t ir.Type) (uint64, bool) {
	switch o.Kind() {
	case ir.KImm:
		return immAs(g.f, o, t)
	case ir.KReg:
		if o.Flags() == 0 && g.f.RegType[o.Reg()].Bits() == t.Bits() {
			return g.known(o.Reg())
		}
	}
	return 0, false
}

// lowClear reports whether adding c to the 32-bit register y cannot carry
// out of the low bits of y known to be zero (y a shl, mul.lo or and by a
// constant): c < 2^tz, tz at most 31 when the result is sign-extended.
func (g *genOpt) lowClear(y ir.RegID, c uint64, signed bool) bool {
	f := g.f
	d, ok := g.defOf(y)
	if !ok || f.OpCount[d] != 3 || f.Mods[d]&^ir.ModLo != 0 {
		return false
	}
	ops := f.Ops(d)
	t := f.Type[d]
	tz := 0
	switch f.Op[d] {
	case ir.OpShl:
		s, ok := g.constOf(ops[2], ir.TU32)
		if !ok {
			return false
		}
		tz = int(min(s, 32))
	case ir.OpMul, ir.OpAnd:
		if f.Op[d] == ir.OpMul && f.Mods[d] != ir.ModLo {
			return false
		}
		k, ok := g.constOf(ops[2], t)
		if !ok {
			return false
		}
		tz = bits.TrailingZeros32(uint32(k))
	default:
		return false
	}
	if signed {
		tz = min(tz, 31)
	}
	return c < 1<<tz
}

// reuse rewrites instruction i into "add dst, E, c'" (what findReuse
// found): an add of the destination's width, signed when i's type is.
func (g *genOpt) reuse(i ir.InstrID, _ ...val) {
	f := g.f
	dst := f.Ops(i)[0]
	e := f.Ops(g.reuseE)[0].Reg()
	t := intType(f.RegType[dst.Reg()].Bits(), f.Type[i].IsSigned())
	f.SetOps(i, []ir.Operand{dst, ir.RegOp(e), immOperandFor(f, t, g.reuseC)})
	f.SetFormSameEdges(i, ir.Form{Op: ir.OpAdd, Type: t})
}
