package sim

import (
	"math"
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

func trailing(x uint32) int { return bits.TrailingZeros32(x) }

// Generic executors: dst = f(sources) on every lane of m.

func exec0(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		w.regs[d|l] = in.f(in, 0, 0, 0, 0)
	}
}

func exec1(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		w.regs[d|l] = in.f(in, w.val(&in.s[0], l), 0, 0, 0)
	}
}

func exec2(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	a, b := &in.s[0], &in.s[1]
	if a.k == oReg && b.k == oReg {
		ra, rb := int(a.r)<<5, int(b.r)<<5
		for x := m; x != 0; x &= x - 1 {
			l := trailing(x)
			w.regs[d|l] = in.f(in, w.regs[ra|l], w.regs[rb|l], 0, 0)
		}
		return
	}
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		w.regs[d|l] = in.f(in, w.val(a, l), w.val(b, l), 0, 0)
	}
}

func exec3(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		w.regs[d|l] = in.f(in, w.val(&in.s[0], l), w.val(&in.s[1], l), w.val(&in.s[2], l), 0)
	}
}

func exec4(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		w.regs[d|l] = in.f(in, w.val(&in.s[0], l), w.val(&in.s[1], l), w.val(&in.s[2], l), w.val(&in.s[3], l))
	}
}

func execN(n int) func(w *warp, in *inst, m uint32) {
	switch n {
	case 0:
		return exec0
	case 1:
		return exec1
	case 2:
		return exec2
	case 3:
		return exec3
	}
	return exec4
}

func sext(v uint64, n int) int64 {
	if n >= 64 {
		return int64(v)
	}
	s := 64 - uint(n)
	return int64(v<<s) >> s
}

// ext extends v of width ii.bits by its signedness.
func (ii intInfo) ext(v uint64) uint64 {
	if ii.signed {
		return uint64(sext(v, ii.bits))
	}
	return v & ii.mask
}

// Integer ops. Sub-ops for mul/mad.
const (
	mLo uint8 = iota
	mHi
	mWide
)

func iAdd(in *inst, a, b, _, _ uint64) uint64 { return (a + b) & in.ii.mask }
func iSub(in *inst, a, b, _, _ uint64) uint64 { return (a - b) & in.ii.mask }

func satS(v int64, n int) uint64 {
	lo, hi := int64(-1)<<(n-1), int64(1)<<(n-1)-1
	if v < lo {
		v = lo
	}
	if v > hi {
		v = hi
	}
	return uint64(v) & (1<<n - 1)
}

func iAddSat(in *inst, a, b, _, _ uint64) uint64 {
	n := in.ii.bits
	if n == 64 {
		x, y := int64(a), int64(b)
		s := x + y
		if (x >= 0) == (y >= 0) && (s >= 0) != (x >= 0) {
			if x >= 0 {
				return math.MaxInt64
			}
			return 1 << 63
		}
		return uint64(s)
	}
	return satS(sext(a, n)+sext(b, n), n)
}

func iSubSat(in *inst, a, b, _, _ uint64) uint64 {
	n := in.ii.bits
	if n == 64 {
		x, y := int64(a), int64(b)
		s := x - y
		if (x >= 0) != (y >= 0) && (s >= 0) != (x >= 0) {
			if x >= 0 {
				return math.MaxInt64
			}
			return 1 << 63
		}
		return uint64(s)
	}
	return satS(sext(a, n)-sext(b, n), n)
}

// mulFull returns the product's (hi, lo) of width-n operands as 2n bits.
func mulParts(ii intInfo, a, b uint64) (hi, lo uint64) {
	n := ii.bits
	if n == 64 {
		return mulHi64(a, b, ii.signed), a * b
	}
	p := ii.ext(a) * ii.ext(b) // exact in 64 bits for n <= 32
	return (p >> uint(n)) & ii.mask, p & ii.mask
}

func iMul(in *inst, a, b, _, _ uint64) uint64 {
	hi, lo := mulParts(in.ii, a, b)
	switch in.sub {
	case mHi:
		return hi
	case mWide:
		return hi<<uint(in.ii.bits) | lo
	}
	return lo
}

