package phases

import (
	"math/bits"
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// GvnCse: value numbering with common-subexpression elimination, block
// by block and over the dominator tree (seed 000, phase 49). Knobs:
// EnableGvnCse, EnableGvnCseMode (the SM profile picks the default),
// EnableGvnCsePerInstr.
//
// Modes (EnableGvnCseMode, the seeds' numbering):
//
//	0    off.
//	1    single-block: the local rule only.
//	2    extended basic blocks: the local rule, and the dominator-scoped
//	     rule only between blocks of one extended basic block (the
//	     pre-pass ebbPre marks, for every block, the head of its EBB: a
//	     block with exactly one predecessor continues it). On targets
//	     above EbbPrePassBoundary (0x7fff: sm_90 and newer) the seeds skip
//	     the pre-pass; there the lookup reaches only the immediate
//	     dominator's block. (The seeds' eligibility fixed point, which
//	     marks the definitions feeding an eligible instruction, is not
//	     built: here eligibility is a per-instruction safety property,
//	     and keys see through commoned copies instead; see the report of
//	     issue 12.)
//	3-6  full dominator scoping, then the scope-tree drain: the blocks
//	     where a value was commoned from a dominating block are recorded
//	     in a scopeTree (a sparse set of 256-bit nodes) and drained in
//	     ascending order with trailing-zero counts, each numbered once
//	     more block-locally (those where nothing can change skipped: see
//	     run). 5 and 6 also let shfl.sync take part.
//
// EnableGvnCsePerInstr is a per-instruction gate for bisection: only the
// first N instructions the walk would common are commoned.
//
// Guarded instructions are candidates of the local rule: the guard
// (register and polarity, as written) is part of the key, so "@%p op"
// matches only "@%p op" with the same %p not written in between; L
// becomes "@%p mov %dL, %dE", which writes the lanes L wrote with the
// value E wrote in those same lanes. Warp-collective classes (vote.sync,
// match.sync; shfl.sync in modes 5-6), unguarded, are local-rule
// candidates too: in one block the same lanes run E and L, and no source
// register (in any lane) is written in between. Texture fetches (tex,
// tld4) count as invariant reads when the function writes no surface.
//
// Purpose: the same address arithmetic, the same conversion, the same
// kernel-parameter load computed twice; the second computation becomes a
// copy of the first, which GeneralOptimize propagates and LiveDead
// removes.
//
// Preconditions: none. On SSA form most registers have one definition,
// which the dominator-scoped rule needs; registers IntoSSA left alone
// (guarded definitions) may still be written many times, and a guarded
// write keeps the old value in the lanes whose guard is false.
// GeneralOptimizeMid2 has canonicalised operands, which only makes more
// keys equal.
//
// Candidates. An instruction takes part (as the earlier E or the later L)
// when (guards and collectives aside, above) InstrProps has none of
// PVolatile, PConvergent (bar, other collectives: never merged), PCarry
// (.cc, addc: never merged), PSideEffect, PWritesMem, PCall, PAsync,
// POpaque, PPseudo, PBarrier, PBranch, PCopy (commoning a copy gains
// nothing, the seeds' MOV class aside: it only lengthens a live range);
// and either it is PPure without PReadsMem, or it is an invariant read:
// ld with PInvariant whose state space is .param (a parameter of its own
// kernel, which InstrProps checks) or .const, or a texture fetch as above. It writes exactly one
// operand, its first, an unflagged ordinary scalar register (no vector
// or .reg parameter register, no "%p|%q", no list destination, no sink).
//
// Key: opcode, full mnemonic (all modifiers, rounding, space, types),
// Type, Type2, Space, and the source operands: registers by identity,
// immediates by value (integer kinds compare by bits, float kinds also by
// kind), symbols and special registers by identity, addresses and lists
// element by element. When InstrProps has PCommutative and the type is
// not floating point (a NaN's payload may depend on the order), the
// first two sources are compared in either order. Registers stand for
// values only under the conditions below, which make "same register"
// mean "same value" at both instructions.
//
// Rules (L is rewritten in place into "mov.t %dL, %dE", t the type of
// %dL's register: itself when mov takes it, else .b of its width; only
// when the two registers are interchangeable, with the rule
// GeneralOptimize uses):
//
//   - Local (every mode). E and L in one block, E first, equal keys, and
//     between E and L (E's own definitions included, so "add %r1, %r1, 1"
//     never matches) no definition of any source register of L, and
//     none of %dE after E (any definition counts: guarded, list element,
//     "%p|%q"; an opaque instruction forgets the whole block so far).
//     Then each source holds at L the value it held at E, and %dE still
//     holds what E wrote: L would compute exactly %dE, in every lane.
//   - Dominator-scoped (modes 2 to 6). %dE has exactly one definition in
//     the function, E (unguarded, not a collective); every source
//     register s of E has no definition (it keeps its entry value) or
//     exactly one, D, which strictly dominates E (D's block strictly
//     dominates E's, or D comes first in E's block); E dominates L; equal
//     keys. No register involved is named by an opaque instruction. Then
//     on every path to L the last write of %dE is E, and s is not written
//     between that E and L: a path from an execution of D to L avoiding
//     E, prefixed by a path from the entry to D avoiding E (one exists,
//     as D strictly dominates E), would reach L avoiding E. The argument
//     of GeneralOptimize's global copy rule, per lane.
//
// Walk: blocks in a pre-order of the dominator tree; a scoped table
// (open addressing in slices, with an undo log) holds the dominator-
// scoped candidates of the blocks on the path from the root, and a
// second table, emptied at each block, the local ones. Unreachable blocks
// are left alone.
//
// Guarantees: the program computes exactly what it did; only L's
// operation and operands change, its destination and position do not.
// Counter: "expressions commoned".
//
//	before:  mul.lo.s32 %r3, %r1, 4;  ...  mul.lo.s32 %r7, %r1, 4;
//	after:   mul.lo.s32 %r3, %r1, 4;  ...  mov.u32 %r7, %r3;
//	         (GeneralOptimize propagates %r3, LiveDead drops the move)

// gvnCse: GvnCse.
func gvnCse(p *Pass) bool { return gvnCseWith(p, nil) }

// gvnTest is a test's hold on GvnCse and LateOriCommoning. The scope
// drain: all, drain every recorded block (not only those whose walk
// declined a block-local commoning); recorded and redone count the blocks
// recorded and those the drain numbered again. chains: 1, read the
// cache's def-use chains; -1, the layout scan's tables (defTables); 0, as
// the pipeline does (the chains when the cache holds them).
type gvnTest struct {
	all              bool
	recorded, redone int64
	chains           int8
	// noFacts: read the registers' facts from where they are kept
	// (RegVec, RegType, the parameters, the SSA versions, the opaque
	// marks, the chains) instead of the facts column.
	noFacts bool
	// noPath: the dominator-scoped rule asks whether a key register's
	// definition dominates the candidate with before (the instruction's
	// block, the dominator tree) instead of the walk's path (openDef);
	// checkPath: both, counting in pathChecked the answers compared and
	// failing the run (pathDiffer) when they differ.
	// fieldKeys: sameKey compares the instructions' columns, not the
	// keys' headers.
	fieldKeys               bool
	noPath, checkPath       bool
	pathChecked, pathDiffer int64
	// byClock: with checkPath, the instruction the main walk numbered k
	// at k-1, so that the check also asks about instructions off the
	// path (siblings' subtrees the walk has left).
	byClock []ir.InstrID
	// facts counts, over the registers of the runs with the facts, those
	// opaque, multi-version, not plain, with two definitions or more.
	facts [4]int64
}

// gvnCseWith is GvnCse under a test's hold (gt nil: as the pipeline runs
// it).
func gvnCseWith(p *Pass, gt *gvnTest) bool {
	if !p.Knobs.Bool(EnableGvnCse) {
		return false
	}
	f := p.F
	if f.NumInstrs() == 0 || len(f.Layout) == 0 {
		return false
	}
	mode := p.Knobs.Int(EnableGvnCseMode)
	if mode == 0 {
		return false
	}
	if p.Canceled() {
		return false
	}
	g := &gvn{p: p, f: f, a: p.A, sc: p.Scratch, mode: mode, gate: p.Knobs.Budget(EnableGvnCsePerInstr),
		ebbPrePass: p.Config == nil || p.Config.Target.Encoding <= EbbPrePassBoundary, ssa: p.ssa, poll: newPoller(p),
		test: gt}
	n := g.run()
	if n > 0 {
		p.Count("expressions commoned", n)
	}
	if g.nGuarded > 0 {
		p.Count("guarded expressions commoned", g.nGuarded)
	}
	if g.nDrain > 0 {
		p.Count("commoned in the scope drain", g.nDrain)
	}
	g.countDeclined()
	return n > 0
}

// gvn is one function's GvnCse state.
type gvn struct {
	p    *Pass
	f    *ir.Func
	a    *Analyses
	sc   *Scratch
	mode int64
	ssa  *ssaState // in SSA form: the versions' original registers
	// gate: EnableGvnCsePerInstr, how many more candidates may still be
	// commoned (the per-instruction gate, for bisection).
	gate int64
	// Mode 2: ebbHead[b] is the head of b's extended basic block (the
	// pre-pass), or, without the pre-pass, b's immediate dominator.
	ebbPrePass bool
	ebbHead    []ir.BlockID
	// Modes 3 to 6: the blocks where a value was commoned from a
	// dominating block, drained after the walk.
	scope scopeTree
	// redo[b]: the walk of b found an equal entry in the block's table
	// that commonWith declined (see run: only such a block can come out
	// of the drain changed).
	redo []bool
	// test: a test's hold on the walk (nil in the pipeline).
	test             *gvnTest
	cur              ir.BlockID
	hasSurfaceWrite  bool
	nGuarded, nDrain int64
	draining         bool // the drain's block-local passes: no dominator-scoped table
	// LateOriCommoning (commoning.go): only across blocks, the class
	// filter below, no drain; noMoves: DisableMoveCommoning.
	late, noMoves bool
	// mask: the class bits (classBit) of the dominator-scoped entries on
	// the dominator path to the current instruction, the seeds' Bloom
	// filter of LateOriCommoning; filterTest: a test watching it (nil
	// in the pipeline).
	mask       uint64
	filterTest *classFilterTest

	// du: the def-use chains, when the cache holds them; else rs[r].def1
	// and end1 (defTables).
	du   *core.DefUse
	end1 []int32
	dom  *core.DomTree
	// lpos[i]: instruction i's position in the layout (of the whole
	// function: two instructions of one block compare as their positions
	// in it; the pressure estimate's positions); blockEnd[b]: the
	// position of b's last instruction (of the one before, for an empty
	// block). One pass over the layout makes both, with the opaque and
	// surface-write scans and the list of copies.
	lpos     []int32
	blockEnd []int32
	opaque   []bool // registers an opaque instruction names
	// facts[r]: what the walk asks of register r that no edit of the
	// phase changes (regFact bits), one byte per register filled in one
	// sequential pass before the walk (buildFacts). The walk met these in
	// half a dozen register-indexed arrays (RegVec, RegType, the SSA
	// versions, the opaque marks, the chains' row starts), each a cache
	// miss per register on a large function, whose registers neighbouring
	// instructions name far apart; nil under a test's noFacts.
	facts []uint8

	// rs[r]: what the walk knows of register r (gvnRegState: the current
	// block's state and the dominator-scoped alias side by side, one
	// cache line for what resolve reads); seq[i]: the sequence number of
	// instruction i.
	rs    []gvnRegState
	seq   []uint32
	clock uint32

	local, global gvnTable
	refs          []core.RegRef
	refs2         []core.RegRef

	// Copies seen through (see "Keys through copies"): rs[r].alias is
	// the source of the block's latest copy into r, rs[r].gsrc the source
	// of r's only definition when that is a copy the dominator-scoped
	// rule may see through (gvnRegState).
	blockStart uint32 // sequence number of the current block's first instruction

	// keyOps[keyStart[i]:] holds candidate i's source words with
	// registers replaced by what they stand for.
	keyStart []int32
	// keyInner[i]: candidate i reads registers inside an address or list,
	// or a guard (noted by candidate from the references it lists anyway,
	// so keyRegs lists them again only for those)
	keyInner []bool
	keyOps   []ir.Operand

	// poll: the run's context, polled per block of the walks (nil: never
	// canceled). A canceled run stops between two blocks: each rewrite
	// (an instruction made a copy of an equal value that dominates it)
	// is whole and right on its own, and the drain only finds more.
	poll *poller

	// path: the blocks of the main walk's current dominator-tree path,
	// root first, each with the sequence numbers of its instructions
	// (first, last; the current block's last is still open), for
	// openDef.
	path []gvnSpan

	// press: the register pressure estimate (gvnpressure.go), set up
	// at the first commoning (pressInit).
	press     *gvnPressure
	pressInit bool
}

// gvnSpan is a block of the walk's path: the sequence numbers of its
// first instruction and of its last (last < first: none).
type gvnSpan struct{ first, last uint32 }

// openDef reports whether the instruction the main walk numbered c (a
// register's lastDef; 0: not met yet) strictly dominates the
// instruction the walk is at: the walk visits the dominator tree in
// pre-order and numbers a block's instructions consecutively, so an
// instruction it has met dominates the current one exactly when its
// block is still on the path (an instruction of the current block
// precedes the current one). This is before(d, e) for d the
// instruction numbered c and e the current one, answered from the
// sequence number resolve or the facts have just brought into cache
// rather than from d's block, deleted flag and dominator-tree numbers,
// which miss the cache on a large function. The path's blocks are
// searched from the top (the current block first, then doubling steps
// up, then halving): a key's register is usually defined near.
func (g *gvn) openDef(c uint32) bool {
	p := g.path
	top := len(p) - 1
	if c == 0 || top < 0 {
		return false
	}
	if p[top].first <= c {
		return true
	}
	if c <= p[0].last {
		return true // the root's: the entry block's values are read everywhere
	}
	// p[hi].first > c; the root's first is 1 <= c, so p[0] qualifies
	hi, lo := top, top-1
	for step := 1; lo > 0 && p[lo].first > c; {
		hi = lo
		step <<= 1
		lo = max(top-step, 0)
	}
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if p[m].first <= c {
			lo = m
		} else {
			hi = m
		}
	}
	return c <= p[lo].last
}

