package phases

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// TestDoSinkMovementGenerated: the phase alone and the whole pipeline on
// generated kernels, with frames (whose promoted values and parameter
// loads sit at the top) and without.
func TestDoSinkMovementGenerated(t *testing.T) {
	checkGeneratedWith(t, "DoSinkMovement", "instructions sunk", func(n int64) gen.Config {
		return gen.Config{Seed: 9700 + n, Size: 100 + int(n%5)*60, Frames: n%2 == 0}
	})
}

// TestDoSinkMovementTextureCoordinates: a value read as a texture
// coordinate ("[tex, {%f1, %f1}]", a list nested in an address) is a use.
// The phase once missed it, took a later add for the first use and moved
// the mov below the fetch (found by --verify on ZLUDA's
// rt_texture_sampler).
func TestDoSinkMovementTextureCoordinates(t *testing.T) {
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
	_, _, body, _ := runPass(t, src, "k", "DoSinkMovement")
	mov, tex := strings.Index(body, "mov.f32 %f1"), strings.Index(body, "tex.2d")
	if mov < 0 || tex < 0 || mov > tex {
		t.Errorf("the mov of a texture coordinate moved below the fetch:\n%s", body)
	}
}
