package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Dirty rounds: the bundle's fixed point without a full walk per round.
//
// A round after the first revisits only what the edits since the same
// point of the previous round can change; a full walk would change nothing
// elsewhere, because everything a sub-pass decides at an instruction y is
// a function of what it reads then:
//
//   - the local walk reads y's block only (the copy facts, the local
//     definitions): a block none of whose instructions was edited since
//     its last local walk repeats that walk without an edit. The next
//     round's local walk takes the blocks the round edited in.
//   - the global walk (single-definition copy propagation and the rules
//     with single definitions) and MergeEquivalentConditionalFlow also
//     read the def-use chains and, through them, instructions a bounded
//     number of steps away (defOf and known look through a source's
//     definition to its sources; findReuse goes from a source's
//     definition to the other uses of its operand; merging counts
//     definitions and uses). They walk the blocks within reach of an
//     edit: every edited instruction records, when it is edited, the
//     registers it named and its block, and, once edited, the registers
//     it names. A register it defines is followed downstream through the
//     chains' rows (followReg): every instruction naming it has its block
//     marked, and the results of those that read it with an opcode a rule
//     looks through are followed in turn, dirtyLevels rows deep. A
//     register it reads (followSeed) changes only in its counts and rows:
//     it is marked for global copy propagation (which rewrites its uses),
//     its definitions' blocks are marked, its uses' when merging (which
//     reads whether its chains' sources have one use) if its use count
//     can have crossed one (markMergeUses), and the results of its
//     add uses are followed if the edit is among the uses findReuse
//     scans (it scans the first uses of the register an add adds a
//     constant to). The rows are those of
//     chains computed after the edits they do not list were recorded, so
//     a path through an instruction they miss starts at that (edited)
//     instruction instead. The edits of the previous round and of this
//     round's local walk are followed before the global walk starts; an
//     edit during the walk is followed at once, so a later block or
//     register it reaches is walked in this round, as a full walk would;
//     an earlier one would not see it in a full walk either.
//   - dead code, the CFG cleanup and PHI simplification walk everything,
//     every round; a round in which the CFG changed, PHIs were simplified
//     or the function grew makes the next round a full one (dominance and
//     renamed uses are not traced).
//
// Budgets keep their meaning: a rewrite happens in the same order as in
// a full round, so a budget runs out at the same rewrite, and a budget
// spent stays spent. A region that grows past half the function turns
// the rest of the round into a full one.

// dirtyLevels: how many rows deep an edit is followed downstream. A rule
// at y reads the value of a register r it does not name only through the
// definitions of its sources: select formation (minMaxOf) through a setp
// to the setp's sources; findReuse through an add to the add's constant
// operand, and (lowClear) further through the add's other operand's
// definition, a shl, mul or and, to its constant operand: at most three
// rows (r's, the shl's result's, the add's result's), through those
// opcodes only (looksThrough). Every other look-through (the nested
// patterns: not, neg, cvta) reads the inner definition's form and
// operand names, which change only when it is edited itself, and
// whether its sources have one dominating definition, which an edit
// changes only by deleting an instruction that defines a register still
// read (GuardFalse, a self move; dead code removes only definitions of
// registers nothing reads; other edits keep destinations): the readers
// of a register a deleted instruction defined have their results
// followed whatever their opcode (followReg's removed), so that global
// copy propagation sees, e.g., a "mov d, r" whose r has one definition
// left (long-run kernel 119678: GeneralOptimizeMid's partial round
// passed over such a copy, which a full round propagates).
const dirtyLevels = 3

// looksThrough reports whether a rule may read, at a use of the result of
// an instruction of opcode op, the value of one of that instruction's
// sources (see dirtyLevels).
func looksThrough(op ir.Opcode) bool {
	switch op {
	case ir.OpSetp, ir.OpAdd, ir.OpShl, ir.OpMul, ir.OpAnd:
		return true
	}
	return false
}

