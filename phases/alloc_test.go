package phases

import (
	"context"
	"runtime"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// The pipeline allocates per function and per block (loops, preheaders),
// never per instruction: with the worker's scratch warmed up, a whole -O3
// run allocates a few objects per block at any size (a generated kernel
// has about fourteen instructions per block, so one allocation per
// instruction would show as fourteen or more per block).
func TestPipelineAllocatesPerBlock(t *testing.T) {
	sizes := []int{2_000, 20_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		f := gen.Func(gen.Kernel(gen.Config{Seed: 1, Size: n, Pool: 64}))
		f.ComputeCFG()
		c := mustConfig(t, 3, nil, nil)
		sc := NewScratch()
		if _, err := Run(context.Background(), c, sc, f.Clone(), nil); err != nil { // warm the scratch
			t.Fatal(err)
		}
		g := f.Clone()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		if _, err := Run(context.Background(), c, sc, g, nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		allocs := float64(b.Mallocs - a.Mallocs)
		perBlock, perInstr := allocs/float64(f.NumBlocks()), allocs/float64(f.NumInstrs())
		t.Logf("%d instructions, %d blocks: %.0f allocations, %.2f per block, %.3f per instruction", f.NumInstrs(), f.NumBlocks(), allocs, perBlock, perInstr)
		// (IntoSSA and OutOfSSA still take their per-function arrays from
		// the heap: a few allocations per function, which a small
		// function feels per block.)
		if perBlock > 5 {
			t.Errorf("%d instructions: %.2f allocations per block over the pipeline (want at most 5)", f.NumInstrs(), perBlock)
		}
	}
}
