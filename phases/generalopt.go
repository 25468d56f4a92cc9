package phases

import (
	"slices"
	"strings"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The GeneralOptimize bundle (six slots: GeneralOptimizeEarly,
// GeneralOptimize, GeneralOptimizeMid, GeneralOptimizeMid2,
// GeneralOptimizeLate, GeneralOptimizeLate2). Each slot runs its own list
// of sub-passes (bundles, below), repeated until a round changes nothing
// (within the budgets); the late slot makes one pass.
//
// Purpose: -O0-style PTX moves every value through temporaries,
// materialises constants in registers and branches on constant
// conditions; the bundle lets each use read the original value, folds
// what becomes constant, and removes the control flow that constant
// predicates decide.
//
// Preconditions: none. The IR is not assumed to be in SSA form: a register
// may be written many times, and a guarded write ("@%p mov …") keeps the
// old value in the lanes whose guard is false. PHI instructions, when
// present, are never rewritten nor looked through.
//
// Guarantees: the program computes exactly what it computed before. Every
// rewrite below is justified on its own, per lane:
//
//   - Local copy propagation. Walking a block forward, an unguarded plain
//     copy "mov.t %d, s" (InstrProps has PCopy: register destination, one
//     register or immediate source of the same width) makes s the value
//     of %d until either %d or s is written again (any definition counts:
//     guarded ones, list and vector elements, "%p|%q"). Until then a read
//     of %d may read s instead.
//   - Guarded facts (copyFact), also walking a block forward. After
//     "@%p mov.t %d, s" the lanes where %p is true hold s in %d; an
//     instruction guarded by the same %p (same polarity) runs only in
//     those lanes, so until %d, s or %p is written again it may read s.
//     After an unguarded "selp.t %d, a, b, %p", %d holds a where %p is
//     true and b where it is false: an instruction under @%p may read a,
//     one under @!%p b. With LateCopyPropComplPred, in the late bundles,
//     a guarded copy into a %d whose other lanes hold a known value (an
//     unguarded copy, or a copy under the complementary guard) makes the
//     same select fact: each lane holds one of the two. Unguarded
//     instructions learn nothing from these facts (the value differs by
//     lane).
//   - Global copy propagation, without SSA. %d has exactly one definition
//     in the function, the unguarded copy c = "mov %d, s", and c
//     dominates the use (c's block strictly dominates the use's block, or
//     c comes first in the same block). Then on every path to the use the
//     last write of %d is c. If s is an immediate that settles it. If s is
//     a register, s must also have exactly one definition D (guarded or
//     not), and D must dominate c the same way. Then s changes only when D
//     runs; any path from an execution of D to the use passes c (otherwise
//     D reaches the use avoiding c, and since D dominates c and c
//     dominates the use, D would dominate c and c dominate D, with D != c),
//     so s still holds at the use the value %d got from it at c.
//   - Rewrite rules (rules/*.rules, compiled by `go generate` into
//     generalopt_rules_gen.go; see generalopt_rt.go): folding, identities,
//     selects, guards. A rule reads a register as a constant when the walk
//     knows its value at that instruction (the local copy table, or a
//     single-definition immediate copy dominating it, by the argument
//     above), and looks through a register to its defining instruction
//     only when that definition's value and its register sources still
//     hold (defOf).
//
// What is never touched: operands of instructions that are volatile,
// convergent, carry-chain, calls, asynchronous, opaque or pseudo (a
// substitution there would be correct, but those keep their exact
// operands by policy); .reg parameter registers and vector registers on
// either side of a copy; special registers (a mov from %tid.x is not a
// copy). A register replaces a register only where the types are
// interchangeable for PTX's type rules (the same type; integer types of
// one width; a .b register for anything of its width). An immediate
// replaces a register only at a whitelisted position: the source of an
// integer mov, the second source of integer add/sub/mul/and/or/xor/min/
// max and of a plain two-source setp, the shift amount of shl/shr; never
// an address, a vector element, a guard, a store value or a call
// argument; only integer immediates, and only when the register, the
// copy and the using instruction have the same width (the immediate is
// then truncated the same way in both places).
//
// Budgets: CopyPropBudget bounds local rewrites, CopyPropGlobalBudget
// cross-block rewrites, per function and bundle run (by default at least
// one per instruction: Knobs.SizedBudget). CopyPropAddr off
// leaves registers inside addresses as written; CopyPropNoWriteNonRR
// propagates registers only, never a constant into a register source. The global rule is
// always on (it is exact without SSA), so CopyPropForceGlobal and
// CopyPropUseReachingDefs change nothing. GeneralOptimizeRuleLimit is
// the rules' debug counter.
//
//	before:  mov.u32 %r2, %r1;  add.u32 %r3, %r2, 0;  mov.u32 %r4, 8;  shl.b32 %r5, %r3, %r4;
//	after:   mov.u32 %r2, %r1;  mov.u32 %r3, %r1;     mov.u32 %r4, 8;  shl.b32 %r5, %r1, 8;
//	         (the dead moves go in the next OriPerformLiveDead)

// subPass is one sub-transformation of the bundle, addressable by name
// (counters carry it; tests run one alone).
type subPass uint8

const (
	// CopyProp: local and global copy propagation (operand rewriting).
	spCopyProp subPass = iota
	// MovWindow: the late instance's copy propagation, which remembers
	// only the last movWindow copies of a block (the seed's six-slot
	// buffer) and makes a single pass.
	spMovWindow
	// ConstantFold: the rules of group fold (rules/int.rules,
	// rules/float.rules, rules/addr.rules), applied during the walks.
	spFold
	// PredicateSimplify: the rules of group pred (rules/pred.rules) in
	// the walks, then the control-flow cleanup (generalopt_cfg.go, the
	// rules of group cfg).
	spPred
	// DeadCode: instructions without effects whose results nothing reads.
	spDead
	// MergeEquivalentConditionalFlow: an instruction equal, to depth 2
	// under the same guard, to an earlier one in its block becomes a copy
	// of its result (generalopt_merge.go).
	spMerge
	numSubPasses
)

var subPassNames = [numSubPasses]string{"CopyProp", "MovWindow", "ConstantFold", "PredicateSimplify", "DeadCode", "MergeEquivalentConditionalFlow"}

// movWindow is how many recent copies MovWindow remembers per block.
const movWindow = 6

// bundle is what one GeneralOptimize slot runs.
type bundle struct {
	slot string
	subs []subPass
	// once: a single pass, no fixed-point iteration.
	once bool
}

// bundles assigns the sub-passes to the six slots, after the seeds'
// instance map (seed 001): the early instance is light, the main one adds
// predicate simplification and dead code, the middle one is the most
// complete, the second middle one canonicalizes before value numbering,
// the late one is a windowed single pass over moves, the last one cleans
// up after predication and commoning. (ConvertMemoryToRegister, which the
// seeds put in the middle instance, runs in a slot of its own before
// IntoSSA: it writes registers once per store, which SSA form forbids.)
var bundles = []bundle{
	{slot: "GeneralOptimizeEarly", subs: []subPass{spCopyProp, spMerge}},
	{slot: "GeneralOptimize", subs: []subPass{spCopyProp, spFold, spPred, spDead}},
	{slot: "GeneralOptimizeMid", subs: []subPass{spCopyProp, spFold, spPred, spDead}},
	{slot: "GeneralOptimizeMid2", subs: []subPass{spCopyProp, spFold}},
	{slot: "GeneralOptimizeLate", subs: []subPass{spMovWindow, spFold}, once: true},
	{slot: "GeneralOptimizeLate2", subs: []subPass{spCopyProp, spFold, spPred, spDead}},
}

func bundleOf(slot string) *bundle {
	for k := range bundles {
		if bundles[k].slot == slot {
			return &bundles[k]
		}
	}
	panic("phases: no GeneralOptimize bundle for slot " + slot)
}

func (b *bundle) has(s subPass) bool {
	for _, x := range b.subs {
		if x == s {
			return true
		}
	}
	return false
}

// describe lists the bundle's sub-passes for --help-phases.
func (b *bundle) describe() string {
	s := ""
	for k, x := range b.subs {
		if k > 0 {
			s += ", "
		}
		s += subPassNames[x]
	}
	if b.once {
		s += "; one pass"
	}
	return s
}

// Sub-passes named on their own. The seeds' OriCopyProp is the forward
// copy propagation inside every GeneralOptimize bundle, which ptxas's
// --named-phases resolves to that sub-pass. Here naming it runs every
// bundle that has copy propagation (CopyProp, or the late instance's
// MovWindow) with that sub-pass only; disabling it runs the bundles
// without it. Naming a bundle or the GeneralOptimize family as well runs
// those bundles whole. NewConfig resolves these names before phases and
// families.
var namedSubPasses = []struct {
	name string
	subs subMask
	help string
}{
	{"OriCopyProp", 1<<spCopyProp | 1<<spMovWindow,
		"forward copy propagation, the CopyProp (MovWindow in GeneralOptimizeLate) sub-pass of the six GeneralOptimize bundles: named, the bundles run with it alone; disabled, without it"},
	{"MergeEquivalentConditionalFlow", 1 << spMerge,
		"the seeds' phase 13 role, a sub-pass of GeneralOptimizeEarly: an instruction equal to depth 2, under the same guard, to an earlier one of its block becomes a copy of its result; named, GeneralOptimizeEarly runs it alone"},
}

// subMask is a set of sub-passes (bit s for subPass s).
type subMask uint8

// lookupSubPass returns the sub-passes a name (case-insensitive) stands
// for.
func lookupSubPass(name string) (subMask, bool) {
	for _, n := range namedSubPasses {
		if strings.EqualFold(n.name, name) {
			return n.subs, true
		}
	}
	return 0, false
}

// bundleSlots returns the pipeline indices of the GeneralOptimize slots
// whose bundle runs one of the sub-passes of m.
func bundleSlots(m subMask) []int {
	var out []int
	for i := range pipeline {
		if !slices.Contains(pipeline[i].Families, "GeneralOptimize") || pipeline[i].Name == "ConvertMemoryToRegister" {
			continue
		}
		for _, s := range bundleOf(pipeline[i].Name).subs {
			if m&(1<<s) != 0 {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// subsFor returns the sub-passes slot i runs of subs under c: those a
// named sub-pass restricts it to (all when none does), less the disabled
// ones. out is a buffer for the result.
func (c *Config) subsFor(i int, subs []subPass, out []subPass) []subPass {
	var only, off subMask
	if i < len(c.subOnly) {
		only, off = c.subOnly[i], c.subOff[i]
	}
	if only == 0 && off == 0 {
		return subs
	}
	for _, s := range subs {
		if (only == 0 || only&(1<<s) != 0) && off&(1<<s) == 0 {
			out = append(out, s)
		}
	}
	return out
}

// The six slots' pass functions: one function each, so the driver's
// settled-slot skip (by pass function) never takes one bundle for
// another.
func generalOptimizeEarly(p *Pass) bool { return runBundle(p, bundleOf("GeneralOptimizeEarly")) }
func generalOptimizeMain(p *Pass) bool  { return runBundle(p, bundleOf("GeneralOptimize")) }
func generalOptimizeMid(p *Pass) bool   { return runBundle(p, bundleOf("GeneralOptimizeMid")) }
func generalOptimizeMid2(p *Pass) bool  { return runBundle(p, bundleOf("GeneralOptimizeMid2")) }
func generalOptimizeLate(p *Pass) bool  { return runBundle(p, bundleOf("GeneralOptimizeLate")) }
func generalOptimizeLate2(p *Pass) bool { return runBundle(p, bundleOf("GeneralOptimizeLate2")) }

// slotFlags are what a GeneralOptimize slot does differently by its name
// (runBundle, runSubPasses); slots that differ in none of them and run the
// same sub-passes are one pass to the settled skip (Config.sameBundle).
type slotFlags struct {
	early   bool // GeneralOptimizeEarly: the MergeEquivalentConditionalFlow knobs
	late    bool // GeneralOptimizeLate*: LateCopyPropComplPred
	combine bool // GeneralOptimizeLate2: the combining walk
}

func slotBehaviour(name string) slotFlags {
	return slotFlags{
		early:   name == "GeneralOptimizeEarly",
		late:    strings.HasPrefix(name, "GeneralOptimizeLate"),
		combine: name == "GeneralOptimizeLate2",
	}
}

// runBundle runs bundle b on p's function (the sub-passes the
// configuration leaves it: see namedSubPasses).
func runBundle(p *Pass, b *bundle) bool {
	if slotBehaviour(b.slot).early && p.Knobs.Bool(DisableMergeEquivalentConditionalFlow) {
		return false // the seeds' option 214: phase 13 skipped whole
	}
	subs := b.subs
	if h := p.hooks(); h != nil && h.earlySubs != nil && slotBehaviour(b.slot).early {
		subs = h.earlySubs // (a test of some sub-passes on their own)
	}
	if p.Config != nil && p.Phase != nil {
		var buf [numSubPasses]subPass
		subs = p.Config.subsFor(p.Phase.Num-1, subs, buf[:0])
	}
	return runSubPasses(p, subs, b.once)
}

// runSubPasses runs the given sub-passes on p's function, repeated until
// a round changes nothing (once: one round).
func runSubPasses(p *Pass, subs []subPass, once bool) bool {
	f := p.F
	// The state lives in the worker's scratch when there is one (a
	// bundle's state is dropped when it returns; nothing keeps it). It is
	// cleared on return: its arrays are the arena's, whose chunk the
	// driver's reset may replace by a larger one, and the old chunk (tens
	// of MB on a huge function) must not stay reachable until the next
	// bundle.
	var g *genOpt
	if p.Scratch != nil && !p.Scratch.genOptBusy {
		g = &p.Scratch.genOptState
		p.Scratch.genOptBusy = true
		defer func() { *g, p.Scratch.genOptBusy = genOpt{}, false }()
	} else {
		g = new(genOpt)
	}
	*g = genOpt{
		f:            f,
		a:            p.A,
		p:            p,
		h:            p.hooks(),
		sc:           p.Scratch,
		localBudget:  p.Knobs.SizedBudget(CopyPropBudget, f.NumInstrs()-f.NumDead()),
		globalBudget: p.Knobs.SizedBudget(CopyPropGlobalBudget, f.NumInstrs()-f.NumDead()),
		ruleBudget:   p.Knobs.Budget(GeneralOptimizeRuleLimit),
		// register-operand buffers from the arena: an instruction has
		// few (one that has more grows them once)
		refs:  take[core.RegRef](p.Scratch, 32)[:0],
		refs2: take[core.RegRef](p.Scratch, 32)[:0],
		defs:  take[ir.RegID](p.Scratch, 8)[:0],
	}
	g.dirty.all = true // every walk is full unless startDirty says otherwise
	g.dirty.noPrefix = g.h != nil && g.h.prefixRewrite
	for _, s := range subs {
		g.on[s] = true
	}
	g.noImm = p.Knobs.Bool(CopyPropNoWriteNonRR)
	g.noAddr = !p.Knobs.Bool(CopyPropAddr)
	g.limitFP = p.Knobs.Bool(LimitFoldFP)
	var by slotFlags
	if p.Phase != nil {
		by = slotBehaviour(p.Phase.Name)
	}
	g.combine = by.combine
	g.complPred = p.Knobs.Bool(LateCopyPropComplPred) && by.late
	if g.on[spMovWindow] {
		g.on[spCopyProp], g.window = true, movWindow
	}
	changed := false
	rounds := maxGeneralOptimizeRounds
	if once {
		rounds = 1
	}
	if !once && g.window == 0 && !p.Knobs.Bool(GeneralOptimizeFullRounds) {
		g.startDirty()
	}
	if by.early {
		// the seeds' phase 13 iteration cap (unlimited by default)
		rounds = int(min(int64(rounds), p.Knobs.Budget(MergeEquivalentConditionalFlowBudget)))
	}
	// Rounds an earlier bundle's clean run settled (Pass.roundsSettled)
	// would end after their first, which changes nothing: they are left
	// out (the combining walk after them still runs), unless the
	// guarded-copy completion, which the earlier bundle lacks, has a
	// guarded mov to read. Check mode runs them and fails the phase if
	// they change the function.
	settledRounds := p.roundsSettled && !(g.complPred && hasGuardedMov(f))
	verifying := p.Config != nil && p.Config.Verify
	if settledRounds && !verifying {
		rounds = 0
		if g.h != nil {
			g.h.settledRounds.Add(1)
		}
		if g.localBudget > 0 && g.globalBudget > 0 && !once {
			p.FixedPoint() // as the first round, changing nothing, would say
		}
	}
	for round := 0; round < rounds; round++ {
		if round > 0 && p.Canceled() {
			break // the driver stops with the context's error
		}
		g.beginRound(round)
		n := int64(0)
		if g.on[spFold] && p.SSA() {
			if k := simplifyPhis(p); k > 0 {
				p.Count("trivial PHIs removed", int64(k))
				n += int64(k)
				// PHI simplification renames uses anywhere: not traced,
				// so this round and the next walk everything.
				g.dirty.partial, g.dirty.all, g.dirty.full = false, true, true
				g.deadLog.on = false // (nor are they logged)
				g.cfgQuiet = false
			}
		}
		if g.on[spCopyProp] || g.on[spFold] || g.on[spPred] {
			n += g.localWalk()
			if g.window == 0 {
				n += g.globalWalk()
			}
		}
		if g.on[spMerge] {
			k := g.mergeEquivalent()
			g.merged += k
			n += k
		}
		if g.on[spPred] {
			if k := g.cfgCleanup(); k > 0 {
				n += k
				g.dirty.full = true // the CFG changed: dominance is not traced
			}
		}
		if g.on[spDead] {
			n += g.deadCode()
		}
		if n == 0 {
			// A round that changed nothing: rerun, the bundle would
			// change nothing either — unless a budget cut a round short
			// (a rerun gets a fresh budget).
			if g.localBudget > 0 && g.globalBudget > 0 && !g.ruleCut && !once {
				p.FixedPoint()
			}
			break
		}
		changed = true
		g.endRound()
	}
	g.stopDirty()
	if settledRounds && changed {
		panic("GeneralOptimize: rounds settled by an earlier bundle's run without change changed the function")
	}
	if g.combine && g.on[spFold] && !p.Canceled() {
		// One more walk with the combining rules alone, once every other
		// rule settled (the reuse rules read the separate forms), then
		// dead code for the definitions they left unread.
		g.combining = true
		if g.localWalk() > 0 {
			changed = true
			if g.on[spDead] {
				g.deadCode()
			}
		}
		g.combining = false
	}
	if g.cfgEdits > 0 {
		g.reconcilePhis()
		g.a.Invalidate(PreserveAll)
	}
	if g.copies > 0 {
		p.Count("CopyProp: copies propagated", g.copies)
	}
	if g.dirty.rounds > 0 {
		p.Count(dirtyRoundsCounter, int64(g.dirty.rounds))
	}
	if g.merged > 0 {
		p.Count("MergeEquivalentConditionalFlow: equivalent chains merged", g.merged)
	}
	if g.guardedCopies > 0 {
		p.Count("CopyProp: predicated copies propagated", g.guardedCopies)
	}
	if g.selects > 0 {
		p.Count("CopyProp: selects propagated", g.selects)
	}
	if g.hits > 0 {
		// (a walk of every rule's count, which a small kernel's run
		// notices, only when one fired)
		for r, n := range g.ruleHits {
			if n > 0 {
				p.Count("rule "+ruleNames[r], n)
			}
		}
	}
	if g.ruleCut {
		p.Count("GeneralOptimizeRuleLimit reached; first rule refused: "+ruleNames[g.cutRule], 1)
	}
	return changed
}

// hasGuardedMov reports whether f holds a guarded mov (in a block).
func hasGuardedMov(f *ir.Func) bool {
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.Op[i] == ir.OpMov && f.Guard[i] != ir.NoOperand {
				return true
			}
		}
	}
	return false
}

// dirtyRoundsCounter names the counter of the rounds that began partial.
const dirtyRoundsCounter = "rounds that walked only what the last round's edits reach"

// maxGeneralOptimizeRounds bounds the fixed-point iteration; each round is
// linear, and chains of copies usually settle in two or three.
const maxGeneralOptimizeRounds = 8

// useEdit is a change of d in register r's use count.
type useEdit struct {
	r ir.RegID
	d int32
}

// walkMode says which facts the current walk knows registers by.
type walkMode uint8

const (
	walkLocal  walkMode = iota // the block-local copy and definition tables
	walkGlobal                 // single definitions and dominance
)

// genOpt is one bundle run's state: budgets, counters, reused buffers.
type genOpt struct {
	f                         *ir.Func
	a                         *Analyses
	sc                        *Scratch
	duAt                      int64 // edits when the cached def-use chains were last known current
	localBudget, globalBudget int64
	copies                    int64
	merged                    int64 // MergeEquivalentConditionalFlow
	p                         *Pass
	h                         *testHooks // p's (hooks.go): nil outside tests
	on                        [numSubPasses]bool
	window                    int // MovWindow: copies remembered per block (0: all)
	// complPred: LateCopyPropComplPred in a late bundle (guarded copies
	// under complementary predicates make a select); noImm:
	// CopyPropNoWriteNonRR; noAddr: !CopyPropAddr.
	complPred, noImm, noAddr bool
	// limitFP: limit-fold-fp, no floating-point folding (rules/float.rules).
	limitFP bool
	// combine: the combining rules (rules/combine.rules), in the last
	// bundle only, in a walk of their own after the fixed point
	// (combining: that walk is under way).
	combine, combining     bool
	guardedCopies, selects int64 // uses rewritten through guarded facts
	ring                   [movWindow]ir.RegID
	ringStep               [movWindow]uint32
	ringAt                 int
	cfg                    cfgState
	cfgLive                bool // the branch-target counts are kept (cfgCleanup)
	// cfgQuiet: the last cleanup changed nothing, at cfgEdits == cfgAt
	// (cfgSettled)
	cfgQuiet bool
	cfgAt    int64
	removed  int64
	phiBuf   []ir.Operand

	// Rules: the debug counter, per-rule counts, the first rule refused.
	ruleBudget int64
	ruleHits   [numRules]int64
	hits       int64 // the sum of ruleHits
	ruleCut    bool
	cutRule    ruleID
	rewrites   int64 // rule applications
	cfgEdits   int64 // branches and terminators removed or unguarded

	mode walkMode
	cur  ir.InstrID // the instruction the walk is at
	// visit counts the walks' steps (a new g.cur); src keeps the
	// sources of the visit memoVisit in memo (memoOK: which).
	visit, memoVisit  uint64
	memo              [4]val
	memoOK            uint8
	shapeOK, shapeRes bool // shape's answer for shapeN sources, this visit
	shapeN            int

	// What findReuse found for reuse (rules/reuse.rules): the instruction
	// whose result the rewrite adds the constant to.
	reuseE ir.InstrID
	reuseC uint64
	// What minMaxOf found (generalopt_select.go): the min/max type.
	mmType ir.Type

	refs, refs2 []core.RegRef
	defs        []ir.RegID
	// Dirty rounds (generalopt_dirty.go).
	dirty    dirtyState
	duMerged int64 // merges when the def-use chains were last known current
	// duEdits: the uses global copy propagation moved since this
	// round's global walk computed g.du (nil: the chains are not known to
	// be this round's, or other edits followed); merging counts from them.
	duEdits []useEdit
	// Local tables: per register (loc) its definitions seen so far
	// (ver), the last unguarded definition (ldef), when it was last
	// written (last, in walk steps) and the copy (or constant) it holds:
	// the fact ent[ei], valid when loc's ent stamp is this block's.
	// Entries of other blocks are stale (stamp). Everything the walk
	// reads for every register it meets is in loc, one compact entry
	// (on a function with a million registers the tables outgrow the
	// cache, and each table read per register was a miss); the facts
	// are the block's only, recorded in order (ent, emptied at each
	// block): a table of them by register was 64 bytes a register to
	// clear per bundle run, and its reads misses.
	ent   []copyEnt
	loc   []regLocal
	stamp uint32
	step  uint32
	// Global walk.
	du    *core.DefUse
	duLog duLogState // the edits since du was last current (generalopt_du.go)
	// deadLog: the edits since the last dead-code sweep that found
	// nothing more dead (generalopt_dead.go)
	deadLog  deadLogState
	deadUses []int32 // dead code's read counts
	// deadUsesKept: deadUses holds the reads (and returns) as they were
	// when the dead-code log last began
	deadUsesKept bool
	dom          *core.DomTree
	pos          []int32 // instruction's position in its block
	opaque       []bool  // registers an opaque instruction names
	// walkedLayout: pos and opaque were computed by an earlier global
	// walk of this run (a partial round may keep them).
	walkedLayout bool
	// posCfg: g.cfgEdits when pos was computed (a CFG edit since may
	// have moved instructions between blocks).
	posCfg int64
}

type copyEnt struct {
	src ir.Operand // a register, or an immediate (k)
	ver uint32
	k   bool   // a constant of known bits
	c   uint64 // its bits
	at  uint32 // the walk step that recorded it
	// pred: a fact that holds only where a predicate is known
	// (guardedFact; otherwise the entry holds in every lane): guard is
	// the predicate register, gver its version when recorded. A
	// predicated copy holds under one polarity (neg: "@!%p"); a select
	// (sel) gives src where the predicate is true and src2, with ver2,
	// k2, c2, where it is false.
	pred     bool
	guard    ir.RegID
	gver     uint32
	neg, sel bool
	src2     ir.Operand
	ver2     uint32
	k2       bool
	c2       uint64
}

// regLocal is a register's entry in the local walk's tables.
type regLocal struct {
	ver  uint32 // definitions walked so far
	last uint32 // the walk step of the last definition
	// ent: the stamp of the register's fact ent[ei] (valid when it is
	// the block's); ldef: the stamp of its last unguarded definition
	// ldefInstr, walked at step ldefStep.
	ent, ldef uint32
	ei        uint32
	ldefStep  uint32
	ldefInstr ir.InstrID
}

// noRewrite: instructions whose operands are left exactly as written.
const noRewrite = ir.PVolatile | ir.PConvergent | ir.PCarry | ir.PCall | ir.PAsync | ir.POpaque | ir.PPseudo

// copySource returns the source word of instruction i when i is a copy the
// bundle may propagate: an unguarded plain mov whose destination and
// register source are ordinary scalar registers of interchangeable types,
// or whose immediate source reads as a constant of the mov's type as wide
// as the destination (k: its bits in c).
func (g *genOpt) copySource(i ir.InstrID) (dst ir.RegID, src ir.Operand, c uint64, k, ok bool) {
	f := g.f
	if f.Op[i] != ir.OpMov || f.Guard[i] != ir.NoOperand || !f.InstrProps(i).Has(ir.PCopy) {
		return ir.NoReg, ir.NoOperand, 0, false, false
	}
	ops := f.Ops(i)
	d := ops[0].Reg()
	if ops[0].Flags() != 0 || !g.plainReg(d) {
		return ir.NoReg, ir.NoOperand, 0, false, false
	}
	s := ops[1]
	switch s.Kind() {
	case ir.KReg:
		r := s.Reg()
		if r == d || s.Flags() != 0 || !g.plainReg(r) || !regsInterchangeable(f.RegType[d], f.RegType[r]) {
			return ir.NoReg, ir.NoOperand, 0, false, false
		}
	case ir.KImm:
		t := f.Type[i]
		if t.Bits() != f.RegType[d].Bits() {
			return ir.NoReg, ir.NoOperand, 0, false, false
		}
		v, ok := immAs(f, s, movValueType(t, f.RegType[d]))
		if !ok {
			return ir.NoReg, ir.NoOperand, 0, false, false
		}
		return d, s.AsUse(), v, true, true
	default:
		return ir.NoReg, ir.NoOperand, 0, false, false
	}
	return d, s.AsUse(), 0, false, true
}

// copyFact returns the fact instruction i makes known about its
// destination d for the local table (the walk has already forgotten what
// d held: prev is that entry):
//
//   - an unguarded copy (copySource): d holds the source in every lane;
//   - the same copy guarded, "@%p mov d, s" (or "@!%p"): d holds s in the
//     lanes where the guard is true, so a later instruction under the
//     same guard (the same %p, unchanged, the same polarity) may read s;
//     the other lanes keep what they had, which nothing claims;
//   - "selp.t d, a, b, %p", unguarded: d holds a where %p is true and b
//     where it is false, so an instruction guarded by %p reads a and one
//     guarded by !%p reads b;
//   - with LateCopyPropComplPred in the late bundles: a guarded copy of b
//     into d that held x in every lane (an unguarded copy), or x under the
//     complementary guard (the same %p, unchanged, the other polarity),
//     is a select: the lanes the copy writes hold b, every other lane
//     still holds x.
//
// Sources are registers of interchangeable types or integer constants of
// the destination's width, as for copySource; a source register is
// never d itself (its value there is the one d's write replaces).
func (g *genOpt) copyFact(i ir.InstrID, prev *copyEnt, prevOK bool) (ir.RegID, copyEnt, bool) {
	f := g.f
	gd := f.Guard[i]
	if gd == ir.NoOperand {
		if d, src, c, k, ok := g.copySource(i); ok {
			return d, g.fact(src, c, k), true
		}
		return g.selpFact(i)
	}
	if f.Op[i] != ir.OpMov || !gd.IsReg() || gd.Flags()&^ir.FlagNot != 0 || !f.InstrProps(i).Has(ir.PCopy) {
		return ir.NoReg, copyEnt{}, false
	}
	ops := f.Ops(i)
	d := ops[0].Reg()
	if ops[0].Flags() != 0 || !g.plainReg(d) {
		return ir.NoReg, copyEnt{}, false
	}
	src, c, k, ok := g.valueSource(d, ops[1], f.Type[i])
	if !ok {
		return ir.NoReg, copyEnt{}, false
	}
	p, neg := gd.Reg(), gd.Has(ir.FlagNot)
	e := g.fact(src, c, k)
	e.pred, e.guard, e.gver, e.neg = true, p, g.loc[p].ver, neg
	if g.complPred && prevOK && g.factHolds(prev) &&
		(!prev.pred || !prev.sel && prev.guard == p && prev.gver == g.loc[p].ver && prev.neg != neg) {
		// the lanes the guard leaves hold prev's source
		x := *prev
		t, fl := e, x // true side: this copy; false side: the earlier value
		if neg {
			t, fl = x, e
		}
		e = t
		e.pred, e.sel, e.guard, e.gver, e.neg, e.at = true, true, p, g.loc[p].ver, false, g.step
		e.src2, e.ver2, e.k2, e.c2 = fl.src, fl.ver, fl.k, fl.c
	}
	return d, e, true
}

// selpFact: the select fact of an unguarded "selp.t d, a, b, %p".
func (g *genOpt) selpFact(i ir.InstrID) (ir.RegID, copyEnt, bool) {
	f := g.f
	if f.Op[i] != ir.OpSelp || f.InstrProps(i)&noRewrite != 0 {
		return ir.NoReg, copyEnt{}, false
	}
	ops := f.Ops(i)
	if len(ops) != 4 || ops[0].Kind() != ir.KReg || ops[0].Flags() != 0 || ops[3].Kind() != ir.KReg || ops[3].Flags() != 0 {
		return ir.NoReg, copyEnt{}, false
	}
	d := ops[0].Reg()
	if !g.plainReg(d) {
		return ir.NoReg, copyEnt{}, false
	}
	a, ca, ka, ok1 := g.valueSource(d, ops[1], f.Type[i])
	b, cb, kb, ok2 := g.valueSource(d, ops[2], f.Type[i])
	if !ok1 || !ok2 {
		return ir.NoReg, copyEnt{}, false
	}
	p := ops[3].Reg()
	e := g.fact(a, ca, ka)
	e.pred, e.sel, e.guard, e.gver = true, true, p, g.loc[p].ver
	e.src2, e.k2, e.c2 = b, kb, cb
	if b.Kind() == ir.KReg {
		e.ver2 = g.loc[b.Reg()].ver
	}
	return d, e, true
}

// valueSource checks a copy or select source o for destination d in an
// instruction of type t: a plain register other than d of an
// interchangeable type, or an immediate read as a constant of t as wide
// as d (k, its bits c).
func (g *genOpt) valueSource(d ir.RegID, o ir.Operand, t ir.Type) (src ir.Operand, c uint64, k, ok bool) {
	f := g.f
	switch o.Kind() {
	case ir.KReg:
		r := o.Reg()
		if r == d || o.Flags() != 0 || !g.plainReg(r) || !regsInterchangeable(f.RegType[d], f.RegType[r]) {
			return ir.NoOperand, 0, false, false
		}
		return o.AsUse(), 0, false, true
	case ir.KImm:
		if t.Bits() != f.RegType[d].Bits() {
			return ir.NoOperand, 0, false, false
		}
		v, ok := immAs(f, o, movValueType(t, f.RegType[d]))
		if !ok {
			return ir.NoOperand, 0, false, false
		}
		return o.AsUse(), v, true, true
	}
	return ir.NoOperand, 0, false, false
}

// fact is the table entry of a value src (a register's version is the
// current one).
func (g *genOpt) fact(src ir.Operand, c uint64, k bool) copyEnt {
	e := copyEnt{src: src, k: k, c: c, at: g.step}
	if src.Kind() == ir.KReg {
		e.ver = g.loc[src.Reg()].ver
	}
	return e
}

// factHolds: the registers entry e names still hold what they held when
// it was recorded.
func (g *genOpt) factHolds(e *copyEnt) bool {
	if e.src.Kind() == ir.KReg && g.loc[e.src.Reg()].ver != e.ver {
		return false
	}
	if e.sel && e.src2.Kind() == ir.KReg && g.loc[e.src2.Reg()].ver != e.ver2 {
		return false
	}
	return !e.pred || g.loc[e.guard].ver == e.gver
}

// guardedFact reports whether the predicate fact e applies at instruction
// i: i is guarded by e's predicate register, unchanged since e was
// recorded (for a predicated copy, with e's polarity). second: i runs
// only where the predicate is false, so a select gives its second source.
func (g *genOpt) guardedFact(e *copyEnt, i ir.InstrID) (second, ok bool) {
	gd := g.f.Guard[i]
	if gd == ir.NoOperand || !gd.IsReg() || gd.Flags()&^ir.FlagNot != 0 || gd.Reg() != e.guard || g.loc[e.guard].ver != e.gver {
		return false, false
	}
	neg := gd.Has(ir.FlagNot)
	if e.sel {
		return neg, true
	}
	return false, neg == e.neg
}

// inAddr reports whether the register use at l of instruction i is inside
// an address operand (CopyPropAddr off keeps those as written).
func (g *genOpt) inAddr(i ir.InstrID, l core.Loc) bool {
	if !l.InList() {
		return false
	}
	k := core.OperandIndex(g.f, i, l)
	return k >= 0 && g.f.Ops(i)[k].Kind() == ir.KAddr
}

// movValueType is the type a mov's immediate is read as: the mov's type,
// or for a .b mov into a float register the register's float type (mov.b32
// %f1, 0f3F800000 is 1.0).
func movValueType(t, reg ir.Type) ir.Type {
	if isBitType(t) && reg.IsFloat() && reg.Bits() == t.Bits() {
		return reg
	}
	return t
}

// plainReg: an ordinary scalar register (not a .reg parameter, not a
// vector register).
func (g *genOpt) plainReg(r ir.RegID) bool {
	return g.f.RegVec[r] == 0 && g.f.RegParam(r) == ir.NoSym
}

// regsInterchangeable reports whether a register of type s may stand
// wherever a register of type d stood: the same type; or one width with
// s a bit type (allowed with any type of its size); or two integer types.
func regsInterchangeable(d, s ir.Type) bool {
	if d == s {
		return true
	}
	if d == ir.TPred || s == ir.TPred || d.Bits() != s.Bits() || d.Bits() == 0 {
		return false
	}
	return isBitType(s) || (isIntType(d) && isIntType(s))
}

func isBitType(t ir.Type) bool { return t >= ir.TB8 && t <= ir.TB64 }

// isIntType: .b, .u, .s of 8 to 64 bits.
func isIntType(t ir.Type) bool { return t >= ir.TB8 && t <= ir.TS64 && t != ir.TB128 }

// intImm reports whether o is an integer immediate (not a float literal)
// with no flag other than a minus sign.
func intImm(f *ir.Func, o ir.Operand) bool {
	return o.Kind() == ir.KImm && !f.Imms[o.Index()].Kind.IsFloat() && o.Flags()&^ir.FlagNeg == 0
}

// immAllowed reports whether the register use at l of instruction i (a
// use of register r) may be replaced by an integer immediate: see the
// whitelist in the file comment.
func (g *genOpt) immAllowed(i ir.InstrID, l core.Loc, r ir.RegID) bool {
	f := g.f
	if l.IsGuard() || l.InList() || core.OperandAt(f, i, l).Flags() != 0 {
		return false
	}
	t := f.Type[i]
	if !isIntType(t) || t.Bits() < 16 {
		return false
	}
	ops := f.Ops(i)
	k := core.OperandIndex(f, i, l)
	w := f.RegType[r].Bits()
	switch f.Op[i] {
	case ir.OpMov:
		return len(ops) == 2 && k == 1 && ops[0].Kind() == ir.KReg && w == t.Bits()
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpMin, ir.OpMax, ir.OpSetp:
		return len(ops) == 3 && k == 2 && w == t.Bits()
	case ir.OpShl, ir.OpShr:
		return len(ops) == 3 && k == 2 && w == 32
	}
	return false
}

// known returns the constant register r holds at the walk's instruction.
func (g *genOpt) known(r ir.RegID) (uint64, bool) {
	if g.mode == walkLocal {
		if g.loc[r].ent != g.stamp {
			return 0, false
		}
		e := g.ent[g.loc[r].ei]
		if e.pred {
			second, ok := g.guardedFact(&e, g.cur)
			if !ok {
				return 0, false
			}
			if second {
				return e.c2, e.k2
			}
		}
		if !e.k {
			return 0, false
		}
		return e.c, true
	}
	// The definition's opcode first: most are not constant movs, and on
	// a large function each of before's reads (the definition's block
	// and position) is a cache miss of its own. (Both checks only read,
	// so the order does not change the answer.)
	c, ok := g.single(r)
	if !ok || g.f.Op[c] != ir.OpMov {
		return 0, false
	}
	if _, _, v, k, ok := g.copySource(c); ok && k && g.before(c, g.cur) {
		return v, true
	}
	return 0, false
}

// defOf returns the instruction whose result register r holds at the
// walk's instruction, when that instruction is unguarded and its register
// sources still hold the values it read: a rule may then look through r.
func (g *genOpt) defOf(r ir.RegID) (ir.InstrID, bool) {
	f := g.f
	if g.mode == walkLocal {
		l := &g.loc[r]
		if l.ldef != g.stamp {
			return ir.NoInstr, false
		}
		g.refs2 = core.AppendRegRefs(f, l.ldefInstr, g.refs2[:0])
		for _, x := range g.refs2 {
			if !x.Def && g.loc[x.Reg].last >= l.ldefStep {
				return ir.NoInstr, false
			}
		}
		return l.ldefInstr, true
	}
	d, ok := g.single(r)
	if !ok || f.Guard[d] != ir.NoOperand || !g.before(d, g.cur) {
		return ir.NoInstr, false
	}
	g.refs2 = core.AppendRegRefs(f, d, g.refs2[:0])
	for _, x := range g.refs2 {
		if x.Def {
			if x.Reg != r {
				return ir.NoInstr, false // one result only
			}
			continue
		}
		if g.opaque[x.Reg] {
			return ir.NoInstr, false
		}
		defs := g.du.Defs(x.Reg)
		if len(defs) == 0 {
			continue // never written: the same value everywhere
		}
		if len(defs) != 1 || !g.before(defs[0].Instr, d) {
			return ir.NoInstr, false
		}
	}
	return d, true
}

// localWalk runs block-local copy propagation and the rules over every
// block.
func (g *genOpt) localWalk() int64 {
	f := g.f
	if len(g.loc) < f.NumRegs() {
		g.loc = take[regLocal](g.sc, f.NumRegs())
		g.ent = g.sc.genOpt.ent[:0]
		g.stamp, g.step = 0, 0
	}
	defer func() { g.sc.genOpt.ent = g.ent[:0] }() // kept grown for the next run
	g.mode = walkLocal
	n, rw0, skipped := int64(0), g.rewrites, int64(0)
	for _, b := range f.Layout {
		if !g.blockMarked(b) {
			continue // unchanged since its last walk (generalopt_dirty.go)
		}
		g.stamp++
		g.ent = g.ent[:0]       // the facts of another block
		same := g.dirty.partial // the block's instructions so far unedited since its last walk
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			g.step++
			g.cur, g.visit = i, g.visit+1
			if same && g.dirty.prefixUnchanged(b, i) {
				// the last walk left it as it is (generalopt_dirty.go):
				// only the facts below
				skipped++
				if g.h != nil && g.h.prefixCheck {
					g.checkPrefix(i)
				}
			} else {
				same = false
				if g.on[spCopyProp] {
					n += g.substitute(i)
				}
				if g.applyRules(i) {
					i = next
					continue // deleted
				}
			}
			// what a guarded copy's destination held (a complementary
			// copy may complete it into a select)
			var prev copyEnt
			prevOK := false
			if f.Guard[i] != ir.NoOperand && f.OpCount[i] > 0 && f.Ops(i)[0].Kind() == ir.KReg {
				if r := f.Ops(i)[0].Reg(); g.loc[r].ent == g.stamp {
					prev, prevOK = g.ent[g.loc[r].ei], true
				}
			}
			g.defs = core.AppendRegDefs(f, i, g.defs[:0])
			for _, r := range g.defs {
				l := &g.loc[r]
				l.ver++
				l.ent, l.ldef, l.last = 0, 0, g.step
			}
			if f.InstrProps(i).Has(ir.POpaque) {
				// It may write more than the operands marked as
				// definitions: forget every copy of the block so far.
				g.stamp++
				g.ent = g.ent[:0]
			}
			d, e, ok := g.copyFact(i, &prev, prevOK)
			if ok {
				g.loc[d].ent, g.loc[d].ei = g.stamp, uint32(len(g.ent))
				g.ent = append(g.ent, e)
				if g.window > 0 {
					// Forget the oldest of the window's copies (when its
					// fact is still the register's).
					if old := g.ring[g.ringAt]; g.ringStep[g.ringAt] != 0 && g.loc[old].ent == g.stamp && g.ent[g.loc[old].ei].at == g.ringStep[g.ringAt] {
						g.loc[old].ent = 0
					}
					g.ring[g.ringAt], g.ringStep[g.ringAt] = d, g.step
					g.ringAt = (g.ringAt + 1) % g.window
				}
			}
			if f.Guard[i] == ir.NoOperand && f.InstrProps(i)&(ir.PSideEffect|noRewrite) == 0 {
				if ops := f.Ops(i); len(ops) > 0 && ops[0].Kind() == ir.KReg && ops[0].IsDef() {
					l := &g.loc[ops[0].Reg()]
					l.ldef, l.ldefStep, l.ldefInstr = g.stamp, g.step, i
				}
			}
			i = next
		}
	}
	if skipped > 0 && g.h != nil {
		g.h.prefixSkipped.Add(skipped)
	}
	g.copies += n
	return n + g.rewrites - rw0
}

// applyRules applies the enabled rule groups to instruction i until none
// matches (at most a few times) and reports whether i was deleted.
func (g *genOpt) applyRules(i ir.InstrID) bool {
	f := g.f
	if f.InstrProps(i)&ir.PPseudo != 0 {
		return false
	}
	if g.combining {
		// the last bundle's final walk: the combining rules alone
		return g.rulesCombine(i) && f.IsDead(i)
	}
	for range 4 {
		fired := g.on[spFold] && g.rulesFold(i)
		if !fired && g.on[spPred] {
			fired = g.rulesPred(i)
		}

		if !fired {
			return false
		}
		if f.IsDead(i) {
			return true
		}
	}
	return false
}

// substitute rewrites the register uses of instruction i that the local
// copy table knows a source for, and returns how many it rewrote.
func (g *genOpt) substitute(i ir.InstrID) int64 {
	f := g.f
	if f.InstrProps(i)&noRewrite != 0 || g.localBudget <= 0 || len(g.ent) == 0 {
		// (No copy fact in the block so far: no register has one to
		// substitute, and the operands need not be listed.)
		return 0
	}
	n := int64(0)
	g.refs = core.AppendRegRefs(f, i, g.refs[:0])
	for _, x := range g.refs {
		if x.Def || g.localBudget <= 0 {
			continue
		}
		if g.loc[x.Reg].ent != g.stamp || x.Loc.IsGuard() || (g.noAddr && g.inAddr(i, x.Loc)) {
			continue
		}
		e := g.ent[g.loc[x.Reg].ei]
		src, ver := e.src, e.ver
		if e.pred {
			second, ok := g.guardedFact(&e, i)
			if !ok {
				continue
			}
			if second {
				src, ver = e.src2, e.ver2
			}
		}
		if src.Kind() == ir.KReg {
			if g.loc[src.Reg()].ver != ver {
				continue
			}
			g.touch(i)
			o := core.OperandAt(f, i, x.Loc)
			core.SetOperandAt(f, i, x.Loc, o.WithIndex(uint32(src.Reg())))
		} else {
			if g.noImm || !intImm(f, src) || !g.immAllowed(i, x.Loc, x.Reg) {
				continue
			}
			g.touch(i)
			core.SetOperandAt(f, i, x.Loc, src)
		}
		switch {
		case e.sel:
			g.selects++
		case e.pred:
			g.guardedCopies++
		}
		g.localBudget--
		n++
	}
	// (The cached properties stay right: a plain register replaced by a
	// plain register of its width, or by an integer immediate in a
	// whitelisted source, changes none of them.)
	return n
}

// single returns the only definition of r, when it has exactly one and
// no opaque instruction names r.
func (g *genOpt) single(r ir.RegID) (ir.InstrID, bool) {
	defs := g.du.Defs(r)
	if len(defs) != 1 || g.opaque[r] {
		return ir.NoInstr, false
	}
	return defs[0].Instr, true
}

// before reports whether instruction a dominates instruction b and is not
// b (both placed).
func (g *genOpt) before(a, b ir.InstrID) bool {
	f := g.f
	ba, bb := f.Block[a], f.Block[b]
	if ba == ir.NoBlock || bb == ir.NoBlock {
		return false
	}
	if ba == bb {
		return g.pos[a] < g.pos[b] && g.dom.Contains(ba)
	}
	return g.dom.Dominates(ba, bb)
}

// globalWalk propagates single-definition copies across blocks (see the
// file comment for why it is exact) and applies the rules with what
// single definitions make known.
func (g *genOpt) globalWalk() int64 {
	f := g.f
	g.duEdits = nil
	if len(f.Layout) < 2 && !g.on[spFold] {
		// One block: the local walk knew everything copy propagation
		// can use; only rules that look for other uses of a value
		// (rules/reuse.rules) need the def-use chains of this walk.
		return 0
	}
	g.currentDefUse()
	if !f.CFGValid() {
		f.ComputeCFG()
	}
	g.followAll()
	// (the rules' walk below edits more than uses: counts from the
	// chains hold only without it)
	g.duEdits = nil
	if !g.on[spFold] && !g.on[spPred] {
		g.duEdits = g.sc.genOpt.edits[:0]
		if g.duEdits == nil {
			g.duEdits = make([]useEdit, 0, 64)
		}
	}
	g.dom = g.a.Dom()
	g.mode = walkGlobal
	// A partial round follows rounds that only rewrote operands and
	// removed instructions (a CFG edit, PHI simplification or a new
	// instruction makes the next round a full one): the positions kept
	// from an earlier walk still order each block's instructions, and
	// the opaque registers are those of the last count unless an edit
	// named an opaque instruction. Only a full round walks the function
	// for them.
	keep := g.dirty.on && g.dirty.partial && g.walkedLayout &&
		len(g.pos) == f.NumInstrs() && len(g.opaque) == f.NumRegs()
	if !keep {
		if cap(g.pos) < f.NumInstrs() {
			g.pos = take[int32](g.sc, f.NumInstrs())
		}
		g.pos = g.pos[:f.NumInstrs()]
		for _, b := range f.Layout {
			k := int32(0)
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				g.pos[i] = k
				k++
			}
		}
	}
	// An opaque instruction may write operands not marked as definitions:
	// a register it names has no known set of definitions.
	if !keep || g.dirty.opaqueEdited(f) {
		if cap(g.opaque) < f.NumRegs() {
			g.opaque = take[bool](g.sc, f.NumRegs())
		}
		g.opaque = g.opaque[:f.NumRegs()]
		clear(g.opaque)
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if f.InstrProps(i).Has(ir.POpaque) {
					g.refs = core.AppendRegRefs(f, i, g.refs[:0])
					for _, x := range g.refs {
						g.opaque[x.Reg] = true
					}
				}
			}
		}
	}
	g.walkedLayout, g.dirty.opaqueTouched = true, false
	if !keep {
		g.posCfg = g.cfgEdits
	}
	n := int64(0)
	if g.on[spCopyProp] {
		n = g.globalCopyProp()
	}
	rw0 := g.rewrites
	if g.on[spFold] || g.on[spPred] {
		for _, b := range f.Layout {
			if !g.blockMarked(b) {
				continue
			}
			for i := f.BlockFirst[b]; i != ir.NoInstr; {
				next := f.Next[i]
				if !g.instrMarked(i) {
					i = next
					continue // out of reach of every edit (generalopt_dirty.go)
				}
				g.cur, g.visit = i, g.visit+1
				g.applyRules(i)
				g.flush()
				i = next
			}
		}
	}
	return n + g.rewrites - rw0
}

