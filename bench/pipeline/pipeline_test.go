package pipeline

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/bench/quality"
	"github.com/ptxopt/ptxopt/internal/testenv"
)

func TestMain(m *testing.M) {
	MaybeChild()
	os.Exit(m.Run())
}

func testChild(t *testing.T) Child {
	t.Helper()
	c, err := SelfChild()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRunPass(t *testing.T) {
	ins := GeneratedSet(4)
	if Total(ins) < 4*400 {
		t.Fatalf("generated set has %d instructions", Total(ins))
	}
	p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: ptxopt.O3})
	if err != nil {
		t.Fatal(err)
	}
	planned, _ := p.Phases("")
	for _, w := range []int{1, 2} {
		ps, err := RunPass(context.Background(), p, ins, w)
		if err != nil {
			t.Fatal(err)
		}
		if ps.Instrs != Total(ins) || ps.WallNS <= 0 || ps.Mallocs == 0 || ps.Bytes == 0 {
			t.Errorf("workers %d: %+v", w, ps)
		}
		s := &ps.Split
		if s.ParseNS <= 0 || s.PrintNS <= 0 || s.RunNS < s.PhasesNS() || s.PhasesNS() <= 0 {
			t.Errorf("workers %d: split %+v", w, s)
		}
		// Every planned phase shows up, once, in pipeline order.
		var names []string
		for _, ph := range s.Phases {
			names = append(names, ph.Name)
		}
		if strings.Join(names, ",") != strings.Join(planned, ",") {
			t.Errorf("workers %d: phases %v, want %v", w, names, planned)
		}
	}
	bad := []Input{{Name: "bad.ptx", Src: []byte(".version 8.0\n.target sm_80\n.address_size 64\n.entry k( {\n")}}
	if _, err := RunPass(context.Background(), p, bad, 1); err == nil || !strings.Contains(err.Error(), "bad.ptx") {
		t.Errorf("bad input: err %v", err)
	}
}

func TestSplitAdd(t *testing.T) {
	var a, b Split
	a.addPhase("A", 1, 0)
	a.addPhase("B", 2, 5)
	b.addPhase("B", 10, 7)
	b.addPhase("C", 20, 0)
	b.ParseNS, b.RunNS, b.PrintNS = 1, 40, 3
	a.Add(&b)
	if got := a.Phases; len(got) != 3 || got[0] != (PhaseTime{"A", 1, 0}) || got[1] != (PhaseTime{"B", 12, 12}) || got[2] != (PhaseTime{"C", 20, 0}) {
		t.Errorf("phases %v", got)
	}
	if a.PhasesNS() != 33 || a.OtherNS() != 7 || a.TotalNS() != 44 {
		t.Errorf("sums %+v", a)
	}
}

func TestRunSize(t *testing.T) {
	spec := SizeSpec{Size: 300, Seed: 1, Opt: 3, Runs: 2, MinSampleNS: int64(time.Millisecond), MemCap: 1 << 30}
	var seen int
	r := RunSize(context.Background(), testChild(t), spec, time.Minute, func(SizeSample) { seen++ })
	if r.Status != Done || len(r.Samples) != 2 || seen != 2 || r.Instrs < 250 {
		t.Fatalf("status %s (%s), %d samples, %d seen, %d instrs", r.Status, r.Note, len(r.Samples), seen, r.Instrs)
	}
	for _, s := range r.Samples {
		if s.Iters < 1 || s.NS <= 0 || s.Mallocs == 0 || s.Split.PhasesNS() <= 0 || s.NSPerInstr(r.Instrs) <= 0 {
			t.Errorf("sample %+v", s)
		}
		if _, err := os.Stat("/proc/self/clear_refs"); err == nil && (s.HWM <= 0 || s.PeakRSS < 0) {
			t.Errorf("no peak memory on a system with /proc: %+v", s)
		}
	}
}

// A size that cannot finish in its budget is killed and says so.
func TestRunSizeBudget(t *testing.T) {
	spec := SizeSpec{Size: 2000, Seed: 1, Opt: 3, Runs: 1000, MinSampleNS: int64(time.Second)}
	start := time.Now()
	r := RunSize(context.Background(), testChild(t), spec, 300*time.Millisecond, nil)
	if r.Status != Budget || !strings.Contains(r.Note, "300ms") {
		t.Errorf("status %s (%s), want %s", r.Status, r.Note, Budget)
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("took %v", el)
	}
}

