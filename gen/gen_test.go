package gen_test

import (
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/sim"
)

// Every generated kernel must run to completion in the simulator.
func TestKernelsRun(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for seed := int64(0); seed < int64(n); seed++ {
		size := 50 + int(seed%7)*60
		m := gen.Kernel(gen.Config{Seed: seed, Size: size})
		f := gen.Func(m)
		for k := int64(0); k < 2; k++ {
			in := sim.MakeInput(f, seed*7+k, gen.OutBytes)
			if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
				t.Fatalf("seed %d size %d input %d: %v", seed, size, k, err)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	a := gen.Func(gen.Kernel(gen.Config{Seed: 42, Size: 300}))
	b := gen.Func(gen.Kernel(gen.Config{Seed: 42, Size: 300}))
	if a.NumInstrs() != b.NumInstrs() || a.NumRegs() != b.NumRegs() {
		t.Fatalf("same seed, different kernels: %d/%d instrs", a.NumInstrs(), b.NumInstrs())
	}
	for i := range a.Op {
		if a.Str(a.Mnemonic[i]) != b.Str(b.Mnemonic[i]) {
			t.Fatalf("instr %d differs", i)
		}
	}
}

func TestLargeKernel(t *testing.T) {
	m := gen.Kernel(gen.Config{Seed: 7, Size: 100000})
	f := gen.Func(m)
	if f.NumInstrs() < 100000 {
		t.Fatalf("only %d instructions", f.NumInstrs())
	}
	in := sim.MakeInput(f, 1, gen.OutBytes)
	in.Launch.Grid, in.Launch.Block = sim.Dim3{X: 1, Y: 1, Z: 1}, sim.Dim3{X: 64, Y: 1, Z: 1}
	if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
		t.Fatal(err)
	}
}
