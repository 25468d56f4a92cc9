package ptx

import (
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

// Benchmarks over the whole corpus (skipped when it is absent):
//
//	go test ./ir/ptx -run '^$' -bench . -benchmem
//
// BenchmarkParse reports MB/s of PTX text, allocs/instr (allocations per
// parsed instruction) and IR-bytes/instr (the bytes of every per-function
// slice element, pools included, divided by the instruction count).
// BenchmarkPrint reports MB/s of printed text.

func loadCorpusB(b *testing.B) ([][]byte, int) {
	b.Helper()
	files := corpusFiles(b)
	total := 0
	srcs := make([][]byte, len(files))
	for i, f := range files {
		srcs[i] = f.src
		total += len(f.src)
	}
	return srcs, total
}

func countInstrs(m *ir.Module) int {
	n := 0
	for _, f := range m.Funcs {
		n += len(f.Op)
	}
	return n
}

// irBytes sums the element sizes of the function's slices (length, not
// capacity: the parser allocates them exactly).
func irBytes(f *ir.Func) int { return f.MemBytes() }

func BenchmarkParse(b *testing.B) {
	srcs, total := loadCorpusB(b)
	instrs, bytes := 0, 0
	for _, s := range srcs {
		m, err := Parse("x.ptx", s)
		if err != nil {
			b.Fatal(err)
		}
		instrs += countInstrs(m)
		for _, f := range m.Funcs {
			bytes += irBytes(f)
		}
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range srcs {
			if _, err := Parse("x.ptx", s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	allocs := testing.AllocsPerRun(1, func() {
		for _, s := range srcs {
			Parse("x.ptx", s)
		}
	})
	b.ReportMetric(allocs/float64(instrs), "allocs/instr")
	b.ReportMetric(float64(bytes)/float64(instrs), "IR-bytes/instr")
}

func BenchmarkPrint(b *testing.B) {
	srcs, _ := loadCorpusB(b)
	mods := make([]*ir.Module, len(srcs))
	out := 0
	for i, s := range srcs {
		m, err := Parse("x.ptx", s)
		if err != nil {
			b.Fatal(err)
		}
		mods[i] = m
		out += len(Format(m))
	}
	b.SetBytes(int64(out))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, m := range mods {
			Format(m)
		}
	}
}
