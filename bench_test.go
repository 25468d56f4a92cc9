package ptxopt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// Pipeline benchmarks. Metrics are per input instruction, so growth shows
// as a rising figure from one size to the next:
//
//	go test -run '^$' -bench 'BenchmarkPipelineScaling' -benchtime 1x -count 5 .
//	go test -run '^$' -bench 'BenchmarkCorpus|BenchmarkEmbed' -count 5 .
//
// BenchmarkPipelineScaling/<size> optimizes one generated kernel
// (package gen, seed 1) at -O3 from its text: parse, phases, reports,
// print. -short stops at 100K instructions.

var scalingSizes = []int{10_000, 100_000, 1_000_000}

var genCache = map[int][]byte{}

func genKernel(n int) []byte {
	if b, ok := genCache[n]; ok {
		return b
	}
	b := ptx.Format(gen.Kernel(gen.Config{Seed: 1, Size: n}))
	genCache[n] = b
	return b
}

// instrsOf counts the instructions of a parsed module.
func instrsOf(b testing.TB, src []byte) int {
	m, err := Parse("bench", src)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, f := range m.IR.Funcs {
		for _, blk := range f.Layout {
			for i := f.BlockFirst[blk]; i != ir.NoInstr; i = f.Next[i] {
				n++
			}
		}
	}
	return n
}

func BenchmarkPipelineScaling(b *testing.B) {
	for _, n := range scalingSizes {
		if testing.Short() && n > 100_000 {
			continue
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src := genKernel(n)
			ni := instrsOf(b, src)
			p, err := NewPipeline(Options{Opt: O3})
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.ResetTimer()
			for b.Loop() {
				if _, _, err := p.Optimize(context.Background(), "gen.ptx", src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ni), "ns/instr")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// corpusFiles reads the corpus, skipping the benchmark when it is absent.
func corpusFiles(b *testing.B) (names []string, srcs [][]byte) {
	paths, _ := filepath.Glob("../shared/corpus/ptx/*.ptx")
	if len(paths) == 0 {
		b.Skip("no corpus at ../shared/corpus/ptx")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Parse(p, src); err != nil {
			continue // the corpus holds a few files PTX does not allow
		}
		names = append(names, p)
		srcs = append(srcs, src)
	}
	return
}

// BenchmarkCorpus optimizes every corpus file at -O3 with one worker;
// the metric is input instructions per millisecond end to end.
func BenchmarkCorpus(b *testing.B) {
	names, srcs := corpusFiles(b)
	total := 0
	for _, s := range srcs {
		total += instrsOf(b, s)
	}
	p, err := NewPipeline(Options{Opt: O3})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		for k, s := range srcs {
			if _, _, err := p.Optimize(context.Background(), names[k], s); err != nil {
				b.Fatal(err)
			}
		}
	}
	ms := float64(b.Elapsed().Nanoseconds()) / 1e6 / float64(b.N)
	b.ReportMetric(float64(total)/ms, "instrs/ms")
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
		m    Measure
	}{{"report", MeasureAll}, {"noreport", MeasureNone}} {
		b.Run("Optimize/"+m.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Optimize(context.Background(), src, Options{Opt: O3, Measure: m.m}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Pipeline/"+m.name, func(b *testing.B) {
			p, err := NewPipeline(Options{Opt: O3, Measure: m.m})
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
