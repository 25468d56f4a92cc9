//go:build linux

package phases

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkPhaseCPUScaling runs the whole -O3 pipeline on the scaling
// benchmark's generated kernels (seed 1, pool 64, as
// BenchmarkPipelineScaling and cmd/ptxgen -pool 64) and reports, for
// every phase that ran, the CPU time of the thread running it, per input
// instruction: the smallest over the iterations ("min-cpu-ns/instr"),
// which moves much less with the load of a shared machine than the wall
// time ("min-wall-ns/instr", also logged: at 1M it includes the
// collector's cycles that fall in the phase, which on two cores take the
// phase's processor part of the time). The phases run inside
// the pipeline, with the analysis cache as the phases before them left it
// (what a phase reuses is part of what it costs there). PHASECPU=A,B
// restricts the metrics to the phases named. After the last size the
// benchmark logs, per phase, its figure at each size and the ratio of the
// largest size's to the smallest's: the scaling target is at most 1.5.
//
//	go test ./phases -run '^$' -bench BenchmarkPhaseCPUScaling -benchtime 3x -v
func BenchmarkPhaseCPUScaling(b *testing.B) {
	sizes := []int{10_000, 1_000_000}
	if testing.Short() {
		sizes = []int{10_000, 100_000}
	}
	var only []string
	if v := os.Getenv("PHASECPU"); v != "" {
		only = strings.Split(v, ",")
	}
	perSize := make([]map[string]float64, len(sizes))
	wallSize := make([]map[string]float64, len(sizes))
	var order []string // phase names in pipeline order, as first seen
	for si, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			f, c := scalingKernel(b, n)
			instrs := f.NumInstrs() - f.NumDead()
			best, bestWall := map[string]int64{}, map[string]int64{}
			cur, curWall := map[string]int64{}, map[string]int64{}
			var names []string
			c.around = func(p *Pass, fn PassFunc) bool {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				t0, w0 := threadCPU(), time.Now()
				ch := fn(p)
				name := p.Phase.Name
				if _, seen := cur[name]; !seen {
					names = append(names, name)
				}
				cur[name] += threadCPU() - t0
				curWall[name] += time.Since(w0).Nanoseconds()
				return ch
			}
			// One scratch arena for every run, as a Pipeline's worker keeps
			// its own: a fresh one would grow (allocate, fault in and clear
			// its chunk) inside every run, a cost that no run of the real
			// pipeline but its first pays, and that weighs most on the
			// small size (it made the 10K figures of the bundles with big
			// tables, GeneralOptimizeMid among them, about a fifth higher
			// than the benchmark report's, and their ratios that much lower).
			sc := NewScratch()
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				g := f.Clone()
				runtime.GC()
				clear(cur)
				clear(curWall)
				names = names[:0]
				b.StartTimer()
				if _, err := Run(context.Background(), c, sc, g, nil); err != nil {
					b.Fatal(err)
				}
				for name, v := range cur {
					if old, ok := best[name]; !ok || v < old {
						best[name] = v
					}
					if old, ok := bestWall[name]; !ok || curWall[name] < old {
						bestWall[name] = curWall[name]
					}
				}
			}
			b.StopTimer()
			perSize[si], wallSize[si] = map[string]float64{}, map[string]float64{}
			for _, name := range names {
				if !slices.Contains(order, name) {
					order = append(order, name)
				}
			}
			for name, v := range best {
				ns := float64(v) / float64(instrs)
				perSize[si][name] = ns
				wallSize[si][name] = float64(bestWall[name]) / float64(instrs)
				if only == nil || slices.Contains(only, name) {
					b.ReportMetric(ns, name+"-min-cpu-ns/instr")
				}
			}
		})
	}
	first, last := perSize[0], perSize[len(sizes)-1]
	if first == nil || last == nil {
		return // a size was filtered out by -bench
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "min thread CPU ns per input instruction, %d vs %d instructions, ratio; then the same for wall time:\n", sizes[0], sizes[len(sizes)-1])
	for _, name := range order {
		if only != nil && !slices.Contains(only, name) {
			continue
		}
		x, y := first[name], last[name]
		ratio := 0.0
		if x > 0 {
			ratio = y / x
		}
		wx, wy := wallSize[0][name], wallSize[len(sizes)-1][name]
		wratio := 0.0
		if wx > 0 {
			wratio = wy / wx
		}
		mark := ""
		switch {
		case ratio > 1.5:
			mark = "  over 1.5"
		case x == 0 && y > 0:
			// settled (skipped) at the small size, run at the large
			// one: no ratio, and the phase's work is not comparable
			mark = fmt.Sprintf("  not run at %d (settled), no ratio", sizes[0])
		}
		rs, wrs := fmt.Sprintf("%5.2fx", ratio), fmt.Sprintf("%5.2fx", wratio)
		if x == 0 {
			rs, wrs = "    - ", "    - "
		}
		fmt.Fprintf(&sb, "  %-32s %9.2f %9.2f  %s   wall %9.2f %9.2f  %s%s\n", name, x, y, rs, wx, wy, wrs, mark)
	}
	b.Log(sb.String())
}

