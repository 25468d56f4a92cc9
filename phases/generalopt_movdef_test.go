package phases

import (
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// TestGeneralOptimizeMovDefFilter: every time the global walk's constant
// filter (generalopt_movdef.go) answers no for a register, the def-use
// rows say the same (checkNotMovDef panics otherwise), on kernels where
// the bundles iterate and refresh their chains (the filter follows the
// refreshes and the edits between them), with the refreshed chains
// checked as well; and the filter does answer, after refreshes, or the
// test says nothing.
func TestGeneralOptimizeMovDefFilter(t *testing.T) {
	movDefCheck, duCheck = true, true
	defer func() { movDefCheck, duCheck = false, false }()
	c, _ := dirtyAndFullConfigs(t)
	c.Verify = true
	no, refreshes := movDefNo.Load(), movDefRefreshes.Load()
	seeds := int64(10)
	if testing.Short() {
		seeds = 4
	}
	for seed := int64(1); seed <= seeds; seed++ {
		cfg := iteratingKernel(8800, seed)
		m := gen.Kernel(cfg)
		for _, f := range m.Funcs {
			if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
				t.Fatalf("seed %d: %v", cfg.Seed, err)
			}
		}
	}
	if movDefNo.Load() == no {
		t.Fatal("the filter never answered no: the kernels test nothing")
	}
	if movDefRefreshes.Load() == refreshes {
		t.Fatal("the filter followed no refresh of the chains: its incremental update is untested")
	}
}
