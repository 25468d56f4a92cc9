package core

import (
	"unsafe"

	"github.com/ptxopt/ptxopt/ir"
)

// CFG orders.
//
// RPO is computed by an iterative depth-first search (an explicit stack of
// (block, next successor) pairs), never by recursion: generated kernels
// can have CFGs tens of thousands of blocks deep.

// Order is a depth-first order of the blocks reachable from the entry.
type Order struct {
	// RPO lists the reachable blocks in reverse post-order; RPO[0] is the
	// entry. Unreachable blocks are absent.
	RPO []ir.BlockID
	// Num maps a block to its position in RPO, -1 when unreachable.
	Num []int32

	w []uint32 // the array RPO and Num live in (reused by ComputeOrderInto)
}

// Reachable reports whether b is reachable from the entry.
func (o *Order) Reachable(b ir.BlockID) bool { return o.Num[b] >= 0 }

// PostOrder iterates the reachable blocks in post-order (RPO reversed).
func (o *Order) PostOrder() func(yield func(ir.BlockID) bool) {
	return func(yield func(ir.BlockID) bool) {
		for k := len(o.RPO) - 1; k >= 0; k-- {
			if !yield(o.RPO[k]) {
				return
			}
		}
	}
}

// csr is an adjacency in compressed rows: the neighbours of n are
// adj[start[n]:start[n+1]].
type csr struct {
	start []uint32
	adj   []ir.BlockID
}

func (g csr) of(n ir.BlockID) []ir.BlockID { return g.adj[g.start[n]:g.start[n+1]] }

// dfsOrder returns the reverse post-order of the n-node graph succ from
// the roots (visited in the order given), and the RPO number of every
// node (-1 when unvisited).
func dfsOrder(n int, succ csr, roots []ir.BlockID, w []uint32) ([]ir.BlockID, []int32, []uint32) {
	// One array of 32-bit words for the results and the stacks (a DFS
	// stack holds each node at most once), w's when large enough.
	if cap(w) < 4*n {
		w = make([]uint32, 4*n)
	}
	w = w[:4*n]
	num := unsafeInt32s(w[:n:n])
	for i := range num {
		num[i] = -1
	}
	post := unsafeBlocks(w[n : n : 2*n])
	stackB := unsafeBlocks(w[2*n : 2*n : 3*n])
	stackI := w[3*n : 3*n : 4*n]
	const onStack = -2
	for _, r := range roots {
		if num[r] != -1 {
			continue
		}
		num[r] = onStack
		stackB = append(stackB, r)
		stackI = append(stackI, succ.start[r])
		for len(stackB) > 0 {
			top := len(stackB) - 1
			b := stackB[top]
			k := stackI[top]
			if k < succ.start[b+1] {
				stackI[top] = k + 1
				s := succ.adj[k]
				if num[s] == -1 {
					num[s] = onStack
					stackB = append(stackB, s)
					stackI = append(stackI, succ.start[s])
				}
				continue
			}
			stackB = stackB[:top]
			stackI = stackI[:top]
			post = append(post, b)
		}
	}
	// Reverse into RPO and number.
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	for k, b := range post {
		num[b] = int32(k)
	}
	return post, num, w
}

func succCSR(f *ir.Func) csr { return csr{f.SuccStart, f.Succs} }
func predCSR(f *ir.Func) csr { return csr{f.PredStart, f.Preds} }

// ComputeOrder returns the reverse post-order of f's reachable blocks.
func ComputeOrder(f *ir.Func) *Order { return ComputeOrderInto(nil, f) }

// ComputeOrderInto is ComputeOrder into the memory of o, an order no
// longer in use (nil allocates).
func ComputeOrderInto(o *Order, f *ir.Func) *Order {
	ensureCFG(f)
	if o == nil {
		o = &Order{}
	}
	e := f.Entry()
	if e == ir.NoBlock {
		*o = Order{Num: make([]int32, f.NumBlocks())}
		return o
	}
	roots := [1]ir.BlockID{e}
	o.RPO, o.Num, o.w = dfsOrder(f.NumBlocks(), succCSR(f), roots[:], o.w)
	return o
}

// DomTree is a dominator tree (or a post-dominator tree, whose root is a
// virtual exit node numbered NumBlocks()).
type DomTree struct {
	// Idom is the immediate dominator of each node; NoBlock for the root
	// and for nodes the tree does not reach (unreachable blocks).
	Idom []ir.BlockID
	Root ir.BlockID
	// Order is the reverse post-order of the graph the tree was built on
	// (the reversed CFG for post-dominators).
	Order []ir.BlockID
	Num   []int32

	kids      csr
	pre, post []uint32 // DFS intervals on the tree: a dom b iff pre[a] <= pre[b] && post[b] <= post[a]

	mem *domMem // the arrays the tree lives in, reused by the Into forms
}

