package main

import (
	"os"
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

// TestLayoutBlind (issue 16, item 10): the same module laid out
// differently (tabs for blanks, extra blanks, another indentation) gives
// the same bytes from the binary, directive text (.file, .loc, .section,
// initializers, pragmas, prototypes) included.
func TestLayoutBlind(t *testing.T) {
	a := ".version 8.0\n.target sm_80\n.address_size 64\n.file\t1 \"k.cu\", 1, 2\n" +
		".global .align 4 .b8 tab[4] = {1, -2, 3, 4};\n" +
		".visible .entry k(.param .u64 p)\n.maxntid 32, 1, 1\n{\n" +
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n" +
		"\t.loc\t1 5 3\n\tld.param.u64 %rd1, [p];\n\t.pragma \"nounroll\";\n" +
		"\tld.global.u32 %r1, [%rd1];\n\tadd.s32 %r2, %r1, 1;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n" +
		"\t.section\t.debug_abbrev\n\t{\n.b8 1\n.b8 17\n\t}\n"
	b := ".version  8.0\n.target\tsm_80\n.address_size\t64\n.file 1   \"k.cu\" ,1 ,  2\n" +
		".global\t.align 4\t.b8 tab[ 4 ] = { 1 ,-2,3 ,\t4 } ;\n" +
		".visible\t.entry k( .param .u64 p )\n.maxntid 32,1,1\n{\n" +
		"  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n" +
		"  .loc 1  5  3\n  ld.param.u64\t%rd1 , [ p ] ;\n  .pragma   \"nounroll\" ;\n" +
		"  ld.global.u32 %r1,[%rd1];\n  add.s32 %r2,%r1,1;\n  st.global.u32 [%rd1],%r2;\n  ret ;\n}\n" +
		".section .debug_abbrev\n{\n  .b8   1 // code\n  .b8\t17\n}\n"
	ra, rb := runCLI(t, []byte(a), "-O2"), runCLI(t, []byte(b), "-O2")
	if ra.code != 0 || rb.code != 0 {
		t.Fatalf("exit %d/%d: %s%s", ra.code, rb.code, ra.stderr, rb.stderr)
	}
	if ra.stdout != rb.stdout {
		t.Errorf("layouts print differently:\n%s\n---\n%s", ra.stdout, rb.stdout)
	}
	if !strings.Contains(ra.stdout, ".file 1 \"k.cu\", 1, 2\n") || !strings.Contains(ra.stdout, ".section .debug_abbrev\n{\n\t.b8 1\n") {
		t.Errorf("not the canonical layout:\n%s", ra.stdout)
	}
}

// TestInvalidRejected (issue 16, item 4): the invalid PTX of the issue is
// rejected by the binary with file:line:col, exit 1, nothing written.
func TestInvalidRejected(t *testing.T) {
	hdr := ".version 8.0\n.target sm_80\n.address_size 64\n"
	body := func(s string) string {
		return hdr + ".entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\t" + s + "\n\tret;\n}\n" // s on line 8
	}
	dir := t.TempDir()
	for _, tc := range []struct{ src, want string }{
		{body("st.global.v4.u32 [%rd1], {%r1, %r2};"), ":8:27: st.global.v4.u32 wants a vector of 4 elements here, found a vector of 2"},
		{body("ld.global.v8.u32 %r1, [%rd1];"), ":8:11: ld.global.v8.u32: a 256-bit ld (.v8 .u32) needs PTX ISA 8.8 and sm_100 or later; the module has .version \"8.0\", .target \"sm_80\""},
		{strings.Replace(body("ld.global.v8.u32 %r1, [%rd1];"), "8.0\n.target sm_80", "8.8\n.target sm_100", 1), ":8:19: ld.global.v8.u32 wants a vector of 8 elements here, found a scalar"},
		{body("add.v4.u32 %r1, %r2, %r3;"), ":8:5: add.v4.u32: .v4 on add, which has no vector form"},
		{body("mov.v8.u32 %r1, %r2;"), ":8:5: mov.v8.u32: .v8 on mov, which has no vector form"},
		{body("cvt.v8.u32.u16 %r1, %r2;"), ":8:5: cvt.v8.u32.u16: .v8 on cvt, which has no vector form"},
		{body("ld.global.v8.u64 {%rd1, %rd1, %rd1, %rd1, %rd1, %rd1, %rd1, %rd1}, [%rd1];"), ":8:11: ld.global.v8.u64: .v8 .u64 is 512 bits: .v8 on ld takes .b32, .s32, .u32 or .f32 (256 bits)"},
		{hdr + ".global .v8 .f32 x;\n", ":4:9: a vector variable is .v2 or .v4, not .v8"},
		{body("call nosuch;"), ":8:7: call to undeclared function nosuch"},
		{".version 8.0\n.target sm_80\n.address_size 7\n", ":3:15: .address_size \"7\": only 32 and 64 exist"},
		{".version 1234.5\n.target sm_80\n", ":1:10: unsupported .version \"1234.5\""},
		{body(".local .b8 big[18446744073709551615];"), ":8:16: a .local array of 18446744073709551615 bytes is larger than the 512 KiB .local space"},
		{hdr + ".global .align 1073741824 .b8 x[4];\n", ":4:16: .align 1073741824 is more than 65536"},
	} {
		in := filepath.Join(dir, "bad.ptx")
		out := filepath.Join(dir, "out.ptx")
		write(t, in, []byte(tc.src))
		r := runCLI(t, nil, in, "-o", out)
		if r.code != 1 || !strings.Contains(r.stderr, in+tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %s%s", tc.src, r.code, r.stderr, in, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: output written", tc.src)
			os.Remove(out)
		}
	}
}
