package phases

import (
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// TestKillMovementCommonKeepsChains: when DoKillMovement commons what its
// sinks put side by side, it keeps the def-use chains cached (brought up
// to date: DropDead, MoveUses) for DoKillMovementUp, and they equal the
// chains computed afresh (the driver's check mode recomputes every cached
// analysis after each phase and fails on a difference). The kernels are
// ones where the commoning fires (found by a search over seeds).
func TestKillMovementCommonKeepsChains(t *testing.T) {
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	commoned := int64(0)
	for _, k := range []gen.Config{{Seed: 30, Size: 3000}, {Seed: 4, Size: 10_000}, {Seed: 24, Size: 10_000}, {Seed: 23, Size: 30_000, Pool: 64}} {
		f := gen.Func(gen.Kernel(k))
		seed := k.Seed
		stats, err := Run(context.Background(), c, nil, f, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, st := range stats {
			if st.Name != "DoKillMovement" {
				continue
			}
			for _, k := range st.Counters {
				if k.Name == "duplicates commoned" {
					commoned += k.N
				}
			}
		}
	}
	if commoned == 0 {
		t.Fatal("DoKillMovement commoned nothing: the test checks nothing")
	}
	t.Logf("%d duplicates commoned", commoned)
}
