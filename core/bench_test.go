package core

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

// Benchmarks over two generated families at 1K..1M instructions:
//
//	straight: straight-line code in 64-instruction blocks over 8192
//	          registers (each size up to 1M);
//	loops:    ~8-instruction blocks in loop nests three deep with a
//	          diamond, over 2048 registers used with locality.
//
// Run: go test -run '^$' -bench . -benchmem ./core
// (-short stops at 100K). Metrics: ns/instr, solver iterations, words
// the set kernels read per op, and allocations (-benchmem).

var benchSizes = []int{1_000, 10_000, 100_000, 1_000_000}

type family struct {
	name string
	gen  func(n int) *ir.Func
}

var families = []family{
	{"straight", func(n int) *ir.Func { return testgen.StraightLine(n, min(8192, n/2)) }},
	{"loops", func(n int) *ir.Func { return testgen.LoopNest(n, min(2048, n/2)) }},
}

var funcCache = map[string]*ir.Func{}

func benchFunc(b *testing.B, fam family, n int) *ir.Func {
	key := fmt.Sprint(fam.name, n)
	if f, ok := funcCache[key]; ok {
		return f
	}
	f := fam.gen(n)
	funcCache[key] = f
	runtime.GC()
	return f
}

func sizes(b *testing.B) []int {
	if testing.Short() {
		return benchSizes[:3]
	}
	return benchSizes
}

func countInstrs(f *ir.Func) int {
	n := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			n++
		}
	}
	return n
}

// BenchmarkLiveness runs the dense solver at the best bitvec level and
// at forced generic, round-robin and worklist, side by side.
func BenchmarkLiveness(b *testing.B) {
	levels := []bitvec.Impl{bitvec.Best()}
	if bitvec.Best() != bitvec.Generic {
		levels = append(levels, bitvec.Generic)
	}
	for _, fam := range families {
		for _, n := range sizes(b) {
			for _, lv := range levels {
				for _, sv := range []Solver{RoundRobin, Worklist} {
					name := fmt.Sprintf("%s/%d/%s/%s", fam.name, n, lv, map[Solver]string{RoundRobin: "rr", Worklist: "wl"}[sv])
					b.Run(name, func(b *testing.B) {
						f := benchFunc(b, fam, n)
						ni := countInstrs(f)
						old := bitvec.Level()
						if err := bitvec.SetLevel(lv); err != nil {
							b.Skip(err)
						}
						defer bitvec.SetLevel(old)
						var l *Liveness
						b.ResetTimer()
						for b.Loop() {
							l = ComputeLiveness(f, LiveOptions{Solver: sv})
						}
						b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ni), "ns/instr")
						b.ReportMetric(float64(l.Stats.Iterations), "iters")
						b.ReportMetric(float64(l.Stats.Words), "words/op")
						b.ReportMetric(float64(l.Stats.Globals), "globals")
						if l.Method == Sparse {
							b.ReportMetric(1, "sparse")
						}
					})
				}
			}
		}
	}
}

// BenchmarkSolve isolates the fixed-point solve (gen/kill already built)
// so the bitvec levels can be compared on the kernel-bound part.
func BenchmarkSolve(b *testing.B) {
	levels := []bitvec.Impl{bitvec.Best()}
	if bitvec.Best() != bitvec.Generic {
		levels = append(levels, bitvec.Generic)
	}
	for _, fam := range families {
		for _, n := range sizes(b) {
			for _, lv := range levels {
				b.Run(fmt.Sprintf("%s/%d/%s", fam.name, n, lv), func(b *testing.B) {
					f := benchFunc(b, fam, n)
					l := ComputeLiveness(f, LiveOptions{})
					if l.Method != Dense {
						b.Skip("sparse")
					}
					old := bitvec.Level()
					if err := bitvec.SetLevel(lv); err != nil {
						b.Skip(err)
					}
					defer bitvec.SetLevel(old)
					ni := countInstrs(f)
					for b.Loop() {
						for k := range l.In {
							l.In[k].Clear()
							l.Out[k].Clear()
						}
						l.Stats = LiveStats{}
						l.solveRoundRobin()
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ni), "ns/instr")
					b.ReportMetric(float64(l.Stats.Iterations), "iters")
					b.ReportMetric(float64(l.Stats.Words), "words/op")
				})
			}
		}
	}
}

// BenchmarkAnalyses times the other analyses per instruction.
func BenchmarkAnalyses(b *testing.B) {
	for _, fam := range families {
		for _, n := range sizes(b) {
			run := func(name string, fn func(f *ir.Func)) {
				b.Run(fmt.Sprintf("%s/%s/%d", name, fam.name, n), func(b *testing.B) {
					f := benchFunc(b, fam, n)
					ni := countInstrs(f)
					for b.Loop() {
						fn(f)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ni), "ns/instr")
				})
			}
			run("dom", func(f *ir.Func) { Dominators(f) })
			run("postdom", func(f *ir.Func) { PostDominators(f) })
			run("loops", func(f *ir.Func) { FindLoops(f, Dominators(f)) })
			run("defuse", func(f *ir.Func) { ComputeDefUse(f) })
			run("pressure", func(f *ir.Func) { RegisterPressure(ComputeLiveness(f, LiveOptions{})) })
			run("uniformity", func(f *ir.Func) { ComputeUniformity(f) })
		}
	}
}
