package phases

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// dceHeader is the module header the pass tests put before their kernels.
const dceHeader = ".version 8.0\n.target sm_80\n.address_size 64\n"

// runPass parses src (after dceHeader), checks it, runs phase alone (with
// the required phases, -O3, verifier on, knob settings "Name=Value") on
// function fn ("" for the first function), and returns the function
// before and after, the printed instructions of the result, and the
// phase statistics.
func runPass(t *testing.T, src, fn, phase string, knobs ...string) (before, after *ir.Func, body string, stats []PhaseStat) {
	t.Helper()
	return runPassHooks(t, nil, src, fn, phase, knobs...)
}

// runPassHooks is runPass with the test hooks h (nil: none) on the
// configuration.
func runPassHooks(t *testing.T, h *testHooks, src, fn, phase string, knobs ...string) (before, after *ir.Func, body string, stats []PhaseStat) {
	t.Helper()
	text := []byte(dceHeader + src)
	m, err := ptx.Parse("pass.ptx", text)
	if err != nil {
		t.Fatal(err)
	}
	if err := ptx.Check("pass.ptx", text, m); err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Funcs {
		if (fn == "" && f.HasBody && after == nil) || f.Name == fn {
			before, after = f.Clone(), f
		}
	}
	if after == nil {
		t.Fatalf("no function %q", fn)
	}
	var settings []KnobSetting
	for _, k := range knobs {
		s, err := ParseKnob(k)
		if err != nil {
			t.Fatal(err)
		}
		settings = append(settings, s)
	}
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, settings, nil, []string{phase})
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	c.hooks = h
	if stats, err = Run(context.Background(), c, nil, after, nil); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, blk := range after.Layout {
		for i := range after.Instrs(blk) {
			b.WriteString(after.FormatInstr(i))
			b.WriteByte('\n')
		}
	}
	return before, after, b.String(), stats
}

// phaseCounter sums the counter name over the statistics of the phases
// whose name starts with prefix ("" for all).
func phaseCounter(stats []PhaseStat, prefix, name string) int64 {
	var n int64
	for _, s := range stats {
		if !strings.HasPrefix(s.Name, prefix) {
			continue
		}
		for _, c := range s.Counters {
			if c.Name == name {
				n += c.N
			}
		}
	}
	return n
}

// counter sums the counter name over all phases.
func counter(stats []PhaseStat, name string) int64 { return phaseCounter(stats, "", name) }

// checkGenerated runs phase alone, and the whole pipeline, on n generated
// kernels (seeds from firstSeed, n smaller under -short, sizes from size)
// and fails on any run the simulator tells apart from the original, on
// any version that changed a kernel without the check running the change
// (after extra seeds), and when the phase alone never counted name. It
// returns the counter name summed over the runs of the phase alone and of
// the whole pipeline.
func checkGenerated(t *testing.T, phase, name string, firstSeed int64, size func(seed int64) int) (alone, whole int64) {
	t.Helper()
	return checkGeneratedWith(t, phase, name, func(seed int64) gen.Config { return gen.Config{Seed: firstSeed + seed, Size: size(seed)} })
}

// checkGeneratedWith is checkGenerated on the kernels cfg describes (the
// n-th kernel is gen.Kernel(cfg(n))).
func checkGeneratedWith(t *testing.T, phase, name string, cfg func(n int64) gen.Config) (alone, whole int64) {
	t.Helper()
	return checkGeneratedRun(t, genCheck{named: []string{phase}, counter: name, cfg: cfg})
}

// genCheck says what checkGeneratedRun runs on generated kernels.
type genCheck struct {
	// named: the phases of the "alone" run (with the required ones);
	// counter: the counter summed over the runs.
	named   []string
	counter string
	cfg     func(n int64) gen.Config
	// prepare, when not nil, adjusts the configuration of the "alone"
	// run (a probe through Config.Override, say) before the kernels.
	prepare func(only *Config)
	// inspect, when not nil, sees each kernel as generated, its
	// injections, and the result of each run (whole: the whole pipeline;
	// otherwise the named phases alone).
	inspect func(seed int64, whole bool, injs []gen.Injection, before, after *ir.Func)
	// knobs, when not nil, are set in both runs.
	knobs []KnobSetting
	// mutate, when not nil, turns each generated module into the
	// kernel the runs start from (a shape the generator does not make,
	// added to its kernels).
	mutate func(t *testing.T, m *ir.Module) *ir.Func
}