type dirtyState struct {
	on bool // a fixed-point bundle: edits are recorded
	// partial: the round under way walks only what is marked.
	partial bool
	// noPrefix (the prefixRewrite test hook): the local walk rewrites
	// every instruction of the blocks it walks
	noPrefix bool
	// all: everything counts as marked (the region grew too large, or
	// the round is not partial).
	all bool
	// full: the next round walks everything.
	full bool

	nInstrs, nRegs, nBlocks int // the function's sizes when recording began
	rounds                  int // rounds that began partial (a counter of the report)

	// Edits: prev of the last round, cur of this one; seed holds the
	// registers each named before its edit.
	prev, cur         []ir.InstrID
	prevSeed, curSeed []seedReg
	prevBlk, curBlk   []ir.BlockID // the blocks the edits were in
	instrMark         []uint32     // == epoch: recorded in cur
	// instrEpoch (== epoch): an instruction the marks reach this round;
	// the global walk's rules visit those only (instrMarked).
	instrEpoch []uint32
	flushed    int // cur[:flushed] are followed already

	// This round's marks (== epoch): registers with how deep they are
	// still followed, blocks by layout position.
	epoch    uint32
	regEpoch []uint32
	regDepth []int8
	// marked: the registers marked this round (regEpoch), each once, in
	// the order marked: a partial round's global copy propagation takes
	// them in register order from a heap (regHeap) instead of asking
	// every register of the function.
	marked, regHeap []ir.RegID
	blkEpoch        []uint32
	// blkWhole (== epoch): a block the last round removed an
	// instruction from; the local walk's rewrites start at its first
	// instruction (see prefixUnchanged).
	blkWhole  []uint32
	layoutPos []int32
	budget    int // rows the round may still follow
	stack     []regAt
	refs      []core.RegRef
	irefs     []core.RegRef
	urefs     []core.RegRef
	seeded    int  // curSeed[:seeded] are followed already
	duOK      bool // g.du was computed this round (rows current but for recorded edits)
	// opaqueTouched: an opaque instruction was edited since the global
	// walk last listed the opaque registers.
	opaqueTouched bool
	// Merging (markMergeUses): the registers marked as read this round,
	// whose uses' blocks are marked only if their use counts can cross
	// one; postN counts (== epoch in postEpoch) the reads of a register
	// in edited instructions as they are now.
	mergeRegs []ir.RegID
	postEpoch []uint32
	postN     []int32
}

// seedReg is a register an edited instruction named before its edit,
// with the block the instruction was in.
type seedReg struct {
	r   ir.RegID
	def bool
	blk ir.BlockID
	i   ir.InstrID // the edited instruction (deleted when f.IsDead(i))
}

// genOptBufs are a bundle run's growable lists, kept in the worker's
// Scratch between runs so that a run allocates only to grow them.
type genOptBufs struct {
	prev, cur         []ir.InstrID
	prevSeed, curSeed []seedReg
	prevBlk, curBlk   []ir.BlockID
	stack             []regAt
	refs, irefs       []core.RegRef
	urefs             []core.RegRef
	edits             []useEdit
	mblk              []ir.InstrID // MergeEquivalentConditionalFlow's block lists
	mwr               []ir.RegID
	mergeRegs         []ir.RegID
	marked, regHeap   []ir.RegID
	du                duBufs    // the def-use log's (generalopt_du.go)
	dead              deadBufs  // dead code's (generalopt_dead.go)
	ent               []copyEnt // the local walk's facts of a block
}

type regAt struct {
	r ir.RegID
	d int8
	// any: a register a deleted instruction defined; its readers'
	// results are followed whatever their opcode (followReg)
	any bool
}

// sizeDirty takes the recording's tables, sized for f as it is now,
// from the arena.
func (g *genOpt) sizeDirty(f *ir.Func) {
	d := &g.dirty
	d.nInstrs, d.nRegs, d.nBlocks = f.NumInstrs(), f.NumRegs(), f.NumBlocks()
	d.instrMark = take[uint32](g.sc, d.nInstrs)
	d.instrEpoch = take[uint32](g.sc, d.nInstrs)
	d.regEpoch = take[uint32](g.sc, d.nRegs)
	d.regDepth = take[int8](g.sc, d.nRegs)
	d.blkEpoch = take[uint32](g.sc, d.nBlocks)
	d.blkWhole = take[uint32](g.sc, d.nBlocks)
	d.layoutPos = take[int32](g.sc, d.nBlocks)
	d.postEpoch, d.postN = nil, nil // (followInstr counts nothing then)
	if g.on[spMerge] {
		// only merging reads the counts (markMergeUses): 8 bytes a
		// register the other bundles need not take
		d.postEpoch = take[uint32](g.sc, d.nRegs)
		d.postN = take[int32](g.sc, d.nRegs)
	}
}

