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
// with a segment tree of range additions and range maxima over chunks of
// 16 positions (chunkTree): O(log n + 16) per commoning, about 5 bytes
// per instruction and class of scratch memory (a tree over the positions
// themselves took 16, and its deep levels were cache misses on large
// functions).
type gvnPressure struct {
	bound [2]int32 // the maximum per class on entry
	tree  [2]chunkTree
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

// chunkTree is maxTree over chunks of chunkSize consecutive positions:
// vals holds each position's value with the additions made to part of
// its chunk, the tree per chunk the largest of its vals plus the
// additions made to whole chunks. A position's value is its vals entry
// plus the additions on its chunk's path in the tree (pathAdd); the
// ends of a range are read in vals, its whole chunks in the tree.
type chunkTree struct {
	vals []int32
	t    maxTree
}

const chunkShift = 4
const chunkSize = 1 << chunkShift

// build takes vals (kept, and changed by add).
func (c *chunkTree) build(sc *Scratch, vals []int32) {
	c.vals = vals
	n := len(vals)
	m := takeRaw[int32](sc, (n+chunkSize-1)>>chunkShift)
	for k := range m {
		m[k] = c.base(int32(k))
	}
	c.t.build(sc, m)
}

// base is the largest vals entry of chunk k.
func (c *chunkTree) base(k int32) int32 {
	lo := int(k) << chunkShift
	hi := min(lo+chunkSize, len(c.vals))
	m := c.vals[lo]
	for _, v := range c.vals[lo+1 : hi] {
		m = max(m, v)
	}
	return m
}

// part is the largest value at positions l..r of one chunk.
func (c *chunkTree) part(l, r int32) int32 {
	m := c.vals[l]
	for _, v := range c.vals[l+1 : r+1] {
		m = max(m, v)
	}
	return m + c.t.pathAdd(l>>chunkShift)
}

// max returns the largest value at positions l..r.
func (c *chunkTree) max(l, r int32) int32 {
	cl, cr := l>>chunkShift, r>>chunkShift
	if cl == cr {
		return c.part(l, r)
	}
	m := max(c.part(l, cl<<chunkShift+chunkSize-1), c.part(cr<<chunkShift, r))
	if cl+1 <= cr-1 {
		m = max(m, c.t.max(cl+1, cr-1))
	}
	return m
}

// addPart adds w at positions l..r of one chunk.
func (c *chunkTree) addPart(l, r, w int32) {
	for p := l; p <= r; p++ {
		c.vals[p] += w
	}
	k := l >> chunkShift
	c.t.setLeaf(k, c.base(k))
}

// add adds w at positions l..r.
func (c *chunkTree) add(l, r, w int32) {
	cl, cr := l>>chunkShift, r>>chunkShift
	if cl == cr {
		c.addPart(l, r, w)
		return
	}
	c.addPart(l, cl<<chunkShift+chunkSize-1, w)
	c.addPart(cr<<chunkShift, r, w)
	if cl+1 <= cr-1 {
		c.t.add(cl+1, cr-1, w)
	}
}

// maxTree is a segment tree over positions 0..n-1 with range additions
// and range maxima. Nodes are numbered in pre-order (a node's left child
// follows it, its right child follows the left subtree), so n leaves take
// 2n-1 nodes; each node holds the maximum below it plus add, the
// additions made to all of it.
type maxTree struct {
	n        int32
	mx, lazy []int32
}

func (t *maxTree) build(sc *Scratch, vals []int32) {
	t.n = int32(len(vals))
	t.mx = takeRaw[int32](sc, 2*len(vals)) // build1 writes every node
	t.lazy = take[int32](sc, 2*len(vals))
	t.build1(0, 0, t.n-1, vals)
}

func (t *maxTree) build1(node, lo, hi int32, vals []int32) {
	if lo == hi {
		t.mx[node] = vals[lo]
		return
	}
	mid := (lo + hi) / 2
	left, right := node+1, node+2*(mid-lo+1)
	t.build1(left, lo, mid, vals)
	t.build1(right, mid+1, hi, vals)
	t.mx[node] = max(t.mx[left], t.mx[right])
}

// max returns the largest value at positions l..r.
func (t *maxTree) max(l, r int32) int32 { return t.max1(0, 0, t.n-1, l, r) }

func (t *maxTree) max1(node, lo, hi, l, r int32) int32 {
	if l <= lo && hi <= r {
		return t.mx[node]
	}
	mid := (lo + hi) / 2
	left, right := node+1, node+2*(mid-lo+1)
	m := int32(-1 << 30)
	if l <= mid {
		m = t.max1(left, lo, mid, l, r)
	}
	if r > mid {
		m = max(m, t.max1(right, mid+1, hi, l, r))
	}
	return m + t.lazy[node]
}

// add adds w at positions l..r.
func (t *maxTree) add(l, r, w int32) { t.add1(0, 0, t.n-1, l, r, w) }

// pathAdd returns the additions made to position k: the sum of the adds
// on the path from the root to its leaf.
func (t *maxTree) pathAdd(k int32) int32 {
	node, lo, hi := int32(0), int32(0), t.n-1
	s := int32(0)
	for {
		s += t.lazy[node]
		if lo == hi {
			return s
		}
		mid := (lo + hi) / 2
		if k <= mid {
			node, hi = node+1, mid
		} else {
			node, lo = node+2*(mid-lo+1), mid+1
		}
	}
}

// setLeaf makes position k's value v before the additions on its path
// (the additions stay).
func (t *maxTree) setLeaf(k, v int32) { t.set1(0, 0, t.n-1, k, v) }

func (t *maxTree) set1(node, lo, hi, k, v int32) {
	if lo == hi {
		t.mx[node] = v + t.lazy[node]
		return
	}
	mid := (lo + hi) / 2
	left, right := node+1, node+2*(mid-lo+1)
	if k <= mid {
		t.set1(left, lo, mid, k, v)
	} else {
		t.set1(right, mid+1, hi, k, v)
	}
	t.mx[node] = max(t.mx[left], t.mx[right]) + t.lazy[node]
}

func (t *maxTree) add1(node, lo, hi, l, r, w int32) {
	if l <= lo && hi <= r {
		t.mx[node] += w
		t.lazy[node] += w
		return
	}
	mid := (lo + hi) / 2
	left, right := node+1, node+2*(mid-lo+1)
	if l <= mid {
		t.add1(left, lo, mid, l, r, w)
	}
	if r > mid {
		t.add1(right, mid+1, hi, l, r, w)
	}
	t.mx[node] = max(t.mx[left], t.mx[right]) + t.lazy[node]
}

// countDeclined reports the commonings the estimate declined.
func (g *gvn) countDeclined() {
	if g.press != nil && g.press.declined > 0 {
		g.p.Count("not commoned: would raise the maximum live registers", g.press.declined)
	}
}
