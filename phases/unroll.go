package phases

import (
	"slices"
	"strings"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// OriUnrollLoops: full unrolling of small loops whose trip count is a
// constant (ptxas unrolls in its loop phases before GeneralOptimize; the
// seeds give the phase no name, this is ours).
//
// Purpose: CUDA code walks small local arrays with loops of a constant
// trip count ("for (k = 0; k < 4; ++k) v[k] = p[k]"). Compiled at -O0, the
// counter and the array live in the .local frame and the array is indexed
// by the counter, so no access has a constant offset and
// ConvertMemoryToRegister, which needs constant offsets, keeps the whole
// frame. Unrolled, every index is a constant and the next phase promotes
// the frame. LLVM does the same with full unrolling and SROA.
//
// How the trip count is found: by running the loop. From the loop's entry
// (the state its preheader leaves), the pass walks the path the loop takes
// instruction by instruction, keeping the values it can know: integer
// constants, frame addresses ("__local_depot0 + k", local or generic), and
// the contents of frame slots the path stored constants to (a -O0 loop
// counter lives in such a slot: stored 0 in the preheader, loaded, compared,
// incremented and stored back). Every branch on the path must be decided
// by known values; the walk ends where the path leaves the loop. The
// walked path is then the loop's whole execution, the same on every run
// and in every lane, whatever the inputs: it depends only on constants.
// This finds what an induction-variable match would (constant start, step
// and bound, counter in a register or in the frame) and also the shapes
// that match would miss (exits in the middle, several latches, the body's
// own branches on the counter), with one argument for all of them.
//
// Memory the walk relies on. A frame slot's known contents hold only while
// nothing else may write it. A store whose address the walk knows as a
// frame address updates the slots; a store whose address is unknown is
// harmless when it cannot point into a frame; otherwise the loop is left
// alone. "Cannot point into a frame" is decided once per function, as
// ConvertMemoryToRegister decides escape: every register that may hold a
// value computed from a frame address is tainted (through any register
// dataflow, not through the address of a load); if a tainted value or a
// frame symbol is stored to memory, passed to a call, or used by any
// memory operation other than a plain ld/st address, the frame escapes
// and the walk tracks no slot at all (an untainted pointer could then hold
// a frame address). A frame access out of its variable's bounds, or in a
// state space its pointer does not name, stops the walk.
//
// What the loop becomes. The walked path, instruction by instruction, is
// placed at the end of the preheader, which then jumps to the block the
// path left the loop for; the loop's blocks, now unreachable, are emptied
// (and go to the end of the layout without their labels, as the
// GeneralOptimize clean-up does). On the path:
//   - a branch disappears (its direction is known);
//   - an instruction whose guard is known false disappears, one whose guard
//     is known true loses it;
//   - an instruction without side effects whose one result the walk knows
//     as a constant (integer arithmetic, a setp, a frame load of a slot of
//     known contents, the counter's load among them) becomes "mov dst, c";
//   - a known register source at the position an immediate may take (the
//     second source of integer add/sub/mul/and/or/xor/min/max/setp, the
//     shift amount; the first of a commutative operation, swapped) becomes
//     the immediate, so "add %rd3, %rd2, %rd1" with %rd1 = 8 becomes an
//     address ConvertMemoryToRegister reads as a constant offset;
//   - every unguarded definition writes a fresh register (the copies are
//     straight-line code, where renaming every definition and reading the
//     latest name is exact), except that the last unguarded definition of
//     a register live where the path leaves writes the register itself; a
//     guarded definition writes the register's current name (its lanes
//     whose guard is false keep that value). Fresh registers have one
//     definition each, which the promotion of indexed frame pointers needs.
//
// Refused: loops without a preheader (a unique outside predecessor that
// only enters the header, ending in "bra header" or falling into it),
// irreducible ones, and paths that hold a call, a barrier or fence, a
// convergent, asynchronous or opaque instruction (the dynamic sequence
// would not change, but such code is left as written), "ret"/"exit", an
// indirect branch, a branch on an unknown predicate, a label outside a
// branch, or an instruction writing one register twice; paths longer than
// the budget.
//
// Which loops. The loops are walked outermost first, and a loop whose walk
// succeeds covers the loops inside it (its path ran them, so its copies
// unroll the whole nest); the inner loops of a loop whose walk failed are
// walked on their own. Nothing is edited while walking, so every walk
// reads the input and the analyses asked once from the cache (CFG,
// dominators, loops, def-use chains, liveness). A walked loop is then
// unrolled when it is worth it: its copies keep no more instructions than
// the loop has, or it runs a dynamic frame access (one whose address is no
// constant offset in the input) of a frame variable all of whose dynamic
// accesses lie in walked loops and got constant addresses on their paths.
// Only then does the promotion of that variable follow; unrolling over an
// array that stays indexed by an unknown value would only grow the code.
// The loops unrolled are disjoint: unrolling one edits that loop and its
// preheader only, and leaves the walks and liveness of the others valid
// (a renamed register was live nowhere beyond its copies).
//
// Budget: UnrollMaxInstrs bounds the instructions a loop nest's copies
// keep (constants, decided branches and dropped instructions do not
// count); a walk gives up after unrollStepFactor times as many steps.
//
//	before: mov.u32 %r1, 0;  st.u32 [%SP+52], %r1;
//	        $L3: ld.u32 %r2, [%SP+52];  setp.gt.s32 %p1, %r2, 1;  @%p1 bra $L6;
//	             ld.s32 %rd1, [%SP+52];  shl.b64 %rd2, %rd1, 2;  add.u64 %rd3, %SP, 32;
//	             add.s64 %rd4, %rd3, %rd2;  st.f32 [%rd4], %f1;
//	             ld.u32 %r3, [%SP+52];  add.s32 %r4, %r3, 1;  st.u32 [%SP+52], %r4;  bra.uni $L3;
//	        $L6: …
//	after:  mov.u32 %r1, 0;  st.u32 [%SP+52], %r1;
//	        mov.b32 %r5, 0;  mov.pred %p2, 0;  mov.b64 %rd5, 0;  mov.b64 %rd6, 0;  add.u64 %rd7, %SP, 32;
//	        add.s64 %rd8, %rd7, 0;  st.f32 [%rd8], %f1;  mov.b32 %r6, 0;  mov.b32 %r7, 1;  st.u32 [%SP+52], %r7;
//	        … the second iteration: %r8 … %r12, 1 and 4 …
//	        mov.b32 %r13, 2;  mov.pred %p4, 1;  bra $L6;
//	        (ConvertMemoryToRegister then promotes [%SP+32], [%SP+36] and the
//	        counter's slot; GeneralOptimize and DCE remove the rest)

// unrollStepFactor: the walk of a loop gives up after this many times the
// budget of kept instructions (constants and decided branches are steps
// too: a loop that only counts would otherwise run on).
const unrollStepFactor = 4

// unrollMaxSlots bounds the frame slots of known contents the walk keeps
// (forgetting one is always safe).
const unrollMaxSlots = 256

// uKind is what the walk knows of a value.
type uKind uint8

const (
	uUnknown  uKind = iota
	uConst          // bits, as wide as the register
	uFrame          // the address of frame variable sym plus bits (a byte offset)
	uFrameAny       // an address in frame variable sym, offset unknown
)

type uVal struct {
	kind  uKind
	local bool // uFrame: an address of the .local window (else generic)
	sym   ir.SymID
	bits  uint64
}

func (v uVal) isConst() bool { return v.kind == uConst }

// isFrame: an address in a frame, offset known or not.
func (v uVal) isFrame() bool { return v.kind == uFrame || v.kind == uFrameAny }

// uSlot is a frame slot whose contents the walk knows.
type uSlot struct {
	sym  ir.SymID
	off  int64
	size int64
	bits uint64
}

// uAct is what becomes of one instruction of the path.
type uAct uint8

const (
	uEmit uAct = iota // a copy of the instruction
	uMov              // "mov dst, bits" in its place
	uDrop             // nothing: a decided branch, a guard known false
)

// uDyn is a frame access whose address is no constant offset in the
// input: its variable (NoSym when unknown) and whether a successful walk
// ran it with an unknown address.
type uDyn struct {
	instr ir.InstrID
	sym   ir.SymID
	unres bool
}

// uPlan is a loop whose walk succeeded: its trace, where the copies go,
// and whether it is worth unrolling.
type uPlan struct {
	loop      int
	pre, exit ir.BlockID
	term      ir.InstrID // the preheader's branch to the header, NoInstr when it falls through
	lo, hi    int        // its entries in trace
	slo, shi  int        // the variables it reached by dynamic accesses, in planSyms
	kept      int
	iters     int
	size      int // instructions of the loop as it is
	worth     bool
}

// uEntry is one instruction of the walked path.
type uEntry struct {
	instr   ir.InstrID
	act     uAct
	unguard bool   // the guard is known true: the copy has none
	sub     bool   // source 2 becomes the immediate bits
	swap    bool   // sources 1 and 2 are swapped first (commutative)
	bits    uint64 // uMov: the value; sub: the immediate
}

type unroller struct {
	p      *Pass
	f      *ir.Func
	loops  *core.Loops
	dom    *core.DomTree
	live   *core.Liveness
	du     *core.DefUse
	nregs0 int // registers the analyses describe
	budget int
	next   []ir.BlockID // layout successor of each block (the input's layout)

	// Facts of the input, per register.
	// factState says whether staticFact has computed a register's fact,
	// and whether it is known: only then do fact (the value of a
	// register with one unguarded definition) and factAt (the block of
	// that definition) hold it. Most facts are unknown, and the byte per
	// register is all that reading one of them touches (a fact and its
	// block are 20 bytes, a table of them several times the cache on a
	// function of a million instructions, read at random).
	factState []uint8
	fact      []uVal
	factAt    []ir.BlockID
	fixed     []bool // .reg parameter or vector register: never renamed
	tainted   []bool // may hold a value computed from a frame address
	escaped   bool   // a frame address escapes: no slot is tracked
	static    bool   // evaluating a fact (read() returns facts)
	depth     int

	// The walk.
	pre ir.BlockID // the preheader of the loop walked
	// vals: the values the walk in progress has written (walkVals)
	vals  walkVals
	cur   uint32
	slots []uSlot
	trace []uEntry
	refs  []core.RegRef
	kept  int

	// Frame accesses whose address is not a constant offset in the input
	// (dynamic: indexed by a value that changes), per instruction.
	dyn   []uDyn
	dynOf []int32 // by instruction: index+1 into dyn, 0 for none
	unres []int32 // dynamic accesses the walk ran with an unknown address

	// Loops walked successfully, and what they resolve.
	plans    []uPlan
	planOf   []int32    // by loop: index+1 into plans
	planSyms []ir.SymID // the variables plans reach by dynamic accesses (uPlan.syms)
	walkSyms []ir.SymID // those of the walk in progress

	// Per block of the input: instructions, and whether a .pragma is
	// among them.
	blockLen []int32
	pragma   []bool

	// The copies.
	name    []ir.RegID
	nameAt  []uint32
	lastDef []int32
	lastAt  []uint32
	ops     []ir.Operand
	emptied []bool

	iters, emitted int64
}

// unrollLoops is the pass function of OriUnrollLoops.
func unrollLoops(p *Pass) bool {
	f := p.F
	budget := p.Knobs.Int(UnrollMaxInstrs)
	if budget <= 0 || len(f.Layout) < 2 {
		return false
	}
	for _, d := range f.Directives {
		if strings.Contains(f.Str(d), "nounroll") {
			return false // .pragma "nounroll" for the whole function
		}
	}
	loops := p.A.Loops()
	cands := false
	for k := range loops.Loops {
		lp := &loops.Loops[k]
		if lp.Preheader != ir.NoBlock && !lp.Irreducible {
			cands = true
		}
	}
	if !cands {
		return false
	}
	u := &unroller{p: p, f: f, loops: loops, dom: p.A.Dom(), du: p.A.DefUse(), nregs0: f.NumRegs(), budget: int(budget)}
	u.prepare()
	// Plan: walk the loops outermost first; a loop whose walk succeeds
	// covers its inner loops (the walk ran them too), which are not
	// walked alone. Nothing is edited while planning, so every walk reads
	// the input and its analyses.
	u.planOf = make([]int32, len(loops.Loops))
	for l := range loops.Loops {
		if u.coveringPlan(loops.Loops[l].Parent) < 0 {
			u.walk(l)
		}
	}
	u.choose()
	if !slices.ContainsFunc(u.plans, func(pl uPlan) bool { return pl.worth }) {
		return false
	}
	// Liveness only now that there is something to unroll, and before the
	// first edit (which changes the CFG the cache would recompute it on).
	u.live = p.A.Liveness()
	n := int64(0)
	for k := range u.plans {
		if pl := &u.plans[k]; pl.worth {
			u.unroll(pl)
			n++
			u.iters += int64(pl.iters)
			u.emitted += int64(pl.kept)
		}
	}
	if n == 0 {
		return false
	}
	u.relayout()
	p.Count("loops unrolled", n)
	p.Count("back edges unrolled", u.iters)
	p.Count("instructions kept", u.emitted)
	return true
}

// coveringPlan returns the plan of loop l or of the innermost loop
// around it that has one, -1 when none.
func (u *unroller) coveringPlan(l int32) int {
	for ; l >= 0; l = u.loops.Loops[l].Parent {
		if k := u.planOf[l]; k > 0 {
			return int(k - 1)
		}
	}
	return -1
}

// choose decides which walked loops are worth unrolling: those whose
// copies keep no more instructions than the loop has, and those whose
// path made dynamic frame accesses (their addresses no constant offsets
// in the input) all into variables every dynamic access of which a walk
// resolved (each ran at constant addresses only, or not at all): those
// variables then have constant offsets only, and ConvertMemoryToRegister
// can promote them. Unrolling a loop over an array that stays indexed by
// an unknown value would only grow the code. A dynamic access of unknown
// variable left unresolved spoils every variable.
func (u *unroller) choose() {
	f := u.f
	var bad []ir.SymID
	anyBad := false
	for k := range u.dyn {
		d := &u.dyn[k]
		if pl := u.coveringPlan(u.loops.Innermost[f.Block[d.instr]]); pl >= 0 && !d.unres {
			continue
		}
		if d.sym == ir.NoSym {
			anyBad = true
		} else {
			bad = append(bad, d.sym)
		}
	}
	for k := range u.plans {
		pl := &u.plans[k]
		syms := u.planSyms[pl.slo:pl.shi]
		pl.worth = pl.kept <= pl.size || !anyBad && len(syms) > 0 && !slices.ContainsFunc(syms, func(s ir.SymID) bool { return slices.Contains(bad, s) })
	}
}

// prepare computes the per-register facts of the input: parameters and
// vector registers, the taint of frame addresses, and the values of
// registers with one unguarded definition.
func (u *unroller) prepare() {
	f := u.f
	n := f.NumRegs()
	u.fixed = make([]bool, n)
	for r := range n {
		u.fixed[r] = f.RegVec[r] != 0
	}
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if r, ok := f.ParamReg(id); ok {
				u.fixed[r] = true
			}
		}
	}
	u.taint()
	u.next = make([]ir.BlockID, f.NumBlocks())
	for i := range u.next {
		u.next[i] = ir.NoBlock
	}
	for k := 0; k+1 < len(f.Layout); k++ {
		u.next[f.Layout[k]] = f.Layout[k+1]
	}
	u.emptied = make([]bool, f.NumBlocks())
	u.blockLen = make([]int32, f.NumBlocks())
	u.pragma = make([]bool, f.NumBlocks())
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			u.blockLen[b]++
			if f.Op[i] == ir.OpPragma {
				u.pragma[b] = true
			}
		}
	}
	u.factState = take[uint8](u.p.Scratch, n)
	u.fact = takeRaw[uVal](u.p.Scratch, n)
	u.factAt = takeRaw[ir.BlockID](u.p.Scratch, n)
	u.static = true
	for r := range n {
		u.staticFact(ir.RegID(r))
	}
	u.findDynamic()
	u.static = false
}

