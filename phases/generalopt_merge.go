package phases

import (
	"fmt"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// MergeEquivalentConditionalFlow, the sub-pass of GeneralOptimizeEarly
// (the seeds' phase 13 role): within a block, an instruction J that
// computes, under the same guard, what an earlier instruction I computed
// becomes a copy of I's result, J's single-use operand chain then being
// dead (OriPerformLiveDeadFirst removes it). Equal means structurally
// equal to depth 2:
//
//   - I and J have the same form (opcode, types, state space, modifiers),
//     the same guard (register and polarity) and pairwise equivalent
//     sources;
//   - two sources are equivalent when they are the same operand word (a
//     register that no instruction writes between the two readers, the
//     earlier one included; equal immediates; the same symbol; never a
//     special register: %clock and friends change), or, while depth is left, registers with the same
//     modifier flags (negation, absolute value) whose last writers in the
//     block, X for I's side and Y for J's, are equivalent one level down:
//     Y's register has that one definition and that one use in the
//     function (a single-use chain), X and Y have the same form and the
//     same guard, which is none or the top guard.
//
// All nodes are pure (no memory read, no side effect, nothing volatile,
// convergent, carry-chained, opaque or pseudo) with one plain register
// result. In the lanes where the top guard holds, every node of either
// chain ran (a node's guard is none or that guard, whose register no
// instruction writes from the first node to J) on equal inputs, so I's
// result, which nothing writes between I and J, is J's.
//
// Not SSA-bound and block-local: it runs on the code as written, before
// value numbering. J looks back at most mergeWindow instructions for I
// (the nearest one of the same shape is compared), from the block's end
// so that whole chains merge; each node below the top may be compared
// with its partner too, so the sub-pass also commons single equal
// instructions of a block (local CSE on the code as written). Knobs:
// DisableMergeEquivalentConditionalFlow skips GeneralOptimizeEarly;
// MergeEquivalentConditionalFlowBudget caps its rounds.
//
//	before:  @%p add %r3, %r1, %r2;  @%p mul %r4, %r3, 5;
//	         @%p add %r5, %r1, %r2;  @%p mul %r6, %r5, 5;
//	after:   @%p add %r3, %r1, %r2;  @%p mul %r4, %r3, 5;
//	         @%p add %r5, %r1, %r2;  @%p mov %r6, %r4;     (%r5's add is dead)

// mergeWindow bounds how far back J looks for I.
const mergeWindow = 32

// mergeDepth is the depth of the structural comparison (the seeds' 2).
const mergeDepth = 2

type merger struct {
	g   *genOpt
	blk []ir.InstrID // the block's instructions in order
	// wr: the register each position of the block writes (ir.NoReg:
	// none), or mergeMany for an instruction that writes several or is
	// opaque (written then asks the operands)
	wr     []ir.RegID
	pos    []int32 // instruction → position in its block
	nDef   []int32 // register → definitions in the function
	nUse   []int32 // register → reads in the function
	refs   []core.RegRef
	lowest int32 // the earliest node of the comparison under way
}

// mergeEquivalent runs the sub-pass over every block and returns how many
// instructions it turned into copies.
func (g *genOpt) mergeEquivalent() int64 {
	f := g.f
	m := &merger{g: g, pos: take[int32](g.sc, len(f.Op)), nDef: take[int32](g.sc, f.NumRegs()), nUse: take[int32](g.sc, f.NumRegs()),
		// a block's lists (kept grown in the worker's buffers: a block is
		// short, and the arena would hold the function's length) and the
		// operand buffer
		blk: g.sc.genOpt.mblk[:0], wr: g.sc.genOpt.mwr[:0], refs: take[core.RegRef](g.sc, 32)[:0]}
	defer func() { g.sc.genOpt.mblk, g.sc.genOpt.mwr = m.blk[:0], m.wr[:0] }()
	clear(m.nDef)
	clear(m.nUse)
	// wrOf: what each instruction writes (result), filled by the
	// counting walk when there is one.
	var wrOf []ir.RegID
	verify := g.p != nil && g.p.Config != nil && g.p.Config.Verify
	if g.duEdits != nil && g.du.NumRegs() == f.NumRegs() {
		// The counts are the def-use chains' (computed by this round's
		// global walk) with the uses its copy propagation moved since:
		// no walk over the function, and only the blocks walked below
		// need what their instructions write.
		for r := range f.NumRegs() {
			m.nDef[r] = int32(len(g.du.Defs(ir.RegID(r))))
			m.nUse[r] = int32(len(g.du.Uses(ir.RegID(r))))
		}
		for _, e := range g.duEdits {
			m.nUse[e.r] += e.d
		}
		g.duEdits = nil
		if verify {
			m.checkCounts()
		}
		// What each instruction writes is found when its block is
		// walked below: the blocks walked are those marked after the
		// flush and markMergeUses, which can mark blocks the marks did
		// not hold yet (filled before them, those blocks' entries were
		// left zero, saying "writes register 0", and a merge across a
		// real write of its register could pass).
	} else {
		// One pass over the function: the counts, and what each
		// instruction writes.
		wrOf = take[ir.RegID](g.sc, len(f.Op))
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				wrOf[i] = m.result(i)
				for _, x := range m.refs {
					if x.Def {
						m.nDef[x.Reg]++
					} else {
						m.nUse[x.Reg]++
					}
				}
			}
		}
	}
	n := int64(0)
	var markedBefore []bool // check mode: the blocks marked before the flush
	if verify {
		markedBefore = make([]bool, f.NumBlocks())
		for _, b := range f.Layout {
			markedBefore[b] = g.blockMarked(b)
		}
	}
	g.flush() // what the global walk's edits reach (generalopt_dirty.go)
	g.markMergeUses(m.nUse)
	for _, b := range f.Layout {
		if !g.blockMarked(b) {
			continue
		}
		if verify && !markedBefore[b] && g.h != nil {
			g.h.mergeLateBlocks.Add(1)
		}
		m.blk, m.wr = m.blk[:0], m.wr[:0]
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			m.pos[i] = int32(len(m.blk))
			m.blk = append(m.blk, i)
			if wrOf != nil {
				m.wr = append(m.wr, wrOf[i])
			} else {
				m.wr = append(m.wr, m.result(i))
			}
		}
		if verify {
			m.checkWrites()
		}
		// From the block's end: the last top of two equal chains is seen
		// before its own nodes, so whole chains merge (a node seen first
		// would merge alone, leaving its copy between the tops).
		for k := len(m.blk) - 1; k >= 0; k-- {
			j := m.blk[k]
			if !m.node(j) || f.InstrProps(j).Has(ir.PCopy) {
				continue // copies are CopyProp's
			}
			for q := k - 1; q >= 0 && q >= k-mergeWindow; q-- {
				i := m.blk[q]
				if !m.sameShape(i, j) {
					continue
				}
				if m.quick(i, j) && m.equal(i, j) {
					// a copy of the registers' own type (the form's type
					// may be narrower: mul.wide, cvt)
					di, dst := f.Ops(i)[0].Reg(), f.Ops(j)[0]
					t := movTypeFor(f.RegType[dst.Reg()])
					if f.RegType[di] != f.RegType[dst.Reg()] {
						t = bitTypeOf(t.Bits())
					}
					g.touch(j)
					f.SetOps(j, []ir.Operand{dst, ir.RegOp(di)})
					f.SetFormSameEdges(j, ir.Form{Op: ir.OpMov, Type: t})
					n++
				}
				break // the nearest one of the shape decides
			}
		}
	}
	return n
}

