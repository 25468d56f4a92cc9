package core

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

func blocks(ids ...int) []ir.BlockID {
	r := make([]ir.BlockID, len(ids))
	for i, x := range ids {
		r[i] = ir.BlockID(x)
	}
	return r
}

func TestDiamond(t *testing.T) {
	b, _ := testgen.Edges(4, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}})
	f := b.F
	d := Dominators(f)
	for _, x := range []int{1, 2, 3} {
		if d.Idom[x] != 0 {
			t.Errorf("idom(%d) = %d, want 0", x, d.Idom[x])
		}
	}
	if d.Idom[0] != ir.NoBlock {
		t.Errorf("idom(entry) = %d", d.Idom[0])
	}
	pd := PostDominators(f)
	x := VirtualExit(f)
	want := []ir.BlockID{3, 3, 3, x}
	if !slices.Equal(pd.Idom[:4], want) {
		t.Errorf("ipdom = %v, want %v", pd.Idom[:4], want)
	}
	df := DominanceFrontiers(f, d)
	if !slices.Equal(df.Of(1), blocks(3)) || !slices.Equal(df.Of(2), blocks(3)) || len(df.Of(0)) != 0 || len(df.Of(3)) != 0 {
		t.Errorf("DF = %v %v %v %v", df.Of(0), df.Of(1), df.Of(2), df.Of(3))
	}
	ls := FindLoops(f, d)
	if len(ls.Loops) != 0 || !ls.Reducible() {
		t.Errorf("loops in a diamond: %+v", ls.Loops)
	}
}

func TestNestedLoops(t *testing.T) {
	// 0 → 1 → 2 → 3 → 2 (inner), 3 → 4 → 1 (outer), 4 → 5 exit.
	b, _ := testgen.Edges(6, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 2}, {3, 4}, {4, 1}, {4, 5}})
	f := b.F
	d := Dominators(f)
	ls := FindLoops(f, d)
	if len(ls.Loops) != 2 {
		t.Fatalf("got %d loops", len(ls.Loops))
	}
	outer, inner := ls.Loops[0], ls.Loops[1]
	if outer.Header != 1 || outer.Depth != 1 || outer.Parent != -1 || outer.Preheader != 0 {
		t.Errorf("outer = %+v", outer)
	}
	if inner.Header != 2 || inner.Depth != 2 || inner.Parent != 0 || inner.Preheader != 1 {
		t.Errorf("inner = %+v", inner)
	}
	body := slices.Clone(ls.Body(0))
	slices.Sort(body)
	if !slices.Equal(body, blocks(1, 2, 3, 4)) {
		t.Errorf("outer body %v", body)
	}
	for blk, want := range []int{0, 1, 2, 2, 1, 0} {
		if got := ls.Depth(ir.BlockID(blk)); got != want {
			t.Errorf("depth(%d) = %d, want %d", blk, got, want)
		}
	}
	if !slices.Equal(inner.Latches(), blocks(3)) || !slices.Equal(outer.Latches(), blocks(4)) {
		t.Errorf("latches %v %v", inner.Latches(), outer.Latches())
	}
}

func TestIrreducible(t *testing.T) {
	// 0 → 1, 0 → 2, 1 ⇄ 2, 1 → 3: a cycle with two entries.
	b, _ := testgen.Edges(4, [][2]int{{0, 1}, {0, 2}, {1, 2}, {2, 1}, {1, 3}})
	f := b.F
	d := Dominators(f)
	if d.Idom[1] != 0 || d.Idom[2] != 0 || d.Idom[3] != 1 {
		t.Errorf("idom = %v", d.Idom)
	}
	ls := FindLoops(f, d)
	if ls.Reducible() || !ls.IrreducibleTop || len(ls.Loops) != 0 {
		t.Errorf("irreducible not reported: %+v", ls)
	}
	// Inside a natural loop: 0 → 1 → {2, 3}, 2 ⇄ 3, 3 → 4 → 1, 4 → 5.
	b, _ = testgen.Edges(6, [][2]int{{0, 1}, {1, 2}, {1, 3}, {2, 3}, {3, 2}, {3, 4}, {4, 1}, {4, 5}})
	f = b.F
	d = Dominators(f)
	ls = FindLoops(f, d)
	if len(ls.Loops) != 1 || !ls.Loops[0].Irreducible || ls.IrreducibleTop {
		t.Errorf("loops = %+v top=%v", ls.Loops, ls.IrreducibleTop)
	}
	checkDomBrute(t, f)
}