// findDynamic lists the loads and stores that may reach a frame at an
// address the input's facts do not know as a constant offset.
func (u *unroller) findDynamic() {
	f := u.f
	u.dynOf = take[int32](u.p.Scratch, f.NumInstrs())
	if u.escaped {
		return
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			ops := f.Ops(i)
			k := -1
			switch {
			case f.Op[i] == ir.OpLd && len(ops) == 2:
				k = 1
			case f.Op[i] == ir.OpSt && len(ops) == 2:
				k = 0
			}
			if k < 0 {
				continue
			}
			v, may := u.address(ops[k])
			if v.kind == uFrame || !may {
				continue
			}
			d := uDyn{instr: i, sym: ir.NoSym}
			if v.kind == uFrameAny {
				d.sym = v.sym
			}
			u.dyn = append(u.dyn, d)
			u.dynOf[i] = int32(len(u.dyn))
		}
	}
}

// frameSym reports whether operand o names a .local variable: a frame.
func (u *unroller) frameSym(o ir.Operand) bool {
	if o.Kind() != ir.KSym || o.Flags() != 0 {
		return false
	}
	s := &u.f.Mod.Syms[o.Index()]
	return s.Space == ir.SpaceLocal && s.Kind == ir.SymVar
}

// taint marks the registers that may hold a value computed from a frame
// address and decides whether a frame escapes (see the file comment):
// a worklist over the def-use chains, seeded by the instructions that
// name a frame outside a load or store address.
func (u *unroller) taint() {
	f := u.f
	u.tainted = make([]bool, f.NumRegs())
	var work []ir.RegID
	mark := func(i ir.InstrID) {
		u.refs = core.AppendRegRefs(f, i, u.refs[:0])
		for _, x := range u.refs {
			if x.Def && !u.tainted[x.Reg] {
				u.tainted[x.Reg] = true
				work = append(work, x.Reg)
			}
		}
	}
	// A use of a frame address at operand k of instruction i: an access,
	// a derivation (taints the results), or an escape.
	use := func(i ir.InstrID, k int) {
		op := f.Op[i]
		pr := f.InstrProps(i)
		switch {
		case op == ir.OpLd && k == 1, op == ir.OpSt && k == 0:
			// the address of a plain load or store: an access
		case pr&(ir.PCall|ir.POpaque|ir.PReadsMem|ir.PWritesMem) != 0:
			u.escaped = true // stored, passed, or the address of another memory operation
		default:
			mark(i)
		}
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			for k, o := range f.Ops(i) {
				switch o.Kind() {
				case ir.KSym:
					if u.frameSym(o) {
						use(i, k)
					}
				case ir.KAddr:
					for _, e := range f.ListElems(f.Addrs[o.Index()].Elems) {
						if u.frameSym(e) {
							use(i, k)
						}
					}
				case ir.KList:
					for _, e := range f.ListElems(o.Index()) {
						if u.frameSym(e) {
							use(i, k)
						}
					}
				}
			}
		}
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, x := range u.du.Uses(r) {
			if x.Loc.IsGuard() {
				mark(x.Instr)
				continue
			}
			use(x.Instr, core.OperandIndex(f, x.Instr, x.Loc))
		}
	}
}

