package core

import (
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// Loop is one natural loop: all back edges into one header merged.
type Loop struct {
	Header ir.BlockID
	Parent int32 // enclosing loop, -1 at top level
	Depth  int   // 1 for an outermost loop
	// Preheader is the unique predecessor of the header outside the loop
	// when it has the header as its only successor; NoBlock otherwise
	// (InsertPreheaders makes one).
	Preheader ir.BlockID
	// Irreducible is set when the loop contains (both ends of) a
	// retreating edge whose target does not dominate its source: an
	// irreducible cycle. Its natural-loop body is still exact, but the
	// inner cycle is not described as a loop.
	Irreducible bool
	latches     []ir.BlockID
}

// Latches returns the sources of the loop's back edges.
func (l *Loop) Latches() []ir.BlockID { return l.latches }

// Loops is the loop nest of a function.
type Loops struct {
	Loops []Loop
	// Innermost maps each block to the innermost loop holding it, -1 for
	// none.
	Innermost []int32
	// IrreducibleEdges lists retreating edges (target at or before the
	// source in RPO) whose target does not dominate the source. The graph
	// is reducible iff it is empty.
	IrreducibleEdges [][2]ir.BlockID
	// IrreducibleTop is set when an irreducible edge lies outside every
	// natural loop.
	IrreducibleTop bool
	body           csr // blocks of each loop, header first
}

// Body returns the blocks of loop l, header first.
func (ls *Loops) Body(l int) []ir.BlockID { return ls.body.of(ir.BlockID(l)) }

// Depth returns the loop nesting depth of b (0 outside loops).
func (ls *Loops) Depth(b ir.BlockID) int {
	if l := ls.Innermost[b]; l >= 0 {
		return ls.Loops[l].Depth
	}
	return 0
}

// Contains reports whether block b lies in loop l (at any depth).
func (ls *Loops) Contains(l int, b ir.BlockID) bool {
	for k := ls.Innermost[b]; k >= 0; k = ls.Loops[k].Parent {
		if int(k) == l {
			return true
		}
	}
	return false
}

// Reducible reports whether the CFG (restricted to reachable blocks) is
// reducible.
func (ls *Loops) Reducible() bool { return len(ls.IrreducibleEdges) == 0 }

// FindLoops computes the natural loops of f: for every header h, the
// latches are the predecessors h dominates, and the body is h plus every
// block reaching a latch without passing h (a backward search). Loops are
// then nested by size: processed from the largest body down, each loop's
// parent is the innermost loop seen so far that holds its header, which is
// exact because two natural loops are either nested or disjoint (same
// header means merged). Irreducible cycles have no header dominating the
// rest; they are reported through IrreducibleEdges and the Irreducible
// flag of the innermost loop holding both ends of the edge. Loops are
// numbered outermost-first (a parent's index is below its children's).
func FindLoops(f *ir.Func, dom *DomTree) *Loops {
	ensureCFG(f)
	nb := f.NumBlocks()
	ls := &Loops{Innermost: make([]int32, nb)}
	for i := range ls.Innermost {
		ls.Innermost[i] = -1
	}
	type raw struct {
		h       ir.BlockID
		latches []ir.BlockID
		body    []ir.BlockID
	}
	var loops []raw
	inBody := make([]int32, nb) // stamp: loop index + 1
	var work []ir.BlockID
	for _, h := range dom.Order {
		var latches []ir.BlockID
		for _, p := range f.PredsOf(h) {
			if !dom.Contains(p) {
				continue
			}
			if dom.Dominates(h, p) {
				latches = append(latches, p)
			} else if dom.Num[p] >= dom.Num[h] {
				ls.IrreducibleEdges = append(ls.IrreducibleEdges, [2]ir.BlockID{p, h})
			}
		}
		if len(latches) == 0 {
			continue
		}
		id := int32(len(loops)) + 1
		body := []ir.BlockID{h}
		inBody[h] = id
		work = work[:0]
		for _, l := range latches {
			if inBody[l] != id {
				inBody[l] = id
				body = append(body, l)
				work = append(work, l)
			}
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range f.PredsOf(b) {
				if inBody[p] != id && dom.Contains(p) {
					inBody[p] = id
					body = append(body, p)
					work = append(work, p)
				}
			}
		}
		loops = append(loops, raw{h, latches, body})
	}
	// Outermost first: larger bodies first; ties (disjoint loops) by RPO
	// of the header, for determinism.
	slices.SortStableFunc(loops, func(a, b raw) int {
		if len(a.body) != len(b.body) {
			return len(b.body) - len(a.body)
		}
		return int(dom.Num[a.h]) - int(dom.Num[b.h])
	})
	ls.Loops = make([]Loop, len(loops))
	ls.body.start = make([]uint32, len(loops)+1)
	for k, r := range loops {
		parent := ls.Innermost[r.h]
		depth := 1
		if parent >= 0 {
			depth = ls.Loops[parent].Depth + 1
		}
		ls.Loops[k] = Loop{Header: r.h, Parent: parent, Depth: depth, Preheader: ir.NoBlock, latches: r.latches}
		for _, b := range r.body {
			ls.Innermost[b] = int32(k)
		}
		ls.body.adj = append(ls.body.adj, r.body...)
		ls.body.start[k+1] = uint32(len(ls.body.adj))
	}
	// Preheaders.
	for k := range ls.Loops {
		lp := &ls.Loops[k]
		out := ir.NoBlock
		n := 0
		for _, p := range f.PredsOf(lp.Header) {
			if dom.Contains(p) && !ls.Contains(k, p) {
				out = p
				n++
			}
		}
		if n == 1 && len(f.SuccsOf(out)) == 1 {
			lp.Preheader = out
		}
	}
	// Irreducible edges: flag the innermost loop holding both ends.
	for _, e := range ls.IrreducibleEdges {
		l := ls.Innermost[e[0]]
		for l >= 0 && !ls.Contains(int(l), e[1]) {
			l = ls.Loops[l].Parent
		}
		if l < 0 {
			ls.IrreducibleTop = true
		} else {
			ls.Loops[l].Irreducible = true
		}
	}
	return ls
}
