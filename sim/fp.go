package sim

import (
	"math"
	"math/big"
	"math/bits"
)

// Rounding modes of PTX floating-point instructions.
const (
	rnDefault uint8 = iota // no modifier: round to nearest even
	rnRN
	rnRZ
	rnRM
	rnRP
	// integer rounding (cvt .rni/.rzi/.rmi/.rpi)
	rnRNI
	rnRZI
	rnRMI
	rnRPI
	rnRNA // .rna (cvt to tf32)
)

// A float format: explicit mantissa bits, minimum normal exponent,
// maximum exponent.
type ffmt struct {
	m, emin, emax int
	bits          int
}

var (
	fmtF16  = ffmt{10, -14, 15, 16}
	fmtBF16 = ffmt{7, -126, 127, 16}
	fmtF32  = ffmt{23, -126, 127, 32}
	fmtTF32 = ffmt{10, -126, 127, 32}
	fmtF64  = ffmt{52, -1022, 1023, 64}
)

// twoSum returns s = fl(a+b) and the sign of the exact error (a+b)-s.
func twoSum(a, b float64) (float64, int) {
	s := a + b
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s, 0
	}
	bb := s - a
	err := (a - (s - bb)) + (b - bb)
	return s, sgn(err)
}

func sgn(x float64) int {
	if x > 0 {
		return 1
	}
	if x < 0 {
		return -1
	}
	return 0
}

// roundFmt rounds the exact value x+e (e: sign of an infinitesimal error
// beyond the float64 x) to the format f with rounding mode rnd.
func roundFmt(x float64, e int, f ffmt, rnd uint8) float64 {
	if f.m == 52 {
		return round64(x, e, rnd)
	}
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		if x == 0 && e != 0 {
			// a tiny value: directed modes pick the smallest subnormal
			tiny := math.Ldexp(1, f.emin-f.m)
			switch rnd {
			case rnRP:
				if e > 0 {
					return tiny
				}
			case rnRM:
				if e < 0 {
					return -tiny
				}
			}
			if e < 0 {
				return math.Copysign(0, -1)
			}
		}
		return x
	}
	neg := x < 0
	if neg {
		x = -x
		e = -e
		switch rnd {
		case rnRM:
			rnd = rnRP
		case rnRP:
			rnd = rnRM
		}
	}
	_, exp := math.Frexp(x)
	E := exp - 1
	if E < f.emin {
		E = f.emin
	}
	q := math.Ldexp(x, f.m-E) // x / quantum
	n := math.Floor(q)
	frac := q - n
	up, dec := false, false
	switch rnd {
	case rnRZ, rnRM:
		dec = frac == 0 && e < 0
	case rnRP:
		up = frac > 0 || (frac == 0 && e > 0)
	default: // nearest even (also .rna: ties away)
		switch {
		case frac > 0.5:
			up = true
		case frac == 0.5:
			if e > 0 {
				up = true
			} else if e == 0 {
				up = rnd == rnRNA || math.Mod(n, 2) == 1
			}
		}
	}
	if up {
		n++
	}
	r := math.Ldexp(n, E-f.m)
	if dec {
		step := math.Ldexp(1, E-f.m)
		if n == math.Ldexp(1, f.m) && E > f.emin {
			step /= 2
		}
		r -= step
	}
	maxv := math.Ldexp(2-math.Ldexp(1, -f.m), f.emax)
	if r > maxv {
		if rnd == rnRZ || rnd == rnRM {
			r = maxv
		} else {
			r = math.Inf(1)
		}
	}
	if neg {
		r = -r
	}
	return r
}

// round64 applies a directed rounding to a float64 result x whose exact
// value is x+e·ε.
func round64(x float64, e int, rnd uint8) float64 {
	if e == 0 || math.IsNaN(x) {
		return x
	}
	switch rnd {
	case rnRZ:
		if (x > 0 && e < 0) || (x < 0 && e > 0) {
			return math.Nextafter(x, 0)
		}
	case rnRM:
		if e < 0 {
			return math.Nextafter(x, math.Inf(-1))
		}
	case rnRP:
		if e > 0 {
			return math.Nextafter(x, math.Inf(1))
		}
	}
	return x
}

// Float ops computed exactly (value + error sign) in float64.
const (
	fopAdd uint8 = iota
	fopSub
	fopMul
	fopFma
	fopDiv
	fopSqrt
	fopRcp
)

func exactOp(op uint8, a, b, c float64, f ffmt, rnd uint8) (float64, int) {
	switch op {
	case fopAdd:
		return twoSum(a, b)
	case fopSub:
		return twoSum(a, -b)
	case fopMul:
		r := a * b
		if f.m == 52 && !math.IsInf(r, 0) && !math.IsNaN(r) {
			return r, sgn(math.FMA(a, b, -r))
		}
		return r, 0 // exact for narrower formats
	case fopFma:
		if f.m == 52 {
			r := math.FMA(a, b, c)
			if rnd == rnDefault || rnd == rnRN || math.IsInf(r, 0) || math.IsNaN(r) {
				return r, 0
			}
			return r, fmaErr64(a, b, c, r)
		}
		return twoSum(a*b, c)
	case fopDiv, fopRcp:
		if op == fopRcp {
			a, b = 1, a
		}
		q := a / b
		if math.IsInf(q, 0) || math.IsNaN(q) || b == 0 || math.IsInf(b, 0) {
			return q, 0
		}
		r := math.FMA(-q, b, a)
		return q, sgn(r) * sgn(b)
	case fopSqrt:
		q := math.Sqrt(a)
		if math.IsInf(q, 0) || math.IsNaN(q) || q == 0 {
			return q, 0
		}
		return q, sgn(math.FMA(-q, q, a))
	}
	return 0, 0
}

