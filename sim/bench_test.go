package sim_test

import (
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/sim"
)

// BenchmarkSim runs a generated kernel; the metric is lane-instructions
// per second on one core.
func BenchmarkSim(b *testing.B) {
	f := gen.Func(gen.Kernel(gen.Config{Seed: 11, Size: 3000}))
	p, err := sim.Compile(f)
	if err != nil {
		b.Fatal(err)
	}
	in := sim.MakeInput(f, 1, gen.OutBytes)
	in.Launch.Grid, in.Launch.Block = sim.Dim3{X: 2, Y: 1, Z: 1}, sim.Dim3{X: 128, Y: 1, Z: 1}
	var lanes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := p.Run(&in.Launch, in.Mem)
		if err != nil {
			b.Fatal(err)
		}
		lanes += st.LaneInstrs
	}
	b.ReportMetric(float64(lanes)/b.Elapsed().Seconds(), "lane-instr/s")
}
