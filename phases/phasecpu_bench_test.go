//go:build linux

package phases

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
)

// BenchmarkPhaseCPUScaling runs the whole -O3 pipeline on the scaling
// benchmark's generated kernels (seed 1, pool 64, as
// BenchmarkPipelineScaling and cmd/ptxgen -pool 64) and reports, for the
// phases below, the CPU time of the thread running each, per input
// instruction: the smallest over the iterations ("min-cpu-ns/instr"),
// which moves much less with the load of a shared machine than the wall
// time of the benchmark report's per-phase table. Unlike
// BenchmarkMovementScaling the phases run inside the pipeline, with the
// analysis cache as the phases before them left it (what a phase reuses
// is part of what it costs there). Compare a phase's figure at 10K with
// its figure at 1M: the scaling target is a ratio of at most 1.5.
//
//	go test ./phases -run '^$' -bench BenchmarkPhaseCPUScaling -benchtime 3x
func BenchmarkPhaseCPUScaling(b *testing.B) {
	sizes := []int{10_000, 1_000_000}
	if testing.Short() {
		sizes = []int{10_000, 100_000}
	}
	timed := []string{"IntoSSA", "OriPerformLiveDeadSecond", "GvnCse", "CSSA"}
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			f := gen.Func(gen.Kernel(gen.Config{Seed: 1, Size: n, Pool: 64}))
			instrs := f.NumInstrs() - f.NumDead()
			target, _ := ParseTarget("sm_80")
			c, err := NewConfig(MaxOpt, target, nil, nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			best := map[string]int64{}
			cur := map[string]int64{}
			// One wrapper per pass function (the driver tells passes apart
			// by code address): the four live/dead slots keep sharing one.
			measure := func(p *Pass, fn PassFunc) bool {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				t0 := threadCPU()
				ch := fn(p)
				cur[p.Phase.Name] += threadCPU() - t0
				return ch
			}
			wrap := map[string]PassFunc{
				"IntoSSA": func(p *Pass) bool { return measure(p, intoSSA) },
				"GvnCse":  func(p *Pass) bool { return measure(p, gvnCse) },
				"CSSA":    func(p *Pass) bool { return measure(p, cssa) },
			}
			ld := func(p *Pass) bool { return measure(p, liveDead) }
			for _, name := range []string{"OriPerformLiveDeadFirst", "OriPerformLiveDeadSecond", "OriPerformLiveDeadThird", "OriPerformLiveDeadFourth"} {
				wrap[name] = ld
			}
			for name, fn := range wrap {
				if err := c.Override(name, fn); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				g := f.Clone()
				runtime.GC()
				clear(cur)
				b.StartTimer()
				if _, err := Run(context.Background(), c, nil, g, nil); err != nil {
					b.Fatal(err)
				}
				for _, name := range timed {
					if v, ok := best[name]; !ok || cur[name] < v {
						best[name] = cur[name]
					}
				}
			}
			b.StopTimer()
			for _, name := range timed {
				b.ReportMetric(float64(best[name])/float64(instrs), name+"-min-cpu-ns/instr")
			}
		})
	}
}

// threadCPU returns the CPU time of the calling thread in nanoseconds.
func threadCPU() int64 {
	// clock_gettime(CLOCK_THREAD_CPUTIME_ID): nanoseconds, where
	// getrusage(RUSAGE_THREAD) counts in scheduler ticks.
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return ts.Nano()
}

// BenchmarkPhaseAlone times one phase at a time on the scaling kernels
// (10K and 1M instructions; -short 10K and 100K), as
// BenchmarkMovementScaling does, but with the analyses the pipeline's
// cache held when the phase ran there computed beforehand (untimed), so
// the phase pays what it pays inside the pipeline. For profiles:
//
//	go test ./phases -run '^$' -bench 'BenchmarkPhaseAlone/GvnCse/1000000' -benchtime 5x -cpuprofile cpu.out
func BenchmarkPhaseAlone(b *testing.B) {
	sizes := []int{10_000, 1_000_000}
	if testing.Short() {
		sizes = []int{10_000, 100_000}
	}
	for _, name := range []string{"IntoSSA", "OriPerformLiveDeadSecond", "GvnCse", "CSSA"} {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				f, st, c, fn, held, cp := stateBeforeCached(b, name, n)
				instrs := cp.stat.Instrs // the input kernel's, as the benchmark report counts
				sc := NewScratch()
				var cpu int64
				b.ResetTimer()
				for b.Loop() {
					b.StopTimer()
					g := f.Clone()
					runtime.GC()
					p := &Pass{F: g, A: NewAnalysesIn(g, sc), Config: c, Knobs: c.Knobs, Scratch: sc, limit: -1, ssa: st.clone(), stat: &PhaseStat{}}
					p.Phase = &pipeline[mustLookup(b, name)]
					p.regCap, p.regCapSet = cp.regCap, cp.regCapSet
					warmAnalyses(p.A, held)
					runtime.LockOSThread()
					t0 := threadCPU()
					b.StartTimer()
					fn(p)
					b.StopTimer()
					cpu += threadCPU() - t0
					runtime.UnlockOSThread()
					p.A.Release()
					sc.reset()
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(instrs), "ns/instr")
				b.ReportMetric(float64(cpu)/float64(b.N)/float64(instrs), "cpu-ns/instr")
			})
		}
	}
}

func mustLookup(b *testing.B, name string) int {
	i, ok := Lookup(name)
	if !ok {
		b.Fatalf("no phase %s", name)
	}
	return i
}

// stateBeforeCached is stateBefore, also returning the analyses the
// cache held when the phase started and the register cap it was given.
func stateBeforeCached(b *testing.B, name string, n int) (*ir.Func, *ssaState, *Config, PassFunc, Analysis, *Pass) {
	b.Helper()
	f := gen.Func(gen.Kernel(gen.Config{Seed: 1, Size: n, Pool: 64}))
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
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

// warmAnalyses computes the analyses of set in a.
func warmAnalyses(a *Analyses, set Analysis) {
	if set&AOrder != 0 {
		a.Order()
	}
	if set&ADom != 0 {
		a.Dom()
	}
	if set&APostDom != 0 {
		a.PostDom()
	}
	if set&ALoops != 0 {
		a.Loops()
	}
	if set&ADefUse != 0 {
		a.DefUse()
	}
	if set&ALiveness != 0 {
		a.Liveness()
	}
	if set&AUniformity != 0 {
		a.Uniformity()
	}
	if set&APressure != 0 {
		a.MaxLive()
	}
}