// staticFact returns what is known of register r wherever its one
// unguarded definition has run: a constant or a frame address computed
// from immediates, frame symbols and other such registers.
func (u *unroller) staticFact(r ir.RegID) uVal {
	switch u.factState[r] {
	case factBusy, factUnknown:
		return uVal{}
	case factKnown:
		return u.fact[r]
	}
	u.factState[r] = factBusy
	var v uVal
	if defs := u.du.Defs(r); len(defs) == 1 && u.depth < 64 {
		d := defs[0].Instr
		if u.f.Guard[d] == ir.NoOperand && u.f.InstrProps(d)&(ir.PReadsMem|ir.PSideEffect) == 0 {
			u.depth++
			if w, ok := u.eval(d); ok && w.kind != uUnknown {
				v = w
			}
			u.depth--
			if v.kind != uUnknown {
				u.fact[r], u.factAt[r], u.factState[r] = v, u.f.Block[d], factKnown
				return v
			}
		}
	}
	u.factState[r] = factUnknown
	return v
}

// The states of a register's fact (unroller.factState).
const (
	factNone    = iota // not computed
	factBusy           // being computed (a cycle reads it as unknown)
	factUnknown        // computed: nothing known
	factKnown          // computed: fact and factAt hold it
)

// read returns what the walk knows of register r at its current point.
func (u *unroller) read(r ir.RegID) uVal {
	if u.static {
		if int(r) < len(u.factState) {
			return u.staticFact(r)
		}
		return uVal{}
	}
	if v, ok := u.vals.get(r, u.cur); ok {
		return v
	}
	// Not written on the walk yet: the input's fact, where its definition
	// dominates the preheader (so the register holds it when the loop is
	// entered).
	if int(r) < len(u.factState) && u.factState[r] == factKnown {
		if b := u.factAt[r]; u.dom.Contains(b) && u.dom.Dominates(b, u.pre) {
			return u.fact[r]
		}
	}
	return uVal{}
}