// result says what instruction i writes: its one register result,
// mergeMany for several or an opaque instruction, NoReg for none (it
// leaves i's references in m.refs).
func (m *merger) result(i ir.InstrID) ir.RegID {
	f := m.g.f
	w := ir.NoReg
	m.refs = core.AppendRegRefs(f, i, m.refs[:0])
	for _, x := range m.refs {
		if x.Def {
			if w != ir.NoReg {
				w = mergeMany
			} else {
				w = x.Reg
			}
		}
	}
	if f.InstrProps(i).Has(ir.POpaque) {
		w = mergeMany
	}
	return w
}

// checkWrites (check mode) panics (the driver reports the phase) when
// what the block under way lists for a position is not what its
// instruction writes: a stale entry would let a merge pass over a write.
func (m *merger) checkWrites() {
	for k, i := range m.blk {
		if w := m.wr[k]; w != m.result(i) {
			panic(fmt.Sprintf("MergeEquivalentConditionalFlow: instruction %d listed as writing register %d, it writes %d", i, w, m.result(i)))
		}
	}
}

// checkCounts (check mode) recounts definitions and uses in one walk and
// panics (the driver reports the phase) when the counts from the chains
// differ: a use moved without being recorded.
func (m *merger) checkCounts() {
	f := m.g.f
	nDef, nUse := make([]int32, f.NumRegs()), make([]int32, f.NumRegs())
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			m.refs = core.AppendRegRefs(f, i, m.refs[:0])
			for _, x := range m.refs {
				if x.Def {
					nDef[x.Reg]++
				} else {
					nUse[x.Reg]++
				}
			}
		}
	}
	for r := range nDef {
		if nDef[r] != m.nDef[r] || nUse[r] != m.nUse[r] {
			panic(fmt.Sprintf("MergeEquivalentConditionalFlow: register %d counted %d defs, %d uses from the chains, %d and %d by a walk", r, m.nDef[r], m.nUse[r], nDef[r], nUse[r]))
		}
	}
}