// domMem is a tree's memory: what buildDom fills, and the post-dominator
// construction's reversed graph and search.
type domMem struct {
	bw      []ir.BlockID
	cw      []uint32
	seen    []bool
	toX     []ir.BlockID
	stack   []ir.BlockID
	rsStart []uint32
	rpStart []uint32
	rsAdj   []ir.BlockID
	rpAdj   []ir.BlockID
	dfs     []uint32
}

// memOf returns d's memory for a recomputation into d (a fresh tree and
// memory when d is nil).
func memOf(d *DomTree) (*DomTree, *domMem) {
	if d == nil {
		d = &DomTree{}
	}
	if d.mem == nil {
		d.mem = &domMem{}
	}
	return d, d.mem
}

// Contains reports whether node b is in the tree.
func (d *DomTree) Contains(b ir.BlockID) bool { return int(b) < len(d.Num) && d.Num[b] >= 0 }

// IDom returns the immediate dominator of b (NoBlock for the root and
// for nodes outside the tree).
func (d *DomTree) IDom(b ir.BlockID) ir.BlockID { return d.Idom[b] }

// Children returns the nodes b immediately dominates.
func (d *DomTree) Children(b ir.BlockID) []ir.BlockID { return d.kids.of(b) }

// Dominates reports whether a dominates b (reflexively). False when either
// is outside the tree.
func (d *DomTree) Dominates(a, b ir.BlockID) bool {
	if !d.Contains(a) || !d.Contains(b) {
		return false
	}
	return d.pre[a] <= d.pre[b] && d.post[b] <= d.post[a]
}

// StrictlyDominates reports a dom b and a != b.
func (d *DomTree) StrictlyDominates(a, b ir.BlockID) bool { return a != b && d.Dominates(a, b) }

// PreOrder returns the nodes of the tree in a depth-first pre-order.
func (d *DomTree) PreOrder() []ir.BlockID {
	out := make([]ir.BlockID, 0, len(d.Order))
	if d.Root == ir.NoBlock {
		return out
	}
	stack := []ir.BlockID{d.Root}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, b)
		k := d.kids.of(b)
		for j := len(k) - 1; j >= 0; j-- {
			stack = append(stack, k[j])
		}
	}
	return out
}

