package sim_test

import (
	"encoding/binary"
	"math"
	"strings"
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

// A pointer parameter the kernel tests for null is null on some seeds
// (the branch for a missing buffer runs) and a buffer on others.
func TestInputPointerTestedForNull(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 opt, .param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [opt];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, 7;
	setp.eq.u64 %p1, %rd1, 0;
	@%p1 bra $done;
	ld.global.u32 %r1, [%rd1];
$done:
	st.global.u32 [%rd2], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	null, set := 0, 0
	for seed := int64(0); seed < 8; seed++ {
		in := maker.Make(seed, 1<<16)
		if binary.LittleEndian.Uint64(in.Launch.Params[0]) == 0 {
			null++
		} else {
			set++
		}
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if null == 0 || set == 0 {
		t.Fatalf("of 8 seeds %d gave a null pointer and %d a buffer, want both", null, set)
	}
}

// Two pointer parameters tested for null, one after the other (an OptiX
// program's optional launch-parameter buffers): within the check's 16
// seeds, each is null while the other is a buffer on some seed, so both
// paths between the two tests run (with every such pointer null on the
// same seeds, the path for the first missing and the second present
// never ran).
func TestInputPointersTestedForNullEachOnItsOwn(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	.reg .pred %p<3>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, 7;
	setp.eq.u64 %p1, %rd1, 0;
	@%p1 bra $second;
	ld.global.u32 %r1, [%rd1];
$second:
	setp.eq.u64 %p2, %rd2, 0;
	@%p2 bra $done;
	ld.global.u32 %r2, [%rd2];
	add.u32 %r1, %r1, %r2;
$done:
	st.global.u32 [%rd3], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	var seen [2][2]bool // [a null][b null]
	for seed := int64(0); seed < 16; seed++ {
		in := maker.Make(seed, 1<<16)
		a := binary.LittleEndian.Uint64(in.Launch.Params[0]) == 0
		b := binary.LittleEndian.Uint64(in.Launch.Params[1]) == 0
		seen[b2i(a)][b2i(b)] = true
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	for a := range 2 {
		for b := range 2 {
			if !seen[a][b] {
				t.Errorf("no seed of 16 gave a null=%v, b null=%v", a == 1, b == 1)
			}
		}
	}
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// An integer result of an uninterpreted function compared with an
// immediate (an OptiX transform type, say) is that immediate on some
// seeds: the results are drawn near the kernel's comparands on half of
// the calls (without that, a result is below 64 or a full-width hash,
// and 1000 never comes up).
func TestInputExternResultNearComparand(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	call (%r1), _optix_get_kind, ();
	setp.eq.u32 %p1, %r1, 1000;
	selp.u32 %r2, 1, 2, %p1;
	st.global.u32 [%rd1], %r2;
	st.global.u32 [%rd1+4], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	hit := 0
	for seed := int64(0); seed < 16; seed++ {
		in := maker.Make(seed, 1<<16)
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		out := binary.LittleEndian.Uint64(in.Launch.Params[0])
		if binary.LittleEndian.Uint32(in.Mem.Read(out, 4)) == 1 {
			hit++
		}
	}
	if hit == 0 {
		t.Fatal("no seed of 16 made the result 1000")
	}
}

// A stride multiplied into an index (row times stride, Triton's address
// arithmetic) keeps a 16-byte access aligned: every input location an
// index is made of, not only the first, is an index.
func TestInputStrideInProductAligned(t *testing.T) {
	const src = `
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 buf, .param .u32 m, .param .u32 stride)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<12>;
	ld.param.u64 %rd1, [buf];
	ld.param.u32 %r1, [m];
	ld.param.u32 %r2, [stride];
	mov.u32 %r3, %tid.x;
	or.b32 %r4, %r3, %r1;
	mul.lo.s32 %r5, %r4, %r2;
	mad.wide.u32 %rd2, %r5, 4, %rd1;
	ld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd2];
	add.u32 %r10, %r6, %r9;
	st.global.u32 [%rd1], %r10;
	ret;
}
`
	runsOnSeeds(t, src, "k", 16)
}

// cp.async's size operand is the width of its accesses: an offset added
// to the source pointer keeps a 16-byte copy aligned.
func TestInputCpAsyncWidthAligned(t *testing.T) {
	const src = `
.version 7.0
.target sm_80
.address_size 64
.shared .align 16 .b8 sh[64];
.visible .entry k(.param .u64 buf, .param .u64 off)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	ld.param.u64 %rd1, [buf];
	ld.param.u64 %rd2, [off];
	ld.global.u32 %r1, [%rd1];
	add.s64 %rd3, %rd1, %rd2;
	cp.async.cg.shared.global [sh], [%rd3], 16;
	cp.async.wait_all;
	ld.shared.u32 %r2, [sh];
	add.u32 %r1, %r1, %r2;
	st.global.u32 [%rd1], %r1;
	ret;
}
`
	runsOnSeeds(t, src, "k", 16)
}

// A register defined in two places (here the two arms of a branch, in
// OptiX's closest-hit programs two transform getters) and then followed
// as a pointer: both definitions' locations are pointers, although the
// flow-insensitive analysis sees the last definition at the load.
func TestInputBothDefinitionsPointers(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 sel, .param .u64 out)
{
	.reg .u64 %rd<10>;
	.reg .u32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	ld.param.u32 %r1, [sel];
	ld.param.u64 %rd9, [out];
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $L1;
	mov.u64 %rd3, %rd1;
	bra.uni $L2;
$L1:
	add.s64 %rd3, %rd2, 8;
$L2:
	cvta.to.global.u64 %rd4, %rd3;
	ld.global.u32 %r2, [%rd4];
	st.global.u32 [%rd9], %r2;
	ret;
}
`
	runsOnSeeds(t, src, "k", 16)
}

// A float parameter compared with an immediate (a threshold far outside
// the ordinary draws) is near it, on either side, on some seeds.
func TestInputFloatParamNearComparand(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .f32 x, .param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	.reg .f32 %f<4>;
	.reg .pred %p<2>;
	ld.param.f32 %f1, [x];
	ld.param.u64 %rd1, [out];
	setp.gt.f32 %p1, %f1, 0f4F000000;
	selp.u32 %r1, 1, 2, %p1;
	st.global.u32 [%rd1], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	above, below := 0, 0
	for seed := int64(0); seed < 16; seed++ {
		in := maker.Make(seed, 1<<16)
		if x := math.Float32frombits(binary.LittleEndian.Uint32(in.Launch.Params[0])); x > 1<<31 {
			above++
		} else {
			below++
		}
	}
	if above == 0 || below == 0 {
		t.Fatalf("of 16 seeds %d drew x above 2^31 and %d below, want both", above, below)
	}
}

// Floats in a buffer that the kernel compares (after abs) with a large
// immediate, as sin does before its slow path for |x| >= 2^31: some
// elements are beyond it.
func TestInputFloatBufferNearComparand(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .u64 %rd<8>;
	.reg .u32 %r<4>;
	.reg .f64 %fd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f64 %fd1, [%rd4];
	abs.f64 %fd2, %fd1;
	setp.ltu.f64 %p1, %fd2, 0d41E0000000000000;
	selp.u32 %r2, 0, 1, %p1;
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r2;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	big := 0
	for seed := int64(0); seed < 4; seed++ {
		in := maker.Make(seed, 1<<16)
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		out := binary.LittleEndian.Uint64(in.Launch.Params[1])
		n := in.Launch.Block.X
		b := in.Mem.Read(out, 4*n)
		for i := 0; i < n; i++ {
			big += int(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	if big == 0 {
		t.Fatal("no element of 4 seeds' buffers reached 2^31")
	}
}

// A callee given a pointer to its caller's local variable (a generic
// address) converts it with cvta.to.local and stores through it: the
// store reaches the caller's frame (CUDA's trig slow path writes its
// quadrant so).
func TestCalleeLocalPointerToCallerFrame(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.func store7(.param .b64 p)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<2>;
	ld.param.u64 %rd1, [p];
	cvta.to.local.u64 %rd2, %rd1;
	mov.u32 %r1, 7;
	st.local.u32 [%rd2+4], %r1;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.local .align 8 .b8 buf[8];
	.reg .u64 %rd<4>;
	.reg .u32 %r<2>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, buf;
	cvta.local.u64 %rd3, %rd2;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd3;
	call.uni store7, (param0);
	}
	ld.local.u32 %r1, [buf+4];
	st.global.u32 [%rd1], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	mem := sim.NewMemory()
	out := mem.Alloc(4)
	p := make([]byte, 8)
	binary.LittleEndian.PutUint64(p, out)
	l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{32, 1, 1}, Params: [][]byte{p}}
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint32(mem.Bytes(out)); got != 7 {
		t.Fatalf("the caller's variable holds %d, want 7", got)
	}
}

// libdevice's sin tests the exponent bits of a double (its high word,
// masked) against an integer: that is a comparison of the double with
// 2^31, and some elements are beyond it.
func TestInputDoubleHighWordComparand(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .u64 %rd<8>;
	.reg .u32 %r<8>;
	.reg .f64 %fd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f64 %fd1, [%rd4];
	add.f64 %fd2, %fd1, %fd1;
	mov.b64 {%r3, %r4}, %fd1;
	and.b32 %r5, %r4, 2145386496;
	setp.lt.u32 %p1, %r5, 1105199104;
	selp.u32 %r2, 0, 1, %p1;
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %r2;
	st.global.f64 [%rd4], %fd2;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	big := 0
	for seed := int64(0); seed < 4; seed++ {
		in := maker.Make(seed, 1<<16)
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		out := binary.LittleEndian.Uint64(in.Launch.Params[1])
		n := in.Launch.Block.X
		b := in.Mem.Read(out, 4*n)
		for i := 0; i < n; i++ {
			big += int(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	if big == 0 {
		t.Fatal("no element of 4 seeds' buffers had an exponent of 2^31 or more")
	}
}

// A kernel with warp-wide matrix instructions gets whole warps: a block
// of 89 threads would make every run trap.
func TestInputWholeWarpsForMatrixInstructions(t *testing.T) {
	const src = `
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 out)
{
	.reg .u64 %rd<8>;
	.reg .u32 %r<8>;
	.reg .b32 %q<4>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 15;
	shl.b32 %r2, %r2, 4;
	ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%q1}, [%r2];
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd2, %rd5;
	st.global.u32 [%rd6], %q1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	for seed := int64(0); seed < 16; seed++ {
		in := maker.Make(seed, 1<<16)
		if in.Launch.Block.X%32 != 0 {
			t.Fatalf("seed %d: a block of %d threads", seed, in.Launch.Block.X)
		}
	}
}

// A pointer chosen by selp between two parameters, or by the arms of a
// branch and then offset (a GEMM tile's A or B), makes both parameters
// pointers.
func TestInputEitherPointer(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 out)
{
	.reg .u64 %rd<12>;
	.reg .u32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	ld.param.u64 %rd9, [out];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	selp.b64 %rd3, %rd1, %rd2, %p1;
	ld.global.u32 %r2, [%rd3];
	@%p1 bra $L1;
	add.s64 %rd4, %rd2, 64;
	mov.u64 %rd5, %rd4;
	bra.uni $L2;
$L1:
	add.s64 %rd6, %rd1, 128;
	mov.u64 %rd5, %rd6;
$L2:
	mov.u64 %rd7, %rd5;
	mul.wide.u32 %rd8, %r1, 4;
	add.s64 %rd10, %rd7, %rd8;
	ld.global.u32 %r3, [%rd10];
	add.u32 %r2, %r2, %r3;
	st.global.u32 [%rd9], %r2;
	ret;
}
`
	runsOnSeeds(t, src, "k", 16)
}

// A kernel whose work no input changes (a loop of a fixed, huge trip
// count) runs into the step limit on every seed: the check stops after
// a few such seeds instead of running all of them (each costs two runs
// to the limit), and says it could not compare.
func TestDiffStopsOnStepLimitedKernel(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, 0;
$L:
	add.u32 %r1, %r1, 1;
	setp.lt.u32 %p1, %r1, 100000000;
	@%p1 bra $L;
	add.u32 %r2, %r1, 0;
	st.global.u32 [%rd1], %r2;
	ret;
}
`
	before := parseKernel(t, src, "k")
	after := parseKernel(t, strings.Replace(src, "add.u32 %r2, %r1, 0;", "mov.u32 %r2, %r1;", 1), "k")
	res, err := sim.Diff(before, after, sim.DiffOptions{Seeds: 4, ExtraSeeds: 16, MaxSteps: 20_000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sim.StatusCouldNotCompare || res.Runs != 4 {
		t.Fatalf("status %v after %d seeds, want could not compare after the 4 regular ones", res.Status, res.Runs)
	}
}

// UntilCovered: extra seeds run while part of the change has not
// executed and they keep executing more of it. Seed 0 gives the optional
// pointer a buffer, so the changed instruction on the missing-buffer path
// runs only on a later seed: without UntilCovered the check stops after
// the first seed with half of the change run.
func TestDiffUntilCovered(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 opt, .param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [opt];
	ld.param.u64 %rd2, [out];
	ld.global.u32 %r2, [%rd2];
	add.u32 %r3, %r2, 5;
	setp.eq.u64 %p1, %rd1, 0;
	@%p1 bra $missing;
	ld.global.u32 %r1, [%rd1];
	bra.uni $done;
$missing:
	add.u32 %r1, %r2, 1;
$done:
	add.u32 %r1, %r1, %r3;
	st.global.u32 [%rd2], %r1;
	ret;
}
`
	after := strings.Replace(strings.Replace(src, "add.u32 %r1, %r2, 1;", "add.u32 %r1, 1, %r2;", 1), "add.u32 %r3, %r2, 5;", "add.u32 %r3, 5, %r2;", 1)
	for _, until := range []bool{false, true} {
		res, err := sim.Diff(parseKernel(t, src, "k"), parseKernel(t, after, "k"), sim.DiffOptions{Seeds: 1, ExtraSeeds: 8, UntilCovered: until})
		if err != nil || res.Mismatch != nil {
			t.Fatalf("UntilCovered %v: %v %v", until, err, res.Mismatch)
		}
		run, total := res.Executed()
		if want := map[bool]int{false: total / 2, true: total}[until]; run != want || total == 0 {
			t.Errorf("UntilCovered %v: %d of %d changed instructions executed in %d runs, want %d", until, run, total, res.Runs, want)
		}
	}
}

// Launch.CTAs runs only the first blocks of the grid, which still reads
// its whole size in %nctaid: with a grid of 4 blocks and CTAs 2, blocks 0
// and 1 write (their index, 4) and the words of blocks 2 and 3 keep
// their bytes.
func TestLaunchCTAs(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %nctaid.x;
	mul.wide.u32 %rd2, %r1, 8;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r1, %r2};
	ret;
}
`
	f := parseKernel(t, src, "k")
	mem := sim.NewMemory()
	out := mem.Alloc(32)
	for i := range mem.Bytes(out) {
		mem.Bytes(out)[i] = 0xee
	}
	p := binary.LittleEndian.AppendUint64(nil, out)
	l := &sim.Launch{Grid: sim.Dim3{4, 1, 1}, Block: sim.Dim3{1, 1, 1}, Params: [][]byte{p}, CTAs: 2}
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		t.Fatal(err)
	}
	b := mem.Bytes(out)
	want := []uint32{0, 4, 1, 4, 0xeeeeeeee, 0xeeeeeeee, 0xeeeeeeee, 0xeeeeeeee}
	for i, w := range want {
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != w {
			t.Fatalf("word %d: %#x, want %#x (words %v)", i, got, w, want)
		}
	}
}

// A kernel that strides over a fixed amount of work by the grid's size
// runs into the step limit on every input's grid and on one warp; as the
// first block of a big grid it does one stride's share, and the versions
// are compared on that.
func TestDiffGridStrideOneBlock(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .u64 %rd<6>;
	.reg .u32 %r<8>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %nctaid.x;
	mov.u32 %r3, %tid.x;
	mov.u32 %r4, %ntid.x;
$L:
	mad.lo.u32 %r5, %r1, %r4, %r3;
	and.b32 %r6, %r5, 1023;
	mul.wide.u32 %rd2, %r6, 4;
	add.s64 %rd3, %rd1, %rd2;
	add.u32 %r7, %r5, 0;
	st.global.u32 [%rd3], %r7;
	add.u32 %r1, %r1, %r2;
	setp.lt.u32 %p1, %r1, 1048576;
	@%p1 bra $L;
	ret;
}
`
	before := parseKernel(t, src, "k")
	after := parseKernel(t, strings.Replace(src, "add.u32 %r7, %r5, 0;", "mov.u32 %r7, %r5;", 1), "k")
	res, err := sim.Diff(before, after, sim.DiffOptions{Seeds: 4, MaxSteps: 20_000})
	if err != nil || res.Mismatch != nil {
		t.Fatal(err, res.Mismatch)
	}
	if res.Status != sim.StatusMatched || res.Matches != 4 || res.StepLimited != 0 {
		t.Fatalf("status %v, %d of %d seeds compared, %d at the step limit; want all compared", res.Status, res.Matches, res.Runs, res.StepLimited)
	}
	// a mutant that stores another value is caught in that block
	bad := parseKernel(t, strings.Replace(src, "add.u32 %r7, %r5, 0;", "add.u32 %r7, %r5, 1;", 1), "k")
	res, err = sim.Diff(before, bad, sim.DiffOptions{Seeds: 4, MaxSteps: 20_000})
	if err != nil || res.Status != sim.StatusMismatch {
		t.Fatalf("mutant: status %v, err %v; want a mismatch", res.Status, err)
	}
}

// A value compared with a multiple of another input (bytes against
// n*8, as a scratch allocator checks a size before it carves n
// elements) is a capacity: on most seeds it holds thousands of bytes, so
// the allocation succeeds and the code behind it runs.
func TestCapacityInput(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u32 n, .param .u32 bytes, .param .u64 out)
{
	.reg .u64 %rd<6>;
	.reg .u32 %r<4>;
	.reg .pred %p<2>;
	ld.param.u32 %r1, [n];
	ld.param.u32 %r2, [bytes];
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 8;
	cvt.u64.u32 %rd3, %r2;
	setp.gt.u64 %p1, %rd2, %rd3;
	@%p1 bra $none;
	st.global.u32 [%rd1], %r1;
$none:
	ret;
}
`
	f := parseKernel(t, src, "k")
	big := 0
	for seed := int64(0); seed < 16; seed++ {
		in := sim.MakeInput(f, seed, 1<<16)
		if binary.LittleEndian.Uint32(in.Launch.Params[1]) >= 4096 {
			big++
		}
	}
	if big < 8 {
		t.Fatalf("the capacity holds 4096 bytes or more on %d of 16 seeds, want most", big)
	}
	// a value compared with a multiple of another input as a float, or
	// added to a pointer as an index, is no capacity (Monte Carlo
	// kernels compare floats so; an index of thousands runs off buffers)
	for _, v := range []struct{ name, from, to string }{
		{"float comparison", "setp.gt.u64 %p1, %rd2, %rd3;", "cvt.rn.f32.u64 %f1, %rd2;\n\tcvt.rn.f32.u64 %f2, %rd3;\n\tsetp.gt.f32 %p1, %f1, %f2;"},
		{"index", "st.global.u32 [%rd1], %r1;", "mul.wide.u32 %rd5, %r2, 4;\n\tadd.s64 %rd4, %rd1, %rd5;\n\tst.global.u32 [%rd4], %r1;"},
	} {
		g := parseKernel(t, strings.Replace(strings.Replace(src, v.from, v.to, 1), ".reg .pred %p<2>;", ".reg .pred %p<2>;\n\t.reg .f32 %f<4>;", 1), "k")
		for seed := int64(0); seed < 16; seed++ {
			in := sim.MakeInput(g, seed, 1<<16)
			if b := binary.LittleEndian.Uint32(in.Launch.Params[1]); b >= 4096 && b < 1<<20 && b&(b-1) == 0 {
				t.Errorf("%s, seed %d: bytes %d, a capacity's value", v.name, seed, b)
			}
		}
	}
}

