package phases

import (
	"bytes"
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
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
		cfg := iteratingKernel(8800, seed)
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

// TestGeneralOptimizeDeadCandidatesSameOutput: dead code that visits
// only what the edits since the last sweep reach (generalopt_dead.go)
// removes what full sweeps remove: the -O3 pipeline prints the same PTX
// with every sweep a full one, on kernels where candidate sweeps happen.
func TestGeneralOptimizeDeadCandidatesSameOutput(t *testing.T) {
	c, _ := dirtyAndFullConfigs(t)
	before := deadCandSweeps.Load()
	seeds := int64(10)
	if testing.Short() {
		seeds = 4
	}
	for seed := int64(1); seed <= seeds; seed++ {
		cfg := iteratingKernel(9900, seed)
		var out [2][]byte
		for k, full := range []bool{false, true} {
			deadFullSweeps = full
			m := gen.Kernel(cfg)
			for _, f := range m.Funcs {
				if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
					deadFullSweeps = false
					t.Fatalf("seed %d: %v", cfg.Seed, err)
				}
			}
			out[k] = ptx.Format(m)
		}
		deadFullSweeps = false
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("seed %d: the output with candidate sweeps differs from full sweeps'", cfg.Seed)
		}
	}
	if deadCandSweeps.Load() == before {
		t.Fatal("no dead-code sweep went over candidates only: the kernels test nothing")
	}
}

// iteratingKernel is the generator configuration of the bundle tests'
// k-th kernel (seed base+k): sizes where the bundles run several rounds,
// every rule group (Fold on even k), frames on every third, and every
// injected shape on every fourth.
func iteratingKernel(base, seed int64) gen.Config {
	cfg := gen.Config{Seed: base + seed, Size: 2000 + int(seed%3)*2500, Pool: 64,
		Fold: seed%2 == 0, Frames: seed%3 == 0}
	if seed%4 == 1 {
		cfg.Inject = gen.AllKinds
	}
	return cfg
}