// checkGeneratedRun runs the named phases alone, and the whole pipeline,
// on the kernels of gc (see checkGenerated) behind the simulator's check.
func checkGeneratedRun(t *testing.T, gc genCheck) (alone, whole int64) {
	t.Helper()
	phase := strings.Join(gc.named, "+")
	name := gc.counter
	n := int64(40)
	if testing.Short() {
		n = 10
	}
	// long runs: PTXOPT_GEN_KERNELS kernels from the PTXOPT_GEN_FROM-th,
	// stopping after PTXOPT_GEN_SECONDS
	n = envCount(t, "PTXOPT_GEN_KERNELS", n)
	from := envCount(t, "PTXOPT_GEN_FROM", 0)
	deadline := envDeadline(t, "PTXOPT_GEN_SECONDS")
	target, _ := ParseTarget("sm_80")
	only, err := NewConfig(MaxOpt, target, gc.knobs, nil, gc.named)
	if err != nil {
		t.Fatal(err)
	}
	all, err := NewConfig(MaxOpt, target, gc.knobs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	only.Verify, all.Verify = true, true
	if gc.prepare != nil {
		gc.prepare(only)
	}
	sc := NewScratch()
	ran, total := 0, 0
	checked := int64(0)
	for seed := from; seed < from+n; seed++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			t.Logf("time budget spent")
			break
		}
		checked++
		m, injs := gen.Generate(gc.cfg(seed))
		f := gen.Func(m)
		if gc.mutate != nil {
			f = gc.mutate(t, m)
		}
		for _, c := range []*Config{only, all} {
			after := f.Clone()
			stats, err := Run(context.Background(), c, sc, after, nil)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if c == only {
				alone += counter(stats, name)
			} else {
				whole += counter(stats, name)
			}
			if gc.inspect != nil {
				gc.inspect(seed, c == all, injs, f, after)
			}
			res, err := sim.Diff(f, after, sim.DiffOptions{Seeds: 3, ExtraSeeds: simtest.ExtraSeeds})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			what := phase + " alone"
			if c == all {
				what = "whole pipeline"
			}
			if res.Mismatch != nil {
				t.Fatalf("seed %d, %s: changes what the kernel computes: %v", seed, what, res.Mismatch)
			}
			if msg := simtest.Verdict(res); msg != "" {
				t.Fatalf("seed %d, %s: the change was not checked: %s", seed, what, msg)
			}
			r, tot := res.Executed()
			ran += r
			total += tot
		}
	}
	t.Logf("%s: %q %d alone, %d in the whole pipeline, over %d kernels; %d of %d changed instructions executed", phase, name, alone, whole, checked, ran, total)
	if alone == 0 {
		t.Errorf("%s alone never counted %q on %d generated kernels", phase, name, checked)
	}
	return alone, whole
}

// envCount reads a positive count from the environment variable name, or
// returns def when it is unset.
func envCount(t *testing.T, name string, def int64) int64 {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		t.Fatalf("%s=%q: want a count", name, s)
	}
	return v
}

// envDeadline returns now plus the seconds in the environment variable
// name, or the zero time when it is unset.
func envDeadline(t *testing.T, name string) time.Time {
	t.Helper()
	if s := envCount(t, name, 0); s > 0 {
		return time.Now().Add(time.Duration(s) * time.Second)
	}
	return time.Time{}
}

// skipUnderRace skips a single-goroutine test of what the phases compute
// when the race detector is on (see race_on_test.go): the detector finds
// nothing there, and the test runs without it in the main suite.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("one goroutine, minutes under the race detector: run without -race")
	}
}
