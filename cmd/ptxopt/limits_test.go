package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLimits (issue 16, item 5): each limit stops an input at the
// position that crosses it, with an error naming the flag; 0 lifts it;
// the other inputs of a batch go on.
func TestLimits(t *testing.T) {
	hdr := ".version 8.0\n.target sm_80\n.address_size 64\n"
	var many strings.Builder
	many.WriteString(hdr + ".entry k()\n{\n\t.reg .b32 %r<2>;\n")
	for range 12 {
		many.WriteString("\tadd.s32 %r1, %r1, 1;\n")
	}
	many.WriteString("\tret;\n}\n") // instruction 11 on line 17
	nested := hdr + ".entry k()\n{\n{\n{\n\t{ ret; }\n}\n}\n}\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		src  string
		args []string
		want string
	}{
		{many.String(), []string{"--max-instrs", "10"}, ":17:2: function k has more than 10 instructions (limit --max-instrs; 0 lifts it)"},
		{hdr + ".entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b32 %q<2>;\n\tret;\n}\n", []string{"--max-regs", "4"}, ":7:15: function k has more than 4 registers (limit --max-regs; 0 lifts it)"},
		{hdr + ".entry k()\n{\n\t.reg .b32 a, b, c;\n\tret;\n}\n", []string{"--max-regs", "2"}, ":6:18: function k has more than 2 registers (limit --max-regs; 0 lifts it)"},
		{nested, []string{"--max-nesting", "2"}, ":8:2: blocks nested more than 2 deep (limit --max-nesting; 0 lifts it)"},
		{hdr + "// " + strings.Repeat("x", 200) + "\n", []string{"--max-input", "100"}, ":4:57: input larger than 100 bytes (limit --max-input; 0 lifts it)"},
		{hdr, []string{"--max-input", "1K"}, ""},
		{many.String(), []string{"--max-instrs", "0"}, ""},
		{nested, []string{"--max-nesting", "0"}, ""},
	} {
		in := filepath.Join(dir, "in.ptx")
		write(t, in, []byte(tc.src))
		r := runCLI(t, nil, append(tc.args, in, "-o", filepath.Join(dir, "out.ptx"))...)
		if tc.want == "" {
			if r.code != 0 {
				t.Errorf("%v: exit %d: %s", tc.args, r.code, r.stderr)
			}
			continue
		}
		if r.code != 1 || !strings.Contains(r.stderr, in+tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %s%s", tc.args, r.code, r.stderr, in, tc.want)
		}
	}

	// In a batch, the input over a limit fails and the others go on.
	src := filepath.Join(dir, "src")
	write(t, filepath.Join(src, "big.ptx"), []byte(many.String()))
	write(t, filepath.Join(src, "small.ptx"), []byte(hdr+".entry s()\n{\n\tret;\n}\n"))
	out := filepath.Join(dir, "out")
	r := runCLI(t, nil, "--max-instrs", "12", "-o", out, src)
	if r.code != 1 || !strings.Contains(r.stderr, "big.ptx:19:2: function k has more than 12 instructions") ||
		!strings.Contains(r.stderr, "2 files: 1 ok, 1 failed") {
		t.Errorf("batch: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "small.ptx")); err != nil {
		t.Errorf("batch: the input within the limits was not written: %v", err)
	}

	// Bad values are usage errors; --help documents the flags, their
	// defaults and what was measured.
	for _, args := range [][]string{{"--max-instrs", "-1"}, {"--max-input", "lots"}} {
		if r := runCLI(t, nil, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, r.code, r.stderr)
		}
	}
	h := runCLI(t, nil, "--help").stdout
	for _, w := range []string{"--max-input N", "default 256M", "--max-instrs N", "default 1500000", "--max-regs N", "--max-nesting N", "default 256", "0 lifts a limit", "3.6 GB for"} {
		if !strings.Contains(h, w) {
			t.Errorf("--help lacks %q", w)
		}
	}
}

// TestInputReadOnlyToLimit: ptxopt reads no more than --max-input+1
// bytes. Its stdin is a pipe whose writer offers far more and never
// closes it: ptxopt must stop reading, report the limit and exit.
func TestInputReadOnlyToLimit(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cmd := exec.Command(binary, "--max-input", "1000")
	cmd.Stdin = pr
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	go func() {
		line := []byte("// padding padding padding padding padding padding\n")
		for {
			if _, err := pw.Write(line); err != nil {
				return // ptxopt exited and closed its end
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		pw.Close()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "<stdin>:20:32: input larger than 1000 bytes") {
			t.Errorf("exit %v: %s", err, stderr.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		pw.Close()
		t.Fatal("ptxopt kept reading past --max-input")
	}
}
