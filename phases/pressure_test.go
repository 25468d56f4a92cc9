package phases

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// capBody is a loop body with eight invariant products of the loop's
// inputs, each read once in the loop: hoisting them all keeps eight more
// values live across the whole loop. capAfter, after the loop, has eight
// values live at once: the input's maximum is there, with room in the
// loop for some of the hoists, not all.
func capBody() string {
	var b strings.Builder
	for k := range 8 {
		fmt.Fprintf(&b, "mul.lo.u32 %%r%d, %%r2, %d;\n\tadd.u32 %%r6, %%r6, %%r%d;\n\t", 10+k, 3+k, 10+k)
	}
	return b.String()
}

func capAfter() string {
	var b strings.Builder
	for k := range 8 {
		fmt.Fprintf(&b, "xor.b32 %%r%d, %%r3, %d;\n\t", 10+k, 17+k)
	}
	b.WriteString("add.u32 %r18, %r10, %r11;\n\t")
	for k := 2; k < 8; k++ {
		fmt.Fprintf(&b, "add.u32 %%r18, %%r18, %%r%d;\n\t", 10+k)
	}
	b.WriteString("st.global.u32 [%rd4+4], %r18;")
	return b.String()
}

func liveClasses(f *ir.Func) [ir.NumFiles]int {
	f.ComputeCFG()
	return core.PressureTrace(core.ComputeLiveness(f, core.LiveOptions{}), nil).Max
}

// TestPressureGuardHoldsLICM: with PressureGuard on, LICM keeps only the
// hoists that fit the register cap (the input's maximum live registers):
// some invariants are hoisted, the rest held back, and the result has no
// more live registers than the input. Off, it hoists all eight and the
// maximum rises (what makes the test mean something).
func TestPressureGuardHoldsLICM(t *testing.T) {
	src := licmSrc("", capBody(), capAfter())
	_, off, _, offStats := runPass(t, src, "k", "OriHoistInvariantsLate", "PressureRetry=false")
	before, on, _, onStats := runPass(t, src, "k", "OriHoistInvariantsLate", "PressureGuard=true")
	in, mOff, mOn := liveClasses(before), liveClasses(off), liveClasses(on)
	hoistedOff := phaseCounter(offStats, "OriHoistInvariantsLate", "instructions hoisted")
	hoistedOn := phaseCounter(onStats, "OriHoistInvariantsLate", "instructions hoisted")
	held := phaseCounter(onStats, "OriHoistInvariantsLate", "transformations held back for register pressure")
	t.Logf("max live R: input %d, guard off %d (%d hoisted), guard on %d (%d hoisted, %d held back)", in[ir.FileR], mOff[ir.FileR], hoistedOff, mOn[ir.FileR], hoistedOn, held)
	if mOff[ir.FileR] <= in[ir.FileR] || hoistedOff < 8 {
		t.Fatalf("without the guard LICM should hoist all eight and raise pressure: hoisted %d, %d -> %d", hoistedOff, in[ir.FileR], mOff[ir.FileR])
	}
	if mOn[ir.FileR] > in[ir.FileR] {
		t.Errorf("with the guard max live R rose: %d -> %d", in[ir.FileR], mOn[ir.FileR])
	}
	if hoistedOn == 0 || held == 0 || hoistedOn >= hoistedOff {
		t.Errorf("the guard should keep a prefix: %d hoisted, %d held back (unguarded %d)", hoistedOn, held, hoistedOff)
	}
	simtest.CheckEquivalent(t, before, on, 6)
}

// TestPressureGuardBudget: PressureBudgetR raises the cap: with room for
// every hoist, nothing is held back.
func TestPressureGuardBudget(t *testing.T) {
	src := licmSrc("", capBody(), "")
	_, _, _, stats := runPass(t, src, "k", "OriHoistInvariantsLate", "PressureGuard=true", "PressureBudgetR=64")
	if held := phaseCounter(stats, "OriHoistInvariantsLate", "transformations held back for register pressure"); held != 0 {
		t.Errorf("%d hoists held back under a budget of 64", held)
	}
	if n := phaseCounter(stats, "OriHoistInvariantsLate", "instructions hoisted"); n < 8 {
		t.Errorf("%d hoisted, want 8", n)
	}
}

