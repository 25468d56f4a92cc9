package sim_test

import (
	"testing"

	"github.com/ptxopt/ptxopt/sim"
)

// runsOnSeeds runs kernel name of src on the generated inputs of seeds
// 0..n-1 and fails on the first that does not run to completion.
func runsOnSeeds(t *testing.T, src, name string, n int) {
	t.Helper()
	f := parseKernel(t, src, name)
	maker := sim.NewInputMaker(f)
	for seed := int64(0); seed < int64(n); seed++ {
		in := maker.Make(seed, 1<<20)
		in.Launch.MaxSteps = 1_000_000
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// A by-value struct parameter holding a pointer and, beside it, an
// increment in bytes (CUTLASS's tile iterators): the pointer is used as
// an address first, then the increment is added to it twice. The sum of
// the pointer plus the increment is still the pointer (not the increment
// plus a mangled value), so the increment gets a small value, not a
// buffer's address.
func TestInputStructIncrementNotPointer(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .align 8 .b8 p[16])
{
	.reg .u64 %rd<8>;
	.reg .u32 %r<4>;
	mov.b64 %rd1, p;
	ld.param.u64 %rd2, [%rd1+0];
	ld.param.u64 %rd3, [%rd1+8];
	ld.global.u8 %r1, [%rd3];
	add.s64 %rd4, %rd3, %rd2;
	add.s64 %rd5, %rd4, %rd2;
	ld.global.u8 %r2, [%rd5];
	add.u32 %r3, %r1, %r2;
	st.global.u8 [%rd3], %r3;
	ret;
}
`
	runsOnSeeds(t, src, "k", 16)
}

// A byte offset added to a pointer (one already read through) that is
// read 4 bytes wide gets a multiple of 4 (an odd one would make every run trap on a misaligned
// access).
func TestInputIndexKeepsAlignment(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 buf, .param .u64 off)
{
	.reg .u64 %rd<8>;
	.reg .u32 %r<4>;
	ld.param.u64 %rd1, [buf];
	ld.param.u64 %rd2, [off];
	ld.global.u32 %r2, [%rd1];
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r1, [%rd3];
	add.u32 %r1, %r1, %r2;
	st.global.u32 [%rd3], %r1;
	ret;
}
`
	runsOnSeeds(t, src, "k", 16)
}

// Increments summed into an offset (inc_next - inc_advance, then added
// to the pointer) are all indices: each keeps the access aligned, and a
// pointer stepped back by their difference stays inside its buffer (the
// buffer has readable bytes before the pointer).
func TestInputSummedIncrements(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 buf, .param .u64 a, .param .u64 b, .param .u64 c)
{
	.reg .u64 %rd<12>;
	.reg .u32 %r<4>;
	ld.param.u64 %rd1, [buf];
	ld.param.u64 %rd2, [a];
	ld.param.u64 %rd3, [b];
	ld.param.u64 %rd4, [c];
	ld.global.u16 %r1, [%rd1];
	sub.s64 %rd5, %rd2, %rd3;
	add.s64 %rd6, %rd5, %rd4;
	add.s64 %rd7, %rd1, %rd6;
	ld.global.u16 %r2, [%rd7];
	add.u32 %r1, %r1, %r2;
	st.global.u16 [%rd1], %r1;
	ret;
}
`
	runsOnSeeds(t, src, "k", 16)
}
