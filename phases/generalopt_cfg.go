package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// PredicateSimplify's control-flow cleanup (GeneralOptimize), after the
// predicate rules (rules/pred.rules) decided what constant predicates
// decide: branches (rules/cfg.rules: BraNext, BraThread, BraInvert),
// unreachable blocks, straight-line chains.
//
// The IR keeps every block in the layout (the verifier wants each once),
// so a block emptied here — unreachable, or merged into its predecessor —
// moves to the end of the layout without its label: there it has no
// predecessor and falls off the end, so it adds no edge, and it prints
// nothing.
//
//   - Unreachable blocks (no path from the entry) lose their instructions.
//   - A block B whose only predecessor A falls into it (A ends without a
//     branch, no branch names B, B holds no PHI) is appended to A.
//   - PHIs (in SSA form) keep one incoming value per predecessor: the
//     pairs of edges that disappeared are dropped, and an edge that moved
//     from one block to another is renamed in the PHIs it feeds. Branch
//     threading is not done into a block with PHIs.
//
// Each edit is justified on its own: an empty block or one holding a
// single jump does nothing but pass control on; a guarded branch to the
// block that follows goes there either way; "@p bra X; bra Y; X:" and
// "@!p bra Y; X:" send each lane to the same place. Moving an emptied
// block to the end changes no fall-through that is ever taken: it had no
// predecessor falling into it that survives (unreachable), or its only
// predecessor now ends with what it ended with (merged).
//
//	before:  @%p1 bra $L2;  bra.uni $L1;  $L1: bra.uni $L3;  $L2: …
//	after:   @!%p1 bra $L3;  $L2: …

// cfgState is the layout as a linked list and the number of branch
// operands naming each block, kept current while the rules edit.
type cfgState struct {
	next, prev []ir.BlockID // layout order
	refs       []int32      // branch label operands and table entries naming the block
	end        []ir.BlockID // emptied blocks, to go to the end of the layout
	moved      []bool
	reach      []bool // reached from the entry (removeUnreachable)
}

// cfgCleanup runs the branch rules over every block, then removes
// unreachable blocks, merges straight-line chains and brings the PHIs in
// line with the edges. It returns the number of edits.
func (g *genOpt) cfgCleanup() int64 {
	f := g.f
	if len(f.Layout) < 2 {
		return 0
	}
	if g.cfgSettled() {
		return 0
	}
	n := g.cfgCleanupAll()
	g.cfgQuiet, g.cfgAt = n == 0, g.cfgEdits
	return n
}

// cfgSettled reports whether a cleanup would change nothing: the last one
// changed nothing, and nothing it reads changed since. It reads the
// layout, the edges, the branches (their targets and guards), the PHIs at
// the heads of blocks and which blocks are empty or hold a single
// instruction; edits of branches and of the layout count in cfgEdits,
// PHI simplification clears cfgQuiet, and every other edit since is
// one of the dirty rounds' recorded edits (the last round's and this
// one's): one in place leaves a branch a branch with its guard and
// target and makes no other instruction one, and a removal changes
// what the cleanup reads only when its block now holds at most one
// instruction. A bundle without the dirty rounds'
// records cleans up every round.
func (g *genOpt) cfgSettled() bool {
	d := &g.dirty
	if !g.cfgQuiet || g.cfgEdits != g.cfgAt || !d.on {
		return false
	}
	f := g.f
	for k, l := range [2][]ir.InstrID{d.prev, d.cur} {
		blk := d.prevBlk
		if k == 1 {
			blk = d.curBlk
		}
		for j, i := range l {
			if !f.IsDead(i) {
				continue // rewritten in place: a branch stays one, with its guard and target
			}
			if b := blk[j]; b == ir.NoBlock || f.BlockFirst[b] == f.BlockLast[b] {
				return false
			}
		}
	}
	return true
}

