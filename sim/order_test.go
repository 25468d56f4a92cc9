package sim_test

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim/simtest"
)

// The two sides of a divergent branch run in an order PTX leaves open,
// but float atomics round differently in another order. The simulator
// runs first the side whose code comes first (past unconditional jumps),
// so a branch inverted by the optimizer ("@p bra A; bra B; A:" into
// "@!p bra B; A:") accumulates in the same order and compares equal.
func TestBranchInversionKeepsAtomicOrder(t *testing.T) {
	const src = `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .f32 %f<8>;
	.reg .pred %p<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	cvt.rn.f32.u32 %f1, %r1;
	mul.f32 %f2, %f1, 0f3DCCCCCD;
	and.b32 %r2, %r1, 1;
	setp.ne.u32 %p1, %r2, 0;
	BRANCH
$L_a:
	mul.f32 %f3, %f2, 0f4B189680;
	atom.global.add.f32 %f4, [%rd1], %f3;
	bra.uni $L_end;
$L_b:
	add.f32 %f5, %f2, 0f3F000000;
	atom.global.add.f32 %f6, [%rd1], %f5;
$L_end:
	ret;
}
`
	before := parseKernel(t, strings.Replace(src, "BRANCH", "@%p1 bra $L_a;\n\tbra.uni $L_b;", 1), "k")
	after := parseKernel(t, strings.Replace(src, "BRANCH", "@!%p1 bra $L_b;", 1), "k")
	simtest.CheckEquivalent(t, before, after, 4)
}
