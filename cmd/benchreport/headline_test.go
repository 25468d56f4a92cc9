package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/bench/pipeline"
	"github.com/ptxopt/ptxopt/bench/report"
)

// The scaling headline names every phase over the target, a phase too
// small for the plots included (with its size), and says "every phase
// within" only when none is over.
func TestRatioHeadlineSmallPhases(t *testing.T) {
	type phase struct {
		name          string
		base, top     float64 // ns per instruction at the two sizes
		baseCPU, topC float64
	}
	build := func(phases []phase) (*reportRun, *pipeline.SizeResult, *pipeline.SizeResult) {
		r := &reportRun{raw: &report.Set{}}
		var split pipeline.Split
		for _, p := range phases {
			split.Phases = append(split.Phases, pipeline.PhaseTime{Name: p.name})
		}
		sizes := []int{10_000, 1_000_000}
		for k, size := range sizes {
			r.scaling.results = append(r.scaling.results, pipeline.SizeResult{
				Spec: pipeline.SizeSpec{Size: size}, Instrs: size,
				Samples: []pipeline.SizeSample{{Iters: 1, Split: split}}})
			r.raw.Add(fmt.Sprintf("PipelineScaling/%d", size), 1,
				report.Metric{Value: 5000, Unit: "ns/instr"}, report.Metric{Value: 5000, Unit: "cpu-ns/instr"})
			for _, part := range []string{partParse, partOther, partPrint} {
				r.raw.Add(fmt.Sprintf("PipelineScalingPhase/%s/%d", part, size), 1, report.Metric{Value: 100, Unit: "ns/instr"})
			}
			for _, p := range phases {
				ns, cpu := p.base, p.baseCPU
				if k == 1 {
					ns, cpu = p.top, p.topC
				}
				r.raw.Add(fmt.Sprintf("PipelineScalingPhase/%s/%d", p.name, size), 1,
					report.Metric{Value: ns, Unit: "ns/instr"}, report.Metric{Value: cpu, Unit: "cpu-ns/instr"})
			}
		}
		return r, &r.scaling.results[0], &r.scaling.results[1]
	}

	r, base, top := build([]phase{{"Big", 1000, 1200, 1000, 1200}, {"Tiny", 1.2, 2.7, 1.2, 2.7}})
	h := r.ratioHeadline(base, top)
	if !strings.Contains(h, "Tiny 2.25") || !strings.Contains(h, "under 0.1% of the pipeline: 1.2 → 2.7 ns/instr") {
		t.Errorf("a small phase over the target is not named with its size: %s", h)
	}
	if strings.Contains(h, "every phase within") || strings.Contains(h, "Big") {
		t.Errorf("headline: %s", h)
	}

	// a phase settled (not run) at the base size has no ratio, and the
	// headline says so rather than leaving it out
	r, base, top = build([]phase{{"Big", 1000, 1200, 1000, 1200}, {"Skipped", 0, 150, 0, 150}})
	if h := r.ratioHeadline(base, top); !strings.Contains(h, "no ratio for Skipped (skipped as settled at 10000 instructions, run at 1000000)") {
		t.Errorf("a phase run only at the top size is not named: %s", h)
	}

	r, base, top = build([]phase{{"Big", 1000, 1200, 1000, 1200}, {"Tiny", 1.2, 1.5, 1.2, 1.5}})
	if h := r.ratioHeadline(base, top); !strings.Contains(h, "every phase within in CPU time") || !strings.Contains(h, "every part within in wall time") {
		t.Errorf("nothing over the target, but the headline says: %s", h)
	}
}
