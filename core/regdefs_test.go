package core_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// TestAppendRegDefs: the registers AppendRegDefs lists are AppendRegRefs'
// definitions, in the same order, for every instruction of generated
// kernels and of the corpus (vector lists, nested lists, addresses inside
// lists); and some instruction defines through a list.
func TestAppendRegDefs(t *testing.T) {
	var funcs []*ir.Func
	for seed := range int64(4) {
		funcs = append(funcs, gen.Func(gen.Kernel(gen.Config{Seed: 40 + seed, Size: 600, Frames: true, Fold: true, Inject: gen.AllKinds})))
	}
	files, _ := testenv.OptionalCorpus(t)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := ptx.Parse(filepath.Base(path), src); err == nil {
			funcs = append(funcs, m.Funcs...)
		}
	}
	var refs []core.RegRef
	var want, got []ir.RegID
	fromLists := 0
	for _, f := range funcs {
		for i := range ir.InstrID(f.NumInstrs()) {
			refs = core.AppendRegRefs(f, i, refs[:0])
			want = want[:0]
			for _, x := range refs {
				if x.Def {
					want = append(want, x.Reg)
					if x.Loc.InList() {
						fromLists++
					}
				}
			}
			if got = core.AppendRegDefs(f, i, got[:0]); !slices.Equal(got, want) {
				t.Fatalf("%s instruction %d: AppendRegDefs %v, AppendRegRefs' definitions %v", f.Name, i, got, want)
			}
		}
	}
	if fromLists == 0 {
		t.Fatal("no definition through a list: the lists' walk is untested")
	}
}