func iMad(in *inst, a, b, c, _ uint64) uint64 {
	hi, lo := mulParts(in.ii, a, b)
	n := uint(in.ii.bits)
	switch in.sub {
	case mHi:
		if in.sat && in.ii.signed && n == 32 {
			return satS(sext(hi, 32)+sext(c, 32), 32)
		}
		return (hi + c) & in.ii.mask
	case mWide:
		return (hi<<n | lo) + c
	}
	return (lo + c) & in.ii.mask
}

func iMul24(in *inst, a, b, c, _ uint64) uint64 {
	var x, y int64
	if in.ii.signed {
		x, y = sext(a, 24), sext(b, 24)
	} else {
		x, y = int64(a&0xffffff), int64(b&0xffffff)
	}
	p := uint64(x * y)
	var r uint64
	if in.sub == mHi {
		r = p >> 16
	} else {
		r = p
	}
	return (r + c) & 0xffffffff
}

func iSad(in *inst, a, b, c, _ uint64) uint64 {
	x, y := in.ii.ext(a), in.ii.ext(b)
	var dlt uint64
	if in.ii.signed {
		if int64(x) < int64(y) {
			dlt = y - x
		} else {
			dlt = x - y
		}
	} else if x < y {
		dlt = y - x
	} else {
		dlt = x - y
	}
	return (c + dlt) & in.ii.mask
}

func iDiv(in *inst, a, b, _, _ uint64) uint64 {
	ii := in.ii
	x, y := ii.ext(a), ii.ext(b)
	if y&ii.mask == 0 {
		return ii.mask // division by zero: all ones
	}
	if ii.signed {
		sx, sy := int64(x), int64(y)
		if sy == -1 {
			return uint64(-sx) & ii.mask
		}
		return uint64(sx/sy) & ii.mask
	}
	return (x / y) & ii.mask
}

func iRem(in *inst, a, b, _, _ uint64) uint64 {
	ii := in.ii
	x, y := ii.ext(a), ii.ext(b)
	if y&ii.mask == 0 {
		return x & ii.mask
	}
	if ii.signed {
		sx, sy := int64(x), int64(y)
		if sy == -1 {
			return 0
		}
		return uint64(sx%sy) & ii.mask
	}
	return (x % y) & ii.mask
}

func iMin(in *inst, a, b, _, _ uint64) uint64 {
	x, y := in.ii.ext(a), in.ii.ext(b)
	var r uint64
	if in.ii.signed {
		r = uint64(min(int64(x), int64(y)))
	} else {
		r = min(x, y)
	}
	if in.sat && int64(r) < 0 && in.ii.signed { // .relu
		r = 0
	}
	return r & in.ii.mask
}

func iMax(in *inst, a, b, _, _ uint64) uint64 {
	x, y := in.ii.ext(a), in.ii.ext(b)
	var r uint64
	if in.ii.signed {
		r = uint64(max(int64(x), int64(y)))
	} else {
		r = max(x, y)
	}
	if in.sat && int64(r) < 0 && in.ii.signed {
		r = 0
	}
	return r & in.ii.mask
}

func iAbs(in *inst, a, _, _, _ uint64) uint64 {
	x := int64(in.ii.ext(a))
	if x < 0 {
		x = -x
	}
	return uint64(x) & in.ii.mask
}

func iNeg(in *inst, a, _, _, _ uint64) uint64  { return -a & in.ii.mask }
func iNot(in *inst, a, _, _, _ uint64) uint64  { return ^a & in.ii.mask }
func iCnot(in *inst, a, _, _, _ uint64) uint64 { return b2u(a&in.ii.mask == 0) }
func iAnd(in *inst, a, b, _, _ uint64) uint64  { return a & b & in.ii.mask }
func iOr(in *inst, a, b, _, _ uint64) uint64   { return (a | b) & in.ii.mask }
func iXor(in *inst, a, b, _, _ uint64) uint64  { return (a ^ b) & in.ii.mask }
func iMov(in *inst, a, _, _, _ uint64) uint64  { return a & in.ii.mask }
func iMovX(in *inst, a, _, _, _ uint64) uint64 { return a }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func iPopc(in *inst, a, _, _, _ uint64) uint64 { return uint64(bits.OnesCount64(a & in.ii.mask)) }
func iClz(in *inst, a, _, _, _ uint64) uint64 {
	return uint64(bits.LeadingZeros64(a&in.ii.mask) - (64 - in.ii.bits))
}
func iBrev(in *inst, a, _, _, _ uint64) uint64 {
	return bits.Reverse64(a) >> uint(64-in.ii.bits)
}