// set records the value register r holds from here on.
func (u *unroller) set(r ir.RegID, v uVal) { u.vals.put(r, v, u.cur) }

// walkVals maps the registers a walk has written to their values: an
// open-addressed table whose slots of older walks (another gen) are
// free, so a walk starts with an empty table without clearing it. A
// walk writes at most a few thousand registers, which a table of a few
// tens of kilobytes holds in the first-level cache; a per-register array
// (two, with the walk stamps) would be read at random over megabytes on
// a function of a million instructions, about a cache miss a read.
type walkVals struct {
	slot []walkVal
	n    int    // slots of gen in use
	gen  uint32 // the walk n counts for
}

type walkVal struct {
	reg ir.RegID
	gen uint32
	val uVal
}

// home is r's first slot (Fibonacci hashing, the product's high bits:
// registers are dense small integers, and consecutive ones must not fill
// consecutive slots).
func (t *walkVals) home(r ir.RegID) int {
	return int(uint64(r)*0x9E3779B97F4A7C15>>32) & (len(t.slot) - 1)
}

// get returns the value r was given in walk gen.
func (t *walkVals) get(r ir.RegID, gen uint32) (uVal, bool) {
	if t.gen != gen || t.n == 0 {
		return uVal{}, false
	}
	for k := t.home(r); ; k = (k + 1) & (len(t.slot) - 1) {
		s := &t.slot[k]
		if s.gen != gen {
			return uVal{}, false
		}
		if s.reg == r {
			return s.val, true
		}
	}
}

// put gives r the value v in walk gen.
func (t *walkVals) put(r ir.RegID, v uVal, gen uint32) {
	if t.gen != gen {
		t.gen, t.n = gen, 0
	}
	if 2*(t.n+1) > len(t.slot) {
		t.grow()
	}
	for k := t.home(r); ; k = (k + 1) & (len(t.slot) - 1) {
		s := &t.slot[k]
		if s.gen != gen {
			*s = walkVal{reg: r, gen: gen, val: v}
			t.n++
			return
		}
		if s.reg == r {
			s.val = v
			return
		}
	}
}

// grow doubles the table (1024 slots at first), moving the present
// walk's entries. New slots have gen 0, which no walk has (the walks
// count from 1).
func (t *walkVals) grow() {
	old := t.slot
	t.slot = make([]walkVal, max(1024, 2*len(old)))
	t.n = 0
	for k := range old {
		if s := &old[k]; s.gen == t.gen {
			t.put(s.reg, s.val, t.gen)
		}
	}
}

// operand returns what is known of source operand o read as type t.
func (u *unroller) operand(o ir.Operand, t ir.Type) uVal {
	f := u.f
	switch o.Kind() {
	case ir.KReg:
		r := o.Reg()
		if o == ir.NoOperand || o.Flags() != 0 || f.RegVec[r] != 0 {
			return uVal{}
		}
		v := u.read(r)
		switch v.kind {
		case uFrame, uFrameAny:
			if t.Bits() != 64 || f.RegType[r].Bits() != 64 {
				return uVal{}
			}
		case uConst:
			if f.RegType[r].Bits() != t.Bits() {
				return uVal{}
			}
		}
		return v
	case ir.KImm:
		if c, ok := immAs(f, o, t); ok {
			return uVal{kind: uConst, bits: c}
		}
	case ir.KSym:
		if u.frameSym(o) && t.Bits() == 64 {
			return uVal{kind: uFrame, local: true, sym: ir.SymID(o.Index())}
		}
	}
	return uVal{}
}

// constOf is a known constant of type t (masked to its width).
func constOf(t ir.Type, c uint64) uVal { return uVal{kind: uConst, bits: c & widthMask(t)} }

