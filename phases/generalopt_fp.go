package phases

import (
	"math/big"

	"github.com/ptxopt/ptxopt/ir"
)

// Floating-point and conversion folding for the rules of
// rules/float.rules: the result PTX defines for an instruction whose
// sources are all constants, computed exactly in software and rounded
// once into the destination format, or a refusal (ok false) wherever the
// result is not pinned down.
//
// The arithmetic is done on exact rationals (big.Float with enough
// precision that sums and products of two or three operands of any of
// the formats lose nothing); division and square root, whose results are
// not finite binary fractions, are computed truncated far beyond the
// widest format with a sticky bit, which decides every rounding the same
// way the exact value would. One rounding routine (roundTo) then applies
// the format's precision, its subnormal range and its overflow rule for
// the rounding mode.
//
// What PTX pins down and is folded (f16, bf16, f32, f64):
//   - add/sub/mul/fma (and mad with an explicit rounding), div, rcp and
//     sqrt with .rn/.rz/.rm/.rp (none: .rn where PTX allows omitting it:
//     add/sub/mul), .ftz (subnormal sources and results become zeros of
//     the same sign), .sat (clamped to [+0, 1], NaN to +0);
//   - min/max (not .NaN, .xorsign or .abs: those carry ModOther, which
//     the patterns refuse): a NaN source gives the other source;
//   - neg/abs of a number (.ftz flushes first);
//   - setp with any comparison, ordered and unordered;
//   - cvt between the integer types of 16 to 64 bits, from integer to
//     float and float to float with .rn/.rz/.rm/.rp, float to integer
//     with .rni/.rzi/.rmi/.rpi (NaN gives 0, out-of-range values
//     saturate), float to an integral float (.rni… with a destination at
//     least as wide), .sat and .ftz.
//
// Left alone (refused):
//   - a NaN result of any format but f32: PTX documents the canonical
//     f32 NaN (0x7fffffff); f64 and the 16-bit formats keep payloads on
//     some targets, so their NaN bits are not pinned down;
//   - neg/abs of a NaN (PTX leaves the NaN's bits unspecified);
//   - .approx, .full, .rna, .rs, .relu, .satfinite and every other
//     modifier the patterns do not name; mad without a rounding (its
//     meaning depends on the target); packed, tf32 and 8-bit formats.
//
// limit-fold-fp (LimitFoldFP, set by the SM profile on Kepler and
// Maxwell) turns all of it off: the rules' conditions read g.limitFP.

// fpFormat is a binary interchange format: fraction bits, minimum normal
// exponent, maximum exponent, total bits.
type fpFormat struct {
	man, emin, emax, bits int
}

var (
	fpF16  = fpFormat{10, -14, 15, 16}
	fpBF16 = fpFormat{7, -126, 127, 16}
	fpF32  = fpFormat{23, -126, 127, 32}
	fpF64  = fpFormat{52, -1022, 1023, 64}
)

func fpFormatOf(t ir.Type) (fpFormat, bool) {
	switch t {
	case ir.TF16:
		return fpF16, true
	case ir.TBF16:
		return fpBF16, true
	case ir.TF32:
		return fpF32, true
	case ir.TF64:
		return fpF64, true
	}
	return fpFormat{}, false
}

// fpExact is the working precision of exact sums and products: an f64
// fma spans exponents 2^-2148 .. 2^2048.
const fpExact = 4400

// fpQuot is the truncated precision of quotients and roots (with a
// sticky bit, far more than the 53 bits any format keeps).
const fpQuot = 200

type fpClass uint8

const (
	fpFinite fpClass = iota // zero included
	fpInf
	fpNaN
)

// fpVal is a decoded float: its class, sign and, when finite, its exact
// magnitude.
type fpVal struct {
	cls fpClass
	neg bool
	mag big.Float // >= 0
}

func (v *fpVal) zero() bool { return v.cls == fpFinite && v.mag.Sign() == 0 }