// TestPressureGuardWholePipeline: the whole -O3 pipeline with the guard on
// generated kernels: the checked program is the same as the input, no
// function leaves the guarded segment above its cap (the guarded phases
// replay where they exceeded), and dumps do not change the output (a
// replayed segment is dumped again, marked, but the function printed is
// the same).
func TestPressureGuardWholePipeline(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 8
	}
	target, _ := ParseTarget("sm_80")
	guard, err := ParseKnob("PressureGuard=true")
	if err != nil {
		t.Fatal(err)
	}
	on, err := NewConfig(MaxOpt, target, []KnobSetting{guard}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	on.Verify = true
	dumping, _ := NewConfig(MaxOpt, target, []KnobSetting{guard}, nil, nil)
	dumping.DumpW = &bytes.Buffer{}
	dumping.Dump, _ = ParseDumpSpec("all")
	replays := int64(0)
	for seed := range int64(n) {
		// from 8823: the first seed whose guarded segment exceeds the cap
		f := gen.Func(gen.Kernel(gen.Config{Seed: 8823 + seed, Size: 300 + int((8823+seed)%4)*100}))
		a, b := f.Clone(), f.Clone()
		stats, err := Run(context.Background(), on, nil, a, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		replays += counter(stats, "segment replayed for the register cap")
		if _, err := Run(context.Background(), dumping, nil, b, nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if ta, tb := funcText(a), funcText(b); ta != tb {
			t.Fatalf("seed %d: dumping changed the output", seed)
		}
		simtest.CheckEquivalent(t, f, a, 3)
	}
	t.Logf("%d kernels, %d segments replayed for the register cap", n, replays)
	if replays == 0 {
		t.Errorf("no segment was replayed on %d kernels: the replay path never ran", n)
	}
}

// TestPressureRetry: the default pipeline (PressureRetry) on generated
// kernels with redundancy injected for GvnCse to common (commoning
// lengthens live ranges; GvnCse runs here without its own pressure
// estimate, gvnpressure.go, which would otherwise keep most kernels
// within their cap and leave the retry nothing to do). A kernel whose unguarded run ends above its
// input's maximum live (classes, or the report's R and P files) is run
// again under the guard; the result is never further above that cap than
// the run without the retry leaves it, a kernel not run again is within
// its cap, and every result computes what its input does.
func TestPressureRetry(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 10
	}
	target, _ := ParseTarget("sm_80")
	noRetry, _ := ParseKnob("PressureRetry=false")
	on, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	on.Verify = true
	off, _ := NewConfig(MaxOpt, target, []KnobSetting{noRetry}, nil, nil)
	for _, c := range []*Config{on, off} {
		if err := c.Override("GvnCse", gvnCseUnheld); err != nil {
			t.Fatal(err)
		}
	}
	reruns, kept := 0, 0
	for seed := range int64(n) {
		f := gen.Func(gen.Kernel(gen.Config{Seed: 12000 + seed, Size: 300, Inject: gen.Dominated}))
		capLive := pressureCap(on.Knobs, byFiles.of(NewAnalyses(f.Clone())))
		a, b := f.Clone(), f.Clone()
		stats, err := Run(context.Background(), on, nil, a, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if _, err := Run(context.Background(), off, nil, b, nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		guarded := counter(stats, "pipeline run again for the register cap (guarded result kept)")
		rerun := guarded + counter(stats, "pipeline run again for the register cap (unguarded result kept)")
		ea, eb := excess(byFiles.of(NewAnalyses(a)), capLive), excess(byFiles.of(NewAnalyses(b)), capLive)
		switch {
		case rerun == 0 && ea > 0:
			t.Errorf("seed %d: ends %d above its cap and was not run again", seed, ea)
		case ea > eb:
			t.Errorf("seed %d: the retry left it %d above its cap, the pipeline without it %d", seed, ea, eb)
		}
		if rerun > 0 {
			reruns++
		}
		if guarded > 0 {
			kept++
		}
		simtest.CheckEquivalent(t, f, a, 3)
	}
	t.Logf("%d kernels, %d run again under the guard (%d kept the guarded result)", n, reruns, kept)
	if kept == 0 {
		t.Errorf("no kernel was run again with its guarded result kept: the retry never ran")
	}
}

// gvnCseUnheld is GvnCse as if no register cap held the function: its
// pressure estimate off, every commoning it finds made.
func gvnCseUnheld(p *Pass) bool {
	held := p.regCapSet
	p.regCapSet = false
	defer func() { p.regCapSet = held }()
	return gvnCse(p)
}
