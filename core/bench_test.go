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
//	straight: straight-line code in 64-instruction blocks over a pool of
//	          8192 u32 registers (n/2 below 16K instructions); each
//	          instruction reads two registers defined up to 40 and 300
//	          instructions earlier, so ~100 registers are live at each
//	          block boundary (testgen.StraightLine).
//	loops:    a long unrolled kernel: a sequence of loop nests three deep
//	          (four inner loops per middle loop, each inner body a
//	          diamond) in 6-10-instruction blocks; 16 u64 parameters live
//	          throughout, each nest works on its own 128-register window
//	          of a 2048-register pool (24 accumulators carried around the
//	          loops, temporaries defined before they are read), four
//	          values handed from nest to nest; ~45 registers live at each
//	          block boundary, ~1500 of the 2068 registers live across
//	          some block boundary (testgen.LoopNest).
//
// Run (the table in the report):
//
//	go test ./core -run '^$' -bench 'BenchmarkLiveness|BenchmarkAnalyses' -benchtime 3x -count 3
//
// (-short stops at 100K). BenchmarkLiveness/<family>/<size>/<level>
// times ComputeLiveness (round-robin) at the best bitvec level and at
// forced generic; .../<level>/solve times the dense solve alone (the
// block scan and the global numbering done outside the timer; each
// segment's register numbering, its gen/kill sets and the iteration the
// kernels run inside it); .../<level>/wl the worklist solver. BenchmarkAnalyses/
// <family>/<size>/<analysis> times each analysis. Metric: ns/instr.

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

// benchLevels are the bitvec levels compared side by side: the best
// this machine has, and generic.
func benchLevels() []bitvec.Impl {
	levels := []bitvec.Impl{bitvec.Best()}
	if bitvec.Best() != bitvec.Generic {
		levels = append(levels, bitvec.Generic)
	}
	return levels
}

func withLevel(b *testing.B, lv bitvec.Impl) func() {
	old := bitvec.Level()
	if err := bitvec.SetLevel(lv); err != nil {
		b.Skip(err)
	}
	return func() { bitvec.SetLevel(old) }
}

func perInstr(b *testing.B, ni int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ni), "ns/instr")
}

// BenchmarkLiveness runs ComputeLiveness at the best bitvec level and at
// forced generic: the whole analysis (round-robin and worklist), and the
// round-robin fixed-point solve alone.
func BenchmarkLiveness(b *testing.B) {
	for _, fam := range families {
		for _, n := range sizes(b) {
			for _, lv := range benchLevels() {
				for _, sv := range []Solver{RoundRobin, Worklist} {
					name := fmt.Sprintf("%s/%d/%s", fam.name, n, lv)
					if sv == Worklist {
						name += "/wl"
					}
					b.Run(name, func(b *testing.B) {
						f := benchFunc(b, fam, n)
						ni := countInstrs(f)
						defer withLevel(b, lv)()
						var l *Liveness
						for b.Loop() {
							l = ComputeLiveness(f, LiveOptions{Solver: sv})
						}
						perInstr(b, ni)
						b.ReportMetric(float64(l.Stats.Iterations), "iters")
						b.ReportMetric(float64(l.Stats.Segments), "segs")
						if l.Method == Sparse {
							b.ReportMetric(1, "sparse")
						}
					})
				}
				b.Run(fmt.Sprintf("%s/%d/%s/solve", fam.name, n, lv), func(b *testing.B) {
					f := benchFunc(b, fam, n)
					ni := countInstrs(f)
					l, gen, kill := prepareLiveness(nil, f, LiveOptions{})
					defer withLevel(b, lv)()
					for b.Loop() {
						l.Stats = LiveStats{}
						if !l.solveDense(gen, kill, LiveOptions{}) {
							b.Skip("over the dense budget")
						}
					}
					perInstr(b, ni)
					b.ReportMetric(float64(l.Stats.Words)*4/float64(ni), "B/instr")
				})
			}
		}
	}
}

// BenchmarkAnalyses times each analysis per instruction.
func BenchmarkAnalyses(b *testing.B) {
	for _, fam := range families {
		for _, n := range sizes(b) {
			run := func(name string, fn func(f *ir.Func)) {
				b.Run(fmt.Sprintf("%s/%d/%s", fam.name, n, name), func(b *testing.B) {
					f := benchFunc(b, fam, n)
					ni := countInstrs(f)
					for b.Loop() {
						fn(f)
					}
					perInstr(b, ni)
				})
			}
			run("dom", func(f *ir.Func) { Dominators(f) })
			run("postdom", func(f *ir.Func) { PostDominators(f) })
			run("loops", func(f *ir.Func) { FindLoops(f, Dominators(f)) })
			run("defuse", func(f *ir.Func) { ComputeDefUse(f) })
			run("liveness", func(f *ir.Func) { ComputeLiveness(f, LiveOptions{}) })
			run("pressure", func(f *ir.Func) { RegisterPressure(ComputeLiveness(f, LiveOptions{})) })
			run("uniformity", func(f *ir.Func) { ComputeUniformity(f) })
		}
	}
}
