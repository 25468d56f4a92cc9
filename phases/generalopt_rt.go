package phases

import (
	"math"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The run-time side of GeneralOptimize's rewrite rules: what the matchers
// generated from rules/*.rules (generalopt_rules_gen.go, `go generate`)
// call. A matcher sees an instruction through its decoded facts (opcode,
// types, Mods, Space, operand words) and its sources as vals; it never
// reads text.

//go:generate go run ./rules/gen

// ruleID numbers a rule (generated constants rule<Name>).
type ruleID uint16

// val is a source operand as a rule sees it: a register, an immediate,
// or a register whose value the walk knows to be a constant.
type val struct {
	o  ir.Operand // the operand word as written (register or immediate)
	ok bool       // a plain register or a decodable constant (else only _ matches it)
	k  bool       // a known constant
	c  uint64     // when k: the bits, as wide as the operand's type
}

func (v val) none() bool { return !v.ok }

// reg reports whether v is written as a register.
func (v val) reg() bool { return v.ok && v.o.Kind() == ir.KReg }

// constVal is a computed constant (a result operand).
func constVal(c uint64) val { return val{o: ir.NoOperand, ok: true, k: true, c: c} }

// sameVal reports whether two sources of one instruction (or of
// instructions whose sources still hold) carry the same value: the same
// register, or equal constants.
func sameVal(a, b val) bool {
	if !a.ok || !b.ok {
		return false
	}
	if a.k && b.k {
		return a.c == b.c
	}
	return a.reg() && b.reg() && a.o.Reg() == b.o.Reg()
}

// is reports whether v is the integer constant lit, truncated to the
// width of source k of instruction i (only for integer and predicate
// sources).
func (v val) is(g *genOpt, i ir.InstrID, k int, lit int64) bool {
	if !v.ok || !v.k {
		return false
	}
	t := srcType(g.f, i, k)
	if t != ir.TPred && !isIntType(t) {
		return false
	}
	return v.c == uint64(lit)&widthMask(t)
}

func widthMask(t ir.Type) uint64 {
	w := t.Bits()
	if w >= 64 || w == 0 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// Type classes of the rule language.
func tyInt(t ir.Type) bool      { return isIntType(t) && t.Bits() >= 16 }
func tySigned(t ir.Type) bool   { return t >= ir.TS16 && t <= ir.TS64 }
func tyUnsigned(t ir.Type) bool { return t >= ir.TU16 && t <= ir.TU64 }
func tyBits(t ir.Type) bool     { return t >= ir.TB16 && t <= ir.TB64 }
func tyFloat(t ir.Type) bool {
	return t == ir.TF16 || t == ir.TBF16 || t == ir.TF32 || t == ir.TF64
}

// fpRound: the rounding modifiers a folded float operation may carry.
func fpRound(r ir.Round) bool {
	return r == ir.RoundNone || r == ir.RoundRN || r == ir.RoundRZ || r == ir.RoundRM || r == ir.RoundRP
}

// dstType is the type of instruction i's destination register.
func dstType(f *ir.Func, i ir.InstrID) ir.Type {
	if f.Op[i] == ir.OpSetp {
		return ir.TPred
	}
	return f.Type[i]
}

// srcType is the type source k (0 = the first source) of instruction i is
// read as.
func srcType(f *ir.Func, i ir.InstrID, k int) ir.Type {
	switch f.Op[i] {
	case ir.OpShl, ir.OpShr:
		if k == 1 {
			return ir.TU32
		}
	case ir.OpSelp:
		if k == 2 {
			return ir.TPred
		}
	case ir.OpSetp:
		if k == 2 {
			return ir.TPred
		}
	case ir.OpCvt:
		return f.Type2[i]
	}
	return f.Type[i]
}

// shape reports whether instruction i has one plain scalar register
// destination as wide as its type and n sources, and may be rewritten.
func (g *genOpt) shape(i ir.InstrID, n int) bool {
	// kept for the visit like src's sources (every rule of the opcode asks)
	if i == g.cur && g.memoVisit == g.visit && g.shapeOK && g.shapeN == n {
		return g.shapeRes
	}
	r := g.shapeOf(i, n)
	if i == g.cur {
		if g.memoVisit != g.visit {
			g.memoVisit, g.memoOK = g.visit, 0
		}
		g.shapeOK, g.shapeN, g.shapeRes = true, n, r
	}
	return r
}

// shapeOf is shape without the visit's memory.
func (g *genOpt) shapeOf(i ir.InstrID, n int) bool {
	f := g.f
	ops := f.Ops(i)
	if len(ops) != n+1 || f.InstrProps(i)&(noRewrite|ir.PSideEffect) != 0 {
		return false
	}
	d := ops[0]
	if d.Kind() != ir.KReg || !d.IsDef() || d.Flags() != 0 || f.RegVec[d.Reg()] != 0 {
		return false
	}
	dt := dstType(f, i)
	if dt != ir.TPred && dt.Bits() < 16 {
		return false
	}
	for _, o := range ops[1:] {
		if o.IsDef() || o.Has(ir.FlagPipe) {
			return false
		}
	}
	return f.RegType[d.Reg()].Bits() == dt.Bits()
}

// src returns source k of instruction i (shape checked) as a val.
//
// The rules of one instruction ask for the same sources again and again
// (each rule of an opcode is tried in turn), and known's lookups miss the
// cache on large functions: the walk's instruction keeps its sources for
// the rest of its visit. Any edit (touch) drops them, and a new visit
// (g.visit) starts afresh, so a kept value is what src would compute.
func (g *genOpt) src(i ir.InstrID, k int) val {
	if i != g.cur || k >= len(g.memo) {
		return g.srcOf(i, k)
	}
	if g.memoVisit != g.visit {
		g.memoVisit, g.memoOK, g.shapeOK = g.visit, 0, false
	}
	if g.memoOK&(1<<k) != 0 {
		return g.memo[k]
	}
	v := g.srcOf(i, k)
	g.memo[k] = v
	g.memoOK |= 1 << k
	return v
}

// srcOf is src without the visit's memory.
func (g *genOpt) srcOf(i ir.InstrID, k int) val {
	f := g.f
	o := f.Ops(i)[1+k]
	t := srcType(f, i, k)
	switch o.Kind() {
	case ir.KReg:
		r := o.Reg()
		if o.Flags() != 0 || f.RegVec[r] != 0 {
			return val{}
		}
		v := val{o: o, ok: true}
		if c, ok := g.known(r); ok && f.RegType[r].Bits() == t.Bits() {
			v.k, v.c = true, c
		}
		return v
	case ir.KImm:
		if c, ok := immAs(f, o, t); ok {
			return val{o: o, ok: true, k: true, c: c}
		}
	}
	return val{}
}

// guardVal returns instruction i's guard as a val with its negation
// applied: constant when the guard register's value is known. It is
// not ok when i has no guard.
func (g *genOpt) guardVal(i ir.InstrID) val {
	gd := g.f.Guard[i]
	if !gd.IsReg() || gd.Flags()&^ir.FlagNot != 0 {
		return val{}
	}
	v := val{o: gd, ok: true}
	if c, ok := g.known(gd.Reg()); ok {
		v.k, v.c = true, c&1
		if gd.Has(ir.FlagNot) {
			v.c ^= 1
		}
	}
	return v
}

// immAs returns the bits of immediate o read as a source of type t, when
// that reading is unambiguous: an integer literal for an integer type (or
// 0/1 for a predicate), a float literal of the type's own format (or one
// converting to it exactly) for a float type.
func immAs(f *ir.Func, o ir.Operand, t ir.Type) (uint64, bool) {
	im := f.Imms[o.Index()]
	fl := o.Flags()
	switch {
	case t == ir.TPred:
		if im.Kind.IsFloat() || fl != 0 || im.Bits > 1 {
			return 0, false
		}
		return im.Bits, true
	case isIntType(t):
		if im.Kind.IsFloat() || fl&^ir.FlagNeg != 0 {
			return 0, false
		}
		v := im.Bits
		if fl&ir.FlagNeg != 0 {
			v = -v
		}
		return v & widthMask(t), true
	case t == ir.TF32:
		if fl&^ir.FlagNeg != 0 {
			return 0, false
		}
		var b uint32
		switch im.Kind {
		case ir.ImmF32:
			b = uint32(im.Bits)
		case ir.ImmF64, ir.ImmDecimal:
			x := math.Float64frombits(im.Bits)
			y := float32(x)
			if float64(y) != x && !math.IsNaN(x) {
				return 0, false
			}
			if math.IsNaN(x) {
				return 0, false
			}
			b = math.Float32bits(y)
		default:
			return 0, false
		}
		if fl&ir.FlagNeg != 0 {
			b ^= 1 << 31
		}
		return uint64(b), true
	case t == ir.TF64:
		if fl&^ir.FlagNeg != 0 {
			return 0, false
		}
		var b uint64
		switch im.Kind {
		case ir.ImmF64, ir.ImmDecimal:
			b = im.Bits
		case ir.ImmF32:
			x := math.Float32frombits(uint32(im.Bits))
			if x != x {
				return 0, false
			}
			b = math.Float64bits(float64(x))
		default:
			return 0, false
		}
		if fl&ir.FlagNeg != 0 {
			b ^= 1 << 63
		}
		return b, true
	}
	return 0, false
}

// fire is asked before a rule rewrites instruction i: it counts the
// application, and refuses once the debug limit (GeneralOptimizeRuleLimit)
// is spent, naming the first rule it stopped.
func (g *genOpt) fire(r ruleID, i ir.InstrID) bool {
	if g.ruleBudget <= 0 {
		if !g.ruleCut {
			g.ruleCut = true
			g.cutRule = r
		}
		return false
	}
	g.ruleBudget--
	g.ruleHits[r]++
	g.hits++
	g.rewrites++
	g.touch(i)
	return true
}

// movTypeFor is the type of a mov writing a value of type t: f16 and bf16
// values move as .b16 (PTX has no mov.f16), packed pairs as .b32.
func movTypeFor(t ir.Type) ir.Type {
	switch t {
	case ir.TF16, ir.TBF16:
		return ir.TB16
	case ir.TF16x2, ir.TBF16x2:
		return ir.TB32
	}
	return t
}

// toCopy rewrites i into "mov dst, v" (v a register of the destination's
// width, or a constant).
func (g *genOpt) toCopy(i ir.InstrID, v val) {
	f := g.f
	if v.k && !v.reg() {
		g.toConst(i, v.c)
		return
	}
	dst := f.Ops(i)[0]
	t := movTypeFor(dstType(f, i))
	if rt := f.RegType[v.o.Reg()]; rt != t && !regsInterchangeable(t, rt) {
		t = ir.Type(bitTypeOf(t.Bits()))
	}
	f.SetOps(i, []ir.Operand{dst, v.o})
	f.SetFormSameEdges(i, ir.Form{Op: ir.OpMov, Type: t})
}

func bitTypeOf(w int) ir.Type {
	switch w {
	case 16:
		return ir.TB16
	case 32:
		return ir.TB32
	case 64:
		return ir.TB64
	}
	return ir.TNone
}

// toConst rewrites i into "mov dst, c" with c the bits of a value of the
// destination's type (truncated to its width).
func (g *genOpt) toConst(i ir.InstrID, c uint64) {
	f := g.f
	dst := f.Ops(i)[0]
	t := dstType(f, i)
	c &= widthMask(t)
	f.SetOps(i, []ir.Operand{dst, g.immOperand(t, c)})
	f.SetFormSameEdges(i, ir.Form{Op: ir.OpMov, Type: movTypeFor(t)})
}

// immOperand makes the immediate of value c (bits of type t) in the form
// PTX writes it for a mov of movTypeFor(t): float literals for f32 and f64,
// hexadecimal for the 16-bit floats and packed pairs, decimal for
// predicates and signed integers, decimal or hexadecimal for the rest.
func (g *genOpt) immOperand(t ir.Type, c uint64) ir.Operand { return immOperandFor(g.f, t, c) }

// immOperandFor is immOperand for any pass: an immediate of f.
func immOperandFor(f *ir.Func, t ir.Type, c uint64) ir.Operand {
	im := ir.Imm{Bits: c, Kind: ir.ImmInt}
	switch {
	case t == ir.TF32:
		im.Kind = ir.ImmF32
	case t == ir.TF64:
		im.Kind = ir.ImmF64
	case t.IsFloat():
		im.Kind = ir.ImmHex
	case t.IsSigned():
		im.Bits = uint64(signExtend(c, t.Bits()))
	case c > 1<<31-1:
		im.Kind = ir.ImmHex
	}
	return f.AddImm(im)
}

// toForm rewrites i into instruction form d with the destination kept and
// the given sources: a val written as a register or immediate keeps its
// word; a computed constant becomes an immediate of d's type.
func (g *genOpt) toForm(i ir.InstrID, d ir.Form, srcs ...val) {
	f := g.f
	ops := make([]ir.Operand, 0, 4)
	ops = append(ops, f.Ops(i)[0])
	for _, v := range srcs {
		if v.o == ir.NoOperand {
			ops = append(ops, g.immOperand(d.Type, v.c))
			continue
		}
		ops = append(ops, v.o)
	}
	f.SetOps(i, ops)
	f.SetFormSameEdges(i, d)
}

// remove deletes instruction i.
func (g *genOpt) remove(i ir.InstrID) {
	if g.f.Op[i].Props()&(ir.PBranch|ir.PTerminator) != 0 {
		g.cfgEdits++
		if g.cfgLive {
			g.countRefs(i, -1)
		}
	}
	g.f.Remove(i)
}

// unguard drops instruction i's guard.
func (g *genOpt) unguard(i ir.InstrID) {
	if g.f.Op[i].Props()&(ir.PBranch|ir.PTerminator) != 0 {
		g.cfgEdits++
	}
	core.SetOperandAt(g.f, i, core.LocGuard, ir.NoOperand)
}

// selfMove: "mov.t %a, %a", which changes nothing (guarded or not).
func (g *genOpt) selfMove(i ir.InstrID) bool {
	f := g.f
	if f.Op[i] != ir.OpMov || !f.InstrProps(i).Has(ir.PCopy) {
		return false
	}
	ops := f.Ops(i)
	return ops[1].Kind() == ir.KReg && ops[0].Reg() == ops[1].Reg() && ops[0].Flags() == 0 && ops[1].Flags() == 0
}

// Integer evaluation helpers of the rules (PTX semantics: modulo 2^width,
// signedness from the type, shift amounts .u32; the caller truncates).

func shiftLeft(t ir.Type, a, b uint64) uint64 {
	if b >= uint64(t.Bits()) {
		return 0
	}
	return a << b
}

func shiftRight(t ir.Type, a, b uint64) uint64 {
	w := t.Bits()
	a &= widthMask(t)
	if t.IsSigned() {
		return uint64(signExtend(a, w) >> min(b, uint64(w-1)))
	}
	if b >= uint64(w) {
		return 0
	}
	return a >> b
}

func lessInt(t ir.Type, a, b uint64) bool {
	a, b = a&widthMask(t), b&widthMask(t)
	if t.IsSigned() {
		return signExtend(a, t.Bits()) < signExtend(b, t.Bits())
	}
	return a < b
}

func minInt(t ir.Type, a, b uint64) uint64 {
	if lessInt(t, b, a) {
		return b
	}
	return a
}

func maxInt(t ir.Type, a, b uint64) uint64 {
	if lessInt(t, a, b) {
		return b
	}
	return a
}

// cmpInt evaluates an integer setp comparison: lt/le/gt/ge follow the
// type's signedness, lo/ls/hi/hs are unsigned. The result is 1 or 0; !ok
// for a comparison integers do not have (the float-only ones).
func cmpInt(c ir.Cmp, t ir.Type, a, b uint64) (uint64, bool) {
	a, b = a&widthMask(t), b&widthMask(t)
	lt := lessInt(t, a, b)
	ult := a < b
	var r bool
	switch c {
	case ir.CmpEq:
		r = a == b
	case ir.CmpNe:
		r = a != b
	case ir.CmpLt:
		r = lt
	case ir.CmpLe:
		r = lt || a == b
	case ir.CmpGt:
		r = !lt && a != b
	case ir.CmpGe:
		r = !lt
	case ir.CmpLo:
		r = ult
	case ir.CmpLs:
		r = ult || a == b
	case ir.CmpHi:
		r = !ult && a != b
	case ir.CmpHs:
		r = !ult
	default:
		return 0, false
	}
	if r {
		return 1, true
	}
	return 0, true
}

// cmpSelf is an integer comparison of a value with itself.
func cmpSelf(c ir.Cmp) (uint64, bool) { return cmpInt(c, ir.TU32, 0, 0) }

// shapeNoDst reports whether instruction i (an opcode without a
// destination) has n operands and may be rewritten.
func (g *genOpt) shapeNoDst(i ir.InstrID, n int) bool {
	f := g.f
	return int(f.OpCount[i]) == n && f.InstrProps(i)&(noRewrite&^ir.PVolatile) == 0
}
