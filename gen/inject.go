package gen

import (
	"fmt"
	"strings"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Injected redundancy (Config.Inject): the redundancy each redundancy
// phase targets, placed on purpose and recorded, so a test can measure
// how much of it a phase removes.
//
// Every injection reads values made by marker instructions,
//
//	mul.hi.u32 %m, %gtid, K
//
// with K an immediate unique in the kernel (0x5a0000cd | n<<8, n counting
// the markers). No other instruction of the generator carries such an
// immediate, no rewrite rule folds mul.hi with one register source, and
// the marker values are protected (never redefined) and kept out of the
// pools, so the only instructions reading a marker value, directly or
// through copies of it, are the injection's own. Counting them in an
// optimized kernel tells how much redundancy is left: each Injection
// says how many there were as generated (Readers) and how many remain
// once the redundancy is gone (Ideal). The results the injection
// computes are stored to the output (diamonds' also join the pools), so
// they stay live and the simulator compares them.
//
// The kinds (Kind bits; Config.Inject selects any set of them):
//
//   - Reassoc: two chains of one associative operation (add, mul.lo,
//     xor, and, or) over the same three or four marker leaves in
//     different orders, in one block, a few straight-line statements
//     apart at most: ((m1 op m2) op m3) and ((m1 op m3) op m2). The second
//     chain is the redundancy OriReassociateAndCommon removes. Readers
//     2(L-1), Ideal L-1 for L leaves (every chain instruction reads one
//     leaf, the first two).
//   - Dominated: "op %e, %m, %f" and, in a block E's block dominates (the
//     end of an if's then-arm, the join after an if, or further down the
//     same block), the same "op %l, %m, %f": what GvnCse removes. %f is
//     one of the prologue's registers (thread index and friends), never
//     redefined. Readers 2, Ideal 1.
//   - Diamond: a divergent if/else whose two arms compute the same
//     "op %x, %m, %f" and then each a different "add %y, %x, imm" into
//     one register %y (a PHI in SSA form, a select after if-conversion):
//     OriDoPredication puts the two computations side by side and merges
//     them. Readers 2, Ideal 1.
//   - JoinRecompute: a Diamond whose join block computes "op %z, %m, %f"
//     once more. Before if-conversion no single computation dominates the
//     join; after it the merged one does, and LateOriCommoning commons
//     the join's. Readers 3, Ideal 1.
//   - MovChain: two to four copies "mov %c1, %m; mov %c2, %c1; …" and one
//     or two instructions reading the last copy, in the same block or
//     after an if (then copy propagation must work across blocks).
//     Readers: the copies and the readers; Ideal: the readers alone. A
//     third of them are predicated instead (injGuardedChain): copies
//     under one guard read under the same guard, or a selp read under
//     its predicate and under the predicate's negation.
//
// Ops of Dominated, Diamond, JoinRecompute and MovChain are chosen among
// operations no reassociation tree grows through (mad.lo, sub, min, max,
// shr, bfe), so nothing but the targeted phase changes how many
// instructions read a marker.
//
// Injections happen only outside loops: a loop-unrolling phase copies a
// loop's body, and with it the readers of a marker, which would count as
// redundancy left. With Inject zero the generator draws nothing for them:
// default kernels are the ones earlier versions made.

// Kind is a kind of injected redundancy (a bit; Config.Inject is a set).
type Kind uint8

const (
	Reassoc Kind = 1 << iota
	Dominated
	Diamond
	JoinRecompute
	MovChain

	AllKinds = Reassoc | Dominated | Diamond | JoinRecompute | MovChain
)

var kindNames = [...]string{"Reassoc", "Dominated", "Diamond", "JoinRecompute", "MovChain"}

func (k Kind) String() string {
	s := ""
	for b := range kindNames {
		if k&(1<<b) != 0 {
			if s != "" {
				s += "|"
			}
			s += kindNames[b]
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// ParseKinds reads a set of kinds: "all", "none" or names separated by
// commas (Reassoc,Dominated,Diamond,JoinRecompute,MovChain; any case).
func ParseKinds(s string) (Kind, error) {
	var k Kind
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		switch {
		case w == "" || strings.EqualFold(w, "none"):
			continue
		case strings.EqualFold(w, "all"):
			k |= AllKinds
			continue
		}
		found := false
		for b, n := range kindNames {
			if strings.EqualFold(n, w) {
				k |= 1 << b
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown redundancy kind %q (want all, none or %s)", w, strings.Join(kindNames[:], ", "))
		}
	}
	return k, nil
}

// Injection records one injected redundancy.
type Injection struct {
	Kind Kind
	// Markers are the immediates K of the marker instructions whose
	// values the injection reads.
	Markers []uint32
	// Readers is how many instructions read a marker value, directly or
	// through copies of it (copies included), as generated; Ideal how
	// many are left once the injected redundancy is removed. Readers -
	// Ideal instructions are redundant.
	Readers, Ideal int
}

// Redundant is how many of the injection's instructions are redundant.
func (in Injection) Redundant() int { return in.Readers - in.Ideal }

// markerBase: the markers' immediates are markerBase | n<<8.
const markerBase = 0x5a0000cd

// maxMarkers bounds the markers of one kernel (n must fit bits 8..23).
const maxMarkers = 1 << 16

// injectPercent is the chance (in percent) that a statement outside loops
// is an injection, when Config.Inject selects some kinds.
const injectPercent = 7

// inject emits one injection of a kind Config.Inject selects.
func (g *gen) inject(left int) {
	var kinds []Kind
	for b := range len(kindNames) {
		if k := Kind(1 << b); g.injectKinds&k != 0 {
			kinds = append(kinds, k)
		}
	}
	switch kinds[g.rnd.Intn(len(kinds))] {
	case Reassoc:
		g.injReassoc()
	case Dominated:
		g.injDominated(left)
	case Diamond:
		g.injDiamond(false)
	case JoinRecompute:
		g.injDiamond(true)
	case MovChain:
		g.injMovChain(left)
	}
}

// marker emits "mul.hi.u32 %m, %gtid, K" with a fresh K and returns %m
// and K.
func (g *gen) marker() (ir.RegID, uint32) {
	k := uint32(markerBase | (g.nmark%maxMarkers)<<8)
	g.nmark++
	m := g.reg(ir.TB32)
	g.emit("mul.hi.u32", def(m), use(g.gtid), g.imm(int64(k)))
	g.prot[m] = true
	return m, k
}

// fixedReg returns one of the prologue's registers (never redefined).
func (g *gen) fixedReg() ir.RegID { return g.p.r32[g.rnd.Intn(fixedR32)] }

// redOp draws an operation reading m (and a fixed register or constants)
// and returns a function emitting it into a destination: the same
// instruction each time.
func (g *gen) redOp(m ir.RegID) func(d ir.RegID) {
	f := g.fixedReg()
	k1, k2 := int64(1+g.rnd.Intn(9)), int64(g.rnd.Intn(17))
	switch g.rnd.Intn(6) {
	case 0:
		return func(d ir.RegID) { g.emit("mad.lo.s32", def(d), use(m), use(f), g.imm(k1+100)) }
	case 1:
		return func(d ir.RegID) { g.emit("sub.s32", def(d), use(m), use(f)) }
	case 2:
		return func(d ir.RegID) { g.emit("min.u32", def(d), use(m), use(f)) }
	case 3:
		return func(d ir.RegID) { g.emit("max.s32", def(d), use(f), use(m)) }
	case 4:
		return func(d ir.RegID) { g.emit("shr.u32", def(d), use(m), g.imm(k1)) }
	default:
		return func(d ir.RegID) { g.emit("bfe.u32", def(d), use(m), g.imm(k2), g.imm(k1)) }
	}
}

// fresh returns a new protected 32-bit register.
func (g *gen) fresh() ir.RegID {
	r := g.reg(ir.TB32)
	g.prot[r] = true
	return r
}

// injReassoc: two chains over the same marker leaves (see Reassoc).
func (g *gen) injReassoc() {
	n := 3 + g.rnd.Intn(2)
	leaves := make([]ir.RegID, n)
	var ks []uint32
	for i := range leaves {
		var k uint32
		leaves[i], k = g.marker()
		ks = append(ks, k)
	}
	op := []string{"add.s32", "mul.lo.s32", "xor.b32", "and.b32", "or.b32"}[g.rnd.Intn(5)]
	first := g.rnd.Perm(n)
	second := g.rnd.Perm(n)
	// The second chain's first pair differs from the first's (as a set),
	// so the two are not equal up to commuting one operation.
	for samePair(first, second) {
		second = g.rnd.Perm(n)
	}
	chain := func(order []int) ir.RegID {
		acc := leaves[order[0]]
		for _, k := range order[1:] {
			d := g.fresh()
			g.emit(op, def(d), use(acc), use(leaves[k]))
			acc = d
		}
		return acc
	}
	x := chain(first)
	// A few straight-line statements in between, within the commoning
	// window of OriReassociateAndCommon (ReassociateCSEWindow).
	for range g.rnd.Intn(3) {
		g.intOp()
	}
	y := chain(second)
	g.store32(x, "st.global.u32")
	g.store32(y, "st.global.u32")
	g.injs = append(g.injs, Injection{Kind: Reassoc, Markers: ks, Readers: 2 * (n - 1), Ideal: n - 1})
}

func samePair(a, b []int) bool {
	return (a[0] == b[0] && a[1] == b[1]) || (a[0] == b[1] && a[1] == b[0])
}

// injDominated: a computation and its repetition in a dominated block (see
// Dominated).
func (g *gen) injDominated(left int) {
	m, k := g.marker()
	op := g.redOp(m)
	e := g.fresh()
	op(e)
	g.store32(e, "st.global.u32")
	again := func() {
		l := g.fresh()
		op(l)
		g.store32(l, "st.global.u32")
	}
	switch w := g.rnd.Intn(3); {
	case w == 0 && g.depth < g.max && left > 12:
		g.ifStmtWith(left, again) // the end of the then-arm
	case w == 1 && g.depth < g.max && left > 12:
		g.ifStmt(left) // the join
		again()
	default:
		for range 1 + g.rnd.Intn(3) {
			g.intOp()
		}
		again()
	}
	g.injs = append(g.injs, Injection{Kind: Dominated, Markers: []uint32{k}, Readers: 2, Ideal: 1})
}

// injDiamond: a divergent if/else computing one value in both arms (see
// Diamond), and with join, again after the join (JoinRecompute).
func (g *gen) injDiamond(join bool) {
	m, k := g.marker()
	op := g.redOp(m)
	p := g.reg(ir.TPred)
	t, u := g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit("xor.b32", def(t), use(g.tid), use(g.pick32()))
	g.emit("and.b32", def(u), use(t), g.imm(3))
	g.emit("setp.lt.u32", def(p), use(u), g.imm(int64(1+g.rnd.Intn(3))))
	thenB, elseB, j := g.newBlock(), g.newBlock(), g.newBlock()
	g.emitG(use(p).WithFlags(ir.FlagNot), "bra.uni", label(elseB))
	g.f.SetForm(ir.InstrID(len(g.f.Op)-1), ir.Form{Op: ir.OpBra}) // divergent
	y := g.fresh()
	k1, k2 := int64(1+g.rnd.Intn(50)), int64(51+g.rnd.Intn(50))
	g.enter(thenB)
	x1 := g.fresh()
	op(x1)
	g.emit("add.s32", def(y), use(x1), g.imm(k1))
	g.emit("bra.uni", label(j))
	g.enter(elseB)
	x2 := g.fresh()
	op(x2)
	g.emit("add.s32", def(y), use(x2), g.imm(k2))
	g.enter(j)
	// stored: a pool value defined inside an if's arm is dropped at its
	// join, and the selects must stay live
	g.store32(y, "st.global.u32")
	g.p.r32 = append(g.p.r32, y)
	if !join {
		g.injs = append(g.injs, Injection{Kind: Diamond, Markers: []uint32{k}, Readers: 2, Ideal: 1})
		return
	}
	z := g.fresh()
	op(z)
	g.store32(z, "st.global.u32")
	g.injs = append(g.injs, Injection{Kind: JoinRecompute, Markers: []uint32{k}, Readers: 3, Ideal: 1})
}

// injMovChain: a chain of copies and its readers (see MovChain).
func (g *gen) injMovChain(left int) {
	if g.rnd.Intn(3) == 0 {
		g.injGuardedChain()
		return
	}
	m, k := g.marker()
	n := 2 + g.rnd.Intn(3)
	c := m
	for range n {
		d := g.fresh()
		g.emit([]string{"mov.b32", "mov.u32"}[g.rnd.Intn(2)], def(d), use(c))
		c = d
	}
	if g.depth < g.max && left > 12 && g.rnd.Intn(2) == 0 {
		g.ifStmt(left) // the readers in the join: propagation across blocks
	}
	readers := 1 + g.rnd.Intn(2)
	for range readers {
		op := g.redOp(c)
		d := g.fresh()
		op(d)
		g.store32(d, "st.global.u32")
	}
	g.injs = append(g.injs, Injection{Kind: MovChain, Markers: []uint32{k}, Readers: n + readers, Ideal: readers})
}

// Measure counts, in f (the kernel injs were recorded for, as generated or
// after any optimization, in SSA form or not), the redundant instructions
// of the injections still there: per injection the live instructions
// reading a marker value or a copy of one (the copies included), less its
// Ideal, at least 0. It returns that sum and the sum of Redundant().
//
// Live: an instruction whose effects are more than its register results
// (memory, control, side effects, anything not pure), or one whose result
// a live instruction reads (any definition of a register a live
// instruction reads counts: without SSA a register may hold several
// values). Dead leftovers a phase leaves for dead-code removal are not
// counted. A copy is a "mov %d, %s" between registers, guarded or not,
// or a selp with such a source (it holds the value in some lanes); the
// marker instructions' results, their copies and copies of those form
// the set of registers whose readers count. A function without PHIs is
// measured on an SSA copy (core.BuildSSA; PHIs then pass marker values on
// like copies and are not counted themselves): in the registers an
// optimizer chose, a register may hold other values too, and its readers
// would count as readers of the marker (out-of-SSA reusing a marker's
// register for an unrelated value made 40 "left" of 7 injected). Where
// that copy cannot be built, or f has PHIs already, registers are taken
// as they are, which can only make the count larger: the measure errs
// towards redundancy left.
func Measure(f *ir.Func, injs []Injection) (left, redundant int) {
	for _, in := range injs {
		redundant += in.Redundant()
	}
	if len(injs) == 0 {
		return 0, 0
	}
	phis := false
	if !hasPhis(f) {
		g := f.Clone()
		if _, err := core.BuildSSA(g); err == nil {
			f, phis = g, true
		}
	}
	live := liveInstrs(f)
	var refs []core.RegRef
	inSet := make([]bool, f.NumRegs())
	for _, in := range injs {
		clear(inSet)
		marker := map[ir.InstrID]bool{}
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if !live[i] {
					continue
				}
				ops := f.Ops(i)
				if len(ops) < 2 || !ops[0].IsDef() || ops[0].Kind() != ir.KReg {
					continue
				}
				for _, o := range ops[1:] {
					if o.Kind() == ir.KImm && isMarker(f.Imms[o.Index()].Bits, in.Markers) {
						marker[i] = true
						inSet[ops[0].Reg()] = true
					}
				}
			}
		}
		// copies of marker values, to a fixed point (chains in any order)
		for changed := true; changed; {
			changed = false
			for _, b := range f.Layout {
				for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
					if phis && live[i] && f.Op[i] == ir.OpPhi && !inSet[f.Ops(i)[0].Reg()] {
						core.PhiIncoming(f, i, func(_ int, v ir.Operand, _ ir.BlockID) {
							if v.IsReg() && inSet[v.Reg()] && !inSet[f.Ops(i)[0].Reg()] {
								inSet[f.Ops(i)[0].Reg()] = true
								changed = true
							}
						})
						continue
					}
					if !live[i] || (f.Op[i] != ir.OpMov && f.Op[i] != ir.OpSelp) {
						continue
					}
					ops := f.Ops(i)
					if ops[0].Kind() != ir.KReg || inSet[ops[0].Reg()] {
						continue
					}
					for _, o := range ops[1:min(len(ops), 3)] {
						if o.Kind() == ir.KReg && o.Flags() == 0 && inSet[o.Reg()] {
							inSet[ops[0].Reg()] = true
							changed = true
							break
						}
					}
				}
			}
		}
		n := 0
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if !live[i] || marker[i] || phis && f.Op[i] == ir.OpPhi {
					continue
				}
				refs = core.AppendRegRefs(f, i, refs[:0])
				for _, x := range refs {
					if !x.Def && inSet[x.Reg] {
						n++
						break
					}
				}
			}
		}
		left += max(0, n-in.Ideal)
	}
	return left, redundant
}

