package phases

import (
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Def-use chains kept current by the bundle's edits. The global walk,
// MergeEquivalentConditionalFlow and dead code read chains that describe
// the function as it is; recomputing them whole after every round that
// edited (as the bundle did) costs a walk of every instruction and a sort
// of every reference, on a function of a million instructions tens of
// nanoseconds per instruction and round however few the edits. The
// bundle's edits are in-place rewrites of operands and forms and
// deletions, each announced by touch before it is made; while nothing
// else changed (no CFG edit, no PHI simplification, no instruction
// added, no merge), the chains are brought up to date from those
// instructions alone (core.DefUse.Refresh): the rows of the registers
// they named when the chains were last current and of those they name
// now lose their references and get their present ones back, in layout
// order, which gives the rows a new computation would.

// duBufs are the log's growable lists, kept in the worker's Scratch.
type duBufs struct {
	instrs []ir.InstrID // edited since the chains were last current, once each
	regs   []ir.RegID   // the registers they named then (and, at a refresh, now)
	reads  []ir.RegID   // the registers they read then, once per read (deadUseCounts)
	live   []ir.InstrID
	refs   []core.RegRef
	relink core.RelinkWork
}

// duLogState: the log of the edits since g.du was last current.
// on: g.du is the cache's chains, current but for the instructions
// logged; cfg: g.cfgEdits when they were last current.
type duLogState struct {
	editLog
	b *duBufs
}

// editLog marks the instructions the bundle edits, each once, between a
// begin and the log's use: the def-use log and the dead-code log
// (generalopt_dead.go) are one each.
type editLog struct {
	on   bool     // what the log stands for holds but for the logged edits
	gen  uint32   // mark[i] == gen: i is logged
	mark []uint32 // per instruction
	cfg  int64    // g.cfgEdits at begin
}

// begin starts a new log over n instructions and reports whether the
// marks were taken anew (from sc, cleared).
func (l *editLog) begin(sc *Scratch, n int, cfgEdits int64) (fresh bool) {
	if len(l.mark) != n {
		l.mark = take[uint32](sc, n)
		l.gen = 0
		fresh = true
	}
	l.gen++
	l.cfg = cfgEdits
	l.on = true
	return fresh
}

// first marks i and reports whether it was not logged yet. An
// instruction made after begin has no mark: the log is turned off (what
// it stands for no longer follows from the logged edits).
func (l *editLog) first(i ir.InstrID) bool {
	if int(i) >= len(l.mark) {
		l.on = false
		return false
	}
	if l.mark[i] == l.gen {
		return false
	}
	l.mark[i] = l.gen
	return true
}

// duStart begins logging against g.du, current now.
func (g *genOpt) duStart() {
	l := &g.duLog
	f := g.f
	if g.sc == nil || g.du == nil || g.du.NumRegs() != f.NumRegs() {
		l.on = false
		return
	}
	l.begin(g.sc, f.NumInstrs(), g.cfgEdits)
	l.b = &g.sc.genOpt.du
	l.b.instrs, l.b.regs, l.b.reads = l.b.instrs[:0], l.b.regs[:0], l.b.reads[:0]
}

// duNote logs instruction i, about to be edited, with the registers it
// names before the edit.
func (g *genOpt) duNote(i ir.InstrID) {
	l := &g.duLog
	if !l.first(i) { // logged, or made during the bundle (the chains cannot follow)
		return
	}
	b := l.b
	b.instrs = append(b.instrs, i)
	b.refs = core.AppendRegRefs(g.f, i, b.refs[:0])
	for _, x := range b.refs {
		b.regs = append(b.regs, x.Reg)
		if !x.Def {
			b.reads = append(b.reads, x.Reg)
		}
	}
}

// duRefresh brings g.du up to date with the logged edits when only logged
// edits happened since it was last current, and reports whether it did.
// The positions of the last global walk order each block's instructions
// (only rewrites and deletions followed it).
func (g *genOpt) duRefresh() bool {
	l := &g.duLog
	f := g.f
	adopt, ok := g.duLogged()
	if !ok {
		l.on = false
		return false
	}
	b := l.b
	b.live = b.live[:0]
	for _, i := range b.instrs {
		if f.IsDead(i) || f.Block[i] == ir.NoBlock {
			continue
		}
		b.live = append(b.live, i)
		b.refs = core.AppendRegRefs(f, i, b.refs[:0])
		for _, x := range b.refs {
			b.regs = append(b.regs, x.Reg)
		}
	}
	if len(b.regs) > 0 {
		slices.Sort(b.regs)
		regs := slices.Compact(b.regs)
		lp := take[int32](g.sc, f.NumBlocks())
		for k, blk := range f.Layout {
			lp[blk] = int32(k)
		}
		// The logged instructions (edited or deleted: Refresh drops their
		// references) as one bit each: the rows of a register read all
		// over the function ask for every reference, and the bits of a
		// million instructions stay in cache where l.mark does not.
		logged := take[uint64](g.sc, (f.NumInstrs()+63)/64)
		for _, i := range b.instrs {
			logged[i>>6] |= 1 << (i & 63)
		}
		pos := g.pos
		g.du.Refresh(f, regs,
			func(i ir.InstrID) bool { return logged[i>>6]&(1<<(i&63)) != 0 },
			b.live,
			func(i ir.InstrID) uint64 { return uint64(lp[f.Block[i]])<<32 | uint64(uint32(pos[i])) },
			&b.relink)
		if g.h != nil {
			g.h.duRefreshes.Add(1)
			if g.h.duCheck {
				checkDefUse(f, g.du)
			}
		}
	}
	if adopt {
		g.a.adoptDefUse(g.du)
	}
	// (what is computed from the chains, or from the instructions, is
	// stale)
	g.a.Invalidate(instrAnalyses &^ ADefUse)
	g.duStart()
	return true
}

// duRefreshes counts the refreshes that changed rows (tests ask whether
// their kernels made any).
// duLogged reports whether g.du holds the chains as they were when last
// current and the log every edit since (what duRefresh needs), and
// whether they go back to the cache once refreshed (adopt).
func (g *genOpt) duLogged() (adopt, ok bool) {
	l := &g.duLog
	f := g.f
	if !l.on || g.du == nil || g.cfgEdits != l.cfg || !g.walkedLayout ||
		len(g.pos) != f.NumInstrs() || len(l.mark) != f.NumInstrs() || g.du.NumRegs() != f.NumRegs() {
		return false, false
	}
	// The cache drops every analysis when the edges are rebuilt, which
	// an edit of a branch makes them (the bundle's branch edits count in
	// cfgEdits; its form changes elsewhere keep the edges:
	// SetFormSameEdges). The chains do not read edges:
	// dropped and not recomputed since (their memory still unused),
	// they go back to the cache once refreshed.
	if g.a.Valid()&ADefUse == 0 {
		if g.a.du != nil || g.a.duOld != g.du {
			return false, false
		}
		return true, true
	}
	return false, g.a.du == g.du
}

// deadUseCounts sets uses to the number of reads of every register in
// the function as it is, from chains not brought up to date (duLogged):
// a row's length, less the reads the logged instructions made when the
// chains were last current, plus those the live ones make now. Dead code
// then needs the definitions' rows only, which the logged edits cannot
// have lengthened: an edit keeps the registers an instruction writes or
// removes it, so a stale row lists every present definition, in layout
// order, and at most removed ones besides (which the sweeps skip). A
// live logged instruction that writes a register whose row does not list
// it makes it report false (the caller refreshes instead). It saves the
// refresh a sweep after the global walk's rewrites would make (on a
// large function a move of every row): the next round's walk refreshes
// once for both.
func (g *genOpt) deadUseCounts(uses []int32) {
	f := g.f
	b := g.duLog.b
	for r := range uses {
		uses[r] = int32(len(g.du.Uses(ir.RegID(r))))
	}
	b.refs = replayReads(f, uses, b.reads, b.instrs, b.refs)
	if g.h != nil {
		if g.h.duCheck {
			checkUseCounts(f, uses, nil)
		}
		g.h.deadLoggedCounts.Add(1)
	}
}

// duDefsHold reports whether the definition rows of g.du, not brought
// up to date (duLogged), list every present definition in layout order
// (and at most removed ones besides): whether no live logged
// instruction writes a register whose row does not list it.
func (g *genOpt) duDefsHold() bool {
	f := g.f
	if _, ok := g.duLogged(); !ok {
		return false
	}
	b := g.duLog.b
	for _, i := range b.instrs {
		if f.IsDead(i) || f.Block[i] == ir.NoBlock {
			continue
		}
		b.refs = core.AppendRegRefs(f, i, b.refs[:0])
		for _, x := range b.refs {
			if x.Def && !slices.ContainsFunc(g.du.Defs(x.Reg), func(d core.Ref) bool { return d.Instr == i }) {
				return false
			}
		}
	}
	return true
}

// checkUseCounts (the duCheck test hook) compares uses with the reads a new
// computation of the chains counts (plus one for each register in ret).
func checkUseCounts(f *ir.Func, uses []int32, ret []ir.RegID) {
	want := core.ComputeDefUse(f)
	for r := range want.NumRegs() {
		n := len(want.Uses(ir.RegID(r)))
		for _, q := range ret {
			if q == ir.RegID(r) {
				n++
			}
		}
		if int(uses[r]) != n {
			panic("GeneralOptimize: dead code's read counts from logged chains differ from a new computation")
		}
	}
}

// checkDefUse panics when du differs from the chains of f computed anew.
func checkDefUse(f *ir.Func, du *core.DefUse) {
	want := core.ComputeDefUse(f)
	if want.NumRegs() != du.NumRegs() {
		panic("GeneralOptimize: refreshed def-use chains cover another number of registers")
	}
	for r := range want.NumRegs() {
		if !slices.Equal(want.Defs(ir.RegID(r)), du.Defs(ir.RegID(r))) || !slices.Equal(want.Uses(ir.RegID(r)), du.Uses(ir.RegID(r))) {
			panic("GeneralOptimize: refreshed def-use chains differ from a new computation")
		}
	}
}
