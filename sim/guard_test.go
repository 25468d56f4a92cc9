package sim_test

import (
	"encoding/binary"
	"testing"

	"github.com/ptxopt/ptxopt/sim"
)

// guardKernel asserts n == 12 (a trap), and, for t, the cascade
// `if (t != 0 && t > 2 && t != 3) fail()`, where fail calls
// __assertfail: the work (the store of t) runs only past both.
const guardKernel = `
.version 7.0
.target sm_70
.address_size 64
.extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);
.func fail()
{
	.reg .b64 %rd<2>;
	mov.u64 %rd1, 0;
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd1;
	.param .b64 p1;
	st.param.b64 [p1], %rd1;
	.param .b32 p2;
	st.param.b32 [p2], 0;
	.param .b64 p3;
	st.param.b64 [p3], %rd1;
	.param .b64 p4;
	st.param.b64 [p4], 1;
	call.uni __assertfail, (p0, p1, p2, p3, p4);
	}
	ret;
}
.visible .entry k(.param .u64 out, .param .u32 n, .param .u32 t)
{
	.reg .pred %p<5>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	ld.param.u32 %r2, [t];
	setp.ne.s32 %p1, %r1, 12;
	@%p1 bra FAIL1;
	setp.eq.s32 %p2, %r2, 0;
	@%p2 bra OK;
	setp.gt.s32 %p3, %r2, 2;
	@!%p3 bra OK;
	setp.ne.s32 %p4, %r2, 3;
	@%p4 bra FAIL2;
OK:
	st.global.u32 [%rd1], %r2;
	ret;
FAIL1:
	trap;
FAIL2:
	call.uni fail;
	ret;
}
`

// The inputs an assertion tests are drawn on its passing side on three
// seeds of four: n is 12, and t is anything the cascade lets through (0,
// at most 2, or 3), not only the 3 the innermost test names. Without the
// guards n is 12 on few seeds (it is drawn near 12, or small).
func TestInputGuardsPassAssertions(t *testing.T) {
	f := parseKernel(t, guardKernel, "k")
	maker := sim.NewInputMaker(f)
	seen := map[int32]bool{}
	for seed := int64(0); seed < 64; seed++ {
		in := maker.Make(seed, 1<<20)
		in.Launch.MaxSteps = 100_000
		n := binary.LittleEndian.Uint32(in.Launch.Params[1])
		tv := int32(binary.LittleEndian.Uint32(in.Launch.Params[2]))
		_, err := sim.RunFunc(f, &in.Launch, in.Mem)
		passes := n == 12 && (tv == 0 || tv <= 2 || tv == 3)
		if (err == nil) != passes {
			t.Fatalf("seed %d: n=%d t=%d: run error %v, want a trap exactly when an assertion fails", seed, n, tv, err)
		}
		if seed%4 == 0 {
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: n=%d t=%d: %v (the guarded inputs should pass the assertions)", seed, n, tv, err)
		}
		seen[tv] = true
	}
	if len(seen) < 3 {
		t.Errorf("t took the values %v on the guarded seeds: the premises of the innermost test (t != 0, t > 2) should let other values than 3 through", seen)
	}
}

// globalsKernel reads state a runtime sets before the launch from .global
// variables without an initializer (OptiX's per-ray payload and maximum
// depth): out = depth < max_depth ? depth + 100 : 7.
const globalsKernel = `
.version 7.0
.target sm_70
.address_size 64
.global .align 4 .u32 max_depth;
.global .align 4 .b8 prd[8];
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	ld.global.u32 %r1, [prd+4];
	ld.global.u32 %r2, [max_depth];
	mov.u32 %r3, 7;
	setp.ge.s32 %p1, %r1, %r2;
	@%p1 bra DONE;
	add.s32 %r3, %r1, 100;
DONE:
	st.global.u32 [%rd1], %r3;
	ret;
}
`

