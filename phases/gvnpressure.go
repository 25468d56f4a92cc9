package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Register pressure in GvnCse and LateOriCommoning. Commoning L with an
// earlier E makes E's result live until L: on a large kernel, values
// commoned across thousands of instructions pile up (measured on the
// generated kernel of 100,564 instructions: GvnCse alone took the
// maximum live data slots from 280 to 407 and the predicates from 66 to
// 83, 325 and 83 after the copies were propagated), and the register
// retry then reran the whole pipeline to undo the phase whole. So the
// walk keeps its own estimate and declines a commoning that would raise
// the function's maximum live registers (per class: 32-bit data slots,
// predicates) above what the phase found on entry; the others go ahead.
//
// The estimate: the pressure trace of the function on entry (the
// liveness of the analysis cache, per instruction in layout order), a
// live range taken as the layout interval from a register's definition
// to its last use, and a commoning of L with E charged the width of E's
// result over the positions after the current end of that interval up to
// L, or, when L is in a loop that does not hold E, up to the end of the
// outermost such loop (the value must then survive every iteration). A
// charge is kept once made, and the interval's end moves to it, so the
// charges of many commonings add up. What a commoning frees (L's sources
// may die earlier) is not credited: the estimate errs on the side of
// fewer commonings. It is an estimate (loops laid out apart from their
// header, a later use in another branch), not the retry's measure; the
// register cap of the pipeline still checks the result.
//
// Cost, paid at the first commoning: one liveness (usually cached by the
// live/dead sweep before), one trace, and per class the trace's values
// under a tree of fan-out 16 with range additions and range maxima
// (wideTree): a few cache lines per level over log16(n) levels per
// commoning, about 4.3 bytes per instruction and class of scratch memory.
type gvnPressure struct {
	bound [2]int32 // the maximum per class on entry
	tree  [2]wideTree
	lpos  []int32 // layout position of each instruction (gvn.lpos)
	// end1: per register, the end of its interval plus one (0: not yet
	// known, or, without du, no reference: gvn.defTables fills it for
	// every register), so the arena's zeroed memory is the unknown state; a
	// register's class and slots are read where it is charged (files,
	// core.RegSlots), not tabulated for every register.
	end1  []int32
	files []ir.File
	// blockEnd[b]: the layout position of b's last instruction (or of the
	// one before, for an empty block: gvn.blockEnd); loopEnd[l]: the
	// largest of its blocks'.
	blockEnd []int32
	loopEnd  []int32
	loops    *core.Loops
	du       *core.DefUse
	declined int64
}

// initPressure sets up g.press from the analysis cache.
func (g *gvn) initPressure() {
	f := g.f
	if !g.p.regCapSet {
		return
	}
	pr := &gvnPressure{}
	l := g.a.Liveness()
	pr.du = g.du // nil: g.end1 holds every register's interval end
	if pr.du == nil && g.end1 == nil {
		pr.du = g.a.DefUse() // mode 1: the walk reads no chains
	}
	pr.loops = g.a.Loops()
	// The walk's layout positions (g.lpos, g.blockEnd: no edit moves an
	// instruction, and the estimate starts before the first edit).
	n := 0
	if len(f.Layout) > 0 {
		n = int(g.blockEnd[f.Layout[len(f.Layout)-1]]) + 1
	}
	pr.lpos, pr.blockEnd = g.lpos, g.blockEnd
	if n == 0 {
		return
	}
	if pr.end1 = g.end1; pr.du != nil {
		pr.end1 = take[int32](g.sc, f.NumRegs())
	}
	pr.files = l.Files
	pr.loopEnd = take[int32](g.sc, len(pr.loops.Loops))
	for k := range pr.loops.Loops {
		e := int32(-1)
		for _, b := range pr.loops.Body(k) {
			e = max(e, pr.blockEnd[b])
		}
		pr.loopEnd[k] = e
	}
	// every position is written by the trace (it visits every placed
	// instruction) before the trees read it
	vals := [2][]int32{takeRaw[int32](g.sc, n), takeRaw[int32](g.sc, n)}
	mx := core.PressureTrace(l, func(i ir.InstrID, live [ir.NumFiles]int) {
		p := pr.lpos[i]
		vals[0][p], vals[1][p] = int32(live[ir.FileR]), int32(live[ir.FileP])
	}).Max
	pr.bound = [2]int32{int32(mx[ir.FileR]), int32(mx[ir.FileP])}
	for c := range pr.tree {
		pr.tree[c].build(g.sc, vals[c])
	}
	g.press = pr
}

// endOf is the end of r's interval: the last layout position among its
// definitions and uses (a PHI's operand is read at the end of the PHI's
// predecessors, taken here as the last of them all).
func (pr *gvnPressure) endOf(f *ir.Func, r ir.RegID) int32 {
	if e := pr.end1[r]; e > 0 {
		return e - 1
	}
	if pr.du == nil {
		return 0 // no definition or use (end1 is complete: gvn.defTables)
	}
	e := int32(0)
	for _, d := range pr.du.Defs(r) {
		e = max(e, pr.lpos[d.Instr])
	}
	for _, u := range pr.du.Uses(r) {
		i := u.Instr
		if f.Op[i] == ir.OpPhi {
			for _, p := range f.PredsOf(f.Block[i]) {
				e = max(e, pr.blockEnd[p])
			}
			continue
		}
		e = max(e, pr.lpos[i])
	}
	pr.end1[r] = e + 1
	return e
}

