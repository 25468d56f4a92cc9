package core_test

import (
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/corpustest"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
)

// The uniformity analysis visits instructions in layout-order sweeps
// before its worklist; the result must be the worklist's fixed point
// (ReferenceUniformity, the analysis before the sweeps) on generated
// kernels of every shape (before and in SSA form: loops, nested
// divergent branches, registers defined many times) and on the corpus,
// computing into a result reused from another function too.
func TestUniformitySweepsMatchWorklist(t *testing.T) {
	seeds, size := 120, 2000
	if testing.Short() {
		seeds = 30
	}
	var reused *core.Uniformity
	check := func(name string, f *ir.Func) (varying, divergent int) {
		t.Helper()
		f.ComputeCFG()
		du := core.ComputeDefUse(f)
		in := func() core.DivergenceInputs {
			return core.DivergenceInputs{Live: core.ComputeLiveness(f, core.LiveOptions{}), PostDom: core.PostDominators(f), Dom: core.Dominators(f)}
		}
		want := core.ReferenceUniformity(f, du, in)
		got := core.ComputeUniformityWith(f, du, in)
		reused = core.ComputeUniformityInto(reused, f, du, in)
		// one sweep (the worklist finishes from there) and none past the
		// first whatever it marked
		defer core.SetUniformitySweeps(core.SetUniformitySweeps(1))
		one := core.ComputeUniformityWith(f, du, in)
		for _, u := range []*core.Uniformity{got, reused, one} {
			if !slices.Equal(u.Varying, want.Varying) || !slices.Equal(u.Divergent, want.Divergent) {
				for r := range want.Varying {
					if u.Varying[r] != want.Varying[r] {
						t.Fatalf("%s: register %d varying %v, the worklist says %v", name, r, u.Varying[r], want.Varying[r])
					}
				}
				t.Fatalf("%s: divergent blocks differ from the worklist's", name)
			}
		}
		for _, v := range want.Varying {
			if v {
				varying++
			}
		}
		for _, d := range want.Divergent {
			if d {
				divergent++
			}
		}
		return varying, divergent
	}
	var nv, nd, funcs int
	for seed := range int64(seeds) {
		cfg := gen.Config{Seed: seed, Size: 100 + int(seed)*size/seeds, MaxDepth: 2 + int(seed%4), Pool: int(seed%3) * 32}
		f := gen.Func(gen.Kernel(cfg))
		v, d := check("generated", f.Clone())
		nv, nd = nv+v, nd+d
		g := f.Clone()
		g.ComputeCFG()
		if _, err := core.BuildSSA(g); err != nil {
			t.Fatal(err)
		}
		v, d = check("generated, SSA", g)
		nv, nd, funcs = nv+v, nd+d, funcs+2
	}
	files, _ := testenv.OptionalCorpus(t)
	if testing.Short() && len(files) > 20 {
		files = files[:20]
	}
	for _, cf := range corpustest.Funcs(t, files) {
		if f := cf.F; f.HasBody && f.NumInstrs() <= 20000 {
			v, d := check(cf.Name, f)
			nv, nd, funcs = nv+v, nd+d, funcs+1
		}
	}
	if nv == 0 || nd == 0 {
		t.Fatalf("%d varying registers, %d divergent branches: the test exercises too little", nv, nd)
	}
	t.Logf("%d functions: %d varying registers, %d divergent branches", funcs, nv, nd)
}
