package phases

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// BenchmarkMovementScaling times each phase of the HoistInvariants family
// alone, per instruction, on the scaling benchmark's generated kernels
// of 10K, 300K and 1M instructions (seed 1, pool 64, as BenchmarkPipelineScaling and cmd/ptxgen -pool 64;
// -short stops at 300K):
// the -O3 pipeline runs once (stateBeforeCached), and each iteration runs the
// phase on a fresh copy of the function as it stood there, with an empty
// analysis cache (what the phase computes is its own cost). Compare the
// ns/instr of one size with the next: near-linear is a flat figure.
//
// The texture movements first make a dry run of their walk on the
// def-use chains and trace the pressure only of the blocks where a fetch
// could move: on the 10K kernel no fetch can, on the 1M one a few can.
// The "full" rows (the texFullSweep test hook) time the whole work at every size: the
// dry run, the register files (uniformity), liveness, and in both sweeps
// the pressure of every block, the function's maximum and the sweep. (Here the cache
// starts empty; in the pipeline the kill movements before them leave
// the chains, the liveness and the uniformity cached.)
//
//	go test ./phases -run '^$' -bench BenchmarkMovementScaling -benchtime 5x
func BenchmarkMovementScaling(b *testing.B) {
	sizes := []int{10_000, 300_000, 1_000_000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, name := range []string{"OriHoistInvariantsLate", "DoKillMovement", "DoKillMovementUp", "DoTexMovement", "DoTexMovementRaw"} {
		for _, n := range sizes {
			// the state before the phase, made by the first row that runs
			// and shared with the "full" row
			var f *ir.Func
			var st *ssaState
			var c *Config
			var fn PassFunc
			for _, full := range []bool{false, true} {
				row := fmt.Sprintf("%s/%d", name, n)
				if full {
					if !strings.HasPrefix(name, "DoTex") {
						continue
					}
					row = fmt.Sprintf("%s/full/%d", name, n)
				}
				b.Run(row, func(b *testing.B) {
					if f == nil {
						f, st, c, fn, _, _ = stateBeforeCached(b, name, n)
					}
					instrs := f.NumInstrs() - f.NumDead()
					sc := NewScratch()
					// the row's configuration: the shared one, with the
					// texFullSweep hook on the "full" rows
					rc := *c
					if full {
						rc.hooks = &testHooks{texFullSweep: true}
					}
					b.ResetTimer()
					for b.Loop() {
						b.StopTimer()
						g := f.Clone()
						runtime.GC() // the copies' garbage is not the phase's
						p := &Pass{F: g, A: NewAnalysesIn(g, sc), Config: &rc, Knobs: rc.Knobs, Scratch: sc, limit: -1, ssa: st.clone(), stat: &PhaseStat{}}
						b.StartTimer()
						fn(p)
						b.StopTimer()
						p.A.Release()
						sc.reset()
						b.StartTimer()
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(instrs), "ns/instr")
				})
			}
		}
	}
}

// scalingKernel is the scaling benchmarks' kernel of n instructions
// (seed 1, pool 64, as BenchmarkPipelineScaling and cmd/ptxgen -pool 64)
// and the -O3 configuration for sm_80.
func scalingKernel(b testing.TB, n int) (*ir.Func, *Config) {
	b.Helper()
	// Printed and parsed again, as the benchmark report and every user
	// give the pipeline its input: the parser numbers registers in the
	// order of their declarations (grouped by type), not in the order the
	// generator made them, which changes what the per-register tables of
	// the phases touch.
	m, err := ptx.Parse("scaling.ptx", ptx.Format(gen.Kernel(gen.Config{Seed: 1, Size: n, Pool: 64})))
	if err != nil {
		b.Fatal(err)
	}
	f := gen.Func(m)
	target, _ := ParseTarget("sm_80")
	// SCALINGKNOB=Name=Value runs the scaling benchmarks under one knob
	// setting: e.g. CopyPropGlobalBudget=100000000 shows how much of a
	// bundle's 1M cost is work the budget of an earlier bundle left it
	// (that budget is per function, so a larger kernel leaves more).
	var ks []KnobSetting
	if v := os.Getenv("SCALINGKNOB"); v != "" {
		k, err := ParseKnob(v)
		if err != nil {
			b.Fatal(err)
		}
		ks = append(ks, k)
	}
	c, err := NewConfig(MaxOpt, target, ks, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	return f, c
}

func mustLookup(b testing.TB, name string) int {
	i, ok := Lookup(name)
	if !ok {
		b.Fatalf("no phase %s", name)
	}
	return i
}

// stateBeforeCached runs the -O3 pipeline on the scaling kernel of size n
// and returns, as they stood when phase name started: the function, its
// SSA state, the configuration and the phase's pass, the analyses the
// cache held and (in a Pass) the register cap the phase was given.
func stateBeforeCached(b testing.TB, name string, n int) (*ir.Func, *ssaState, *Config, PassFunc, Analysis, *Pass) {
	b.Helper()
	f, c := scalingKernel(b, n)
	i := mustLookup(b, name)
	fn := pipeline[i].Fn
	var saved *ir.Func
	var st *ssaState
	var held Analysis
	cp := &Pass{stat: &PhaseStat{Instrs: f.NumInstrs() - f.NumDead()}}
	if err := c.Override(name, func(p *Pass) bool {
		if saved == nil {
			saved, st, held = p.F.Clone(), p.ssa.clone(), p.A.Valid()
			cp.regCap, cp.regCapSet = p.regCap, p.regCapSet
		}
		return fn(p)
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := Run(context.Background(), c, nil, f, nil); err != nil {
		b.Fatal(err)
	}
	if saved == nil {
		b.Fatalf("%s did not run", name)
	}
	return saved, st, c, fn, held, cp
}