// fmaErr64 returns the sign of a*b+c-r computed exactly.
func fmaErr64(a, b, c, r float64) int {
	var x, y, z big.Float
	x.SetPrec(2000).SetFloat64(a)
	y.SetPrec(2000).SetFloat64(b)
	z.SetPrec(2000).Mul(&x, &y)
	x.SetFloat64(c)
	z.Add(&z, &x)
	x.SetFloat64(r)
	z.Sub(&z, &x)
	return z.Sign()
}

// Bit-level helpers for the formats.

func f16ToF64(h uint64) float64 {
	h &= 0xffff
	s := h >> 15
	e := int(h>>10) & 0x1f
	m := h & 0x3ff
	var v float64
	switch {
	case e == 0:
		v = math.Ldexp(float64(m), -24)
	case e == 31:
		if m != 0 {
			v = math.NaN()
		} else {
			v = math.Inf(1)
		}
	default:
		v = math.Ldexp(float64(m|0x400), e-25)
	}
	if s != 0 {
		v = -v
	}
	return v
}

// f64ToF16 converts a value already representable in f16 (or ±Inf, NaN).
func f64ToF16(v float64) uint64 {
	if math.IsNaN(v) {
		return 0x7fff
	}
	var s uint64
	if math.Signbit(v) {
		s = 0x8000
		v = -v
	}
	if math.IsInf(v, 0) {
		return s | 0x7c00
	}
	if v == 0 {
		return s
	}
	_, exp := math.Frexp(v)
	E := exp - 1
	if E < -14 {
		return s | uint64(math.Ldexp(v, 24))
	}
	m := uint64(math.Ldexp(v, 10-E)) & 0x3ff
	return s | uint64(E+15)<<10 | m
}

func bf16ToF64(h uint64) float64 {
	return float64(math.Float32frombits(uint32(h&0xffff) << 16))
}

func f64ToBF16(v float64) uint64 {
	if math.IsNaN(v) {
		return 0x7fff
	}
	return uint64(math.Float32bits(float32(v)) >> 16)
}

// unpack/pack a float of format f from/to register bits.
func unpackF(f ffmt, x uint64) float64 {
	switch f {
	case fmtF64:
		return math.Float64frombits(x)
	case fmtF16:
		return f16ToF64(x)
	case fmtBF16:
		return bf16ToF64(x)
	}
	return float64(math.Float32frombits(uint32(x)))
}

// packF stores an already-rounded value; NaN becomes the canonical NaN.
func packF(f ffmt, v float64) uint64 {
	switch f {
	case fmtF64:
		if math.IsNaN(v) {
			return 0x7fffffffffffffff
		}
		return math.Float64bits(v)
	case fmtF16:
		return f64ToF16(v)
	case fmtBF16:
		return f64ToBF16(v)
	}
	if math.IsNaN(v) {
		return 0x7fffffff
	}
	return uint64(math.Float32bits(float32(v)))
}

// ftz flushes a subnormal of format f to a signed zero.
func ftz(f ffmt, v float64) float64 {
	if v != 0 && math.Abs(v) < math.Ldexp(1, f.emin) {
		return math.Copysign(0, v)
	}
	return v
}

func sat01(v float64) float64 {
	if math.IsNaN(v) || v <= 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// mulHi64 returns the high 64 bits of the signed or unsigned product.
func mulHi64(a, b uint64, signed bool) uint64 {
	hi, _ := bits.Mul64(a, b)
	if signed {
		if int64(a) < 0 {
			hi -= b
		}
		if int64(b) < 0 {
			hi -= a
		}
	}
	return hi
}

// intToFloat converts an integer (signed or not) to format f with rounding.
func intToFloat(x uint64, signed bool, f ffmt, rnd uint8) float64 {
	var r float64
	var e int
	if signed {
		v := int64(x)
		r = float64(v)
		if r >= 9223372036854775807.0 { // 2^63: v is below it
			e = -1
		} else {
			e = cmpI64(v, int64(r))
		}
	} else {
		r = float64(x)
		if r >= 18446744073709551615.0 { // 2^64
			e = -1
		} else {
			u := uint64(r)
			switch {
			case x > u:
				e = 1
			case x < u:
				e = -1
			}
		}
	}
	if f.m == 52 {
		return round64(r, e, rnd)
	}
	return roundFmt(r, e, f, rnd)
}

func cmpI64(a, b int64) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// roundInt rounds v to an integral float64 with an integer rounding mode.
func roundInt(v float64, rnd uint8) float64 {
	switch rnd {
	case rnRZI, rnRZ:
		return math.Trunc(v)
	case rnRMI, rnRM:
		return math.Floor(v)
	case rnRPI, rnRP:
		return math.Ceil(v)
	}
	return math.RoundToEven(v)
}

// floatToInt converts with saturation (NaN gives 0), as cvt does.
func floatToInt(v float64, t intInfo, rnd uint8) uint64 {
	if math.IsNaN(v) {
		return 0
	}
	v = roundInt(v, rnd)
	if t.signed {
		lo := -math.Ldexp(1, t.bits-1)
		hi := math.Ldexp(1, t.bits-1)
		if v < lo {
			return uint64(int64(-1)<<(t.bits-1)) & t.mask
		}
		if v >= hi {
			return (uint64(1)<<(t.bits-1) - 1) & t.mask
		}
		return uint64(int64(v)) & t.mask
	}
	if v <= 0 {
		return 0
	}
	if v >= math.Ldexp(1, t.bits) {
		return t.mask
	}
	return uint64(v)
}

type intInfo struct {
	bits   int
	signed bool
	mask   uint64
}
