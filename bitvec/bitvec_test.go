package bitvec

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"unsafe"
)

// The BitVector methods are checked against a model: a []bool per vector,
// with the documented contract for mixed lengths (the receiver keeps its
// length; sources are zero-padded or truncated to it). Lengths cover the
// 256-bit fixed path, the small path, partial last words and long vectors,
// at every level this machine has.

var testLengths = []int{0, 1, 31, 32, 33, 200, 225, 255, 256, 257, 300, 511, 512, 1000, 4096 + 7}

type model []bool

func randomPair(r *rand.Rand, n int, density int) (BitVector, model) {
	v := New(n)
	m := make(model, n)
	for i := range n {
		if r.IntN(density) == 0 {
			v.Set(i)
			m[i] = true
		}
	}
	return v, m
}

func (m model) at(i int) bool { return i < len(m) && m[i] }

func checkModel(t *testing.T, what string, v BitVector, m model) {
	t.Helper()
	if v.Len() != len(m) {
		t.Fatalf("%s: length %d, want %d", what, v.Len(), len(m))
	}
	for i := range m {
		if v.Test(i) != m[i] {
			t.Fatalf("%s: bit %d is %v, want %v", what, i, v.Test(i), m[i])
		}
	}
	// Bits past the length stay zero.
	if r := v.Len() & 31; r != 0 {
		if w := v.Words()[len(v.Words())-1]; w>>uint(r) != 0 {
			t.Fatalf("%s: bits past the length are set: %#x", what, w)
		}
	}
}

func forEachLevel(t *testing.T, fn func(t *testing.T)) {
	old := Level()
	defer SetLevel(old)
	for _, l := range Available() {
		if err := SetLevel(l); err != nil {
			t.Fatal(err)
		}
		t.Run(l.String(), fn)
	}
}

func TestMethodsAgainstModel(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 9))
		for _, n := range testLengths {
			for _, k := range testLengths {
				for _, density := range []int{1, 2, 9, 1 << 20} {
					methodCase(t, r, n, k, density)
				}
			}
		}
	})
}

func methodCase(t *testing.T, r *rand.Rand, n, k, density int) {
	t.Helper()
	type unary struct {
		name string
		run  func(d, a BitVector) bool
		bit  func(d, a bool) bool
	}
	ops := []unary{
		{"Or", func(d, a BitVector) bool { d.Or(a); return false }, func(d, a bool) bool { return d || a }},
		{"OrIfChanged", func(d, a BitVector) bool { return d.OrIfChanged(a) }, func(d, a bool) bool { return d || a }},
		{"And", func(d, a BitVector) bool { d.And(a); return false }, func(d, a bool) bool { return d && a }},
		{"AndIfChanged", func(d, a BitVector) bool { return d.AndIfChanged(a) }, func(d, a bool) bool { return d && a }},
		{"AndNot", func(d, a BitVector) bool { d.AndNot(a); return false }, func(d, a bool) bool { return d && !a }},
		{"Xor", func(d, a BitVector) bool { d.Xor(a); return false }, func(d, a bool) bool { return d != a }},
		{"Copy", func(d, a BitVector) bool { d.Copy(a); return false }, func(d, a bool) bool { return a }},
	}
	for _, op := range ops {
		d, dm := randomPair(r, n, density)
		a, am := randomPair(r, k, density)
		if op.name == "OrIfChanged" && r.IntN(2) == 0 {
			d.Or(a) // converged case
			for i := range dm {
				dm[i] = dm[i] || am.at(i)
			}
		}
		want := make(model, n)
		changed := false
		for i := range want {
			want[i] = op.bit(dm[i], am.at(i))
			changed = changed || want[i] != dm[i]
		}
		got := op.run(d, a)
		what := op.name + " n=" + strconv.Itoa(n) + " k=" + strconv.Itoa(k)
		checkModel(t, what, d, want)
		if (op.name == "OrIfChanged" || op.name == "AndIfChanged") && got != changed {
			t.Fatalf("%s: reported %v, want %v", what, got, changed)
		}
		checkModel(t, what+" (source untouched)", a, am)
	}

	// Three- and four-operand methods, with gen/in/kill of mixed lengths.
	for _, ifChanged := range []bool{false, true} {
		d, dm := randomPair(r, n, density)
		g, gm := randomPair(r, k, density*2)
		in, im := randomPair(r, []int{n, k}[r.IntN(2)], density)
		kl, km := randomPair(r, []int{n, k}[r.IntN(2)], 2)
		want := make(model, n)
		changed := false
		for i := range want {
			want[i] = dm[i] || gm.at(i) || (im.at(i) && !km.at(i))
			changed = changed || want[i] != dm[i]
		}
		what := "OrWithAndNot n=" + strconv.Itoa(n) + " k=" + strconv.Itoa(k)
		if ifChanged {
			if got := d.OrWithAndNotIfChanged(g, in, kl); got != changed {
				t.Fatalf("%sIfChanged: reported %v, want %v", what, got, changed)
			}
			// A second application changes nothing.
			if d.OrWithAndNotIfChanged(g, in, kl) {
				t.Fatalf("%sIfChanged: second call reported a change", what)
			}
		} else {
			d.OrWithAndNot(g, in, kl)
		}
		checkModel(t, what, d, want)
	}
	{
		d, _ := randomPair(r, n, density)
		a, am := randomPair(r, k, density)
		b, bm := randomPair(r, []int{n, k}[r.IntN(2)], density)
		d.AssignAnd(a, b)
		want := make(model, n)
		for i := range want {
			want[i] = am.at(i) && bm.at(i)
		}
		checkModel(t, "AssignAnd n="+strconv.Itoa(n)+" k="+strconv.Itoa(k), d, want)
	}

	// Read-only methods.
	a, am := randomPair(r, n, density)
	b, bm := randomPair(r, k, density)
	if r.IntN(3) == 0 {
		b = New(max(n, k))
		bm = make(model, max(n, k))
		for i := range am {
			if am[i] {
				b.Set(i)
				bm[i] = true
			}
		}
	}
	sub, eq, first, pop := true, true, -1, 0
	for i := range max(len(am), len(bm)) {
		x, y := am.at(i), bm.at(i)
		if x && !y {
			sub = false
		}
		if x != y {
			eq = false
		}
		if x && y && first < 0 {
			first = i
		}
		if x {
			pop++
		}
	}
	what := " n=" + strconv.Itoa(n) + " k=" + strconv.Itoa(k)
	if got := a.IsSubsetOf(b); got != sub {
		t.Fatalf("IsSubsetOf%s: %v, want %v", what, got, sub)
	}
	if got := a.Equal(b); got != eq {
		t.Fatalf("Equal%s: %v, want %v", what, got, eq)
	}
	if got := a.Intersects(b); got != first {
		t.Fatalf("Intersects%s: %d, want %d", what, got, first)
	}
	if got := a.PopCount(); got != pop {
		t.Fatalf("PopCount%s: %d, want %d", what, got, pop)
	}
	if got := a.IsEmpty(); got != (pop == 0) {
		t.Fatalf("IsEmpty%s: %v, want %v", what, got, pop == 0)
	}
}

