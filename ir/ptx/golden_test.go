package ptx

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// TestGolden parses each testdata/*.ptx, prints it, and compares with
// testdata/*.golden (the printed PTX followed by the ir.Dump of every
// function). Run with -update to regenerate.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.ptx")
	if err != nil || len(paths) == 0 {
		t.Fatal("no testdata/*.ptx")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(filepath.Base(p), src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var got bytes.Buffer
		if err := Print(&got, m); err != nil {
			t.Fatal(err)
		}
		printed := append([]byte(nil), got.Bytes()...)
		got.WriteString("\n// ---- ir.Dump ----\n")
		var dump bytes.Buffer
		for _, f := range m.Funcs {
			if err := ir.Dump(&dump, f); err != nil {
				t.Fatal(err)
			}
		}
		for _, line := range strings.SplitAfter(dump.String(), "\n") {
			if line != "" {
				got.WriteString("// " + line)
			}
		}
		golden := strings.TrimSuffix(p, ".ptx") + ".golden"
		if *update {
			if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./ir/ptx -run TestGolden -update)", err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: output differs from %s near %q", p, golden, firstDiff(got.Bytes(), want))
		}
		// The golden PTX itself must be a fixed point.
		m2, err := Parse("golden-"+filepath.Base(p), printed)
		if err != nil {
			t.Errorf("printed %s does not parse: %v", p, err)
			continue
		}
		if d := diffModules(m, m2); d != "" {
			t.Errorf("%s: reparse differs: %s", p, d)
		}
		if again := Format(m2); !bytes.Equal(again, printed) {
			t.Errorf("%s: printing is not a fixed point near %q", p, firstDiff(again, printed))
		}
	}
}