// decode reads the bits of a float of format ft; ftz flushes a
// subnormal to a zero of its sign.
func (ft fpFormat) decode(x uint64, ftz bool) fpVal {
	var v fpVal
	v.mag.SetPrec(fpExact)
	v.neg = x>>(ft.bits-1)&1 != 0
	e := int(x >> ft.man & (1<<(ft.bits-1-ft.man) - 1))
	frac := x & (1<<ft.man - 1)
	emaxField := 1<<(ft.bits-1-ft.man) - 1
	switch {
	case e == emaxField && frac != 0:
		v.cls = fpNaN
	case e == emaxField:
		v.cls = fpInf
	case e == 0:
		if ftz {
			frac = 0
		}
		// frac · 2^(emin-man)
		v.mag.SetUint64(frac)
		v.mag.SetMantExp(&v.mag, ft.emin-ft.man)
		v.mag.SetPrec(fpExact)
	default:
		v.mag.SetUint64(frac | 1<<ft.man)
		v.mag.SetMantExp(&v.mag, e-ft.emax-ft.man)
		v.mag.SetPrec(fpExact)
	}
	return v
}

// fpRnd is a rounding direction.
type fpRnd uint8

const (
	fpRN fpRnd = iota
	fpRZ
	fpRM
	fpRP
)

func fpRndOf(r ir.Round) (fpRnd, bool) {
	switch r {
	case ir.RoundNone, ir.RoundRN:
		return fpRN, true
	case ir.RoundRZ:
		return fpRZ, true
	case ir.RoundRM:
		return fpRM, true
	case ir.RoundRP:
		return fpRP, true
	}
	return 0, false
}

// encode returns the bits of a signed zero, infinity or the canonical
// NaN (ok false for a NaN of a format whose NaN bits PTX does not pin).
func (ft fpFormat) special(cls fpClass, neg bool) (uint64, bool) {
	var s uint64
	if neg {
		s = 1 << (ft.bits - 1)
	}
	expAll := uint64(1<<(ft.bits-1-ft.man)-1) << ft.man
	switch cls {
	case fpInf:
		return s | expAll, true
	case fpNaN:
		if ft != fpF32 {
			return 0, false
		}
		return 0x7fffffff, true
	}
	return s, true
}

// roundTo rounds the magnitude m (>= 0; when sticky, the exact magnitude
// lies strictly between m and the next representable value above it at
// m's precision) with sign neg into format ft, and returns its bits.
func (ft fpFormat) roundTo(m *big.Float, sticky, neg bool, rnd fpRnd) uint64 {
	var s uint64
	if neg {
		s = 1 << (ft.bits - 1)
	}
	if m.Sign() == 0 && !sticky {
		return s
	}
	// away: whether this direction rounds the magnitude up when inexact
	// (directed modes, by sign).
	away := (rnd == fpRP && !neg) || (rnd == fpRM && neg)
	var q int // the quantum's exponent: the result is n·2^q
	if m.Sign() == 0 {
		q = ft.emin - ft.man
	} else {
		e := m.MantExp(nil) - 1 // m in [2^e, 2^(e+1))
		q = max(e, ft.emin) - ft.man
	}
	var sc big.Float
	sc.SetMantExp(m, -q) // exact: m's precision
	n, _ := sc.Int(nil)  // truncation: sc >= 0
	var rem, nf big.Float
	nf.SetPrec(fpExact).SetInt(n)
	rem.SetPrec(fpExact).Sub(&sc, &nf)
	inexact := rem.Sign() != 0 || sticky
	up := false
	switch rnd {
	case fpRN:
		c := rem.Cmp(big.NewFloat(0.5))
		up = c > 0 || (c == 0 && (sticky || n.Bit(0) == 1))
	default:
		up = away && inexact
	}
	if up {
		n.Add(n, big.NewInt(1))
	}
	nu := n.Uint64() // < 2^(man+2)
	if nu == 0 {
		return s
	}
	if nu == 1<<(ft.man+1) { // carried into the next binade
		nu >>= 1
		q++
	}
	expField := 0
	if nu >= 1<<ft.man {
		expField = q + ft.man + ft.emax
	}
	if expField >= 2*ft.emax+1 { // overflow
		if rnd == fpRZ || (rnd != fpRN && !away) {
			// .rz, and the directed mode towards zero for this sign:
			// the largest finite value
			return s | uint64(2*ft.emax)<<ft.man | (1<<ft.man - 1)
		}
		return s | uint64(2*ft.emax+1)<<ft.man
	}
	return s | uint64(expField)<<ft.man | nu&(1<<ft.man-1)
}