// startDirty begins recording (once per bundle run, before the first
// round).
func (g *genOpt) startDirty() {
	f := g.f
	d := &g.dirty
	d.on, d.partial, d.all, d.full = true, false, true, false
	g.sizeDirty(f)
	b := &g.sc.genOpt
	d.mergeRegs = b.mergeRegs[:0]
	d.marked, d.regHeap = b.marked[:0], b.regHeap[:0]
	d.prev, d.cur = b.prev[:0], b.cur[:0]
	d.prevSeed, d.curSeed = b.prevSeed[:0], b.curSeed[:0]
	d.prevBlk, d.curBlk = b.prevBlk[:0], b.curBlk[:0]
	d.stack, d.refs, d.irefs, d.urefs = b.stack[:0], b.refs[:0], b.irefs[:0], b.urefs[:0]
	d.flushed, d.seeded = 0, 0
	d.epoch = 1
}

// stopDirty ends recording: every walk after it is a full one.
func (g *genOpt) stopDirty() {
	d := &g.dirty
	if d.on {
		// the buffers, grown, go back to the worker for the next run
		b := &g.sc.genOpt
		b.prev, b.cur, b.prevSeed, b.curSeed, b.prevBlk, b.curBlk = d.prev, d.cur, d.prevSeed, d.curSeed, d.prevBlk, d.curBlk
		b.stack, b.refs, b.irefs, b.urefs = d.stack, d.refs, d.irefs, d.urefs
		b.mergeRegs = d.mergeRegs
		b.marked, b.regHeap = d.marked, d.regHeap
	}
	d.on, d.partial, d.all = false, false, true
}

// touch records that instruction i is about to be edited.
func (g *genOpt) touch(i ir.InstrID) {
	d := &g.dirty
	g.memoVisit = 0 // the visit's sources may have changed (src)
	if g.duLog.on {
		g.duNote(i)
	}
	if g.deadLog.on {
		g.deadNote(i)
	}
	if !d.on {
		return
	}
	f := g.f
	if int(i) >= d.nInstrs {
		d.full = true // made during the bundle: not traced
		return
	}
	if f.InstrProps(i).Has(ir.POpaque) {
		d.opaqueTouched = true
	}
	if d.instrMark[i] == d.epoch {
		return
	}
	d.instrMark[i] = d.epoch
	d.cur = append(d.cur, i)
	d.curBlk = append(d.curBlk, f.Block[i])
	d.refs = core.AppendRegRefs(f, i, d.refs[:0])
	for _, x := range d.refs {
		d.curSeed = append(d.curSeed, seedReg{x.Reg, x.Def, f.Block[i], i})
	}
}

// beginRound sets up round's walks: partial when the last round allows.
func (g *genOpt) beginRound(round int) {
	d := &g.dirty
	if !d.on {
		return
	}
	f := g.f
	d.epoch++
	sized := f.NumInstrs() == d.nInstrs && f.NumRegs() == d.nRegs && f.NumBlocks() == d.nBlocks
	d.partial = round > 0 && !d.full && sized && len(d.prev) < d.nInstrs/8
	if !sized {
		// The function grew (a CFG edit): record against the new sizes;
		// this round is a full one.
		g.sizeDirty(f)
	}
	d.all = !d.partial
	d.mergeRegs = d.mergeRegs[:0]
	d.marked = d.marked[:0]
	if d.partial {
		d.rounds++
	}
	d.full = false
	d.flushed, d.seeded, d.duOK = 0, 0, false
	if !d.partial {
		return
	}
	d.budget = d.nInstrs / 2
	for k, b := range f.Layout {
		d.layoutPos[b] = int32(k)
	}
	// The local walk's blocks: those the last round edited in.
	for k, b := range d.prevBlk {
		if b != ir.NoBlock {
			d.blkEpoch[b] = d.epoch
			if i := d.prev[k]; f.IsDead(i) || f.Block[i] == ir.NoBlock {
				d.blkWhole[b] = d.epoch // a removal: no place to start from
			}
		}
	}
}

// prefixUnchanged reports whether the local walk of a partial round,
// walking block b with i the first instruction not yet passed since none
// it passed was edited, may pass over i without rewriting: whether
// neither i nor an instruction before it in b was edited since b's last
// local walk. That walk then met at i what it meets now (the facts it
// reads come from the instructions before i in b), and left i unedited,
// so substitution and the rules would leave it as it is again (a budget
// they were refused by stays spent). Every edit since is in the last
// round's record (instrMark one epoch back) — the walk comes first in a
// round, and edits made in it mark the current epoch — except removals,
// which leave no instruction to meet: a block with one is rewritten from
// its start (blkWhole).
func (d *dirtyState) prefixUnchanged(b ir.BlockID, i ir.InstrID) bool {
	return d.partial && d.blkWhole[b] != d.epoch && d.instrMark[i]+1 < d.epoch && !d.noPrefix
}