// buildDom runs the Cooper-Harvey-Kennedy iterative algorithm ("A Simple,
// Fast Dominance Algorithm"): visit nodes in RPO, set idom(b) to the
// intersection of its processed predecessors' idoms, where intersect walks
// two fingers up the current tree by RPO number. Repeat until stable
// (one extra pass on reducible graphs, a few on irreducible ones).
func buildDom(d *DomTree, n int, root ir.BlockID, order []ir.BlockID, num []int32, pred csr) *DomTree {
	// Two arrays: block IDs (idom, children, DFS stack) and counters
	// (child offsets, fill cursors, DFS intervals, DFS stack).
	d, mem := memOf(d)
	mem.bw = grow(mem.bw, 3*n)
	mem.cw = grow(mem.cw, 5*n+1) // zeroed: child counts, and DFS intervals outside the tree
	bw, cw := mem.bw, mem.cw
	idom := bw[:n:n]
	for i := range idom {
		idom[i] = ir.NoBlock
	}
	idom[root] = root
	for changed := true; changed; {
		changed = false
		for _, b := range order[1:] {
			nd := ir.NoBlock
			for _, p := range pred.of(b) {
				if num[p] < 0 || idom[p] == ir.NoBlock {
					continue
				}
				if nd == ir.NoBlock {
					nd = p
					continue
				}
				a, c := p, nd
				for a != c {
					for num[a] > num[c] {
						a = idom[a]
					}
					for num[c] > num[a] {
						c = idom[c]
					}
				}
				nd = a
			}
			if idom[b] != nd {
				idom[b] = nd
				changed = true
			}
		}
	}
	idom[root] = ir.NoBlock
	*d = DomTree{Idom: idom, Root: root, Order: order, Num: num, mem: mem}
	// Children in CSR, in RPO order of the child.
	start := cw[: n+1 : n+1]
	for _, b := range order[1:] {
		start[idom[b]+1]++
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	adj := bw[n : n+len(order)-1 : 2*n]
	fill := cw[n+1 : 2*n+1 : 2*n+1]
	copy(fill, start[:n])
	for _, b := range order[1:] {
		p := idom[b]
		adj[fill[p]] = b
		fill[p]++
	}
	d.kids = csr{start, adj}
	// DFS intervals, iteratively.
	d.pre = cw[2*n+1 : 3*n+1 : 3*n+1]
	d.post = cw[3*n+1 : 4*n+1 : 4*n+1]
	clk := uint32(0)
	stackB := append(bw[2*n:2*n:3*n], root)
	stackI := append(cw[4*n+1:4*n+1:5*n+1], start[root])
	d.pre[root] = clk
	clk++
	for len(stackB) > 0 {
		top := len(stackB) - 1
		b := stackB[top]
		if k := stackI[top]; k < start[b+1] {
			stackI[top]++
			c := adj[k]
			d.pre[c] = clk
			clk++
			stackB = append(stackB, c)
			stackI = append(stackI, start[c])
			continue
		}
		d.post[b] = clk
		clk++
		stackB = stackB[:top]
		stackI = stackI[:top]
	}
	return d
}

// Dominators computes the dominator tree of f. Unreachable blocks are
// outside the tree (Idom NoBlock, Dominates false).
func Dominators(f *ir.Func) *DomTree {
	ensureCFG(f)
	return DominatorsFrom(f, ComputeOrder(f))
}

// DominatorsFrom is Dominators given f's current block order.
func DominatorsFrom(f *ir.Func, o *Order) *DomTree { return DominatorsInto(nil, f, o) }

// DominatorsInto is DominatorsFrom into the memory of d, a tree no
// longer in use (nil allocates).
func DominatorsInto(d *DomTree, f *ir.Func, o *Order) *DomTree {
	if len(o.RPO) == 0 {
		return &DomTree{Idom: make([]ir.BlockID, f.NumBlocks()), Root: ir.NoBlock, Num: o.Num}
	}
	return buildDom(d, f.NumBlocks(), o.RPO[0], o.RPO, o.Num, predCSR(f))
}

// PostDominators computes the post-dominator tree of f over the reachable
// blocks, rooted at a virtual exit node X = NumBlocks() (VirtualExit). X
// has an edge from every block without successors (ret, exit, a trap).
// Blocks that cannot reach any exit (infinite loops) get a fake edge to X:
// walking the blocks in post-order, the first one still not reaching X is
// connected and everything reaching it is then marked, and so on, which
// picks one block per exit-less region (the deepest in DFS order), as
// LLVM does. Unreachable blocks are outside the tree.
func PostDominators(f *ir.Func) *DomTree {
	ensureCFG(f)
	return PostDominatorsFrom(f, ComputeOrder(f))
}

// PostDominatorsFrom is PostDominators given f's current block order.
func PostDominatorsFrom(f *ir.Func, o *Order) *DomTree { return PostDominatorsInto(nil, f, o) }

// PostDominatorsInto is PostDominatorsFrom into the memory of d, a tree
// no longer in use (nil allocates).
func PostDominatorsInto(d *DomTree, f *ir.Func, o *Order) *DomTree {
	nb := f.NumBlocks()
	x := ir.BlockID(nb)
	n := nb + 1
	if len(o.RPO) == 0 {
		num := make([]int32, n)
		for i := range num {
			num[i] = -1
		}
		return &DomTree{Idom: make([]ir.BlockID, n), Root: ir.NoBlock, Num: num}
	}
	// Find the exits and the fake exits with a reverse search.
	d, mem := memOf(d)
	mem.seen = grow(mem.seen, nb)
	seen := mem.seen
	toX := mem.toX[:0]
	stack := mem.stack[:0]
	mark := func(b ir.BlockID) {
		seen[b] = true
		stack = append(stack[:0], b)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range f.PredsOf(c) {
				if !seen[p] && o.Num[p] >= 0 {
					seen[p] = true
					stack = append(stack, p)
				}
			}
		}
	}
	for _, b := range o.RPO {
		if len(f.SuccsOf(b)) == 0 {
			toX = append(toX, b)
			mark(b)
		}
	}
	for k := len(o.RPO) - 1; k >= 0; k-- {
		if b := o.RPO[k]; !seen[b] {
			toX = append(toX, b)
			mark(b)
		}
	}
	mem.toX, mem.stack = toX[:0], stack[:0]
	// The reversed graph restricted to reachable blocks, plus X. (seen
	// now marks the blocks with an edge to X.)
	isX := seen
	clear(isX)
	for _, b := range toX {
		isX[b] = true
	}
	mem.rsStart = grow(mem.rsStart, n+1)
	mem.rpStart = grow(mem.rpStart, n+1)
	rs := csr{start: mem.rsStart} // reversed successors = CFG preds
	rp := csr{start: mem.rpStart} // reversed preds = CFG succs (+X)
	for b := range nb {
		if o.Num[b] < 0 {
			continue
		}
		for _, p := range f.PredsOf(ir.BlockID(b)) {
			if o.Num[p] >= 0 {
				rs.start[b+1]++
			}
		}
		rp.start[b+1] = uint32(len(f.SuccsOf(ir.BlockID(b))))
		if isX[b] {
			rp.start[b+1]++
		}
	}
	rs.start[x+1] = uint32(len(toX))
	for i := 0; i < n; i++ {
		rs.start[i+1] += rs.start[i]
		rp.start[i+1] += rp.start[i]
	}
	rs.adj = mem.rsAdj[:0]
	rp.adj = mem.rpAdj[:0]
	for b := range nb {
		if o.Num[b] < 0 {
			continue
		}
		for _, p := range f.PredsOf(ir.BlockID(b)) {
			if o.Num[p] >= 0 {
				rs.adj = append(rs.adj, p)
			}
		}
		rp.adj = append(rp.adj, f.SuccsOf(ir.BlockID(b))...)
		if isX[b] {
			rp.adj = append(rp.adj, x)
		}
	}
	rs.adj = append(rs.adj, toX...)
	mem.rsAdj, mem.rpAdj = rs.adj, rp.adj
	roots := [1]ir.BlockID{x}
	var order []ir.BlockID
	var num []int32
	order, num, mem.dfs = dfsOrder(n, rs, roots[:], mem.dfs)
	return buildDom(d, n, x, order, num, rp)
}

