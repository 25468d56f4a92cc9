package phases

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// TestDoKillMovementGenerated: the phase alone and the whole pipeline on
// generated kernels, with frames (whose promoted values and parameter
// loads sit at the top) and without.
func TestDoKillMovementGenerated(t *testing.T) {
	checkGeneratedWith(t, "DoKillMovement", "instructions sunk", func(n int64) gen.Config {
		return gen.Config{Seed: 9700 + n, Size: 100 + int(n%5)*60, Frames: n%2 == 0}
	})
}

// TestDoKillMovementTextureCoordinates: a value read as a texture
// coordinate ("[tex, {%f1, %f1}]", a list nested in an address) is a use.
// The phase once missed it, took a later add for the first use and moved
// the mov below the fetch (found by --verify on ZLUDA's
// rt_texture_sampler).
func TestDoKillMovementTextureCoordinates(t *testing.T) {
	src := `.visible .global .texref img;
.visible .entry k(.param .u64 out)
{
	.reg .f32 %f<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.f32 %f1, 0f3F000000;
	tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [img, {%f1, %f1}];
	add.f32 %f6, %f1, %f2;
	st.global.f32 [%rd2], %f6;
	ret;
}
`
	_, _, body, _ := runPass(t, src, "k", "DoKillMovement")
	mov, tex := strings.Index(body, "mov.f32 %f1"), strings.Index(body, "tex.2d")
	if mov < 0 || tex < 0 || mov > tex {
		t.Errorf("the mov of a texture coordinate moved below the fetch:\n%s", body)
	}
}

// TestDoKillMovementUpGenerated: the upward kill sibling alone and the
// whole pipeline on generated kernels.
func TestDoKillMovementUpGenerated(t *testing.T) {
	checkGeneratedWith(t, "DoKillMovementUp", "instructions raised", func(n int64) gen.Config {
		return gen.Config{Seed: 9800 + n, Size: 100 + int(n%5)*60, Frames: n%2 == 0}
	})
}

// TestDoTexMovementGenerated: the texture movement (the generated
// kernels read their input with ld.global.nc) alone and in the pipeline.
func TestDoTexMovementGenerated(t *testing.T) {
	checkGeneratedWith(t, "DoTexMovement", "fetches spaced", func(n int64) gen.Config {
		return gen.Config{Seed: 9900 + n, Size: 100 + int(n%5)*60, Frames: n%3 == 0}
	})
}

// TestDoTexMovementRawGenerated: the texture sibling without clean-up.
func TestDoTexMovementRawGenerated(t *testing.T) {
	checkGeneratedWith(t, "DoTexMovementRaw", "fetches spaced", func(n int64) gen.Config {
		return gen.Config{Seed: 10000 + n, Size: 100 + int(n%5)*60, Frames: n%3 == 1}
	})
}

// TestMovementGates: the engine's gates as the seed gives them: -O3 only
// (the slots' MinOpt), the family name HoistInvariants disables all four
// with LICM, and the per-function eligibility knob MovementMaxInstrs.
func TestMovementGates(t *testing.T) {
	movers := []string{"DoKillMovement", "DoKillMovementUp", "DoTexMovement", "DoTexMovementRaw"}
	for _, n := range mustConfig(t, 2, nil, nil).Planned() {
		if slices.Contains(movers, n) {
			t.Errorf("%s runs at -O2", n)
		}
	}
	for _, n := range mustConfig(t, 3, []string{"HoistInvariants"}, nil).Planned() {
		if slices.Contains(movers, n) || n == "OriHoistInvariantsLate" {
			t.Errorf("%s runs with HoistInvariants disabled", n)
		}
	}
	src, err := os.ReadFile("testdata/golden/DoKillMovement/branch.ptx")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		knob string
		want bool
	}{{"MovementMaxInstrs=unlimited", true}, {"MovementMaxInstrs=10", false}, {"MovementBudget=0", false}} {
		_, _, _, stats := runPass(t, string(src), "", "DoKillMovement", tc.knob)
		if got := counter(stats, "instructions sunk") > 0; got != tc.want {
			t.Errorf("%s: moved %v, want %v", tc.knob, got, tc.want)
		}
	}
}

// TestDoTexMovementFunctionMaximum: a fetch may raise the points it
// crosses up to the function's maximum live, which its own block's
// trace does not show when another block holds the maximum. The fetch
// in block B crosses a point at B's own maximum (a 64-bit product live
// with its operand): with a block A above holding more values at once,
// the sweep computes the function's maximum (once) and lets the fetch
// past it; without A, the fetch stops below it. (Each sweep computes
// the maximum at most once, as it stands at the sweep's start.)
func TestDoTexMovementFunctionMaximum(t *testing.T) {
	t.Parallel()
	const blockA = `	ld.global.u32 %r1, [%rd2];
	ld.global.u32 %r2, [%rd2+4];
	ld.global.u32 %r3, [%rd2+8];
	ld.global.u32 %r4, [%rd2+12];
	ld.global.u32 %r5, [%rd2+16];
	ld.global.u32 %r6, [%rd2+20];
	ld.global.u32 %r7, [%rd2+24];
	ld.global.u32 %r8, [%rd2+28];
	ld.global.u32 %r9, [%rd2+32];
	ld.global.u32 %r10, [%rd2+36];
	add.u32 %r11, %r1, %r2;
	add.u32 %r11, %r11, %r3;
	add.u32 %r11, %r11, %r4;
	add.u32 %r11, %r11, %r5;
	add.u32 %r11, %r11, %r6;
	add.u32 %r11, %r11, %r7;
	add.u32 %r11, %r11, %r8;
	add.u32 %r11, %r11, %r9;
	add.u32 %r11, %r11, %r10;
	st.global.u32 [%rd4+12], %r11;
	bra.uni B;
`
	kernel := func(withA bool) string {
		a := ""
		if withA {
			a = blockA
		}
		return `.visible .entry k(.param .u64 out, .param .u64 in)
{
	.reg .b32 %r<40>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	cvta.to.global.u64 %rd2, %rd1;
	ld.param.u64 %rd3, [out];
	cvta.to.global.u64 %rd4, %rd3;
` + a + `B:
	ld.global.u32 %r20, [%rd2+64];
	mul.wide.u32 %rd5, %r20, 4;
	cvt.u32.u64 %r21, %rd5;
	add.u32 %r22, %r21, %r20;
	ld.global.nc.u32 %r25, [%rd2+128];
	add.u32 %r26, %r25, %r22;
	st.global.u32 [%rd4], %r26;
	ld.global.u32 %r27, [%rd2+8];
	st.global.u32 [%rd4+4], %r27;
	ret;
}
`
	}
	for _, withA := range []bool{true, false} {
		h := new(testHooks)
		_, _, body, stats := runPassHooks(t, h, kernel(withA), "k", "DoTexMovement")
		fetch, cvt := strings.Index(body, "ld.global.nc"), strings.Index(body, "cvt.u32.u64")
		if fetch < 0 || cvt < 0 {
			t.Fatalf("with A %v: fetch or cvt gone:\n%s", withA, body)
		}
		if got := counter(stats, "fetches spaced"); got != 1 {
			t.Errorf("with A %v: %d fetches spaced, want 1:\n%s", withA, got, body)
		}
		if h.texLimitTraces.Load() == 0 {
			t.Errorf("with A %v: the function's maximum never computed", withA)
		}
		if above := fetch < cvt; above != withA {
			t.Errorf("with A %v: fetch above the cvt %v, want %v:\n%s", withA, above, withA, body)
		}
	}
}
