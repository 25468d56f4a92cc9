package phases

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
)

// checkSplitState compares the splitter's state after a refresh with a
// full computation on the function as it is: positions, def-use chains,
// liveness (the sets and the live-out sets the pressure walk reads), the
// pressure at every instruction and each block's maxima.
func checkSplitState(s *splitter) error {
	f := s.f
	for k, b := range f.Layout {
		if s.lidx[b] != int32(k) {
			return fmt.Errorf("block %d: layout position %d, want %d", b, s.lidx[b], k)
		}
		n := int32(0)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if s.pos[i] != n {
				return fmt.Errorf("instruction %d: position %d in block %d, want %d", i, s.pos[i], b, n)
			}
			n++
		}
	}
	a := s.p.A
	if a.Valid()&(ADefUse|ALiveness) != ADefUse|ALiveness {
		return fmt.Errorf("the cache dropped the chains or the liveness (holds %v)", a.Valid())
	}
	du, want := a.DefUse(), core.ComputeDefUse(f)
	for r := range ir.RegID(f.NumRegs()) {
		if !slices.Equal(du.Defs(r), want.Defs(r)) || !slices.Equal(du.Uses(r), want.Uses(r)) {
			return fmt.Errorf("chains of register %d differ from a full computation", r)
		}
	}
	l, fresh := a.Liveness(), core.ComputeLiveness(f, core.LiveOptions{})
	if !sameLiveness(f, l, fresh) {
		return fmt.Errorf("liveness differs from a full solve")
	}
	var o core.OutSet
	var p, q []ir.RegID
	for b := range ir.BlockID(f.NumBlocks()) {
		l.Out(b, &o)
		p = p[:0]
		o.Each(func(r ir.RegID) { p = append(p, r) })
		q = fresh.LiveOutRegs(b, q[:0])
		slices.Sort(p)
		slices.Sort(q)
		if !slices.Equal(p, q) {
			return fmt.Errorf("block %d: live-out set as the pressure walk reads it %v, a full solve gives %v", b, p, q)
		}
	}
	w := core.NewPressureWalker(fresh, nil)
	for _, b := range f.Layout {
		var bad error
		m := w.Block(b, func(i ir.InstrID, live [ir.NumFiles]int) {
			if bad == nil && (s.live[0][i] != int32(live[ir.FileR]+live[ir.FileUR]) || s.live[1][i] != int32(live[ir.FileP]+live[ir.FileUP])) {
				bad = fmt.Errorf("instruction %d (block %d): pressure %d/%d, a full trace gives %v", i, b, s.live[0][i], s.live[1][i], live)
			}
		})
		if bad != nil {
			return bad
		}
		for k := range ir.NumFiles {
			if got := s.bmax[int(b)*int(ir.NumFiles)+int(k)]; got != int32(m.Max[k]) {
				return fmt.Errorf("block %d file %v: maximum %d, a full trace gives %d", b, k, got, m.Max[k])
			}
		}
	}
	return nil
}

// TestSplitRefreshMatchesFull: after every round of the splitting phases,
// the state refresh keeps up to date (splitlive_update.go) equals a full
// computation, on generated kernels with long live ranges (held to a
// budget of one register so that the phases split where they can) and on
// a scaling kernel; and most rounds are refreshed in place.
func TestSplitRefreshMatchesFull(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	var mu sync.Mutex
	var checked, failures int
	incr, full := 0, 0
	h := new(testHooks)
	h.splitVerify = func(s *splitter) {
		err := checkSplitState(s)
		mu.Lock()
		defer mu.Unlock()
		checked++
		if s.upd.solved {
			full++
		} else {
			incr++
		}
		if err != nil && failures < 5 {
			failures++
			t.Errorf("%s on %s, after a round: %v", s.p.Phase.Name, s.f.Name, err)
		}
	}
	target, _ := ParseTarget("sm_80")
	tight, err := NewConfig(MaxOpt, target, mustKnobs(t, "PressureBudgetR=1", "PressureBudgetP=1"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tight.hooks, plain.hooks = h, h
	n := 40
	if testing.Short() {
		n = 12
	}
	type job struct {
		c   *Config
		cfg gen.Config
	}
	var jobs []job
	for k := range n {
		jobs = append(jobs, job{tight, longRangeKernel(int64(k))})
	}
	jobs = append(jobs, job{plain, gen.Config{Seed: 1, Size: 10_000, Pool: 64}})
	sc := NewScratch()
	for _, j := range jobs {
		f := gen.Func(gen.Kernel(j.cfg))
		if _, err := Run(context.Background(), j.c, sc, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d refreshes checked: %d in place, %d solved again", checked, incr, full)
	if checked == 0 || incr < checked/2 {
		t.Errorf("%d refreshes checked, %d in place: want most in place", checked, incr)
	}
}
