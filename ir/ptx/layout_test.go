package ptx

import (
	"bytes"
	"testing"
)

// relayout returns src with its layout changed and its tokens kept: every
// run of blanks and comments between two tokens on one line becomes a
// blank run chosen by pick (never empty), the indentation of each line
// too, and lines keep their breaks. Strings and every other token are
// copied as they are.
func relayout(src []byte, pick func(k int) string) []byte {
	var l lexer
	l.init(prepare(src))
	var out []byte
	line, k := 1, 0
	for {
		l.next()
		if l.kind == tEOF || l.kind == tBad {
			break
		}
		if l.tline != line {
			for ; line < l.tline; line++ {
				out = append(out, '\n')
			}
		}
		out = append(out, pick(k)...)
		k++
		out = append(out, l.text()...)
	}
	return append(out, '\n')
}

// TestCorpusLayout (issue 16, item 10): every corpus file laid out
// differently — tabs for blanks, blanks for tabs, extra blanks between
// all tokens, comments gone — prints the same bytes as the file itself.
// Directive text (.version, .target, .file, .loc, .section and other raw
// blocks, initializers, performance directives, pragmas, call prototypes)
// is printed in one canonical layout, not as written.
func TestCorpusLayout(t *testing.T) {
	layouts := []struct {
		name string
		pick func(k int) string
	}{
		{"one blank", func(int) string { return " " }},
		{"tabs", func(int) string { return "\t" }},
		{"mixed runs", func(k int) string { return [...]string{"  ", "\t ", " \t\t", "   \t"}[k%4] }},
	}
	for _, cf := range corpusFiles(t) {
		m, err := Parse(cf.name, cf.src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		want := Format(m)
		for _, lay := range layouts {
			src := relayout(cf.src, lay.pick)
			m2, err := Parse(cf.name, src)
			if err != nil {
				t.Errorf("%s laid out with %s: %v", cf.name, lay.name, err)
				continue
			}
			if got := Format(m2); !bytes.Equal(got, want) {
				t.Errorf("%s laid out with %s prints differently near %q", cf.name, lay.name, firstDiff(want, got))
			}
		}
	}
}

// TestDirectiveLayout: the canonical layout of directive text, by example.
func TestDirectiveLayout(t *testing.T) {
	src := ".version\t8.0 // a comment\n.target  sm_80 ,  debug\n.address_size 64\n" +
		".file\t1 \"a b.cu\",\t1234 ,5678\n" +
		".global .align 4 .b8 x[ 4 ] = { 1,-2 ,\t3, - 4 };\n" +
		".global .u64 p[1] = { generic( x ) };\n" +
		".entry k()\n.maxntid\t32 ,1, 1\n{\n" +
		"\t.loc\t1  2\t3\n\t.pragma \"nounroll\"  ;\n" +
		"\tproto:  .callprototype\t( .param .b32 _ )  _ ( .param .b64 _ ) ;\n\tret;\n}\n" +
		"\t.section\t.debug_str\n\t{\n  $L__s0 :\n\t.b8 65,66 ,0 /* text */\n\t}\n"
	m, err := Parse("l.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := `.version 8.0
.target sm_80, debug
.address_size 64
.file 1 "a b.cu", 1234, 5678

.global .align 4 .b8 x[4] = {1, -2, 3, -4};
.global .u64 p[1] = {generic(x)};

.entry k()
.maxntid 32, 1, 1
{
	proto: .callprototype (.param .b32 _) _ (.param .b64 _);

	.loc	1 2 3
	.pragma "nounroll";
	ret;
}

.section .debug_str
{
	$L__s0:
	.b8 65, 66, 0
}
`
	if got := string(Format(m)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
