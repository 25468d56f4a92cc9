package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ptxopt/ptxopt/internal/testenv"
)

// binary is the command, built once by TestMain; faultBinary is the
// same built with the ptxopt_faults tag (faults_on.go).
var binary, faultBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ptxopt-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "ptxopt")
	faultBinary = filepath.Join(dir, "ptxopt-faults")
	for _, b := range [][]string{{"-o", binary}, {"-tags", "ptxopt_faults", "-o", faultBinary}} {
		if out, err := exec.Command("go", append(append([]string{"build"}, b...), ".")...).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	code           int
	stdout, stderr string
}

// trackSources stats every Go file of the module. The binary is built
// by "go build", which the test cache does not see; the stats (logged
// once m.Run has started) make a change to any source invalidate the
// cached result.
var trackSources = sync.OnceFunc(func() {
	filepath.WalkDir(filepath.Join("..", ".."), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".ptx")) {
			os.Stat(p)
		}
		return nil
	})
})

func runCLI(t *testing.T, stdin []byte, args ...string) result {
	t.Helper()
	return runBin(t, binary, nil, stdin, args...)
}

// runBin runs bin with env added to the environment.
func runBin(t *testing.T, bin string, env []string, stdin []byte, args ...string) result {
	t.Helper()
	trackSources()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, so.String(), se.String()}
}