// fpPow2 is 2^e at the exact precision (SetMantExp takes its
// mantissa's precision: set it again after).
func fpPow2(e int) big.Float {
	var z big.Float
	z.SetMantExp(big.NewFloat(1), e)
	z.SetPrec(fpExact)
	return z
}

// finish applies .ftz and .sat to a rounded result r of format ft.
func (ft fpFormat) finish(r uint64, ftz, sat bool) uint64 {
	sign := uint64(1) << (ft.bits - 1)
	expMask := uint64(1<<(ft.bits-1-ft.man)-1) << ft.man
	if ftz && r&expMask == 0 {
		r &= sign // a subnormal becomes a zero of its sign
	}
	if sat {
		switch {
		case r&expMask == expMask && r&(1<<ft.man-1) != 0: // NaN
			return 0
		case r&sign != 0: // negative or -0
			return 0
		}
		one := uint64(ft.emax) << ft.man
		if r > one {
			return one
		}
	}
	return r
}

// fpOp numbers the arithmetic the folder knows.
type fpOp uint8

const (
	fpAdd fpOp = iota
	fpSub
	fpMul
	fpFma
	fpDiv
	fpRcp
	fpSqrt
)

// foldFPArith folds a float arithmetic instruction of type t and
// modifiers m on constant sources a, b, c (bits).
func foldFPArith(op fpOp, t ir.Type, m ir.Mods, a, b, c uint64) (uint64, bool) {
	ft, ok := fpFormatOf(t)
	if !ok {
		return 0, false
	}
	rnd, ok := fpRndOf(m.Round())
	if !ok {
		return 0, false
	}
	ftz, sat := m.Has(ir.ModFtz), m.Has(ir.ModSat)
	x, y, z := ft.decode(a, ftz), ft.decode(b, ftz), ft.decode(c, ftz)
	if op == fpRcp {
		x, y = ft.decode(ft.one(), false), x
		op = fpDiv
	}
	if op == fpSub {
		y.neg = !y.neg
		op = fpAdd
	}
	cls, neg, mag, sticky, ok := fpExactOp(op, &x, &y, &z, rnd)
	if !ok {
		return 0, false
	}
	var r uint64
	if cls != fpFinite {
		r, ok = ft.special(cls, neg)
		if !ok {
			return 0, false
		}
		if cls == fpNaN {
			if sat {
				return 0, true
			}
			return r, true
		}
	} else {
		r = ft.roundTo(mag, sticky, neg, rnd)
	}
	return ft.finish(r, ftz, sat), true
}

// one is the bits of 1.0 in format ft.
func (ft fpFormat) one() uint64 { return uint64(ft.emax) << ft.man }