// globalCopyProp rewrites the uses of single-definition copies.
func (g *genOpt) globalCopyProp() int64 {
	f := g.f
	n := int64(0)
	var ux unpackIndex // repeated unpacks (generalopt_unpack.go)
	r := 0
	if dt := &g.dirty; !dt.all {
		// A partial round: the marked registers in register order, as
		// the loop below meets them; a register marked by an edit made
		// here is taken in turn when it comes later (the loop would meet
		// it), not when it comes earlier (the loop passed it).
		h, next, last := dt.regHeap[:0], 0, -1
		for g.globalBudget > 0 {
			g.flush() // the rewrites so far reach further registers
			if dt.all {
				r = last + 1 // the region grew too large: the rest by the loop
				break
			}
			for ; next < len(dt.marked); next++ {
				h = heapPush(h, dt.marked[next], lowerReg)
			}
			if len(h) == 0 {
				r = f.NumRegs()
				break
			}
			var d ir.RegID
			d, h = heapPop(h, lowerReg)
			if int(d) <= last {
				continue
			}
			last = int(d)
			n += g.copyPropReg(d, &ux)
		}
		dt.regHeap = h
		if g.globalBudget <= 0 {
			r = f.NumRegs()
		}
	}
	for ; r < f.NumRegs(); r++ {
		if g.globalBudget <= 0 {
			break
		}
		d := ir.RegID(r)
		g.flush() // the rewrites so far reach further registers
		if !g.regMarked(d) {
			continue // out of reach of every edit (generalopt_dirty.go)
		}
		n += g.copyPropReg(d, &ux)
	}
	g.copies += n
	return n
}