func TestUnreachableAndInfinite(t *testing.T) {
	// 0 → 1 ⇄ 2 (no exit); 3 → 1 unreachable.
	b, _ := testgen.Edges(4, [][2]int{{0, 1}, {1, 2}, {2, 1}, {3, 1}})
	f := b.F
	d := Dominators(f)
	if d.Contains(3) || d.Dominates(3, 1) || d.Dominates(0, 3) || d.Idom[3] != ir.NoBlock {
		t.Errorf("unreachable block in the dominator tree")
	}
	o := ComputeOrder(f)
	if o.Reachable(3) || len(o.RPO) != 3 {
		t.Errorf("rpo %v", o.RPO)
	}
	pd := PostDominators(f)
	for _, x := range []ir.BlockID{0, 1, 2} {
		if !pd.Contains(x) {
			t.Errorf("block %d missing from post-dominator tree", x)
		}
	}
	if pd.Contains(3) {
		t.Errorf("unreachable block in the post-dominator tree")
	}
	ls := FindLoops(f, d)
	if len(ls.Loops) != 1 || ls.Loops[0].Header != 1 {
		t.Errorf("loops %+v", ls.Loops)
	}
	checkDomBrute(t, f)
}

func TestDeepCFG(t *testing.T) {
	n := 200000
	if testing.Short() {
		n = 20000
	}
	b := testgen.New("deep")
	bl := b.Blocks(n)
	p := b.Reg(ir.TPred)
	for i := 0; i+2 < n; i++ {
		b.CondBra(bl[i], p, bl[i+2]) // every block also skips the next one
	}
	b.Ret(bl[n-1])
	f := b.F
	f.ComputeCFG()
	d := Dominators(f)
	if d.Idom[n-1] != 0 || d.Idom[n-2] != 0 || d.Idom[1] != 0 {
		t.Errorf("idom wrong")
	}
	pd := PostDominators(f)
	if pd.Idom[0] != ir.BlockID(n-1) {
		t.Errorf("ipdom(0) = %d", pd.Idom[0])
	}
	if len(d.PreOrder()) != n {
		t.Errorf("preorder")
	}
}

// reach reports the blocks reachable from root avoiding block skip,
// following next.
func reach(n int, root, skip ir.BlockID, next func(ir.BlockID) []ir.BlockID) []bool {
	seen := make([]bool, n)
	if root == skip {
		return seen
	}
	stack := []ir.BlockID{root}
	seen[root] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range next(b) {
			if s != skip && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// checkDomBrute checks dominators, frontiers and (when every reachable
// block reaches an exit) post-dominators against definitions.
func checkDomBrute(t *testing.T, f *ir.Func) {
	t.Helper()
	nb := f.NumBlocks()
	d := Dominators(f)
	all := reach(nb, f.Entry(), ir.NoBlock, f.SuccsOf)
	for a := range nb {
		r := reach(nb, f.Entry(), ir.BlockID(a), f.SuccsOf)
		for b := range nb {
			want := all[a] && all[b] && !r[b]
			if got := d.Dominates(ir.BlockID(a), ir.BlockID(b)); got != want {
				t.Fatalf("dominates(%d,%d) = %v, want %v", a, b, got, want)
			}
		}
	}
	df := DominanceFrontiers(f, d)
	for a := range nb {
		var want []ir.BlockID
		for b := range nb {
			if !all[b] || d.StrictlyDominates(ir.BlockID(a), ir.BlockID(b)) {
				continue
			}
			for _, p := range f.PredsOf(ir.BlockID(b)) {
				if d.Dominates(ir.BlockID(a), p) {
					want = append(want, ir.BlockID(b))
					break
				}
			}
		}
		got := slices.Clone(df.Of(ir.BlockID(a)))
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("DF(%d) = %v, want %v", a, got, want)
		}
	}
	// Post-dominators, when every reachable block reaches an exit.
	x := ir.BlockID(nb)
	rsucc := func(b ir.BlockID) []ir.BlockID {
		if b == x {
			return nil
		}
		if len(f.SuccsOf(b)) == 0 {
			return []ir.BlockID{x}
		}
		return f.SuccsOf(b)
	}
	for b := range nb {
		if all[b] && !reach(nb+1, ir.BlockID(b), ir.NoBlock, rsucc)[x] {
			return
		}
	}
	pd := PostDominators(f)
	for a := range nb {
		for b := range nb {
			if !all[b] {
				continue
			}
			want := all[a] && !reach(nb+1, ir.BlockID(b), ir.BlockID(a), rsucc)[x]
			if got := pd.Dominates(ir.BlockID(a), ir.BlockID(b)); got != want {
				t.Fatalf("postdominates(%d,%d) = %v, want %v", a, b, got, want)
			}
		}
	}
}

func TestDomRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for k := range 400 {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 1 + k%14, Regs: 3, MaxInstrs: 2})
		checkDomBrute(t, f)
		// Loops: every back edge's header dominates its latch, bodies
		// hold their latches, parents hold their children.
		d := Dominators(f)
		ls := FindLoops(f, d)
		for l, lp := range ls.Loops {
			for _, lt := range lp.Latches() {
				if !d.Dominates(lp.Header, lt) || !ls.Contains(l, lt) {
					t.Fatalf("latch %d of loop %d", lt, l)
				}
			}
			for _, b := range ls.Body(l) {
				if !d.Dominates(lp.Header, b) {
					t.Fatalf("header %d does not dominate body block %d", lp.Header, b)
				}
			}
			if lp.Parent >= 0 && !ls.Contains(int(lp.Parent), lp.Header) {
				t.Fatalf("parent")
			}
		}
	}
}