// fpExactOp computes op on decoded operands: the class and sign of the
// result and, when finite, its magnitude (exact, or truncated with a
// sticky bit for div and sqrt). ok is false for the cases left alone.
func fpExactOp(op fpOp, x, y, z *fpVal, rnd fpRnd) (fpClass, bool, *big.Float, bool, bool) {
	nan := func() (fpClass, bool, *big.Float, bool, bool) { return fpNaN, false, nil, false, true }
	inf := func(neg bool) (fpClass, bool, *big.Float, bool, bool) { return fpInf, neg, nil, false, true }
	switch op {
	case fpAdd:
		if x.cls == fpNaN || y.cls == fpNaN {
			return nan()
		}
		return fpSum(x.cls, x.neg, &x.mag, y, rnd)
	case fpMul, fpFma:
		if x.cls == fpNaN || y.cls == fpNaN || (op == fpFma && z.cls == fpNaN) {
			return nan()
		}
		pneg := x.neg != y.neg
		pcls := fpFinite
		var p big.Float
		p.SetPrec(fpExact)
		switch {
		case (x.cls == fpInf && y.zero()) || (y.cls == fpInf && x.zero()):
			return nan()
		case x.cls == fpInf || y.cls == fpInf:
			pcls = fpInf
		default:
			p.Mul(&x.mag, &y.mag)
		}
		if op == fpMul {
			if pcls == fpInf {
				return inf(pneg)
			}
			return fpFinite, pneg, &p, false, true
		}
		return fpSum(pcls, pneg, &p, z, rnd)
	case fpDiv:
		if x.cls == fpNaN || y.cls == fpNaN {
			return nan()
		}
		neg := x.neg != y.neg
		switch {
		case x.cls == fpInf && y.cls == fpInf, x.zero() && y.zero():
			return nan()
		case x.cls == fpInf, y.zero():
			return inf(neg)
		case y.cls == fpInf, x.zero():
			return fpFinite, neg, new(big.Float), false, true
		}
		var q big.Float
		q.SetPrec(fpQuot).SetMode(big.ToZero)
		q.Quo(&x.mag, &y.mag)
		return fpFinite, neg, &q, q.Acc() != big.Exact, true
	case fpSqrt:
		switch {
		case x.cls == fpNaN:
			return nan()
		case x.zero():
			return fpFinite, x.neg, new(big.Float), false, true
		case x.neg:
			return nan()
		case x.cls == fpInf:
			return inf(false)
		}
		var r big.Float
		r.SetPrec(fpQuot).SetMode(big.ToZero)
		r.Sqrt(&x.mag)
		// Sqrt rounds in z's mode; its accuracy is not reported: square
		// the truncated root to tell an exact root from a truncated one.
		var sq big.Float
		sq.SetPrec(2*fpQuot).Mul(&r, &r)
		c := sq.Cmp(&x.mag)
		if c > 0 { // not a truncation: step below (never at 200 bits)
			return 0, false, nil, false, false
		}
		return fpFinite, false, &r, c != 0, true
	}
	return 0, false, nil, false, false
}

// fpSum adds a (class ac, sign an, magnitude am) and b exactly.
func fpSum(ac fpClass, an bool, am *big.Float, b *fpVal, rnd fpRnd) (fpClass, bool, *big.Float, bool, bool) {
	switch {
	case ac == fpInf && b.cls == fpInf:
		if an != b.neg {
			return fpNaN, false, nil, false, true
		}
		return fpInf, an, nil, false, true
	case ac == fpInf:
		return fpInf, an, nil, false, true
	case b.cls == fpInf:
		return fpInf, b.neg, nil, false, true
	}
	var s, x, y big.Float
	s.SetPrec(fpExact)
	x.SetPrec(fpExact).Set(am)
	if an {
		x.Neg(&x)
	}
	y.SetPrec(fpExact).Set(&b.mag)
	if b.neg {
		y.Neg(&y)
	}
	s.Add(&x, &y)
	if s.Sign() == 0 {
		if am.Sign() == 0 && b.mag.Sign() == 0 && an == b.neg {
			return fpFinite, an, new(big.Float), false, true // two zeros of one sign
		}
		// IEEE 754: -0 under .rm, +0 under every other rounding.
		return fpFinite, rnd == fpRM, new(big.Float), false, true
	}
	neg := s.Sign() < 0
	s.Abs(&s)
	return fpFinite, neg, &s, false, true
}