// copyPropReg rewrites the uses of register d when its single definition
// is a copy (globalCopyProp's step for one register).
func (g *genOpt) copyPropReg(d ir.RegID, ux *unpackIndex) int64 {
	f := g.f
	du := g.du
	n := int64(0)
	c, ok := g.single(d)
	if !ok || len(du.Uses(d)) == 0 {
		return 0
	}
	dst, src, _, _, ok := g.copySource(c)
	fromUnpack := false
	if !ok {
		dst = d
		src, ok = g.unpackCopy(ux, c, d)
		fromUnpack = ok
	}
	if !ok || dst != d {
		return 0
	}
	if src.Kind() == ir.KReg {
		if sd, ok := g.single(src.Reg()); !ok || !g.before(sd, c) {
			return 0
		}
	} else if !intImm(f, src) {
		return 0
	}
	// A register source takes over every use of the copy or none: a
	// use left on the copy (a PHI operand, a use it does not
	// dominate, a budget spent half way) keeps the copy's value live
	// beside the source's, which now lives longer too: one more
	// register for nothing. (A constant source is propagated
	// wherever it may be: it needs no register, and folding feeds
	// on it.)
	if src.Kind() == ir.KReg && !g.allUsesRewritable(c, d) {
		return 0
	}
	for _, u := range du.Uses(d) {
		if g.globalBudget <= 0 {
			break
		}
		i := u.Instr
		if f.IsDead(i) || f.Block[i] == ir.NoBlock || !g.before(c, i) || f.InstrProps(i)&noRewrite != 0 {
			continue
		}
		o := core.OperandAt(f, i, u.Loc)
		if !o.IsReg() || o.Reg() != d || o.IsDef() {
			continue // already rewritten this round
		}
		if g.noAddr && g.inAddr(i, u.Loc) {
			continue
		}
		if src.Kind() == ir.KReg {
			g.touch(i)
			core.SetOperandAt(f, i, u.Loc, o.WithIndex(uint32(src.Reg())))
			g.moveUse(d, src.Reg())
		} else {
			if g.noImm || !g.immAllowed(i, u.Loc, d) {
				continue
			}
			g.touch(i)
			core.SetOperandAt(f, i, u.Loc, src)
			g.moveUse(d, ir.NoReg)
		}
		g.globalBudget--
		n++
		if fromUnpack {
			g.p.Count("CopyProp: repeated unpack elements propagated", 1)
			fromUnpack = false // counted once per element
		}
	}
	return n
}

