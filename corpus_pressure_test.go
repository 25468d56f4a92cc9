package ptxopt_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/phases"
)

// pressureFigures are the register figures of one function that -O3 must
// not raise: the maximum live registers of the report (ptxopt -v's
// registers, predicates, uniform registers and uniform predicates: the
// R, P, UR and UP files as the uniformity analysis splits them), the
// maximum live per register class (core's pressure walk with registers
// counted by type: data and predicates, whatever their uniformity), and
// the registers declared per PTX type (what the printer declares: the
// register table).
type pressureFigures struct {
	fileR, fileP   int
	fileUR, fileUP int
	classR, classP int
	declared       map[string]int
	calls          int
	localBytes     int
}

func measurePressure(f *ir.Func, report ptxopt.RegFiles, localBytes int) pressureFigures {
	cl := phases.NewAnalyses(f).LiveClasses()
	pf := pressureFigures{fileR: report.R, fileP: report.P, fileUR: report.UR, fileUP: report.UP, classR: cl[ir.FileR], classP: cl[ir.FileP], declared: map[string]int{}, localBytes: localBytes}
	for r, t := range f.RegType {
		k := t.String()
		if v := f.RegVec[r]; v != 0 {
			k = fmt.Sprintf("v%d.%s", v, k)
		}
		pf.declared[k]++
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.InstrProps(i)&ir.PCall != 0 {
				pf.calls++
			}
		}
	}
	return pf
}

// raised lists what out has above ref (empty: nothing).
func (out pressureFigures) raised(ref pressureFigures) []string {
	var s []string
	add := func(name string, a, b int) {
		if b > a {
			s = append(s, fmt.Sprintf("%s %d->%d", name, a, b))
		}
	}
	add("max live R", ref.fileR, out.fileR)
	add("max live P", ref.fileP, out.fileP)
	add("max live UR", ref.fileUR, out.fileUR)
	add("max live UP", ref.fileUP, out.fileUP)
	add("max live data", ref.classR, out.classR)
	add("max live predicates", ref.classP, out.classP)
	var types []string
	for k := range out.declared {
		types = append(types, k)
	}
	slices.Sort(types)
	for _, k := range types {
		add("declared ."+k, ref.declared[k], out.declared[k])
	}
	return s
}

// larger is the larger of a and b in every figure.
func larger(a, b pressureFigures) pressureFigures {
	m := pressureFigures{fileR: max(a.fileR, b.fileR), fileP: max(a.fileP, b.fileP), fileUR: max(a.fileUR, b.fileUR), fileUP: max(a.fileUP, b.fileUP), classR: max(a.classR, b.classR), classP: max(a.classP, b.classP),
		declared: map[string]int{}, localBytes: max(a.localBytes, b.localBytes)}
	for _, d := range []map[string]int{a.declared, b.declared} {
		for k, v := range d {
			m.declared[k] = max(m.declared[k], v)
		}
	}
	return m
}

// runMeasured optimizes the module in src with opts and returns the
// figures of every function before (as parsed) and after.
func runMeasured(t *testing.T, path string, src []byte, opts ptxopt.Options) (in, out map[string]pressureFigures, ok bool) {
	t.Helper()
	p, err := ptxopt.NewPipeline(opts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.Parse(path, src)
	if err != nil {
		return nil, nil, false // not this test's business (the parser tests say why)
	}
	in, out = map[string]pressureFigures{}, map[string]pressureFigures{}
	before := map[string]*ir.Func{}
	for _, f := range m.IR.Funcs {
		if f.HasBody {
			before[f.Name] = f.Clone()
		}
	}
	rep, err := p.Run(context.Background(), m)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	for _, fr := range rep.Functions {
		f := m.Func(fr.Name)
		if f == nil || before[fr.Name] == nil {
			continue
		}
		in[fr.Name] = measurePressure(before[fr.Name], fr.MaxLiveIn, fr.LocalBytesIn)
		out[fr.Name] = measurePressure(f, fr.MaxLiveOut, fr.LocalBytesOut)
	}
	return in, out, true
}

// TestCorpusRegisterPressure: on every corpus function, -O3 raises
// neither the maximum live registers of any register file ptxopt -v
// reports (R, UR, P, UP), nor of the data and predicate classes, nor the registers
// declared of any PTX type, above the input's. Two exceptions, both where
// something else became registers:
//   - promotion: a function whose .local frame shrank (from its input,
//     or from what inlining made it) has memory in registers now; it is
//     not checked (the phases package's PressureRetry leaves it alone
//     too), only counted;
//   - inlining: a function that called a device function of its module
//     and has it inlined holds the callee's registers too (OriInline runs
//     on the module before the function's pipeline, which cannot undo
//     it); it is held to the larger of its input and what it is after
//     inlining alone (-O3 with OriInline as the only named phase, the SSA
//     conversions included).
//
// Every offending function is listed with its figures.
func TestCorpusRegisterPressure(t *testing.T) {
	files := testenv.CorpusFiles(t)
	var bad []string
	inlined, promoted := 0, 0
	n := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		in, out, ok := runMeasured(t, path, src, ptxopt.Options{Opt: ptxopt.O3})
		if !ok {
			continue
		}
		var inl map[string]pressureFigures
		names := make([]string, 0, len(out))
		for name := range out {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			n++
			ref := in[name]
			if out[name].calls < in[name].calls {
				if inl == nil {
					_, inl, _ = runMeasured(t, path, src, ptxopt.Options{Opt: ptxopt.O3, NamedPhases: []string{"OriInline"}})
				}
				ref = larger(ref, inl[name])
				inlined++
			}
			if out[name].localBytes < ref.localBytes {
				promoted++
				continue
			}
			r := out[name].raised(ref)
			if len(r) == 0 {
				continue
			}
			line := fmt.Sprintf("%s %s: %s", filepath.Base(path), shortName(name), strings.Join(r, ", "))
			bad = append(bad, line)
		}
	}
	t.Logf("%d functions: %d with their frame promoted to registers (not checked), %d with calls inlined (held to their figures after inlining)", n, promoted, inlined)
	if len(bad) > 0 {
		t.Errorf("%d functions have higher register figures after -O3 than before:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

func shortName(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