// A word of a buffer loaded as an integer and moved into a float
// register (mov.b32 %f, %r after a vector load in inline assembly, as
// OptiX reads a motion transform's times) is a float: the input holds
// ordinary floats there, not small integers (denormals as floats).
func TestInputFloatBitsMovedFromInteger(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	.reg .f32 %f<4>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.global.v2.u32 {%r1, %r2}, [%rd1+8];
	mov.b32 %f1, %r2;
	add.f32 %f2, %f1, 0f3F800000;
	st.global.f32 [%rd2], %f2;
	st.global.u32 [%rd2+4], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	for seed := int64(0); seed < 16; seed++ {
		in := sim.MakeInput(f, seed, 1<<16)
		p := binary.LittleEndian.Uint64(in.Launch.Params[0])
		w := in.Mem.Read(p+12, 4)
		if w == nil {
			t.Fatalf("seed %d: the input buffer does not hold [in+12]", seed)
		}
		v := math.Float32frombits(binary.LittleEndian.Uint32(w))
		if v != 0 && !(math.Abs(float64(v)) > 1e-6 && math.Abs(float64(v)) < 1e6) {
			t.Errorf("seed %d: [in+12] holds %v (bits %#x), want an ordinary float", seed, v, binary.LittleEndian.Uint32(w))
		}
	}
}

