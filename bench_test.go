package ptxopt_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/bench/pipeline"
	"github.com/ptxopt/ptxopt/internal/testenv"
)

// Pipeline benchmarks, on the workloads of the benchmark report
// (package bench/pipeline, cmd/benchreport) and under the same result
// names, so benchstat compares `go test -bench` output with the report's
// raw.txt:
//
//	go test -run '^$' -bench 'BenchmarkPipelineScaling' -benchtime 1x -count 5 .
//	go test -run '^$' -bench 'BenchmarkCorpus' -count 5 .
//
// BenchmarkPipelineScaling/<size> optimizes one generated kernel
// (package gen, seed 1, pool 64; cmd/ptxgen -pool 64 prints it) at -O3 from its text:
// parse, phases, report measures, print. Metrics are per input
// instruction, so growth shows as a rising figure from one size to the
// next. -short stops at 100K instructions. Unlike the report, it runs in
// the test process with no time budget or memory cap: a size too big for
// the machine runs out of memory here (see cmd/benchreport).

var scalingSizes = []int{1_000, 10_000, 100_000, 1_000_000}

// scalingPool is the generator's pool bound for the scaling kernels, as in
// the report: a bounded number of values live at once, as in real kernels
// (gen.Config.Pool; 0 would let every value stay live to the end).
const scalingPool = 64

func BenchmarkPipelineScaling(b *testing.B) {
	for _, n := range scalingSizes {
		if testing.Short() && n > 100_000 {
			continue
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			in, err := pipeline.NewInput("gen.ptx", pipeline.GeneratedSource(n, 1, scalingPool))
			if err != nil {
				b.Fatal(err)
			}
			p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: ptxopt.O3})
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			var split pipeline.Split
			b.ResetTimer()
			for b.Loop() {
				if _, _, err := pipeline.Optimize(context.Background(), p, in, &split); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&ms1)
			per := float64(b.N) * float64(in.Instrs)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/instr")
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/per, "allocs/instr")
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/per, "B/instr")
		})
	}
}

// BenchmarkCorpus/O<level>/j<workers> optimizes every corpus file at
// -O0..-O3 with one worker and at -O3 with two; the metric is input
// instructions per millisecond end to end.
func BenchmarkCorpus(b *testing.B) {
	ins, _, err := pipeline.LoadDir(filepath.Join("..", "shared", "corpus", "ptx"))
	if err != nil {
		testenv.Missing(b, "no corpus at ../shared/corpus/ptx: %v", err)
	}
	for _, c := range []struct{ opt, workers int }{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {3, 2}} {
		b.Run(fmt.Sprintf("O%d/j%d", c.opt, c.workers), func(b *testing.B) {
			lvl, _ := ptxopt.LevelOf(c.opt)
			p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: lvl})
			if err != nil {
				b.Fatal(err)
			}
			var mallocs, bytes uint64
			for b.Loop() {
				ps, err := pipeline.RunPass(context.Background(), p, ins, c.workers)
				if err != nil {
					b.Fatal(err)
				}
				mallocs += ps.Mallocs
				bytes += ps.Bytes
			}
			per := float64(b.N) * float64(pipeline.Total(ins))
			b.ReportMetric(per/(float64(b.Elapsed().Nanoseconds())/1e6), "instrs/ms")
			b.ReportMetric(float64(mallocs)/per, "allocs/instr")
			b.ReportMetric(float64(bytes)/per, "B/instr")
		})
	}
}

// BenchmarkEmbed is the embedding case: one small kernel (examples/saxpy,
// 22 instructions) through the one-call Optimize and through a reused
// Pipeline, with the default report (MeasureAll) and with none.
func BenchmarkEmbed(b *testing.B) {
	src, err := os.ReadFile("examples/saxpy.ptx")
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []struct {
		name string
		m    ptxopt.Measure
	}{{"report", ptxopt.MeasureAll}, {"noreport", ptxopt.MeasureNone}} {
		b.Run("Optimize/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := ptxopt.Optimize(context.Background(), src, ptxopt.Options{Opt: ptxopt.O3, Measure: m.m}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Pipeline/"+m.name, func(b *testing.B) {
			p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: ptxopt.O3, Measure: m.m})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := p.Optimize(context.Background(), "saxpy.ptx", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
