package ptx

import (
	"errors"
	"strings"
	"testing"
)

const hdr = ".version 8.0\n.target sm_80\n.address_size 64\n" // 3 lines

func TestErrors(t *testing.T) {
	body := func(s string) string {
		return hdr + ".entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n" + s // body starts on line 8
	}
	tests := []struct {
		src  string
		want string // "line:col: message"
	}{
		{hdr + "foo", `4:1: expected a directive, found "foo"`},
		{hdr + ".entry k(", `4:10: expected a parameter state space (.param or .reg), found end of file`},
		{hdr + ".entry k()\n{\n\tret;\n", `7:1: expected '}', found end of file`},
		{body("add.s32 %r1, %r2 %r3;\n}"), `8:18: expected ',' or ';', found "%r3"`},
		{body("add.s32 %r1, %r2,;\n}"), `8:18: expected an operand, found ';'`},
		{body("ld.u32 %r1, [%r2+];\n}"), `8:18: expected an address offset, found ']'`},
		{body("ld.u32 %r1, [];\n}"), `8:14: expected an address, found ']'`},
		{body("@%nope bra L;\n}"), `8:2: undefined predicate %nope`},
		{body("mov.u32 %r1, 0fZZ;\n}"), `8:14: malformed number 0fZZ`},
		{body("mov.u32 %r1, 99999999999999999999999;\n}"), `8:14: malformed number 99999999999999999999999`},
		{body(".reg .b32 %r1;\n}"), `8:11: redeclaration of %r1`},
		{body("L:\nL:\nret;\n}"), `9:1: redeclaration of L`},
		{body(".reg .bogus x;\n}"), `8:13: expected a register type, found "x"`},
		{body(".section foo;\n}"), `8:1: unexpected directive ".section" in a function body`},
		{body("mov.u32 %r1, \"str\";\n}"), `8:14: expected an operand, found string "str"`},
		{body("mov.u32 %r1, 1; /* never closed\n}"), `8:17: unterminated block comment`},
		{body("mov.u32 %r1, #;\n}"), `8:14: unexpected character '#'`},
		{hdr + ".global .u32 x = ;\n", `4:18: expected an initializer, found ';'`},
		{hdr + ".entry k() .maxntid 1 {\n\t.reg .b32 %r<999999999999>;\n}", `5:15: bad register count 999999999999`},
		{hdr + ".func (.param .b32 r) k(.param .b32 a) ", `4:40: expected '{' or ';', found end of file`},
		{body("ld.global.u32 %r1, [%rd9];\n}"), `8:21: undeclared register %rd9`},
		{body("@%p1 bra NOWHERE;\n}"), `8:10: branch to undefined label NOWHERE`},
	}
	for _, tc := range tests {
		_, err := Parse("bad.ptx", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.src, tc.want)
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %T is not *ptx.Error", tc.src, err)
			continue
		}
		if pe.File != "bad.ptx" {
			t.Errorf("file = %q", pe.File)
		}
		if got := strings.TrimPrefix(err.Error(), "bad.ptx:"); got != tc.want {
			t.Errorf("%q:\n got  %s\n want %s", tc.src, got, tc.want)
		}
	}
}

// TestCheck: well-formed text that PTX does not allow is rejected by Check
// at the instruction's position, every violation listed.
func TestCheck(t *testing.T) {
	src := hdr + ".entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n" +
		"\tadd.s32 %r1, %r2;\n" + // line 8: too few operands
		"\tsetp.lt.s32 %r1, %r2, 3;\n" + // line 9: a .b32 destination for setp
		"\tmov.u32 %r3, 1;\n" +
		"\tret;\n}\n"
	m, err := Parse("c.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	err = Check("c.ptx", []byte(src), m)
	if err == nil {
		t.Fatal("Check accepted invalid PTX")
	}
	want := []string{
		"c.ptx:8:2: add takes 3 operands, found 2 in `add.s32 %r1, %r2;`",
		"c.ptx:9:2: setp destination %r1 is not .pred in `setp.lt.s32 %r1, %r2, 3;`",
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Check:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 8 || pe.Col != 2 {
		t.Fatalf("first error not a positioned *Error: %#v", pe)
	}
	good := hdr + ".entry k()\n{\n.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, 1;\n\tret;\n}\n"
	m, err = Parse("g.ptx", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if err := Check("g.ptx", []byte(good), m); err != nil {
		t.Fatalf("Check rejected valid PTX: %v", err)
	}
}