// moveUse records that a use of register from became a use of to (NoReg:
// of an immediate), for the counts of mergeEquivalent.
func (g *genOpt) moveUse(from, to ir.RegID) {
	if g.duEdits == nil {
		return
	}
	g.duEdits = append(g.duEdits, useEdit{from, -1})
	if to != ir.NoReg {
		g.duEdits = append(g.duEdits, useEdit{to, 1})
	}
	g.sc.genOpt.edits = g.duEdits // kept grown for the next run
}

// allUsesRewritable reports whether globalCopyProp would rewrite every
// use of d, the result of copy c, with a register source, within the
// budget left.
func (g *genOpt) allUsesRewritable(c ir.InstrID, d ir.RegID) bool {
	f := g.f
	uses := g.du.Uses(d)
	if int64(len(uses)) > g.globalBudget {
		return false
	}
	for _, u := range uses {
		i := u.Instr
		if f.IsDead(i) || f.Block[i] == ir.NoBlock {
			continue
		}
		if !g.before(c, i) || f.InstrProps(i)&noRewrite != 0 || (g.noAddr && g.inAddr(i, u.Loc)) {
			return false
		}
	}
	return true
}

func signExtend(v uint64, w int) int64 {
	s := uint(64 - w)
	return int64(v<<s) >> s
}