// VirtualExit returns the ID of the virtual exit node of a post-dominator
// tree of f.
func VirtualExit(f *ir.Func) ir.BlockID { return ir.BlockID(f.NumBlocks()) }

// Frontiers holds dominance frontiers in compressed rows.
type Frontiers struct{ g csr }

// Of returns DF(b): the blocks where b's dominance ends.
func (df *Frontiers) Of(b ir.BlockID) []ir.BlockID { return df.g.of(b) }

// DominanceFrontiers computes DF with the Cooper-Harvey-Kennedy walk: for
// every join j (two or more predecessors, counting the function start as
// one of the entry's) and each predecessor
// p, every block on the dominator-tree path from p up to, not including,
// idom(j) has j in its frontier. Unreachable blocks have empty frontiers
// and do not contribute.
func DominanceFrontiers(f *ir.Func, dom *DomTree) *Frontiers {
	ensureCFG(f)
	nb := f.NumBlocks()
	type pair struct{ b, j ir.BlockID }
	var pairs []pair
	last := make([]ir.BlockID, nb) // last join added to DF(b): drops duplicates
	for i := range last {
		last[i] = ir.NoBlock
	}
	for _, j := range dom.Order {
		preds := f.PredsOf(j)
		if len(preds) < 2 && (j != dom.Root || len(preds) == 0) {
			// Not a join. (The entry is entered by the function start
			// too, so one more predecessor makes it a join.)
			continue
		}
		for _, p := range preds {
			if !dom.Contains(p) {
				continue
			}
			for r := p; r != dom.Idom[j] && r != ir.NoBlock; r = dom.Idom[r] {
				if last[r] == j {
					break
				}
				last[r] = j
				pairs = append(pairs, pair{r, j})
			}
		}
	}
	g := csr{start: make([]uint32, nb+1), adj: make([]ir.BlockID, len(pairs))}
	for _, p := range pairs {
		g.start[p.b+1]++
	}
	for i := range nb {
		g.start[i+1] += g.start[i]
	}
	fill := make([]uint32, nb)
	copy(fill, g.start[:nb])
	for _, p := range pairs {
		g.adj[fill[p.b]] = p.j
		fill[p.b]++
	}
	return &Frontiers{g}
}

// IteratedFrontier returns DF+(defs): the closure of the dominance
// frontier over the blocks in defs, in no particular order. stamp must
// have NumBlocks() entries, and stamp[b] != id for every b on entry; the
// result's blocks have stamp[b] == id afterwards (callers reuse stamp
// across calls with increasing ids). work and out are scratch, returned
// grown.
func (df *Frontiers) IteratedFrontier(defs []ir.BlockID, stamp []uint32, id uint32, work, out []ir.BlockID) ([]ir.BlockID, []ir.BlockID) {
	work = append(work[:0], defs...)
	out = out[:0]
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, j := range df.Of(b) {
			if stamp[j] != id {
				stamp[j] = id
				out = append(out, j)
				work = append(work, j)
			}
		}
	}
	return work, out
}

// unsafeInt32s and unsafeBlocks view a run of uint32 words as int32s or
// block IDs (same size and alignment), so related arrays can share one
// allocation.
func unsafeInt32s(w []uint32) []int32 {
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(w))), cap(w))[:len(w):cap(w)]
}

func unsafeBlocks(w []uint32) []ir.BlockID {
	return unsafe.Slice((*ir.BlockID)(unsafe.Pointer(unsafe.SliceData(w))), cap(w))[:len(w):cap(w)]
}

func unsafeUint32s(w []ir.BlockID) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(w))), cap(w))[:len(w):cap(w)]
}
