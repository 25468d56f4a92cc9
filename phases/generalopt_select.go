package phases

import "github.com/ptxopt/ptxopt/ir"

// Select formation's rules (rules/int.rules, SelpMin and SelpMax): a
// select between the two sides of an integer comparison is a min or a
// max.
//
//	setp.lt.s32 %p, a, b;  selp.b32 %d, a, b, %p   =>  min.s32 %d, a, b
//	setp.le.s32 %p, a, b;  selp.b32 %d, b, a, %p   =>  max.s32 %d, b, a
//	setp.lt.u32 %p, a, 256; selp.b32 %d, a, 255, %p  =>  min.u32 %d, a, 255
//
// The comparison is an unguarded setp (no combining predicate, no other
// modifier) whose sources still hold their values at the select (defOf);
// a > b is read as b < a. The select picks x where "A < B" (or "A <= B")
// holds and y elsewhere: min(x, y) when x is A and y is B, max(x, y)
// when x is B and y is A. A constant side c of a strict comparison also
// matches c-1 or c+1 where that makes it non-strict (A < c is A <= c-1
// unless c is the type's least value; c < B is c+1 <= B unless c is the
// greatest; the same for <=), which is how -O0 code clamps. Where A
// equals B both arms hold the same value, so < and <= agree. Signedness
// is the comparison's: lt/le/gt/ge by the setp's type, lo/ls/hi/hs
// unsigned; the widths of setp and selp must agree. Only integers: a
// float min/max treats NaN and -0 unlike a compare-and-pick.

// minMaxOf reports which of min and max the select i ("selp x, y, p")
// is (ir.OpUnknown: neither) and remembers the type in g.mmType.
func (g *genOpt) minMaxOf(i ir.InstrID, x, y, p val) ir.Opcode {
	f := g.f
	if !p.reg() || !x.ok || !y.ok {
		return ir.OpUnknown
	}
	s, ok := g.defOf(p.o.Reg())
	if !ok || f.Op[s] != ir.OpSetp || f.OpCount[s] != 3 || f.Mods[s] != ir.Mods(0).WithCmp(f.Mods[s].Cmp()) {
		return ir.OpUnknown
	}
	st, t := f.Type[s], f.Type[i]
	if d := f.Ops(s)[0]; !tyInt(st) || st.Bits() != t.Bits() || d.Kind() != ir.KReg || d.Reg() != p.o.Reg() || d.Flags() != 0 {
		return ir.OpUnknown
	}
	signed := st.IsSigned()
	strict := false
	swap := false
	switch f.Mods[s].Cmp() {
	case ir.CmpLt:
		strict = true
	case ir.CmpLe:
	case ir.CmpGt:
		strict, swap = true, true
	case ir.CmpGe:
		swap = true
	case ir.CmpLo:
		strict, signed = true, false
	case ir.CmpLs:
		signed = false
	case ir.CmpHi:
		strict, swap, signed = true, true, false
	case ir.CmpHs:
		swap, signed = true, false
	default:
		return ir.OpUnknown
	}
	a, b := g.src(s, 0), g.src(s, 1)
	if a.none() || b.none() {
		return ir.OpUnknown
	}
	if swap {
		a, b = b, a
	}
	mt := ir.Type(0)
	w := t.Bits()
	switch {
	case signed && w == 16:
		mt = ir.TS16
	case signed && w == 32:
		mt = ir.TS32
	case signed:
		mt = ir.TS64
	case w == 16:
		mt = ir.TU16
	case w == 32:
		mt = ir.TU32
	default:
		mt = ir.TU64
	}
	// The alternative constants: A < c is A <= c-1, A <= c is A < c+1;
	// c < B is c+1 <= B, c <= B is c-1 < B.
	mask := widthMask(mt)
	lo, hi := uint64(0), mask
	if signed {
		lo, hi = uint64(1)<<(w-1), mask>>1
	}
	alt := func(v val, down bool) (val, bool) {
		if !v.k {
			return val{}, false
		}
		if down {
			if v.c&mask == lo {
				return val{}, false
			}
			return constVal((v.c - 1) & mask), true
		}
		if v.c&mask == hi {
			return val{}, false
		}
		return constVal((v.c + 1) & mask), true
	}
	isA := func(v val) bool {
		if sameVal(v, a) {
			return true
		}
		c, ok := alt(a, !strict) // c < B: c+1; c <= B: c-1
		return ok && v.k && v.c&mask == c.c
	}
	isB := func(v val) bool {
		if sameVal(v, b) {
			return true
		}
		c, ok := alt(b, strict) // A < c: c-1; A <= c: c+1
		return ok && v.k && v.c&mask == c.c
	}
	g.mmType = mt
	switch {
	case isA(x) && isB(y):
		return ir.OpMin
	case isB(x) && isA(y):
		return ir.OpMax
	}
	return ir.OpUnknown
}

// toMinMax rewrites the select i into op.mmType d, x, y (SelpMin,
// SelpMax: the sources in the select's order).
func (g *genOpt) toMinMax(i ir.InstrID, op ir.Opcode, x, y val) {
	g.toForm(i, ir.Form{Op: op, Type: g.mmType}, x, y)
}

func (g *genOpt) toMin(i ir.InstrID, x, y, _ val) { g.toMinMax(i, ir.OpMin, x, y) }
func (g *genOpt) toMax(i ir.InstrID, x, y, _ val) { g.toMinMax(i, ir.OpMax, x, y) }

// combineNear reports whether a source register of instruction i is
// defined by a multiplication or a conversion (validly here, defOf) at
// most combineDist instructions before i in its block: the combining rules join only such pairs, so the
// product's or index's operands stay live no longer than they did (a
// product computed far ahead and added late would keep its two operands
// live to the add instead of one result).
func (g *genOpt) combineNear(i ir.InstrID) bool {
	f := g.f
	for _, o := range f.Ops(i)[1:] {
		if o.Kind() != ir.KReg || o.IsDef() {
			continue
		}
		d, ok := g.defOf(o.Reg())
		if !ok || (f.Op[d] != ir.OpMul && f.Op[d] != ir.OpCvt) || f.Block[d] != f.Block[i] {
			continue
		}
		n := 0
		for x := f.Prev[i]; x != ir.NoInstr && n < combineDist; x = f.Prev[x] {
			if x == d {
				return true
			}
			n++
		}
	}
	return false
}

// combineDist is how close combineNear wants the pair.
const combineDist = 2