// dominatesAt is before(d, x) for x the instruction the walk is at and
// d, numbered c, the only definition of a register: in the main walk
// from the path (openDef), in the drain (no path) from before.
func (g *gvn) dominatesAt(d ir.InstrID, c uint32, x ir.InstrID) bool {
	if g.draining {
		return g.before(d, x)
	}
	if t := g.test; t != nil && (t.noPath || t.checkPath) {
		ok := g.before(d, x)
		if t.checkPath {
			t.pathChecked++
			if ok != g.openDef(c) {
				t.pathDiffer++
			}
		}
		return ok
	}
	return g.openDef(c)
}

// gvnRegState is the walk's per-register state, 16 bytes read together
// (one cache line per register on large functions, where the walk's
// register accesses miss the cache): the sequence number of r's latest
// definition (0: none yet); the source of the block's copy into r when
// that copy is r's latest definition (every definition clears it, the
// copy then sets it: so the copy was made at lastDef); modes 2 to 6, r's
// only definition (def1: without cached chains the layout scan fills it,
// defTables, so that the dominator-scoped rule's checks read the line
// resolve has just read; with them, only for the copies below) and,
// when that is a copy of gsrc
// the dominator-scoped rule may see through, gsrc. Registers and
// instructions are kept plus one (alias1, gsrc1, def1; 0: none), so the
// arena's zeroed memory is the empty state.
type gvnRegState struct {
	lastDef uint32
	alias1  ir.RegID
	gsrc1   ir.RegID
	def1    ir.InstrID
}