func iBfind(in *inst, a, _, _, _ uint64) uint64 {
	ii := in.ii
	x := a & ii.mask
	if ii.signed && x>>(ii.bits-1)&1 == 1 {
		x = ^x & ii.mask
	}
	if x == 0 {
		return 0xffffffff
	}
	pos := uint64(63 - bits.LeadingZeros64(x))
	if in.sub == 1 { // .shiftamt
		return uint64(ii.bits-1) - pos
	}
	return pos
}

func iShl(in *inst, a, b, _, _ uint64) uint64 {
	s := b & 0xffffffff
	if s >= uint64(in.ii.bits) {
		return 0
	}
	return (a << s) & in.ii.mask
}

func iShr(in *inst, a, b, _, _ uint64) uint64 {
	s := b & 0xffffffff
	n := uint64(in.ii.bits)
	if in.ii.signed {
		if s >= n {
			s = n - 1
		}
		return uint64(sext(a, int(n))>>s) & in.ii.mask
	}
	if s >= n {
		return 0
	}
	return (a & in.ii.mask) >> s
}

func iBfe(in *inst, a, b, c, _ uint64) uint64 {
	ii := in.ii
	n := uint64(ii.bits)
	pos, ln := b&0xff, c&0xff
	msb := n - 1
	var sbit uint64
	if ii.signed && ln != 0 {
		sbit = a >> min(pos+ln-1, msb) & 1
	}
	var r uint64
	for i := uint64(0); i <= msb; i++ {
		var bit uint64
		if i < ln && pos+i <= msb {
			bit = a >> (pos + i) & 1
		} else {
			bit = sbit
		}
		r |= bit << i
	}
	return r
}

func iBfi(in *inst, a, b, c, d uint64) uint64 {
	n := uint64(in.ii.bits)
	pos, ln := c&0xff, d&0xff
	r := b & in.ii.mask
	for i := uint64(0); i < ln && pos+i < n; i++ {
		r = r&^(1<<(pos+i)) | (a>>i&1)<<(pos+i)
	}
	return r
}

// prmt modes
const (
	prmtDefault uint8 = iota
	prmtF4E
	prmtB4E
	prmtRC8
	prmtECL
	prmtECR
	prmtRC16
)

func iPrmt(in *inst, a, b, c, _ uint64) uint64 {
	src := uint64(uint32(a)) | uint64(uint32(b))<<32
	byteAt := func(k uint64) uint64 { return src >> (8 * (k & 7)) & 0xff }
	var r uint64
	s := c & 3
	for i := uint64(0); i < 4; i++ {
		var v uint64
		switch in.sub {
		case prmtDefault:
			sel := c >> (4 * i) & 0xf
			v = byteAt(sel & 7)
			if sel&8 != 0 {
				if v&0x80 != 0 {
					v = 0xff
				} else {
					v = 0
				}
			}
		case prmtF4E:
			v = byteAt(s + i)
		case prmtB4E:
			v = byteAt(s - i)
		case prmtRC8:
			v = byteAt(s)
		case prmtECL:
			v = byteAt(max(i, s))
		case prmtECR:
			v = byteAt(min(i, s))
		case prmtRC16:
			v = byteAt(2*(s&1) + i&1)
		}
		r |= v << (8 * i)
	}
	return r
}

func iLop3(in *inst, a, b, c, lut uint64) uint64 {
	var r uint64
	for k := uint64(0); k < 8; k++ {
		if lut>>k&1 == 0 {
			continue
		}
		t := ^uint64(0)
		if k&4 != 0 {
			t &= a
		} else {
			t &= ^a
		}
		if k&2 != 0 {
			t &= b
		} else {
			t &= ^b
		}
		if k&1 != 0 {
			t &= c
		} else {
			t &= ^c
		}
		r |= t
	}
	return r & 0xffffffff
}

// shf: sub 0 = .l, 1 = .r; bop 0 = clamp, 1 = wrap.
func iShf(in *inst, a, b, c, _ uint64) uint64 {
	n := c & 0xffffffff
	if in.bop == 1 {
		n &= 31
	} else if n > 32 {
		n = 32
	}
	v := uint64(uint32(b))<<32 | uint64(uint32(a))
	if in.sub == 0 {
		return (v << n) >> 32 & 0xffffffff
	}
	return (v >> n) & 0xffffffff
}

