// Package pipeline measures the whole ptxopt pipeline: end-to-end passes
// over a set of PTX modules (the corpus) per opt level and worker count,
// with the time of every phase, of parsing, of the report's measures and
// of printing, and the heap allocations; the scaling of every phase on
// generated kernels from 1K to 1M instructions, each size in a child
// process held to a time budget and a memory cap, which also reports the
// peak memory; and the comparison with LLVM's opt and llc on the same
// kernels. cmd/benchreport turns the figures into the report; the root
// package's BenchmarkCorpus and BenchmarkPipelineScaling run the same
// workloads under `go test -bench`.
package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// Input is one PTX module to optimize.
type Input struct {
	Name   string
	Src    []byte
	Instrs int // instructions in the function bodies
}

// CountInstrs counts the instructions in the function bodies of m.
func CountInstrs(m *ir.Module) int {
	n := 0
	for _, f := range m.Funcs {
		if !f.HasBody {
			continue
		}
		for _, b := range f.Layout {
			for range f.Instrs(b) {
				n++
			}
		}
	}
	return n
}

// NewInput parses src to count its instructions.
func NewInput(name string, src []byte) (Input, error) {
	m, err := ptxopt.Parse(name, src)
	if err != nil {
		return Input{}, err
	}
	return Input{Name: name, Src: src, Instrs: CountInstrs(m.IR)}, nil
}

// Total returns the instructions of all inputs.
func Total(ins []Input) int {
	n := 0
	for _, in := range ins {
		n += in.Instrs
	}
	return n
}

// LoadDir reads every *.ptx file of dir, in name order. Files that do not
// parse are left out and listed in skipped with the parser's message (the
// corpus holds a few files PTX does not allow). A dir without .ptx files
// is an error.
func LoadDir(dir string) (ins []Input, skipped []string, err error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.ptx"))
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("no .ptx files in %s", dir)
	}
	sort.Strings(paths)
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		in, err := NewInput(p, src)
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		ins = append(ins, in)
	}
	return ins, skipped, nil
}

// GeneratedSource returns the PTX text of the generated kernel of the
// given size, seed and pool bound (package gen, default depth): what
// cmd/ptxgen prints for -size, -seed and -pool.
func GeneratedSource(size int, seed int64, pool int) []byte {
	return ptx.Format(gen.Kernel(gen.Config{Seed: seed, Size: size, Pool: pool}))
}

// GeneratedSetSizes are the kernel sizes of GeneratedSet, taken in turn.
var GeneratedSetSizes = []int{500, 1000, 2000, 4000}

// GeneratedSet returns n generated kernels (seeds 1..n, sizes from
// GeneratedSetSizes in turn): the stand-in for the corpus where there is
// none.
func GeneratedSet(n int) []Input {
	ins := make([]Input, n)
	for i := range n {
		size := GeneratedSetSizes[i%len(GeneratedSetSizes)]
		name := fmt.Sprintf("gen-%d-seed%d.ptx", size, i+1)
		in, err := NewInput(name, GeneratedSource(size, int64(i+1), 0))
		if err != nil {
			panic(fmt.Sprintf("pipeline: generated kernel does not parse: %v", err)) // a gen or printer bug
		}
		ins[i] = in
	}
	return ins
}