// Properties that exclude an instruction from value numbering.
const gvnExclude = ir.PVolatile | ir.PConvergent | ir.PCarry | ir.PSideEffect | ir.PWritesMem |
	ir.PCall | ir.PAsync | ir.POpaque | ir.PPseudo | ir.PBarrier | ir.PBranch | ir.PCopy

func (g *gvn) run() int64 {
	f := g.f
	g.dom = g.a.Dom()
	tables := false
	if g.mode >= 2 {
		// The def-use chains when the cache holds them (GvnCse: the
		// live/dead sweep before left them); else (LateOriCommoning) the
		// layout scan below makes what the walk reads of them, cheaper
		// than the chains (see defTables). (Making the tables even when
		// the chains are cached, for def1 to share rs's line, cost GvnCse
		// more in the scan than it saved in the walk, at 10K and 1M.)
		tables = g.a.Valid()&ADefUse == 0
		if t := g.test; t != nil && t.chains != 0 {
			tables = t.chains < 0
		}
		if tables {
			if g.p.regCapSet {
				g.end1 = take[int32](g.sc, f.NumRegs())
			}
		} else {
			g.du = g.a.DefUse()
		}
		g.opaque = take[bool](g.sc, f.NumRegs())
	}
	g.refs, g.refs2 = take[core.RegRef](g.sc, 32)[:0], take[core.RegRef](g.sc, 32)[:0]
	g.rs = take[gvnRegState](g.sc, f.NumRegs())
	g.lpos = take[int32](g.sc, f.NumInstrs())
	g.blockEnd = take[int32](g.sc, f.NumBlocks())
	// The copies, for the dominator-scoped aliases below (mode 2 up).
	var copies []ir.InstrID
	if g.mode >= 2 {
		copies = take[ir.InstrID](g.sc, 64)[:0]
	}
	var phis []ir.InstrID // with end1: the PHIs, for phiEnds
	if g.end1 != nil {
		phis = take[ir.InstrID](g.sc, 16)[:0]
	}
	longest, at := 0, int32(0)
	for _, b := range f.Layout {
		k := 0
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			g.lpos[i] = at
			at++
			k++
			switch f.Op[i] {
			case ir.OpSust, ir.OpSured:
				g.hasSurfaceWrite = true
			case ir.OpMov:
				if g.mode >= 2 {
					copies = append(copies, i)
				}
			}
			if tables {
				g.refs = core.AppendRegRefs(f, i, g.refs[:0])
				g.defTables(i, at-1)
				if g.end1 != nil && f.Op[i] == ir.OpPhi {
					phis = append(phis, i)
				}
			}
			if g.mode >= 2 && f.InstrProps(i).Has(ir.POpaque) {
				if !tables {
					g.refs = core.AppendRegRefs(f, i, g.refs[:0])
				}
				for _, x := range g.refs {
					g.opaque[x.Reg] = true
				}
			}
		}
		g.blockEnd[b] = at - 1
		longest = max(longest, k)
	}
	if len(phis) > 0 {
		g.phiEnds(phis)
	}
	if g.mode == 2 {
		g.ebbPre()
	}
	if g.test == nil || !g.test.noFacts {
		g.buildFacts()
	}
	// seq and keyStart are read only for instructions the walk has
	// numbered (the current one, table entries), each written first
	g.seq = takeRaw[uint32](g.sc, f.NumInstrs())
	g.keyStart = takeRaw[int32](g.sc, f.NumInstrs())
	g.keyInner = takeRaw[bool](g.sc, f.NumInstrs())
	// the candidates' headers and source words: at most every operand
	// word once plus a header per instruction, each written before it is
	// read (key, sameKey)
	g.keyOps = takeRaw[ir.Operand](g.sc, len(f.Operands)+keyHeader*f.NumInstrs())[:0]
	// The local table is emptied at the end of every block (block adds
	// no instruction), so it holds one block's candidates at most: sized
	// for the longest block, it stays in cache where one sized for the
	// whole function spread each block's few entries over megabytes.
	g.local.init(g.sc, longest)
	if g.mode >= 3 && !g.late {
		g.redo = take[bool](g.sc, f.NumBlocks())
	}
	if g.mode >= 2 {
		// The scoped table holds, at any time, the entries of the blocks
		// on one dominator-tree path from the root: it starts at the size
		// of the local one and doubles as it fills (gvnTable.grow). On the
		// generated kernel of 1M instructions it holds at most 38K
		// entries of 690K candidates (LateOriCommoning 84K): a table of
		// one or two megabytes, where one sized for every candidate
		// (16 MB) made nearly every probe a cache miss.
		g.global.init(g.sc, longest)
		// A register whose only definition is a copy (its copies were
		// listed in layout order; each sets its own register's entry).
		for _, c := range copies {
			s, ok := g.copyOf(c)
			if !ok {
				continue
			}
			d := f.Ops(c)[0].Reg()
			if e, n := g.onlyDef(d); n == 1 && e == c && s != d {
				g.setGlobalAlias(d, s, c)
			}
		}
	}
	n := int64(0)
	// Pre-order walk of the dominator tree with an explicit stack; a
	// negative entry marks the end of a block's subtree (pop its scope).
	type frame struct {
		b    ir.BlockID
		mark int
		mask uint64
		exit bool
	}
	if g.dom.Root == ir.NoBlock {
		return 0
	}
	if g.poll.now() {
		return 0
	}
	// the walk holds at most two frames per block (its exit, and itself
	// while its siblings wait)
	stack := append(take[frame](g.sc, 2*g.f.NumBlocks()+2)[:0], frame{b: g.dom.Root})
	g.path = takeRaw[gvnSpan](g.sc, g.f.NumBlocks()+1)[:0]
	if t := g.test; t != nil {
		t.byClock = t.byClock[:0] // this function's (a test runs a module's)
	}
	for len(stack) > 0 {
		if g.poll.stop() {
			return n
		}
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if fr.exit {
			g.global.undo(fr.mark)
			g.mask = fr.mask
			g.path = g.path[:len(g.path)-1]
			continue
		}
		stack = append(stack, frame{b: fr.b, mark: len(g.global.log), mask: g.mask, exit: true})
		g.path = append(g.path, gvnSpan{first: g.clock + 1, last: ^uint32(0)})
		n += g.block(fr.b)
		g.path[len(g.path)-1].last = g.clock
		kids := g.dom.Children(fr.b)
		for j := len(kids) - 1; j >= 0; j-- {
			stack = append(stack, frame{b: kids[j]})
		}
	}
	// Modes 3 to 6: drain the scope tree in ascending block order and
	// number each recorded block once more on its own (block-local): a
	// value commoned from a dominating block turned an instruction into
	// a copy, and keys of the block may now meet through it.
	//
	// Only a block whose walk declined a block-local commoning (redo) can
	// come out of this pass changed; the others are skipped. In the pass,
	// a block starts from the state its walk started from: its
	// instructions as the walk left them, and the same copies to see
	// through (block-local ones are the block's own; a dominator-scoped
	// one, in resolve, is a copy that strictly dominates the instruction,
	// so the walk had already met it). So its keys, block table and
	// lookups repeat the walk's, and a lookup that finds an entry is one
	// where the walk found it too: the walk then made the instruction a
	// copy (no longer a candidate) or commonWith declined it. Without a
	// declined one the pass finds nothing and calls commonWith never
	// (no pressure charge, no Allow, no gate), and skipping the block
	// changes nothing.
	if g.mode >= 3 && !g.late {
		g.draining = true
		g.scope.drain(func(b ir.BlockID) {
			if g.poll.stop() {
				return
			}
			if t := g.test; t != nil {
				t.recorded++
				if g.redo[b] {
					t.redone++
				}
			}
			if !g.redo[b] && (g.test == nil || !g.test.all) {
				return
			}
			k := g.block(b)
			g.nDrain += k
			n += k
		})
	}
	return n
}

