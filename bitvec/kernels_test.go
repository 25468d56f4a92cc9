package bitvec

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// The cross-check: every level this build supports (generic included) is
// compared with deliberately simple word-at-a-time reference loops, over
// all lengths 0..maxWords, every start offset 0..15 words into a larger
// buffer, random, all-zero and all-ones data, the changed and unchanged
// cases of the IfChanged kernels, and aliasing. Canary words around each
// destination catch writes out of bounds.

const (
	maxWords   = 300
	maxOffset  = 15
	canary     = 0xA5C3_5A3C
	bufferSize = maxWords + maxOffset + 8
)

// reference kernels: the specification, one word at a time.

func refOr(d, a []uint32) {
	for i := range d {
		d[i] |= a[i]
	}
}
func refAnd(d, a []uint32) {
	for i := range d {
		d[i] &= a[i]
	}
}
func refAndNot(d, a []uint32) {
	for i := range d {
		d[i] &^= a[i]
	}
}
func refXor(d, a []uint32) {
	for i := range d {
		d[i] ^= a[i]
	}
}
func refAssignAnd(d, a, b []uint32) {
	for i := range d {
		d[i] = a[i] & b[i]
	}
}
func refOrWithAndNot(d, g, in, k []uint32) {
	for i := range d {
		d[i] |= g[i] | in[i]&^k[i]
	}
}

// changes runs op on a copy of d and reports whether any word differs.
func changes(d []uint32, op func([]uint32)) bool {
	c := slices.Clone(d)
	op(c)
	return !slices.Equal(c, d)
}

type pattern int

const (
	patRandom pattern = iota
	patZero
	patOnes
	patSparse // few bits, so IfChanged kernels often find nothing to do
	numPatterns
)

func fill(r *rand.Rand, w []uint32, p pattern) {
	for i := range w {
		switch p {
		case patRandom:
			w[i] = r.Uint32()
		case patZero:
			w[i] = 0
		case patOnes:
			w[i] = ^uint32(0)
		case patSparse:
			w[i] = 0
			if r.IntN(8) == 0 {
				w[i] = 1 << r.IntN(32)
			}
		}
	}
}

// operands holds four buffers with canaries and the windows into them.
type operands struct {
	buf [4][]uint32
	win [4][]uint32
}

func newOperands() *operands {
	o := &operands{}
	for i := range o.buf {
		o.buf[i] = make([]uint32, bufferSize)
	}
	return o
}

// setup fills the windows [off, off+n) with data and the rest with canaries.
// When converge is set, dst (window 0) is made a superset (for Or-like) so
// the IfChanged kernels have nothing to do.
func (o *operands) setup(r *rand.Rand, n, off int, p pattern) {
	for b := range o.buf {
		for i := range o.buf[b] {
			o.buf[b][i] = canary
		}
		o.win[b] = o.buf[b][off : off+n : off+n]
		fill(r, o.win[b], pattern((int(p)+b)%int(numPatterns)))
		if p != patRandom && b > 0 {
			fill(r, o.win[b], p)
		}
	}
}

func (o *operands) checkCanaries(t *testing.T, what string, n, off int) {
	t.Helper()
	for b := range o.buf {
		for i, w := range o.buf[b] {
			if (i < off || i >= off+n) && w != canary {
				t.Fatalf("%s: n=%d off=%d: buffer %d word %d outside the window was overwritten", what, n, off, b, i)
			}
		}
	}
}

func levelsUnderTest(t *testing.T) []*Kernels {
	var ks []*Kernels
	for _, l := range Available() {
		k, _ := KernelsFor(l)
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		t.Fatal("no kernel levels available")
	}
	return ks
}

func TestKernelsAgainstReference(t *testing.T) {
	for _, k := range levelsUnderTest(t) {
		t.Run(k.Impl.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(k.Impl)))
			o := newOperands()
			for n := 0; n <= maxWords; n++ {
				for off := 0; off <= maxOffset; off++ {
					for p := range numPatterns {
						checkAll(t, k, o, r, n, off, p)
					}
				}
			}
		})
	}
}

