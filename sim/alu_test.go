package sim

import (
	"math"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

func ti(t ir.Type) *inst { return &inst{t: t, ii: intInfoOf(t), ff: fmtOf(t)} }

func f32(v float32) uint64 { return uint64(math.Float32bits(v)) }
func f64(v float64) uint64 { return math.Float64bits(v) }

func TestIntEdgeCases(t *testing.T) {
	u32, s32, s64, u64 := ti(ir.TU32), ti(ir.TS32), ti(ir.TS64), ti(ir.TU64)
	hi := func(in *inst) *inst { c := *in; c.sub = mHi; return &c }
	wide := func(in *inst) *inst { c := *in; c.sub = mWide; return &c }
	cases := []struct {
		name string
		got  uint64
		want uint64
	}{
		{"shl.b32 by 32", iShl(u32, 1, 32, 0, 0), 0},
		{"shl.b32 by 2^32+1 (u32 amount wraps to 1? no: amount is the low 32 bits)", iShl(u32, 1, 1<<32|1, 0, 0), 2},
		{"shr.u32 by 33", iShr(u32, 0x80000000, 33, 0, 0), 0},
		{"shr.s32 negative by 40", iShr(s32, 0x80000000, 40, 0, 0), 0xffffffff},
		{"shr.s64 by 64", iShr(s64, 1<<63, 64, 0, 0), math.MaxUint64},
		{"mul.hi.s32 -3*5", iMul(hi(s32), uint64(0xfffffffd), 5, 0, 0), 0xffffffff},
		{"mul.hi.u32", iMul(hi(u32), 0x80000000, 4, 0, 0), 2},
		{"mul.hi.s64 -1*1", iMul(hi(s64), math.MaxUint64, 1, 0, 0), math.MaxUint64},
		{"mul.hi.u64", iMul(hi(u64), 1<<63, 4, 0, 0), 2},
		{"mul.wide.s32 -2*3", iMul(wide(s32), 0xfffffffe, 3, 0, 0), uint64(math.MaxUint64 - 5)},
		{"mul.wide.u32", iMul(wide(u32), 0xffffffff, 0xffffffff, 0, 0), 0xfffffffe00000001},
		{"bfe.u32", iBfe(u32, 0xf0, 4, 4, 0), 0xf},
		{"bfe.s32 sign", iBfe(s32, 0xf0, 4, 4, 0), 0xffffffff},
		{"bfe.u32 pos 40", iBfe(u32, 0xffffffff, 40, 5, 0), 0},
		{"bfe.s32 pos 40 uses msb", iBfe(s32, 0x80000000, 40, 5, 0), 0xffffffff},
		{"bfe.s32 len 0", iBfe(s32, 0xffffffff, 3, 0, 0), 0},
		{"bfe.u32 len 200", iBfe(u32, 0xabcd1234, 8, 200, 0), 0xabcd12},
		{"bfi.b32", iBfi(u32, 0xf, 0, 4, 8), 0xf0},
		{"bfi.b32 pos 30 len 8", iBfi(u32, 0xff, 0, 30, 8), 0xc0000000},
		{"prmt default identity", iPrmt(u32, 0x33221100, 0x77665544, 0x3210, 0), 0x33221100},
		{"prmt default b", iPrmt(u32, 0x33221100, 0x77665544, 0x7654, 0), 0x77665544},
		{"prmt sign replicate", iPrmt(u32, 0x80, 0, 0x8888, 0), 0xffffffff},
		{"lop3 and", iLop3(u32, 0xf0f0, 0xff00, 0xffff, 0x80), 0xf000},
		{"lop3 a^b^c", iLop3(u32, 0xf0, 0xcc, 0xaa, 0x96), 0x96},
		{"popc", iPopc(u32, 0xf0f0, 0, 0, 0), 8},
		{"clz.b32 0", iClz(u32, 0, 0, 0, 0), 32},
		{"clz.b32 1", iClz(u32, 1, 0, 0, 0), 31},
		{"brev.b32", iBrev(u32, 1, 0, 0, 0), 0x80000000},
		{"bfind.u32 0", iBfind(u32, 0, 0, 0, 0), 0xffffffff},
		{"bfind.s32 -1", iBfind(s32, 0xffffffff, 0, 0, 0), 0xffffffff},
		{"bfind.u32", iBfind(u32, 0x100, 0, 0, 0), 8},
		{"abs.s32 INT_MIN", iAbs(s32, 0x80000000, 0, 0, 0), 0x80000000},
		{"div.s32 INT_MIN/-1", iDiv(s32, 0x80000000, 0xffffffff, 0, 0), 0x80000000},
		{"div.u32 by 0", iDiv(u32, 7, 0, 0, 0), 0xffffffff},
		{"rem.s32 -7%2", iRem(s32, uint64(0xfffffff9), 2, 0, 0), 0xffffffff},
		{"min.s32", iMin(s32, 0xffffffff, 1, 0, 0), 0xffffffff},
		{"min.u32", iMin(u32, 0xffffffff, 1, 0, 0), 1},
		{"add.sat.s32", iAddSat(s32, 0x7fffffff, 1, 0, 0), 0x7fffffff},
		{"sub.sat.s32", iSubSat(s32, 0x80000000, 1, 0, 0), 0x80000000},
		{"shf.l.wrap", iShf(&inst{sub: 0, bop: 1}, 0x80000000, 1, 33, 0), 3},
		{"shf.r.clamp 40", iShf(&inst{sub: 1, bop: 0}, 5, 7, 40, 0), 7},
		{"sad.s32", iSad(s32, uint64(0xfffffffe), 3, 10, 0), 15},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %#x want %#x", c.name, c.got, c.want)
		}
	}
}

