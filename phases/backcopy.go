package phases

import (
	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Back copy propagation (OriBackCopyPropagate, BackCopyPropBudget): for
// "op %t, …; mov %d, %t;" in one block, with %t dead after the move,
// define %d directly and drop the move. AdvancedPhaseBackPropVReg is
// ptxas's per-target hook in front of it; no target overrides it here.
//
// Purpose: leaving SSA and -O0-style PTX put a move after many
// definitions; forward copy propagation cannot remove a copy whose
// destination is live on (it is the value's real home, e.g. a loop
// variable), but renaming the definition backwards can.
//
// Preconditions: none. The IR is not assumed to be in SSA form: registers
// may be written many times, and a guarded write keeps the old value in
// the lanes whose guard is false.
//
// The rule. In one block, I … C where
//
//	C = "mov.x %d, %t": unguarded, a plain copy (PCopy: one register
//	    source of the destination's width), no operand flag, %t != %d,
//	    neither a .reg parameter nor a vector register, not volatile.
//	I: unguarded; not volatile, convergent, carry-chain, a call,
//	    asynchronous, opaque or pseudo; its only register definition is
//	    %t, written as a plain top-level operand (not in a list, no flag);
//	    not "mov %t, %d".
//
// I is rewritten to write %d and C is deleted when
//
//	(1) %t is not live after C (per-instruction liveness: a backward walk
//	    from the block's live-out set, where a guarded definition kills
//	    nothing and an opaque instruction kills nothing);
//	(2) no instruction strictly between I and C names %t or %d at all
//	    (read or write, guard, address, list, any operand);
//	(3) the types fit: %d's type equals %t's, or %d may stand where %t
//	    stood (regsInterchangeable) and I's type is as wide as %t (so no
//	    instruction widens into the register, where the register's type
//	    could choose between sign and zero extension).
//
// Why it computes the same thing, per lane. Both I and C are unguarded
// and in one block, so every lane that runs one runs the other, in that
// order (a block has no branch inside; a lane that faults or exits in
// between leaves registers nobody reads). Before: %d keeps its old value
// on (I, C) and gets I's result at C; %t holds I's result from I on.
// After: %d holds I's result from I on, %t keeps what it had before I.
//   - %d: by (2) nobody reads %d on (I, C), so its early change is seen
//     by no one; from C on it has the same value as before. I itself may
//     read %d: PTX reads every source before writing the destination, so
//     I still reads the old value (I's only definition is %t, so I did
//     not write %d either).
//   - %t: it is read on (I, C) by nobody (2), at C by C, which is gone,
//     and after C by nobody before a redefinition (1). A read of %t by I
//     itself reads the value from before I, both times. So %t's value
//     after I matters to no one, and other lanes never saw it (registers
//     are per lane).
//   - Nobody else's writes move: (2) also excludes writes of %t or %d in
//     between, which would otherwise be overtaken (a write of %d in
//     between would be lost after C before, and would now overwrite I's
//     result) or exposed.
//   - Exactly one definition (a setp with "%p|%q" writes two, a vector
//     load writes a list): renaming one of several results would be
//     correct too, but a list or a second definition complicates (2) and
//     (3) and is left alone. Carry-chain, volatile, convergent, call,
//     async, opaque and pseudo instructions keep their exact operands by
//     policy (as in GeneralOptimize); an opaque instruction may write
//     registers it does not mark as definitions, so it is also never
//     trusted to kill a register in (1).
//   - .reg parameters and vector registers are names with a meaning
//     beyond the function body (the ABI, a vector's elements): never
//     renamed to or from.
//
// Liveness of every other register is unchanged by a rewrite outside
// [I, C], and inside it only %t and %d change as argued, so one liveness
// computation serves every rewrite of the function; chains
// ("op %a; mov %b, %a; mov %c, %b") fold as the walk goes on, because
// the rewritten I becomes the last definition of %d.
//
// Budget: BackCopyPropBudget copies removed per function; counter
// "copies removed". Cost: one liveness computation and two linear walks.
//
//	before:  add.s32 %r1, %r5, %r6; mov.b32 %r2, %r1;
//	after:   add.s32 %r2, %r5, %r6;

// advancedBackPropVReg: AdvancedPhaseBackPropVReg, the per-target gate in
// front of OriBackCopyPropagate (seed 000: ptxas's phase 83 is a no-op
// unless an SM backend overrides phase 82). The gate is the knob of the
// same name, which the SM profile sets (on from sm_70, off before) and
// --knob AdvancedPhaseBackPropVReg=true|false forces; OriBackCopyPropagate
// reads it and does nothing while it is off. The slot itself rewrites
// nothing: the algorithm is OriBackCopyPropagate's.
func advancedBackPropVReg(p *Pass) bool { return false }

// backCopyPropagate: OriBackCopyPropagate (see the file comment).
func backCopyPropagate(p *Pass) bool {
	f := p.F
	budget := p.Knobs.Budget(BackCopyPropBudget)
	if !p.Knobs.Bool(BackPropVReg) || budget <= 0 || f.NumInstrs() == 0 {
		return false
	}
	b := &backCopy{f: f, sc: p.Scratch}
	if b.rewrite(1, true) == 0 {
		// No copy meets the rule's local conditions even if every copy's
		// source died there: nothing to rename into, no liveness needed.
		p.FixedPoint()
		return false
	}
	b.markDyingCopies(p.A.Liveness())
	n := b.rewrite(budget, false)
	if n > 0 {
		p.Count("copies removed", n)
	}
	return n > 0
}

// backCopy is one run's state; its arrays are borrowed from the scratch
// arena.
type backCopy struct {
	f    *ir.Func
	sc   *Scratch
	refs []core.RegRef
	// dying has the copies C (instruction IDs) whose source is not live
	// after them: condition (1).
	dying bitvec.BitVector
}

// copyRegs returns d and t when instruction i is a candidate copy C.
func (b *backCopy) copyRegs(i ir.InstrID) (d, t ir.RegID, ok bool) {
	f := b.f
	if f.Op[i] != ir.OpMov || f.Guard[i] != ir.NoOperand {
		return ir.NoReg, ir.NoReg, false
	}
	if pr := f.InstrProps(i); !pr.Has(ir.PCopy) || pr&noRewrite != 0 {
		return ir.NoReg, ir.NoReg, false
	}
	ops := f.Ops(i)
	if len(ops) != 2 || ops[0].Kind() != ir.KReg || ops[1].Kind() != ir.KReg ||
		ops[0].Flags() != 0 || ops[1].Flags() != 0 || !ops[0].IsDef() || ops[1].IsDef() {
		return ir.NoReg, ir.NoReg, false
	}
	d, t = ops[0].Reg(), ops[1].Reg()
	if d == t || !b.plainReg(d) || !b.plainReg(t) || !regsInterchangeable(f.RegType[d], f.RegType[t]) {
		return ir.NoReg, ir.NoReg, false
	}
	return d, t, true
}

func (b *backCopy) plainReg(r ir.RegID) bool {
	return b.f.RegVec[r] == 0 && b.f.RegParam(r) == ir.NoSym
}

// markDyingCopies computes liveness and walks each block backwards from
// its live-out set, marking the candidate copies whose source is dead
// after them.
//
//	live = live_out(b)
//	for i from last to first:
//	    if i is a candidate "mov d, t" and t ∉ live: mark i
//	    live = (live − kills(i)) ∪ uses(i)
//
// where a guarded or opaque instruction kills nothing.
func (b *backCopy) markDyingCopies(l *core.Liveness) {
	f := b.f
	b.dying = b.sc.Bits(f.NumInstrs())
	// A register's state is looked up in the block's live-out set the first
	// time the walk meets it, and kept under the block's stamp afterwards.
	nr := f.NumRegs()
	known := take[uint32](b.sc, nr)
	live := take[bool](b.sc, nr)
	var out core.OutSet
	st := uint32(0)
	isLive := func(r ir.RegID) bool {
		if known[r] != st {
			known[r] = st
			live[r] = out.Has(r)
		}
		return live[r]
	}
	for _, blk := range f.Layout {
		st++
		l.Out(blk, &out)
		for i := f.BlockLast[blk]; i != ir.NoInstr; i = f.Prev[i] {
			if _, t, ok := b.copyRegs(i); ok && !isLive(t) {
				b.dying.Set(int(i))
			}
			b.refs = core.AppendRegRefs(f, i, b.refs[:0])
			opaque := f.InstrProps(i).Has(ir.POpaque)
			if f.Guard[i] == ir.NoOperand && !opaque {
				for _, x := range b.refs {
					if x.Def {
						isLive(x.Reg)
						live[x.Reg] = false
					}
				}
			}
			for _, x := range b.refs {
				if !x.Def || opaque {
					isLive(x.Reg)
					live[x.Reg] = true
				}
			}
		}
	}
}

// soleDef returns the register I writes and where, when instruction i may
// be an I of the rule (the type check (3) needs d and comes later).
func (b *backCopy) soleDef(i ir.InstrID) (t ir.RegID, at core.Loc, ok bool) {
	f := b.f
	if f.Guard[i] != ir.NoOperand || f.InstrProps(i)&noRewrite != 0 {
		return ir.NoReg, 0, false
	}
	n := 0
	for _, x := range b.refs {
		if x.Def {
			t, at = x.Reg, x.Loc
			n++
		}
	}
	if n != 1 || at.IsGuard() || at.InList() || !b.plainReg(t) {
		return ir.NoReg, 0, false
	}
	if o := core.OperandAt(f, i, at); o.Kind() != ir.KReg || o.Flags() != 0 {
		return ir.NoReg, 0, false
	}
	return t, at, true
}

// typesFit is condition (3): I, writing t, may write d instead.
func (b *backCopy) typesFit(i ir.InstrID, d, t ir.RegID) bool {
	f := b.f
	td, tt := f.RegType[d], f.RegType[t]
	if td == tt {
		return true
	}
	return regsInterchangeable(tt, td) && f.Type[i].Bits() == tt.Bits() && f.Type2[i] == ir.TNone
}

// rewrite walks each block forward and applies the rule to the marked
// copies, at most budget times, returning how many copies it removed.
//
// Per register r it keeps (positions count instructions over the whole
// walk, so a position of an earlier block is smaller than any of this
// one): last[r], the position of the last instruction naming r; def[r],
// 1 + the last instruction defining r when that instruction may be an I
// (0 otherwise), and defPos[r], its position. Condition (2) for C =
// "mov d, t" and I = def[t]-1 in the same block is then last[t] ==
// defPos[t] (nothing named t after I) and last[d] <= defPos[t] (nothing
// named d after I; I itself may read d).
//
// With dry set it changes nothing: it takes every copy for dying and
// reports 1 at the first that would be rewritten (the cheap test that
// decides whether liveness is worth computing), 0 when none would.
func (b *backCopy) rewrite(budget int64, dry bool) int64 {
	f := b.f
	nr := f.NumRegs()
	last, def, defPos := b.sc.U32(nr), b.sc.U32(nr), b.sc.U32(nr)
	pos := uint32(0)
	n := int64(0)
	for _, blk := range f.Layout {
		for i := f.BlockFirst[blk]; i != ir.NoInstr; {
			next := f.Next[i]
			pos++
			if budget > 0 && (dry || b.dying.Test(int(i))) {
				if d, t, ok := b.copyRegs(i); ok && def[t] != 0 {
					j := ir.InstrID(def[t] - 1)
					if f.Block[j] == blk && last[t] == defPos[t] && last[d] <= defPos[t] &&
						!b.movFrom(j, d) && b.typesFit(j, d, t) {
						if dry {
							return 1
						}
						b.refs = core.AppendRegRefs(f, j, b.refs[:0])
						_, at, _ := b.soleDef(j)
						o := core.OperandAt(f, j, at)
						core.SetOperandAt(f, j, at, o.WithIndex(uint32(d)))
						f.Remove(i)
						// j is now the last definition of d, and a
						// possible I for a later "mov e, d".
						dp := defPos[t]
						def[t] = 0
						def[d], defPos[d], last[d] = uint32(j)+1, dp, dp
						budget--
						n++
						i = next
						continue
					}
				}
			}
			b.refs = core.AppendRegRefs(f, i, b.refs[:0])
			for _, x := range b.refs {
				last[x.Reg] = pos
				if x.Def {
					def[x.Reg] = 0
				}
			}
			if t, _, ok := b.soleDef(i); ok {
				def[t], defPos[t] = uint32(i)+1, pos
			}
			i = next
		}
	}
	return n
}

// movFrom reports whether instruction i is "mov %t, %d": renaming it
// would make a move of %d onto itself.
func (b *backCopy) movFrom(i ir.InstrID, d ir.RegID) bool {
	f := b.f
	if f.Op[i] != ir.OpMov {
		return false
	}
	ops := f.Ops(i)
	return len(ops) == 2 && ops[1].Kind() == ir.KReg && ops[1].Reg() == d
}