// deadCode removes instructions without effects whose results nothing
// reads: pure instructions (not PHIs, not opaque, no side effect, no
// memory) all of whose destinations are registers without a use, that
// are not return registers. Removing one may leave its sources unread:
// the sweep runs backwards and repeats while it removes.
func (g *genOpt) deadCode() int64 {
	f := g.f
	// (one table a run, whatever the rounds: every path below writes
	// each entry before reading it)
	if len(g.deadUses) != f.NumRegs() {
		g.deadUses = takeRaw[int32](g.sc, f.NumRegs())
	}
	uses := g.deadUses
	edits := g.copies + g.rewrites + g.cfgEdits + g.removed
	stale := edits != g.duAt || g.merged != g.duMerged
	cand, rows, kept := false, false, false
	// The definition rows the sweeps read: current, or logged ones that
	// still list every definition (the next round's walk brings them up
	// to date for this sweep's removals as well; generalopt_du.go).
	defsOK := g.du != nil && (g.h == nil || !g.h.deadRefreshFirst) && (!stale || g.duDefsHold())
	if defsOK && g.deadUsesKept && g.deadCandidates() {
		// the last sweep's counts, moved by the edits since
		// (generalopt_dead.go)
		g.deadKeptUses(uses)
		cand, rows, kept = true, true, true
	} else if defsOK && stale {
		g.deadUseCounts(uses)
		cand = g.deadCandidates()
		rows = true
	} else if g.du != nil && stale && g.duRefresh() {
		g.duAt, g.duMerged = edits, g.merged
	}
	g.deadUsesKept = false
	if rows {
		// counted above
	} else if edits == g.duAt && g.merged == g.duMerged && g.du != nil {
		// the chains are current: their rows' lengths
		for r := range uses {
			uses[r] = int32(len(g.du.Uses(ir.RegID(r))))
		}
		cand = g.deadCandidates()
		rows = true
	} else {
		// Stale: count the reads in one walk (what the chains would
		// count: instructions linked into blocks) instead of building
		// rows nothing else reads before the next edit. The cached
		// chains go (whoever asks next rebuilds them).
		g.a.Invalidate(instrAnalyses)
		g.duLog.on = false
		g.duAt, g.duMerged = edits, g.merged
		clear(uses)
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				g.refs = core.AppendRegRefs(f, i, g.refs[:0])
				for _, x := range g.refs {
					if !x.Def {
						uses[x.Reg]++
					}
				}
			}
		}
	}
	if !kept {
		for _, r := range f.ReturnRegs(nil) {
			uses[r]++ // live when the function returns
		}
	}
	var n int64
	converged := false
	if cand {
		// only what the edits since the last sweep reach
		// (generalopt_dead.go)
		n, converged = g.sweepCandidates(uses)
	} else if rows && (g.h == nil || !g.h.deadFullSweeps) && g.sc != nil && g.walkedLayout && len(g.pos) == f.NumInstrs() &&
		g.posCfg == g.cfgEdits && g.du.NumRegs() == f.NumRegs() {
		// the chains order the passes after the first (generalopt_dead.go)
		n, converged = g.firstPassThenCandidates(uses)
	} else {
		for range 4 {
			m := g.deadPass(uses, nil)
			n += m
			if m == 0 {
				converged = true
				break
			}
		}
	}
	if converged {
		g.deadLogStart()
		// uses holds the reads as they are (the log starts now)
		g.deadUsesKept = g.sc != nil
	} else {
		g.deadLog.on = false
	}
	if n > 0 {
		g.removed += n
		g.count("DeadCode: instructions removed", n)
	}
	return n
}

