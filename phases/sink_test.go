package phases

import (
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