func example(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHelp(t *testing.T) {
	r := runCLI(t, nil, "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "exit codes:") || !strings.Contains(r.stdout, "130") {
		t.Errorf("--help: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "--version")
	if r.code != 0 || !regexp.MustCompile(`^ptxopt \S+.* \(go1\.\S+ \w+/\w+, bitvec \w+\)\n$`).MatchString(r.stdout) {
		t.Errorf("--version: %d %q", r.code, r.stdout)
	}
	r = runCLI(t, nil, "--help-phases")
	if r.code != 0 || !strings.Contains(r.stdout, "OriPerformLiveDeadFourth") || !strings.Contains(r.stdout, "HoistInvariants") {
		t.Errorf("--help-phases: %d\n%s", r.code, r.stdout)
	}
	r = runCLI(t, nil, "--help-knobs", "--sm", "sm_90")
	if r.code != 0 || !strings.Contains(r.stdout, "ReassociateCSEWindow") || !strings.Contains(r.stdout, "0x9000") {
		t.Errorf("--help-knobs: %d\n%s", r.code, r.stdout)
	}
	// Knobs no pass reads are marked (phases.KnobDef.Inert).
	for _, line := range strings.Split(r.stdout, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && (f[0] == "CopyPropForceGlobal") != strings.Contains(line, "[inert") && (f[0] == "CopyPropForceGlobal" || f[0] == "InlineMaxInstrs") {
			t.Errorf("--help-knobs: %q; want CopyPropForceGlobal marked inert and InlineMaxInstrs not", line)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--knob", "EnableGvnCs=1"}, "did you mean EnableGvnCse"},
		{[]string{"--knob", "ReassociateCSEWindow=0"}, "out of range"},
		{[]string{"--knob", "CopyPropBudget=lots"}, "wants a budget"},
		{[]string{"--disable-phase", "GvnCsee"}, "did you mean GvnCse"},
		{[]string{"--disable-phase", "CSSA"}, "required"},
		{[]string{"--sm", "sm80"}, "bad SM target"},
		{[]string{"-O7"}, "bad opt level"},
		{[]string{"--dump-ir=during:GvnCse"}, "bad dump selection"},
		{[]string{"--no-such-flag"}, "not defined"},
		{[]string{"-j", "2", "x.ptx"}, "needs -o OUTDIR"},
		{[]string{"-j", "0", "-o", "d", "x.ptx"}, "at least 1 worker"},
	} {
		r := runCLI(t, nil, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	kf := filepath.Join(t.TempDir(), "k.txt")
	write(t, kf, []byte("EnableGvnCse=1\nCopyPropBuget=3\n"))
	if r := runCLI(t, nil, "--knob-file", kf); r.code != 2 || !strings.Contains(r.stderr, "k.txt:2:") || !strings.Contains(r.stderr, "CopyPropBudget") {
		t.Errorf("knob file: %d %q", r.code, r.stderr)
	}
}

func TestSingleAndStdin(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "saxpy.ptx")
	write(t, in, example(t, "saxpy.ptx"))
	out := filepath.Join(dir, "out.ptx")
	r := runCLI(t, nil, in, "-o", out, "-O3", "--verify")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(got, []byte(".entry saxpy")) {
		t.Fatalf("output: %v\n%s", err, got)
	}
	// stdin → stdout, with "-" and without.
	for _, args := range [][]string{{"-O3"}, {"-O3", "-"}} {
		r = runCLI(t, example(t, "saxpy.ptx"), args...)
		if r.code != 0 || r.stdout != string(got) {
			t.Errorf("%v: exit %d, stdout differs from file mode: %s", args, r.code, r.stderr)
		}
	}
	// -v: the resource report.
	r = runCLI(t, nil, "-v", in, "-o", out)
	if r.code != 0 || !strings.Contains(r.stderr, "Function properties for saxpy") || !regexp.MustCompile(`Used \d+ registers`).MatchString(r.stderr) {
		t.Errorf("-v: %d\n%s", r.code, r.stderr)
	}
	// --dump-ir: the IR instead of PTX; --dump-ir=SPEC on stderr.
	r = runCLI(t, nil, "--dump-ir", in)
	if r.code != 0 || !strings.Contains(r.stdout, "saxpy") || strings.Contains(r.stdout, ".version") {
		t.Errorf("--dump-ir: %d\n%s", r.code, r.stdout)
	}
	r = runCLI(t, nil, "--dump-ir=after:GvnCse", in, "-o", out)
	if r.code != 0 || !strings.Contains(r.stderr, "after GvnCse: saxpy") {
		t.Errorf("--dump-ir=after:GvnCse: %d\n%s", r.code, r.stderr)
	}
	// A bad file: file:line:col: message, exit 1.
	bad := filepath.Join(dir, "bad.ptx")
	write(t, bad, []byte(".version 7.0\n.target sm_80\n.entry k() {\n  add.s32 %r1, ;\n}\n"))
	r = runCLI(t, nil, bad, "-o", filepath.Join(dir, "bad.out"))
	if r.code != 1 || !regexp.MustCompile(`bad\.ptx:\d+:\d+: `).MatchString(r.stderr) {
		t.Errorf("bad file: %d %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.out")); err == nil {
		t.Error("output written for a bad file")
	}
}

func TestReportJSON(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "rowsum.ptx")
	write(t, in, example(t, "rowsum.ptx"))
	r := runCLI(t, nil, in, "-o", filepath.Join(dir, "o.ptx"), "--report", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	keys := func(m any, want ...string) map[string]any {
		t.Helper()
		mm, ok := m.(map[string]any)
		if !ok {
			t.Fatalf("not an object: %v", m)
		}
		for _, k := range want {
			if _, ok := mm[k]; !ok {
				t.Errorf("missing key %q in %v", k, mm)
			}
		}
		return mm
	}
	keys(rep, "files", "total_ns")
	file := keys(rep["files"].([]any)[0], "path", "error", "functions")
	fn := keys(file["functions"].([]any)[0], "name", "instrs_in", "instrs_out", "regs_in", "regs_out",
		"maxlive_in", "maxlive_out", "local_bytes_in", "local_bytes_out", "phases")
	for _, k := range []string{"regs_in", "regs_out", "maxlive_in", "maxlive_out"} {
		keys(fn[k], "R", "UR", "P", "UP")
	}
	ph := fn["phases"].([]any)
	if len(ph) == 0 {
		t.Fatal("no phases in the report")
	}
	keys(ph[0], "name", "ns", "changed", "counters")
	if fn["name"] != "rowsum" {
		t.Errorf("function name %v", fn["name"])
	}
	// --report-file.
	rf := filepath.Join(dir, "r.json")
	if r := runCLI(t, nil, in, "-o", filepath.Join(dir, "o.ptx"), "--report-file", rf); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if b, err := os.ReadFile(rf); err != nil || !json.Valid(b) {
		t.Errorf("report file: %v", err)
	}
}

func listFiles(t *testing.T, root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func TestBatch(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	write(t, filepath.Join(src, "saxpy.ptx"), example(t, "saxpy.ptx"))
	write(t, filepath.Join(src, "sub", "rowsum.ptx"), example(t, "rowsum.ptx"))
	write(t, filepath.Join(src, "ro", "copy.ptx"), example(t, "saxpy.ptx"))
	write(t, filepath.Join(src, "bad.ptx"), []byte(".version 7.0\n.target sm_80\n.entry k()\n{\n\tmov.u32 %r1, ;\n}\n"))
	write(t, filepath.Join(src, "notes.txt"), []byte("not PTX"))
	single := filepath.Join(dir, "single.ptx")
	write(t, single, example(t, "rowsum.ptx"))

	out := filepath.Join(dir, "out")
	// A read-only directory where one output must go.
	ro := filepath.Join(out, "ro")
	if err := os.MkdirAll(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	blocker := "" // a file the test itself put in the output tree
	if f, err := os.CreateTemp(ro, "probe"); err == nil {
		// Running as root: permission bits do not stop writes. Make the
		// path unwritable for root too: "ro" becomes a regular file, so
		// the output directory out/ro cannot be created (ENOTDIR).
		f.Close()
		os.Remove(f.Name())
		os.Chmod(ro, 0o755)
		if err := os.Remove(ro); err != nil {
			t.Fatal(err)
		}
		write(t, ro, []byte("in the way"))
		blocker = "ro"
		t.Log("chmod does not block writes here (root): a file stands where the output directory must go")
	}

	r := runCLI(t, nil, "-j", "2", "-o", out, src, single)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (one bad file)\n%s", r.code, r.stderr)
	}
	if !regexp.MustCompile(`bad\.ptx:\d+:\d+: `).MatchString(r.stderr) {
		t.Errorf("bad file error not file:line:col: %s", r.stderr)
	}
	wantFailed := 2
	if !strings.Contains(r.stderr, "copy.ptx") {
		t.Errorf("unwritable output not reported: %s", r.stderr)
	}
	if !strings.Contains(r.stderr, fmt.Sprintf("ptxopt: 5 files: %d ok, %d failed;", 5-wantFailed, wantFailed)) || !strings.Contains(r.stderr, "instructions") {
		t.Errorf("summary: %s", r.stderr)
	}
	got := strings.Join(listFiles(t, out), " ")
	want := "saxpy.ptx single.ptx sub/rowsum.ptx"
	if blocker != "" {
		want = blocker + " " + want
	}
	if got != want {
		t.Errorf("outputs %q, want %q (nothing else written)", got, want)
	}

	// -o naming an existing directory means batch mode for one file.
	out2 := filepath.Join(dir, "out2")
	os.Mkdir(out2, 0o755)
	if r := runCLI(t, nil, single, "-o", out2); r.code != 0 || strings.Join(listFiles(t, out2), " ") != "single.ptx" {
		t.Errorf("-o DIR with one file: %d %s %v", r.code, r.stderr, listFiles(t, out2))
	}
}

// The output must not depend on the number of workers.
func TestBatchDeterministic(t *testing.T) {
	in := testenv.CorpusPath()
	if _, ok := testenv.OptionalCorpus(t); !ok {
		in = filepath.Join("..", "..", "examples")
	}
	dir := t.TempDir()
	o1, o2 := filepath.Join(dir, "j1"), filepath.Join(dir, "j2")
	r1 := runCLI(t, nil, "-j", "1", "-o", o1, in)
	r2 := runCLI(t, nil, "-j", "2", "-o", o2, in)
	if r1.code != r2.code {
		t.Fatalf("exit codes %d vs %d", r1.code, r2.code)
	}
	f1, f2 := listFiles(t, o1), listFiles(t, o2)
	if strings.Join(f1, " ") != strings.Join(f2, " ") || len(f1) == 0 {
		t.Fatalf("file lists differ: %v vs %v", f1, f2)
	}
	for _, f := range f1 {
		a, _ := os.ReadFile(filepath.Join(o1, f))
		b, _ := os.ReadFile(filepath.Join(o2, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 2", f)
		}
	}
}

func TestHTML(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "rowsum.ptx")
	write(t, in, example(t, "rowsum.ptx"))
	page := filepath.Join(dir, "view.html")
	r := runCLI(t, nil, in, "-o", filepath.Join(dir, "o.ptx"), "--html", "rowsum", "--html-out", page)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("</html>")) || !bytes.Contains(b, []byte("OriPerformLiveDeadFourth")) {
		t.Errorf("html page: %v\n%.400s", err, b)
	}
	if r := runCLI(t, nil, in, "-o", filepath.Join(dir, "o.ptx"), "--html", "nosuch", "--html-out", page); r.code != 1 || !strings.Contains(r.stderr, "nosuch") {
		t.Errorf("--html of a missing function: %d %s", r.code, r.stderr)
	}
}

// -o naming an input directory, through a link or not, or the directory
// of an input file, is refused before anything is read or written; a
// directory without PTX fails.
func TestBatchOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	in := filepath.Join(src, "saxpy.ptx")
	write(t, in, example(t, "saxpy.ptx"))
	if err := os.Symlink(src, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(in)
	for _, args := range [][]string{
		{"-o", src, src},
		{"-o", filepath.Join(dir, "link"), src},
		{"-o", src, filepath.Join(dir, "link")},
		{"-o", src + "/", src},
		{"-j", "1", "-o", src, in},
		{"-o", filepath.Join(dir, "link"), in},
	} {
		r := runCLI(t, nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "would") || !strings.Contains(r.stderr, "replace") && !strings.Contains(r.stderr, "over itself") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error saying the outputs would replace the inputs", args, r.code, r.stderr)
		}
		if got := strings.Join(listFiles(t, dir), " "); got != "link src/saxpy.ptx" {
			t.Errorf("%v: files now %q; nothing may be written", args, got)
		}
		if after, _ := os.ReadFile(in); !bytes.Equal(after, before) {
			t.Errorf("%v: the input changed", args)
		}
	}

	empty := filepath.Join(dir, "empty")
	write(t, filepath.Join(empty, "notes.txt"), []byte("no PTX here"))
	out := filepath.Join(dir, "out")
	r := runCLI(t, nil, "-o", out, empty)
	if r.code != 1 || !strings.Contains(r.stderr, empty+": no .ptx file in this directory") || !strings.Contains(r.stderr, "0 ok, 1 failed") {
		t.Errorf("empty directory: exit %d, stderr %q; want 1 and the directory named", r.code, r.stderr)
	}
	// With a good input beside it, the good one is still written.
	r = runCLI(t, nil, "-o", out, empty, in)
	if r.code != 1 || !strings.Contains(r.stderr, "1 ok, 1 failed") {
		t.Errorf("empty directory beside a file: exit %d, stderr %q", r.code, r.stderr)
	}
	if got := strings.Join(listFiles(t, out), " "); got != "saxpy.ptx" {
		t.Errorf("outputs %q, want saxpy.ptx", got)
	}
}

// --named-phases OriCopyProp (the bundles' copy propagation, named on its
// own as in the seeds) runs: the copy is propagated, the add of 0 is not
// folded (folding is another sub-pass).
func TestNamedSubPass(t *testing.T) {
	src := ".version 8.0\n.target sm_80\n.address_size 64\n" +
		".visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<3>;\n" +
		"ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %r1;\nadd.s32 %r3, %r2, 0;\n" +
		"st.global.u32 [%rd1], %r3;\nret;\n}\n"
	r := runCLI(t, []byte(src), "--named-phases", "OriCopyProp", "-")
	if r.code != 0 || !strings.Contains(r.stdout, "add.s32 %r3, %r1, 0;") {
		t.Errorf("--named-phases OriCopyProp: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "--help-phases")
	if !strings.Contains(r.stdout, "OriCopyProp") {
		t.Errorf("--help-phases does not list OriCopyProp:\n%s", r.stdout)
	}
}
