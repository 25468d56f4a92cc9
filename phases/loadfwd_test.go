package phases

import (
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// TestLoadStoreForwardingGenerated: the phase alone and the whole
// pipeline on generated kernels with frames, pointer pairs that alias or
// do not, store-then-load pairs on global memory and repeated input
// loads (gen.Config.Frames).
func TestLoadStoreForwardingGenerated(t *testing.T) {
	alone, _ := checkGeneratedWith(t, "LoadStoreForwarding", "loads forwarded from stores", func(n int64) gen.Config {
		return gen.Config{Seed: 9500 + n, Size: 100 + int(n%5)*60, Frames: true}
	})
	t.Logf("forwarded from stores alone: %d", alone)
}