// checkPrefix is the prefixCheck hook's rewrite of instruction i, passed over.
func (g *genOpt) checkPrefix(i ir.InstrID) {
	rw := g.rewrites
	n := int64(0)
	if g.on[spCopyProp] {
		n = g.substitute(i)
	}
	if g.applyRules(i) || n > 0 || g.rewrites != rw {
		panic("GeneralOptimize: the local walk passed over an instruction it would rewrite")
	}
}

// endRound keeps this round's edits for the next round.
func (g *genOpt) endRound() {
	d := &g.dirty
	if !d.on {
		return
	}
	d.prev, d.cur = d.cur, d.prev[:0]
	d.prevSeed, d.curSeed = d.curSeed, d.prevSeed[:0]
	d.prevBlk, d.curBlk = d.curBlk, d.prevBlk[:0]
}

// opaqueEdited reports whether an edit since the global walk last listed
// the opaque registers named an opaque instruction, before the edit
// (opaqueTouched) or after it: the edits of the last round (which hold
// every edit made after that walk began) and this round's so far.
func (d *dirtyState) opaqueEdited(f *ir.Func) bool {
	if d.opaqueTouched {
		return true
	}
	for _, l := range [2][]ir.InstrID{d.prev, d.cur} {
		for _, i := range l {
			if !f.IsDead(i) && f.InstrProps(i).Has(ir.POpaque) {
				return true
			}
		}
	}
	return false
}

// blockMarked reports whether the walk under way visits block b.
func (g *genOpt) blockMarked(b ir.BlockID) bool {
	d := &g.dirty
	return d.all || d.blkEpoch[b] == d.epoch
}

// instrMarked reports whether the global walk's rules visit instruction i
// (in a marked block): what a rule decides at i it reads from i and,
// through the def-use chains, from instructions and registers the marks
// follow (see the file comment); an instruction they do not reach would
// decide as it did in its last visit. (Blocks are the local walk's unit:
// its facts run through the block.)
func (g *genOpt) instrMarked(i ir.InstrID) bool {
	d := &g.dirty
	return d.all || int(i) >= len(d.instrEpoch) || d.instrEpoch[i] == d.epoch
}

// regMarked reports whether global copy propagation looks at r.
func (g *genOpt) regMarked(r ir.RegID) bool {
	d := &g.dirty
	return d.all || (int(r) < len(d.regEpoch) && d.regEpoch[r] == d.epoch)
}

// followAll follows the last round's edits and this round's so far, with
// the chains just computed (the global walk is about to start).
func (g *genOpt) followAll() {
	d := &g.dirty
	d.duOK = true
	if d.all {
		return
	}
	for k, i := range d.prev {
		if b := d.prevBlk[k]; b != ir.NoBlock {
			d.blkEpoch[b] = d.epoch
		}
		g.followInstr(i)
	}
	for _, x := range d.prevSeed {
		g.followSeed(x.r, x.def, x.blk, g.f.IsDead(x.i))
	}
	g.flush()
}

// flush follows this round's edits not followed yet.
func (g *genOpt) flush() {
	d := &g.dirty
	if !d.all && !d.duOK {
		d.all = true
	}
	if d.all {
		d.flushed, d.seeded = len(d.cur), len(d.curSeed)
		return
	}
	for ; d.flushed < len(d.cur); d.flushed++ {
		if b := d.curBlk[d.flushed]; b != ir.NoBlock {
			d.blkEpoch[b] = d.epoch
		}
		g.followInstr(d.cur[d.flushed])
	}
	for ; d.seeded < len(d.curSeed); d.seeded++ {
		x := d.curSeed[d.seeded]
		g.followSeed(x.r, x.def, x.blk, g.f.IsDead(x.i))
	}
}