// Comparison ops.
const (
	cEq uint8 = iota
	cNe
	cLt
	cLe
	cGt
	cGe
	cLo
	cLs
	cHi
	cHs
	cEqu
	cNeu
	cLtu
	cLeu
	cGtu
	cGeu
	cNum
	cNan
)

var cmpNames = map[string]uint8{"eq": cEq, "ne": cNe, "lt": cLt, "le": cLe, "gt": cGt, "ge": cGe,
	"lo": cLo, "ls": cLs, "hi": cHi, "hs": cHs, "equ": cEqu, "neu": cNeu, "ltu": cLtu, "leu": cLeu,
	"gtu": cGtu, "geu": cGeu, "num": cNum, "nan": cNan}

// compare evaluates a comparison of type t (sub = cmp op).
func compare(in *inst, cmp uint8, a, b uint64) bool {
	if in.t.IsFloat() {
		x, y := unpackF(in.ff, a), unpackF(in.ff, b)
		if in.ftz {
			x, y = ftz(in.ff, x), ftz(in.ff, y)
		}
		un := math.IsNaN(x) || math.IsNaN(y)
		switch cmp {
		case cEq:
			return x == y
		case cNe:
			return !un && x != y
		case cLt:
			return x < y
		case cLe:
			return x <= y
		case cGt:
			return x > y
		case cGe:
			return x >= y
		case cEqu:
			return un || x == y
		case cNeu:
			return un || x != y
		case cLtu:
			return un || x < y
		case cLeu:
			return un || x <= y
		case cGtu:
			return un || x > y
		case cGeu:
			return un || x >= y
		case cNum:
			return !un
		case cNan:
			return un
		}
		return false
	}
	ii := in.ii
	x, y := ii.ext(a), ii.ext(b)
	sl := int64(x) < int64(y)
	ul := x < y
	switch cmp {
	case cEq:
		return x == y
	case cNe:
		return x != y
	case cLt:
		if ii.signed {
			return sl
		}
		return ul
	case cLe:
		if ii.signed {
			return sl || x == y
		}
		return ul || x == y
	case cGt:
		if ii.signed {
			return !sl && x != y
		}
		return !ul && x != y
	case cGe:
		if ii.signed {
			return !sl
		}
		return !ul
	case cLo:
		return ul
	case cLs:
		return ul || x == y
	case cHi:
		return !ul && x != y
	case cHs:
		return !ul
	}
	return false
}

// Boolean combiners of setp/set.
const (
	bNone uint8 = iota
	bAnd
	bOr
	bXor
)

func boolop(op uint8, x bool, c uint64) bool {
	cb := c&1 != 0
	switch op {
	case bAnd:
		return x && cb
	case bOr:
		return x || cb
	case bXor:
		return x != cb
	}
	return x
}

func execSetp(w *warp, in *inst, m uint32) {
	p := int(in.d[0]) << 5
	q := -1
	if in.nd > 1 {
		q = int(in.d[1]) << 5
	}
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		r := compare(in, in.sub, w.val(&in.s[0], l), w.val(&in.s[1], l))
		var c uint64
		if in.bop != bNone {
			c = w.val(&in.s[2], l)
		}
		w.regs[p|l] = b2u(boolop(in.bop, r, c))
		if q >= 0 {
			w.regs[q|l] = b2u(boolop(in.bop, !r, c))
		}
	}
}

// set: in.t is the destination type, comparisons use in.t2.
func fSet(in *inst, a, b, c, _ uint64) uint64 {
	cin := *in
	cin.t, cin.ii, cin.ff = in.t2, intInfoOf(in.t2), fmtOf(in.t2)
	r := boolop(in.bop, compare(&cin, in.sub, a, b), c)
	if in.t == ir.TF32 {
		if r {
			return 0x3f800000
		}
		return 0
	}
	if r {
		return in.ii.mask
	}
	return 0
}

func fSelp(in *inst, a, b, c, _ uint64) uint64 {
	if c&1 != 0 {
		return a
	}
	return b
}