// node reports whether instruction x may be a node of a chain: pure, one
// plain register result, a guard that is a plain predicate register.
func (m *merger) node(x ir.InstrID) bool {
	f := m.g.f
	if f.IsDead(x) || f.InstrProps(x)&(ir.PReadsMem|ir.PSideEffect|ir.PBranch|noRewrite) != 0 || !f.InstrProps(x).Has(ir.PPure) {
		return false
	}
	ops := f.Ops(x)
	if len(ops) < 2 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() || ops[0].Flags() != 0 || !m.g.plainReg(ops[0].Reg()) {
		return false
	}
	for _, o := range ops[1:] {
		if o.IsDef() {
			return false // a second result
		}
	}
	if gd := f.Guard[x]; gd != ir.NoOperand && (!gd.IsReg() || gd.Flags()&^ir.FlagNot != 0) {
		return false
	}
	return true
}

// sameShape: the same form and operand count (guards compared apart).
func (m *merger) sameShape(x, y ir.InstrID) bool {
	f := m.g.f
	return x != y && f.Op[x] == f.Op[y] && f.Type[x] == f.Type[y] && f.Type2[x] == f.Type2[y] &&
		f.Space[x] == f.Space[y] && f.Mods[x] == f.Mods[y] && f.OpCount[x] == f.OpCount[y] && f.Guard[x] == f.Guard[y] && m.node(x)
}

// equal compares the chains of I and J (J after I in the block) and
// checks what must hold between them.
func (m *merger) equal(i, j ir.InstrID) bool {
	f := m.g.f
	di, dj := f.Ops(i)[0].Reg(), f.Ops(j)[0].Reg()
	if di == dj || m.written(di, m.pos[i]+1, m.pos[j]) {
		return false
	}
	if f.RegType[dj].Bits() != f.RegType[di].Bits() || (f.RegType[dj] == ir.TPred) != (f.RegType[di] == ir.TPred) {
		return false
	}
	m.lowest = m.pos[i]
	if !m.sources(i, j, f.Guard[i], mergeDepth) {
		return false
	}
	if gd := f.Guard[i]; gd != ir.NoOperand && m.written(gd.Reg(), m.lowest, m.pos[j]) {
		return false
	}
	return true
}

// sources compares the sources of x and y (same shape) at depth d.
func (m *merger) sources(x, y ir.InstrID, top ir.Operand, d int) bool {
	f := m.g.f
	ox, oy := f.Ops(x), f.Ops(y)
	for k := 1; k < len(ox); k++ {
		if !m.operand(x, y, ox[k], oy[k], top, d) {
			return false
		}
	}
	return true
}

