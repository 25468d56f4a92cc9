package ptxopt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/phases"
)

func inputs(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	paths, _ := filepath.Glob("examples/*.ptx")
	testenv.OptionalCorpus(t) // under CI the corpus must be there
	corpus, _ := filepath.Glob(filepath.Join(testenv.CorpusPath(), "*ZLUDA*.ptx"))
	for _, p := range append(paths, corpus...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = b
	}
	if len(files) < 2 {
		t.Fatal("no inputs")
	}
	return files
}

// One Pipeline, many goroutines, different modules: the same bytes as a
// sequential run.
func TestConcurrentUse(t *testing.T) {
	p, err := NewPipeline(Options{Opt: O3, Verify: false})
	if err != nil {
		t.Fatal(err)
	}
	files := inputs(t)
	want := map[string][]byte{}
	for name, src := range files {
		out, _, err := p.Optimize(context.Background(), name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want[name] = out
	}
	var wg sync.WaitGroup
	for range 4 {
		for name, src := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, _, err := p.Optimize(context.Background(), name, src)
				if err != nil || !bytes.Equal(out, want[name]) {
					t.Errorf("%s: concurrent run differs (%v)", name, err)
				}
			}()
		}
	}
	wg.Wait()
}

func TestO0RoundTrip(t *testing.T) {
	for name, src := range inputs(t) {
		m, err := ptx.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := Optimize(context.Background(), src, Options{Opt: O0, Path: name})
		if err != nil || !bytes.Equal(out, ptx.Format(m)) {
			t.Errorf("%s: -O0 is not parse+print (%v)", name, err)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src, _ := os.ReadFile("examples/saxpy.ptx")
	_, rep, err := Optimize(ctx, src, Options{})
	if !errors.Is(err, context.Canceled) || rep.Files[0].Error == "" {
		t.Fatalf("got %v", err)
	}
	// With a cause, the error names the module and the cause, not
	// "context canceled".
	stop := errors.New("interrupted by SIGTERM")
	ctx, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(stop)
	_, rep, err = Optimize(ctx, src, Options{Path: "saxpy.ptx"})
	if !errors.Is(err, stop) || err.Error() != "saxpy.ptx: interrupted by SIGTERM" || rep.Files[0].Error != err.Error() {
		t.Fatalf("got %v; want saxpy.ptx: interrupted by SIGTERM", err)
	}
}

func TestErrors(t *testing.T) {
	_, rep, err := Optimize(context.Background(), []byte(".version 7.0\n.target sm_80\n.entry k() {\n  bogus %r1 ;\n"), Options{Path: "x.ptx"})
	if err == nil || !regexp.MustCompile(`^x\.ptx:\d+:\d+: `).MatchString(err.Error()) || rep.Files[0].Error != err.Error() {
		t.Errorf("parse error: %v", err)
	}
	var oe *OptionError
	for _, o := range []Options{{SM: "sm8"}, {Knobs: []string{"EnableGvnCse=2"}}, {DisablePhases: []string{"IntoSSA"}},
		{NamedPhases: []string{"Nope"}}, {DumpIR: "x"}, {Opt: 9}, {KnobFile: "/nonexistent/knobs"}} {
		if _, err := NewPipeline(o); !errors.As(err, &oe) {
			t.Errorf("%+v: %v is not an OptionError", o, err)
		}
	}
	if _, err := LevelOf(4); err == nil {
		t.Error("LevelOf(4)")
	}
}

// A panicking phase becomes an error naming the phase, the function and
// the file.
func TestPhasePanic(t *testing.T) {
	src, _ := os.ReadFile("examples/saxpy.ptx")
	p, err := NewPipeline(Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.override = map[string]phases.PassFunc{"GvnCse": func(*phases.Pass) bool { panic("invariant broken") }}
	p.cfgs.Clear() // NewPipeline checked (and cached) a configuration without it
	_, fr, err := p.Optimize(context.Background(), "saxpy.ptx", src)
	rep := &Report{Files: []FileReport{*fr}}
	if err == nil || !strings.Contains(err.Error(), "saxpy.ptx: phase GvnCse, function saxpy: panic: invariant broken") {
		t.Fatalf("got %v", err)
	}
	if len(rep.Files[0].Functions) != 1 {
		t.Error("report lost the function")
	}
}

func TestReportSchema(t *testing.T) {
	src, _ := os.ReadFile("examples/rowsum.ptx")
	_, rep, err := Optimize(context.Background(), src, Options{Path: "rowsum.ptx"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, k := range []string{`"files"`, `"path": "rowsum.ptx"`, `"error": ""`, `"functions"`, `"name": "rowsum"`,
		`"instrs_in"`, `"instrs_out"`, `"regs_in"`, `"regs_out"`, `"maxlive_in"`, `"maxlive_out"`, `"R"`, `"UR"`, `"P"`, `"UP"`,
		`"local_bytes_in"`, `"local_bytes_out"`, `"phases"`, `"ns"`, `"changed": false`, `"counters": {}`, `"total_ns"`} {
		if !strings.Contains(s, k) {
			t.Errorf("report lacks %s", k)
		}
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Files[0].Functions[0].Phases) == 0 {
		t.Errorf("round trip: %v", err)
	}
	tot := rep.Totals()
	if tot.OK != 1 || tot.Functions != 1 || tot.InstrsIn == 0 || tot.MaxLiveRIn == 0 {
		t.Errorf("totals %+v", tot)
	}
}

// TestPhaseCPU: Options.PhaseCPU fills each phase's CPU time on Linux
// (the benchmark report's per-phase CPU figures come from it) and leaves
// it out of the report otherwise.
func TestPhaseCPU(t *testing.T) {
	src, _ := os.ReadFile("examples/rowsum.ptx")
	cpuOf := func(on bool) (sum int64) {
		_, rep, err := Optimize(context.Background(), src, Options{Path: "rowsum.ptx", Opt: O3, PhaseCPU: on})
		if err != nil {
			t.Fatal(err)
		}
		for _, ph := range rep.Files[0].Functions[0].Phases {
			if ph.CPUNS < 0 {
				t.Errorf("%s: CPU time %d", ph.Name, ph.CPUNS)
			}
			sum += ph.CPUNS
		}
		return sum
	}
	if off := cpuOf(false); off != 0 {
		t.Errorf("CPU time measured without PhaseCPU: %d ns", off)
	}
	if on := cpuOf(true); runtime.GOOS == "linux" && on <= 0 {
		t.Errorf("PhaseCPU on Linux measured no CPU time")
	}
}

func TestHTMLView(t *testing.T) {
	var page bytes.Buffer
	src, _ := os.ReadFile("examples/rowsum.ptx")
	if _, _, err := Optimize(context.Background(), src, Options{HTMLFunc: "rowsum", HTMLW: &page}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<svg") {
		t.Error("no plot in the HTML view")
	}
	if _, _, err := Optimize(context.Background(), src, Options{HTMLFunc: "other", HTMLW: &page}); err == nil {
		t.Error("HTML view of a missing function")
	}
}

// TestParseChecksInput: text that parses but is not valid PTX is rejected
// by Parse (and so by Optimize) at the instruction's source position.
func TestParseChecksInput(t *testing.T) {
	src := ".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tadd.s32 %r1, %r2;\n\tret;\n}\n"
	_, err := Parse("bad.ptx", []byte(src))
	if err == nil || !strings.HasPrefix(err.Error(), "bad.ptx:7:2: add takes 3 operands, found 2") {
		t.Fatalf("Parse: %v", err)
	}
	if _, _, err := Optimize(context.Background(), []byte(src), Options{Path: "bad.ptx"}); err == nil {
		t.Fatal("Optimize accepted invalid PTX")
	}
}

// Functions of one module optimized by several workers give the same
// bytes and the same reports (timings aside) as one worker.
func TestWorkersSameOutput(t *testing.T) {
	paths := testenv.CorpusFiles(t)
	one, err := NewPipeline(Options{Opt: O3})
	if err != nil {
		t.Fatal(err)
	}
	many, err := NewPipeline(Options{Opt: O3, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, p := range paths {
		src, _ := os.ReadFile(p)
		a, ra, errA := one.Optimize(context.Background(), p, src)
		b, rb, errB := many.Optimize(context.Background(), p, src)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("%s: errors differ: %v / %v", p, errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: output differs between 1 and 4 workers", p)
		}
		if len(ra.Functions) != len(rb.Functions) {
			t.Fatalf("%s: %d vs %d function reports", p, len(ra.Functions), len(rb.Functions))
		}
		for k := range ra.Functions {
			x, y := ra.Functions[k], rb.Functions[k]
			x.Phases, y.Phases = nil, nil
			if x.Name != y.Name || x.InstrsOut != y.InstrsOut || x.MaxLiveOut != y.MaxLiveOut || x.RegsOut != y.RegsOut {
				t.Fatalf("%s: function %d reports differ: %+v / %+v", p, k, x, y)
			}
		}
		if len(ra.Functions) > 1 {
			multi++
		}
	}
	if multi == 0 {
		t.Fatal("no corpus file with several functions: nothing ran in parallel")
	}
}

// TestVerifyCorpus: every corpus file that parses runs -O3 with the
// verifier after every phase (IR, SSA form, the analysis cache, the
// "changed" flag) and comes out clean. The one corpus file that is not
// valid PTX must stay an input error.
func TestVerifyCorpus(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine over the corpus: nothing for the race detector (see race_on_test.go)")
	}
	p, err := NewPipeline(Options{Opt: O3, Verify: true, Measure: MeasureNone})
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for _, path := range testenv.CorpusFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = p.Optimize(context.Background(), path, src)
		if filepath.Base(path) == "oxrinz__ryulang__example.ptx" {
			if err == nil {
				t.Errorf("%s: the invalid mul.wide.u64 was accepted", path)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		ok++
	}
	t.Logf("%d files clean under --verify at -O3", ok)
}

// TestSharedPipelineKey: the one-call Optimize reuses a Pipeline only for
// the same options. Each field that changes what a run does must be in
// sharedPipeline's key (PhaseCPU was missing once: the report of a call
// with it on came from a Pipeline built without it). A field added to
// Options fails here until it is listed.
func TestSharedPipelineKey(t *testing.T) {
	changed := map[string]Options{
		"Opt":           {Opt: O1},
		"SM":            {SM: "sm_90"},
		"Knobs":         {Knobs: []string{"EnableGvnCse=false"}},
		"DisablePhases": {DisablePhases: []string{"GvnCse"}},
		"NamedPhases":   {NamedPhases: []string{"GvnCse"}},
		"Verify":        {Verify: true},
		"PhaseCPU":      {PhaseCPU: true},
		"DumpIR":        {DumpIR: "all"},
		"Measure":       {Measure: MeasureCounts},
		"Workers":       {Workers: 2},
		"Limits":        {Limits: &NoLimits},
	}
	// Not in the key, and why: a writer or a knob file always gets a new
	// Pipeline; the HTML function matters only with its writer; the path
	// only names the input.
	outside := []string{"KnobFile", "DumpW", "HTMLW", "HTMLFunc", "Path"}
	base, err := sharedPipeline(Options{})
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[Options]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		opts, ok := changed[name]
		if !ok {
			if !slices.Contains(outside, name) {
				t.Errorf("Options.%s: neither in the key test nor listed as outside the key", name)
			}
			continue
		}
		p, err := sharedPipeline(opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p == base {
			t.Errorf("Options.%s set: the shared Pipeline of the zero options came back", name)
		}
	}
}

// TestSharedPipelineReuse: equal options share one Pipeline (lists equal
// element by element, not by identity), lists that only join to the same
// text do not, and finding the shared Pipeline of options without lists
// allocates nothing (the embedding's per-call cost).
func TestSharedPipelineReuse(t *testing.T) {
	a, err := sharedPipeline(Options{Opt: O2, DisablePhases: []string{"GvnCse", "LateOriCommoning"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := sharedPipeline(Options{Opt: O2, DisablePhases: []string{"GvnCse", "LateOriCommoning"}})
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("equal options got two Pipelines")
	}
	for _, other := range [][]string{{"GvnCse"}, {"LateOriCommoning", "GvnCse"}, {"GvnCse", "LateOriCommoning", "GvnCse"}} {
		c, err := sharedPipeline(Options{Opt: O2, DisablePhases: other})
		if err != nil {
			t.Fatal(err)
		}
		if c == a {
			t.Errorf("DisablePhases %q shares the Pipeline of [GvnCse LateOriCommoning]", other)
		}
	}
	// The key's encoding of lists is one-to-one.
	lists := [][]string{nil, {""}, {"", ""}, {"a", "b"}, {"ab"}, {"a", "1:b"}, {"a1:b"}, {"1:a", "b"}}
	seen := map[string][]string{}
	for _, l := range lists {
		k := joinKey(l)
		if prev, ok := seen[k]; ok {
			t.Errorf("lists %q and %q have one key %q", prev, l, k)
		}
		seen[k] = l
	}
	opts := Options{Opt: O3}
	if _, err := sharedPipeline(opts); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { sharedPipeline(opts) }); n != 0 {
		t.Errorf("finding the shared Pipeline allocates %v times", n)
	}
}