func checkAll(t *testing.T, k *Kernels, o *operands, r *rand.Rand, n, off int, p pattern) {
	t.Helper()
	name := func(op string) string { return fmt.Sprintf("%s/%s n=%d off=%d pat=%d", k.Impl, op, n, off, p) }
	twoOp := []struct {
		op   string
		got  func(d, a []uint32)
		want func(d, a []uint32)
	}{
		{"Or", k.Or, refOr},
		{"And", k.And, refAnd},
		{"AndNot", k.AndNot, refAndNot},
		{"Xor", k.Xor, refXor},
		{"Copy", k.Copy, func(d, a []uint32) { copy(d, a) }},
		{"Clear", func(d, a []uint32) { k.Clear(d) }, func(d, a []uint32) { clear(d) }},
	}
	for _, c := range twoOp {
		o.setup(r, n, off, p)
		want := slices.Clone(o.win[0])
		c.want(want, o.win[1])
		c.got(o.win[0], o.win[1])
		if !slices.Equal(want, o.win[0]) {
			t.Fatalf("%s: result differs from reference", name(c.op))
		}
		o.checkCanaries(t, name(c.op), n, off)
		// Aliasing: dst is also the source.
		o.setup(r, n, off, p)
		want = slices.Clone(o.win[0])
		c.want(want, slices.Clone(o.win[0]))
		c.got(o.win[0], o.win[0])
		if !slices.Equal(want, o.win[0]) {
			t.Fatalf("%s (aliased): result differs from reference", name(c.op))
		}
	}

	ifChanged := []struct {
		op   string
		got  func(d, a []uint32) bool
		want func(d, a []uint32)
		conv func(d, a []uint32) // makes d converged w.r.t. a
	}{
		{"OrIfChanged", k.OrIfChanged, refOr, refOr},
		{"AndIfChanged", k.AndIfChanged, refAnd, refAnd},
	}
	for _, c := range ifChanged {
		for _, converge := range []bool{false, true} {
			o.setup(r, n, off, p)
			if converge {
				c.conv(o.win[0], o.win[1])
			} else if n > 0 {
				flipOneChange(r, c.op, o.win[0], o.win[1])
			}
			want := slices.Clone(o.win[0])
			wantChanged := changes(want, func(d []uint32) { c.want(d, o.win[1]) })
			c.want(want, o.win[1])
			before := slices.Clone(o.win[0])
			changed := c.got(o.win[0], o.win[1])
			if changed != wantChanged {
				t.Fatalf("%s converged=%v: returned %v, want %v", name(c.op), converge, changed, wantChanged)
			}
			if !slices.Equal(want, o.win[0]) {
				t.Fatalf("%s converged=%v: result differs from reference", name(c.op), converge)
			}
			if !changed && !slices.Equal(before, o.win[0]) {
				t.Fatalf("%s: reported no change but wrote", name(c.op))
			}
			o.checkCanaries(t, name(c.op), n, off)
		}
		// Aliasing: x op x never changes.
		o.setup(r, n, off, p)
		if c.got(o.win[0], o.win[0]) {
			t.Fatalf("%s (aliased): reported a change", name(c.op))
		}
	}

	// Three- and four-operand kernels.
	o.setup(r, n, off, p)
	want := slices.Clone(o.win[0])
	refAssignAnd(want, o.win[1], o.win[2])
	k.AssignAnd(o.win[0], o.win[1], o.win[2])
	if !slices.Equal(want, o.win[0]) {
		t.Fatalf("%s: result differs", name("AssignAnd"))
	}
	o.checkCanaries(t, name("AssignAnd"), n, off)
	o.setup(r, n, off, p)
	want = slices.Clone(o.win[1])
	refAssignAnd(want, slices.Clone(o.win[1]), o.win[2])
	k.AssignAnd(o.win[1], o.win[1], o.win[2])
	if !slices.Equal(want, o.win[1]) {
		t.Fatalf("%s (aliased): result differs", name("AssignAnd"))
	}

	o.setup(r, n, off, p)
	want = slices.Clone(o.win[0])
	refOrWithAndNot(want, o.win[1], o.win[2], o.win[3])
	k.OrWithAndNot(o.win[0], o.win[1], o.win[2], o.win[3])
	if !slices.Equal(want, o.win[0]) {
		t.Fatalf("%s: result differs", name("OrWithAndNot"))
	}
	o.checkCanaries(t, name("OrWithAndNot"), n, off)

	for _, converge := range []bool{false, true} {
		for _, alias := range []bool{false, true} {
			o.setup(r, n, off, p)
			d, g, in, kl := o.win[0], o.win[1], o.win[2], o.win[3]
			if alias {
				in = d // the solver's in and out can be the same set
			}
			if converge {
				refOrWithAndNot(d, g, in, kl)
			} else if n > 0 {
				// Make exactly one word change, at a random place.
				refOrWithAndNot(d, g, in, kl)
				i := r.IntN(n)
				bit := uint32(1) << r.IntN(32)
				d[i] &^= bit
				g[i] |= bit
			}
			want := slices.Clone(d)
			wantIn := in
			if alias {
				wantIn = slices.Clone(d)
			}
			wantChanged := changes(want, func(x []uint32) { refOrWithAndNot(x, g, wantIn, kl) })
			refOrWithAndNot(want, g, wantIn, kl)
			before := slices.Clone(d)
			changed := k.OrWithAndNotIfChanged(d, g, in, kl)
			what := name(fmt.Sprintf("OrWithAndNotIfChanged converged=%v alias=%v", converge, alias))
			if changed != wantChanged {
				t.Fatalf("%s: returned %v, want %v", what, changed, wantChanged)
			}
			if !slices.Equal(want, d) {
				t.Fatalf("%s: result differs", what)
			}
			if !changed && !slices.Equal(before, d) {
				t.Fatalf("%s: reported no change but wrote", what)
			}
			o.checkCanaries(t, what, n, off)
		}
	}

	// Read-only kernels.
	for _, subset := range []bool{false, true} {
		o.setup(r, n, off, p)
		a, b := o.win[0], o.win[1]
		if subset {
			refOr(b, a)
		}
		wantSub := true
		wantX := -1
		wantPop := 0
		for i := range a {
			if a[i]&^b[i] != 0 {
				wantSub = false
			}
			if w := a[i] & b[i]; w != 0 && wantX < 0 {
				wantX = i*32 + bits.TrailingZeros32(w)
			}
			wantPop += bits.OnesCount32(a[i])
		}
		if got := k.IsSubsetOf(a, b); got != wantSub {
			t.Fatalf("%s: got %v want %v", name("IsSubsetOf"), got, wantSub)
		}
		if got := k.Intersects(a, b); got != wantX {
			t.Fatalf("%s: got %d want %d", name("Intersects"), got, wantX)
		}
		if got := k.PopCount(a); got != wantPop {
			t.Fatalf("%s: got %d want %d", name("PopCount"), got, wantPop)
		}
		if got, want := k.Equal(a, b), slices.Equal(a, b); got != want {
			t.Fatalf("%s: got %v want %v", name("Equal"), got, want)
		}
		if n > 0 {
			c := slices.Clone(a)
			if !k.Equal(a, c) {
				t.Fatalf("%s: equal copies reported different", name("Equal"))
			}
			i := r.IntN(n)
			c[i] ^= 1 << r.IntN(32)
			if k.Equal(a, c) {
				t.Fatalf("%s: a one-bit difference at word %d went unseen", name("Equal"), i)
			}
		}
		o.checkCanaries(t, name("read-only"), n, off)
	}
}

// flipOneChange arranges for the IfChanged kernel to have exactly one word
// to change, at a random place, so the scan-then-write split is exercised
// at every position.
func flipOneChange(r *rand.Rand, op string, d, a []uint32) {
	switch op {
	case "OrIfChanged":
		refOr(d, a)
		i := r.IntN(len(d))
		bit := uint32(1) << r.IntN(32)
		d[i] &^= bit
		a[i] |= bit
	case "AndIfChanged":
		refAnd(d, a)
		i := r.IntN(len(d))
		bit := uint32(1) << r.IntN(32)
		d[i] |= bit
		a[i] &^= bit
	}
}