// followInstr marks instruction i's block and follows its registers.
func (g *genOpt) followInstr(i ir.InstrID) {
	d := &g.dirty
	f := g.f
	if d.all || f.IsDead(i) || f.Block[i] == ir.NoBlock {
		return
	}
	d.blkEpoch[f.Block[i]] = d.epoch
	d.instrEpoch[i] = d.epoch
	d.irefs = core.AppendRegRefs(f, i, d.irefs[:0])
	for _, x := range d.irefs {
		if !x.Def && int(x.Reg) < len(d.postN) {
			if d.postEpoch[x.Reg] != d.epoch {
				d.postEpoch[x.Reg], d.postN[x.Reg] = d.epoch, 0
			}
			d.postN[x.Reg]++
		}
		g.followSeed(x.Reg, x.Def, f.Block[i], false)
	}
}

// followSeed follows register r of an edited instruction: a register it
// defines (def) changes for everything that reads it and looks through
// its definition, followed downstream; a register it reads changes only
// in its definitions' and uses' counts and rows, read by (1) global copy
// propagation of r, (2) MergeEquivalentConditionalFlow at r's other uses
// (their sources' counts), (3) findReuse at the uses of a register that
// an "add r, c" defines (it scans r's uses): r is marked, its
// definitions, its uses when merging (markMergeUses decides, once the
// counts are known), and the results of its add uses
// are followed — the last only when the edit, in block blk, can change
// what findReuse scans: the first reuseScan rows of r's uses (the rows
// are in layout order, so an edit in a block after the one of the last
// row scanned adds or drops a row after the scanned ones: the scan reads
// the same rows before and after it). A register read in many places
// (a kernel parameter, a thread index) would otherwise have every add of
// it followed at each edit of one of its far uses.
func (g *genOpt) followSeed(r ir.RegID, def bool, blk ir.BlockID, removed bool) {
	d := &g.dirty
	if d.all {
		return
	}
	if def {
		g.followReg(r, dirtyLevels-1, removed)
		return
	}
	f := g.f
	du := g.du
	if !d.tracked(r, du) {
		return
	}
	defs, uses := du.Defs(r), du.Uses(r)
	if d.regEpoch[r] == d.epoch {
		if d.regDepth[r] != readNoAdds {
			return // marked already: followed as a read or further
		}
	} else {
		d.regEpoch[r], d.regDepth[r] = d.epoch, readNoAdds
		d.marked = append(d.marked, r)
		d.budget -= len(defs)
		if d.budget < 0 {
			d.all = true
			return
		}
		for _, ref := range defs {
			if x := ref.Instr; !f.IsDead(x) && f.Block[x] != ir.NoBlock {
				d.blkEpoch[f.Block[x]] = d.epoch
				d.instrEpoch[x] = d.epoch
			}
		}
		if g.on[spMerge] {
			d.mergeRegs = append(d.mergeRegs, r) // its uses: markMergeUses
		}
	}
	if !d.reuseScanReaches(f, uses, blk) {
		if g.h != nil {
			g.h.dirtyReuse.Add(1)
		}
		return // (a later edit of r may still follow its adds)
	}
	d.regDepth[r] = -1
	d.budget -= len(uses)
	if d.budget < 0 {
		d.all = true
		return
	}
	for _, ref := range uses {
		x := ref.Instr
		if f.IsDead(x) || f.Block[x] == ir.NoBlock || f.Op[x] != ir.OpAdd {
			continue
		}
		d.urefs = core.AppendRegRefs(f, x, d.urefs[:0])
		for _, y := range d.urefs {
			if y.Def {
				g.followReg(y.Reg, dirtyLevels-2, false)
			}
		}
		if d.all {
			return
		}
	}
}

// markMergeUses marks, before merging walks the marked blocks, the
// blocks of the uses of each register read by an edited instruction whose
// use count can have crossed one since the last merging: merging reads a
// count only as "one use" or not (nUse, exact now). The count at the last
// merging was at least the rows' count less the reads of the register in
// the instructions edited since (postN: as they are now; any other
// instruction reads it as it did then), so when that is two or more and
// the count now is not one, no decision at its uses can change. (A
// register read in many places would otherwise mark most of the function
// at every edit of one of its uses.)
func (g *genOpt) markMergeUses(nUse []int32) {
	d := &g.dirty
	if d.all {
		return
	}
	f := g.f
	for _, r := range d.mergeRegs {
		uses := g.du.Uses(r)
		was := int32(len(uses))
		if d.postEpoch[r] == d.epoch {
			was -= d.postN[r]
		}
		if nUse[r] != 1 && was >= 2 {
			if g.h != nil {
				g.h.dirtyMerge.Add(1)
			}
			continue
		}
		d.budget -= len(uses)
		if d.budget < 0 {
			d.all = true
			return
		}
		for _, ref := range uses {
			if x := ref.Instr; !f.IsDead(x) && f.Block[x] != ir.NoBlock {
				d.blkEpoch[f.Block[x]] = d.epoch
				d.instrEpoch[x] = d.epoch
			}
		}
	}
}