// BenchmarkPhaseAlone times one phase at a time on the scaling kernels
// (10K and 1M instructions; -short 10K and 100K), as
// BenchmarkMovementScaling does, but with the analyses the pipeline's
// cache held when the phase ran there computed beforehand (untimed), so
// the phase pays what it pays inside the pipeline. The phases are
// alonePhases' (PHASEALONE=A,B to choose; PHASEALONE_FRESH=1 for a
// new arena per run). For profiles:
//
//	go test ./phases -run '^$' -bench 'BenchmarkPhaseAlone/GvnCse/1000000' -benchtime 5x -cpuprofile cpu.out
func BenchmarkPhaseAlone(b *testing.B) {
	// PHASEALONE_FRESH=1: a new arena for every run, as a Pipeline's
	// worker has for a function whose arena grew past keepScratchBytes
	// (ptxopt.go: the 1M kernel in the benchmark report's child), so
	// that what the phase keeps in the arena from run to run is paid
	// again each time.
	fresh := os.Getenv("PHASEALONE_FRESH") == "1"
	sizes := []int{10_000, 1_000_000}
	if testing.Short() {
		sizes = []int{10_000, 100_000}
	}
	for _, name := range alonePhases() {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				f, st, c, fn, held, cp := stateBeforeCached(b, name, n)
				instrs := cp.stat.Instrs // the input kernel's, as the benchmark report counts
				sc := NewScratch()
				var cpu int64
				best := int64(-1) // the least of the runs: moves less with a shared machine's load
				b.ResetTimer()
				for b.Loop() {
					b.StopTimer()
					g := f.Clone()
					if fresh {
						sc = NewScratch()
					}
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
					d := threadCPU() - t0
					cpu += d
					if best < 0 || d < best {
						best = d
					}
					runtime.UnlockOSThread()
					p.A.Release()
					sc.reset()
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(instrs), "ns/instr")
				b.ReportMetric(float64(cpu)/float64(b.N)/float64(instrs), "cpu-ns/instr")
				b.ReportMetric(float64(best)/float64(instrs), "min-cpu-ns/instr")
			})
		}
	}
}

// alonePhases are the phases BenchmarkPhaseAlone times: PHASEALONE=A,B
// names them, else the ones the scaling work has looked at.
func alonePhases() []string {
	if v := os.Getenv("PHASEALONE"); v != "" {
		return strings.Split(v, ",")
	}
	return []string{"IntoSSA", "OriPerformLiveDeadSecond", "GvnCse", "OriDoPredication", "LateOriCommoning", "CSSA",
		"OriSplitLiveRanges", "OriSplitHighPressureLiveRanges",
		"DoKillMovement", "DoKillMovementUp", "DoTexMovement", "DoTexMovementRaw", "OriHoistInvariantsLate"}
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