// cfgCleanupAll is cfgCleanup's work.
func (g *genOpt) cfgCleanupAll() int64 {
	f := g.f
	c := &g.cfg
	nb := f.NumBlocks()
	c.next = take[ir.BlockID](g.sc, nb)
	c.prev = take[ir.BlockID](g.sc, nb)
	c.refs = take[int32](g.sc, nb)
	c.moved = take[bool](g.sc, nb)
	c.end = c.end[:0]
	for k, b := range f.Layout {
		c.prev[b], c.next[b] = ir.NoBlock, ir.NoBlock
		if k > 0 {
			c.prev[b] = f.Layout[k-1]
		}
		if k+1 < len(f.Layout) {
			c.next[b] = f.Layout[k+1]
		}
	}
	for _, b := range f.Layout {
		if i := f.BlockLast[b]; i != ir.NoInstr && f.Op[i].Props().Has(ir.PBranch) {
			g.countRefs(i, 1)
		}
	}
	n := int64(0)
	rw0 := g.rewrites
	g.cfgLive = true
	defer func() { g.cfgLive = false }()
	for _, b := range f.Layout {
		if c.moved[b] {
			continue
		}
		i := f.BlockLast[b]
		if i == ir.NoInstr || !f.Op[i].Props().Has(ir.PBranch) {
			continue
		}
		for range 4 {
			if f.IsDead(i) || !g.rulesCfg(i) {
				break
			}
		}
	}
	n += g.rewrites - rw0
	// The layout first: a block the rules emptied (BraInvert's jump
	// block) still sits between its neighbours in f.Layout, and the CFG
	// computed from it would route the fall-through through it, so the
	// PHIs would lose the pairs of the block that now falls through.
	g.applyLayout()
	f.ComputeCFG() // rebuilt only if an edit made it stale
	// The PHIs follow the edges the rules removed before merging renames
	// any.
	g.reconcilePhis()
	n += g.removeUnreachable()
	n += g.mergeChains()
	if n > 0 {
		g.applyLayout()
		g.reconcilePhis()
		g.cfgEdits += n
	}
	return n
}

// countRefs adds d to the reference counts of the blocks branch i names.
func (g *genOpt) countRefs(i ir.InstrID, d int32) {
	f := g.f
	for _, o := range f.Ops(i) {
		switch o.Kind() {
		case ir.KLabel:
			g.cfg.refs[o.Index()] += d
		case ir.KSym:
			if s := &f.Mod.Syms[o.Index()]; s.Kind == ir.SymBranchTargets {
				for _, e := range f.ListElems(s.List) {
					if e.Kind() == ir.KLabel {
						g.cfg.refs[e.Index()] += d
					}
				}
			}
		}
	}
}

// label returns the single label target of bra i (NoBlock for anything
// else: a branch table, an indirect branch).
func (g *genOpt) label(i ir.InstrID) ir.BlockID {
	f := g.f
	if f.Op[i] != ir.OpBra {
		return ir.NoBlock
	}
	ops := f.Ops(i)
	if len(ops) != 1 || ops[0].Kind() != ir.KLabel {
		return ir.NoBlock
	}
	return ir.BlockID(ops[0].Index())
}

// braToNext: bra i ends its block and names the block that follows.
func (g *genOpt) braToNext(i ir.InstrID) bool {
	f := g.f
	b := f.Block[i]
	t := g.label(i)
	return t != ir.NoBlock && f.BlockLast[b] == i && g.cfg.next[b] == t
}

// trampoline returns where block e passes control on when it does
// nothing else: its only instruction is an unguarded bra, or it is empty
// and falls through. NoBlock otherwise.
func (g *genOpt) trampoline(e ir.BlockID) ir.BlockID {
	f := g.f
	i := f.BlockFirst[e]
	if i == ir.NoInstr {
		return g.cfg.next[e]
	}
	if i != f.BlockLast[e] || f.Guard[i] != ir.NoOperand {
		return ir.NoBlock
	}
	return g.label(i)
}

// threadTarget returns the block bra i reaches through trampolines, when
// that is not the block it names (NoBlock otherwise).
func (g *genOpt) threadTarget(i ir.InstrID) ir.BlockID {
	f := g.f
	t := g.label(i)
	if t == ir.NoBlock || f.Block[i] == ir.NoBlock {
		return ir.NoBlock
	}
	e := t
	for range 8 {
		n := g.trampoline(e)
		if n == ir.NoBlock || n == e || n == t {
			break
		}
		e = n
	}
	if e == t || g.hasPhi(e) {
		return ir.NoBlock
	}
	return e
}

