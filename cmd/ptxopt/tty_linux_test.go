package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: the controlling side to read
// what the program writes, the terminal it writes to.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(ctl.Fd()), unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(int(ctl.Fd()), unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		ctl.Close()
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		ctl.Close()
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { ctl.Close(); tty.Close() })
	return ctl, tty
}

func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s (a character device) counted as a terminal", os.DevNull)
	}
	_, tty := openPTY(t)
	t.Setenv("TERM", "xterm")
	if !isTerminal(tty) {
		t.Errorf("a pseudo-terminal not counted as a terminal")
	}
}

// On a terminal, batch mode draws a progress line with the count, rate
// and time left, and clears it before error lines and the summary.
func TestProgressOnTerminal(t *testing.T) {
	ctl, tty := openPTY(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	for i := range 12 {
		write(t, filepath.Join(src, fmt.Sprintf("k%02d.ptx", i)), example(t, "saxpy.ptx"))
	}
	write(t, filepath.Join(src, "bad.ptx"), []byte(".version 7.0\n.target sm_80\n.entry k()\n{\n\tmov.u32 %r1, ;\n}\n"))
	trackSources()
	cmd := exec.Command(binary, "-j", "1", "-o", filepath.Join(dir, "out"), src)
	cmd.Env = append(os.Environ(), "TERM=xterm")
	cmd.Stderr = tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&out, ctl); close(copied) }()
	err := cmd.Wait()
	tty.Close()
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
	}
	ctl.Close()
	s := out.String()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit: %v; want 1 (one bad file)", err)
	}
	// The bar: "ptxopt  ... (n/13, r files/s) [elapsed:left]".
	if !strings.Contains(s, "/13") || !strings.Contains(s, "files/s") || !strings.Contains(s, "\r") {
		t.Errorf("no progress line with count and rate on the terminal:\n%q", s)
	}
	// Error and summary lines start at the left margin, after the bar was
	// cleared (blank fill then a carriage return).
	for _, want := range []string{filepath.Join(src, "bad.ptx") + ":5:", "ptxopt: 13 files:"} {
		i := strings.Index(s, want)
		if i < 0 {
			t.Errorf("%q missing:\n%q", want, s)
			continue
		}
		if before := strings.TrimRight(s[:i], " "); i > 0 && !strings.HasSuffix(s[:i], "\r") && !strings.HasSuffix(before, "\n") {
			t.Errorf("%q does not start a clean line:\n%q", want, s[max(0, i-80):i+len(want)])
		}
	}
	// Nothing of the bar after the summary.
	if i := strings.Index(s, "ptxopt: 13 files:"); i >= 0 && strings.Contains(s[i:], "files/s") {
		t.Errorf("progress drawn after the summary:\n%q", s[i:])
	}
}

// Not a terminal (a pipe, as runCLI gives): no progress line at all.
func TestNoProgressOffTerminal(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "a.ptx"), example(t, "saxpy.ptx"))
	r := runCLI(t, nil, "-o", filepath.Join(dir, "out"), filepath.Join(dir, "src"))
	if r.code != 0 || strings.Contains(r.stderr, "\r") || strings.Contains(r.stderr, "files/s") {
		t.Errorf("exit %d, stderr %q; want no progress line off a terminal", r.code, r.stderr)
	}
}

// TestProgressRedrawn: the progress line is redrawn while no file
// finishes. The bar's throttle drops a draw that comes within 100 ms of
// the last one, so after twelve quick files the line could stay at an
// older count for as long as the last, long file runs (a second or
// more); a ticker redraws it every 250 ms. Without the ticker the count
// 12/13 is drawn once at most (when the twelfth file finishes, if the
// throttle lets it through); with it, again at each tick while the last
// file runs.
func TestProgressRedrawn(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a file of about 200,000 instructions at -O3")
	}
	ctl, tty := openPTY(t)
	dir := t.TempDir()
	var args []string
	for i := range 12 {
		in := filepath.Join(dir, "src", fmt.Sprintf("k%02d.ptx", i))
		write(t, in, example(t, "saxpy.ptx"))
		args = append(args, in)
	}
	args = append(args, big(t)) // last: one worker takes the files in order
	trackSources()
	start := time.Now()
	cmd := exec.Command(binary, append([]string{"-O3", "-j", "1", "-o", filepath.Join(dir, "out")}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm")
	cmd.Stderr = tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&out, ctl); close(copied) }()
	err := cmd.Wait()
	took := time.Since(start)
	tty.Close()
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
	}
	ctl.Close()
	s := out.String()
	if err != nil {
		t.Fatalf("exit: %v\n%q", err, s)
	}
	draws := strings.Count(s, "(12/13, ")
	t.Logf("the count 12/13 drawn %d times in %v", draws, took)
	if draws < 3 {
		t.Errorf("the count after the twelfth file (12/13) was drawn %d times in %v; want it redrawn while the last file runs:\n%q", draws, took, s)
	}
	if i := strings.Index(s, "ptxopt: 13 files:"); i < 0 || strings.Contains(s[i:], "/13, ") {
		t.Errorf("no summary, or the line drawn after it:\n%q", s)
	}
}

// TestNoProgressOnCharDevice: standard error on a character device that
// is not a terminal (one made with mknod in the test's directory, with
// /dev/null's numbers) gets no progress line, though TERM names a
// terminal. What the device swallows cannot be read back, so the bytes
// the process wrote are counted (/proc/PID/io, read before the exited
// process is reaped): the outputs and the summary line, nothing more.
func TestNoProgressOnCharDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod needs root; not running as root")
	}
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skipf("no /proc/PID/io here (%v): the bytes written cannot be counted", err)
	}
	dir := t.TempDir()
	dev := filepath.Join(dir, "null")
	if err := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Skipf("mknod: %v", err)
	}
	src := filepath.Join(dir, "src")
	for i := range 12 {
		write(t, filepath.Join(src, fmt.Sprintf("k%02d.ptx", i)), example(t, "saxpy.ptx"))
	}
	// The same batch with standard error on a pipe: the summary's length.
	ref := runCLI(t, nil, "-j", "1", "-o", filepath.Join(dir, "ref"), src)
	if ref.code != 0 || strings.Count(ref.stderr, "\n") != 1 {
		t.Fatalf("reference run: exit %d, stderr %q", ref.code, ref.stderr)
	}
	f, err := os.OpenFile(dev, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	outdir := filepath.Join(dir, "out")
	trackSources()
	cmd := exec.Command(binary, "-j", "1", "-o", outdir, src)
	cmd.Env = append(os.Environ(), "TERM=xterm")
	cmd.Stderr = f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		cmd.Wait()
		t.Fatalf("waitid: %v", err)
	}
	stats, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", cmd.Process.Pid))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	if err != nil {
		t.Skipf("/proc/PID/io of the exited process: %v", err)
	}
	var wchar int64 = -1
	for _, line := range strings.Split(string(stats), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			fmt.Sscan(v, &wchar)
		}
	}
	var outputs int64
	entries, _ := os.ReadDir(outdir)
	for _, e := range entries {
		if st, err := e.Info(); err == nil {
			outputs += st.Size()
		}
	}
	if len(entries) != 12 || wchar < 0 {
		t.Fatalf("%d outputs, wchar %d", len(entries), wchar)
	}
	// The summary's timing may take a digit more than the reference's.
	if extra := wchar - outputs; extra > int64(len(ref.stderr))+8 {
		t.Errorf("%d bytes went to standard error (a character device, not a terminal), want the %d of the summary: a progress line was drawn", extra, len(ref.stderr))
	}
}
