package phases

import (
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
// cross-block rewrites, per function and bundle run. The global rule is
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
	numSubPasses
)

var subPassNames = [numSubPasses]string{"CopyProp", "MovWindow", "ConstantFold", "PredicateSimplify", "DeadCode"}

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
	{slot: "GeneralOptimizeEarly", subs: []subPass{spCopyProp}},
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

// The six slots' pass functions: one function each, so the driver's
// settled-slot skip (by pass function) never takes one bundle for
// another.
func generalOptimizeEarly(p *Pass) bool { return runBundle(p, bundleOf("GeneralOptimizeEarly")) }
func generalOptimizeMain(p *Pass) bool  { return runBundle(p, bundleOf("GeneralOptimize")) }
func generalOptimizeMid(p *Pass) bool   { return runBundle(p, bundleOf("GeneralOptimizeMid")) }
func generalOptimizeMid2(p *Pass) bool  { return runBundle(p, bundleOf("GeneralOptimizeMid2")) }
func generalOptimizeLate(p *Pass) bool  { return runBundle(p, bundleOf("GeneralOptimizeLate")) }
func generalOptimizeLate2(p *Pass) bool { return runBundle(p, bundleOf("GeneralOptimizeLate2")) }

// runBundle runs bundle b on p's function.
func runBundle(p *Pass, b *bundle) bool {
	return runSubPasses(p, b.subs, b.once)
}

// runSubPasses runs the given sub-passes on p's function, repeated until
// a round changes nothing (once: one round).
func runSubPasses(p *Pass, subs []subPass, once bool) bool {
	f := p.F
	g := &genOpt{
		f:            f,
		a:            p.A,
		p:            p,
		sc:           p.Scratch,
		localBudget:  p.Knobs.Budget(CopyPropBudget),
		globalBudget: p.Knobs.Budget(CopyPropGlobalBudget),
		ruleBudget:   p.Knobs.Budget(GeneralOptimizeRuleLimit),
		// register-operand buffers from the arena: an instruction has
		// few (one that has more grows them once)
		refs:  take[core.RegRef](p.Scratch, 32)[:0],
		refs2: take[core.RegRef](p.Scratch, 32)[:0],
	}
	for _, s := range subs {
		g.on[s] = true
	}
	if g.on[spMovWindow] {
		g.on[spCopyProp], g.window = true, movWindow
	}
	changed := false
	rounds := maxGeneralOptimizeRounds
	if once {
		rounds = 1
	}
	for round := 0; round < rounds; round++ {
		if round > 0 && p.Canceled() {
			break // the driver stops with the context's error
		}
		n := int64(0)
		if g.on[spFold] && p.SSA() {
			if k := simplifyPhis(p); k > 0 {
				p.Count("trivial PHIs removed", int64(k))
				n += int64(k)
			}
		}
		if g.on[spCopyProp] || g.on[spFold] || g.on[spPred] {
			n += g.localWalk()
			if g.window == 0 {
				n += g.globalWalk()
			}
		}
		if g.on[spPred] {
			n += g.cfgCleanup()
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
	}
	if g.cfgEdits > 0 {
		g.reconcilePhis()
		g.a.Invalidate(PreserveAll)
	}
	if g.copies > 0 {
		p.Count("CopyProp: copies propagated", g.copies)
	}
	for r, n := range g.ruleHits {
		if n > 0 {
			p.Count("rule "+ruleNames[r], n)
		}
	}
	if g.ruleCut {
		p.Count("GeneralOptimizeRuleLimit reached; first rule refused: "+ruleNames[g.cutRule], 1)
	}
	return changed
}

// maxGeneralOptimizeRounds bounds the fixed-point iteration; each round is
// linear, and chains of copies usually settle in two or three.
const maxGeneralOptimizeRounds = 8

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
	p                         *Pass
	on                        [numSubPasses]bool
	window                    int // MovWindow: copies remembered per block (0: all)
	ring                      [movWindow]ir.RegID
	ringStep                  [movWindow]uint32
	ringAt                    int
	cfg                       cfgState
	cfgLive                   bool // the branch-target counts are kept (cfgCleanup)
	removed                   int64
	phiBuf                    []ir.Operand

	// Rules: the debug counter, per-rule counts, the first rule refused.
	ruleBudget int64
	ruleHits   [numRules]int64
	ruleCut    bool
	cutRule    ruleID
	rewrites   int64 // rule applications
	cfgEdits   int64 // branches and terminators removed or unguarded

	mode walkMode
	cur  ir.InstrID // the instruction the walk is at

	// What findReuse found for reuse (rules/reuse.rules): the instruction
	// whose result the rewrite adds the constant to.
	reuseE ir.InstrID
	reuseC uint64

	refs, refs2 []core.RegRef
	// Local tables, indexed by register: the copy (or constant) the
	// register holds, its definitions seen so far (ver), the last
	// unguarded definition (ldef), and when it was last written (last,
	// in walk steps). Entries of other blocks are stale (stamp).
	ent   []copyEnt
	ver   []uint32
	ldef  []localDef
	last  []uint32
	stamp uint32
	step  uint32
	// Global walk.
	du     *core.DefUse
	dom    *core.DomTree
	pos    []int32 // instruction's position in its block
	opaque []bool  // registers an opaque instruction names
}

