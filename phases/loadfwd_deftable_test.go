package phases

import (
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/corpustest"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
)

// TestLfDefTableMatchesChains: the definition table LoadStoreForwarding
// reads (lfDefTable) says, for every register, what the def-use chains
// say (no definition, one, or several, and which one), on the functions
// as the pipeline hands them to the phase: generated kernels with frames
// and vector accesses, and the corpus's functions (list definitions,
// guarded ones, removed instructions).
func TestLfDefTableMatchesChains(t *testing.T) {
	target, err := ParseTarget("sm_80")
	if err != nil {
		t.Fatal(err)
	}
	checked, multi, lists, unlinked := 0, 0, 0, 0
	check := func(name string, f *ir.Func) {
		c, err := NewConfig(MaxOpt, target, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		fn := pipeline[mustLookup(t, "LoadStoreForwarding")].Fn
		if err := c.Override("LoadStoreForwarding", func(p *Pass) bool {
			du := core.ComputeDefUse(p.F)
			defs := lfDefTable(p.F, p.Scratch)
			l := lfState{f: p.F, defs: defs}
			var refs []core.RegRef
			for i := range ir.InstrID(p.F.NumInstrs()) {
				if p.F.Block[i] == ir.NoBlock {
					unlinked++
					continue
				}
				refs = core.AppendRegRefs(p.F, i, refs[:0])
				for _, x := range refs {
					if x.Def && x.Loc.InList() {
						lists++
					}
				}
			}
			for r := range ir.RegID(p.F.NumRegs()) {
				want := du.Defs(r)
				d, one := l.oneDef(r)
				switch {
				case len(want) == 0 && defs[r] != lfNoDef,
					len(want) == 1 && (!one || d != want[0].Instr),
					len(want) > 1 && defs[r] != lfManyDefs:
					t.Fatalf("%s: register %d: chains give %d definitions (%v), the table %#x", name, r, len(want), want, defs[r])
				}
				if len(want) > 1 {
					multi++
				}
			}
			checked++
			return fn(p)
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), c, nil, f, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for seed := range int64(6) {
		m := gen.Kernel(gen.Config{Seed: 700 + seed, Size: 400, Frames: true, Fold: seed%2 == 0})
		check("gen", gen.Func(m))
	}
	files, _ := testenv.OptionalCorpus(t)
	budget := 40
	if testing.Short() {
		budget = 10
	}
	for _, cf := range corpustest.Funcs(t, files) {
		if f := cf.F; budget > 0 && f.HasBody && f.NumInstrs() < 4000 {
			check(cf.Name, f)
			budget--
		}
	}
	if checked == 0 || multi == 0 || lists == 0 || unlinked == 0 {
		t.Fatalf("checked %d functions, %d registers defined more than once, %d list definitions, %d removed instructions: the comparison saw too little", checked, multi, lists, unlinked)
	}
	t.Logf("checked %d functions: %d registers defined more than once, %d list definitions, %d removed instructions", checked, multi, lists, unlinked)
}
