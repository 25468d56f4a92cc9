package sim

import (
	"math"
	"testing"
)

// TestExactDirected: directed roundings where carrying a float64 and an
// error sign is not enough (f64 results below the subnormals or beyond
// the largest finite value, exactly zero sums under .rm), with the
// results IEEE 754 gives, written out by hand.
func TestExactDirected(t *testing.T) {
	b := math.Float64frombits
	maxf := b(0x7fefffffffffffff)
	tiny := b(0x1) // 2^-1074
	for _, tc := range []struct {
		name    string
		op      uint8
		a, b, c float64
		f       ffmt
		rnd     uint8
		want    uint64 // f64 bits of the result
	}{
		{"1-1 rm", fopSub, 1, 1, 0, fmtF32, rnRM, 0x8000000000000000},
		{"1-1 rp", fopSub, 1, 1, 0, fmtF32, rnRP, 0},
		{"-0+0 rm", fopAdd, math.Copysign(0, -1), 0, 0, fmtF64, rnRM, 0x8000000000000000},
		{"-0+-0 rp", fopAdd, math.Copysign(0, -1), math.Copysign(0, -1), 0, fmtF64, rnRP, 0x8000000000000000},
		{"max+max rz", fopAdd, maxf, maxf, 0, fmtF64, rnRZ, 0x7fefffffffffffff},
		{"max+max rp", fopAdd, maxf, maxf, 0, fmtF64, rnRP, 0x7ff0000000000000},
		{"-max*2 rp", fopMul, -maxf, 2, 0, fmtF64, rnRP, 0xffefffffffffffff},
		{"-max*2 rm", fopMul, -maxf, 2, 0, fmtF64, rnRM, 0xfff0000000000000},
		{"tiny*0.5 rp", fopMul, tiny, 0.5, 0, fmtF64, rnRP, 0x1},
		{"tiny*0.5 rz", fopMul, tiny, 0.5, 0, fmtF64, rnRZ, 0},
		{"-tiny*0.5 rm", fopMul, -tiny, 0.5, 0, fmtF64, rnRM, 0x8000000000000001},
		{"tiny/3 rp", fopDiv, tiny, 3, 0, fmtF64, rnRP, 0x1},
		{"tiny/3 rm", fopDiv, tiny, 3, 0, fmtF64, rnRM, 0},
		{"1/3 rp", fopDiv, 1, 3, 0, fmtF64, rnRP, 0x3fd5555555555556},
		{"1/3 rz", fopDiv, 1, 3, 0, fmtF64, rnRZ, 0x3fd5555555555555},
		{"sqrt2 rp", fopSqrt, 2, 0, 0, fmtF64, rnRP, 0x3ff6a09e667f3bcd},
		{"sqrt2 rz", fopSqrt, 2, 0, 0, fmtF64, rnRZ, 0x3ff6a09e667f3bcc},
		{"2^1023*1+tiny rp", fopFma, b(0x7fe0000000000000), 1, tiny, fmtF64, rnRP, 0x7fe0000000000001},
		{"2^1023*1-tiny rz", fopFma, b(0x7fe0000000000000), 1, -tiny, fmtF64, rnRZ, 0x7fdfffffffffffff},
		{"0*x+c rz", fopFma, 0, 5, 1.5, fmtF64, rnRZ, math.Float64bits(1.5)},
		{"0*-1+0 rm", fopFma, 0, -1, 0, fmtF64, rnRM, 0x8000000000000000},
		{"f32 1+2^-24 rp", fopAdd, 1, math.Ldexp(1, -24), 0, fmtF32, rnRP, math.Float64bits(float64(math.Nextafter32(1, 2)))},
	} {
		got, ok := exactDirected(tc.op, tc.a, tc.b, tc.c, tc.f, tc.rnd)
		if !ok || math.Float64bits(got) != tc.want {
			t.Errorf("%s: got %#x (%v), want %#x", tc.name, math.Float64bits(got), ok, tc.want)
		}
	}
	// Operands that are not finite stay with the fast path.
	if _, ok := exactDirected(fopAdd, math.Inf(1), 1, 0, fmtF64, rnRZ); ok {
		t.Error("infinity taken by the exact path")
	}
	if _, ok := exactDirected(fopDiv, 1, 0, 0, fmtF64, rnRZ); ok {
		t.Error("division by zero taken by the exact path")
	}
}