// succOrig returns, per original block, the original blocks reached by
// following edges through blocks numbered >= n0 (inserted ones).
func succOrig(f *ir.Func, n0 int) [][]ir.BlockID {
	r := make([][]ir.BlockID, n0)
	for b := range n0 {
		var out []ir.BlockID
		var walk func(ir.BlockID)
		walk = func(s ir.BlockID) {
			if int(s) < n0 {
				out = append(out, s)
				return
			}
			for _, t := range f.SuccsOf(s) {
				walk(t)
			}
		}
		for _, s := range f.SuccsOf(ir.BlockID(b)) {
			walk(s)
		}
		slices.Sort(out)
		r[b] = slices.Compact(out)
	}
	return r
}

func TestSplitCriticalEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for k := range 300 {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 2 + k%12, Regs: 3, MaxInstrs: 2})
		n0 := f.NumBlocks()
		before := succOrig(f, n0)
		SplitCriticalEdges(f)
		if f.NumBlocks() > n0 && len(f.Layout) != f.NumBlocks() {
			t.Fatalf("layout has %d blocks of %d", len(f.Layout), f.NumBlocks())
		}
		for b := range f.NumBlocks() {
			if len(f.SuccsOf(ir.BlockID(b))) < 2 {
				continue
			}
			for _, s := range f.SuccsOf(ir.BlockID(b)) {
				if len(f.PredsOf(s)) >= 2 {
					t.Fatalf("critical edge %d→%d left", b, s)
				}
			}
		}
		after := succOrig(f, n0)
		for b := range n0 {
			if !slices.Equal(before[b], after[b]) {
				t.Fatalf("block %d: successors %v became %v", b, before[b], after[b])
			}
		}
		if SplitCriticalEdges(f) != 0 {
			t.Fatalf("second split found edges")
		}
	}
}

func TestInsertPreheaders(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for k := range 300 {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 2 + k%12, Regs: 3, MaxInstrs: 2})
		n0 := f.NumBlocks()
		before := succOrig(f, n0)
		InsertPreheaders(f)
		after := succOrig(f, n0)
		for b := range n0 {
			if !slices.Equal(before[b], after[b]) {
				t.Fatalf("block %d: successors %v became %v", b, before[b], after[b])
			}
		}
		ls := FindLoops(f, Dominators(f))
		for _, lp := range ls.Loops {
			if lp.Preheader == ir.NoBlock && lp.Header != f.Entry() {
				t.Fatalf("loop at %d has no preheader", lp.Header)
			}
		}
	}
}
