package ptx

import (
	"bytes"
	"github.com/ptxopt/ptxopt/ir"
	"strings"
	"testing"
)

// TestPreparedText: text saved from a C string (trailing NULs), with a
// byte-order mark, or with CR-only line ends parses to the module the
// plain LF text gives, and errors name the line and column of the file
// as stored.
func TestPreparedText(t *testing.T) {
	plain := hdr + ".entry k()\n{\n.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, 1;\n\tret;\n}\n"
	want := Format(mustParse(t, plain))
	for _, tc := range []struct{ name, src string }{
		{"one NUL", plain + "\x00"},
		{"NULs and blanks", plain + " \x00\x00\n\x00 \n"},
		{"NUL without newline", strings.TrimSuffix(plain, "\n") + "\x00"},
		{"BOM", "\xEF\xBB\xBF" + plain},
		{"CR only", strings.ReplaceAll(plain, "\n", "\r")},
		{"CRLF", strings.ReplaceAll(plain, "\n", "\r\n")},
		{"mixed", strings.Replace(strings.ReplaceAll(plain, "\n", "\r"), "\r", "\r\n", 3)},
		{"everything", "\xEF\xBB\xBF" + strings.ReplaceAll(plain, "\n", "\r") + "\x00"},
	} {
		m, err := Parse("p.ptx", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := Format(m); !bytes.Equal(got, want) {
			t.Errorf("%s: prints\n%s\nwant\n%s", tc.name, got, want)
		}
	}

	// Positions are those of the file as stored.
	for _, tc := range []struct{ name, src, want string }{
		{"NUL inside", hdr + ".entry k()\n{\n\tret;\x00\n}\n", "p.ptx:6:6: unexpected character '\\x00'"},
		{"NUL before trailing text", hdr + "\x00.entry k()\n", "p.ptx:4:1: unexpected character '\\x00'"},
		{"CR-only lines", strings.ReplaceAll(hdr+".entry k()\n{\n\tadd.s32 %r1 %r2;\n}\n", "\n", "\r"), "p.ptx:6:14: expected ',' or ';', found \"%r2\""},
		{"unterminated string at a CR", hdr + ".file 1 \"a.cu\r\"", "p.ptx:4:9: unterminated string"},
		{"BOM columns", "\xEF\xBB\xBFfoo", "p.ptx:1:4: expected a directive, found \"foo\""},
	} {
		_, err := Parse("p.ptx", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.want)
		}
	}

	// Check reads the same text: a CR-only file's violation is on its line.
	bad := strings.ReplaceAll(hdr+".entry k()\n{\n.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2;\n\tret;\n}\n", "\n", "\r")
	m := mustParse(t, bad)
	if err := Check("p.ptx", []byte(bad), m); err == nil || !strings.HasPrefix(err.Error(), "p.ptx:7:2: add takes 3 operands") {
		t.Errorf("Check on CR-only lines: %v", err)
	}
}

func mustParse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := Parse("p.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
