package phases

import (
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/corpustest"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
)

// TestLiveClassesFromMaxLive: the per-class maxima MaxLive's walk keeps
// (registers in their uniformity files, R+UR and P+UP summed at each
// point) are what LiveClasses' own walk (registers in the liveness's
// files) gives, on the corpus and generated kernels; and LiveClasses
// answers from them (no walk) while the pressure is cached.
func TestLiveClassesFromMaxLive(t *testing.T) {
	var funcs []*ir.Func
	for seed := range int64(6) {
		funcs = append(funcs, gen.Func(gen.Kernel(gen.Config{Seed: 4400 + seed, Size: 300, Pool: 16})))
	}
	files, _ := testenv.OptionalCorpus(t)
	for _, cf := range corpustest.Funcs(t, files) {
		if cf.F.HasBody {
			funcs = append(funcs, cf.F)
		}
	}
	uniform := 0
	for _, f := range funcs {
		want := NewAnalyses(f).LiveClasses()
		a := NewAnalyses(f)
		ml := a.MaxLive()
		if ml[ir.FileUR] > 0 || ml[ir.FileUP] > 0 {
			uniform++
		}
		if !a.classesOK {
			t.Fatalf("%s: MaxLive kept no classes", f.Name)
		}
		if got := a.LiveClasses(); got != want {
			t.Errorf("%s: classes from MaxLive's walk %v, LiveClasses' own walk %v", f.Name, got, want)
		}
		a.Invalidate(APressure)
		if got := a.LiveClasses(); got != want {
			t.Errorf("%s: LiveClasses after the pressure was dropped %v, want %v", f.Name, got, want)
		}
	}
	if uniform == 0 {
		t.Errorf("no function of %d has uniform registers live: the sums were not tested", len(funcs))
	}
	t.Logf("%d functions, %d with uniform registers live", len(funcs), uniform)
}
