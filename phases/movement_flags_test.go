package phases

import (
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// TestMoverRegFlagsMatchChains checks the per-register flags the kill
// movements read instead of the chains and SSA tables (computeRegFlags)
// against those, asked directly, on generated kernels in the state each
// of DoKillMovement and DoKillMovementUp sees them: for every register,
// regOneDef is one definition and regPhiUse a PHI among its readers; for
// every instruction, flagged(regMulti, regMulti|regUnstable) is
// touchesMultiVersion or not operandsStable (what sinkOne, raiseOne and
// operandsMovable ask). And the flags are not trivial: some register of
// each kind is flagged and some is not.
func TestMoverRegFlagsMatchChains(t *testing.T) {
	sizes := []int{3000, 20000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, name := range []string{"DoKillMovement", "DoKillMovementUp"} {
		for _, n := range sizes {
			f, st, c, _, _, _ := stateBeforeCached(t, name, n)
			sc := NewScratch()
			p := &Pass{F: f, A: NewAnalysesIn(f, sc), Scratch: sc, Config: c, Knobs: c.Knobs, limit: -1, ssa: st, stat: &PhaseStat{}}
			du := p.A.DefUse()
			m := &mover{p: p, f: f}
			m.computeRegFlags(du)
			var count [3]int
			for r := range f.NumRegs() {
				x := ir.RegID(r)
				one := len(du.Defs(x)) == 1
				phi := slices.ContainsFunc(du.Uses(x), func(u core.Ref) bool { return f.Op[u.Instr] == ir.OpPhi })
				if got := m.regFlags[r]&regOneDef != 0; got != one {
					t.Fatalf("%s %d: r%d regOneDef %v, %d definitions", name, n, r, got, len(du.Defs(x)))
				}
				if got := m.regFlags[r]&regPhiUse != 0; got != phi {
					t.Fatalf("%s %d: r%d regPhiUse %v, a PHI reader %v", name, n, r, got, phi)
				}
				if one {
					count[0]++
				}
				if phi {
					count[1]++
				}
			}
			for _, b := range f.Layout {
				for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
					want := touchesMultiVersion(p, i) || !operandsStable(f, i, du)
					if got := flagged(f, i, m.regFlags, regMulti, regMulti|regUnstable); got != want {
						t.Fatalf("%s %d: instruction %d flagged %v, versions or unstable operands %v", name, n, i, got, want)
					}
					if want {
						count[2]++
					}
				}
			}
			t.Logf("%s %d: %d registers with one definition, %d read by a PHI, %d instructions flagged", name, n, count[0], count[1], count[2])
			if count[0] == 0 || count[0] == f.NumRegs() || count[1] == 0 || count[2] == 0 {
				t.Fatalf("%s %d: trivial flags %v", name, n, count)
			}
		}
	}
}
