package phases

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/ir"
)

// bundleSlotNames are the six GeneralOptimize slots in pipeline order.
var bundleSlotNames = []string{"GeneralOptimizeEarly", "GeneralOptimize", "GeneralOptimizeMid", "GeneralOptimizeMid2", "GeneralOptimizeLate", "GeneralOptimizeLate2"}

// BenchmarkGeneralOptimizeScaling times each GeneralOptimize bundle alone,
// per instruction, on the scaling benchmark's generated kernels of 10K
// and 1M instructions (seed 1, pool 64, as BenchmarkPipelineScaling and
// cmd/ptxgen -pool 64; -short stops at 10K): the -O3 pipeline runs once
// per size, keeping a copy of the function as it stood before each
// bundle, and each iteration runs the bundle on a fresh copy of that,
// with an empty analysis cache (what the bundle computes is its own
// cost). Compare the ns/instr of the two sizes: near-linear is a flat
// figure. cpu-ns/instr is the benchmark thread's CPU time (the bundle
// runs on it, locked), steadier than wall time on a loaded machine;
// edits/Kinstr is the bundle's counters summed (the rounds counter left
// out) per thousand instructions.
//
//	go test ./phases -run '^$' -bench BenchmarkGeneralOptimizeScaling -benchtime 3x
func BenchmarkGeneralOptimizeScaling(b *testing.B) {
	sizes := []int{10_000, 1_000_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		var states map[string]*bundleState
		for _, name := range bundleSlotNames {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				if states == nil {
					states = statesBeforeBundles(b, n)
				}
				s := states[name]
				k, _ := Lookup(name)
				f := s.f
				instrs := f.NumInstrs() - f.NumDead()
				sc := NewScratch()
				var edits int64
				var cpu time.Duration
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ResetTimer()
				for b.Loop() {
					b.StopTimer()
					g := f.Clone()
					runtime.GC() // the copies' garbage is not the bundle's
					stat := &PhaseStat{}
					p := &Pass{F: g, A: NewAnalysesIn(g, sc), Phase: &pipeline[k], Config: s.c, Knobs: s.c.Knobs, Scratch: sc, limit: -1, ssa: s.st.clone(), stat: stat}
					c0 := time.Duration(threadCPU())
					b.StartTimer()
					pipeline[k].Fn(p)
					b.StopTimer()
					cpu += time.Duration(threadCPU()) - c0
					edits = 0
					for _, x := range stat.Counters {
						if x.Name != dirtyRoundsCounter {
							edits += x.N
						}
					}
					p.A.Release()
					sc.reset()
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(instrs), "ns/instr")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(instrs), "cpu-ns/instr")
				b.ReportMetric(float64(edits)*1000/float64(instrs), "edits/Kinstr")
			})
		}
	}
}

type bundleState struct {
	f  *ir.Func
	st *ssaState
	c  *Config
}

// statesBeforeBundles runs the -O3 pipeline on the generated kernel of
// size n and returns the state before each GeneralOptimize bundle (each
// bundle runs as usual after its copy is taken).
func statesBeforeBundles(b *testing.B, n int) map[string]*bundleState {
	b.Helper()
	f, c := scalingKernel(b, n)
	out := map[string]*bundleState{}
	save := func(p *Pass) {
		if _, ok := out[p.Phase.Name]; !ok {
			out[p.Phase.Name] = &bundleState{f: p.F.Clone(), st: p.ssa.clone(), c: c}
		}
	}
	// One function literal per slot: the driver tells passes apart by
	// code address, and its settled-slot skip must not take one slot's
	// override for another's.
	fns := []PassFunc{
		func(p *Pass) bool { save(p); return generalOptimizeEarly(p) },
		func(p *Pass) bool { save(p); return generalOptimizeMain(p) },
		func(p *Pass) bool { save(p); return generalOptimizeMid(p) },
		func(p *Pass) bool { save(p); return generalOptimizeMid2(p) },
		func(p *Pass) bool { save(p); return generalOptimizeLate(p) },
		func(p *Pass) bool { save(p); return generalOptimizeLate2(p) },
	}
	for k, name := range bundleSlotNames {
		if err := c.Override(name, fns[k]); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := Run(context.Background(), c, nil, f, nil); err != nil {
		b.Fatal(err)
	}
	for _, name := range bundleSlotNames {
		if out[name] == nil {
			b.Fatalf("%s did not run", name)
		}
	}
	return out
}