// operand compares source a of x with source b of y.
func (m *merger) operand(x, y ir.InstrID, a, b ir.Operand, top ir.Operand, d int) bool {
	f := m.g.f
	if a.Kind() != b.Kind() || a.Flags() != b.Flags() {
		return false
	}
	switch a.Kind() {
	case ir.KImm:
		return a == b || f.Imms[a.Index()] == f.Imms[b.Index()]
	case ir.KSym:
		return a == b // an address: the same everywhere
	case ir.KReg:
	default:
		return false
	}
	ra, rb := a.Reg(), b.Reg()
	if f.RegVec[ra] != 0 || f.RegVec[rb] != 0 {
		return false
	}
	px, py := m.pos[x], m.pos[y]
	if ra == rb {
		lo, hi := min(px, py), max(px, py)
		return !m.written(ra, lo, hi)
	}
	if d == 0 || m.nDef[rb] != 1 || m.nUse[rb] != 1 {
		return false
	}
	dx, ok1 := m.lastWriter(ra, px)
	dy, ok2 := m.lastWriter(rb, py)
	if !ok1 || !ok2 || dx == dy || !m.sameShape(dx, dy) || f.Ops(dx)[0].Reg() != ra || f.Ops(dy)[0].Reg() != rb {
		return false
	}
	if gd := f.Guard[dx]; gd != ir.NoOperand && gd != top {
		return false
	}
	m.lowest = min(m.lowest, m.pos[dx], m.pos[dy])
	return m.sources(dx, dy, top, d-1)
}

// written reports whether an instruction at a position in [lo, hi) of the
// block writes register r.
func (m *merger) written(r ir.RegID, lo, hi int32) bool {
	for p := lo; p < hi; p++ {
		if w := m.wr[p]; w == r || w == mergeMany && m.writes(m.blk[p], r) {
			return true
		}
	}
	return false
}

// mergeMany marks a position that writes several registers (or is opaque).
const mergeMany = ir.RegID(1<<32 - 2)

// writes reports whether instruction x (several results, or opaque)
// writes r.
func (m *merger) writes(x ir.InstrID, r ir.RegID) bool {
	f := m.g.f
	if f.InstrProps(x).Has(ir.POpaque) {
		return true
	}
	m.refs = core.AppendRegRefs(f, x, m.refs[:0])
	for _, e := range m.refs {
		if e.Def && e.Reg == r {
			return true
		}
	}
	return false
}

// lastWriter returns the last instruction before position p of the block
// that writes r (within mergeWindow); none past an opaque one.
func (m *merger) lastWriter(r ir.RegID, p int32) (ir.InstrID, bool) {
	for q := p - 1; q >= 0 && q >= p-mergeWindow; q-- {
		w := m.wr[q]
		if w == r {
			return m.blk[q], true
		}
		if w == mergeMany && m.writes(m.blk[q], r) {
			if m.g.f.InstrProps(m.blk[q]).Has(ir.POpaque) {
				return ir.NoInstr, false
			}
			return m.blk[q], true
		}
	}
	return ir.NoInstr, false
}

// quick rejects most pairs of the same shape before the deep comparison:
// sources of different kinds or flags, different immediates, or
// different registers where J's is not a single-use temporary.
func (m *merger) quick(i, j ir.InstrID) bool {
	f := m.g.f
	oi, oj := f.Ops(i), f.Ops(j)
	for k := 1; k < len(oi); k++ {
		a, b := oi[k], oj[k]
		if a == b {
			continue
		}
		if a.Kind() != b.Kind() || a.Flags() != b.Flags() {
			return false
		}
		switch a.Kind() {
		case ir.KImm:
			if f.Imms[a.Index()] != f.Imms[b.Index()] {
				return false
			}
		case ir.KReg:
			if r := b.Reg(); m.nDef[r] != 1 || m.nUse[r] != 1 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