// thread retargets bra i to its thread target.
func (g *genOpt) thread(i ir.InstrID) {
	f := g.f
	e := g.threadTarget(i)
	g.countRefs(i, -1)
	ops := f.Ops(i)
	f.SetOps(i, []ir.Operand{ops[0].WithIndex(uint32(e))})
	g.countRefs(i, 1)
	g.cfgEdits++
}

// invertible: guarded bra i ends block b and names X; the block c that
// follows b holds only an unguarded "bra Y", no branch names c, and X
// follows c; Y is neither X nor c, and has no other edge from b.
func (g *genOpt) invertible(i ir.InstrID) bool {
	f := g.f
	b := f.Block[i]
	x := g.label(i)
	if x == ir.NoBlock || f.BlockLast[b] != i || f.Guard[i] == ir.NoOperand {
		return false
	}
	c := g.cfg.next[b]
	if c == ir.NoBlock || c == f.Entry() || g.cfg.refs[c] != 0 || g.cfg.next[c] != x {
		return false
	}
	j := f.BlockFirst[c]
	if j == ir.NoInstr || j != f.BlockLast[c] || f.Guard[j] != ir.NoOperand {
		return false
	}
	y := g.label(j)
	return y != ir.NoBlock && y != x && y != c && y != b
}

// invert rewrites "@p bra X" ending b, c: "bra Y", into "@!p bra Y" and
// empties c.
func (g *genOpt) invert(i ir.InstrID, _ val) {
	f := g.f
	b := f.Block[i]
	c := g.cfg.next[b]
	j := f.BlockFirst[c]
	y := g.label(j)
	g.countRefs(i, -1)
	g.countRefs(j, -1)
	gd := f.Guard[i]
	core.SetOperandAt(f, i, core.LocGuard, gd.WithFlags(gd.Flags()^ir.FlagNot))
	f.SetOps(i, []ir.Operand{f.Ops(i)[0].WithIndex(uint32(y))})
	g.countRefs(i, 1)
	f.Remove(j)
	g.renamePhiPred(y, c, b)
	g.toEnd(c)
	g.cfgEdits++
}

// toEnd takes emptied block b out of the layout list; applyLayout puts
// it at the end.
func (g *genOpt) toEnd(b ir.BlockID) {
	c := &g.cfg
	if c.moved[b] {
		return
	}
	p, n := c.prev[b], c.next[b]
	if p != ir.NoBlock {
		c.next[p] = n
	}
	if n != ir.NoBlock {
		c.prev[n] = p
	}
	c.prev[b], c.next[b] = ir.NoBlock, ir.NoBlock
	c.moved[b] = true
	c.end = append(c.end, b)
	g.f.BlockLabel[b] = ir.NoSym
}

// applyLayout writes the layout list back: the blocks still in place, in
// order, then the ones this cleanup emptied.
func (g *genOpt) applyLayout() {
	f := g.f
	c := &g.cfg
	if len(c.end) == 0 {
		return
	}
	first := f.Layout[0]
	out := f.Layout[:0]
	for b := first; b != ir.NoBlock; b = c.next[b] {
		out = append(out, b)
	}
	out = append(out, c.end...)
	f.Layout = out
	// c.end is kept: a later call (after merging) lays out the emptied
	// blocks of the whole cleanup again.
	f.InvalidateCFG()
}