// readNoAdds is the depth of a register marked as read whose add uses
// were not followed (followSeed).
const readNoAdds = -2

// reuseScanReaches reports whether an edit in block blk of an
// instruction reading a register with these use rows can change the
// rows findReuse scans (see followSeed).
func (d *dirtyState) reuseScanReaches(f *ir.Func, uses []core.Ref, blk ir.BlockID) bool {
	if len(uses) <= reuseScan || blk == ir.NoBlock {
		return true
	}
	w := f.Block[uses[reuseScan-1].Instr]
	return w == ir.NoBlock || d.layoutPos[blk] <= d.layoutPos[w]
}

// tracked reports whether r has a row in the def-use chains and in the
// marks; a register made after them cannot be followed, so everything
// counts as marked (d.all).
func (d *dirtyState) tracked(r ir.RegID, du *core.DefUse) bool {
	if int(r) >= du.NumRegs() || int(r) >= len(d.regEpoch) {
		d.all = true
		return false
	}
	return true
}

// followReg marks every instruction naming r (by the chains' rows) and,
// while depth > 0, follows their registers one level less deep: the
// results of the readers whose opcode a rule looks through, or of every
// reader of r when a deleted instruction defined r (removed: whether r
// has one definition may have changed, which rules read at the uses of
// those results; see dirtyLevels).
func (g *genOpt) followReg(r ir.RegID, depth int8, removed bool) {
	d := &g.dirty
	if d.all {
		return
	}
	f := g.f
	du := g.du
	if !d.tracked(r, du) {
		return
	}
	if d.regEpoch[r] == d.epoch && d.regDepth[r] >= depth && !removed {
		return
	}
	if d.regEpoch[r] != d.epoch {
		d.marked = append(d.marked, r)
		d.regDepth[r] = depth
	}
	d.regEpoch[r], d.regDepth[r] = d.epoch, max(depth, d.regDepth[r])
	d.stack = append(d.stack[:0], regAt{r, depth, removed})
	for len(d.stack) > 0 {
		top := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		for k, rows := range [2][]core.Ref{du.Defs(top.r), du.Uses(top.r)} {
			d.budget -= len(rows)
			if d.budget < 0 {
				d.all = true // no cheaper than a full walk
				return
			}
			for _, ref := range rows {
				x := ref.Instr
				if f.IsDead(x) || f.Block[x] == ir.NoBlock {
					continue
				}
				d.blkEpoch[f.Block[x]] = d.epoch
				d.instrEpoch[x] = d.epoch
				if top.d == 0 || k == 0 || !(top.any || looksThrough(f.Op[x])) {
					continue // no rule reads r's value through x's result
				}
				d.refs = core.AppendRegRefs(f, x, d.refs[:0])
				for _, y := range d.refs {
					if !y.Def {
						continue
					}
					if int(y.Reg) >= len(d.regEpoch) {
						d.all = true
						return
					}
					if d.regEpoch[y.Reg] == d.epoch && d.regDepth[y.Reg] >= top.d-1 {
						continue
					}
					if d.regEpoch[y.Reg] != d.epoch {
						d.marked = append(d.marked, y.Reg)
					}
					d.regEpoch[y.Reg], d.regDepth[y.Reg] = d.epoch, top.d-1
					d.stack = append(d.stack, regAt{y.Reg, top.d - 1, false})
				}
			}
		}
	}
}

// lowerReg orders the marked-register heap: the lowest register on top.
func lowerReg(a, b ir.RegID) bool { return a < b }

// heapPush and heapPop keep h a binary heap whose top is the element
// above puts first (above(a, b): a belongs above b).
func heapPush[T any](h []T, x T, above func(a, b T) bool) []T {
	h = append(h, x)
	k := len(h) - 1
	for k > 0 {
		p := (k - 1) / 2
		if !above(h[k], h[p]) {
			break
		}
		h[p], h[k] = h[k], h[p]
		k = p
	}
	return h
}

func heapPop[T any](h []T, above func(a, b T) bool) (T, []T) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	k := 0
	for {
		c := 2*k + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && above(h[c+1], h[c]) {
			c++
		}
		if !above(h[c], h[k]) {
			break
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
	return top, h
}
