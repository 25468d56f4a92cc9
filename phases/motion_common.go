package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// commonMoved is the local commoning that follows motion: hoisting into a
// preheader and sinking into a block put instructions side by side that
// computed one value in different places (two loops' "cvta.to.global
// %rd5, %rd1", two "mov.u32 %r7, %ctaid.x"), which GvnCse could not
// common where neither place dominated the other. In each block listed,
// an instruction equal to one of the commonWindow kill-class
// instructions before it (same mnemonic, types, state space and source
// operands; no guard; one result) is removed and its readers read the
// earlier result. In SSA form only: the earlier result is then the same
// value at every reader (it dominates the later one, which dominates
// its readers), provided every source register has one unguarded
// definition. Registers with several versions and readers inside
// vectors are left alone, as GvnCse's and reassociation's commoning do.
// It returns how many instructions it removed; the caller's analyses of
// instructions are dropped when it removed any, except, when ed is not
// nil, the def-use chains: ed then lists the edits (the caller brings
// the chains up to date: commonEdits). flags, when not nil, are the
// caller's per-register answers of operandsStable and
// touchesMultiVersion (computeRegFlags: the commoning changes neither
// answer for a register it leaves), read instead of each operand's
// definitions and versions.
func commonMoved(p *Pass, blocks []ir.BlockID, ed *commonEdits, flags []uint8) int64 {
	f := p.F
	if !p.SSA() || len(blocks) == 0 {
		return 0
	}
	var du *core.DefUse
	n := int64(0)
	seen := take[bool](p.Scratch, f.NumBlocks())
	num := takeRaw[int32](p.Scratch, f.NumInstrs()) // (each block numbered before it is read)
	var window [commonWindow]ir.InstrID
	for _, b := range blocks {
		if seen[b] {
			continue
		}
		seen[b] = true
		k := int32(0)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			num[i] = k
			k++
		}
		w := 0
		for i := f.BlockFirst[b]; i != ir.NoInstr; {
			next := f.Next[i]
			r, ok := sinkable(f, i)
			if !ok || flags == nil && touchesMultiVersion(p, i) || flags != nil && flagged(f, i, flags, regMulti, regMulti) {
				i = next
				continue
			}
			done := false
			for k := range min(w, commonWindow) {
				e := window[k]
				if !sameComputation(f, e, i) {
					continue
				}
				if du == nil {
					du = p.A.DefUse()
				}
				// Equal sources are equal values when each has one
				// unguarded definition (registers IntoSSA left alone may
				// be written between the two).
				if er := f.Ops(e)[0].Reg(); (f.Next[e] == i || liveAcross(f, du, er, b, num[i], num)) &&
					(flags == nil && operandsStable(f, i, du) || flags != nil && !flagged(f, i, flags, 0, regUnstable)) && canReplaceResult(f, du, r, er) && p.Allow() {
					replaceResult(f, du, r, er)
					if ed != nil {
						ed.from = append(ed.from, r)
						ed.to = append(ed.to, er)
						ed.regs = core.AppendRegRefs(f, i, ed.regs)
					}
					f.Remove(i)
					n++
					done = true
					break
				}
			}
			if !done {
				window[w%commonWindow] = i
				w++
			}
			i = next
		}
	}
	if n > 0 {
		if ed != nil {
			p.A.Invalidate(instrAnalyses &^ ADefUse)
		} else {
			p.A.Invalidate(instrAnalyses)
		}
	}
	return n
}

// commonEdits are commonMoved's edits, for a caller that keeps the
// def-use chains: the readers of from[k] read to[k] now, and the
// instructions that defined from were removed (regs: their references).
// The chains, left as they were before the edits, are brought up to date
// by dropping the removed instructions' references (DropDead) and moving
// the rows of from into those of to (MoveUses).
type commonEdits struct {
	from, to []ir.RegID
	regs     []core.RegRef
}

// liveAcross reports whether r (defined in block b) is read after the
// instruction numbered at in b, or outside b: its live range covers that
// instruction, so giving it the readers of an equal value defined there
// lengthens no live range (it only ends the other one).
func liveAcross(f *ir.Func, du *core.DefUse, r ir.RegID, b ir.BlockID, at int32, num []int32) bool {
	for _, u := range du.Uses(r) {
		if f.Block[u.Instr] != b || num[u.Instr] > at {
			return true
		}
	}
	return false
}

// commonWindow: how many earlier candidates of its block an instruction
// is compared with (motion leaves the equal ones side by side).
const commonWindow = 8

// canReplaceResult: the readers of r may read e instead: r and e have one
// definition each, the same type, and no reader holds r inside a vector
// or a PHI.
func canReplaceResult(f *ir.Func, du *core.DefUse, r, e ir.RegID) bool {
	if r == e || f.RegType[r] != f.RegType[e] || len(du.Defs(r)) != 1 || len(du.Defs(e)) != 1 {
		return false
	}
	uses := du.Uses(r)
	for _, u := range uses {
		if u.Loc.InList() || f.IsDead(u.Instr) || f.Op[u.Instr] == ir.OpPhi {
			return false
		}
	}
	return true
}

// replaceResult makes the readers of r read e.
func replaceResult(f *ir.Func, du *core.DefUse, r, e ir.RegID) {
	for _, u := range du.Uses(r) {
		o := core.OperandAt(f, u.Instr, u.Loc)
		core.SetOperandAt(f, u.Instr, u.Loc, o.WithIndex(uint32(e)))
	}
}

// sameComputation reports whether a and b compute the same value from
// the same sources: equal forms and equal source operands.
func sameComputation(f *ir.Func, a, b ir.InstrID) bool {
	if f.Op[a] != f.Op[b] || f.Mnemonic[a] != f.Mnemonic[b] || f.Type[a] != f.Type[b] ||
		f.Type2[a] != f.Type2[b] || f.Space[a] != f.Space[b] || f.Mods[a] != f.Mods[b] {
		return false
	}
	x, y := f.Ops(a), f.Ops(b)
	if len(x) != len(y) {
		return false
	}
	for k := 1; k < len(x); k++ {
		if !sameSource(f, x[k], y[k]) {
			return false
		}
	}
	return true
}

// sameSource compares two source operands by value.
func sameSource(f *ir.Func, a, b ir.Operand) bool {
	if a.Kind() != b.Kind() || a.Flags() != b.Flags() || a.IsDef() || b.IsDef() {
		return false
	}
	switch a.Kind() {
	case ir.KImm:
		return f.Imms[a.Index()] == f.Imms[b.Index()]
	case ir.KAddr:
		x, y := f.Addrs[a.Index()], f.Addrs[b.Index()]
		return x.Off == y.Off && x.HasOff == y.HasOff && sameSources(f, x.Elems, y.Elems)
	case ir.KList:
		return sameSources(f, a.Index(), b.Index())
	case ir.KSink:
		return false
	}
	return a.Index() == b.Index()
}

func sameSources(f *ir.Func, x, y uint32) bool {
	a, b := f.ListElems(x), f.ListElems(y)
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !sameSource(f, a[k], b[k]) {
			return false
		}
	}
	return true
}
