package phases

import (
	"testing"
)

// TestKillSecondSweepLiveness runs DoKillMovement on the scaling kernels
// as the pipeline hands them over, with every answer its second sweep
// gives about liveness compared with a whole solve made when that sweep
// first asks (secondLiveCheck panics on a difference), and checks that
// the answers came both from the first sweep's solve and from searches
// of touched registers.
func TestKillSecondSweepLiveness(t *testing.T) {
	sizes := []int{10_000, 100_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	secondLiveCheck = true
	defer func() { secondLiveCheck = false }()
	secondLiveChecked = [3]int{}
	for _, n := range sizes {
		f, st, c, fn, held, cp := stateBeforeCached(t, "DoKillMovement", n)
		sc := NewScratch()
		p := &Pass{F: f, A: NewAnalysesIn(f, sc), Config: c, Knobs: c.Knobs, Scratch: sc, limit: -1, ssa: st, stat: &PhaseStat{}}
		p.Phase = &pipeline[mustLookup(t, "DoKillMovement")]
		p.regCap, p.regCapSet = cp.regCap, cp.regCapSet
		warmAnalyses(p.A, held)
		if !fn(p) {
			t.Fatalf("%d: DoKillMovement moved nothing", n)
		}
		t.Logf("%d instructions: answers from S1, searches, a solve: %v", n, secondLiveChecked)
	}
	if secondLiveChecked[0] == 0 || secondLiveChecked[1] == 0 {
		t.Errorf("answers from S1, searches, a solve: %v; want some from S1 and some from searches", secondLiveChecked)
	}
}
