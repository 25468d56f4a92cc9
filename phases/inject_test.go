package phases

import (
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
)

// The redundancy each redundancy phase targets, injected by the generator
// (gen.Config.Inject, gen/inject.go), and how much of it the phase
// removes: alone (the phases named, with the required ones; measured
// right after the last of them, before OutOfSSA's coalescing could remove
// copies on its own) and in the whole -O3 pipeline (measured on the
// output). gen.Measure counts the injected instructions still live; each
// test wants at least minRemoval of them gone both ways, on 40 generated
// kernels (10 under -short), all behind the simulator's check
// (checkGeneratedRun).

// minRemoval is the share of the injected redundancy a phase must remove.
const minRemoval = 0.95

// injectCheck says which kinds to inject and what removes them.
type injectCheck struct {
	kinds   gen.Kind
	named   []string // the "alone" run
	probe   string   // the slot after which the alone run is measured
	counter string   // a counter the alone run must count
	first   int64    // first seed
	// mid, when not empty, is an earlier slot of the alone run measured
	// too (what the phases before probe leave).
	mid string
}

// removal is redundancy measured: instructions left of those injected.
type removal struct{ left, redundant int }

func (r *removal) add(left, red int) { r.left += left; r.redundant += red }

func (r removal) share() float64 {
	if r.redundant == 0 {
		return 0
	}
	return 1 - float64(r.left)/float64(r.redundant)
}

// checkInjected runs ic and returns the removal after the alone run's
// probe, in the whole pipeline, and after mid (when ic.mid is set).
func checkInjected(t *testing.T, ic injectCheck) (alone, whole, mid removal) {
	t.Helper()
	var snap, snapMid *ir.Func
	skipped := 0
	probe := func(only *Config, slot string, into **ir.Func) {
		i, ok := Lookup(slot)
		if !ok {
			t.Fatalf("no slot %s", slot)
		}
		orig := only.fns[i]
		if err := only.Override(slot, func(p *Pass) bool {
			ch := orig(p)
			*into = p.F.Clone()
			return ch
		}); err != nil {
			t.Fatal(err)
		}
	}
	// What the phases can remove, without the register retry (which
	// holds back commoning that would raise a kernel's maximum live).
	noRetry, err := ParseKnob("PressureRetry=false")
	if err != nil {
		t.Fatal(err)
	}
	checkGeneratedRun(t, genCheck{
		knobs:   []KnobSetting{noRetry},
		named:   ic.named,
		counter: ic.counter,
		cfg: func(n int64) gen.Config {
			return gen.Config{Seed: ic.first + n, Size: 300, Inject: ic.kinds}
		},
		prepare: func(only *Config) {
			probe(only, ic.probe, &snap)
			if ic.mid != "" {
				probe(only, ic.mid, &snapMid)
			}
		},
		inspect: func(seed int64, isWhole bool, injs []gen.Injection, before, after *ir.Func) {
			if isWhole {
				whole.add(gen.Measure(after, injs))
				return
			}
			// A slot that did not run (a NeedsSSA phase where IntoSSA
			// gave up) removed nothing: measure the output then.
			if snap == nil {
				skipped++
				snap = after
			}
			alone.add(gen.Measure(snap, injs))
			if ic.mid != "" {
				if snapMid == nil {
					snapMid = after
				}
				mid.add(gen.Measure(snapMid, injs))
			}
			snap, snapMid = nil, nil
		},
	})
	if skipped > 0 {
		t.Logf("%s did not run on %d kernels", ic.probe, skipped)
	}
	t.Logf("%v injected: %d redundant instructions; %s removes %.1f%% alone (%d left), %.1f%% in the whole pipeline (%d left)",
		ic.kinds, alone.redundant, ic.probe, 100*alone.share(), alone.left, 100*whole.share(), whole.left)
	if alone.redundant == 0 {
		t.Fatalf("nothing injected")
	}
	if alone.share() < minRemoval {
		t.Errorf("%v alone removes %.1f%% of the injected %v redundancy, want at least %.0f%%", ic.named, 100*alone.share(), ic.kinds, 100*minRemoval)
	}
	if whole.share() < minRemoval {
		t.Errorf("the whole pipeline removes %.1f%% of the injected %v redundancy, want at least %.0f%%", 100*whole.share(), ic.kinds, 100*minRemoval)
	}
	return alone, whole, mid
}

// Expressions recomputed in dominated blocks: GvnCse.
func TestInjectedGvnCse(t *testing.T) {
	checkInjected(t, injectCheck{kinds: gen.Dominated, named: []string{"GvnCse"}, probe: "GvnCse",
		counter: "expressions commoned", first: 12000})
}

// Reassociable chains ((a+b)+c and (a+c)+b in one block):
// OriReassociateAndCommon.
func TestInjectedReassociation(t *testing.T) {
	checkInjected(t, injectCheck{kinds: gen.Reassoc, named: []string{"OriReassociateAndCommon"}, probe: "OriReassociateAndCommon",
		counter: "expressions commoned", first: 12100})
}

// Diamonds whose arms compute one value: OriDoPredication merges the two
// computations when it puts them side by side.
func TestInjectedPredication(t *testing.T) {
	checkInjected(t, injectCheck{kinds: gen.Diamond, named: []string{"OriDoPredication"}, probe: "OriDoPredication",
		counter: "duplicates merged", first: 12200})
}

// Diamonds whose join recomputes the arms' value: OriDoPredication merges
// the arms' computations, then LateOriCommoning commons the join's with
// the merged one, which now dominates it. Predication alone must leave
// the join's recomputation (half the injected redundancy): the test fails
// if LateOriCommoning is not what removes it.
func TestInjectedLateCommoning(t *testing.T) {
	_, _, mid := checkInjected(t, injectCheck{kinds: gen.JoinRecompute, named: []string{"OriDoPredication", "LateOriCommoning"},
		probe: "LateOriCommoning", mid: "OriDoPredication", counter: "expressions commoned", first: 12300})
	t.Logf("after OriDoPredication alone: %.1f%% removed (%d left)", 100*mid.share(), mid.left)
	if mid.share() >= minRemoval {
		t.Errorf("OriDoPredication alone already removes %.1f%%: the join's recomputation is not LateOriCommoning's to remove", 100*mid.share())
	}
}

// MOV chains: copy propagation (the GeneralOptimize bundles' CopyProp,
// named OriCopyProp), measured after the last bundle.
func TestInjectedCopyProp(t *testing.T) {
	checkInjected(t, injectCheck{kinds: gen.MovChain, named: []string{"OriCopyProp"}, probe: "GeneralOptimizeLate2",
		counter: "CopyProp: copies propagated", first: 12400})
}
