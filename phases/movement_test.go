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
