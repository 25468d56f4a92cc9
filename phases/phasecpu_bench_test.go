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