type copyEnt struct {
	src   ir.Operand // a register, or an immediate (k)
	ver   uint32
	stamp uint32
	k     bool   // a constant of known bits
	c     uint64 // its bits
	at    uint32 // the walk step that recorded it
}

type localDef struct {
	instr ir.InstrID
	step  uint32
	stamp uint32
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
		e := g.ent[r]
		if e.stamp != g.stamp || !e.k {
			return 0, false
		}
		return e.c, true
	}
	c, ok := g.single(r)
	if !ok || !g.before(c, g.cur) {
		return 0, false
	}
	if _, _, v, k, ok := g.copySource(c); ok && k {
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
		l := g.ldef[r]
		if l.stamp != g.stamp {
			return ir.NoInstr, false
		}
		g.refs2 = core.AppendRegRefs(f, l.instr, g.refs2[:0])
		for _, x := range g.refs2 {
			if !x.Def && g.last[x.Reg] >= l.step {
				return ir.NoInstr, false
			}
		}
		return l.instr, true
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
	if len(g.ent) < f.NumRegs() {
		g.ent = take[copyEnt](g.sc, f.NumRegs())
		g.ver = take[uint32](g.sc, f.NumRegs())
		g.ldef = take[localDef](g.sc, f.NumRegs())
		g.last = take[uint32](g.sc, f.NumRegs())
		g.stamp, g.step = 0, 0
	}
	g.mode = walkLocal
	n, rw0 := int64(0), g.rewrites
	for _, b := range f.Layout {
		g.stamp++
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			g.step++
			g.cur = i
			if g.on[spCopyProp] {
				n += g.substitute(i)
			}
			if g.applyRules(i) {
				i = next
				continue // deleted
			}
			g.refs = core.AppendRegRefs(f, i, g.refs[:0])
			for _, x := range g.refs {
				if x.Def {
					g.ver[x.Reg]++
					g.ent[x.Reg].stamp = 0
					g.ldef[x.Reg].stamp = 0
					g.last[x.Reg] = g.step
				}
			}
			if f.InstrProps(i).Has(ir.POpaque) {
				// It may write more than the operands marked as
				// definitions: forget every copy of the block so far.
				g.stamp++
			}
			if d, src, c, k, ok := g.copySource(i); ok {
				e := copyEnt{src: src, stamp: g.stamp, k: k, c: c, at: g.step}
				if src.Kind() == ir.KReg {
					e.ver = g.ver[src.Reg()]
				}
				g.ent[d] = e
				if g.window > 0 {
					// Forget the oldest of the window's copies.
					if old := g.ring[g.ringAt]; g.ringStep[g.ringAt] != 0 && g.ent[old].at == g.ringStep[g.ringAt] {
						g.ent[old].stamp = 0
					}
					g.ring[g.ringAt], g.ringStep[g.ringAt] = d, g.step
					g.ringAt = (g.ringAt + 1) % g.window
				}
			}
			if f.Guard[i] == ir.NoOperand && f.InstrProps(i)&(ir.PSideEffect|noRewrite) == 0 {
				if ops := f.Ops(i); len(ops) > 0 && ops[0].Kind() == ir.KReg && ops[0].IsDef() {
					g.ldef[ops[0].Reg()] = localDef{instr: i, step: g.step, stamp: g.stamp}
				}
			}
			i = next
		}
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
	for range 4 {
		fired := g.on[spFold] && g.rulesFold(i)
		if !fired && g.on[spPred] {
			fired = g.rulesPred(i)
		}
		if !fired {
			return false
		}
		if f.Dead[i] {
			return true
		}
	}
	return false
}

