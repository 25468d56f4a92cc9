package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// optimized returns what ptxopt prints for the saxpy example on stdout.
func optimized(t *testing.T) (in string, want []byte) {
	t.Helper()
	dir := t.TempDir()
	in = filepath.Join(dir, "saxpy.ptx")
	write(t, in, example(t, "saxpy.ptx"))
	r := runCLI(t, nil, in)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	return in, []byte(r.stdout)
}

// TestOutputRegularAtomic: a regular file is replaced by a rename (a new
// inode), keeps its permission bits, and no temporary file is left.
func TestOutputRegularAtomic(t *testing.T) {
	in, want := optimized(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.ptx")
	write(t, out, []byte("old"))
	if err := os.Chmod(out, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(out)
	r := runCLI(t, nil, in, "-o", out)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	after, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
		t.Errorf("output differs from stdout mode")
	}
	if os.SameFile(before, after) {
		t.Errorf("regular output was written in place, not replaced atomically")
	}
	if after.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", after.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only out.ptx (temporary left?)", len(entries))
	}
}

// TestOutputSymlinkFollowed: -o LINK writes the link's target; the link
// stays a link. A dangling link gets its target created.
func TestOutputSymlinkFollowed(t *testing.T) {
	in, want := optimized(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "target.ptx")
	write(t, target, []byte("old"))
	link := filepath.Join(dir, "link.ptx")
	if err := os.Symlink("target.ptx", link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.ptx")
	if err := os.Symlink("created.ptx", dangling); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ link, target string }{{link, target}, {dangling, filepath.Join(dir, "created.ptx")}} {
		r := runCLI(t, nil, in, "-o", c.link)
		if r.code != 0 {
			t.Fatalf("-o %s: exit %d: %s", c.link, r.code, r.stderr)
		}
		st, err := os.Lstat(c.link)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link: %v %v", c.link, st.Mode(), err)
		}
		if got, _ := os.ReadFile(c.target); !bytes.Equal(got, want) {
			t.Errorf("target %s not written through the link", c.target)
		}
	}
}

// TestOutputHardLinkKept: a file with two names is overwritten in place,
// so both names still see the same (new) content.
func TestOutputHardLinkKept(t *testing.T) {
	in, want := optimized(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.ptx"), filepath.Join(dir, "b.ptx")
	write(t, a, []byte("old"))
	if err := os.Link(a, b); err != nil {
		t.Skipf("hard links not supported here: %v", err)
	}
	if r := runCLI(t, nil, in, "-o", a); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	gotB, _ := os.ReadFile(b)
	if !bytes.Equal(gotB, want) {
		t.Errorf("the other hard link does not see the new content")
	}
}

// TestOutputFIFO: a FIFO is written through (a reader gets the PTX), not
// replaced by a regular file.
func TestOutputFIFO(t *testing.T) {
	in, want := optimized(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo) // blocks until ptxopt opens the FIFO
		got <- b
	}()
	r := runCLI(t, nil, in, "-o", fifo)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	select {
	case b := <-got:
		if !bytes.Equal(b, want) {
			t.Errorf("reader of the FIFO got %d bytes, want %d", len(b), len(want))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing read from the FIFO")
	}
	st, err := os.Lstat(fifo)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
}

// TestOutputCharDevice: a character device made in the test's own
// directory (a copy of /dev/null's numbers, never the machine's node)
// stays a device. Needs root for mknod.
func TestOutputCharDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod needs root; not running as root")
	}
	in, _ := optimized(t)
	dev := filepath.Join(t.TempDir(), "null")
	// /dev/null is character device 1:3 on Linux.
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod: %v", err)
	}
	for _, flag := range []string{"-o", "--report-file"} {
		args := []string{in, flag, dev}
		if flag == "--report-file" {
			args = append(args, "-o", filepath.Join(t.TempDir(), "x.ptx"))
		}
		r := runCLI(t, nil, args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", flag, r.code, r.stderr)
		}
		st, err := os.Lstat(dev)
		if err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("%s replaced the character device: %v %v", flag, st.Mode(), err)
		}
	}
}

// TestWriteErrorsSeen: a failed write to standard output (a full device,
// a closed pipe) is an error with a non-zero exit.
func TestWriteErrorsSeen(t *testing.T) {
	in, _ := optimized(t)
	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		// Everything that writes to standard output: the PTX, the help
		// texts, the version, and check's report and help (check's I/O
		// status is 5: its 3 means something else).
		for _, c := range []struct {
			args []string
			code int
		}{
			{[]string{in}, exitIO},
			{[]string{"--version"}, exitIO},
			{[]string{"--help"}, exitIO},
			{[]string{"--help-phases"}, exitIO},
			{[]string{"--help-knobs"}, exitIO},
			{[]string{"check", in}, checkIO},
			{[]string{"check", "--report", "json", in}, checkIO},
			{[]string{"check", "--help"}, checkIO},
		} {
			trackSources()
			cmd := exec.Command(binary, c.args...)
			cmd.Stdout = full
			var se bytes.Buffer
			cmd.Stderr = &se
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != c.code || !strings.Contains(se.String(), "writing standard output: write /dev/stdout: no space left on device") {
				t.Errorf("ptxopt %s >/dev/full: %v, stderr %q; want exit %d naming standard output", strings.Join(c.args, " "), err, se.String(), c.code)
			}
		}
		full.Close()
	} else {
		t.Logf("no /dev/full (%v): only the pipe case runs", err)
	}
	// -o through a full device of the test's own (1:7 is /dev/full on
	// Linux): written through and the error seen.
	if os.Geteuid() == 0 {
		dev := filepath.Join(t.TempDir(), "full")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|7); err == nil {
			r := runCLI(t, nil, in, "-o", dev)
			if r.code == 0 || !strings.Contains(r.stderr, "no space") {
				t.Errorf("-o FULLDEVICE: exit %d, stderr %q", r.code, r.stderr)
			}
			if st, err := os.Lstat(dev); err != nil || st.Mode()&os.ModeCharDevice == 0 {
				t.Errorf("the full device was replaced")
			}
		} else {
			t.Logf("mknod: %v: the -o case is skipped", err)
		}
	} else {
		t.Log("not root: no device of the test's own, the -o case is skipped")
	}
	// A pipe whose reader has gone.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	cmd := exec.Command(binary, in)
	cmd.Stdout = pw
	err = cmd.Run()
	pw.Close()
	if err == nil {
		t.Errorf("stdout to a closed pipe: exit 0")
	}
}