// A size whose resident memory passes the cap is killed and says so.
func TestRunSizeMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: the cap is not enforced here")
	}
	spec := SizeSpec{Size: 200_000, Seed: 1, Opt: 3, Runs: 1000, MinSampleNS: int64(time.Second), MemCap: 24 << 20}
	r := RunSize(context.Background(), testChild(t), spec, 2*time.Minute, nil)
	if r.Status != Memory || !strings.Contains(r.Note, "24 MiB") {
		t.Errorf("status %s (%s), want %s", r.Status, r.Note, Memory)
	}
	if r.MaxRSS <= spec.MemCap {
		t.Errorf("max RSS %d, cap %d", r.MaxRSS, spec.MemCap)
	}
}

// A child that fails says why.
func TestRunSizeFailed(t *testing.T) {
	r := RunSize(context.Background(), testChild(t), SizeSpec{Size: 100, Opt: 9, Runs: 1}, time.Minute, nil)
	if r.Status != Failed || !strings.Contains(r.Note, "-O9") {
		t.Errorf("status %s (%s), want %s naming -O9", r.Status, r.Note, Failed)
	}
	r = RunSize(context.Background(), Child{Path: "/nonexistent/child"}, SizeSpec{Size: 100, Runs: 1}, time.Minute, nil)
	if r.Status != Failed {
		t.Errorf("missing executable: status %s", r.Status)
	}
}

func TestPassTime(t *testing.T) {
	const report = `===-------------------------------------------------------------------------===
                      ... Pass execution timing report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0053 seconds (0.0051 wall clock)

   ---User Time---   --User+System--   ---Wall Time---  --- Name ---
   0.0013 ( 24.2%)   0.0013 ( 24.2%)   0.0013 ( 24.2%)  ModuleInlinerWrapperPass
===-------------------------------------------------------------------------===
                         Instruction Selection and Scheduling
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0003 seconds (0.0003 wall clock)
===-------------------------------------------------------------------------===
                                LLVM IR Parsing
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0002 seconds (0.0002 wall clock)
`
	ns, err := passTime(report)
	if err != nil || ns != 5_300_000 {
		t.Errorf("passTime = %d, %v; want 5300000 (pass execution 5.1 ms + parsing 0.2 ms)", ns, err)
	}
	if _, err := passTime("nothing here"); err == nil {
		t.Error("no report accepted")
	}
}

// qualityLLVM returns the newest installed LLVM and the quality suite's
// kernels as LLVM sources; it skips where no LLVM can read the suite's IR.
func qualityLLVM(t *testing.T) (*LLVM, []LLVMSource) {
	t.Helper()
	l, err := FindLLVM()
	if err != nil {
		testenv.Missing(t, "%v", err)
	}
	dir, err := quality.Dir()
	if err != nil {
		t.Fatal(err)
	}
	ks, err := quality.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var srcs []LLVMSource
	for _, k := range ks {
		srcs = append(srcs, LLVMSource{Name: k.Name, IR: k.IR, O0: k.O0})
	}
	if err := l.CanRead(srcs[0].IR); err != nil {
		// the suite's IR is clang-16's: .ci/steps/llvm.sh installs llvm-16
		testenv.Missing(t, "%v", err)
	}
	return l, srcs
}

// The comparison runs end to end on a quality-suite kernel where an LLVM
// that reads the suite's IR is installed: LLVM -O2 prints fewer
// instructions than the -O0 input, and the timings are there.
func TestLLVM(t *testing.T) {
	l, srcs := qualityLLVM(t)
	tmp := t.TempDir()
	var pick []LLVMSource
	for _, s := range srcs {
		if s.Name == "saxpy" {
			pick = append(pick, s)
		}
	}
	ks, err := l.PrepareLLVM(pick, tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) != 1 || ks[0].O0.Instrs == 0 {
		t.Fatalf("kernels %+v", ks)
	}
	r, err := l.RunLLVM(ks[0], tmp)
	if err != nil {
		t.Fatal(err)
	}
	if r.Opt.WallNS <= 0 || r.Llc.WallNS <= 0 || r.Opt.PassNS <= 0 || r.Opt.WallNS < r.Opt.PassNS || len(r.PTX) == 0 {
		t.Errorf("run %+v", r)
	}
	q, err := Measure("llvm.ptx", r.PTX)
	if err != nil || q.Instrs == 0 || q.Instrs >= ks[0].O0.Instrs {
		t.Errorf("LLVM -O2 quality %+v (-O0 %d instructions), %v", q, ks[0].O0.Instrs, err)
	}
	if !strings.Contains(string(r.PTX), ".target sm_80") {
		t.Errorf("llc -O2 did not compile for %s", LLVMCPU)
	}
}