// foldFPMinMax folds min (max false) or max of constant floats.
func foldFPMinMax(max bool, t ir.Type, m ir.Mods, a, b uint64) (uint64, bool) {
	ft, ok := fpFormatOf(t)
	if !ok || m.Round() != ir.RoundNone || m.Has(ir.ModSat) {
		return 0, false
	}
	ftz := m.Has(ir.ModFtz)
	x, y := ft.decode(a, ftz), ft.decode(b, ftz)
	ab, bb := ft.flushed(a, ftz), ft.flushed(b, ftz)
	switch {
	case x.cls == fpNaN && y.cls == fpNaN:
		return ft.special(fpNaN, false)
	case x.cls == fpNaN:
		return bb, true
	case y.cls == fpNaN:
		return ab, true
	}
	c := fpCmp(&x, &y)
	if c == 0 { // equal values: -0 is the smaller zero
		if x.neg == y.neg {
			return ab, true
		}
		if x.neg == max {
			return bb, true
		}
		return ab, true
	}
	if (c < 0) != max {
		return ab, true
	}
	return bb, true
}

// flushed is the bits of x with .ftz applied to a subnormal.
func (ft fpFormat) flushed(x uint64, ftz bool) uint64 {
	expMask := uint64(1<<(ft.bits-1-ft.man)-1) << ft.man
	if ftz && x&expMask == 0 {
		return x & (1 << (ft.bits - 1))
	}
	return x
}

// fpCmp orders two non-NaN values (zeros equal): -1, 0, 1.
func fpCmp(x, y *fpVal) int {
	key := func(v *fpVal) (int, *big.Float) {
		s := 1
		if v.neg {
			s = -1
		}
		if v.cls == fpInf {
			return 2 * s, nil
		}
		if v.zero() {
			return 0, nil
		}
		return s, &v.mag
	}
	kx, mx := key(x)
	ky, my := key(y)
	switch {
	case kx < ky:
		return -1
	case kx > ky:
		return 1
	case mx == nil:
		return 0
	}
	c := mx.Cmp(my)
	if kx < 0 {
		c = -c
	}
	return c
}

// foldFPNegAbs folds neg or abs of a constant number.
func foldFPNegAbs(abs bool, t ir.Type, m ir.Mods, a uint64) (uint64, bool) {
	ft, ok := fpFormatOf(t)
	if !ok || m.Round() != ir.RoundNone || m.Has(ir.ModSat) {
		return 0, false
	}
	if ft.decode(a, false).cls == fpNaN {
		return 0, false
	}
	r := ft.flushed(a, m.Has(ir.ModFtz))
	sign := uint64(1) << (ft.bits - 1)
	if abs {
		return r &^ sign, true
	}
	return r ^ sign, true
}

// foldFPSetp folds a float comparison of constants (1 true, 0 false).
func foldFPSetp(t ir.Type, m ir.Mods, a, b uint64) (uint64, bool) {
	ft, ok := fpFormatOf(t)
	if !ok {
		return 0, false
	}
	ftz := m.Has(ir.ModFtz)
	x, y := ft.decode(a, ftz), ft.decode(b, ftz)
	un := x.cls == fpNaN || y.cls == fpNaN
	c := 0
	if !un {
		c = fpCmp(&x, &y)
	}
	var r bool
	switch m.Cmp() {
	case ir.CmpEq:
		r = !un && c == 0
	case ir.CmpNe:
		r = !un && c != 0
	case ir.CmpLt:
		r = !un && c < 0
	case ir.CmpLe:
		r = !un && c <= 0
	case ir.CmpGt:
		r = !un && c > 0
	case ir.CmpGe:
		r = !un && c >= 0
	case ir.CmpEqu:
		r = un || c == 0
	case ir.CmpNeu:
		r = un || c != 0
	case ir.CmpLtu:
		r = un || c < 0
	case ir.CmpLeu:
		r = un || c <= 0
	case ir.CmpGtu:
		r = un || c > 0
	case ir.CmpGeu:
		r = un || c >= 0
	case ir.CmpNum:
		r = !un
	case ir.CmpNan:
		r = un
	default:
		return 0, false
	}
	if r {
		return 1, true
	}
	return 0, true
}