// TestOutputDescriptor: an output path whose link chain goes through a
// descriptor directory (/dev/stdout, /dev/fd/N, /proc/self/fd/N, a link
// to one of them) is written through the descriptor the shell opened: on
// a file opened to append ("-o /dev/stdout >>app.txt"), the PTX is
// appended to what the file held and the file is the same file after
// (not renamed over, which would lose its content).
func TestOutputDescriptor(t *testing.T) {
	in, want := optimized(t)
	dir := t.TempDir()
	app := filepath.Join(dir, "app.txt")
	link := filepath.Join(dir, "stdout-link")
	if err := os.Symlink("/dev/stdout", link); err != nil {
		t.Fatal(err)
	}
	type tc struct {
		out   string
		viaFD int // 1: stdout; 3: the first extra descriptor
	}
	cases := []tc{{"/dev/stdout", 1}, {"/dev/fd/1", 1}, {link, 1}, {"/dev/fd/3", 3}}
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		cases = append(cases, tc{"/proc/self/fd/1", 1}, tc{"/proc/self/fd/3", 3})
	} else {
		t.Logf("no /proc/self/fd here (%v): those cases are skipped", err)
	}
	for _, c := range cases {
		if _, err := os.Stat(c.out); err != nil && c.out != link {
			t.Logf("%s: %v: skipped", c.out, err)
			continue
		}
		write(t, app, []byte("hello\n"))
		before, _ := os.Stat(app)
		f, err := os.OpenFile(app, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		trackSources()
		cmd := exec.Command(binary, in, "-o", c.out)
		var so bytes.Buffer
		if c.viaFD == 1 {
			cmd.Stdout = f
		} else {
			cmd.Stdout = &so
			cmd.ExtraFiles = []*os.File{f}
		}
		var se bytes.Buffer
		cmd.Stderr = &se
		err = cmd.Run()
		f.Close()
		if err != nil {
			t.Errorf("-o %s >>app.txt: %v: %s", c.out, err, se.String())
			continue
		}
		got, _ := os.ReadFile(app)
		if string(got) != "hello\n"+string(want) {
			t.Errorf("-o %s >>app.txt: app.txt holds %d bytes (starts %q), want \"hello\\n\" and the %d bytes of PTX appended",
				c.out, len(got), got[:min(len(got), 20)], len(want))
		}
		if after, err := os.Stat(app); err != nil || !os.SameFile(before, after) {
			t.Errorf("-o %s: app.txt was replaced by another file", c.out)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 2 {
			t.Errorf("-o %s: %d entries in the directory, want app.txt and the link (temporary left?)", c.out, len(entries))
		}
	}
	// A descriptor ptxopt was not started with (the runtime's own, or
	// none) is refused: nothing is written anywhere.
	r := runCLI(t, nil, in, "-o", "/dev/fd/9")
	if r.code != exitFailed || !strings.Contains(r.stderr, "descriptor 9") {
		t.Errorf("-o /dev/fd/9 (not given): exit %d, stderr %q; want %d naming descriptor 9", r.code, r.stderr, exitFailed)
	}
}

// TestOutputSocketRefused: -o SOCKET fails with a message saying so, and
// the socket stays; --help says sockets are refused.
func TestOutputSocketRefused(t *testing.T) {
	in, _ := optimized(t)
	dir, err := os.MkdirTemp("", "sock") // short: socket paths are limited to ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	defer l.Close()
	for _, flag := range []string{"-o", "--report-file"} {
		args := []string{in, flag, sock}
		if flag == "--report-file" {
			args = append(args, "-o", filepath.Join(dir, "x.ptx"))
		}
		r := runCLI(t, nil, args...)
		if r.code == 0 || !strings.Contains(r.stderr, sock+" is a socket") {
			t.Errorf("%s SOCKET: exit %d, stderr %q; want an error saying it is a socket", flag, r.code, r.stderr)
		}
		if st, err := os.Lstat(sock); err != nil || st.Mode()&os.ModeSocket == 0 {
			t.Errorf("%s SOCKET: the socket was replaced (%v, %v)", flag, st.Mode(), err)
		}
	}
	if h := runCLI(t, nil, "--help"); !strings.Contains(h.stdout, "A socket is refused") || strings.Contains(h.stdout, "FIFO or socket") {
		t.Errorf("--help does not say that a socket is refused")
	}
}