// slct: in.t2 is the type of c.
func fSlct(in *inst, a, b, c, _ uint64) uint64 {
	var ge bool
	if in.t2.IsFloat() {
		v := float64(math.Float32frombits(uint32(c)))
		if in.ftz {
			v = ftz(fmtF32, v)
		}
		ge = v >= 0 || math.IsNaN(v)
	} else {
		ge = int32(c) >= 0
	}
	if ge {
		return a
	}
	return b
}

// Float ops.

func fArith(in *inst, a, b, c, _ uint64) uint64 {
	f := in.ff
	x, y, z := unpackF(f, a), unpackF(f, b), unpackF(f, c)
	if in.ftz {
		x, y, z = ftz(f, x), ftz(f, y), ftz(f, z)
	}
	r, exact := 0.0, false
	if directedRound(in.rnd) {
		r, exact = exactDirected(in.sub, x, y, z, f, in.rnd)
	}
	if !exact {
		var e int
		r, e = exactOp(in.sub, x, y, z, f, in.rnd)
		r = roundFmt(r, e, f, in.rnd)
	}
	if in.ftz {
		r = ftz(f, r)
	}
	if in.sat {
		r = sat01(r)
	}
	return packF(f, r)
}

func canon32(r float32) uint64 {
	if r != r {
		return 0x7fffffff
	}
	return uint64(math.Float32bits(r))
}

func fAdd32(in *inst, a, b, _, _ uint64) uint64 {
	return canon32(math.Float32frombits(uint32(a)) + math.Float32frombits(uint32(b)))
}
func fSub32(in *inst, a, b, _, _ uint64) uint64 {
	return canon32(math.Float32frombits(uint32(a)) - math.Float32frombits(uint32(b)))
}
func fMul32(in *inst, a, b, _, _ uint64) uint64 {
	return canon32(math.Float32frombits(uint32(a)) * math.Float32frombits(uint32(b)))
}

// fApprox computes an approximate function exactly rounded from float64.
func fApprox(in *inst, a, _, _, _ uint64) uint64 {
	f := in.ff
	x := unpackF(f, a)
	if in.ftz {
		x = ftz(f, x)
	}
	var r float64
	switch in.sub {
	case 0:
		r = 1 / x
	case 1:
		r = 1 / math.Sqrt(x)
	case 2:
		r = math.Exp2(x)
	case 3:
		r = math.Log2(x)
	case 4:
		r = math.Sin(x)
	case 5:
		r = math.Cos(x)
	case 6:
		r = math.Tanh(x)
	case 7:
		r = math.Sqrt(x)
	}
	r = roundFmt(r, 0, f, rnRN)
	if in.ftz {
		r = ftz(f, r)
	}
	if in.sat {
		r = sat01(r)
	}
	return packF(f, r)
}

// fDivApprox is div.approx/div.full: the correctly rounded quotient.
func fDivApprox(in *inst, a, b, _, _ uint64) uint64 {
	f := in.ff
	x, y := unpackF(f, a), unpackF(f, b)
	if in.ftz {
		x, y = ftz(f, x), ftz(f, y)
	}
	r := roundFmt(x/y, 0, f, rnRN)
	if in.ftz {
		r = ftz(f, r)
	}
	return packF(f, r)
}

// fMinMax: sub 0 = min, 1 = max; bop 1 = .NaN (propagate).
func fMinMax(in *inst, a, b, _, _ uint64) uint64 {
	f := in.ff
	x, y := unpackF(f, a), unpackF(f, b)
	if in.ftz {
		x, y = ftz(f, x), ftz(f, y)
	}
	nx, ny := math.IsNaN(x), math.IsNaN(y)
	var r float64
	switch {
	case nx && ny, (nx || ny) && in.bop == 1:
		r = math.NaN()
	case nx:
		r = y
	case ny:
		r = x
	case in.sub == 0:
		r = x
		if y < x || (y == x && math.Signbit(y)) {
			r = y
		}
	default:
		r = x
		if y > x || (y == x && !math.Signbit(y)) {
			r = y
		}
	}
	return packF(f, r)
}

func fAbs(in *inst, a, _, _, _ uint64) uint64 {
	f := in.ff
	sign := uint64(1) << (f.bits - 1)
	v := a &^ sign
	if in.ftz {
		v = packF(f, ftz(f, unpackF(f, v)))
	}
	return v & (sign<<1 - 1)
}