// removeUnreachable empties the blocks no path from the entry reaches
// (the CFG is current).
func (g *genOpt) removeUnreachable() int64 {
	f := g.f
	nb := f.NumBlocks()
	seen := take[bool](g.sc, nb)
	g.cfg.reach = seen
	stack := take[ir.BlockID](g.sc, nb)[:0]
	e := f.Entry()
	seen[e] = true
	stack = append(stack, e)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range f.SuccsOf(b) {
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	// The tail: empty, unlabeled, unreachable blocks ending the layout
	// (earlier cleanups put them there); nothing to do for them.
	tail := len(f.Layout)
	for tail > 1 {
		b := f.Layout[tail-1]
		if seen[b] || f.BlockFirst[b] != ir.NoInstr || f.BlockLabel[b] != ir.NoSym {
			break
		}
		tail--
	}
	n := int64(0)
	for _, b := range f.Layout[:tail] {
		if seen[b] || g.cfg.moved[b] {
			continue
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			if f.Op[i].Props().Has(ir.PBranch) {
				g.countRefs(i, -1)
			}
			f.Remove(i)
			i = next
		}
		g.toEnd(b)
		n++
	}
	if n > 0 {
		g.count("PredicateSimplify: unreachable blocks removed", n)
	}
	return n
}

// mergeChains appends to each block A the block B that follows it when
// A falls into B and nothing else reaches B (the CFG is current for the
// blocks not yet edited).
func (g *genOpt) mergeChains() int64 {
	f := g.f
	c := &g.cfg
	n := int64(0)
	for a := f.Entry(); a != ir.NoBlock; {
		b := c.next[a]
		if b == ir.NoBlock || !c.reach[b] || c.refs[b] != 0 || b == f.Entry() || g.hasPhi(b) {
			a = b
			continue
		}
		if l := f.BlockLast[a]; l != ir.NoInstr && f.Op[l].Props()&(ir.PBranch|ir.PTerminator) != 0 {
			a = b
			continue
		}
		if f.BlockFirst[b] == ir.NoInstr && c.next[b] == ir.NoBlock {
			a = b // an empty last block: nothing to gain
			continue
		}
		// B's successors see their edge from B come from A.
		for _, s := range f.SuccsOf(b) {
			g.renamePhiPred(s, b, a)
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			f.Unlink(i)
			f.Append(a, i)
			i = next
		}
		g.toEnd(b)
		n++
		// A may now absorb the block after B too.
	}
	if n > 0 {
		g.count("PredicateSimplify: blocks merged", n)
	}
	return n
}

// hasPhi reports whether block b begins with a PHI.
func (g *genOpt) hasPhi(b ir.BlockID) bool {
	i := g.f.BlockFirst[b]
	return i != ir.NoInstr && g.f.Op[i] == ir.OpPhi
}

// renamePhiPred makes the PHIs of block s take from block to the value
// they took from block from.
func (g *genOpt) renamePhiPred(s, from, to ir.BlockID) {
	f := g.f
	for i := f.BlockFirst[s]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
		ops := f.Ops(i)
		for k := 2; k < len(ops); k += 2 {
			if ops[k].Kind() == ir.KLabel && ir.BlockID(ops[k].Index()) == from {
				ops[k] = ops[k].WithIndex(uint32(to))
			}
		}
	}
}

// reconcilePhis drops the incoming pairs of every PHI whose block is no
// longer a predecessor.
func (g *genOpt) reconcilePhis() {
	f := g.f
	any := false
	for _, b := range f.Layout {
		if g.hasPhi(b) {
			any = true
			break
		}
	}
	if !any {
		return
	}
	f.ComputeCFG()
	nb := f.NumBlocks()
	mark := take[uint32](g.sc, nb)
	_ = mark
	for _, b := range f.Layout {
		if !g.hasPhi(b) {
			continue
		}
		stamp := uint32(b) + 1 // below nb+1; stamp+nb marks a predecessor already kept
		for _, p := range f.PredsOf(b) {
			mark[p] = stamp
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			// Keep the first pair of each predecessor (stamp+nb marks
			// one already kept).
			ops := f.Ops(i)
			out := g.phiBuf[:0]
			out = append(out, ops[0])
			for k := 2; k < len(ops); k += 2 {
				if p := ops[k].Index(); mark[p] == stamp {
					out = append(out, ops[k-1], ops[k])
					mark[p] = stamp + uint32(nb)
				}
			}
			for k := 2; k < len(ops); k += 2 {
				if p := ops[k].Index(); mark[p] == stamp+uint32(nb) {
					mark[p] = stamp
				}
			}
			g.phiBuf = out
			if len(out) != len(ops) {
				f.SetOps(i, out)
			}
		}
	}
}

// count adds n to counter name of the running pass.
func (g *genOpt) count(name string, n int64) {
	if g.p != nil {
		g.p.Count(name, n)
	}
}
