package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/bench/pipeline"
	"github.com/ptxopt/ptxopt/bench/report"
)

func TestMain(m *testing.M) {
	pipeline.MaybeChild() // the scaling children are this test binary
	os.Exit(m.Run())
}

// The whole report at a tiny scale: every section, every file, the
// README section, and the raw results readable again.
func TestReportSmoke(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "results")
	// A quality suite of two kernels, laid out as bench/quality is.
	suite := filepath.Join(dir, "quality")
	for _, sub := range []string{"cuda", "testdata"} {
		if err := os.MkdirAll(filepath.Join(suite, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	from := filepath.Join("..", "..", "bench", "quality")
	copyFile := func(rel string) {
		data, err := os.ReadFile(filepath.Join(from, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(suite, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("testdata/VERSION")
	for _, k := range []string{"saxpy", "stencil1d"} {
		for _, f := range []string{"cuda/" + k + ".cu", "testdata/" + k + ".O0.ll", "testdata/" + k + ".O0.ptx", "testdata/" + k + ".llvm.ptx"} {
			copyFile(f)
		}
	}
	readme := filepath.Join(dir, "README.md")
	const before, after = "# Title\n\n## Benchmarks\n\n", "\n\n## Next\n\nkept\n"
	if err := os.WriteFile(readme, []byte(before+readmeBegin+"\nold text\n"+readmeEnd+after), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"-out", out, "-sizes", "200,100000,200000", "-memcap", "32", "-min-sample", "2ms", "-benchtime", "1ms",
		"-corpus", "gen", "-gen-set", "3", "-quality", suite, "-readme", readme}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	rep, err := os.ReadFile(filepath.Join(out, fileReport))
	if err != nil {
		t.Fatal(err)
	}
	text := string(rep)
	for _, want := range []string{
		"## Machine", "## Headline", "## The pipeline end to end", "### Where the time goes",
		"## Scaling on generated kernels", "## Bit-vector kernels", "## ptxopt and LLVM", "## How to rerun",
		"generated stand-in for the corpus (3 kernels",
		"| 200 |", "| done |", "memory: resident memory passed the 32 MiB cap", "skipped: a smaller size did not finish",
		"first size not finished (100,000 instructions)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	// Every plot names the machine: the CPU model and the bit-vector level.
	m := report.ThisMachine()
	for _, p := range []string{plotScaling, plotMemory, plotShares, plotBitvec} {
		data, err := os.ReadFile(filepath.Join(out, p))
		if err != nil || !bytes.Contains(data, []byte("<svg")) {
			t.Errorf("%s: %v", p, err)
		}
		if !bytes.Contains(data, []byte("bit vectors "+m.Level)) || m.CPU != "" && !bytes.Contains(data, []byte(m.CPU)) {
			t.Errorf("%s: the title does not name the machine (%q)", p, m.Label())
		}
		if !strings.Contains(text, "]("+p+")") {
			t.Errorf("REPORT.md does not show %s", p)
		}
	}
	f, err := os.Open(filepath.Join(out, fileRaw))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, err := report.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	// The scaling plot's parts are named, and the per-phase table gives
	// the spread of every cell.
	if !strings.Contains(text, "The plot draws the whole pipeline and only the 6 parts that cost most") {
		t.Error("REPORT.md does not say which parts the scaling plot draws")
	}
	_, phases, _ := strings.Cut(text, "### Every phase, ns per instruction")
	phases, _, _ = strings.Cut(phases, "\n## ")
	for _, part := range []string{partParse, partPrint} {
		i := strings.Index(phases, "| "+part+" |")
		if i < 0 {
			t.Errorf("per-phase table has no %s row", part)
			continue
		}
		row, _, _ := strings.Cut(phases[i:], "\n")
		if !strings.Contains(row, " [") || !strings.Contains(row, "–") {
			t.Errorf("per-phase row without min–max: %s", row)
		}
	}
	// The LLVM section: the comparison where an LLVM that reads clang-16's
	// IR is installed, else a line saying why not.
	switch l, err := pipeline.FindLLVM(); {
	case err != nil:
		if !strings.Contains(text, "Not measured: LLVM opt and llc not found") {
			t.Error("no LLVM, and the report does not say so")
		}
	case l.Major < 16:
		if !strings.Contains(text, "cannot read: install llvm-16 or newer") {
			t.Errorf("LLVM %d cannot read the suite's IR, and the report does not say so", l.Major)
		}
	default:
		for _, want := range []string{"The same 2 kernels go two ways", l.Version, "the IR is clang 16's", "| stencil1d |",
			fmt.Sprintf("(LLVM %d), in-process, on the 2 kernels of the -O0 quality suite", l.Major)} {
			if !strings.Contains(text, want) {
				t.Errorf("LLVM %d installed, but the comparison lacks %q", l.Major, want)
			}
		}
		if n := len(raw.Values("LLVM/all/opt-O2", "ns/op")); n != defaultCount {
			t.Errorf("raw.txt: %d results of LLVM/all/opt-O2, want %d", n, defaultCount)
		}
	}
	if strings.Contains(text, "waits for") {
		t.Error("REPORT.md still says the comparison waits for something")
	}
	for name, unit := range map[string]string{
		"Corpus/O3/j1":        "instrs/ms",
		"Corpus/O3/j2":        "instrs/ms",
		"PipelineScaling/200": "ns/instr",
		"Kernels/OrIfChanged/converged/65536/naive32": "MB/s",
	} {
		if n := len(raw.Values(name, unit)); n != defaultCount {
			t.Errorf("raw.txt: %d results of %s in %s, want %d", n, name, unit, defaultCount)
		}
	}
	if raw.ConfigValue("bitvec-level") == "" || raw.ConfigValue("goarch") == "" {
		t.Errorf("raw.txt configuration %v", raw.Config)
	}
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.HasPrefix(s, before+readmeBegin+"\n") || !strings.HasSuffix(s, readmeEnd+after) ||
		strings.Contains(s, "old text") || !strings.Contains(s, "| figure | value |") || !strings.Contains(s, "results/scaling.svg") {
		t.Errorf("README:\n%s", s)
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-count", "3"},
		{"-sections", "corpus,nope"},
		{"-sizes", "10"},
		{"-sizes", "1000,x"},
		{"extra"},
		{"-gen-set", "0"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
	c, err := parseFlags([]string{"-short", "-sizes", "3000,1000,3000"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.sizeBudget != shortDefaults.sizeBudget || len(c.sizes) != 2 || c.sizes[0] != 1000 || len(c.sections) != len(allSections) {
		t.Errorf("%+v", c)
	}
}

func TestUpdateReadmeNoMarkers(t *testing.T) {
	p := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(p, []byte("# nothing\n"), 0o644)
	if err := updateReadme(p, "x"); err == nil || !strings.Contains(err.Error(), "markers") {
		t.Errorf("err %v", err)
	}
}

// The report does not fail where no LLVM can take part: the LLVM section
// says why (no tools; tools too old for clang-16's IR) and the run
// succeeds. The old LLVM is a stand-in that only answers --version, as
// the version check comes before any run.
func TestReportWithoutLLVM(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "llvm-14")
	if err := os.Mkdir(old, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"opt", "llc"} {
		script := "#!/bin/sh\necho 'Debian LLVM version 14.0.6'\n"
		if err := os.WriteFile(filepath.Join(old, tool), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for bin, want := range map[string]string{
		filepath.Join(dir, "none"): "Not measured: " + filepath.Join(dir, "none", "opt") + " not found",
		old:                        "Not measured: bitonic_step.O0.ll: the IR is clang 16's, which LLVM 14 (" + filepath.Join(old, "opt") + ") cannot read: install llvm-16 or newer",
	} {
		out := filepath.Join(dir, "out-"+filepath.Base(bin))
		var stdout, stderr bytes.Buffer
		args := []string{"-out", out, "-sections", "llvm", "-llvm-bin", bin, "-quality", filepath.Join("..", "..", "bench", "quality")}
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d\n%s", bin, code, stderr.String())
		}
		rep, err := os.ReadFile(filepath.Join(out, fileReport))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(rep), want) {
			t.Errorf("%s: REPORT.md lacks %q", bin, want)
		}
	}
}