// foldCvt folds cvt.dt.st of the constant a (bits of st).
func foldCvt(dt, st ir.Type, m ir.Mods, a uint64) (uint64, bool) {
	ftz, sat := m.Has(ir.ModFtz), m.Has(ir.ModSat)
	r := m.Round()
	df, dFloat := fpFormatOf(dt)
	sf, sFloat := fpFormatOf(st)
	dInt, sInt := tyInt(dt), tyInt(st)
	switch {
	case dInt && sInt:
		if r != ir.RoundNone || ftz {
			return 0, false
		}
		return cvtIntInt(dt, st, sat, a), true
	case dFloat && sInt:
		rnd, ok := fpRndOf(r)
		if !ok || r == ir.RoundNone {
			return 0, false
		}
		var v big.Float
		v.SetPrec(fpExact)
		neg := false
		a &= widthMask(st)
		if st.IsSigned() && a>>(st.Bits()-1)&1 != 0 {
			neg = true
			a = (-a) & widthMask(st) // |a|; for the minimum the unsigned bits are its magnitude
		}
		v.SetUint64(a)
		return df.finish(df.roundTo(&v, false, neg, rnd), ftz, sat), true
	case dInt && sFloat:
		if sat { // float to integer always saturates; .sat is not in the syntax
			return 0, false
		}
		x := sf.decode(a, ftz)
		return cvtFloatInt(dt, &x, r)
	case dFloat && sFloat:
		x := sf.decode(a, ftz)
		if x.cls == fpNaN {
			b, ok := df.special(fpNaN, false)
			if !ok {
				return 0, false
			}
			if sat {
				return 0, true
			}
			return b, true
		}
		var bits uint64
		switch r {
		case ir.RoundRNI, ir.RoundRZI, ir.RoundRMI, ir.RoundRPI:
			// an integral value in the source format: exact in a
			// destination at least as wide
			if df.man < sf.man || df.emax < sf.emax {
				return 0, false
			}
			if x.cls == fpInf {
				bits, _ = df.special(fpInf, x.neg)
				break
			}
			n, ok := roundIntegral(&x, r)
			if !ok {
				return 0, false
			}
			bits = df.roundTo(n, false, x.neg, fpRN)
		default:
			widening := df.man >= sf.man && df.emax >= sf.emax
			if r == ir.RoundNone && !widening {
				return 0, false // narrowing needs a rounding
			}
			if r != ir.RoundNone && widening && df != sf {
				return 0, false // PTX: no rounding on a widening cvt
			}
			rnd, ok := fpRndOf(r)
			if !ok {
				return 0, false
			}
			if x.cls == fpInf {
				bits, _ = df.special(fpInf, x.neg)
				break
			}
			bits = df.roundTo(&x.mag, false, x.neg, rnd)
		}
		return df.finish(bits, ftz, sat), true
	}
	return 0, false
}

// roundIntegral rounds the finite magnitude of x (sign applied for the
// direction) to an integer with an integer rounding mode.
func roundIntegral(x *fpVal, r ir.Round) (*big.Float, bool) {
	if x.cls != fpFinite {
		return nil, false
	}
	n, acc := x.mag.Int(nil) // truncation of the magnitude
	var nf, rem big.Float
	nf.SetPrec(fpExact).SetInt(n)
	rem.SetPrec(fpExact).Sub(&x.mag, &nf)
	inexact := acc != big.Exact
	up := false
	switch r {
	case ir.RoundRNI:
		c := rem.Cmp(big.NewFloat(0.5))
		up = c > 0 || (c == 0 && n.Bit(0) == 1)
	case ir.RoundRMI:
		up = x.neg && inexact
	case ir.RoundRPI:
		up = !x.neg && inexact
	case ir.RoundRZI:
	default:
		return nil, false
	}
	if up {
		n.Add(n, big.NewInt(1))
	}
	nf.SetInt(n)
	return &nf, true
}