// eval returns the value instruction i computes into its first operand (a
// plain register), when its sources are known well enough; ok is false
// when i has no such destination.
func (u *unroller) eval(i ir.InstrID) (uVal, bool) {
	f := u.f
	ops := f.Ops(i)
	if len(ops) < 2 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() || ops[0].Flags() != 0 {
		return uVal{}, false
	}
	d := ops[0].Reg()
	if f.RegVec[d] != 0 {
		return uVal{}, false
	}
	w := f.RegType[d].Bits()
	t, m := f.Type[i], f.Mods[i]
	unk := uVal{}
	switch f.Op[i] {
	case ir.OpMov:
		if len(ops) != 2 || m != 0 || t.Bits() != w {
			return unk, true
		}
		if ops[1].Kind() == ir.KImm {
			return u.operand(ops[1], movValueType(t, f.RegType[d])), true
		}
		return u.operand(ops[1], t), true
	case ir.OpAdd, ir.OpSub:
		if len(ops) != 3 || m != 0 || !isIntType(t) || t.Bits() != w {
			return unk, true
		}
		a, b := u.operand(ops[1], t), u.operand(ops[2], t)
		sub := f.Op[i] == ir.OpSub
		switch {
		case a.isConst() && b.isConst():
			if sub {
				return constOf(t, a.bits-b.bits), true
			}
			return constOf(t, a.bits+b.bits), true
		case a.kind == uFrame && b.isConst():
			if sub {
				a.bits -= b.bits
			} else {
				a.bits += b.bits
			}
			return a, true
		case !sub && a.isConst() && b.kind == uFrame:
			b.bits += a.bits
			return b, true
		case a.isFrame() && !b.isFrame():
			return uVal{kind: uFrameAny, local: a.local, sym: a.sym}, true
		case !sub && b.isFrame() && !a.isFrame():
			return uVal{kind: uFrameAny, local: b.local, sym: b.sym}, true
		}
	case ir.OpMul, ir.OpMad:
		n := 3
		if f.Op[i] == ir.OpMad {
			n = 4
		}
		if len(ops) != n || !isIntType(t) {
			return unk, true
		}
		a, b := u.operand(ops[1], t), u.operand(ops[2], t)
		if !a.isConst() || !b.isConst() {
			return unk, true
		}
		switch m {
		case ir.ModLo:
			if t.Bits() != w {
				return unk, true
			}
			v := a.bits * b.bits
			if n == 4 {
				c := u.operand(ops[3], t)
				if !c.isConst() {
					return unk, true
				}
				v += c.bits
			}
			return constOf(t, v), true
		case ir.ModWide:
			if n != 3 || 2*t.Bits() != w {
				return unk, true
			}
			x, y := a.bits, b.bits
			if t.IsSigned() {
				x, y = uint64(signExtend(x, t.Bits())), uint64(signExtend(y, t.Bits()))
			}
			return uVal{kind: uConst, bits: x * y & widthMask(f.RegType[d])}, true
		}
	case ir.OpAnd, ir.OpOr, ir.OpXor:
		if len(ops) != 3 || m != 0 || !(isIntType(t) || t == ir.TPred) || t.Bits() != w {
			return unk, true
		}
		a, b := u.operand(ops[1], t), u.operand(ops[2], t)
		if !a.isConst() || !b.isConst() {
			return unk, true
		}
		switch f.Op[i] {
		case ir.OpAnd:
			return constOf(t, a.bits&b.bits), true
		case ir.OpOr:
			return constOf(t, a.bits|b.bits), true
		}
		return constOf(t, a.bits^b.bits), true
	case ir.OpNot, ir.OpNeg:
		if len(ops) != 2 || m != 0 || t.Bits() != w {
			return unk, true
		}
		a := u.operand(ops[1], t)
		switch {
		case !a.isConst():
		case f.Op[i] == ir.OpNot && (isIntType(t) || t == ir.TPred):
			return constOf(t, ^a.bits), true
		case f.Op[i] == ir.OpNeg && tySigned(t):
			return constOf(t, -a.bits), true
		}
	case ir.OpShl, ir.OpShr:
		if len(ops) != 3 || m != 0 || !isIntType(t) || t.Bits() != w {
			return unk, true
		}
		a, b := u.operand(ops[1], t), u.operand(ops[2], ir.TU32)
		if !a.isConst() || !b.isConst() {
			return unk, true
		}
		if f.Op[i] == ir.OpShl {
			return constOf(t, shiftLeft(t, a.bits, b.bits)), true
		}
		return constOf(t, shiftRight(t, a.bits, b.bits)), true
	case ir.OpMin, ir.OpMax:
		if len(ops) != 3 || m != 0 || !isIntType(t) || t.Bits() != w {
			return unk, true
		}
		a, b := u.operand(ops[1], t), u.operand(ops[2], t)
		if !a.isConst() || !b.isConst() {
			return unk, true
		}
		if f.Op[i] == ir.OpMin {
			return constOf(t, minInt(t, a.bits, b.bits)), true
		}
		return constOf(t, maxInt(t, a.bits, b.bits)), true
	case ir.OpCvt:
		st := f.Type2[i]
		if len(ops) != 2 || m != 0 || !isIntType(t) || !isIntType(st) || t.Bits() != w {
			return unk, true
		}
		a := u.operand(ops[1], st)
		if !a.isConst() {
			return unk, true
		}
		v := a.bits & widthMask(st)
		if st.IsSigned() {
			v = uint64(signExtend(v, st.Bits()))
		}
		return constOf(t, v), true
	case ir.OpSetp:
		c := m.Cmp()
		if len(ops) != 3 || m.WithCmp(ir.CmpNone) != 0 || !isIntType(t) || w != 1 {
			return unk, true
		}
		a, b := u.operand(ops[1], t), u.operand(ops[2], t)
		if !a.isConst() || !b.isConst() {
			return unk, true
		}
		if v, ok := cmpInt(c, t, a.bits, b.bits); ok {
			return uVal{kind: uConst, bits: v}, true
		}
	case ir.OpSelp:
		if len(ops) != 4 || m != 0 || t.Bits() != w {
			return unk, true
		}
		c := u.operand(ops[3], ir.TPred)
		if !c.isConst() {
			return unk, true
		}
		if c.bits&1 != 0 {
			return u.operand(ops[1], t), true
		}
		return u.operand(ops[2], t), true
	case ir.OpCvta:
		// cvta.local: generic from local; cvta.to.local: local from
		// generic ("to" is the one component Decode leaves to the text).
		if len(ops) != 2 || f.Space[i] != ir.SpaceLocal || w != 64 {
			return unk, true
		}
		to := m.Has(ir.ModOther)
		if m&^ir.ModOther != 0 {
			return unk, true
		}
		s := u.operand(ops[1], ir.TU64)
		if !s.isFrame() || s.local == to {
			return unk, true
		}
		s.local = to
		return s, true
	}
	return unk, true
}

// guard returns whether guard operand g is known, and its value.
func (u *unroller) guard(g ir.Operand) (known, on bool) {
	if g.Kind() != ir.KReg || g.Flags()&^ir.FlagNot != 0 || u.f.RegType[g.Reg()] != ir.TPred {
		return false, false
	}
	v := u.read(g.Reg())
	if !v.isConst() {
		return false, false
	}
	return true, (v.bits&1 != 0) != g.Has(ir.FlagNot)
}

// isTainted reports whether register r may hold a frame address.
func (u *unroller) isTainted(r ir.RegID) bool { return int(r) < len(u.tainted) && u.tainted[r] }

// address returns what is known of address operand o, and whether it
// may point into a frame.
func (u *unroller) address(o ir.Operand) (uVal, bool) {
	f := u.f
	if o.Kind() != ir.KAddr {
		return uVal{}, true
	}
	a := f.Addrs[o.Index()]
	el := f.ListElems(a.Elems)
	if len(el) != 1 {
		for _, e := range el {
			if u.frameSym(e) || e.Kind() == ir.KReg && u.isTainted(e.Reg()) {
				return uVal{}, true
			}
		}
		return uVal{}, false
	}
	switch e := el[0]; e.Kind() {
	case ir.KReg:
		switch v := u.operand(e, ir.TU64); v.kind {
		case uFrame:
			v.bits += uint64(a.Off)
			return v, true
		case uFrameAny:
			return v, true
		}
		return uVal{}, u.isTainted(e.Reg())
	case ir.KSym:
		if u.frameSym(e) {
			return uVal{kind: uFrame, local: true, sym: ir.SymID(e.Index()), bits: uint64(a.Off)}, true
		}
	}
	return uVal{}, false
}

