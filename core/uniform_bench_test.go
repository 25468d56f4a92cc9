//go:build linux

package core_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/phases"
)

// BenchmarkUniformity times the uniformity analysis alone on the kernels
// the pipeline hands it: the scaling benchmark's generated kernel (seed
// 1, pool 64, printed and parsed), run through the -O3 pipeline up to
// the phase named (OriDoPredication: SSA form, before the kill
// movement; DoKillMovement: after OutOfSSA's neighbours have reshaped
// it), 10K and 1M instructions (-short: 10K and 100K). The def-use
// chains, liveness and dominator trees are computed outside the timer,
// as the pipeline's analysis cache holds them; the result is computed
// into the same memory each time, as the cache does. Metrics: ns/instr
// (mean wall) and min-cpu-ns/instr (the least thread CPU time of the
// runs: moves less with a shared machine's load), per instruction of
// the input kernel. UNISWEEPS=n bounds the layout-order sweeps at n.
//
//	go test ./core -run '^$' -bench BenchmarkUniformity -benchtime 10x
func BenchmarkUniformity(b *testing.B) {
	sizes := []int{10_000, 1_000_000}
	if testing.Short() {
		sizes = []int{10_000, 100_000}
	}
	for _, phase := range []string{"OriDoPredication", "DoKillMovement"} {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/%d", phase, n), func(b *testing.B) {
				f, instrs := uniformityKernel(b, phase, n)
				if v := os.Getenv("UNISWEEPS"); v != "" {
					k, _ := strconv.Atoi(v)
					defer core.SetUniformitySweeps(core.SetUniformitySweeps(k))
				}
				du := core.ComputeDefUse(f)
				in := core.DivergenceInputs{Live: core.ComputeLiveness(f, core.LiveOptions{}), PostDom: core.PostDominators(f), Dom: core.Dominators(f)}
				div := func() core.DivergenceInputs { return in }
				var u *core.Uniformity
				u = core.ComputeUniformityInto(u, f, du, div)
				want := slices.Clone(u.Varying)
				best := leastThreadCPU(b, func() { u = core.ComputeUniformityInto(u, f, du, div) })
				if !slices.Equal(u.Varying, want) {
					b.Fatal("a recomputation into reused memory differs from the first")
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(instrs), "ns/instr")
				b.ReportMetric(float64(best)/float64(instrs), "min-cpu-ns/instr")
			})
		}
	}
}

var uniKernels = map[string]*ir.Func{}
var uniInstrs = map[string]int{}

// uniformityKernel returns the scaling kernel of n instructions as it
// stood when phase started in the -O3 pipeline, and the input kernel's
// instruction count.
func uniformityKernel(b *testing.B, phase string, n int) (*ir.Func, int) {
	key := fmt.Sprint(phase, n)
	if f, ok := uniKernels[key]; ok {
		return f, uniInstrs[key]
	}
	m, err := ptx.Parse("scaling.ptx", ptx.Format(gen.Kernel(gen.Config{Seed: 1, Size: n, Pool: 64})))
	if err != nil {
		b.Fatal(err)
	}
	f := gen.Func(m)
	instrs := f.NumInstrs() - f.NumDead()
	target, _ := phases.ParseTarget("sm_80")
	c, err := phases.NewConfig(phases.MaxOpt, target, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	i, _ := phases.Lookup(phase)
	fn := phases.Phases()[i].Fn
	var saved *ir.Func
	if err := c.Override(phase, func(p *phases.Pass) bool {
		if saved == nil {
			saved = p.F.Clone()
		}
		return fn(p)
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := phases.Run(context.Background(), c, nil, f, nil); err != nil {
		b.Fatal(err)
	}
	if saved == nil {
		b.Fatalf("%s did not run", phase)
	}
	saved.ComputeCFG()
	uniKernels[key], uniInstrs[key] = saved, instrs
	return saved, instrs
}