// cvtFloatInt converts a decoded float to integer type dt: rounded with
// an integer rounding, NaN to 0, saturated to dt's range.
func cvtFloatInt(dt ir.Type, x *fpVal, r ir.Round) (uint64, bool) {
	switch r {
	case ir.RoundRNI, ir.RoundRZI, ir.RoundRMI, ir.RoundRPI:
	default:
		return 0, false
	}
	w := dt.Bits()
	signed := dt.IsSigned()
	var lo, hi big.Int // the range, inclusive
	if signed {
		hi.Lsh(big.NewInt(1), uint(w-1)).Sub(&hi, big.NewInt(1))
		lo.Lsh(big.NewInt(1), uint(w-1)).Neg(&lo)
	} else {
		hi.Lsh(big.NewInt(1), uint(w)).Sub(&hi, big.NewInt(1))
	}
	var n big.Int
	switch x.cls {
	case fpNaN:
		return 0, true
	case fpInf:
		if x.neg {
			n.Set(&lo)
		} else {
			n.Set(&hi)
		}
	default:
		m, ok := roundIntegral(x, r)
		if !ok {
			return 0, false
		}
		m.Int(&n)
		if x.neg {
			n.Neg(&n)
		}
		if n.Cmp(&lo) < 0 {
			n.Set(&lo)
		}
		if n.Cmp(&hi) > 0 {
			n.Set(&hi)
		}
	}
	var mask big.Int
	mask.Lsh(big.NewInt(1), uint(w)).Sub(&mask, big.NewInt(1))
	n.And(&n, &mask) // two's complement bits of a negative value
	return n.Uint64(), true
}

// cvtIntInt converts between integer types: the source extended by its
// signedness, clamped to the destination's range with .sat, truncated.
func cvtIntInt(dt, st ir.Type, sat bool, a uint64) uint64 {
	v := a & widthMask(st)
	sneg := st.IsSigned() && v>>(st.Bits()-1)&1 != 0
	if sneg {
		v |= ^widthMask(st) // sign-extended to 64 bits
	}
	if sat {
		w := dt.Bits()
		if dt.IsSigned() {
			hi := uint64(1)<<(w-1) - 1
			lo := -(uint64(1) << (w - 1)) // as a 64-bit two's complement
			switch {
			case sneg && int64(v) < int64(lo):
				v = lo
			case !sneg && v > hi:
				v = hi
			}
		} else {
			switch {
			case sneg:
				v = 0
			case v > widthMask(dt):
				v = widthMask(dt)
			}
		}
	}
	return v & widthMask(dt)
}

// fpIsOne reports whether c is the bits of 1.0 of float type t.
func fpIsOne(t ir.Type, c uint64) bool {
	ft, ok := fpFormatOf(t)
	return ok && c == ft.one()
}

// fmaToAdd rewrites "fma.rnd d, x, 1.0, y" (FmaOne) into
// "add.rnd d, x, y" with the same modifiers. The generated call passes
// the first two sources in source order (the commuted rule too): the
// factor kept is the one that is not the constant 1.0 (either, when both
// are).
func (g *genOpt) fmaToAdd(i ir.InstrID, a, b, y val) {
	f := g.f
	t := f.Type[i]
	x := a
	if a.k && fpIsOne(t, a.c) {
		x = b
	}
	g.toForm(i, ir.Form{Op: ir.OpAdd, Type: t, Mods: f.Mods[i]}, x, y)
}
