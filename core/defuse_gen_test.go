package core_test

import (
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// TestDefUseGenerated compares the chains with a plain reference (per
// register, its references appended in layout order) on the scaling
// benchmark's generated kernels, printed and parsed, from a few hundred
// instructions (the direct fill) to 200K (the blocked fill with blocks
// above 256 registers), each computed into the chains and working
// memory of the size before.
func TestDefUseGenerated(t *testing.T) {
	sizes := []int{300, 3000, 20_000, 200_000, 5000}
	if testing.Short() {
		sizes = []int{300, 20_000, 5000}
	}
	var du *core.DefUse
	w := &core.DefUseWork{}
	for _, n := range sizes {
		m, err := ptx.Parse("g.ptx", ptx.Format(gen.Kernel(gen.Config{Seed: int64(n), Size: n, Pool: 64})))
		if err != nil {
			t.Fatal(err)
		}
		f := gen.Func(m)
		du = core.ComputeDefUseWith(du, f, w)
		nr := f.NumRegs()
		defs := make([][]core.Ref, nr)
		uses := make([][]core.Ref, nr)
		var refs []core.RegRef
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				refs = core.AppendRegRefs(f, i, refs[:0])
				for _, x := range refs {
					if x.Def {
						defs[x.Reg] = append(defs[x.Reg], core.Ref{Instr: i, Loc: x.Loc})
					} else {
						uses[x.Reg] = append(uses[x.Reg], core.Ref{Instr: i, Loc: x.Loc})
					}
				}
			}
		}
		if du.NumRegs() != nr {
			t.Fatalf("size %d: chains cover %d registers, want %d", n, du.NumRegs(), nr)
		}
		for r := range ir.RegID(nr) {
			if !slices.Equal(du.Defs(r), defs[r]) || !slices.Equal(du.Uses(r), uses[r]) {
				t.Fatalf("size %d: register %d: defs %v uses %v, want %v %v", n, r, du.Defs(r), du.Uses(r), defs[r], uses[r])
			}
		}
	}
}