// frameOK checks an access of size bytes by instruction i at frame
// address v: the state space must be the pointer's (ld.local of a local
// address, a generic ld of a generic one) and the bytes inside the
// variable.
func (u *unroller) frameOK(i ir.InstrID, v uVal, size int64) bool {
	sp := u.f.Space[i]
	if v.local && sp != ir.SpaceLocal || !v.local && sp != ir.SpaceGeneric {
		return false
	}
	off := int64(v.bits)
	return size > 0 && off >= 0 && off+size <= int64(symBytes(&u.f.Mod.Syms[v.sym]))
}

// forget drops what is known of the bytes [off, off+size) of frame sym.
func (u *unroller) forget(sym ir.SymID, off, size int64) {
	k := 0
	for _, s := range u.slots {
		if s.sym == sym && s.off < off+size && off < s.off+s.size {
			continue
		}
		u.slots[k] = s
		k++
	}
	u.slots = u.slots[:k]
}

// remember records that the bytes [off, off+size) of frame sym hold bits.
func (u *unroller) remember(sym ir.SymID, off, size int64, bits uint64) {
	u.forget(sym, off, size)
	if len(u.slots) >= unrollMaxSlots {
		u.slots = append(u.slots[:0], u.slots[1:]...)
	}
	u.slots = append(u.slots, uSlot{sym: sym, off: off, size: size, bits: bits})
}

// lookup returns the known contents of exactly the bytes [off, off+size)
// of frame sym.
func (u *unroller) lookup(sym ir.SymID, off, size int64) (uint64, bool) {
	for _, s := range u.slots {
		if s.sym == sym && s.off == off && s.size == size {
			return s.bits, true
		}
	}
	return 0, false
}

// load returns the value a plain scalar load i reads from a frame slot of
// known contents (extended as the load extends it); ok is false for a
// frame access the walk cannot follow.
func (u *unroller) load(i ir.InstrID) (uVal, bool) {
	f := u.f
	ops := f.Ops(i)
	if u.escaped || len(ops) != 2 {
		return uVal{}, true
	}
	a, _ := u.address(ops[1])
	if a.kind != uFrame {
		return uVal{}, true
	}
	t := f.Type[i]
	size := int64(t.Bits()/8) * int64(max(1, f.Mods[i].Vec()))
	if !u.frameOK(i, a, size) {
		return uVal{}, false
	}
	if f.Mods[i] != 0 || ops[0].Kind() != ir.KReg || ops[0].Flags() != 0 || f.RegVec[ops[0].Reg()] != 0 {
		return uVal{}, true
	}
	bits, ok := u.lookup(a.sym, int64(a.bits), size)
	if !ok {
		return uVal{}, true
	}
	rt := f.RegType[ops[0].Reg()]
	tb := t.Bits()
	if rt.Bits() < tb {
		return uVal{}, true
	}
	if rt.Bits() > tb && t.IsSigned() {
		bits = uint64(signExtend(bits, tb))
	}
	return uVal{kind: uConst, bits: bits & widthMask(rt)}, true
}

// store applies store i (its guard known: on) to the known slots; false
// when it may write a frame the walk cannot follow.
func (u *unroller) store(i ir.InstrID, on bool) bool {
	f := u.f
	ops := f.Ops(i)
	if u.escaped {
		return true
	}
	if len(ops) != 2 {
		return false
	}
	a, may := u.address(ops[0])
	if a.kind != uFrame {
		return !may
	}
	t := f.Type[i]
	size := int64(t.Bits()/8) * int64(max(1, f.Mods[i].Vec()))
	if !u.frameOK(i, a, size) {
		return false
	}
	off := int64(a.bits)
	var v uVal
	if on && f.Mods[i] == 0 {
		switch o := ops[1]; o.Kind() {
		case ir.KReg:
			if o.Flags() == 0 && f.RegVec[o.Reg()] == 0 {
				if w := u.read(o.Reg()); w.isConst() {
					v = constOf(t, w.bits)
				}
			}
		case ir.KImm:
			if c, ok := immAs(f, o, t); ok {
				v = constOf(t, c)
			}
		}
	}
	if v.isConst() {
		u.remember(a.sym, off, size, v.bits)
	} else {
		u.forget(a.sym, off, size)
	}
	return true
}

// step runs instruction i (not a branch) on the walk's state. On the
// loop's path (record) it appends i's entry to the trace and returns
// false when the walk must give up; in the preheader (!record) what the
// walk cannot follow only makes it forget.
func (u *unroller) step(i ir.InstrID, record bool) bool {
	f := u.f
	pr := f.InstrProps(i)
	u.refs = core.AppendRegRefs(f, i, u.refs[:0])
	giveUp := func() bool {
		if record {
			return false
		}
		u.slots = u.slots[:0]
		for _, x := range u.refs {
			if x.Def {
				u.set(x.Reg, uVal{})
			}
		}
		return true
	}
	if pr&(ir.PCall|ir.PConvergent|ir.POpaque|ir.PAsync|ir.PPseudo|ir.PBarrier|ir.PTerminator|ir.PBranch) != 0 {
		return giveUp()
	}
	ndefs := 0
	for k, x := range u.refs {
		if !x.Def {
			continue
		}
		ndefs++
		for _, y := range u.refs[:k] {
			if y.Def && y.Reg == x.Reg {
				return giveUp() // one register written twice: not renamed
			}
		}
	}
	for _, o := range f.Ops(i) {
		if o.Kind() == ir.KLabel {
			return giveUp() // a label outside a branch: it would name a block that goes
		}
	}
	on, guarded := true, f.Guard[i] != ir.NoOperand
	known := true
	if guarded {
		known, on = u.guard(f.Guard[i])
		if known && !on {
			if record {
				u.trace = append(u.trace, uEntry{instr: i, act: uDrop})
			}
			return true
		}
	}
	if record && u.dynOf[i] != 0 {
		if v := u.frameAddr(i); v.kind != uFrame {
			u.unres = append(u.unres, u.dynOf[i]-1)
		} else if !slices.Contains(u.walkSyms, v.sym) {
			u.walkSyms = append(u.walkSyms, v.sym)
		}
	}
	var v uVal
	switch f.Op[i] {
	case ir.OpLd:
		w, ok := u.load(i)
		if !ok {
			return giveUp()
		}
		v = w
	case ir.OpSt:
		if !u.store(i, known) {
			return giveUp()
		}
	default:
		if pr&(ir.PSideEffect|ir.PReadsMem|ir.PWritesMem) == 0 {
			v, _ = u.eval(i)
		}
	}
	if !known {
		v = uVal{}
	}
	if record {
		e := uEntry{instr: i, unguard: guarded}
		if ndefs == 1 && v.isConst() && u.movable(i, pr) {
			e.act, e.bits = uMov, v.bits
		} else {
			e.act = uEmit
			e.unguard = guarded && known
			u.immSource(i, &e)
			u.kept++
		}
		u.trace = append(u.trace, e)
	}
	ops := f.Ops(i)
	for _, x := range u.refs {
		if !x.Def {
			continue
		}
		if ndefs == 1 && len(ops) > 0 && ops[0].Kind() == ir.KReg && ops[0].IsDef() && ops[0].Reg() == x.Reg {
			u.set(x.Reg, v)
		} else {
			u.set(x.Reg, uVal{})
		}
	}
	return true
}