func isMarker(bits uint64, ks []uint32) bool {
	for _, k := range ks {
		if bits == uint64(k) {
			return true
		}
	}
	return false
}

// liveInstrs marks the live instructions of f (see Measure).
func liveInstrs(f *ir.Func) []bool {
	live := make([]bool, f.NumInstrs())
	defs := make([][]ir.InstrID, f.NumRegs())
	var refs []core.RegRef
	var work []ir.InstrID
	const effects = ir.PSideEffect | ir.PWritesMem | ir.PBranch | ir.PTerminator | ir.PBarrier | ir.PVolatile |
		ir.PConvergent | ir.PCall | ir.PAsync | ir.POpaque | ir.PCarry
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = core.AppendRegRefs(f, i, refs[:0])
			anyDef := false
			for _, x := range refs {
				if x.Def {
					defs[x.Reg] = append(defs[x.Reg], i)
					anyDef = true
				}
			}
			p := f.InstrProps(i)
			pure := f.Op[i] == ir.OpPhi || (p.Has(ir.PPure) && p&effects == 0)
			if !pure || !anyDef {
				live[i] = true
				work = append(work, i)
			}
		}
	}
	for _, r := range f.ReturnRegs(nil) {
		for _, d := range defs[r] {
			if !live[d] {
				live[d] = true
				work = append(work, d)
			}
		}
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		refs = core.AppendRegRefs(f, i, refs[:0])
		for _, x := range refs {
			if x.Def {
				continue
			}
			for _, d := range defs[x.Reg] {
				if !live[d] {
					live[d] = true
					work = append(work, d)
				}
			}
		}
	}
	return live
}

