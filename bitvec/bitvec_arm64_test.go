//go:build !purego

package bitvec

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// NEON is part of the arm64 base architecture: a build with assembly that
// does not offer it has lost its kernels, and the cross-check in
// kernels_test.go would silently test only the generic level.
func TestNEONAvailable(t *testing.T) {
	if !slices.Contains(Available(), NEON) {
		t.Fatalf("NEON missing from Available() = %v on an arm64 build with assembly", Available())
	}
	if Best() != NEON {
		t.Fatalf("Best() = %v, want neon", Best())
	}
	k, ok := KernelsFor(NEON)
	if !ok || k.Impl != NEON {
		t.Fatalf("KernelsFor(NEON) = %v, %v", k, ok)
	}
	if r := CPUReport(); !strings.HasPrefix(r, "arm64") {
		t.Fatalf("CPUReport() = %q", r)
	}
	t.Logf("CPUReport: %s", CPUReport())
}

func neon(t *testing.T) *Kernels {
	t.Helper()
	k, ok := KernelsFor(NEON)
	if !ok {
		t.Fatal("NEON kernels missing")
	}
	return k
}

// TestNEONEveryPosition puts the one bit that decides the answer at every
// word of every length up to a few blocks, so each piece of the NEON
// kernels (64-byte loop, 32-, 16-, 8- and 4-byte tails) finds it in each of
// its lanes, and the IfChanged kernels restart the write at each place.
func TestNEONEveryPosition(t *testing.T) {
	k := neon(t)
	r := rand.New(rand.NewPCG(7, 7))
	maxN := 70
	if testing.Short() {
		maxN = 40
	}
	buf := make([]uint32, 4*(maxN+2))
	for n := 1; n <= maxN; n++ {
		for off := 0; off < 2; off++ { // 8-byte aligned and not
			a := buf[off : off+n]
			b := buf[maxN+2+off : maxN+2+off+n]
			c := buf[2*(maxN+2)+off : 2*(maxN+2)+off+n]
			d := buf[3*(maxN+2)+off : 3*(maxN+2)+off+n]
			for i := 0; i < n; i++ {
				bit := r.IntN(32)
				// a and b disjoint except for one bit at word i.
				for j := range a {
					a[j] = r.Uint32()
					b[j] = ^a[j]
				}
				a[i] |= 1 << bit
				b[i] |= 1 << bit
				if got, want := k.Intersects(a, b), i*32+bit; got != want {
					t.Fatalf("Intersects n=%d off=%d: got %d want %d", n, off, got, want)
				}
				// b a superset of a except for one bit at word i.
				copy(b, a)
				for j := range b {
					b[j] |= r.Uint32()
				}
				b[i] &^= 1 << bit
				a[i] |= 1 << bit
				if k.IsSubsetOf(a, b) {
					t.Fatalf("IsSubsetOf n=%d off=%d i=%d: missed the extra bit", n, off, i)
				}
				if k.Equal(a, b) {
					t.Fatalf("Equal n=%d off=%d i=%d: reported equal", n, off, i)
				}
				// OrIfChanged: dst = b lacks exactly that bit of a.
				copy(c, b)
				want := slices.Clone(c)
				refOr(want, a)
				if !k.OrIfChanged(c, a) || !slices.Equal(c, want) {
					t.Fatalf("OrIfChanged n=%d off=%d i=%d: wrong result", n, off, i)
				}
				if k.OrIfChanged(c, a) {
					t.Fatalf("OrIfChanged n=%d off=%d i=%d: second call changed", n, off, i)
				}
				// AndIfChanged: dst = a has at least the bit at word i
				// that b lacks.
				copy(c, a)
				want = slices.Clone(c)
				refAnd(want, b)
				if !k.AndIfChanged(c, b) || !slices.Equal(c, want) {
					t.Fatalf("AndIfChanged n=%d off=%d i=%d: wrong result", n, off, i)
				}
				// OrWithAndNotIfChanged: the one new bit comes from in.
				for j := range d {
					d[j] = r.Uint32()
				}
				gen, in, kill := a, b, d
				copy(c, gen)
				for j := range c {
					c[j] |= in[j] &^ kill[j]
				}
				in[i] |= 1 << bit
				kill[i] &^= 1 << bit
				c[i] &^= 1 << bit
				gen[i] &^= 1 << bit
				want = slices.Clone(c)
				refOrWithAndNot(want, gen, in, kill)
				if !k.OrWithAndNotIfChanged(c, gen, in, kill) || !slices.Equal(c, want) {
					t.Fatalf("OrWithAndNotIfChanged n=%d off=%d i=%d: wrong result", n, off, i)
				}
				if k.OrWithAndNotIfChanged(c, gen, in, kill) {
					t.Fatalf("OrWithAndNotIfChanged n=%d off=%d i=%d: second call changed", n, off, i)
				}
			}
		}
	}
}

// TestNEONLong runs the kernels over vectors far longer than the
// cross-check's, with all bits set (the largest per-block popcount).
func TestNEONLong(t *testing.T) {
	k := neon(t)
	g := genericKernels
	r := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{4095, 4096, 4097, 65536 + 13} {
		ones := make([]uint32, n)
		for i := range ones {
			ones[i] = ^uint32(0)
		}
		if got := k.PopCount(ones); got != 32*n {
			t.Fatalf("PopCount(all ones, %d words) = %d, want %d", n, got, 32*n)
		}
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range a {
			a[i], b[i] = r.Uint32(), r.Uint32()
		}
		if got, want := k.PopCount(a), g.PopCount(a); got != want {
			t.Fatalf("PopCount(%d words) = %d, want %d", n, got, want)
		}
		x, y := slices.Clone(a), slices.Clone(a)
		k.Xor(x, b)
		g.Xor(y, b)
		k.OrWithAndNot(x, a, b, ones[:n])
		g.OrWithAndNot(y, a, b, ones[:n])
		if !k.Equal(x, y) || !slices.Equal(x, y) {
			t.Fatalf("Xor/OrWithAndNot over %d words differ from generic", n)
		}
		k.Copy(x, b)
		if !slices.Equal(x, b) {
			t.Fatalf("Copy over %d words", n)
		}
		k.Clear(x)
		if k.PopCount(x) != 0 || slices.ContainsFunc(x, func(w uint32) bool { return w != 0 }) {
			t.Fatalf("Clear over %d words", n)
		}
	}
}

// TestNEONCopyOverlap checks that Copy moves overlapping ranges the way the
// built-in copy (memmove) does, both directions, across all tail shapes.
func TestNEONCopyOverlap(t *testing.T) {
	k := neon(t)
	const maxN, maxShift = 70, 20
	buf := make([]uint32, maxN+2*maxShift+2)
	for n := 0; n <= maxN; n++ {
		for shift := -maxShift; shift <= maxShift; shift++ {
			for i := range buf {
				buf[i] = uint32(i)*0x9E3779B9 + 1
			}
			want := slices.Clone(buf)
			d := maxShift + 1
			copy(want[d:d+n], want[d+shift:d+shift+n])
			k.Copy(buf[d:d+n], buf[d+shift:d+shift+n])
			if !slices.Equal(buf, want) {
				t.Fatalf("Copy n=%d shift=%d differs from the built-in copy", n, shift)
			}
		}
	}
}