// The .global variables without an initializer are inputs: the launch
// patches them (the same bytes for both versions of a kernel), so the
// code behind depth < max_depth runs; with them left zero it never does.
func TestInputUninitializedGlobals(t *testing.T) {
	f := parseKernel(t, globalsKernel, "k")
	maker := sim.NewInputMaker(f)
	deeper := 0
	for seed := int64(0); seed < 16; seed++ {
		in := maker.Make(seed, 1<<20)
		in.Launch.MaxSteps = 100_000
		var depth, maxDepth int32
		for _, g := range in.Launch.Global {
			switch f.Str(f.Mod.Syms[g.Sym].Name) {
			case "prd":
				if g.Off == 4 && len(g.Data) == 4 {
					depth = int32(binary.LittleEndian.Uint32(g.Data))
				}
			case "max_depth":
				maxDepth = int32(binary.LittleEndian.Uint32(g.Data))
			}
		}
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want := uint32(7)
		if depth < maxDepth {
			want = uint32(depth + 100)
			deeper++
		}
		out := binary.LittleEndian.Uint64(in.Launch.Params[0])
		if got := binary.LittleEndian.Uint32(in.Mem.Read(out, 4)); got != want {
			t.Fatalf("seed %d: depth %d, max_depth %d: out %d, want %d", seed, depth, maxDepth, got, want)
		}
	}
	if deeper == 0 {
		t.Errorf("no seed gave depth < max_depth: the .global variables without an initializer are not inputs")
	}
}

// sliceKernel walks a slice the way Rust's iterators do: the loop runs
// while len*8 bytes remain (len*8 == 0: an empty slice), summing the
// elements. len is a 64-bit value compared with zero only after a shift,
// a count of elements, not an optional pointer: it is drawn non-zero on
// some seeds, so the loop body runs. (The slice is read through the
// non-coherent cache, so out never aliases it.)
const sliceKernel = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 s)
{
	.reg .pred %p<2>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [s];
	ld.global.nc.u64 %rd3, [%rd2];
	ld.global.nc.u64 %rd4, [%rd2+8];
	shl.b64 %rd5, %rd4, 3;
	mov.u64 %rd6, 0;
	setp.eq.s64 %p1, %rd5, 0;
	@%p1 bra DONE;
LOOP:
	ld.global.u64 %rd7, [%rd3];
	add.s64 %rd6, %rd6, %rd7;
	add.s64 %rd3, %rd3, 8;
	add.s64 %rd5, %rd5, -8;
	setp.ne.s64 %p1, %rd5, 0;
	@%p1 bra LOOP;
DONE:
	st.global.u64 [%rd1], %rd5;
	st.global.u64 [%rd1+8], %rd4;
	ret;
}
`

// A 64-bit field whose scaled value (a size in bytes) is compared with
// zero is a small count, not an optional pointer left null: the loop over
// the slice runs on some seeds and ends on every one (len below 9). As an
// optional pointer it would be 0 on every seed (and a buffer's address,
// a loop of 2^40 iterations, on the variants that flip it).
func TestInputScaledZeroIsCount(t *testing.T) {
	f := parseKernel(t, sliceKernel, "k")
	maker := sim.NewInputMaker(f)
	if maker.NullChoices() != 0 {
		t.Errorf("%d null choices, want none (the count is no optional pointer)", maker.NullChoices())
	}
	ran := 0
	for seed := int64(0); seed < 16; seed++ {
		in := maker.Make(seed, 1<<20)
		in.Launch.MaxSteps = 1_000_000
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		out := binary.LittleEndian.Uint64(in.Launch.Params[0])
		n := binary.LittleEndian.Uint64(in.Mem.Read(out+8, 8))
		if n > 8 {
			t.Fatalf("seed %d: len %d, want a few elements", seed, n)
		}
		if n > 0 {
			ran++
		}
	}
	if ran == 0 {
		t.Errorf("len was 0 on every seed: the loop over the slice never ran")
	}
}
