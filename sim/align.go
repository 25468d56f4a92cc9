package sim

import (
	"slices"
	"sort"
	"strconv"

	"github.com/ptxopt/ptxopt/ir"
)

// The change between two versions of a function, instruction by
// instruction. The instruction streams (layout order, directives left
// out) are aligned as sequences of keys: the printed instruction with
// branch labels blanked and the "$k" suffix the printer gives a
// re-declared register stripped, so renamed labels and registers do not
// count as changes. An instruction of the new version that the alignment
// leaves unmatched is changed (or inserted); one of the old version left
// unmatched is removed. A matched branch whose target no longer lands on
// the matched instruction counts as changed as well.

// funcChange lists the changed instructions of one function pair.
type funcChange struct {
	removed []ir.InstrID // in the old version
	changed []ir.InstrID // in the new version
}

// keyNamer prints registers without the printer's "$k" suffix and every
// label alike.
type keyNamer struct{ f *ir.Func }

func (n keyNamer) RegName(r ir.RegID) string {
	s := n.f.Str(n.f.RegName[r])
	if s == "" {
		return "%v" + strconv.Itoa(int(r))
	}
	return stripDollar(s)
}

func (n keyNamer) SymName(id ir.SymID) string {
	s := &n.f.Mod.Syms[id]
	if s.Kind == ir.SymLabel {
		return "$L"
	}
	return stripDollar(n.f.Str(s.Name))
}

func (n keyNamer) BlockName(ir.BlockID) string { return "$L" }

// stripDollar removes a trailing "$<digits>" (the printer's suffix for a
// name declared twice).
func stripDollar(s string) string {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i < len(s) && i > 1 && s[i-1] == '$' {
		return s[:i-1]
	}
	return s
}

// stream is a function's instructions in layout order with their keys.
type stream struct {
	f      *ir.Func
	ids    []ir.InstrID
	keys   []int32
	blkPos []int32 // by block: position of the first instruction at or after its start
}

func makeStream(f *ir.Func, intern map[string]int32) *stream {
	s := &stream{f: f, blkPos: make([]int32, f.NumBlocks())}
	for i := range s.blkPos {
		s.blkPos[i] = -1
	}
	var buf []byte
	var pending []ir.BlockID
	for _, b := range f.Layout {
		pending = append(pending, b)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.IsDead(i) {
				continue
			}
			mn := f.Str(f.Mnemonic[i])
			if len(mn) > 0 && mn[0] == '.' {
				continue // a directive in the body (.pragma) executes nothing
			}
			for _, pb := range pending {
				s.blkPos[pb] = int32(len(s.ids))
			}
			pending = pending[:0]
			buf = ir.AppendInstr(buf[:0], f, i, keyNamer{f}, ir.StylePTX)
			k, ok := intern[string(buf)]
			if !ok {
				k = int32(len(intern))
				intern[string(buf)] = k
			}
			s.ids = append(s.ids, i)
			s.keys = append(s.keys, k)
		}
	}
	for _, pb := range pending {
		s.blkPos[pb] = int32(len(s.ids))
	}
	return s
}

// targets returns the stream positions the branch at position k can jump
// to (label operands only), and whether it has any.
func (s *stream) targets(k int, dst []int32) []int32 {
	f := s.f
	i := s.ids[k]
	for _, o := range f.Ops(i) {
		switch o.Kind() {
		case ir.KLabel:
			dst = append(dst, s.blkPos[o.Index()])
		case ir.KSym:
			sym := &f.Mod.Syms[o.Index()]
			if sym.Kind == ir.SymLabel && sym.Block != ir.NoBlock && int(sym.Block) < len(s.blkPos) {
				dst = append(dst, s.blkPos[sym.Block])
			}
		}
	}
	return dst
}

// diffFuncs aligns old and new and returns what changed.
func diffFuncs(old, new *ir.Func) funcChange {
	intern := map[string]int32{}
	a, b := makeStream(old, intern), makeStream(new, intern)
	match := make([]int32, len(a.keys)) // position in b, or -1
	for i := range match {
		match[i] = -1
	}
	alignSeq(a.keys, b.keys, 0, 0, match)
	back := make([]int32, len(b.keys)+1)
	for i := range back {
		back[i] = -1
	}
	for i, j := range match {
		if j >= 0 {
			back[j] = int32(i)
		}
	}
	var fc funcChange
	for i, j := range match {
		if j < 0 {
			fc.removed = append(fc.removed, a.ids[i])
		}
	}
	// A target is compared by the first matched instruction at or after
	// it (inserted or removed code right at a label is counted by itself);
	// the end of the function corresponds to the end of the function.
	endA, endB := int32(len(a.keys)), int32(len(b.keys))
	mapA := func(p int32) int32 {
		if p < 0 {
			return -2
		}
		for p < endA && match[p] < 0 {
			p++
		}
		if p == endA {
			return endB
		}
		return match[p]
	}
	landB := func(p int32) int32 {
		for p >= 0 && p < endB && back[p] < 0 {
			p++
		}
		return p
	}
	var ta, tb []int32
	for j := range b.keys {
		i := back[j]
		if i < 0 {
			fc.changed = append(fc.changed, b.ids[j])
			continue
		}
		ta, tb = a.targets(int(i), ta[:0]), b.targets(j, tb[:0])
		if len(ta) != len(tb) {
			fc.changed = append(fc.changed, b.ids[j])
			continue
		}
		for k := range ta {
			if mapA(ta[k]) != landB(tb[k]) {
				fc.changed = append(fc.changed, b.ids[j])
				break
			}
		}
	}
	return fc
}