func TestFloatEdgeCases(t *testing.T) {
	f := ti(ir.TF32)
	nan := f32(float32(math.NaN()))
	mn := func(a, b uint64) uint64 { c := *f; c.sub = 0; return fMinMax(&c, a, b, 0, 0) }
	mx := func(a, b uint64) uint64 { c := *f; c.sub = 1; return fMinMax(&c, a, b, 0, 0) }
	mnNaN := func(a, b uint64) uint64 { c := *f; c.sub = 0; c.bop = 1; return fMinMax(&c, a, b, 0, 0) }
	arith := func(op, rnd uint8, a, b uint64) uint64 {
		c := *f
		c.sub, c.rnd = op, rnd
		return fArith(&c, a, b, 0, 0)
	}
	cvt := func(dt, st ir.Type, rnd uint8, sat bool, a uint64) uint64 {
		c := &inst{t: dt, t2: st, rnd: rnd, sat: sat}
		return fCvt(c, a, 0, 0, 0)
	}
	tiny := float32(math.Ldexp(1, -30))
	cases := []struct {
		name      string
		got, want uint64
	}{
		{"min(NaN,1)", mn(nan, f32(1)), f32(1)},
		{"max(1,NaN)", mx(f32(1), nan), f32(1)},
		{"min(NaN,NaN) canonical", mn(nan|1, nan), 0x7fffffff},
		{"min.NaN(NaN,1)", mnNaN(nan, f32(1)), 0x7fffffff},
		{"min(-0,+0)", mn(f32(0), f32(float32(math.Copysign(0, -1)))), 0x80000000},
		{"max(-0,+0)", mx(0x80000000, 0), 0},
		{"add.rn 1+2^-30", arith(fopAdd, rnRN, f32(1), f32(tiny)), f32(1)},
		{"add.rz 1+2^-30", arith(fopAdd, rnRZ, f32(1), f32(tiny)), f32(1)},
		{"add.rp 1+2^-30", arith(fopAdd, rnRP, f32(1), f32(tiny)), f32(1) + 1},
		{"add.rm 1-2^-30", arith(fopSub, rnRM, f32(1), f32(tiny)), f32(1) - 1},
		{"add.rz -1-2^-30", arith(fopSub, rnRZ, f32(-1), f32(tiny)), f32(-1)},
		{"mul.rz overflow", arith(fopMul, rnRZ, f32(math.MaxFloat32), f32(2)), f32(math.MaxFloat32)},
		{"mul.rn overflow", arith(fopMul, rnRN, f32(math.MaxFloat32), f32(2)), f32(float32(math.Inf(1)))},
		{"div.rn 1/3", arith(fopDiv, rnRN, f32(1), f32(3)), f32(1.0 / 3.0)},
		{"div.rz 1/3", arith(fopDiv, rnRZ, f32(1), f32(3)), f32(1.0/3.0) - 1},
		{"div.rp 1/3", arith(fopDiv, rnRP, f32(1), f32(3)), f32(1.0 / 3.0)},
		{"0*inf canonical NaN", arith(fopMul, rnRN, f32(0), f32(float32(math.Inf(1)))), 0x7fffffff},
		{"cvt.rni.s32.f32 2.5", cvt(ir.TS32, ir.TF32, rnRNI, false, f32(2.5)), 2},
		{"cvt.rni.s32.f32 3.5", cvt(ir.TS32, ir.TF32, rnRNI, false, f32(3.5)), 4},
		{"cvt.rzi.s32.f32 -2.7", cvt(ir.TS32, ir.TF32, rnRZI, false, f32(-2.7)) & 0xffffffff, 0xfffffffe},
		{"cvt.rmi.s32.f32 -2.2", cvt(ir.TS32, ir.TF32, rnRMI, false, f32(-2.2)) & 0xffffffff, 0xfffffffd},
		{"cvt.rzi.s32.f32 3e9 saturates", cvt(ir.TS32, ir.TF32, rnRZI, false, f32(3e9)), 0x7fffffff},
		{"cvt.rzi.u32.f32 -5 saturates", cvt(ir.TU32, ir.TF32, rnRZI, false, f32(-5)), 0},
		{"cvt.rzi.s32.f32 NaN", cvt(ir.TS32, ir.TF32, rnRZI, false, nan), 0},
		{"cvt.sat.u8.s32 -5", cvt(ir.TU8, ir.TS32, 0, true, uint64(0xfffffffb)), 0},
		{"cvt.sat.s8.s32 300", cvt(ir.TS8, ir.TS32, 0, true, 300), 127},
		{"cvt.s8.s32 300 wraps", cvt(ir.TS8, ir.TS32, 0, false, 300), 44},
		{"cvt.s32.s8 sign", cvt(ir.TS32, ir.TS8, 0, false, 0x80), uint64(0xffffffffffffff80)},
		{"cvt.rn.f32.f64 tie even", cvt(ir.TF32, ir.TF64, rnRN, false, f64(1+math.Ldexp(1, -24))), f32(1)},
		{"cvt.rp.f32.f64", cvt(ir.TF32, ir.TF64, rnRP, false, f64(1+math.Ldexp(1, -40))), f32(1) + 1},
		{"cvt.rz.f32.f64 -", cvt(ir.TF32, ir.TF64, rnRZ, false, f64(-1-math.Ldexp(1, -40))), f32(-1)},
		{"cvt.rn.f16.f32 overflow", cvt(ir.TF16, ir.TF32, rnRN, false, f32(65520)), 0x7c00},
		{"cvt.rn.f16.f32 max", cvt(ir.TF16, ir.TF32, rnRN, false, f32(65504)), 0x7bff},
		{"cvt.rz.f16.f32 overflow", cvt(ir.TF16, ir.TF32, rnRZ, false, f32(70000)), 0x7bff},
		{"cvt.f32.f16 subnormal", cvt(ir.TF32, ir.TF16, 0, false, 1), f32(float32(math.Ldexp(1, -24)))},
		{"cvt.sat.f32.f32", cvt(ir.TF32, ir.TF32, 0, true, f32(1.5)), f32(1)},
		{"cvt.rn.f32.u64 max", cvt(ir.TF32, ir.TU64, rnRN, false, math.MaxUint64), f32(float32(math.Ldexp(1, 64)))},
		{"cvt.rz.f32.u32", cvt(ir.TF32, ir.TU32, rnRZ, false, 0xffffffff), f32(float32(math.Ldexp(1, 32))) - 1},
		{"cvt.rn.f64.s64", cvt(ir.TF64, ir.TS64, rnRN, false, uint64(math.MaxUint64)), f64(-1)},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %#x want %#x", c.name, c.got, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	f := ti(ir.TF32)
	nan := f32(float32(math.NaN()))
	if compare(f, cNe, nan, f32(1)) || !compare(f, cNeu, nan, f32(1)) || compare(f, cLt, nan, 0) || !compare(f, cNan, nan, 0) {
		t.Error("unordered float comparisons")
	}
	s := ti(ir.TS32)
	if !compare(s, cLt, 0xffffffff, 0) || compare(s, cLo, 0xffffffff, 0) || !compare(s, cHi, 0xffffffff, 0) {
		t.Error("signed vs unsigned comparisons")
	}
}