func fNeg(in *inst, a, _, _, _ uint64) uint64 {
	f := in.ff
	sign := uint64(1) << (f.bits - 1)
	if in.ftz {
		a = packF(f, ftz(f, unpackF(f, a)))
	}
	return (a ^ sign) & (sign<<1 - 1)
}

func fCopysign(in *inst, a, b, _, _ uint64) uint64 {
	sign := uint64(1) << (in.ff.bits - 1)
	return b&^sign | a&sign
}

// testp: sub = class.
func fTestp(in *inst, a, _, _, _ uint64) uint64 {
	x := unpackF(in.ff, a)
	switch in.sub {
	case 0: // finite
		return b2u(!math.IsInf(x, 0) && !math.IsNaN(x))
	case 1: // infinite
		return b2u(math.IsInf(x, 0))
	case 2: // number
		return b2u(!math.IsNaN(x))
	case 3: // notanumber
		return b2u(math.IsNaN(x))
	case 4: // normal
		return b2u(x != 0 && !math.IsInf(x, 0) && !math.IsNaN(x) && math.Abs(x) >= math.Ldexp(1, in.ff.emin))
	case 5: // subnormal
		return b2u(x != 0 && math.Abs(x) < math.Ldexp(1, in.ff.emin))
	}
	return 0
}

// packed f16x2/bf16x2: apply the element op to both halves.
func fPacked(in *inst, a, b, c, _ uint64) uint64 {
	lo := in.ef(in, a&0xffff, b&0xffff, c&0xffff, 0)
	hi := in.ef(in, a>>16&0xffff, b>>16&0xffff, c>>16&0xffff, 0)
	return lo&0xffff | (hi&0xffff)<<16
}

// cvt: in.t destination, in.t2 source.
func fCvt(in *inst, a, _, _, _ uint64) uint64 {
	dt, st := in.t, in.t2
	di, si := intInfoOf(dt), intInfoOf(st)
	switch {
	case !dt.IsFloat() && !st.IsFloat():
		v := si.ext(a)
		if in.sat {
			if si.signed {
				sv := int64(v)
				if di.signed {
					lo, hi := int64(-1)<<(di.bits-1), int64(1)<<(di.bits-1)-1
					sv = max(lo, min(hi, sv))
				} else {
					if sv < 0 {
						sv = 0
					}
					if di.bits < 64 && sv > int64(di.mask) {
						sv = int64(di.mask)
					}
				}
				v = uint64(sv)
			} else {
				hi := di.mask
				if di.signed {
					hi >>= 1
				}
				v = min(v, hi)
			}
		}
		return di.ext(v & di.mask)
	case dt.IsFloat() && !st.IsFloat():
		df := fmtOf(dt)
		rnd := in.rnd
		r := intToFloat(si.ext(a), si.signed, df, rnd)
		if in.ftz {
			r = ftz(df, r)
		}
		if in.sat {
			r = sat01(r)
		}
		return packF(df, r)
	case !dt.IsFloat() && st.IsFloat():
		sf := fmtOf(st)
		x := unpackF(sf, a)
		if in.ftz {
			x = ftz(sf, x)
		}
		rnd := in.rnd
		if rnd == rnDefault {
			rnd = rnRZI
		}
		return di.ext(floatToInt(x, di, rnd))
	}
	sf, df := fmtOf(st), fmtOf(dt)
	x := unpackF(sf, a)
	if in.ftz {
		x = ftz(sf, x)
	}
	var r float64
	switch in.rnd {
	case rnRNI, rnRZI, rnRMI, rnRPI:
		r = roundInt(x, in.rnd)
		if r == 0 {
			r = math.Copysign(0, x)
		}
	default:
		r = roundFmt(x, 0, df, in.rnd)
	}
	if in.ftz {
		r = ftz(df, r)
	}
	if in.sat {
		r = sat01(r)
	}
	if dt == ir.TTF32 { // stored in a 32-bit f32 container
		return uint64(math.Float32bits(float32(r)))
	}
	return packF(df, r)
}

// cvt.rn.f16x2.f32 d, a, b: d = {cvt(a) hi, cvt(b) lo}.
func fCvtPack(in *inst, a, b, _, _ uint64) uint64 {
	hi := fCvt(in, a, 0, 0, 0)
	lo := fCvt(in, b, 0, 0, 0)
	return (hi&0xffff)<<16 | lo&0xffff
}
