package phases

import (
	"context"
	"runtime"
	"strings"
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
	if raceEnabled {
		// Measured under the race step: 8.20 allocations per block on
		// the 2K kernel where the same code makes 7.70 without it.
		t.Skip("counts allocations, which the race detector's instrumentation changes: run without -race")
	}
	// The phases' own allocations (the register retry off), and the
	// default pipeline, where a function that ends above its input's max
	// live runs a second time under the guard (PressureRetry: a snapshot
	// and a checked run of every guarded phase), so its bounds are higher;
	// both stay per block.
	for _, tc := range []struct {
		name            string
		knobs           []string
		perBlock, slope float64
	}{
		{"phases", []string{"PressureRetry=false"}, 8, 4},
		{"with the register retry", nil, 16, 12},
	} {
		t.Run(tc.name, func(t *testing.T) { allocsPerBlock(t, tc.knobs, tc.perBlock, tc.slope) })
	}
}

func allocsPerBlock(t *testing.T, knobs []string, perBlock, maxSlope float64) {
	sizes := []int{2_000, 20_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	var settings []KnobSetting
	for _, k := range knobs {
		s, err := ParseKnob(k)
		if err != nil {
			t.Fatal(err)
		}
		settings = append(settings, s)
	}
	tg, _ := ParseTarget("sm_80")
	c, err := NewConfig(3, tg, settings, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var allocs, blocks []float64
	for _, n := range sizes {
		f := gen.Func(gen.Kernel(gen.Config{Seed: 1, Size: n, Pool: 64}))
		f.ComputeCFG()
		sc := NewScratch()
		if _, err := Run(context.Background(), c, sc, f.Clone(), nil); err != nil { // warm the scratch
			t.Fatal(err)
		}
		g := f.Clone()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		stats, err := Run(context.Background(), c, sc, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		n := float64(b.Mallocs - a.Mallocs)
		t.Logf("%d instructions, %d blocks: %.0f allocations, %.2f per block, %.3f per instruction (rerun for the register cap: %d)", f.NumInstrs(), f.NumBlocks(), n, n/float64(f.NumBlocks()), n/float64(f.NumInstrs()), counterPrefix(stats, "pipeline run again for the register cap"))
		// A small kernel pays the per-function allocations of every
		// phase (a few hundred in all).
		if per := n / float64(f.NumBlocks()); per > perBlock {
			t.Errorf("%d instructions: %.2f allocations per block over the pipeline (want at most %g)", f.NumInstrs(), per, perBlock)
		}
		allocs, blocks = append(allocs, n), append(blocks, float64(f.NumBlocks()))
	}
	if len(allocs) == 2 {
		slope := (allocs[1] - allocs[0]) / (blocks[1] - blocks[0])
		t.Logf("%.2f allocations per added block", slope)
		if slope > maxSlope {
			t.Errorf("%.2f allocations per added block (want at most %g)", slope, maxSlope)
		}
	}
}

// counterPrefix sums the counters whose names start with prefix.
func counterPrefix(stats []PhaseStat, prefix string) int64 {
	n := int64(0)
	for _, s := range stats {
		for _, c := range s.Counters {
			if strings.HasPrefix(c.Name, prefix) {
				n += c.N
			}
		}
	}
	return n
}