// substitute rewrites the register uses of instruction i that the local
// copy table knows a source for, and returns how many it rewrote.
func (g *genOpt) substitute(i ir.InstrID) int64 {
	f := g.f
	if f.InstrProps(i)&noRewrite != 0 || g.localBudget <= 0 {
		return 0
	}
	n := int64(0)
	g.refs = core.AppendRegRefs(f, i, g.refs[:0])
	for _, x := range g.refs {
		if x.Def || g.localBudget <= 0 {
			continue
		}
		e := g.ent[x.Reg]
		if e.stamp != g.stamp {
			continue
		}
		if e.src.Kind() == ir.KReg {
			if g.ver[e.src.Reg()] != e.ver {
				continue
			}
			o := core.OperandAt(f, i, x.Loc)
			core.SetOperandAt(f, i, x.Loc, o.WithIndex(uint32(e.src.Reg())))
		} else {
			if !intImm(f, e.src) || !g.immAllowed(i, x.Loc, x.Reg) {
				continue
			}
			core.SetOperandAt(f, i, x.Loc, e.src)
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
	if len(f.Layout) < 2 && !g.on[spFold] {
		// One block: the local walk knew everything copy propagation
		// can use; only rules that look for other uses of a value
		// (rules/reuse.rules) need the def-use chains of this walk.
		return 0
	}
	// Rewrites since the chains were cached make them stale.
	if edits := g.copies + g.rewrites + g.cfgEdits + g.removed; edits != g.duAt {
		g.a.Invalidate(instrAnalyses)
		g.duAt = edits
	}
	if !f.CFGValid() {
		f.ComputeCFG()
	}
	g.du = g.a.DefUse()
	g.dom = g.a.Dom()
	g.mode = walkGlobal
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
	// An opaque instruction may write operands not marked as definitions:
	// a register it names has no known set of definitions.
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
	n := int64(0)
	if g.on[spCopyProp] {
		n = g.globalCopyProp()
	}
	rw0 := g.rewrites
	if g.on[spFold] || g.on[spPred] {
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; {
				next := f.Next[i]
				g.cur = i
				g.applyRules(i)
				i = next
			}
		}
	}
	return n + g.rewrites - rw0
}

// globalCopyProp rewrites the uses of single-definition copies.
func (g *genOpt) globalCopyProp() int64 {
	f := g.f
	du := g.du
	n := int64(0)
	for r := range f.NumRegs() {
		if g.globalBudget <= 0 {
			break
		}
		d := ir.RegID(r)
		c, ok := g.single(d)
		if !ok || len(du.Uses(d)) == 0 {
			continue
		}
		dst, src, _, _, ok := g.copySource(c)
		if !ok || dst != d {
			continue
		}
		if src.Kind() == ir.KReg {
			if sd, ok := g.single(src.Reg()); !ok || !g.before(sd, c) {
				continue
			}
		} else if !intImm(f, src) {
			continue
		}
		// A register source takes over every use of the copy or none: a
		// use left on the copy (a PHI operand, a use it does not
		// dominate, a budget spent half way) keeps the copy's value live
		// beside the source's, which now lives longer too: one more
		// register for nothing. (A constant source is propagated
		// wherever it may be: it needs no register, and folding feeds
		// on it.)
		if src.Kind() == ir.KReg && !g.allUsesRewritable(c, d) {
			continue
		}
		for _, u := range du.Uses(d) {
			if g.globalBudget <= 0 {
				break
			}
			i := u.Instr
			if f.Dead[i] || f.Block[i] == ir.NoBlock || !g.before(c, i) || f.InstrProps(i)&noRewrite != 0 {
				continue
			}
			o := core.OperandAt(f, i, u.Loc)
			if !o.IsReg() || o.Reg() != d || o.IsDef() {
				continue // already rewritten this round
			}
			if src.Kind() == ir.KReg {
				core.SetOperandAt(f, i, u.Loc, o.WithIndex(uint32(src.Reg())))
			} else {
				if !g.immAllowed(i, u.Loc, d) {
					continue
				}
				core.SetOperandAt(f, i, u.Loc, src)
			}
			g.globalBudget--
			n++
		}
	}
	g.copies += n
	return n
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
		if f.Dead[i] || f.Block[i] == ir.NoBlock {
			continue
		}
		if !g.before(c, i) || f.InstrProps(i)&noRewrite != 0 {
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
	if edits := g.copies + g.rewrites + g.cfgEdits + g.removed; edits != g.duAt {
		g.a.Invalidate(instrAnalyses)
		g.duAt = edits
	}
	du := g.a.DefUse()
	uses := take[int32](g.sc, f.NumRegs())
	for r := range uses {
		uses[r] = int32(len(du.Uses(ir.RegID(r))))
	}
	for _, r := range f.ReturnRegs(nil) {
		uses[r]++ // live when the function returns
	}
	n := int64(0)
	for range 4 {
		m := int64(0)
		for k := len(f.Layout) - 1; k >= 0; k-- {
			b := f.Layout[k]
			for i := f.BlockLast[b]; i != ir.NoInstr; {
				prev := f.Prev[i]
				if g.deadInstr(i, uses) {
					g.refs = core.AppendRegRefs(f, i, g.refs[:0])
					for _, x := range g.refs {
						if !x.Def {
							uses[x.Reg]--
						}
					}
					f.Remove(i)
					m++
				}
				i = prev
			}
		}
		n += m
		if m == 0 {
			break
		}
	}
	if n > 0 {
		g.removed += n
		g.count("DeadCode: instructions removed", n)
	}
	return n
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
