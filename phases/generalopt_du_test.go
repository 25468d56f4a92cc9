package phases

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// TestGeneralOptimizeRefreshedDefUse: the chains the bundles bring up to
// date from their logged edits (generalopt_du.go) are, every time, the
// chains a new computation gives (checkDefUse panics otherwise), on
// kernels where the bundles iterate, with every rule group and the
// injected shapes; and the kernels do make refreshes, or the test says
// nothing.
func TestGeneralOptimizeRefreshedDefUse(t *testing.T) {
	t.Parallel()
	c, _ := dirtyAndFullConfigs(t)
	c.Verify = true
	h := &testHooks{duCheck: true}
	c.hooks = h
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
	if h.duRefreshes.Load() == 0 {
		t.Fatal("no def-use chains were refreshed: the kernels test nothing")
	}
	if h.deadLoggedCounts.Load() == 0 || h.deadKeptCounts.Load() == 0 {
		t.Fatal("no dead-code sweep counted reads from logged chains or kept counts: checkUseCounts tested nothing")
	}
}

// TestGeneralOptimizeDeadLoggedCountsSameOutput: dead code counting reads
// from chains not brought up to date (deadUseCounts) or moving the last
// sweep's counts by the edits since (deadKeptUses) removes what it
// removes after refreshing the chains and counting from them: the -O3
// pipeline prints the same PTX either way, on kernels where such sweeps
// happen.
func TestGeneralOptimizeDeadLoggedCountsSameOutput(t *testing.T) {
	t.Parallel()
	c, _ := dirtyAndFullConfigs(t)
	h := new(testHooks)
	c.hooks = h
	seeds := int64(10)
	if testing.Short() {
		seeds = 4
	}
	for seed := int64(1); seed <= seeds; seed++ {
		cfg := iteratingKernel(9700, seed)
		var out [2][]byte
		for k, refresh := range []bool{false, true} {
			h.deadRefreshFirst = refresh
			m := gen.Kernel(cfg)
			for _, f := range m.Funcs {
				if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
					t.Fatalf("seed %d: %v", cfg.Seed, err)
				}
			}
			out[k] = ptx.Format(m)
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("seed %d: the output with read counts from logged chains differs from refreshed chains'", cfg.Seed)
		}
	}
	if h.deadLoggedCounts.Load() == 0 || h.deadKeptCounts.Load() == 0 {
		t.Fatal("no dead-code sweep counted reads from logged chains or kept counts: the kernels test nothing")
	}
}

// TestGeneralOptimizeDeadCandidatesSameOutput: dead code that visits
// only what the edits since the last sweep reach, or after a first full
// pass only what its removals reach (generalopt_dead.go), removes what
// full sweeps remove: the -O3 pipeline prints the same PTX
// with every sweep a full one, on kernels where candidate sweeps happen.
func TestGeneralOptimizeDeadCandidatesSameOutput(t *testing.T) {
	t.Parallel()
	c, _ := dirtyAndFullConfigs(t)
	h := new(testHooks)
	c.hooks = h
	seeds := int64(10)
	if testing.Short() {
		seeds = 4
	}
	for seed := int64(1); seed <= seeds; seed++ {
		cfg := iteratingKernel(9900, seed)
		var out [2][]byte
		for k, full := range []bool{false, true} {
			h.deadFullSweeps = full
			m := gen.Kernel(cfg)
			for _, f := range m.Funcs {
				if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
					t.Fatalf("seed %d: %v", cfg.Seed, err)
				}
			}
			out[k] = ptx.Format(m)
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("seed %d: the output with candidate sweeps differs from full sweeps'", cfg.Seed)
		}
	}
	if h.deadCandSweeps.Load() == 0 {
		t.Fatal("no dead-code sweep went over candidates only: the kernels test nothing")
	}
	t.Logf("first-pass sweeps %d, later passes removing %d", h.deadFirstPassSweeps.Load(), h.deadFirstPassLater.Load())
	if h.deadFirstPassSweeps.Load() == 0 {
		t.Fatal("no dead-code sweep went over candidates after a first pass that removed: the kernels test nothing")
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

// TestGeneralOptimizeDeadLaterPass: a definition after, in the layout, the
// instruction whose removal leaves it unread (a loop carries the value)
// goes in the sweep's second pass, which after a first full pass visits
// only the candidates its removals left (firstPassThenCandidates): the
// result is the full sweeps' (both definitions of %r6 gone), and that
// pass did the removing.
func TestGeneralOptimizeDeadLaterPass(t *testing.T) {
	t.Parallel()
	body := `
	mov.u32 %r5, 0;
	mov.u32 %r6, 0;
	mov.u32 %r30, 0;
LOOP:
	add.u32 %r7, %r6, 1;
	add.u32 %r6, %r5, 3;
	add.u32 %r5, %r5, 1;
	add.u32 %r30, %r30, %r5;
	setp.lt.u32 %p1, %r5, %r1;
	@%p1 bra LOOP;
`
	var out [2]string
	for k, full := range []bool{false, true} {
		h := &testHooks{deadFullSweeps: full}
		before, after, got, _ := runSubsHooks(t, h, genOptKernel(body), "k", []subPass{spCopyProp, spDead})
		out[k] = got
		for _, gone := range []string{"%r7", "%r6"} {
			if strings.Contains(got, gone) {
				t.Errorf("full sweeps %v: %s should be gone:\n%s", full, gone, got)
			}
		}
		if !full && h.deadFirstPassLater.Load() == 0 {
			t.Error("no pass after the first removed anything: the test tests nothing")
		}
		simtest.CheckEquivalent(t, before, after, 4)
	}
	if out[0] != out[1] {
		t.Errorf("candidate passes:\n%s\nfull sweeps:\n%s", out[0], out[1])
	}
}
