package ptx

import (
	"testing"
	"unsafe"

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
func irBytes(f *ir.Func) int {
	sz := func(n int, elem uintptr) int { return n * int(elem) }
	n := 0
	n += sz(len(f.Op), unsafe.Sizeof(ir.Opcode(0)))
	n += sz(len(f.Mnemonic), unsafe.Sizeof(ir.StrID(0)))
	n += sz(len(f.Type), unsafe.Sizeof(ir.Type(0)))
	n += sz(len(f.Type2), unsafe.Sizeof(ir.Type(0)))
	n += sz(len(f.Space), unsafe.Sizeof(ir.Space(0)))
	n += sz(len(f.Guard), unsafe.Sizeof(ir.Operand(0)))
	n += sz(len(f.OpStart), unsafe.Sizeof(uint32(0)))
	n += sz(len(f.OpCount), unsafe.Sizeof(uint8(0)))
	n += sz(len(f.Block), unsafe.Sizeof(ir.BlockID(0)))
	n += sz(len(f.Prev), unsafe.Sizeof(ir.InstrID(0)))
	n += sz(len(f.Next), unsafe.Sizeof(ir.InstrID(0)))
	n += sz(len(f.Loc), unsafe.Sizeof(ir.StrID(0)))
	n += sz(len(f.Line), unsafe.Sizeof(uint32(0)))
	n += sz(len(f.Dead), unsafe.Sizeof(false))
	n += sz(len(f.Operands), unsafe.Sizeof(ir.Operand(0)))
	n += sz(len(f.Imms), unsafe.Sizeof(ir.Imm{}))
	n += sz(len(f.Addrs), unsafe.Sizeof(ir.Addr{}))
	n += sz(len(f.Lists), unsafe.Sizeof(ir.List{}))
	n += sz(len(f.ListOps), unsafe.Sizeof(ir.Operand(0)))
	return n
}

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
