package phases

import (
	"context"
	"runtime"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
)

// The pipeline allocates per function and per block (loops, preheaders,
// a phase's per-function tables), never per instruction: with the
// worker's scratch warmed up, a whole -O3 run allocates a few objects per
// block at any size (a generated kernel has about fourteen instructions
// per block, so one allocation per instruction would show as fourteen or
// more per block). The per-function part weighs on a small kernel, so
// the bound is on what each added block costs between two sizes.
func TestPipelineAllocatesPerBlock(t *testing.T) {
	sizes := []int{2_000, 20_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	var allocs, blocks []float64
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
		n := float64(b.Mallocs - a.Mallocs)
		t.Logf("%d instructions, %d blocks: %.0f allocations, %.2f per block, %.3f per instruction", f.NumInstrs(), f.NumBlocks(), n, n/float64(f.NumBlocks()), n/float64(f.NumInstrs()))
		// A small kernel pays the per-function allocations of every
		// phase (a few hundred in all).
		if per := n / float64(f.NumBlocks()); per > 8 {
			t.Errorf("%d instructions: %.2f allocations per block over the pipeline (want at most 8)", f.NumInstrs(), per)
		}
		allocs, blocks = append(allocs, n), append(blocks, float64(f.NumBlocks()))
	}
	if len(allocs) == 2 {
		slope := (allocs[1] - allocs[0]) / (blocks[1] - blocks[0])
		t.Logf("%.2f allocations per added block", slope)
		if slope > 4 {
			t.Errorf("%.2f allocations per added block (want at most 4)", slope)
		}
	}
}
