package ir_test

import (
	"path/filepath"
	"testing"

	"github.com/ptxopt/ptxopt/internal/corpustest"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
)

// TestRegParam: RegParam answers, for every register of every function
// of the corpus and of the testdata files with .reg parameters, what a
// scan of the signature through ParamReg answers.
func TestRegParam(t *testing.T) {
	files, _ := testenv.OptionalCorpus(t)
	more, _ := filepath.Glob(filepath.Join("..", "ir", "ptx", "testdata", "*.ptx"))
	files = append(files, more...)
	regParams := 0
	for _, cf := range corpustest.Funcs(t, files) {
		f := cf.F
		for r := range f.NumRegs() + 2 {
			want := ir.NoSym
			for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
				for _, id := range ids {
					if pr, ok := f.ParamReg(id); ok && pr == ir.RegID(r) && want == ir.NoSym {
						want = id
					}
				}
			}
			if got := f.RegParam(ir.RegID(r)); got != want {
				t.Fatalf("%s: RegParam(%d) = %d, want %d", cf.Name, r, got, want)
			}
			if want != ir.NoSym {
				regParams++
			}
		}
	}
	if regParams == 0 {
		t.Errorf("no .reg parameter in %d files: the test compares nothing but NoSym", len(files))
	}
	t.Logf("%d files, %d registers holding .reg parameters", len(files), regParams)
}
