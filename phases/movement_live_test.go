package phases

import (
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// TestKillSecondSweepLiveness runs DoKillMovement on the scaling kernels
// as the pipeline hands them over, with every answer its second sweep
// gives about liveness compared with a whole solve made when that sweep
// first asks (the secondLiveCheck hook: it panics on a difference), and checks that
// the answers came both from the first sweep's solve and from searches
// of touched registers.
func TestKillSecondSweepLiveness(t *testing.T) {
	// (20K for -short: the 10K kernel's second sweep answers only from
	// searches, the 20K one's from both)
	sizes := []int{20_000, 100_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	t.Parallel()
	h := &testHooks{secondLiveCheck: true}
	// checked: the answers checked since the last call, by where they
	// came from (S1, a search, the fallback solve)
	var last [3]int64
	checked := func() (n [3]int64) {
		for k := range n {
			v := h.secondLiveChecked[k].Load()
			n[k], last[k] = v-last[k], v
		}
		return n
	}
	var got [3]int64 // over the runs since the last checked()
	run := func(n int) {
		f, st, c, fn, held, cp := stateBeforeCached(t, "DoKillMovement", n)
		c.hooks = h
		sc := NewScratch()
		p := &Pass{F: f, A: NewAnalysesIn(f, sc), Config: c, Knobs: c.Knobs, Scratch: sc, limit: -1, ssa: st, stat: &PhaseStat{}}
		p.Phase = &pipeline[mustLookup(t, "DoKillMovement")]
		p.regCap, p.regCapSet = cp.regCap, cp.regCapSet
		warmAnalyses(p.A, held)
		if !fn(p) {
			t.Fatalf("%d: DoKillMovement moved nothing", n)
		}
		d := checked()
		for k := range got {
			got[k] += d[k]
		}
		t.Logf("%d instructions: answers from S1, searches, a solve: %v", n, d)
	}
	for _, n := range sizes {
		run(n)
	}
	if got[0] == 0 || got[1] == 0 {
		t.Errorf("answers from S1, searches, a solve: %v; want some from S1 and some from searches", got)
	}
	// The fallback: no work allowed, the first search solves instead.
	h.secondLiveBound, h.secondLiveBoundSet = 0, true
	got = [3]int64{}
	run(sizes[len(sizes)-1])
	if got[2] == 0 {
		t.Errorf("with no work allowed: answers from S1, searches, a solve: %v; want some from the solve", got)
	}
}

// TestKillSecondSweepLivenessMoves drives the second sweep's liveness
// answers directly: after the first sweep's solve (S1), some instructions
// move (as the first sweep's sinks do), the second sweep asks (T2), more
// instructions move, each announced to touch first; then every register
// of the moved instructions and of their blocks must be live out of
// every block exactly where the solve at T2 says.
func TestKillSecondSweepLivenessMoves(t *testing.T) {
	t.Parallel()
	f, st, c, _, _, cp := stateBeforeCached(t, "DoKillMovement", 10_000)
	sc := NewScratch()
	p := &Pass{F: f, A: NewAnalysesIn(f, sc), Config: c, Knobs: c.Knobs, Scratch: sc, limit: -1, ssa: st, stat: &PhaseStat{}}
	p.Phase = &pipeline[mustLookup(t, "DoKillMovement")]
	p.regCap, p.regCapSet = cp.regCap, cp.regCapSet
	m := &mover{p: p, f: f, kind: moveKillDown}
	pos := m.newOrder()
	du := p.A.DefUse()
	m.computeRegFlags(du)
	m.live = p.A.Liveness()
	m.files = p.A.Files()
	// movable: neither PHI nor control; moved to the head (after the
	// PHIs) of the block laid out two after its own
	var cands []ir.InstrID
	for k, b := range f.Layout {
		if k+2 >= len(f.Layout) {
			break
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.Op[i] != ir.OpPhi && f.InstrProps(i)&(ir.PBranch|ir.PTerminator) == 0 && len(core.AppendRegRefs(f, i, nil)) > 0 {
				cands = append(cands, i)
				break
			}
		}
	}
	if len(cands) < 40 {
		t.Fatalf("%d candidates", len(cands))
	}
	layoutAt := make([]int, f.NumBlocks())
	for k, b := range f.Layout {
		layoutAt[b] = k
	}
	var regs []ir.RegID
	move := func(i ir.InstrID) {
		b := f.Layout[layoutAt[f.Block[i]]+2]
		for _, x := range core.AppendRegRefs(f, i, nil) {
			regs = append(regs, x.Reg)
		}
		m.touch(i)
		f.Unlink(i)
		at := ir.NoInstr
		for j := f.BlockFirst[b]; j != ir.NoInstr && f.Op[j] == ir.OpPhi; j = f.Next[j] {
			at = j
		}
		switch {
		case at != ir.NoInstr:
			f.InsertAfter(at, i)
		case f.BlockFirst[b] != ir.NoInstr:
			f.InsertBefore(f.BlockFirst[b], i)
		default:
			f.Append(b, i)
		}
		pos.moved(i)
	}
	// the first sweep's moves
	for _, i := range cands[:20] {
		move(i)
	}
	p.A.Invalidate(ALiveness)
	m.second = true
	m.secondLiveStart()
	m.h = &testHooks{secondLiveCheck: true}
	m.liveOut(f.Layout[0], regs[0]) // T2
	want := m.ls.check
	// the second sweep's moves, after T2: half of them touch registers the
	// first sweep's moves touched too (searched before the move), the
	// others registers untouched until then (S1's answer kept)
	for _, i := range cands[20:40] {
		move(i)
	}
	m.ls.check = nil // compared below, after the moves
	slices.Sort(regs)
	regs = slices.Compact(regs)
	n := 0
	for _, x := range regs {
		for _, b := range f.Layout {
			if got, w := m.liveOut(b, x), want.IsLiveOut(b, x); got != w {
				t.Fatalf("register %d live out of block %d: %v, the solve at T2 says %v", x, b, got, w)
			}
			n++
		}
	}
	t.Logf("%d registers, %d answers compared", len(regs), n)
}