// currentDefUse sets g.du to def-use chains of the function as it is:
// edits since the cached chains were computed (rewrites, rules, CFG
// edits, removals, merges) make them stale.
func (g *genOpt) currentDefUse() {
	if edits := g.copies + g.rewrites + g.cfgEdits + g.removed; edits != g.duAt || g.merged != g.duMerged {
		if !g.duRefresh() {
			g.a.Invalidate(instrAnalyses)
		}
		g.duAt, g.duMerged = edits, g.merged
	}
	fresh := g.du != g.a.du || g.a.Valid()&ADefUse == 0
	g.du = g.a.DefUse()
	if fresh || !g.duLog.on {
		g.duStart()
	}
}

// deadInstr reports whether instruction i computes only registers
// nothing reads, and does nothing else.
func (g *genOpt) deadInstr(i ir.InstrID, uses []int32) bool {
	f := g.f
	p := f.InstrProps(i)
	if !p.Has(ir.PPure) || p&(noRewrite|ir.PSideEffect|ir.PReadsMem|ir.PWritesMem|ir.PBranch|ir.PTerminator|ir.PBarrier) != 0 {
		return false
	}
	any := false
	g.refs = core.AppendRegRefs(f, i, g.refs[:0])
	for _, x := range g.refs {
		if x.Def {
			if uses[x.Reg] != 0 {
				return false
			}
			any = true
		}
	}
	if !any {
		return false
	}
	for _, o := range f.Ops(i) {
		if o.IsDef() && o.Kind() != ir.KReg && o.Kind() != ir.KList && o.Kind() != ir.KSink {
			return false
		}
	}
	return true
}