// pressureOK reports whether l may become a copy of e's result without
// the estimate rising above the bound, and if so charges it.
func (g *gvn) pressureOK(l, e ir.InstrID) bool {
	if !g.pressInit {
		// Set up at the first commoning, before any edit: a function
		// with nothing to common pays nothing.
		g.pressInit = true
		g.initPressure()
	}
	pr := g.press
	if pr == nil {
		return true
	}
	f := g.f
	d := f.Ops(e)[0].Reg()
	var c int
	switch pr.files[d] {
	case ir.FileR:
		c = 0
	case ir.FileP:
		c = 1
	default:
		return true
	}
	hi := pr.lpos[l]
	be, bl := f.Block[e], f.Block[l]
	if be != bl {
		// The outermost loop holding L and not E: the value lives
		// through all of it.
		ls := pr.loops
		out := int32(-1)
		for k := ls.Innermost[bl]; k >= 0; k = ls.Loops[k].Parent {
			if ls.Contains(int(k), be) {
				break
			}
			out = k
		}
		if out >= 0 {
			hi = max(hi, pr.loopEnd[out])
		}
	}
	lo := pr.endOf(f, d) + 1
	if hi < lo {
		return true
	}
	w := int32(uint8(core.RegSlots(f, d)))
	t := &pr.tree[c]
	if t.max(lo, hi)+w > pr.bound[c] {
		pr.declined++
		return false
	}
	t.add(lo, hi, w)
	pr.end1[d] = hi + 1
	return true
}

// wideTree holds a value per position under range additions and range
// maxima, as a tree of fan-out 16 kept level by level: level 0 is the
// positions' values, and item i of level k >= 1 covers items 16i..16i+15
// of level k-1, with mx[k][i] the largest of their values and adds[k][i]
// an addition made to all of it (a position's value is vals[p] plus the
// adds of the items above it). A range touches at most two partial
// groups of 16 per level, each one or two cache lines, so an operation
// reads a few lines per level over log16(n) levels; a binary segment tree
// (the estimate's first, then over chunks of 16 positions) went down 16
// levels on the 1M-instruction kernel, a node per level and two arrays
// per node.
type wideTree struct {
	mx, adds [][]int32 // per level; mx[0] is the positions' values, adds[0] unused
}

const wideShift = 4

// build takes vals (kept, and changed by add).
func (t *wideTree) build(sc *Scratch, vals []int32) {
	t.mx = append(t.mx[:0], vals)
	t.adds = append(t.adds[:0], nil)
	for prev := vals; len(prev) > 1; {
		m := takeRaw[int32](sc, (len(prev)+1<<wideShift-1)>>wideShift)
		for i := range m {
			lo := i << wideShift
			v := prev[lo]
			for _, x := range prev[lo+1 : min(lo+1<<wideShift, len(prev))] {
				v = max(v, x)
			}
			m[i] = v
		}
		t.mx = append(t.mx, m)
		t.adds = append(t.adds, take[int32](sc, len(m)))
		prev = m
	}
}

// item is item i of level k's value: its largest position's, with the
// adds of the items above it left out.
func (t *wideTree) item(k int, i int32) int32 {
	if k == 0 {
		return t.mx[0][i]
	}
	return t.mx[k][i] + t.adds[k][i]
}

// above is the sum of the adds of item i of level k and of the items
// above it.
func (t *wideTree) above(k int, i int32) int32 {
	s := int32(0)
	for ; k < len(t.mx); k++ {
		if k > 0 {
			s += t.adds[k][i]
		}
		i >>= wideShift
	}
	return s
}

// max returns the largest value at positions l..r.
func (t *wideTree) max(l, r int32) int32 { return t.max1(0, l, r) }

func (t *wideTree) max1(k int, l, r int32) int32 {
	if l>>wideShift == r>>wideShift {
		m := t.item(k, l)
		for i := l + 1; i <= r; i++ {
			m = max(m, t.item(k, i))
		}
		return m + t.above(k+1, l>>wideShift)
	}
	m := int32(-1 << 30)
	const low = 1<<wideShift - 1
	if l&low != 0 {
		m = t.max1(k, l, l|low)
		l = l | low + 1
	}
	if r&low != low {
		m = max(m, t.max1(k, r&^low, r))
		r = r&^low - 1
	}
	if l <= r {
		m = max(m, t.max1(k+1, l>>wideShift, r>>wideShift))
	}
	return m
}

// add adds w at positions l..r.
func (t *wideTree) add(l, r, w int32) { t.addAt(0, l, r, w) }

func (t *wideTree) addAt(k int, l, r, w int32) {
	if l>>wideShift == r>>wideShift {
		for i := l; i <= r; i++ {
			if k == 0 {
				t.mx[0][i] += w
			} else {
				t.adds[k][i] += w
			}
		}
		// the items above hold their children's largest value
		for k, i := k+1, l>>wideShift; k < len(t.mx); k, i = k+1, i>>wideShift {
			lo := i << wideShift
			v := t.item(k-1, lo)
			for c := lo + 1; c < min(lo+1<<wideShift, int32(len(t.mx[k-1]))); c++ {
				v = max(v, t.item(k-1, c))
			}
			if t.mx[k][i] == v {
				break // nothing above changes
			}
			t.mx[k][i] = v
		}
		return
	}
	const low = 1<<wideShift - 1
	if l&low != 0 {
		t.addAt(k, l, l|low, w)
		l = l | low + 1
	}
	if r&low != low {
		t.addAt(k, r&^low, r, w)
		r = r&^low - 1
	}
	if l <= r {
		t.addAt(k+1, l>>wideShift, r>>wideShift, w)
	}
}

// countDeclined reports the commonings the estimate declined.
func (g *gvn) countDeclined() {
	if g.press != nil && g.press.declined > 0 {
		g.p.Count("not commoned: would raise the maximum live registers", g.press.declined)
	}
}
