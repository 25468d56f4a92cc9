package ptx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes the parser panic, and that every
// module that parses prints to text that parses again and prints the same
// way (the printer's fixed point). The seeds are small snippets written
// here plus, when the shared corpus is present, its files (read at fuzz
// time, never copied into the repository).
//
//	go test ./ir/ptx -run '^$' -fuzz FuzzParse -fuzztime 20s
func FuzzParse(f *testing.F) {
	seeds := []string{
		"",
		hdr,
		hdr + ".entry k()\n{\n\tret;\n}\n",
		prelude + "\tadd.s32 %r1, %r2, -0x10;\n\t@!%p1 bra L;\nL:\n\tret;\n}\n",
		prelude + "\t{ .reg .pred %p1; setp.eq.s32 %p1|%p2, %r1, 0; @%p1 bra D; D: }\n}\n",
		prelude + "\tld.global.v2.f32 {%f1, %f2}, [%rd1+-8];\n\ttex.2d.v4.f32.f32 {%f0,%f1,%f2,%f3}, [tex0, {%f1, %f2}];\n}\n",
		prelude + "\tt: .branchtargets A, B;\n\tbrx.idx %r1, t;\nA:\nB:\n\tret;\n}\n",
		prelude + "\t.loc 1 2 3\n\t.pragma \"nounroll\";\n\tmov.f32 %f1, 1.5e-3;\n}\n",
		hdr + ".global .align 4 .b8 x[3] = {1, 2, 3};\n.section .debug_info { .b8 1 }\n",
		hdr + ".func (.param .b32 r) f(.param .b32 a);\n.entry k() { .param .b32 p; call.uni (p), f, (p); }\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "*.ptx"))
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil && len(src) < 64<<10 {
			f.Add(src)
		}
	}
	// Small limits keep each input fast (a declaration of a million
	// registers would take the fuzzer's time on one input).
	lim := Limits{MaxInput: 1 << 20, MaxInstrs: 1 << 14, MaxRegs: 1 << 14, MaxNesting: 64}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := ParseWith("fuzz.ptx", src, lim)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("recovered panic: %v", err)
			}
			return
		}
		out := Format(m)
		m2, err := ParseWith("printed.ptx", out, NoLimits)
		if err != nil {
			t.Fatalf("printed form does not parse: %v\n--- printed ---\n%s", err, out)
		}
		if out2 := Format(m2); string(out2) != string(out) {
			t.Fatalf("printing is not a fixed point near %q", firstDiff(out, out2))
		}
	})
}

// TestMutations is a deterministic cousin of FuzzParse: truncations and
// byte edits of every corpus file must never panic, and what parses must
// print to a fixed point.
func TestMutations(t *testing.T) {
	files := corpusFiles(t)
	if testing.Short() {
		files = files[:min(len(files), 8)]
	}
	edits := []byte{'{', '}', ';', ',', '[', ']', '(', ')', '@', '!', '-', '|', ':', '%', '.', '/', '*', '"', '\n', '0', 'x', '_'}
	seed := uint32(1)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	check := func(name string, src []byte) {
		m, err := Parse(name, src)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%s: recovered panic: %v", name, err)
			}
			return
		}
		out := Format(m)
		m2, err := Parse("printed-"+name, out)
		if err != nil {
			t.Fatalf("%s: printed form does not parse: %v", name, err)
		}
		if out2 := Format(m2); string(out2) != string(out) {
			t.Fatalf("%s: not a fixed point near %q", name, firstDiff(out, out2))
		}
	}
	for _, cf := range files {
		src := cf.src
		if len(src) > 200<<10 {
			src = src[:200<<10]
		}
		for k := 1; k <= 6; k++ {
			check(cf.name, src[:len(src)*k/7])
		}
		buf := make([]byte, len(src))
		for k := 0; k < 12; k++ {
			copy(buf, src)
			for e := 0; e < 3; e++ {
				buf[rnd(len(buf))] = edits[rnd(len(edits))]
			}
			check(cf.name, buf)
		}
	}
}
