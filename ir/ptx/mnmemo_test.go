package ptx

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

// resetMnemonicMemo empties the process-wide mnemonic memo.
func resetMnemonicMemo() {
	for k := range mnemonicMemo {
		mnemonicMemo[k].Store(nil)
	}
	mnemonicCount.Store(0)
}

// parsePrinted parses src and returns the printed module and the IR dump
// of its functions (which shows the decoded opcodes, types and
// modifiers), or the error text.
func parsePrinted(name string, src []byte) string {
	m, err := Parse(name, src)
	if err != nil {
		return "error: " + err.Error()
	}
	var b bytes.Buffer
	if err := Print(&b, m); err != nil {
		return "print error: " + err.Error()
	}
	for _, f := range m.Funcs {
		if f.HasBody {
			if err := ir.Dump(&b, f); err != nil {
				return "dump error: " + err.Error()
			}
		}
	}
	return b.String()
}

// TestMnemonicMemo: a parse that finds its mnemonics in the memo (filled
// by earlier parses) gives the same module as one that decodes them all
// itself, and a mnemonic whose check depends on the module (a 256-bit
// vector access needs .version 8.8 and sm_100) is judged by each module,
// whichever module met it first.
func TestMnemonicMemo(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.ptx")
	corpus, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpus", "ptx", "*.ptx"))
	if len(corpus) > 40 {
		corpus = corpus[:40]
	}
	paths = append(paths, corpus...)
	if len(paths) == 0 {
		t.Fatal("no input")
	}
	cold := make([]string, len(paths))
	for k, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		resetMnemonicMemo()
		cold[k] = parsePrinted(p, src)
	}
	resetMnemonicMemo()
	for round := range 2 {
		for k, p := range paths {
			src, _ := os.ReadFile(p)
			if got := parsePrinted(p, src); got != cold[k] {
				t.Errorf("round %d, %s: the parse with the memo differs from a cold one", round, p)
			}
		}
	}
	if mnemonicCount.Load() == 0 {
		t.Errorf("the memo is empty after %d parses", 2*len(paths))
	}

	const wide = "st.global.v4.f64 [%rd1], {%rd1, %rd1, %rd1, %rd1};"
	module := func(version, target string) []byte {
		return []byte(fmt.Sprintf(".version %s\n.target %s\n.address_size 64\n.entry k()\n{\n\t.reg .b64 %%rd<2>;\n\t%s\n\tret;\n}\n", version, target, wide))
	}
	allowed, refused := module("8.8", "sm_100a"), module("8.7", "sm_100a")
	for _, order := range [][2][]byte{{allowed, refused}, {refused, allowed}} {
		resetMnemonicMemo()
		for _, src := range order {
			_, err := Parse("wide.ptx", src)
			want := bytes.Equal(src, allowed)
			if (err == nil) != want {
				t.Errorf("%q: error %v", strings.SplitN(string(src), "\n", 2)[0], err)
			}
		}
	}
}

// TestMnemonicMemoBounded: the memo stops growing at maxMnemonicMemo, and
// each entry it took is found again.
func TestMnemonicMemoBounded(t *testing.T) {
	defer resetMnemonicMemo()
	resetMnemonicMemo()
	p := &parser{}
	for k := range maxMnemonicMemo + 100 {
		p.mnNew = append(p.mnNew, &mnMemoEntry{text: fmt.Sprintf("made.up%d", k), info: mnInfo{set: true, vecOff: k}})
		if len(p.mnNew) == 1000 {
			p.publishMnemonics()
		}
	}
	p.publishMnemonics()
	if n := mnemonicCount.Load(); n != maxMnemonicMemo {
		t.Errorf("memo holds %d entries, want the cap %d", n, maxMnemonicMemo)
	}
	for k := range maxMnemonicMemo + 100 {
		e := lookupMnemonic([]byte(fmt.Sprintf("made.up%d", k)))
		if k < maxMnemonicMemo && (e == nil || e.info.vecOff != k) {
			t.Fatalf("made.up%d: entry %+v", k, e)
		}
		if k >= maxMnemonicMemo && e != nil {
			t.Fatalf("made.up%d found past the cap", k)
		}
	}
}
