package gen_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
)

// Injected kernels run in the simulator, every kind is injected, and the
// records match the code: on the kernel as generated, Measure finds
// exactly the redundancy recorded (every marker found, every reader
// counted, none of them dead), and the markers' immediates occur nowhere
// else.
func TestInjectedRedundancy(t *testing.T) {
	n := int64(40)
	if testing.Short() {
		n = 10
	}
	for _, kinds := range []gen.Kind{gen.Reassoc, gen.Dominated, gen.Diamond, gen.JoinRecompute, gen.MovChain, gen.AllKinds} {
		t.Run(kinds.String(), func(t *testing.T) {
			seen := gen.Kind(0)
			total := 0
			for seed := range n {
				cfg := gen.Config{Seed: 900 + seed, Size: 150 + int(seed%5)*60, Inject: kinds}
				m, injs := gen.Generate(cfg)
				f := gen.Func(m)
				for _, in := range injs {
					seen |= in.Kind
					if in.Kind&kinds == 0 {
						t.Fatalf("seed %d: injected %v, asked for %v", seed, in.Kind, kinds)
					}
					if in.Redundant() <= 0 || len(in.Markers) == 0 {
						t.Fatalf("seed %d: empty record %+v", seed, in)
					}
				}
				left, red := gen.Measure(f, injs)
				if left != red {
					t.Fatalf("seed %d: Measure finds %d redundant instructions on the kernel as generated, the records say %d", seed, left, red)
				}
				total += red
				checkMarkersUnique(t, f, injs)
				for k := int64(0); k < 2; k++ {
					in := sim.MakeInput(f, seed*5+k, gen.OutBytes)
					if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
						t.Fatalf("seed %d input %d: %v", seed, k, err)
					}
				}
			}
			if seen != kinds {
				t.Errorf("kinds injected %v, want %v", seen, kinds)
			}
			t.Logf("%v: %d redundant instructions injected over %d kernels", kinds, total, n)
		})
	}
}

// checkMarkersUnique: each marker immediate is in exactly one instruction.
func checkMarkersUnique(t *testing.T, f *ir.Func, injs []gen.Injection) {
	t.Helper()
	count := map[uint64]int{}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			for _, o := range f.Ops(i) {
				if o.Kind() == ir.KImm {
					count[f.Imms[o.Index()].Bits]++
				}
			}
		}
	}
	for _, in := range injs {
		for _, k := range in.Markers {
			if count[uint64(k)] != 1 {
				t.Fatalf("marker %#x occurs in %d instructions", k, count[uint64(k)])
			}
		}
	}
}

// Without Inject the generator draws nothing for injections: kernels are
// byte for byte the ones the generator made before injections existed
// (other tests' seeds and expectations depend on them). The hash covers
// 600 kernels with and without frames and pools, as printed; it was
// taken before Config.Inject was added.
func TestInjectOffUnchanged(t *testing.T) {
	h := sha256.New()
	for seed := int64(0); seed < 300; seed++ {
		for _, fr := range []bool{false, true} {
			m := gen.Kernel(gen.Config{Seed: seed, Size: 50 + int(seed%9)*70, Frames: fr, Pool: int(seed % 3 * 8)})
			h.Write(ptx.Format(m))
		}
	}
	const want = "e18c9c5c2c55e26743064369aaaf8629f75b1fa18f822150ac314031ae581ad3"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("kernels without injection changed: hash %s, want %s", got, want)
	}
}

func TestParseKinds(t *testing.T) {
	for s, want := range map[string]gen.Kind{"": 0, "none": 0, "all": gen.AllKinds, "reassoc,MovChain": gen.Reassoc | gen.MovChain} {
		if k, err := gen.ParseKinds(s); err != nil || k != want {
			t.Errorf("ParseKinds(%q) = %v, %v; want %v", s, k, err, want)
		}
	}
	if _, err := gen.ParseKinds("Reassoc,foo"); err == nil {
		t.Errorf("ParseKinds accepted an unknown kind")
	}
}
