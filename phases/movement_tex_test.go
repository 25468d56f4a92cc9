package phases

import (
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
)

// TestTexReadElsewhereImpliesNotReadSoon: the dry run's shortcut
// (readElsewhere, from the chains) answers only where readSoon's walk
// of the window would find no reader, for every texture-class fetch of
// the layout of generated kernels as each texture movement sees them in
// the pipeline (the kernels of TestDoTexMovementGenerated, where fetches
// move, and some like the scaling kernels); and it answers for some (fetches read in other blocks only) and
// leaves others to readSoon.
func TestTexReadElsewhereImpliesNotReadSoon(t *testing.T) {
	target, _ := ParseTarget("sm_80")
	elsewhere, left, seen := 0, 0, 0
	for _, name := range []string{"DoTexMovement", "DoTexMovementRaw"} {
		for n := range int64(24) {
			cfg := gen.Config{Seed: 9900 + n, Size: 100 + int(n%5)*60, Frames: n%3 == 0}
			if n >= 16 {
				cfg = gen.Config{Seed: n, Size: 3000, Pool: 64} // as the scaling kernels
			}
			f := gen.Func(gen.Kernel(cfg))
			c, err := NewConfig(MaxOpt, target, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			fn := pipeline[mustLookup(t, name)].Fn
			if err := c.Override(name, func(p *Pass) bool {
				if p.SSA() {
					seen++
					m := &mover{p: p, f: p.F, du: p.A.DefUse(), window: int(p.Knobs.Int(MovementWindow))}
					for _, b := range p.F.Layout {
						for i := p.F.BlockFirst[b]; i != ir.NoInstr; i = p.F.Next[i] {
							if !texClass(p.F, i) {
								continue
							}
							if !m.readElsewhere(i) {
								left++
								continue
							}
							elsewhere++
							if d := m.readSoon(i); d != 0 {
								t.Errorf("%s kernel %d: fetch %d read elsewhere by the chains, readSoon %d", name, n, i, d)
							}
						}
					}
				}
				return fn(p)
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := Run(context.Background(), c, nil, f, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen == 0 || elsewhere == 0 || left == 0 {
		t.Fatalf("%d runs in SSA form: %d fetches read elsewhere, %d left to readSoon", seen, elsewhere, left)
	}
	t.Logf("%d runs in SSA form: %d fetches read elsewhere, %d left to readSoon", seen, elsewhere, left)
}
