package sim_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim"
)

// warpSharedKernels: one computation written twice. In "apart" the
// parameter a (read by the lanes below 16) and b (written for the other
// lanes) are in two registers; in "merged" they share %r1, as coalescing
// by the scalar rule leaves them (no path reads a after b is written).
// The lanes of the fall-through side (tid >= 16) run first.
const warpSharedKernels = `
.version 8.0
.target sm_80
.address_size 64
.visible .entry apart(.param .u64 out, .param .u32 a, .param .u32 b)
{
	.reg .b32 %r<8>;
	.reg .pred %p<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %rd1, %rd2;
	setp.lt.u32 %p1, %r3, 16;
	@%p1 bra $L_low;
	ld.param.u32 %r2, [b];
	add.u32 %r4, %r2, 7;
	st.global.u32 [%rd3], %r4;
	bra.uni $L_join;
$L_low:
	add.u32 %r5, %r1, 3;
	st.global.u32 [%rd3], %r5;
$L_join:
	ret;
}
.visible .entry merged(.param .u64 out, .param .u32 a, .param .u32 b)
{
	.reg .b32 %r<8>;
	.reg .pred %p<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %rd1, %rd2;
	setp.lt.u32 %p1, %r3, 16;
	@%p1 bra $L_low;
	ld.param.u32 %r1, [b];
	add.u32 %r4, %r1, 7;
	st.global.u32 [%rd3], %r4;
	bra.uni $L_join;
$L_low:
	add.u32 %r5, %r1, 3;
	st.global.u32 [%rd3], %r5;
$L_join:
	ret;
}
`

// runWarpShared runs kernel f on one warp with a = 100, b = 200 and the
// registers named in shared held per warp (nil: the per-lane default),
// and returns what each lane stored.
func runWarpShared(t *testing.T, f *ir.Func, shared []string) ([32]uint32, error) {
	t.Helper()
	var marks []bool
	if shared != nil {
		marks = make([]bool, f.NumRegs())
		for _, name := range shared {
			found := false
			for r := range f.NumRegs() {
				if f.Str(f.RegName[r]) == name {
					marks[r], found = true, true
				}
			}
			if !found {
				t.Fatalf("%s has no register %s", f.Name, name)
			}
		}
	}
	mem := sim.NewMemory()
	out := mem.Alloc(32 * 4)
	u64 := binary.LittleEndian.AppendUint64(nil, out)
	l := &sim.Launch{Grid: sim.Dim3{X: 1, Y: 1, Z: 1}, Block: sim.Dim3{X: 32, Y: 1, Z: 1},
		Params:     [][]byte{u64, binary.LittleEndian.AppendUint32(nil, 100), binary.LittleEndian.AppendUint32(nil, 200)},
		WarpShared: marks}
	var got [32]uint32
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		return got, err
	}
	b := mem.Bytes(out)
	for i := range got {
		got[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return got, nil
}

// The warp-shared mode shows the divergence hazard of scalar coalescing:
// with per-lane registers "merged" computes what "apart" does; with %r1
// held once per warp, the upper lanes' write of b reaches the lower
// lanes, which then read b instead of a. "apart" is right in both modes
// (its %r1 is written once, before the branch).
func TestWarpSharedDivergence(t *testing.T) {
	apart := parseKernel(t, warpSharedKernels, "apart")
	merged := parseKernel(t, warpSharedKernels, "merged")
	var want [32]uint32
	for l := range want {
		want[l] = 200 + 7
		if l < 16 {
			want[l] = 100 + 3
		}
	}
	check := func(name string, f *ir.Func, shared []string, want [32]uint32) {
		t.Helper()
		got, err := runWarpShared(t, f, shared)
		if err != nil {
			t.Fatalf("%s %v: %v", name, shared, err)
		}
		if got != want {
			t.Errorf("%s with %v warp-shared: lanes stored %v, want %v", name, shared, got, want)
		}
	}
	check("apart", apart, nil, want)
	check("merged", merged, nil, want)
	check("apart", apart, []string{"%r1", "%r2"}, want)
	hazard := want
	for l := range 16 {
		hazard[l] = 200 + 3
	}
	check("merged", merged, []string{"%r1"}, hazard)
	// An empty mark list is the mode with no shared register: per lane.
	check("merged", merged, []string{}, want)

	// sim.Diff in the mode: each version with its own registers.
	shareR1R2 := func(f *ir.Func) []bool {
		m := make([]bool, f.NumRegs())
		for r := range m {
			n := f.Str(f.RegName[r])
			m[r] = n == "%r1" || n == "%r2"
		}
		return m
	}
	res, err := sim.Diff(apart, merged, sim.DiffOptions{Seeds: 2})
	if err != nil || res.Mismatch != nil {
		t.Fatalf("per lane: %v %v", err, res.Mismatch)
	}
	res, err = sim.Diff(apart, merged, sim.DiffOptions{Seeds: 2, WarpShared: shareR1R2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mismatch == nil {
		t.Fatalf("warp-shared: no mismatch (%v)", res.Status)
	}
}

// A register the active lanes write with different values cannot be
// warp-wide: the run traps, naming it. Kernels with calls are refused.
func TestWarpSharedChecks(t *testing.T) {
	merged := parseKernel(t, warpSharedKernels, "merged")
	_, err := runWarpShared(t, merged, []string{"%r3"}) // %tid.x
	var tr *sim.Trap
	if !errors.As(err, &tr) || !strings.Contains(tr.Msg, "warp-shared register %r3 written with different values") {
		t.Fatalf("got %v, want a trap on %%r3", err)
	}
	// Written under a divergent mask, a uniform value is fine: %r4 and
	// %r5 are written by one side's lanes only.
	if _, err := runWarpShared(t, merged, []string{"%r4", "%r5", "%rd1"}); err != nil {
		t.Fatal(err)
	}
	const withCall = `
.version 8.0
.target sm_80
.address_size 64
.func (.reg .u32 r) one ();
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	call (%r1), one, ();
	st.global.u32 [%rd1], %r1;
	ret;
}
.func (.reg .u32 r) one ()
{
	mov.u32 r, 1;
	ret;
}
`
	f := parseKernel(t, withCall, "k")
	mem := sim.NewMemory()
	out := mem.Alloc(4)
	l := &sim.Launch{Grid: sim.Dim3{X: 1, Y: 1, Z: 1}, Block: sim.Dim3{X: 32, Y: 1, Z: 1},
		Params: [][]byte{binary.LittleEndian.AppendUint64(nil, out)}, WarpShared: make([]bool, f.NumRegs())}
	var un *sim.Unsupported
	if _, err := sim.RunFunc(f, l, mem); !errors.As(err, &un) {
		t.Fatalf("a kernel with a call: got %v, want Unsupported", err)
	}
	l.WarpShared = make([]bool, f.NumRegs()+1)
	if _, err := sim.RunFunc(f, l, mem); err == nil {
		t.Fatal("more marks than registers accepted")
	}
}