// block numbers the instructions of block b and rewrites the redundant
// ones; it returns how many it rewrote.
func (g *gvn) block(b ir.BlockID) int64 {
	f := g.f
	n := int64(0)
	g.blockStart = g.clock + 1
	g.cur = b
	for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
		g.clock++
		g.seq[i] = g.clock
		if t := g.test; t != nil && t.checkPath && !g.draining {
			t.byClock = append(t.byClock, i)
		}
		if f.InstrProps(i).Has(ir.POpaque) {
			// It may write more than it marks: forget the block so far,
			// its copies included.
			g.local.undo(0)
			g.blockStart = g.clock
		}
		h, ok := g.candidate(i)
		if ok {
			// A candidate's only definition is its first operand, as
			// before any rewrite: L's "mov %dL, %dE" writes the same.
			d0 := f.Ops(i)[0].Reg()
			le := g.localFind(h, i)
			local := le != ir.NoInstr && g.commonWith(i, le)
			if le != ir.NoInstr && !local && g.redo != nil {
				g.redo[b] = true // the drain numbers b again (run)
			}
			if local {
				n++
			} else if e := g.globalFind(h, i); e != ir.NoInstr && g.commonWith(i, e) {
				n++
				if g.mode >= 3 && !g.late {
					g.scope.insert(uint32(b))
				}
				// i is now "mov %dL, %dE" with %dE's only definition e
				// dominating it: when i is also %dL's only definition,
				// later keys may see through it.
				if dl := f.Ops(i)[0].Reg(); g.defCount(dl) == 1 && !g.isOpaque(dl) {
					g.setGlobalAlias(dl, f.Ops(e)[0].Reg(), i)
				}
			} else if g.multiVersion(f.Ops(i)[0].Reg()) {
				// In SSA form a version of a register written several
				// times leads nothing: reading it later would keep it
				// live across the register's other versions, and
				// OutOfSSA would give it a register of its own.
			} else {
				g.local.insert(g, h, i)
				if g.global.slots != nil && !g.draining && g.globalCandidate(i) {
					g.global.insert(g, h, i)
					g.mask |= g.classBit(i)
				}
			}
			g.rs[d0].lastDef, g.rs[d0].alias1 = g.clock, 0
		} else {
			g.refs = core.AppendRegRefs(f, i, g.refs[:0])
			for _, x := range g.refs {
				if x.Def {
					g.rs[x.Reg].lastDef, g.rs[x.Reg].alias1 = g.clock, 0
				}
			}
		}
		if s, ok := g.copyOf(i); ok && !g.noMoves {
			// After the copy, %d and what s stands for are equal until
			// either is written again.
			d := f.Ops(i)[0].Reg()
			if s = g.resolve(s, i); s != d {
				g.rs[d].alias1 = s + 1 // made at lastDef, the copy's sequence number
			}
		}
	}
	g.local.undo(0)
	return n
}

// copyOf returns the source register of instruction i when i is an
// unguarded plain register copy between ordinary registers of
// interchangeable types.
func (g *gvn) copyOf(i ir.InstrID) (ir.RegID, bool) {
	f := g.f
	if f.Op[i] != ir.OpMov || f.Guard[i] != ir.NoOperand || !f.InstrProps(i).Has(ir.PCopy) {
		return ir.NoReg, false
	}
	ops := f.Ops(i)
	if ops[0].Flags() != 0 || ops[1].Kind() != ir.KReg || ops[1].Flags() != 0 {
		return ir.NoReg, false
	}
	d, s := ops[0].Reg(), ops[1].Reg()
	if !g.isPlain(d) || !g.isPlain(s) || !regsInterchangeable(f.RegType[d], f.RegType[s]) {
		return ir.NoReg, false
	}
	return s, true
}

// setGlobalAlias records that copy c ("mov %d, %s"), the only definition
// of d, makes d equal s wherever c dominates, when s has no definition
// or one that strictly dominates c (GeneralOptimize's global copy rule).
func (g *gvn) setGlobalAlias(d, s ir.RegID, c ir.InstrID) {
	if g.isOpaque(d) || g.isOpaque(s) {
		return
	}
	switch g.defCount(s) {
	case 0:
	case 1:
		if e, _ := g.onlyDef(s); !g.before(e, c) {
			return
		}
	default:
		return
	}
	g.rs[d].gsrc1, g.rs[d].def1 = s+1, c+1 // def1: c, already with defTables
}

// manyDefs in def1: two definitions or more.
const manyDefs = ^ir.InstrID(0)

// defTables records instruction i (at layout position at, its
// references in g.refs) in rs[].def1 and end1, what the walk and the
// pressure estimate read of the def-use chains, for a function whose
// chains the cache does not hold: computing the chains
// (every reference of every register, stored and sorted into rows) cost
// LateOriCommoning more than its walk on large functions, and a row
// lookup reads two arrays where def1 is one word of the register's walk
// state. def1 is r's only definition plus
// one (0: none, manyDefs: more than one), counting references as the
// chains do (an instruction writing r twice defines it twice); end1[r]
// is one plus the last layout position among r's definitions and uses
// (0: none), a PHI's uses aside (phiEnds).
func (g *gvn) defTables(i ir.InstrID, at int32) {
	for _, x := range g.refs {
		r := x.Reg
		if x.Def {
			if g.rs[r].def1 == 0 {
				g.rs[r].def1 = i + 1
			} else {
				g.rs[r].def1 = manyDefs
			}
		}
		if g.end1 != nil && (x.Def || g.f.Op[i] != ir.OpPhi) {
			g.end1[r] = max(g.end1[r], at+1)
		}
	}
}

