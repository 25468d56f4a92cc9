package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// bigKernel is a generated kernel that takes ptxopt -O3 a couple of
// seconds (about 200,000 instructions in one function), written once
// beside the binary (TestMain removes both).
var bigKernel = sync.OnceValues(func() (string, error) {
	path := filepath.Join(filepath.Dir(binary), "big.ptx")
	m := gen.Kernel(gen.Config{Seed: 1, Size: 200000, MaxDepth: 3})
	return path, os.WriteFile(path, ptx.Format(m), 0o644)
})

func big(t *testing.T) string {
	t.Helper()
	p, err := bigKernel()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// interrupt starts the binary, sends sig once it is well into the work,
// and returns how it ended and how long after the signal.
func interrupt(t *testing.T, sig syscall.Signal, args ...string) (result, time.Duration) {
	t.Helper()
	trackSources()
	cmd := exec.Command(binary, args...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	select {
	case <-exited:
		t.Fatalf("%v ended before the signal: %s", args, se.String())
	case <-time.After(700 * time.Millisecond):
	}
	sent := time.Now()
	cmd.Process.Signal(sig)
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("%v: still running 20s after %v", args, sig)
	}
	return result{cmd.ProcessState.ExitCode(), so.String(), se.String()}, time.Since(sent)
}

func TestSignalSingle(t *testing.T) {
	in := big(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		name string
		code int
	}{{syscall.SIGTERM, "SIGTERM", 143}, {syscall.SIGINT, "SIGINT", 130}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out, rep := filepath.Join(dir, "out.ptx"), filepath.Join(dir, "r.json")
			r, took := interrupt(t, tc.sig, "-O3", in, "-o", out, "--report-file", rep)
			t.Logf("exited %v after %s", took, tc.name)
			want := in + ": interrupted by " + tc.name
			if r.code != tc.code || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "context canceled") {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tc.code, want)
			}
			var report struct {
				Files []struct{ Path, Error string }
			}
			data, err := os.ReadFile(rep)
			if err != nil {
				t.Fatalf("no report after %s: %v", tc.name, err)
			}
			if err := json.Unmarshal(data, &report); err != nil || len(report.Files) != 1 || report.Files[0].Error != want {
				t.Errorf("report %s (%v); want the file's error %q", data, err, want)
			}
			if got := listFiles(t, dir); len(got) != 1 || got[0] != "r.json" {
				t.Errorf("files left after %s: %v; want only the report", tc.name, got)
			}
		})
	}
}

func TestSignalBatch(t *testing.T) {
	in := big(t)
	dir := t.TempDir()
	small := filepath.Join(dir, "in", "a_saxpy.ptx")
	write(t, small, example(t, "saxpy.ptx"))
	outdir := filepath.Join(dir, "out")
	// One worker: the small file first, then the big one (interrupted),
	// then one never started.
	r, took := interrupt(t, syscall.SIGTERM, "-O3", "-j", "1", "-o", outdir, small, in, filepath.Join(dir, "in", "never.ptx"))
	t.Logf("exited %v after SIGTERM", took)
	if r.code != 143 || !strings.Contains(r.stderr, in+": interrupted by SIGTERM") ||
		!strings.Contains(r.stderr, "ptxopt: 3 files: 1 ok, 2 failed") || strings.Contains(r.stderr, "context canceled") {
		t.Errorf("exit %d, stderr %q; want 143, the big file interrupted and the summary", r.code, r.stderr)
	}
	// The finished output is whole; nothing else is left, no temporary file.
	if got := listFiles(t, outdir); len(got) != 1 || got[0] != "a_saxpy.ptx" {
		t.Errorf("outputs after SIGTERM: %v; want only a_saxpy.ptx", got)
	}
	want := runCLI(t, nil, "-O3", small)
	if got, err := os.ReadFile(filepath.Join(outdir, "a_saxpy.ptx")); err != nil || string(got) != want.stdout {
		t.Errorf("a_saxpy.ptx differs from a run without the signal (%v)", err)
	}
}

func TestHelpSignals(t *testing.T) {
	r := runCLI(t, nil, "--help")
	for _, want := range []string{"143", "SIGTERM", "A second signal ends ptxopt at once"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--help does not mention %q", want)
		}
	}
}

// TestSignalFIFONoReader: "-o FIFO" with no reader waits for one, and the
// first SIGTERM ends that wait (a blocking open of the FIFO sat in the
// kernel where the signal's cancellation could not reach it: only a
// second signal ended ptxopt). The FIFO stays a FIFO. A reader that
// comes while ptxopt waits gets the PTX.
func TestSignalFIFONoReader(t *testing.T) {
	in, want := optimized(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	rep := filepath.Join(dir, "r.json")
	trackSources()
	cmd := exec.Command(binary, in, "-o", fifo, "--report-file", rep)
	var se bytes.Buffer
	cmd.Stderr = &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	select {
	case <-exited:
		t.Fatalf("ended with no reader on the FIFO: %s", se.String())
	case <-time.After(700 * time.Millisecond): // optimized and waiting on the FIFO
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("still running 5s after SIGTERM (waiting on the FIFO)")
	}
	if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(se.String(), fifo+": interrupted by SIGTERM") {
		t.Errorf("exit %d, stderr %q; want 143 and the FIFO interrupted by SIGTERM", code, se.String())
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
	if _, err := os.Stat(rep); err != nil {
		t.Errorf("no report after SIGTERM: %v", err)
	}
	// A reader that comes late gets the whole output.
	cmd = exec.Command(binary, in, "-o", fifo)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	got, err := os.ReadFile(fifo)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("with a late reader: %v", err)
	}
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("the late reader got %d bytes (%v), want %d", len(got), err, len(want))
	}
}
