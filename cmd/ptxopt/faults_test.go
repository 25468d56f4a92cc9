package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A panic in any per-file step outside the phases is that file's error:
// the other files of the batch are written, the summary counts one
// failure, exit 1.
func TestFaultsBatch(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	write(t, filepath.Join(src, "saxpy.ptx"), example(t, "saxpy.ptx"))
	write(t, filepath.Join(src, "rowsum.ptx"), example(t, "rowsum.ptx"))
	// Each step is recovered where it runs, and says which step failed.
	for _, tc := range []struct{ step, where string }{
		{"check", "internal error in the input check"},
		{"measure", "function saxpy: internal error while measuring"},
		{"inline", "internal error in OriInline"},
		{"print", "internal error in the printer"},
		{"write", "internal error writing"},
		{"worker", "saxpy.ptx: internal error: injected"},
	} {
		step := tc.step
		t.Run(step, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+step)
			r := runBin(t, faultBinary, []string{"PTXOPT_FAULT=" + step + ":saxpy"}, nil, "-j", "2", "-o", out, src)
			want := "injected fault at " + step
			if r.code != 1 || !strings.Contains(r.stderr, "saxpy.ptx") || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, tc.where) ||
				!strings.Contains(r.stderr, "2 files: 1 ok, 1 failed") {
				t.Errorf("exit %d, stderr %q; want 1, saxpy.ptx's error (%s) and the summary", r.code, r.stderr, want)
			}
			if got := strings.Join(listFiles(t, out), " "); got != "rowsum.ptx" {
				t.Errorf("outputs %q; want rowsum.ptx only", got)
			}
		})
	}
}

func TestFaultsSingle(t *testing.T) {
	for _, step := range []string{"check", "measure", "print", "write"} {
		dir := t.TempDir()
		r := runBin(t, faultBinary, []string{"PTXOPT_FAULT=" + step + ":"}, example(t, "saxpy.ptx"), "-v", "-o", filepath.Join(dir, "out.ptx"))
		if r.code != 1 || !strings.Contains(r.stderr, "injected fault at "+step) {
			t.Errorf("%s: exit %d, stderr %q; want 1 and the fault as the input's error", step, r.code, r.stderr)
		}
		if got := listFiles(t, dir); len(got) != 0 {
			t.Errorf("%s: files left %v", step, got)
		}
	}
	// In a normal build the hook is nil: the variable does nothing.
	if r := runBin(t, binary, []string{"PTXOPT_FAULT=print:"}, example(t, "saxpy.ptx")); r.code != 0 {
		t.Errorf("normal build with PTXOPT_FAULT: exit %d, %s", r.code, r.stderr)
	}
}

// After the first signal the command waits for the output being written
// (here one that never ends); a second signal ends it at once.
func TestSecondSignal(t *testing.T) {
	trackSources()
	dir := t.TempDir()
	in := filepath.Join(dir, "saxpy.ptx")
	write(t, in, example(t, "saxpy.ptx"))
	cmd := exec.Command(faultBinary, "-o", filepath.Join(dir, "out"), in)
	cmd.Env = append(os.Environ(), "PTXOPT_FAULT=write::hang")
	var se bytes.Buffer
	cmd.Stderr = &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		t.Fatalf("exited after the first signal while an output was being written: %s", se.String())
	case <-time.After(500 * time.Millisecond):
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("still running 5s after the second signal")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d after SIGTERM then SIGINT; want 130 (the second signal's)", code)
	}
}
