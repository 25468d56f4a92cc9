package core

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

// BuildSSA without a liveness at hand answers its questions register by
// register (ssaLive); with a whole-function liveness it reads that. Both
// must place the same PHIs and rename the same way: on random functions
// (loops, unreachable blocks, reads before any definition, registers
// defined once or many times), the two results print the same.
func TestBuildSSASparseMatchesLiveness(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	n := 1500
	if testing.Short() {
		n = 300
	}
	phis, entryLive := 0, 0
	for range n {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 1 + rng.IntN(14), Regs: 1 + rng.IntN(6), MaxInstrs: rng.IntN(6)})
		a, b := f.Clone(), f.Clone()
		ia, err := BuildSSAWith(a, SSAInputs{Live: ComputeLiveness(a, LiveOptions{})})
		if err != nil {
			t.Fatal(err)
		}
		ib, err := BuildSSA(b)
		if err != nil {
			t.Fatal(err)
		}
		if ia.Phis != ib.Phis || ia.Versions != ib.Versions || ia.NewEntry != ib.NewEntry {
			t.Fatalf("with liveness: %d PHIs, %d versions; without: %d, %d", ia.Phis, ia.Versions, ib.Phis, ib.Versions)
		}
		if pa, pb := printFunc(a), printFunc(b); pa != pb {
			t.Fatalf("results differ:\nwith liveness:\n%s\nwithout:\n%s", pa, pb)
		}
		phis += ia.Phis
		live := ComputeLiveness(f, LiveOptions{})
		du := ComputeDefUse(f)
		for r := range ir.RegID(f.NumRegs()) {
			if len(du.Defs(r)) == 1 && live.IsLiveIn(f.Entry(), r) {
				entryLive++
			}
		}
	}
	if phis == 0 || entryLive == 0 {
		t.Fatalf("%d PHIs, %d registers with one definition live into the entry: the test exercises too little", phis, entryLive)
	}
}

func printFunc(f *ir.Func) string {
	var s strings.Builder
	for _, b := range f.Layout {
		s.WriteString("block\n")
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			// the text, and the operand words (versions share names)
			fmt.Fprintf(&s, "%s %v\n", f.FormatInstr(i), f.Ops(i))
		}
	}
	return s.String()
}
