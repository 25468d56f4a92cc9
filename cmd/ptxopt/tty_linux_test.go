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