// phiEnds adds to end1 the uses of the PHIs phis, read at the end of the
// PHI's predecessors (as gvnPressure.endOf takes them), once the layout
// scan has placed every block.
func (g *gvn) phiEnds(phis []ir.InstrID) {
	f := g.f
	for _, i := range phis {
		g.refs = core.AppendRegRefs(f, i, g.refs[:0])
		for _, x := range g.refs {
			if x.Def {
				continue
			}
			for _, p := range f.PredsOf(f.Block[i]) {
				g.end1[x.Reg] = max(g.end1[x.Reg], g.blockEnd[p]+1)
			}
		}
	}
}

// onlyDef returns how many definitions r has (0, 1, or 2 for two or
// more) and, when one, the defining instruction.
func (g *gvn) onlyDef(r ir.RegID) (ir.InstrID, int) {
	if g.du != nil {
		defs := g.du.Defs(r)
		if len(defs) == 1 {
			return defs[0].Instr, 1
		}
		return ir.NoInstr, min(len(defs), 2)
	}
	switch d := g.rs[r].def1; d {
	case 0:
		return ir.NoInstr, 0
	case manyDefs:
		return ir.NoInstr, 2
	default:
		return d - 1, 1
	}
}

// defCount is onlyDef's count.
func (g *gvn) defCount(r ir.RegID) int {
	if g.facts != nil && g.du != nil {
		return int(g.facts[r] & factDefs)
	}
	_, n := g.onlyDef(r)
	return n
}

// resolve returns the register r stands for at instruction x: through
// the block's copies (the copy is r's latest definition and its source
// was not written since) and through dominating single-definition
// copies.
func (g *gvn) resolve(r ir.RegID, x ir.InstrID) ir.RegID {
	if g.noMoves {
		return r
	}
	for range 8 {
		st := &g.rs[r]
		if st.alias1 != 0 && st.lastDef >= g.blockStart && st.lastDef < g.seq[x] &&
			g.rs[st.alias1-1].lastDef < st.lastDef {
			r = st.alias1 - 1
			continue
		}
		if st.gsrc1 != 0 && g.dominatesAt(st.def1-1, st.lastDef, x) {
			r = st.gsrc1 - 1
			continue
		}
		break
	}
	return r
}

// localValid reports whether the local entry e may stand for l: no
// source register was written at or after e, and e's destination not
// after e. l's own definitions are not yet recorded.
func (g *gvn) localValid(e, l ir.InstrID) bool {
	f := g.f
	ok := g.keyRegs(l, func(r ir.RegID) bool { return g.rs[r].lastDef < g.seq[e] })
	return ok && g.rs[f.Ops(e)[0].Reg()].lastDef == g.seq[e]
}

// candidate reports whether instruction i takes part in value numbering
// (see the file comment) and returns its key's hash.
func (g *gvn) candidate(i ir.InstrID) (uint64, bool) {
	f := g.f
	if f.IsDead(i) {
		return 0, false
	}
	if gd := f.Guard[i]; gd != ir.NoOperand && (!gd.IsReg() || gd.Flags()&^ir.FlagNot != 0) {
		return 0, false
	}
	p := f.InstrProps(i)
	conv := g.convergentClass(i)
	if p&gvnExclude != 0 && !conv {
		return 0, false
	}
	if !conv && (p.Has(ir.PReadsMem) || !p.Has(ir.PPure)) {
		if !g.invariantRead(i) {
			return 0, false
		}
	}
	ops := f.Ops(i)
	if len(ops) < 2 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() || ops[0].Flags() != 0 ||
		!g.plainDest(ops[0].Reg()) {
		return 0, false
	}
	g.refs = core.AppendRegRefs(f, i, g.refs[:0])
	refs := g.refs
	if len(refs) > 0 && refs[0].Loc.IsGuard() {
		refs = refs[1:]
	}
	for k, x := range refs {
		if x.Def != (k == 0) {
			return 0, false // a second definition, or a definition not first
		}
	}
	if len(refs) == 0 || refs[0].Reg != ops[0].Reg() {
		return 0, false
	}
	inner := false
	for _, x := range g.refs {
		inner = inner || !x.Def && (x.Loc.InList() || x.Loc.IsGuard())
	}
	g.keyInner[i] = inner
	// The key's header (keyHeader) and sources: registers replaced by
	// what they stand for.
	c := uint32(len(ops))
	if g.commutes(i) {
		c |= 1 << 16
	}
	g.keyOps = append(g.keyOps, ir.Operand(f.Mnemonic[i]),
		ir.Operand(uint32(f.Op[i])|uint32(f.Type[i])<<16|uint32(f.Type2[i])<<24),
		ir.Operand(uint32(f.Space[i])|c<<8), f.Guard[i])
	g.keyStart[i] = int32(len(g.keyOps))
	for _, o := range ops[1:] {
		if o.Kind() == ir.KReg {
			o = o.WithIndex(uint32(g.resolve(o.Reg(), i)))
		}
		g.keyOps = append(g.keyOps, o)
	}
	// The decoded form, not the mnemonic's string ID: IDs of text interned
	// while functions are optimized in parallel depend on timing, and the
	// table's probe order must not.
	h := uint64(f.Op[i])*0x9E3779B97F4A7C15 ^ uint64(f.Mods[i])*0xC2B2AE3D27D4EB4F ^
		uint64(f.Type[i])<<8 ^ uint64(f.Type2[i])<<16 ^ uint64(f.Space[i])<<24 ^ uint64(len(ops))<<32
	srcs := g.key(i)
	if c&(1<<16) != 0 { // commutes
		a, b := g.opHash(srcs[0]), g.opHash(srcs[1])
		h = mix(h, a+b)
		h = mix(h, a^b)
		srcs = srcs[2:]
	}
	for _, o := range srcs {
		h = mix(h, g.opHash(o))
	}
	if gd := f.Guard[i]; gd != ir.NoOperand {
		h = mix(h, uint64(gd)) // the guard register and its polarity
	}
	return h, true
}

// convergentClass: i is one of the warp-collective classes the seeds let
// value numbering see (vote and match always, shfl in modes 5 and 6):
// the .sync forms, unguarded, compared only inside one block (localOnly),
// where the same lanes run both instructions with the same operands.
func (g *gvn) convergentClass(i ir.InstrID) bool {
	f := g.f
	if f.Guard[i] != ir.NoOperand || !f.Mods[i].Has(ir.ModSync) {
		return false
	}
	switch f.Op[i] {
	case ir.OpVote, ir.OpMatch:
		return true
	case ir.OpShfl:
		return g.mode >= 5
	}
	return false
}

// invariantRead: i reads memory nothing in the kernel writes: ld of a
// kernel's own .param or of .const (PInvariant), or a texture fetch (tex,
// tld4) in a function with no surface write (sust, sured).
func (g *gvn) invariantRead(i ir.InstrID) bool {
	f := g.f
	p := f.InstrProps(i)
	if p&gvnExclude != 0 {
		return false
	}
	switch f.Op[i] {
	case ir.OpLd:
		return p.Has(ir.PInvariant) && (f.Space[i] == ir.SpaceParam || f.Space[i] == ir.SpaceConst)
	case ir.OpTex, ir.OpTld4:
		return !g.hasSurfaceWrite && !p.Has(ir.PWritesMem)
	}
	return false
}

// localOnly: candidate i may only be commoned inside its block.
func (g *gvn) localOnly(i ir.InstrID) bool {
	return g.f.Guard[i] != ir.NoOperand || g.convergentClass(i)
}

