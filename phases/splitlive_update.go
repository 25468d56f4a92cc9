package phases

import (
	"cmp"
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Bringing the splitting phases' state up to date after a round's edits.
//
// A round's splits insert a few instructions (recomputations, before the
// first use of a value in a few blocks) and move a few down their block
// (sinks); the next round needs the def-use chains, the liveness, the
// positions and the pressure at every instruction of the function as it
// is now. Computing them all again costs a walk of the whole function per
// round, when the edits touch a handful of blocks: on a kernel of a
// million instructions that was most of the phase (two traces, a
// liveness solve and a def-use computation where one trace did when
// nothing was split). So refresh updates them where the edits reach:
//
//   - positions: the edited blocks are numbered again (positions count
//     within a block; the layout position of the block orders blocks);
//   - def-use chains: the rows of the registers the edited instructions
//     name take their new references in place (DefUse.Relink);
//   - liveness: only registers the edited instructions name can change
//     (a register's liveness follows from its own references). For one
//     written by an inserted or moved instruction (a definition added
//     before reads hides them), Shrink finds its live-in blocks again
//     from its references and clears the blocks it left, walking back
//     from the edited blocks; for one read where no write of it precedes
//     in the block (upward-exposed), Grow marks the blocks it now
//     reaches (none when it was live there already, as the sources of a
//     recomputation are). The sparse method, or a register that a
//     segment of the dense one does not number where it becomes live (a
//     narrower source kept live, at times), falls back to solving the
//     liveness again (and tracing the whole function);
//   - pressure: a block's trace follows from its instructions and its
//     live-out set, so the edited blocks and the predecessors of blocks
//     whose live-in set changed are traced again, and the maximum is
//     taken again over the per-block maxima.
//
// The result is the state a full measure gives (the splitVerify test
// hook, hooks.go, compares them after every round).

// splitUpdate lists a round's edits.
type splitUpdate struct {
	added  []ir.InstrID // inserted instructions
	moved  []ir.InstrID // instructions moved within their block
	edited []ir.BlockID // blocks holding them, each once
	mark   []uint32     // per block: stamp when listed in edited or retrace
	stamp  uint32

	shrinkRegs []ir.RegID
	gone       []core.RegBlock // (register written, its block) for Shrink
	exposed    []core.RegBlock // (register read, its block) where it is upward-exposed now
	blocks     []ir.BlockID
	retrace    []ir.BlockID
	refs       []core.RegRef
	shrink     core.ShrinkState
	relink     core.RelinkWork
	// solved: the last refresh solved the liveness and traced the
	// function again (tests read it)
	solved bool
}

// reuse returns u emptied, keeping its memory.
func (u splitUpdate) reuse() splitUpdate {
	u.added, u.moved, u.edited = u.added[:0], u.moved[:0], u.edited[:0]
	return u
}

// edit lists block b as edited.
func (u *splitUpdate) edit(b ir.BlockID) {
	if !slices.Contains(u.edited, b) {
		u.edited = append(u.edited, b)
	}
}

// refresh brings the positions, the cached def-use chains and liveness,
// and the pressure trace up to date with the round's edits (s.upd), drops
// the other instruction analyses, and returns the maximum per class.
func (s *splitter) refresh() [2]int {
	f, a, u := s.f, s.p.A, &s.upd
	a.Invalidate(AUniformity | APressure)
	n := f.NumInstrs()
	s.pos = grow32keep(s.pos, n)
	s.live[0] = grow32keep(s.live[0], n)
	s.live[1] = grow32keep(s.live[1], n)
	for _, b := range u.edited {
		s.number(b)
	}
	du := a.DefUse()
	du.Relink(f, u.added, u.moved, s.place, &u.relink)
	var max [2]int
	u.solved = !s.relive(du)
	if !u.solved {
		for _, b := range u.retrace {
			s.traceBlock(b)
		}
		max = s.maxima()
	} else {
		a.Invalidate(ALiveness)
		max = s.measure()
	}
	u.added, u.moved, u.edited = u.added[:0], u.moved[:0], u.edited[:0]
	if h := s.p.hooks(); h != nil && h.splitVerify != nil {
		h.splitVerify(s) // (tests: compares the state with a full computation)
	}
	return max
}

// relive updates the cached liveness for the round's edits and lists in
// u.retrace the blocks whose trace changed (readying the walker over
// it); false when it cannot (the caller solves again).
func (s *splitter) relive(du *core.DefUse) bool {
	f, u := s.f, &s.upd
	l := s.p.A.Liveness()
	if l.Method != core.Dense {
		return false
	}
	// The registers whose references the edits changed, with their
	// blocks: for Shrink, those written by an inserted or moved
	// instruction and those a moved one reads (a definition added before
	// reads hides them, a read moved down may pass one); for Grow, those
	// read where no write that kills them precedes in the block now.
	// Shrink leaves the sets at old ∩ new, and Grow adds what is new:
	// every block that becomes live in reaches, back along a path of
	// blocks that do not write the register, a block of an inserted or
	// moved read (else the path was there before the edits).
	u.shrinkRegs, u.gone, u.exposed = u.shrinkRegs[:0], u.gone[:0], u.exposed[:0]
	for k, list := range [2][]ir.InstrID{u.added, u.moved} {
		for _, i := range list {
			b := f.Block[i]
			u.refs = core.AppendRegRefs(f, i, u.refs[:0])
			for _, x := range u.refs {
				if x.Def || k == 1 {
					u.shrinkRegs = append(u.shrinkRegs, x.Reg)
					u.gone = append(u.gone, core.RegBlock{Reg: x.Reg, Block: b})
				}
				if !x.Def && s.exposed(du, x.Reg, b) {
					u.exposed = append(u.exposed, core.RegBlock{Reg: x.Reg, Block: b})
				}
			}
		}
	}
	slices.Sort(u.shrinkRegs)
	u.shrinkRegs = slices.Compact(u.shrinkRegs)
	slices.SortFunc(u.exposed, func(x, y core.RegBlock) int { return int(x.Reg) - int(y.Reg) })
	u.stamp++
	if nb := f.NumBlocks(); len(u.mark) < nb || u.stamp == 0 {
		u.mark = make([]uint32, nb)
		u.stamp = 1
	}
	u.retrace = u.retrace[:0]
	list := func(b ir.BlockID) {
		if u.mark[b] != u.stamp {
			u.mark[b] = u.stamp
			u.retrace = append(u.retrace, b)
		}
	}
	changed := func() {
		for _, b := range u.shrink.Changed() {
			for _, p := range f.PredsOf(b) {
				list(p)
			}
		}
	}
	for _, b := range u.edited {
		list(b)
	}
	if len(u.shrinkRegs) > 0 {
		if !l.Shrink(&u.shrink, du, s.pos, u.shrinkRegs, u.gone, nil) {
			return false
		}
		changed()
	}
	for k := 0; k < len(u.exposed); {
		r := u.exposed[k].Reg
		u.blocks = u.blocks[:0]
		for ; k < len(u.exposed) && u.exposed[k].Reg == r; k++ {
			u.blocks = append(u.blocks, u.exposed[k].Block)
		}
		if !l.Grow(&u.shrink, du, r, u.blocks) {
			return false
		}
		changed()
	}
	s.startTrace()
	return true
}

// exposed reports whether r is read in b before any write of r there
// that kills it (an unguarded one), by the chains: the first read of r
// in b against the unguarded definitions of r in b before it.
func (s *splitter) exposed(du *core.DefUse, r ir.RegID, b ir.BlockID) bool {
	f := s.f
	lo := uint64(s.lidx[b]) << 32
	uses := du.Uses(r)
	k, _ := slices.BinarySearchFunc(uses, lo, func(x core.Ref, p uint64) int { return cmp.Compare(s.place(x.Instr), p) })
	for k < len(uses) && f.Op[uses[k].Instr] == ir.OpPhi && f.Block[uses[k].Instr] == b {
		k++ // read on an incoming edge, not in b
	}
	if k == len(uses) || f.Block[uses[k].Instr] != b {
		return false
	}
	first := s.place(uses[k].Instr)
	for _, x := range du.Defs(r) {
		if i := x.Instr; f.Block[i] == b && s.place(i) < first && f.Guard[i] == ir.NoOperand {
			return false
		}
	}
	return true
}

// grow32keep returns s resized to n, keeping its contents.
func grow32keep(s []int32, n int) []int32 {
	if cap(s) < n {
		t := make([]int32, n, n+n/8)
		copy(t, s)
		return t
	}
	return s[:n]
}