// frameAddr returns what the walk knows of the address of load or store
// i.
func (u *unroller) frameAddr(i ir.InstrID) uVal {
	k := 0
	if u.f.Op[i] == ir.OpLd {
		k = 1
	}
	v, _ := u.address(u.f.Ops(i)[k])
	return v
}

// movable reports whether instruction i may be replaced by a mov of the
// constant it computes: no effect but its one plain register result, of
// a width a mov immediate has.
func (u *unroller) movable(i ir.InstrID, pr ir.Prop) bool {
	f := u.f
	if pr&(ir.PSideEffect|ir.PVolatile|ir.PWritesMem) != 0 {
		return false
	}
	ops := f.Ops(i)
	if ops[0].Kind() != ir.KReg || !ops[0].IsDef() || ops[0].Flags() != 0 {
		return false
	}
	switch f.RegType[ops[0].Reg()].Bits() {
	case 1, 16, 32, 64:
		return true
	}
	return false
}

// immSource marks in e the register source of instruction i that becomes
// an immediate: source 2 of an integer add/sub/mul/and/or/xor/min/max/
// setp or a shift amount whose value the walk knows; or source 1 of a
// commutative one, swapped into place.
func (u *unroller) immSource(i ir.InstrID, e *uEntry) {
	f := u.f
	ops := f.Ops(i)
	t := f.Type[i]
	if len(ops) != 3 || ops[2].Kind() != ir.KReg || !isIntType(t) || t.Bits() < 16 || f.InstrProps(i)&noRewrite != 0 {
		return
	}
	st, comm := t, false
	switch f.Op[i] {
	case ir.OpAdd, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpMin, ir.OpMax:
		comm = true
	case ir.OpSub:
	case ir.OpSetp:
		if f.Mods[i].WithCmp(ir.CmpNone) != 0 {
			return
		}
	case ir.OpShl, ir.OpShr:
		st = ir.TU32
	default:
		return
	}
	if v := u.operand(ops[2], st); v.isConst() {
		e.sub, e.bits = true, v.bits
		return
	}
	if comm && ops[1].Kind() == ir.KReg {
		if v := u.operand(ops[1], t); v.isConst() {
			e.sub, e.swap, e.bits = true, true, v.bits
		}
	}
}

// branch decides branch i: taken or not, and its target; ok is false for
// a branch the walk cannot decide or follow.
func (u *unroller) branch(i ir.InstrID) (taken bool, target ir.BlockID, ok bool) {
	f := u.f
	ops := f.Ops(i)
	if f.Op[i] != ir.OpBra || len(ops) != 1 || ops[0].Kind() != ir.KLabel {
		return false, ir.NoBlock, false
	}
	target = ir.BlockID(ops[0].Index())
	if g := f.Guard[i]; g != ir.NoOperand {
		known, on := u.guard(g)
		return on, target, known
	}
	return true, target, true
}

// walk runs loop l from its preheader's state along the path it takes
// until the path leaves the loop, and records a plan when it succeeds.
func (u *unroller) walk(l int) {
	f := u.f
	lp := &u.loops.Loops[l]
	P, H := lp.Preheader, lp.Header
	if P == ir.NoBlock || lp.Irreducible {
		return
	}
	size := 0
	for _, x := range u.loops.Body(l) {
		if u.pragma[x] {
			return // .pragma "nounroll" (or any pragma: a hint about the loop as written)
		}
		size += int(u.blockLen[x])
	}
	// P enters H by an unguarded "bra H" at its end, or by falling into it.
	term := f.BlockLast[P]
	if term != ir.NoInstr && f.InstrProps(term)&(ir.PBranch|ir.PTerminator) != 0 {
		ops := f.Ops(term)
		if f.Op[term] != ir.OpBra || f.Guard[term] != ir.NoOperand || len(ops) != 1 || ops[0].Kind() != ir.KLabel || ir.BlockID(ops[0].Index()) != H {
			return
		}
	} else {
		if u.next[P] != H {
			return
		}
		term = ir.NoInstr
	}
	u.cur++
	u.pre = P
	lo := len(u.trace)
	u.slots, u.unres, u.walkSyms, u.kept = u.slots[:0], u.unres[:0], u.walkSyms[:0], 0
	for i := f.BlockFirst[P]; i != term && i != ir.NoInstr; i = f.Next[i] {
		u.step(i, false)
	}
	fail := func() { u.trace = u.trace[:lo] }
	maxSteps := unrollStepFactor * u.budget
	steps, visits := 0, 0
	b := H
	for u.loops.Contains(l, b) {
		if b == H {
			visits++
		}
		nb := u.next[b]
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if steps++; steps > maxSteps {
				fail()
				return
			}
			if f.InstrProps(i).Has(ir.PBranch) {
				taken, target, ok := u.branch(i)
				if !ok {
					fail()
					return
				}
				u.trace = append(u.trace, uEntry{instr: i, act: uDrop})
				if taken {
					nb = target
					break
				}
				continue
			}
			if !u.step(i, true) || u.kept > u.budget {
				fail()
				return
			}
		}
		if nb == ir.NoBlock {
			fail()
			return
		}
		b = nb
	}
	for _, d := range u.unres {
		u.dyn[d].unres = true
	}
	slo := len(u.planSyms)
	u.planSyms = append(u.planSyms, u.walkSyms...)
	u.plans = append(u.plans, uPlan{loop: l, pre: P, exit: b, term: term, lo: lo, hi: len(u.trace), slo: slo, shi: len(u.planSyms),
		kept: u.kept, iters: visits - 1, size: size})
	u.planOf[l] = int32(len(u.plans))
}

// liveAt reports whether register r is live into block b (registers made
// by this pass never are: each lives inside its copy).
func (u *unroller) liveAt(b ir.BlockID, r ir.RegID) bool {
	return int(r) < u.nregs0 && u.live.IsLiveIn(b, r)
}

