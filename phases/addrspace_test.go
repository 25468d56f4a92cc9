package phases

import (
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
