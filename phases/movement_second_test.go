package phases

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/corpustest"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// killResult is what a DoKillMovement run did to a function: whether it
// changed it, its counters, and each instruction of the layout with its
// operands.
func killResult(p *Pass, changed bool) string {
	f := p.F
	var b strings.Builder
	fmt.Fprintln(&b, changed, p.stat.Counters)
	for _, blk := range f.Layout {
		fmt.Fprint(&b, "block ", blk, ":")
		for i := f.BlockFirst[blk]; i != ir.NoInstr; i = f.Next[i] {
			fmt.Fprint(&b, " ", i, " ", f.FormatInstr(i), ";")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestKillSecondMarked runs the -O3 pipeline on generated kernels and
// corpus functions with DoKillMovement run twice on each function it
// reaches: on a copy with the second sweep deciding again for every
// instruction, then on the function itself with the second sweep
// deciding again only for the instructions it marks (movement_second.go),
// its liveness answers checked against a solve at T2. The two must leave
// the same function and counters, and in the full sweeps each instruction
// the marked sweep skips must decide as it did in the first sweep
// (the killSkipCheck hook: its target, first reader and liveness answers). It fails when the marked sweeps visit
// no fewer instructions than the full ones, or when no second sweep
// moved anything.
func TestKillSecondMarked(t *testing.T) {
	t.Parallel()
	target, _ := ParseTarget("sm_80")
	// the hooks of the full sweeps (on a copy) and of the marked ones
	hFull := &testHooks{killSecondFull: true, killSkipCheck: true}
	hMarked := &testHooks{secondLiveCheck: true}
	funcs, secondMoves := 0, 0
	check := func(name string, f *ir.Func) {
		t.Helper()
		c, err := NewConfig(MaxOpt, target, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Override("DoKillMovement", func(p *Pass) bool {
			g := p.F.Clone()
			sc := NewScratch()
			// this phase's runs only, each with its hooks: the
			// pipeline's configuration has none
			cFull, cMarked := *p.Config, *p.Config
			cFull.hooks, cMarked.hooks = hFull, hMarked
			q := &Pass{F: g, A: NewAnalysesIn(g, sc), Config: &cFull, Knobs: p.Knobs, Scratch: sc, limit: p.limit,
				ssa: p.ssa.clone(), stat: &PhaseStat{}, Phase: p.Phase}
			q.regCap, q.regCapSet = p.regCap, p.regCapSet
			warmAnalyses(q.A, p.A.Valid())
			want := killResult(q, killMovement(q))
			q.A.Release()
			pc := p.Config
			p.Config = &cMarked
			defer func() { p.Config = pc }()
			ch := killMovement(p)
			got := killResult(p, ch)
			funcs++
			if strings.Contains(got, "moved by the second sweep") {
				secondMoves++
			}
			if got != want {
				wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
				for j := range min(len(wl), len(gl)) {
					if wl[j] != gl[j] {
						t.Fatalf("%s: the marked second sweep left another function than the full one; first difference:\nfull:   %s\nmarked: %s", name, wl[j], gl[j])
					}
				}
				t.Fatalf("%s: the results differ", name)
			}
			return ch
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), c, nil, f, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	seeds, size := int64(6), 6000
	if testing.Short() {
		seeds, size = 3, 3000
	}
	for seed := range seeds {
		for _, pool := range []int{0, 64} {
			m, err := ptx.Parse("k.ptx", ptx.Format(gen.Kernel(gen.Config{Seed: 1 + seed, Size: size, Pool: pool})))
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("gen seed %d pool %d", 1+seed, pool), gen.Func(m))
		}
	}
	// A kernel whose second sweep moves an instruction (the corpus has
	// none: there DoKillMovementUp's second sweeps move, never this one's).
	m, err := ptx.Parse("k.ptx", ptx.Format(gen.Kernel(gen.Config{Seed: 12, Size: 20_000, Pool: 64})))
	if err != nil {
		t.Fatal(err)
	}
	check("gen seed 12 size 20000 pool 64", gen.Func(m))
	files, _ := testenv.OptionalCorpus(t)
	for _, cf := range corpustest.Funcs(t, files) {
		if cf.F.HasBody && (!testing.Short() || cf.F.NumInstrs() < 3000) {
			check(cf.Name, cf.F)
		}
	}
	full, marked := hFull.killSecondVisited.Load(), hMarked.killSecondVisited.Load()
	t.Logf("%d functions: second sweeps decided for %d instructions deciding for all, %d for the marked ones; %d second sweeps moved something; %d skipped instructions' decisions compared with the first sweep's", funcs, full, marked, secondMoves, hFull.killSkipped.Load())
	if hFull.killSkipped.Load() == 0 {
		t.Errorf("no skipped instruction's decision was compared")
	}
	if marked >= full {
		t.Errorf("the marked second sweeps decided for %d instructions, the full ones for %d", marked, full)
	}
	if secondMoves == 0 {
		t.Errorf("no second sweep moved anything")
	}
}
