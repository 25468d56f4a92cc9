package phases

import (
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// TestGeneralOptimizeRefreshedDefUse: the chains the bundles bring up to
// date from their logged edits (generalopt_du.go) are, every time, the
// chains a new computation gives (checkDefUse panics otherwise), on
// kernels where the bundles iterate, with every rule group and the
// injected shapes; and the kernels do make refreshes, or the test says
// nothing.
func TestGeneralOptimizeRefreshedDefUse(t *testing.T) {
	duCheck = true
	defer func() { duCheck = false }()
	c, _ := dirtyAndFullConfigs(t)
	c.Verify = true
	before := duRefreshes.Load()
	seeds := int64(10)
	if testing.Short() {
		seeds = 4
	}
	for seed := int64(1); seed <= seeds; seed++ {
		cfg := gen.Config{Seed: 8800 + seed, Size: 2000 + int(seed%3)*2500, Pool: 64,
			Fold: seed%2 == 0, Frames: seed%3 == 0}
		if seed%4 == 1 {
			cfg.Inject = gen.AllKinds
		}
		m := gen.Kernel(cfg)
		for _, f := range m.Funcs {
			if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
				t.Fatalf("seed %d: %v", cfg.Seed, err)
			}
		}
	}
	if duRefreshes.Load() == before {
		t.Fatal("no def-use chains were refreshed: the kernels test nothing")
	}
}