// A kernel that reads the block's shape along y or z gets blocks of 2
// along y on a third of the seeds (and along z too on half of those), so
// the code for threads off the x row runs; one that reads only x keeps
// one-dimensional blocks.
func TestInputBlockYZ(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %TID;
	add.u32 %r3, %r1, %r2;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
`
	for _, c := range []struct {
		tid  string
		y, z int
	}{{"tid.y", 5, 2}, {"ctaid.x", 0, 0}} {
		f := parseKernel(t, strings.Replace(src, "%TID", "%"+c.tid, 1), "k")
		y, z := 0, 0
		for seed := int64(0); seed < 16; seed++ {
			in := sim.MakeInput(f, seed, 1<<16)
			if in.Launch.Block.Y == 2 {
				y++
			}
			if in.Launch.Block.Z == 2 {
				z++
			}
			if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
				t.Fatalf("%s seed %d: %v", c.tid, seed, err)
			}
		}
		if y != c.y || z != c.z {
			t.Errorf("reading %%%s: %d of 16 seeds have blocks of 2 along y and %d along z, want %d and %d", c.tid, y, z, c.y, c.z)
		}
	}
}

// A flag byte inside a word the kernel also reads as a float (an OptiX
// record whose bool shares a 4-byte slot with float fields' vector
// loads): the byte is compared with zero, so it is zero on some seeds and
// not on others. Drawn as a float near 0 (-1.0, 0, 1.0), its low byte
// would be zero on every seed.
func TestInputFlagByteInFloatWord(t *testing.T) {
	const src = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .u64 %rd<8>;
	.reg .u32 %r<4>;
	.reg .u16 %rs<2>;
	.reg .f32 %f<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.global.v2.f32 {%f1, %f2}, [%rd1+8];
	ld.global.u8 %rs1, [%rd1+12];
	setp.eq.s16 %p1, %rs1, 0;
	selp.u32 %r1, 1, 2, %p1;
	add.f32 %f3, %f1, %f2;
	st.global.f32 [%rd2+4], %f3;
	st.global.u32 [%rd2], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	maker := sim.NewInputMaker(f)
	seen := map[uint32]bool{}
	for seed := int64(0); seed < 16; seed++ {
		in := maker.Make(seed, 1<<16)
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		out := binary.LittleEndian.Uint64(in.Launch.Params[1])
		seen[binary.LittleEndian.Uint32(in.Mem.Read(out, 4))] = true
	}
	if !seen[1] || !seen[2] {
		t.Fatalf("the flag byte took one side only over 16 seeds: %v", seen)
	}
}
