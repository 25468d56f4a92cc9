package phases

import (
	"context"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
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
