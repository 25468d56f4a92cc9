package pipeline

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt"
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
	a.addPhase("A", 1)
	a.addPhase("B", 2)
	b.addPhase("B", 10)
	b.addPhase("C", 20)
	b.ParseNS, b.RunNS, b.PrintNS = 1, 40, 3
	a.Add(&b)
	if got := a.Phases; len(got) != 3 || got[0] != (PhaseTime{"A", 1}) || got[1] != (PhaseTime{"B", 12}) || got[2] != (PhaseTime{"C", 20}) {
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

// The comparison runs end to end where LLVM is installed.
func TestLLVM(t *testing.T) {
	l, err := FindLLVM()
	if err != nil {
		testenv.Missing(t, "%v", err)
	}
	tmp := t.TempDir()
	irDir := t.TempDir()
	const body = `define void @body(i32 %tid, i8* %in, i8* %out) {
entry:
  %ip = bitcast i8* %in to i32*
  %pa = getelementptr i32, i32* %ip, i32 %tid
  %a = load i32, i32* %pa
  %b = add i32 %a, 0
  %c = mul i32 %b, 1
  store i32 %c, i32* %pa
  ret void
}
`
	if err := os.WriteFile(irDir+"/k.ll", []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ks, err := l.PrepareLLVM(irDir, tmp)
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
	if r.Opt.WallNS <= 0 || r.Llc.WallNS <= 0 || r.Opt.WallNS < r.Opt.PassNS || len(r.PTX) == 0 {
		t.Errorf("run %+v", r)
	}
	q, err := Measure("llvm.ptx", r.PTX)
	if err != nil || q.Instrs == 0 || q.Instrs > ks[0].O0.Instrs {
		t.Errorf("LLVM -O2 quality %+v (-O0 %d instructions), %v", q, ks[0].O0.Instrs, err)
	}
	if _, err := exec.LookPath(l.Opt); err != nil {
		t.Errorf("opt path %q: %v", l.Opt, err)
	}
}