// commutes: the first two sources of i may be compared in either order.
func (g *gvn) commutes(i ir.InstrID) bool {
	f := g.f
	return len(f.Ops(i)) >= 3 && f.InstrProps(i).Has(ir.PCommutative) && !f.Type[i].IsFloat() &&
		!f.Type2[i].IsFloat()
}

// globalCandidate reports whether candidate e may stand for later
// instructions it dominates (the dominator-scoped rule's conditions on
// E).
func (g *gvn) globalCandidate(e ir.InstrID) bool {
	f := g.f
	if g.localOnly(e) {
		return false
	}
	d := f.Ops(e)[0].Reg()
	if g.facts != nil && g.du != nil {
		// e defines d, so d's only definition, when it has one, is e
		// (the chains list every definition; the phase adds none).
		if g.facts[d]&(factDefs|factOpaque|factMulti) != 1 {
			return false
		}
	} else {
		if de, n := g.onlyDef(d); n != 1 || de != e || g.isOpaque(d) {
			return false
		}
		if g.multiVersion(d) {
			return false
		}
	}
	return g.keyRegs(e, func(r ir.RegID) bool {
		if g.isOpaque(r) {
			return false
		}
		switch g.defCount(r) {
		case 0:
			return true
		case 1:
			// r's only definition was met by the walk at lastDef,
			// if at all (globalCandidate runs in the main walk only)
			if t := g.test; t != nil && (t.noPath || t.checkPath) {
				d, _ := g.onlyDef(r)
				ok := g.before(d, e)
				if t.checkPath {
					t.pathChecked++
					if ok != g.openDef(g.rs[r].lastDef) {
						t.pathDiffer++
					}
					// and for a spread of instructions met before
					n := uint32(len(t.byClock))
					for _, c := range [...]uint32{1, n / 3, n / 2, n - n/7, n - 2, n - 1} {
						if c == 0 || c >= n { // (n is e itself)
							continue
						}
						t.pathChecked++
						if g.before(t.byClock[c-1], e) != g.openDef(c) {
							t.pathDiffer++
						}
					}
				}
				return ok
			}
			return g.openDef(g.rs[r].lastDef)
		}
		return false
	})
}

// key returns candidate i's key sources.
func (g *gvn) key(i ir.InstrID) []ir.Operand {
	k := g.keyStart[i]
	return g.keyOps[k : k+int32(len(g.f.Ops(i))-1)]
}

// keyRegs reports whether ok holds for every register of i's key: the
// top-level source registers as resolved, the registers inside
// addresses and lists as written.
func (g *gvn) keyRegs(i ir.InstrID, ok func(ir.RegID) bool) bool {
	for _, o := range g.key(i) {
		if o.Kind() == ir.KReg && !ok(o.Reg()) {
			return false
		}
	}
	if !g.keyInner[i] {
		return true
	}
	g.refs2 = core.AppendRegRefs(g.f, i, g.refs2[:0])
	for _, x := range g.refs2 {
		if !x.Def && (x.Loc.InList() || x.Loc.IsGuard()) && !ok(x.Reg) {
			return false
		}
	}
	return true
}

// before reports whether instruction a strictly dominates instruction b.
func (g *gvn) before(a, b ir.InstrID) bool {
	f := g.f
	ba, bb := f.Block[a], f.Block[b]
	if ba == ir.NoBlock || f.IsDead(a) {
		return false
	}
	if ba == bb {
		return g.lpos[a] < g.lpos[b] && g.dom.Contains(ba)
	}
	return g.dom.Dominates(ba, bb)
}

// commonWith rewrites l into a copy of e's destination when the two
// destination registers allow it, and reports whether it did.
func (g *gvn) commonWith(l, e ir.InstrID) bool {
	f := g.f
	dl, de := f.Ops(l)[0].Reg(), f.Ops(e)[0].Reg()
	tl := f.RegType[dl]
	if !regsInterchangeable(tl, f.RegType[de]) || g.gate <= 0 || !g.pressureOK(l, e) || !g.p.Allow() {
		return false
	}
	g.gate--
	if f.Guard[l] != ir.NoOperand {
		g.nGuarded++
	}
	t, _ := gvnMovType(tl)
	f.SetOps(l, []ir.Operand{ir.RegDef(dl), ir.RegOp(de)})
	f.SetForm(l, ir.Form{Op: ir.OpMov, Type: t})
	return true
}

// gvnMovType returns the type of a mov between registers of type t: t
// itself when mov accepts it, else the bit type of its width.
func gvnMovType(t ir.Type) (ir.Type, bool) {
	switch t {
	case ir.TPred, ir.TB16, ir.TB32, ir.TB64, ir.TU16, ir.TU32, ir.TU64, ir.TS16, ir.TS32, ir.TS64,
		ir.TF32, ir.TF64:
		return t, true
	}
	switch t.Bits() {
	case 16:
		return ir.TB16, true
	case 32:
		return ir.TB32, true
	case 64:
		return ir.TB64, true
	}
	return ir.TNone, false
}

func (g *gvn) plainReg(r ir.RegID) bool {
	return g.f.RegVec[r] == 0 && g.f.RegParam(r) == ir.NoSym
}

// The bits of gvn.facts: factDefs, r's definitions (0, 1, or 2 for two or
// more; filled with the chains only: onlyDef's count); factOpaque, an
// opaque instruction names r (modes 2 up); factMulti, in SSA form a
// version of a register written several times (ssaState.multiVersion);
// factPlain, plainReg; factMovType, gvnMovType accepts r's type.
const (
	factDefs    = 3
	factOpaque  = 1 << 2
	factMulti   = 1 << 3
	factPlain   = 1 << 4
	factMovType = 1 << 5
)

// buildFacts fills g.facts, registers in order (after the layout scan,
// which marks the opaque registers): each array it reads, it reads
// sequentially.
func (g *gvn) buildFacts() {
	f := g.f
	n := f.NumRegs()
	g.facts = takeRaw[uint8](g.sc, n)
	nd := 0
	if g.du != nil {
		nd = g.du.NumRegs()
	}
	for r := range n {
		x := uint8(0)
		if f.RegVec[r] == 0 {
			x |= factPlain
		}
		if _, ok := gvnMovType(f.RegType[r]); ok {
			x |= factMovType
		}
		if g.opaque != nil && g.opaque[r] {
			x |= factOpaque
		}
		if r < nd {
			// the row's length: its start and the next, read in order
			x |= uint8(min(len(g.du.Defs(ir.RegID(r))), 2))
		}
		g.facts[r] = x
	}
	if g.ssa != nil {
		for r := range n {
			if g.ssa.multiVersion(ir.RegID(r)) {
				g.facts[r] |= factMulti
			}
		}
	}
	// A parameter's register is not plain (RegParam).
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if pr, ok := f.ParamReg(id); ok && int(pr) < n {
				g.facts[pr] &^= factPlain
			}
		}
	}
	if t := g.test; t != nil {
		for _, x := range g.facts {
			for k, bit := range [4]uint8{factOpaque, factMulti, factPlain, 2} {
				if (x&bit != 0) != (k == 2) {
					t.facts[k]++
				}
			}
		}
	}
}

// isPlain is plainReg, from the facts when the walk has them.
func (g *gvn) isPlain(r ir.RegID) bool {
	if g.facts != nil {
		return g.facts[r]&factPlain != 0
	}
	return g.plainReg(r)
}