// nameOf is the register holding r's current value in the copies.
func (u *unroller) nameOf(r ir.RegID) ir.RegID {
	if u.nameAt[r] == u.cur {
		return u.name[r]
	}
	return r
}

// define returns the register the definition of r by trace entry k
// writes: a fresh one, or r itself for a .reg parameter, a vector
// register, or the last unguarded definition of a register live after the
// loop.
func (u *unroller) define(r ir.RegID, k int) ir.RegID {
	f := u.f
	nr := r
	fixed := int(r) < len(u.fixed) && u.fixed[r]
	if !fixed && !(u.lastAt[r] == u.cur && int(u.lastDef[r]) == k) {
		nr = f.AddReg(f.RegName[r], f.RegType[r])
		u.tainted = append(u.tainted, u.isTainted(r))
		u.name = append(u.name, 0)
		u.nameAt = append(u.nameAt, 0)
		u.lastDef = append(u.lastDef, 0)
		u.lastAt = append(u.lastAt, 0)
	}
	u.name[r], u.nameAt[r] = nr, u.cur
	return nr
}

// unroll replaces the loop of plan pl by its walked path: the copies go
// at the end of the preheader (before its branch to the header, if any),
// the preheader jumps to the block the path left the loop for, and the
// loop's blocks are emptied.
func (u *unroller) unroll(pl *uPlan) {
	f := u.f
	P, X, term := pl.pre, pl.exit, pl.term
	trace := u.trace[pl.lo:pl.hi]
	if n := f.NumRegs(); len(u.name) < n {
		u.name = append(u.name, make([]ir.RegID, n-len(u.name))...)
		u.nameAt = append(u.nameAt, make([]uint32, n-len(u.nameAt))...)
		u.lastDef = append(u.lastDef, make([]int32, n-len(u.lastDef))...)
		u.lastAt = append(u.lastAt, make([]uint32, n-len(u.lastAt))...)
	}
	u.cur++
	// The last unguarded definition of each register live into X.
	for k := range trace {
		e := &trace[k]
		if e.act == uDrop || f.Guard[e.instr] != ir.NoOperand && !e.unguard {
			continue
		}
		u.refs = core.AppendRegRefs(f, e.instr, u.refs[:0])
		for _, x := range u.refs {
			if x.Def && u.liveAt(X, x.Reg) {
				u.lastDef[x.Reg], u.lastAt[x.Reg] = int32(k), u.cur
			}
		}
	}
	place := func(ni ir.InstrID) {
		if term != ir.NoInstr {
			f.InsertBefore(term, ni)
		} else {
			f.Append(P, ni)
		}
	}
	for k := range trace {
		e := &trace[k]
		switch e.act {
		case uMov:
			d := u.define(f.Ops(e.instr)[0].Reg(), k)
			t := f.RegType[d]
			ni := f.NewInstr(ir.Form{Op: ir.OpMov, Type: movTypeFor(t)}, []ir.Operand{ir.RegDef(d), immOperandFor(f, t, e.bits)})
			f.SetLoc(ni, f.InstrLoc(e.instr))
			place(ni)
		case uEmit:
			place(u.clone(e, k))
		}
	}
	lab := ir.Pack(ir.KLabel, uint32(X), 0, false)
	if term != ir.NoInstr {
		f.SetOps(term, []ir.Operand{f.Ops(term)[0].WithIndex(uint32(X))})
	} else {
		f.Append(P, f.NewInstr(ir.Form{Op: ir.OpBra}, []ir.Operand{lab}))
	}
	for _, b := range u.loops.Body(pl.loop) {
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			n := f.Next[i]
			f.Remove(i)
			i = n
		}
		u.emptied[b] = true
	}
	f.InvalidateCFG()
}

// clone copies trace entry e (number k) into a new instruction: its own
// lists and addresses, the immediate put in, sources read under their
// current names, definitions renamed.
func (u *unroller) clone(e *uEntry, k int) ir.InstrID {
	f := u.f
	i := e.instr
	u.ops = u.ops[:0]
	for _, o := range f.Ops(i) {
		u.ops = append(u.ops, u.copyOperand(o))
	}
	if e.swap {
		u.ops[1], u.ops[2] = u.ops[2], u.ops[1]
	}
	if e.sub {
		t := f.Type[i]
		if f.Op[i] == ir.OpShl || f.Op[i] == ir.OpShr {
			t = ir.TU32
		}
		u.ops[2] = immOperandFor(f, t, e.bits)
	}
	ni := f.NewInstrDecoded(f.Form(i), f.Mnemonic[i], u.ops)
	if !e.unguard {
		f.Guard[ni] = f.Guard[i]
	}
	f.SetLoc(ni, f.InstrLoc(i))
	u.refs = core.AppendRegRefs(f, ni, u.refs[:0])
	for _, x := range u.refs {
		if !x.Def {
			o := core.OperandAt(f, ni, x.Loc)
			core.SetOperandAt(f, ni, x.Loc, o.WithIndex(uint32(u.nameOf(x.Reg))))
		}
	}
	guarded := f.Guard[ni] != ir.NoOperand
	for _, x := range u.refs {
		if x.Def {
			nr := u.nameOf(x.Reg)
			if !guarded {
				nr = u.define(x.Reg, k)
			}
			o := core.OperandAt(f, ni, x.Loc)
			core.SetOperandAt(f, ni, x.Loc, o.WithIndex(uint32(nr)))
		}
	}
	f.SetOps(ni, f.Ops(ni)) // the cached properties, for the operands as they are now
	return ni
}

// copyOperand returns o with lists and addresses of its own.
func (u *unroller) copyOperand(o ir.Operand) ir.Operand {
	f := u.f
	switch o.Kind() {
	case ir.KList:
		var buf [8]ir.Operand
		el := buf[:0]
		for _, e := range f.ListElems(o.Index()) {
			el = append(el, u.copyOperand(e))
		}
		return o.WithIndex(f.AddList(el))
	case ir.KAddr:
		a := f.Addrs[o.Index()]
		var buf [4]ir.Operand
		el := buf[:0]
		for _, e := range f.ListElems(a.Elems) {
			el = append(el, u.copyOperand(e))
		}
		return o.WithIndex(f.AddAddr(el, a.Off, a.HasOff).Index())
	}
	return o
}

// relayout moves the emptied blocks to the end of the layout without
// their labels: unreachable, they add no edge there and print nothing.
func (u *unroller) relayout() {
	f := u.f
	out := make([]ir.BlockID, 0, len(f.Layout))
	for _, b := range f.Layout {
		if !u.emptied[b] {
			out = append(out, b)
		}
	}
	for _, b := range f.Layout {
		if u.emptied[b] {
			out = append(out, b)
			f.BlockLabel[b] = ir.NoSym
		}
	}
	f.Layout = out
	f.InvalidateCFG()
}