// injGuardedChain: MovChain's predicated forms, in one block, under a
// thread-dependent predicate %p: either copies under one guard,
// "@%p mov %c1, %m; @%p mov %c2, %c1; …", read by instructions under the
// same guard, or "selp %c, %m, %f, %p" read under @%p (which sees %m) and
// under @!%p (which sees %f, not a marker). Each guarded reader writes a
// register set to 0 first, so every lane of the stored result is defined.
func (g *gen) injGuardedChain() {
	m, k := g.marker()
	p := g.reg(ir.TPred)
	t, u := g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit("xor.b32", def(t), use(g.tid), use(g.pick32()))
	g.emit("and.b32", def(u), use(t), g.imm(7))
	g.emit("setp.lt.u32", def(p), use(u), g.imm(int64(1+g.rnd.Intn(6))))
	on := use(p)
	if g.rnd.Intn(2) == 0 {
		on = on.WithFlags(ir.FlagNot)
	}
	read := func(guard, c ir.Operand) {
		d := g.fresh()
		g.emit("mov.b32", def(d), g.imm(0))
		f := g.fixedReg()
		g.emitG(guard, "sub.s32", def(d), c, use(f))
		g.store32(d, "st.global.u32")
	}
	if g.rnd.Intn(2) == 0 {
		n := 1 + g.rnd.Intn(3)
		c := m
		for range n {
			d := g.fresh()
			g.emitG(on, "mov.b32", def(d), use(c))
			c = d
		}
		readers := 1 + g.rnd.Intn(2)
		for range readers {
			read(on, use(c))
		}
		g.injs = append(g.injs, Injection{Kind: MovChain, Markers: []uint32{k}, Readers: n + readers, Ideal: readers})
		return
	}
	c := g.fresh()
	g.emit("selp.b32", def(c), use(m), use(g.fixedReg()), use(p))
	read(use(p), use(c))
	read(use(p).WithFlags(ir.FlagNot), use(c))
	// the select and its two readers; once propagated, the @%p reader
	// reads %m and the select is dead
	g.injs = append(g.injs, Injection{Kind: MovChain, Markers: []uint32{k}, Readers: 3, Ideal: 1})
}

// hasPhis reports whether f holds a PHI (it is in SSA form already).
func hasPhis(f *ir.Func) bool {
	for _, b := range f.Layout {
		if i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi {
			return true
		}
	}
	return false
}