// plainDest: r may be a candidate's destination (plainReg, and a mov can
// write its type).
func (g *gvn) plainDest(r ir.RegID) bool {
	if g.facts != nil {
		return g.facts[r]&(factPlain|factMovType) == factPlain|factMovType
	}
	if !g.plainReg(r) {
		return false
	}
	_, ok := gvnMovType(g.f.RegType[r])
	return ok
}

// isOpaque: an opaque instruction names r (modes 2 up).
func (g *gvn) isOpaque(r ir.RegID) bool {
	if g.facts != nil {
		return g.facts[r]&factOpaque != 0
	}
	return g.opaque[r]
}

// multiVersion: in SSA form, r is a version of a register written
// several times.
func (g *gvn) multiVersion(r ir.RegID) bool {
	if g.facts != nil {
		return g.facts[r]&factMulti != 0
	}
	return g.ssa != nil && g.ssa.multiVersion(r)
}

func mix(h, v uint64) uint64 {
	h ^= v + 0x9E3779B97F4A7C15 + h<<6 + h>>2
	return h * 0xFF51AFD7ED558CCD
}

// opHash hashes a source operand by what it denotes (see sameOperand).
func (g *gvn) opHash(o ir.Operand) uint64 {
	f := g.f
	h := uint64(o.Kind())<<8 | uint64(o.Flags())
	switch o.Kind() {
	case ir.KImm:
		im := f.Imms[o.Index()]
		h = mix(h, im.Bits)
		if im.Kind.IsFloat() {
			h = mix(h, uint64(im.Kind))
		}
	case ir.KAddr:
		a := f.Addrs[o.Index()]
		h = mix(h, uint64(a.Off))
		h = mix(h, g.listHash(a.Elems))
	case ir.KList:
		h = mix(h, g.listHash(o.Index()))
	default:
		h = mix(h, uint64(o.Index()))
	}
	return h
}

func (g *gvn) listHash(l uint32) uint64 {
	h := uint64(0x51)
	for _, e := range g.f.ListElems(l) {
		h = mix(h, g.opHash(e))
	}
	return h
}

// sameOperand reports whether source words a and b denote the same
// thing: the same register, symbol, special register or label; immediates
// of equal value; addresses and lists of equal elements.
func (g *gvn) sameOperand(a, b ir.Operand) bool {
	f := g.f
	if a.Kind() != b.Kind() || a.Flags() != b.Flags() || a.IsDef() || b.IsDef() {
		return false
	}
	switch a.Kind() {
	case ir.KImm:
		x, y := f.Imms[a.Index()], f.Imms[b.Index()]
		if x.Bits != y.Bits || x.Kind.IsFloat() != y.Kind.IsFloat() {
			return false
		}
		return !x.Kind.IsFloat() || x.Kind == y.Kind
	case ir.KAddr:
		x, y := f.Addrs[a.Index()], f.Addrs[b.Index()]
		return x.Off == y.Off && x.HasOff == y.HasOff && g.sameList(x.Elems, y.Elems)
	case ir.KList:
		return g.sameList(a.Index(), b.Index())
	case ir.KSink:
		return false
	}
	return a.Index() == b.Index()
}

func (g *gvn) sameList(x, y uint32) bool {
	a, b := g.f.ListElems(x), g.f.ListElems(y)
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !g.sameOperand(a[k], b[k]) {
			return false
		}
	}
	return true
}

// sameKey reports whether candidates a and b have equal keys.
func (g *gvn) sameKey(a, b ir.InstrID) bool {
	if t := g.test; t != nil && t.fieldKeys {
		return g.sameKeyFields(a, b)
	}
	// The headers (keyHeader) hold what sameKeyFields reads of the
	// instructions' own columns, as it was when each key was made; an
	// instruction in a table is not rewritten while it is there (only the
	// instruction the walk is at is), so the two agree. A probe then reads
	// the entry's key words, not half a dozen columns at an instruction
	// far away.
	ka, kb := g.keyStart[a], g.keyStart[b]
	ha, hb := g.keyOps[ka-keyHeader:ka], g.keyOps[kb-keyHeader:kb]
	if ha[0] != hb[0] || ha[1] != hb[1] || ha[2] != hb[2] || ha[3] != hb[3] {
		return false // the guards compare as written: one register, one polarity
	}
	n := int32(ha[2]>>8&0xff) - 1
	return g.sameSources(g.keyOps[ka:ka+n], g.keyOps[kb:kb+n], ha[2]&(1<<24) != 0)
}

// keyHeader: the words before a candidate's key sources in keyOps: its
// mnemonic, its opcode and types, its state space with its operand count
// and whether its first two sources commute, and its guard.
const keyHeader = 4

// sameKeyFields is sameKey from the instructions' columns.
func (g *gvn) sameKeyFields(a, b ir.InstrID) bool {
	f := g.f
	if f.Op[a] != f.Op[b] || f.Mnemonic[a] != f.Mnemonic[b] || f.Type[a] != f.Type[b] ||
		f.Type2[a] != f.Type2[b] || f.Space[a] != f.Space[b] {
		return false
	}
	if len(f.Ops(a)) != len(f.Ops(b)) || (f.Guard[a] == ir.NoOperand) != (f.Guard[b] == ir.NoOperand) {
		return false
	}
	if ga, gb := f.Guard[a], f.Guard[b]; ga != gb {
		return false // guards compare as written: one register, one polarity
	}
	return g.sameSources(g.key(a), g.key(b), g.commutes(a))
}

// sameSources compares two keys' sources (comm: the first two may be
// swapped).
func (g *gvn) sameSources(x, y []ir.Operand, comm bool) bool {
	start := 0
	if comm {
		start = 2
		straight := g.sameOperand(x[0], y[0]) && g.sameOperand(x[1], y[1])
		if !straight && !(g.sameOperand(x[0], y[1]) && g.sameOperand(x[1], y[0])) {
			return false
		}
	}
	for k := start; k < len(x); k++ {
		if !g.sameOperand(x[k], y[k]) {
			return false
		}
	}
	return true
}

// gvnTable is an open-addressing hash table of instructions keyed by
// their value-numbering key, with an undo log: undo(mark) restores the
// table as it was when the log had mark entries. Removal happens only
// through undo, in reverse order of insertion, so linear probing stays
// valid. A slot holds the instruction and the high 32 bits of its key's
// hash side by side, so a probe reads one cache line (the dominator-scoped
// table of a large function can be megabytes: two arrays cost two misses per
// probe); the low bits chose the slot, and sameKey decides equality.
type gvnTable struct {
	slots []gvnSlot // instr NoInstr: empty
	log   []gvnUndo
	mask  uint64
	used  int // occupied slots
	sc    *Scratch
}

type gvnSlot struct {
	instr ir.InstrID
	hi    uint32 // the hash's high 32 bits
}

// gvnUndo records one insertion: the instruction and its hash (for grow),
// the slot it took and what the slot held before.
type gvnUndo struct {
	h     uint64
	instr ir.InstrID
	slot  uint32
	prev  gvnSlot
}

func (t *gvnTable) init(sc *Scratch, n int) {
	t.sc = sc
	t.alloc(n)
	t.log = take[gvnUndo](sc, n)[:0] // one entry per insertion in effect; appends past n grow it
}

