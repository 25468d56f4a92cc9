package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt"
)

// checkKernelPTX is a small kernel with a loop, a guarded store and
// float code: enough for the differential check to see a one-instruction
// change.
const checkKernelPTX = `.version 7.8
.target sm_80
.address_size 64

.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<10>;
	.reg .f32 %f<10>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.u32 %r3, [%rd4];
	ld.global.f32 %f1, [%rd4+512];
	ld.global.f32 %f2, [%rd4+1024];
	mov.u32 %r6, 0;
	mov.u32 %r7, 0;
$L_loop:
	add.s32 %r6, %r6, %r3;
	xor.b32 %r6, %r6, %r7;
	add.s32 %r7, %r7, 1;
	setp.lt.u32 %p2, %r7, 5;
	@%p2 bra $L_loop;
	add.f32 %f3, %f1, %f2;
	mul.f32 %f4, %f3, %f1;
	add.s32 %r4, %r3, %r1;
	xor.b32 %r5, %r4, %r2;
	setp.lt.u32 %p1, %r2, %r1;
	@%p1 st.global.u32 [%rd5], %r5;
	st.global.u32 [%rd5+4096], %r6;
	st.global.f32 [%rd5+8192], %f4;
	ret;
}
`

// unsupportedPTX has only a kernel the simulator refuses (a cluster
// barrier: the simulator runs no clusters).
const unsupportedPTX = `.version 7.8
.target sm_90
.address_size 64

.visible .entry t(.param .u64 out, .param .u64 tex)
{
	.reg .b32 %r<6>;
	.reg .f32 %f<6>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [tex];
	mov.f32 %f1, 0f00000000;
	barrier.cluster.arrive;
	st.global.f32 [%rd1], %f1;
	ret;
}
`

func checkFiles(t *testing.T) (dir, a string) {
	t.Helper()
	dir = t.TempDir()
	a = filepath.Join(dir, "a.ptx")
	write(t, a, []byte(checkKernelPTX))
	return dir, a
}

