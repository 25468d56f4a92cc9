package phases

import (
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// TestInferAddressSpacesGenerated: the phase alone and the whole pipeline
// on generated kernels with frames and generic pointers to global memory
// (gen.Config.Frames).
func TestInferAddressSpacesGenerated(t *testing.T) {
	checkGeneratedWith(t, "InferAddressSpaces", "accesses given a state space", func(n int64) gen.Config {
		return gen.Config{Seed: 9300 + n, Size: 100 + int(n%5)*60, Frames: true}
	})
}

// TestInferAddressSpacesNoRootNoChains: a function without a cvta to the
// generic space (the scaling kernels) has no pointer to follow; the phase
// says so without computing the def-use chains (on a large function most
// of its time), and a kernel with frames (cvta.local to generic) has a
// root, so the early exit leaves TestInferAddressSpacesGenerated's kernels
// to the full walk.
func TestInferAddressSpacesNoRootNoChains(t *testing.T) {
	f, c := scalingKernel(t, 2000)
	if hasPointerRoot(f) {
		t.Fatal("the scaling kernel has a cvta to the generic space: the test wants one without")
	}
	ran := false
	if err := c.Override("InferAddressSpaces", func(p *Pass) bool {
		ran = true
		before := p.A.Valid()&ADefUse != 0
		changed := inferAddressSpaces(p)
		if changed {
			t.Error("the phase changed a function without a pointer root")
		}
		if !before && p.A.Valid()&ADefUse != 0 {
			t.Error("the phase computed the def-use chains of a function without a pointer root")
		}
		return changed
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), c, nil, f, nil); err != nil {
		t.Fatal(err)
	}
	if !ran {
		t.Fatal("InferAddressSpaces did not run")
	}
	g := gen.Func(gen.Kernel(gen.Config{Seed: 9300, Size: 200, Frames: true}))
	if !hasPointerRoot(g) {
		t.Error("a kernel with frames has no cvta to the generic space")
	}
}
