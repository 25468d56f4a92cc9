package gen_test

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
)

// Kernels with frames run to completion, reach the frame the way clang -O0
// does, and parse back from their printed text.
func TestFramesRun(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	dyn := 0
	for seed := int64(0); seed < int64(n); seed++ {
		size := 80 + int(seed%5)*70
		m := gen.Kernel(gen.Config{Seed: seed, Size: size, Frames: true})
		text := string(ptx.Format(m))
		for _, want := range []string{"__local_depot0", "cvta.local.u64 %SP, %SPL;", "[%SP+", "cvta.global.u64"} {
			if !strings.Contains(text, want) {
				t.Fatalf("seed %d: no %q in\n%s", seed, want, text)
			}
		}
		if strings.Contains(text, "mul.wide.u32") && strings.Contains(text, "and.b32") {
			dyn++
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
}

// Frames is off by default: no depot, no %SP.
func TestNoFramesByDefault(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		text := string(ptx.Format(gen.Kernel(gen.Config{Seed: seed, Size: 300})))
		if strings.Contains(text, "__local_depot") || strings.Contains(text, "%SP") {
			t.Fatalf("seed %d: a frame without Frames", seed)
		}
	}
}
