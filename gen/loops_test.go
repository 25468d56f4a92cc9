package gen_test

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
)

// Kernels with constant loops run to completion, parse back from their
// text, and hold both shapes of loop (the counter in its .local slot,
// and in a register) over the seeds; with Frames too.
func TestConstLoopsRun(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	frameShape, regShape := 0, 0
	for seed := int64(0); seed < int64(n); seed++ {
		size := 120 + int(seed%5)*60
		m := gen.Kernel(gen.Config{Seed: seed, Size: size, ConstLoops: true, Frames: seed%3 == 0})
		text := string(ptx.Format(m))
		if !strings.Contains(text, "gen_cl") {
			continue
		}
		if strings.Contains(text, "ld.s32") {
			frameShape++
		}
		if strings.Contains(text, "mul.wide.u32 %rd") && strings.Contains(text, "setp.lt.u32") {
			regShape++
		}
		if _, err := ptx.Parse("gen.ptx", []byte(text)); err != nil {
			t.Fatalf("seed %d: printed kernel does not parse: %v", seed, err)
		}
		f := gen.Func(m)
		for k := int64(0); k < 2; k++ {
			in := sim.MakeInput(f, seed*7+k, gen.OutBytes)
			if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
				t.Fatalf("seed %d size %d input %d: %v", seed, size, k, err)
			}
		}
	}
	if frameShape < n/10 || regShape < n/10 {
		t.Errorf("over %d seeds: %d kernels with a counter in a slot, %d with one in a register", n, frameShape, regShape)
	}
}

// ConstLoops is off by default: no constant loop's variable.
func TestNoConstLoopsByDefault(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		text := string(ptx.Format(gen.Kernel(gen.Config{Seed: seed, Size: 300, Frames: true})))
		if strings.Contains(text, "gen_cl") {
			t.Fatalf("seed %d: a constant loop without ConstLoops", seed)
		}
	}
}