func TestSetClearTestIterate(t *testing.T) {
	v := New(300)
	bits := []int{0, 1, 31, 32, 63, 64, 255, 256, 299}
	for _, i := range bits {
		v.Set(i)
	}
	v.Set(100)
	v.ClearBit(100)
	if got := slices.Collect(v.All()); !slices.Equal(got, bits) {
		t.Fatalf("All() = %v, want %v", got, bits)
	}
	var viaNext []int
	for i := v.NextSet(0); i >= 0; i = v.NextSet(i + 1) {
		viaNext = append(viaNext, i)
	}
	if !slices.Equal(viaNext, bits) {
		t.Fatalf("NextSet walk = %v, want %v", viaNext, bits)
	}
	if v.Test(100) || !v.Test(299) {
		t.Fatal("Test disagrees with Set/ClearBit")
	}
	if got := v.String(); got != "{0 1 31 32 63 64 255 256 299}" {
		t.Fatalf("String() = %q", got)
	}
	v.Clear()
	if !v.IsEmpty() || v.NextSet(0) != -1 {
		t.Fatal("Clear left bits set")
	}
	for _, bad := range []int{-1, 300} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("bit %d out of range did not panic", bad)
				}
			}()
			v.Set(bad)
		}()
	}
}

func TestExtractBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	v, m := randomPair(r, 333, 2)
	for start := 0; start <= 333; start += 7 {
		for width := 0; width <= 64 && start+width <= 333; width += 5 {
			var want uint64
			for j := range width {
				if m[start+j] {
					want |= 1 << uint(j)
				}
			}
			if got := v.ExtractBits(start, start+width); got != want {
				t.Fatalf("ExtractBits(%d, %d) = %#x, want %#x", start, start+width, got, want)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a 65-bit extract did not panic")
		}
	}()
	v.ExtractBits(0, 65)
}

func TestFromWordsMasksTail(t *testing.T) {
	w := []uint32{^uint32(0), ^uint32(0)}
	v := FromWords(w, 40)
	if v.PopCount() != 40 || w[1] != 0xff {
		t.Fatalf("FromWords kept bits past the length: %#x", w[1])
	}
}

func TestSlabAlignment(t *testing.T) {
	for _, nbits := range []int{0, 1, 256, 257, 1000, 70000} {
		s := NewSlab(nbits, 7)
		for i := range s.Len() {
			v := s.Next()
			if v.Len() != nbits {
				t.Fatalf("slab vector has %d bits, want %d", v.Len(), nbits)
			}
			if len(v.Words()) > 0 && uintptr(unsafe.Pointer(&v.Words()[0]))&63 != 0 {
				t.Fatalf("slab vector %d of %d bits is not 64-byte aligned", i, nbits)
			}
			if nbits > 0 {
				v.Set(nbits - 1)
			}
		}
		// Vectors do not overlap: each has exactly the one bit it set.
		for i := range s.Len() {
			if nbits > 0 && s.Get(i).PopCount() != 1 {
				t.Fatalf("slab vectors overlap (%d bits)", nbits)
			}
		}
		s.Reset()
		for i := range s.Len() {
			if !s.Get(i).IsEmpty() {
				t.Fatal("Reset left bits set")
			}
		}
	}
}

// TestSmallPathsDoNotAllocate guards the 256-bit paths' cost model.
func TestSmallPathsDoNotAllocate(t *testing.T) {
	s := NewSlab(256, 4)
	d, g, in, k := s.Next(), s.Next(), s.Next(), s.Next()
	g.Set(5)
	in.Set(200)
	allocs := testing.AllocsPerRun(100, func() {
		d.Clear()
		d.OrWithAndNotIfChanged(g, in, k)
		d.OrIfChanged(g)
	})
	if allocs != 0 {
		t.Fatalf("256-bit methods allocate %.1f times per call", allocs)
	}
}