func TestCheckSelf(t *testing.T) {
	_, a := checkFiles(t)
	r := runCLI(t, nil, "check", "--against", a, a)
	if r.code != 0 || !strings.Contains(r.stdout, "0 matched, 0 mismatch, 1 unchanged") {
		t.Fatalf("check A against A: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// the pipeline (with the optimization flags) must preserve it too
	for _, args := range [][]string{{"check", a}, {"check", "-O3", "--seeds", "8", a}, {"check", "-O1", "--disable-phase", "GvnCse", a}} {
		r = runCLI(t, nil, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestCheckMutant(t *testing.T) {
	dir, a := checkFiles(t)
	b := filepath.Join(dir, "b.ptx")
	write(t, b, []byte(strings.Replace(checkKernelPTX, "xor.b32 %r5, %r4, %r2;", "and.b32 %r5, %r4, %r2;", 1)))
	r := runCLI(t, nil, "check", "--against", b, a)
	if r.code != 1 {
		t.Fatalf("check A against a mutant: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"MISMATCH k", "seed", "memory differs first at 0x"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestCheckUsage(t *testing.T) {
	dir, a := checkFiles(t)
	bad := filepath.Join(dir, "bad.ptx")
	write(t, bad, []byte(".version 7.8\n.target sm_80\n.entry k( {\n\tadd.s32 %r1 %r2;\n"))
	for _, args := range [][]string{
		{"check", bad},
		{"check", "--against", bad, a},
		{"check", filepath.Join(dir, "missing.ptx")},
		{"check"},
		{"check", "--knob", "NoSuchKnob=1", a},
		{"check", "--seeds", "0", a},
	} {
		if r := runCLI(t, nil, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := runCLI(t, nil, "check", "--help"); r.code != 0 || !strings.Contains(r.stdout, "--against") {
		t.Errorf("check --help: exit %d\n%s", r.code, r.stdout)
	}
}

func TestCheckNothingRuns(t *testing.T) {
	dir := t.TempDir()
	u := filepath.Join(dir, "refused.ptx")
	write(t, u, []byte(unsupportedPTX))
	r := runCLI(t, nil, "check", u)
	if r.code != 3 || !strings.Contains(r.stdout, "unsupported barrier.cluster.arrive") || !strings.Contains(r.stdout, "1 unsupported") {
		t.Fatalf("check of a file with only unsupported kernels: exit %d, want 3\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestCheckReduce drives the reducer with a deliberately wrong
// "optimizer" (it turns the first xor.b32 into or.b32): the mismatch is
// reported and a smaller reproducer that still shows it is written.
func TestCheckReduce(t *testing.T) {
	dir, a := checkFiles(t)
	repro := filepath.Join(dir, "r.ptx")
	c := &checker{seeds: 8, reduceTime: 20 * time.Second, maxSteps: 1_000_000, repro: repro}
	c.inputs = []string{a}
	var out strings.Builder
	c.stdout, c.stderr = &out, &out
	c.transform = func(_ context.Context, path string, src []byte) (*ptxopt.Module, error) {
		return ptxopt.Parse(path, []byte(strings.Replace(string(src), "xor.b32", "or.b32", 1)))
	}
	if code := c.run(context.Background()); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "reproducer: "+repro) {
		t.Fatalf("no reproducer written:\n%s", out.String())
	}
	data, err := os.ReadFile(repro)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(data), ";\n")
	if n >= strings.Count(checkKernelPTX, ";\n") {
		t.Errorf("the reproducer is not smaller:\n%s", data)
	}
	if !strings.Contains(string(data), "xor.b32") {
		t.Errorf("the reproducer lost the instruction the bug needs:\n%s", data)
	}
	// it reproduces on its own
	c2 := *c
	c2.inputs, c2.repro, c2.reduceTime = []string{repro}, filepath.Join(dir, "r2.ptx"), 0
	out.Reset()
	if code := c2.run(context.Background()); code != 1 {
		t.Errorf("the reproducer does not reproduce: exit %d\n%s", code, out.String())
	}
	t.Logf("reproducer (%d instructions):\n%s", n, data)
}

// deadEnd adds a block no thread reaches (thread 5000) holding one
// instruction of its own.
func deadEnd(s string) string {
	return strings.Replace(s, "\tret;\n}", "\tsetp.ne.u32 %p3, %r2, 5000;\n\t@%p3 bra $L_out;\n\tadd.s32 %r8, %r2, 1;\n\tst.global.u32 [%rd5+64], %r8;\n$L_out:\n\tret;\n}", 1)
}

// TestCheckCoverage: a change on a path no thread takes is reported as
// "not exercised" (exit 3), with the instruction listed; a change that
// runs is "matched"; --min-coverage turns a partial coverage into exit 4;
// --report json carries every changed instruction and the totals.
func TestCheckCoverage(t *testing.T) {
	unreached := func(s string) string {
		return strings.Replace(deadEnd(s), "add.s32 %r8, %r2, 1;", "add.s32 %r8, 1, %r2;", 1)
	}
	both := func(s string) string {
		return strings.Replace(unreached(s), "mul.f32 %f4, %f3, %f1;", "mul.f32 %f4, %f1, %f3;", 1)
	}
	// the original gets the same unreached block, unedited
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.ptx"), filepath.Join(dir, "b.ptx")
	write(t, a, []byte(deadEnd(checkKernelPTX)))

	write(t, b, []byte(unreached(checkKernelPTX)))
	r := runCLI(t, nil, "check", "--seeds", "4", "--extra-seeds", "4", "--against", b, a)
	if r.code != 3 || !strings.Contains(r.stdout, "not exercised") || !strings.Contains(r.stdout, "not executed: changed k:") ||
		!strings.Contains(r.stdout, "add.s32 %r8, 1, %r2;") || strings.Contains(r.stdout, "1 matched") {
		t.Errorf("a change that never runs: exit %d, want 3 and 'not exercised'\n%s%s", r.code, r.stdout, r.stderr)
	}

	write(t, b, []byte(both(checkKernelPTX)))
	r = runCLI(t, nil, "check", "--seeds", "4", "--extra-seeds", "4", "--against", b, a)
	if r.code != 0 || !strings.Contains(r.stdout, "1 matched") || !strings.Contains(r.stdout, "2 of 4 changed instructions executed (50.0%)") {
		t.Errorf("half the change runs: exit %d, want 0, matched, 50%%\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "check", "--seeds", "4", "--extra-seeds", "4", "--min-coverage", "60", "--against", b, a)
	if r.code != 4 {
		t.Errorf("--min-coverage 60 at 50%%: exit %d, want 4\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "check", "--seeds", "4", "--extra-seeds", "4", "--report", "json", "--against", b, a)
	var rep struct {
		Kernels []struct {
			Name, Status              string
			Changed, Changed_executed int
			Removed, Removed_executed int
			Unexecuted                []struct{ Func, Side, Text string }
		}
		Totals struct {
			Kernels           int
			Ran_to_completion int
			Coverage_percent  float64
			By_status         map[string]int
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--report json: %v\n%s", err, r.stdout)
	}
	if len(rep.Kernels) != 1 || rep.Kernels[0].Status != "matched" || rep.Kernels[0].Changed != 2 || rep.Kernels[0].Changed_executed != 1 ||
		rep.Kernels[0].Removed != 2 || rep.Kernels[0].Removed_executed != 1 || len(rep.Kernels[0].Unexecuted) != 2 ||
		rep.Totals.Coverage_percent != 50 || rep.Totals.Ran_to_completion != 1 || rep.Totals.By_status["matched"] != 1 {
		t.Errorf("json report: %+v\n%s", rep, r.stdout)
	}
}