// alloc gives the table empty slots for n entries at half load at most.
func (t *gvnTable) alloc(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t.slots = take[gvnSlot](t.sc, size)
	for k := range t.slots {
		t.slots[k].instr = ir.NoInstr
	}
	t.mask = uint64(size - 1)
	t.used = 0
}

// grow doubles the table and inserts the log's entries again in their
// order: the table then holds what the same insertions would have made at
// the new size (an equal key replaces the entry it meets, whatever the
// size), and the rewritten log undoes them as before.
func (t *gvnTable) grow(g *gvn) {
	t.alloc(len(t.slots))
	for j := range t.log {
		u := &t.log[j]
		u.slot, u.prev = t.place(g, u.h, u.instr)
	}
}

// place puts i (hash h) into its slot, replacing an entry with an equal
// key, and returns the slot and what it held.
func (t *gvnTable) place(g *gvn, h uint64, i ir.InstrID) (uint32, gvnSlot) {
	hi := uint32(h >> 32)
	for k := h & t.mask; ; k = (k + 1) & t.mask {
		s := t.slots[k]
		if s.instr == ir.NoInstr || (s.hi == hi && g.sameKey(s.instr, i)) {
			if s.instr == ir.NoInstr {
				t.used++
			}
			t.slots[k] = gvnSlot{instr: i, hi: hi}
			return uint32(k), s
		}
	}
}

// find returns the entry with l's key (hash h), or NoInstr; valid, when
// not nil, must also accept it.
func (t *gvnTable) find(g *gvn, h uint64, l ir.InstrID, valid func(e, l ir.InstrID) bool) ir.InstrID {
	if t.slots == nil {
		return ir.NoInstr
	}
	hi := uint32(h >> 32)
	for k := h & t.mask; ; k = (k + 1) & t.mask {
		s := t.slots[k]
		if s.instr == ir.NoInstr {
			return ir.NoInstr
		}
		if s.hi == hi && g.sameKey(s.instr, l) {
			if valid != nil && !valid(s.instr, l) {
				return ir.NoInstr
			}
			return s.instr
		}
	}
}

// insert adds i (hash h), replacing an entry with an equal key.
func (t *gvnTable) insert(g *gvn, h uint64, i ir.InstrID) {
	if 2*(t.used+1) > len(t.slots) {
		t.grow(g)
	}
	k, prev := t.place(g, h, i)
	t.log = append(t.log, gvnUndo{h: h, instr: i, slot: k, prev: prev})
}

func (t *gvnTable) undo(mark int) {
	for j := len(t.log) - 1; j >= mark; j-- {
		u := t.log[j]
		t.slots[u.slot] = u.prev
		if u.prev.instr == ir.NoInstr {
			t.used--
		}
	}
	t.log = t.log[:mark]
}

// ebbPre is mode 2's pre-pass: the head of each block's extended basic
// block (a block with exactly one predecessor continues its
// predecessor's; any other block heads its own). Without the pre-pass
// (targets above EbbPrePassBoundary) a block's "head" is its immediate
// dominator, so the cross-block lookup reaches one dominator up.
func (g *gvn) ebbPre() {
	f := g.f
	g.ebbHead = take[ir.BlockID](g.sc, f.NumBlocks())
	for b := range g.ebbHead {
		g.ebbHead[b] = ir.BlockID(b)
	}
	for _, b := range g.dom.PreOrder() {
		if !g.ebbPrePass {
			if d := g.dom.IDom(b); d != ir.NoBlock {
				g.ebbHead[b] = d
			}
			continue
		}
		if ps := f.PredsOf(b); len(ps) == 1 && ps[0] != b && b != f.Entry() {
			g.ebbHead[b] = g.ebbHead[ps[0]]
		}
	}
}

// localFind looks i up in the block's table (not in LateOriCommoning,
// which commons only across blocks: the seeds' condition C1).
func (g *gvn) localFind(h uint64, i ir.InstrID) ir.InstrID {
	if g.late {
		return ir.NoInstr
	}
	return g.local.find(g, h, i, g.localValid)
}

// globalFind looks i up in the dominator-scoped table; in
// LateOriCommoning only when the class filter says an entry of i's class
// is on the dominator path.
func (g *gvn) globalFind(h uint64, i ir.InstrID) ir.InstrID {
	if g.draining {
		return ir.NoInstr
	}
	if g.late && g.mask&g.classBit(i) == 0 {
		// No entry of i's class on the path: the table cannot hold i's
		// key, and the probe is skipped.
		if t := g.filterTest; t != nil {
			t.rejected++
			if g.global.find(g, h, i, nil) != ir.NoInstr {
				t.wrong++
			}
			if t.off {
				return g.global.find(g, h, i, g.globalValid)
			}
		}
		return ir.NoInstr
	}
	return g.global.find(g, h, i, g.globalValid)
}

// classBit is i's bit in the class filter: one of 64 classes by opcode,
// type and state space. Equal keys have equal classes, so a clear bit
// proves no entry can match.
func (g *gvn) classBit(i ir.InstrID) uint64 {
	f := g.f
	h := uint64(f.Op[i])*0x9E3779B97F4A7C15 ^ uint64(f.Type[i])<<7 ^ uint64(f.Space[i])<<13
	return 1 << (mix(h, 0) >> 58)
}

// globalValid reports whether the dominating entry e may stand for l in
// the current mode: modes 3 to 6 take any dominating entry; mode 2 only
// one in l's block or l's extended basic block (with the pre-pass) or in
// l's immediate dominator (without).
func (g *gvn) globalValid(e, l ir.InstrID) bool {
	if g.late {
		return g.f.Block[e] != g.f.Block[l]
	}
	if g.mode != 2 {
		return true
	}
	be, bl := g.f.Block[e], g.f.Block[l]
	if be == bl {
		return true
	}
	if g.ebbPrePass {
		return g.ebbHead[be] == g.ebbHead[bl]
	}
	return g.ebbHead[bl] == be
}

// scopeTree is the seeds' record of visited blocks: a sparse set of
// 256-bit nodes, one per group of 256 consecutive block numbers (the
// group is the block number >> 8, the bit its low 8 bits), drained in
// ascending block order with trailing-zero counts.
type scopeTree struct {
	group []int32 // group → index in nodes + 1 (0: no node)
	nodes []scopeNode
}

type scopeNode struct {
	key  uint32
	bits [4]uint64
}

func (t *scopeTree) insert(b uint32) {
	k := b >> 8
	for int(k) >= len(t.group) {
		t.group = append(t.group, 0)
	}
	if t.group[k] == 0 {
		t.nodes = append(t.nodes, scopeNode{key: k})
		t.group[k] = int32(len(t.nodes))
	}
	n := &t.nodes[t.group[k]-1]
	n.bits[(b>>6)&3] |= 1 << (b & 63)
}

// drain calls fn for every recorded block in ascending order and empties
// the tree.
func (t *scopeTree) drain(fn func(ir.BlockID)) {
	slices.SortFunc(t.nodes, func(a, b scopeNode) int { return int(a.key) - int(b.key) })
	for _, n := range t.nodes {
		for w, x := range n.bits {
			for x != 0 {
				bit := bits.TrailingZeros64(x)
				x &= x - 1
				fn(ir.BlockID(n.key<<8 | uint32(w)<<6 | uint32(bit)))
			}
		}
		t.group[n.key] = 0
	}
	t.nodes = t.nodes[:0]
}
