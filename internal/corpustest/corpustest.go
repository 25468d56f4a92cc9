// Package corpustest parses PTX files for tests that run a check on every
// function of the corpus (testenv finds the files): the read, parse and
// walk that each such test would otherwise write out again.
package corpustest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// Func is one function of a parsed file; Name is "file:function".
type Func struct {
	Name string
	F    *ir.Func
}

// Funcs parses each of paths and returns the functions of those that
// parse, in file order, declarations included (callers that want bodies
// test F.HasBody). A file that cannot be read fails the test; one that
// does not parse is left out, as ptxopt would reject it.
func Funcs(tb testing.TB, paths []string) []Func {
	tb.Helper()
	var out []Func
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		name := filepath.Base(path)
		m, err := ptx.Parse(name, src)
		if err != nil {
			continue
		}
		for _, f := range m.Funcs {
			out = append(out, Func{Name: name + ":" + f.Name, F: f})
		}
	}
	return out
}
