package sim

import (
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Guards: comparisons of an input with an immediate whose one outcome
// leads only to a trap (an assertion: Kokkos's size checks before a
// kernel's work, `if (n != 4) Kokkos::abort(...)`). An input drawn on the
// failing side stops every thread at the assertion, and the code after it
// (the kernel's work, and most of what the optimizer changed) never runs.
// The analysis finds, per function, the blocks from which every path
// traps, and for each conditional branch with exactly one such side the
// comparison that chose it; the input maker then draws the compared
// input on the passing side on most seeds (see inputGen.guarded). Both
// versions of a kernel still run the same input: the guards are read
// from the original alone.

// guard is one condition an input location must meet for a branch to
// avoid a trap, when the conditions on the same location that led to the
// branch (pre: the branches on the unique-predecessor path above it)
// hold: a cascade `if (t != 0) { if (t > 2) { if (t != 3) abort(); } }`
// lets t be 0, 1, 2 or 3, not only 3.
type guard struct {
	cond
	pre  [4]cond
	npre uint8
}

// holds reports whether value v meets the guard: one of its premises
// fails, or its condition holds.
func (gd *guard) holds(v uint64) bool {
	for k := range gd.npre {
		if !gd.pre[k].holds(v) {
			return true
		}
	}
	return gd.cond.holds(v)
}

// cond is a comparison's outcome: (value + off) op c == want, compared
// bits wide.
type cond struct {
	op     uint8 // cmpEq ...
	signed bool
	bits   uint8
	want   bool
	off    int64
	c      uint64
}

const (
	cmpEq uint8 = iota
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

// cmpOp maps a setp comparison to its operator and whether it is
// signed for a signed type (lo/ls/hi/hs are unsigned whatever the type).
func cmpOp(name string) (op uint8, unsigned, ok bool) {
	switch name {
	case "eq":
		return cmpEq, false, true
	case "ne":
		return cmpNe, false, true
	case "lt":
		return cmpLt, false, true
	case "le":
		return cmpLe, false, true
	case "gt":
		return cmpGt, false, true
	case "ge":
		return cmpGe, false, true
	case "lo":
		return cmpLt, true, true
	case "ls":
		return cmpLe, true, true
	case "hi":
		return cmpGt, true, true
	case "hs":
		return cmpGe, true, true
	}
	return 0, false, false
}

// swapped is op with its operands exchanged (c op x as x op' c).
func swapped(op uint8) uint8 {
	switch op {
	case cmpLt:
		return cmpGt
	case cmpLe:
		return cmpGe
	case cmpGt:
		return cmpLt
	case cmpGe:
		return cmpLe
	}
	return op
}

// holds reports whether value v gives the comparison the outcome want.
func (gd *cond) holds(v uint64) bool {
	x, c := v+uint64(gd.off), gd.c
	if gd.bits < 64 {
		m := uint64(1)<<gd.bits - 1
		x, c = x&m, c&m
		if gd.signed {
			sh := 64 - gd.bits
			x, c = uint64(int64(x<<sh)>>sh), uint64(int64(c<<sh)>>sh)
		}
	}
	var r bool
	switch gd.op {
	case cmpEq:
		r = x == c
	case cmpNe:
		r = x != c
	default:
		var lt, eq bool
		if gd.signed {
			lt = int64(x) < int64(c)
		} else {
			lt = x < c
		}
		eq = x == c
		switch gd.op {
		case cmpLt:
			r = lt
		case cmpLe:
			r = lt || eq
		case cmpGt:
			r = !lt && !eq
		case cmpGe:
			r = !lt
		}
	}
	return r == gd.want
}

// predCmp is what a predicate register holds: the comparison of an input
// location (plus off) with an immediate.
type predCmp struct {
	loc    int32
	g      cond // want: the value the comparison yields for the predicate to be true
	negate bool // the predicate is the comparison's negation (setp's second destination)
}

type predKey struct {
	f *ir.Func
	r ir.RegID
}

// funcDoom is the trap analysis of one function's blocks.
type funcDoom struct {
	doomed []bool       // by block: every path from it traps
	next   []ir.BlockID // by block: the block after it in the layout
	preds  [][]ir.BlockID
	busy   bool // being computed (a recursive call does not trap)
}

// doomOf returns the trap analysis of f (made at its first use).
func (a *analyzer) doomOf(f *ir.Func) *funcDoom {
	if d, ok := a.doom[f]; ok {
		return d
	}
	nb := len(f.BlockFirst)
	d := &funcDoom{doomed: make([]bool, nb), next: make([]ir.BlockID, nb), busy: true}
	a.doom[f] = d
	for b := range d.next {
		d.next[b] = ir.NoBlock
	}
	for k := 0; k+1 < len(f.Layout); k++ {
		d.next[f.Layout[k]] = f.Layout[k+1]
	}
	traps := make([]bool, nb)
	succ := make([][]ir.BlockID, nb)
	open := make([]bool, nb) // a successor the analysis cannot name (brx.idx)
	for _, b := range f.Layout {
		fall := true
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.IsDead(i) {
				continue
			}
			mn := f.Str(f.Mnemonic[i])
			base, _, _ := strings.Cut(mn, ".")
			guarded := f.Guard[i] != ir.NoOperand
			switch base {
			case "trap":
				if !guarded {
					traps[b] = true
				}
			case "call":
				if !guarded && a.callTraps(f, i) {
					traps[b] = true
				}
			case "bra":
				for _, o := range f.Ops(i) {
					if o.Kind() == ir.KLabel {
						succ[b] = append(succ[b], ir.BlockID(o.Index()))
					}
				}
				if !guarded {
					fall = false
				}
			case "brx":
				open[b] = true
				if !guarded {
					fall = false
				}
			case "exit", "ret":
				if !guarded {
					fall = false
				}
			}
		}
		if fall && d.next[b] != ir.NoBlock {
			succ[b] = append(succ[b], d.next[b])
		}
	}
	// predecessors among the blocks reachable from the entry (a label
	// after an unconditional branch opens a block nothing reaches)
	reach := make([]bool, nb)
	if len(f.Layout) > 0 {
		work := []ir.BlockID{f.Layout[0]}
		reach[f.Layout[0]] = true
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, t := range succ[b] {
				if int(t) < nb && !reach[t] {
					reach[t] = true
					work = append(work, t)
				}
			}
		}
	}
	d.preds = make([][]ir.BlockID, nb)
	for _, b := range f.Layout {
		if !reach[b] {
			continue
		}
		for _, t := range succ[b] {
			if int(t) < nb {
				d.preds[t] = append(d.preds[t], b)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Layout {
			if d.doomed[b] {
				continue
			}
			v := traps[b]
			if !v && !open[b] && len(succ[b]) > 0 {
				v = true
				for _, s := range succ[b] {
					if int(s) >= nb || !d.doomed[s] {
						v = false
						break
					}
				}
			}
			if v {
				d.doomed[b] = true
				changed = true
			}
		}
	}
	d.busy = false
	return d
}

// callTraps reports whether call i of f calls a function every path of
// which traps (__assertfail, or a body whose entry is doomed).
func (a *analyzer) callTraps(f *ir.Func, i ir.InstrID) bool {
	for _, o := range f.Ops(i) {
		if o.Kind() != ir.KSym {
			continue
		}
		s := &f.Mod.Syms[o.Index()]
		if s.Kind != ir.SymFunc {
			continue
		}
		name := f.Str(s.Name)
		if name == "__assertfail" {
			return true
		}
		var g *ir.Func
		if int(s.Func) < len(f.Mod.Funcs) {
			g = f.Mod.Funcs[s.Func]
		}
		if g != nil && !g.HasBody {
			for _, h := range f.Mod.Funcs {
				if h.Name == g.Name && h.HasBody {
					g = h
					break
				}
			}
		}
		if g == nil || !g.HasBody || len(g.Layout) == 0 {
			return false
		}
		d := a.doomOf(g)
		return !d.busy && d.doomed[g.Layout[0]]
	}
	return false
}

// noteCmp records what the predicate destinations of setp i hold when it
// compares an input location with an immediate (integer types only), and
// forgets them otherwise.
func (a *analyzer) noteCmp(f *ir.Func, i ir.InstrID, rest string, dst, src []ir.Operand, t ir.Type) {
	var preds []ir.RegID
	for _, d := range dst {
		if d.Kind() == ir.KReg {
			preds = append(preds, d.Reg())
		}
	}
	for _, r := range preds {
		delete(a.pcmp, predKey{f, r})
	}
	if len(preds) == 0 || len(src) != 2 || t.IsFloat() || t.Bits() == 0 || t.Bits() > 64 {
		return
	}
	name, _, _ := strings.Cut(rest, ".")
	op, unsigned, ok := cmpOp(name)
	if !ok {
		return
	}
	x, y := src[0], src[1]
	if x.Kind() == ir.KImm && y.Kind() != ir.KImm {
		x, y = y, x
		op = swapped(op)
	}
	if y.Kind() != ir.KImm || x.Kind() != ir.KReg {
		return
	}
	v := a.val(f, x)
	if v.loc < 0 || v.scaled || !v.offKnown || v.addrOf || v.idx >= 0 || v.thread {
		return
	}
	g := cond{op: op, signed: !unsigned && t.IsSigned(), bits: uint8(t.Bits()), want: true, off: v.off, c: f.Imms[y.Index()].Bits}
	a.pcmp[predKey{f, preds[0]}] = predCmp{loc: v.loc, g: g}
	if len(preds) == 2 {
		a.pcmp[predKey{f, preds[1]}] = predCmp{loc: v.loc, g: g, negate: true}
	}
}

// noteBranch records the guard of conditional branch i of f when exactly
// one of its sides traps on every path and its predicate compares an
// input with an immediate.
func (a *analyzer) noteBranch(f *ir.Func, i ir.InstrID) {
	g := f.Guard[i]
	if g == ir.NoOperand || g.Kind() != ir.KReg {
		return
	}
	pc, ok := a.pcmp[predKey{f, g.Reg()}]
	if !ok {
		return
	}
	b := f.Block[i]
	if b == ir.NoBlock || f.BlockLast[b] != i {
		return
	}
	var target ir.BlockID = ir.NoBlock
	for _, o := range f.Ops(i) {
		if o.Kind() == ir.KLabel {
			target = ir.BlockID(o.Index())
		}
	}
	d := a.doomOf(f)
	fall := d.next[b]
	if target == ir.NoBlock || fall == ir.NoBlock || int(target) >= len(d.doomed) {
		return
	}
	var taken bool // the branch must be taken to avoid the trap
	switch {
	case d.doomed[target] && !d.doomed[fall]:
		taken = false
	case d.doomed[fall] && !d.doomed[target]:
		taken = true
	default:
		return
	}
	// taken iff pred != negated guard; pred is cmp (or !cmp)
	wantPred := taken != g.Has(ir.FlagNot)
	var gd guard
	gd.cond = pc.g
	gd.want = wantPred != pc.negate
	// the premises: branches on the same location above b, each on the
	// side that leads here
	cur := b
	for step := 0; step < 32 && gd.npre < uint8(len(gd.pre)); step++ {
		ps := d.preds[cur]
		if len(ps) != 1 {
			break
		}
		p := ps[0]
		if c, ok := a.branchCond(f, d, p, cur, pc.loc); ok {
			gd.pre[gd.npre] = c
			gd.npre++
		}
		cur = p
	}
	l := &a.k.locs[pc.loc]
	for _, h := range l.guards {
		if h == gd {
			return
		}
	}
	if len(l.guards) < 8 {
		l.guards = append(l.guards, gd)
	}
}

// branchCond returns the condition on location loc under which block p's
// conditional branch goes to its successor to.
func (a *analyzer) branchCond(f *ir.Func, d *funcDoom, p, to ir.BlockID, loc int32) (cond, bool) {
	i := f.BlockLast[p]
	if i == ir.NoInstr || f.IsDead(i) {
		return cond{}, false
	}
	base, _, _ := strings.Cut(f.Str(f.Mnemonic[i]), ".")
	g := f.Guard[i]
	if base != "bra" || g == ir.NoOperand || g.Kind() != ir.KReg {
		return cond{}, false
	}
	pc, ok := a.pcmp[predKey{f, g.Reg()}]
	if !ok || pc.loc != loc {
		return cond{}, false
	}
	var target ir.BlockID = ir.NoBlock
	for _, o := range f.Ops(i) {
		if o.Kind() == ir.KLabel {
			target = ir.BlockID(o.Index())
		}
	}
	if target == d.next[p] {
		return cond{}, false
	}
	taken := to == target
	wantPred := taken != g.Has(ir.FlagNot)
	c := pc.g
	c.want = wantPred != pc.negate
	return c, true
}
