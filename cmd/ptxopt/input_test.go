package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestInputForms (issue 16, item 3): PTX saved from a C string (ending in
// NULs), with a UTF-8 byte-order mark, or with CR-only line ends goes
// through the binary and prints what the plain file prints; a NUL inside
// the text is an error at its position.
func TestInputForms(t *testing.T) {
	plain := example(t, "saxpy.ptx")
	want := runCLI(t, plain, "-O2")
	if want.code != 0 {
		t.Fatalf("plain: exit %d: %s", want.code, want.stderr)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, src string }{
		{"nul.ptx", string(plain) + "\x00"},
		{"nuls.ptx", string(plain) + "\n\x00\x00 \x00"},
		{"bom.ptx", "\xEF\xBB\xBF" + string(plain)},
		{"cr.ptx", strings.ReplaceAll(string(plain), "\n", "\r")},
		{"crlf.ptx", strings.ReplaceAll(string(plain), "\n", "\r\n")},
	} {
		in := filepath.Join(dir, tc.name)
		write(t, in, []byte(tc.src))
		r := runCLI(t, nil, "-O2", in)
		if r.code != 0 || r.stdout != want.stdout {
			t.Errorf("%s: exit %d, same output %v: %s", tc.name, r.code, r.stdout == want.stdout, r.stderr)
		}
	}
	// A NUL in the middle stays an error, at its line and column, in a
	// CR-only file too.
	lines := strings.Split(string(plain), "\n")
	k := 0
	for !strings.Contains(lines[k], "mov.u32") {
		k++
	}
	lines[k] = strings.Replace(lines[k], "mov", "mov\x00", 1)
	col := strings.Index(lines[k], "\x00") + 1
	for _, sep := range []string{"\n", "\r"} {
		in := filepath.Join(dir, "midnul.ptx")
		write(t, in, []byte(strings.Join(lines, sep)))
		r := runCLI(t, nil, in)
		wantErr := in + ":" + strconv.Itoa(k+1) + ":" + strconv.Itoa(col) + ": unexpected character '\\x00'"
		if r.code != 1 || !strings.Contains(r.stderr, wantErr) {
			t.Errorf("NUL inside (lines end %q): exit %d %q, want 1 and %s", sep, r.code, r.stderr, wantErr)
		}
	}

}
