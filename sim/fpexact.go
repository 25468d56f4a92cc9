package sim

import (
	"math"
	"math/big"
)

// Directed roundings (.rz, .rm, .rp) computed exactly.
//
// The fast path (exactOp, then roundFmt) carries a float64 result and
// the sign of its error, which is exact for every format under round to
// nearest but not under a directed rounding of f64 results: the error of
// an f64 product or quotient that lies below the subnormals vanishes in
// float64, an f64 overflow becomes infinity before the direction is
// known, and an exactly zero sum gets +0 where IEEE 754 gives -0 under
// .rm. Those are rare in real code (directed roundings are written by
// hand, mostly in interval arithmetic), so the simulator computes every
// directed rounding of finite operands here with math/big: the exact
// result, or for div and sqrt a 256-bit truncation nudged by an
// infinitesimal to the side the exact value lies on, and one rounding
// into the format with its subnormals and overflow.

// exactPrec holds any exact sum or fma of f64 operands: the exponents
// span 2^-1074 to 2^1024, products twice that.
const exactPrec = 4400

// quotPrec is the truncation width of quotients and roots: far more
// than the 53 bits any format keeps, so no rounding boundary lies
// between the truncation and the exact value.
const quotPrec = 256

// directedRound reports whether rnd is .rz, .rm or .rp.
func directedRound(rnd uint8) bool { return rnd == rnRZ || rnd == rnRM || rnd == rnRP }

// exactDirected computes op on finite operands a, b, c rounded into f by
// the directed mode rnd. ok is false when an operand or the operation is
// not finite (NaN, infinity, division by zero, root of a negative): the
// fast path is exact for those.
func exactDirected(op uint8, a, b, c float64, f ffmt, rnd uint8) (float64, bool) {
	fin := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	var z big.Float
	z.SetPrec(exactPrec)
	bf := func(x float64) *big.Float { return new(big.Float).SetPrec(exactPrec).SetFloat64(x) }
	switch op {
	case fopAdd, fopSub:
		if !fin(a, b) {
			return 0, false
		}
		if op == fopSub {
			b = -b
		}
		z.Add(bf(a), bf(b))
		if z.Sign() == 0 {
			return zeroSum(a, b, rnd), true
		}
	case fopMul:
		if !fin(a, b) {
			return 0, false
		}
		if a == 0 || b == 0 {
			return math.Copysign(0, sgnf(a)*sgnf(b)), true
		}
		z.Mul(bf(a), bf(b))
	case fopFma:
		if !fin(a, b, c) {
			return 0, false
		}
		if (a == 0 || b == 0) && c == 0 {
			// a zero product: its sign joins c's by the rule for sums.
			return zeroSum(math.Copysign(0, sgnf(a)*sgnf(b)), c, rnd), true
		}
		z.Mul(bf(a), bf(b))
		z.Add(&z, bf(c))
		if z.Sign() == 0 {
			return zeroSum(1, -1, rnd), true
		}
	case fopDiv, fopRcp:
		if op == fopRcp {
			a, b = 1, a
		}
		if !fin(a, b) || b == 0 {
			return 0, false
		}
		if a == 0 {
			return math.Copysign(0, sgnf(a)*sgnf(b)), true
		}
		var q, back big.Float
		q.SetPrec(quotPrec).SetMode(big.ToZero).Quo(bf(a), bf(b))
		back.SetPrec(exactPrec).Mul(&q, bf(b))
		// |q| is at most the exact magnitude: a remainder means the
		// exact value lies beyond q, away from zero.
		if back.Cmp(bf(a)) != 0 {
			nudge(&q, &z, q.Sign())
		} else {
			z.Set(&q)
		}
	case fopSqrt:
		if !fin(a) || a < 0 {
			return 0, false
		}
		if a == 0 {
			return a, true // sqrt(-0) is -0
		}
		var s, sq big.Float
		s.SetPrec(quotPrec).Sqrt(bf(a))
		sq.SetPrec(exactPrec).Mul(&s, &s)
		switch sq.Cmp(bf(a)) {
		case 0:
			z.Set(&s)
		case 1: // s is above the exact root
			nudge(&s, &z, -1)
		default:
			nudge(&s, &z, 1)
		}
	default:
		return 0, false
	}
	return roundBig(&z, f, rnd), true
}

func sgnf(x float64) float64 {
	if math.Signbit(x) {
		return -1
	}
	return 1
}

// zeroSum is the zero an exactly zero sum of x and y rounds to: two
// zeros of one sign keep it; otherwise IEEE 754 gives -0 under .rm and
// +0 under every other rounding.
func zeroSum(x, y float64, rnd uint8) float64 {
	if x == 0 && y == 0 && math.Signbit(x) == math.Signbit(y) {
		return x
	}
	if rnd == rnRM {
		return math.Copysign(0, -1)
	}
	return 0
}

// nudge sets z to v moved by an infinitesimal in direction dir (the
// sign of the exact value's offset from v): far below v's last bit, so
// no rounding boundary of any format lies between z and the exact value.
func nudge(v, z *big.Float, dir int) {
	eps := new(big.Float).SetPrec(exactPrec).SetMantExp(big.NewFloat(float64(dir)), v.MantExp(nil)-quotPrec-8)
	z.Add(v, eps)
}

// roundBig rounds the exact nonzero value x into format f with the
// directed mode rnd, subnormals and overflow included.
func roundBig(x *big.Float, f ffmt, rnd uint8) float64 {
	neg := x.Signbit()
	var ax big.Float
	ax.SetPrec(exactPrec).Abs(x)
	// Towards zero truncates; .rm rounds negative values away from zero,
	// .rp positive ones.
	away := (rnd == rnRP && !neg) || (rnd == rnRM && neg)
	e := ax.MantExp(nil) - 1 // ax in [2^e, 2^(e+1))
	if e < f.emin {
		e = f.emin
	}
	// n = ax / quantum, truncated; the rest decides the direction.
	var scaled big.Float
	scaled.SetPrec(exactPrec).SetMantExp(&ax, f.m-e)
	n, acc := scaled.Int(nil)
	if acc != big.Exact && away {
		n.Add(n, big.NewInt(1))
	}
	r, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(n), e-f.m).Float64()
	maxv := math.Ldexp(2-math.Ldexp(1, -f.m), f.emax)
	if r > maxv {
		r = maxv
		if away {
			r = math.Inf(1)
		}
	}
	if neg {
		r = -r
	}
	return r
}