// alignSeq matches equal keys of a and b in order (a longest common
// subsequence, or close to one on large differences), writing into match
// (indexed by position in the whole first sequence) the position in the
// whole second one; offA/offB are the offsets of a and b in them.
func alignSeq(a, b []int32, offA, offB int, match []int32) {
	// common prefix and suffix
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		match[offA] = int32(offB)
		a, b, offA, offB = a[1:], b[1:], offA+1, offB+1
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		match[offA+len(a)-1] = int32(offB + len(b) - 1)
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return
	}
	// anchors: keys that occur exactly once on each side (patience diff)
	type cnt struct{ na, nb, ia, ib int32 }
	counts := map[int32]*cnt{}
	for i, k := range a {
		c := counts[k]
		if c == nil {
			c = &cnt{}
			counts[k] = c
		}
		c.na++
		c.ia = int32(i)
	}
	for j, k := range b {
		if c := counts[k]; c != nil {
			c.nb++
			c.ib = int32(j)
		}
	}
	type pair struct{ i, j int32 }
	var anchors []pair
	for _, c := range counts {
		if c.na == 1 && c.nb == 1 {
			anchors = append(anchors, pair{c.ia, c.ib})
		}
	}
	if len(anchors) > 0 {
		sort.Slice(anchors, func(x, y int) bool { return anchors[x].i < anchors[y].i })
		// longest increasing subsequence of j
		tails := []int{}
		prev := make([]int, len(anchors))
		for k, p := range anchors {
			n := sort.Search(len(tails), func(x int) bool { return anchors[tails[x]].j >= p.j })
			if n > 0 {
				prev[k] = tails[n-1]
			} else {
				prev[k] = -1
			}
			if n == len(tails) {
				tails = append(tails, k)
			} else {
				tails[n] = k
			}
		}
		var chain []pair
		for k := tails[len(tails)-1]; k >= 0; k = prev[k] {
			chain = append(chain, anchors[k])
		}
		slices.Reverse(chain)
		pi, pj := int32(0), int32(0)
		for _, p := range chain {
			alignSeq(a[pi:p.i], b[pj:p.j], offA+int(pi), offB+int(pj), match)
			match[offA+int(p.i)] = int32(offB + int(p.j))
			pi, pj = p.i+1, p.j+1
		}
		alignSeq(a[pi:], b[pj:], offA+int(pi), offB+int(pj), match)
		return
	}
	if len(a)*len(b) <= 4<<20 {
		lcsDP(a, b, offA, offB, match)
		return
	}
	// large and without anchors: greedy, with a bounded look-ahead
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] == b[j] {
			match[offA+i] = int32(offB + j)
			i, j = i+1, j+1
			continue
		}
		di, dj := -1, -1
		for d := 1; d <= 64; d++ {
			if dj < 0 && j+d < len(b) && b[j+d] == a[i] {
				dj = d
			}
			if di < 0 && i+d < len(a) && a[i+d] == b[j] {
				di = d
			}
			if di >= 0 || dj >= 0 {
				break
			}
		}
		switch {
		case dj >= 0 && (di < 0 || dj <= di):
			j += dj
		case di >= 0:
			i += di
		default:
			i, j = i+1, j+1
		}
	}
}

// lcsDP is the quadratic longest common subsequence, for small gaps.
func lcsDP(a, b []int32, offA, offB int, match []int32) {
	n, m := len(a), len(b)
	// l[i][j] = LCS of a[i:], b[j:]
	l := make([]uint16, (n+1)*(m+1))
	at := func(i, j int) int { return i*(m+1) + j }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[at(i, j)] = l[at(i+1, j+1)] + 1
			} else {
				l[at(i, j)] = max(l[at(i+1, j)], l[at(i, j+1)])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			match[offA+i] = int32(offB + j)
			i, j = i+1, j+1
		case l[at(i+1, j)] >= l[at(i, j+1)]:
			i++
		default:
			j++
		}
	}
}