// The two ways start from one compile: llc -O0 of every kernel's IR
// prints its -O0 PTX byte for byte (clang -O0 prints no assembly
// comments, hence -asm-verbose=false), so ptxopt's input is what LLVM's
// own -O0 would give it.
func TestLLVMQualitySuite(t *testing.T) {
	l, srcs := qualityLLVM(t)
	if testing.Short() {
		srcs = srcs[:4]
	}
	tmp := t.TempDir()
	ks, err := l.PrepareLLVM(srcs, tmp)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		out := filepath.Join(tmp, k.Name+".llc-O0.ptx")
		if msg, err := exec.Command(l.Llc, "-O0", "-mcpu="+LLVMCPU, "-asm-verbose=false", k.IR, "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", k.Name, err, msg)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, srcs[i].O0) {
			t.Errorf("%s: llc -O0 of %s.O0.ll differs from %s.O0.ptx (run bench/quality/gen.sh)", k.Name, k.Name, k.Name)
		}
	}
}

func TestIRMajor(t *testing.T) {
	ir := []byte("!llvm.ident = !{!4}\n\n!3 = !{i32 7, !\"frame-pointer\", i32 2}\n!4 = !{!\"Debian clang version 16.0.6 (15~deb12u1)\"}\n")
	if got := IRMajor(ir); got != 16 {
		t.Errorf("IRMajor = %d, want 16", got)
	}
	if got := IRMajor([]byte("define void @f() {\n  ret void\n}\n")); got != 0 {
		t.Errorf("IRMajor of a module without !llvm.ident = %d, want 0", got)
	}
	for _, c := range []struct {
		major int
		ok    bool
	}{{14, false}, {15, false}, {16, true}, {18, true}, {0, true}} {
		err := (&LLVM{Opt: "/x/opt", Major: c.major}).CanRead(ir)
		if (err == nil) != c.ok {
			t.Errorf("LLVM %d reading clang-16 IR: %v", c.major, err)
		}
		if err != nil && !strings.Contains(err.Error(), "install llvm-16") {
			t.Errorf("LLVM %d: %v does not say what to install", c.major, err)
		}
	}
}

// FindLLVM takes the newest LLVM, not the first on PATH.
func TestFindLLVMNewest(t *testing.T) {
	dir := t.TempDir()
	tool := func(name, version string) {
		script := "#!/bin/sh\necho 'Debian LLVM version " + version + "'\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tool("opt", "97.0.1")
	tool("llc", "97.0.1")
	tool("opt-99", "99.1.0")
	tool("llc-99", "99.1.0")
	tool("opt-98", "98.0.0")
	tool("llc-98", "98.0.0")
	tool("opt-96", "96.0.0") // no llc-96: not a candidate
	t.Setenv("PATH", dir)
	l, err := FindLLVM()
	if err != nil {
		t.Fatal(err)
	}
	if l.Major != 99 || l.Opt != filepath.Join(dir, "opt-99") || l.Llc != filepath.Join(dir, "llc-99") || l.Version != "Debian LLVM version 99.1.0" {
		t.Errorf("FindLLVM = %+v, want LLVM 99 from %s", l, dir)
	}
	if l, err := LLVMIn(dir); err != nil || l.Major != 97 {
		t.Errorf("LLVMIn = %+v, %v; want the unversioned LLVM 97", l, err)
	}
	if _, err := LLVMIn(t.TempDir()); err == nil {
		t.Error("LLVMIn of an empty folder found tools")
	}
}
