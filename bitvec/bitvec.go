// Package bitvec implements dense bit vectors on 32-bit words with the
// operation set the liveness engine needs, backed by hand-written SIMD
// kernels (SSE2, AVX2 and AVX-512 on amd64, NEON on arm64) and a pure-Go
// reference chosen at run time.
//
// # Layout
//
// A BitVector is a slice of uint32 words plus a bit count: bit i lives in
// word i>>5 at position i&31. Bits at positions >= Len() are always zero;
// every operation keeps that invariant.
//
// # Vectors of different lengths
//
// The destination of an operation (the receiver) keeps its own length. A
// source vector is read as if it were padded with zero bits up to the
// destination's length, or truncated to it when it is longer. So
// d.Or(s) with a shorter s leaves d's extra bits alone, d.And(s) clears
// them, and bits of a longer s past d.Len() are ignored. Read-only
// predicates (Equal, IsSubsetOf, Intersects) compare the zero-padded
// vectors. The fast SIMD kernels run when the lengths are equal, which is
// how the dataflow solvers use the package; mixed lengths take a slower,
// still exact, path.
//
// # IfChanged kernels
//
// OrIfChanged, AndIfChanged and OrWithAndNotIfChanged first scan for a word
// the operation would change. When there is none they return false without
// writing anything (at a dataflow fixed point most calls change nothing);
// otherwise they write from the first differing word on and return true.
package bitvec

import (
	"encoding/binary"
	"fmt"
	"iter"
	"math/bits"
	"unsafe"
)

// BitVector is a dense set of bit positions [0, Len()).
//
// It is a small value (a slice header and a count): copies share the same
// words, so methods use value receivers and write through to the words.
type BitVector struct {
	words []uint32
	nbits int
}

// WordsFor returns how many 32-bit words hold nbits bits.
func WordsFor(nbits int) int { return (nbits + 31) >> 5 }

// New returns a zeroed vector of nbits bits.
func New(nbits int) BitVector {
	if nbits < 0 {
		panic("bitvec: negative length")
	}
	return BitVector{words: make([]uint32, WordsFor(nbits)), nbits: nbits}
}

// FromWords wraps words as a vector of nbits bits. It panics when words is
// too short for nbits. Bits past nbits in the last word are cleared, so the
// invariant holds from the start.
func FromWords(words []uint32, nbits int) BitVector {
	nw := WordsFor(nbits)
	if nbits < 0 || len(words) < nw {
		panic(fmt.Sprintf("bitvec: %d words cannot hold %d bits", len(words), nbits))
	}
	v := BitVector{words: words[:nw:nw], nbits: nbits}
	v.maskTail()
	return v
}

// Len returns the number of bits.
func (v BitVector) Len() int { return v.nbits }

// Words returns the backing words. Callers that write to them must keep the
// bits past Len() zero.
func (v BitVector) Words() []uint32 { return v.words }

// maskTail clears the bits of the last word that lie past Len().
func (v BitVector) maskTail() {
	if r := v.nbits & 31; r != 0 {
		v.words[len(v.words)-1] &= uint32(1)<<r - 1
	}
}

func (v BitVector) check(i int) {
	if uint(i) >= uint(v.nbits) {
		panicRange(i, v.nbits)
	}
}

// panicRange is check's failure, out of line.
//
//go:noinline
func panicRange(i, n int) { panic(rangeError{i, n}) }

// rangeError is the panic value of a bit index out of range; Set,
// ClearBit and Test panic with it directly, which keeps them small enough
// to inline.
type rangeError struct{ i, n int }

func (e rangeError) Error() string {
	return fmt.Sprintf("bitvec: bit %d out of range [0,%d)", e.i, e.n)
}

// Set sets bit i.
func (v BitVector) Set(i int) {
	if uint(i) >= uint(v.nbits) {
		panic(rangeError{i, v.nbits})
	}
	v.words[uint(i)>>5] |= 1 << (i & 31)
}

// ClearBit clears bit i.
func (v BitVector) ClearBit(i int) {
	if uint(i) >= uint(v.nbits) {
		panic(rangeError{i, v.nbits})
	}
	v.words[uint(i)>>5] &^= 1 << (i & 31)
}

// Test reports whether bit i is set.
func (v BitVector) Test(i int) bool {
	if uint(i) >= uint(v.nbits) {
		panic(rangeError{i, v.nbits})
	}
	return v.words[uint(i)>>5]>>(i&31)&1 != 0
}

// sameShape reports whether the fast kernels may run: equal bit counts
// imply equal word counts and zero tails on both sides.
func sameShape(a, b BitVector) bool { return a.nbits == b.nbits }

// Or sets v = v | a.
func (v BitVector) Or(a BitVector) {
	if sameShape(v, a) {
		active.Or(v.words, a.words)
		return
	}
	t := a.fit(v)
	active.Or(v.words, t)
	v.maskTail()
}

// OrIfChanged sets v = v | a and reports whether v changed.
func (v BitVector) OrIfChanged(a BitVector) bool {
	if len(v.words) == smallWords && a.nbits == v.nbits {
		// 256 bits: four 64-bit words in registers, no loop, no call.
		d, s := bytes256(v.words), bytes256(a.words)
		d0, d1, d2, d3 := le.Uint64(d[0:]), le.Uint64(d[8:]), le.Uint64(d[16:]), le.Uint64(d[24:])
		s0, s1, s2, s3 := le.Uint64(s[0:]), le.Uint64(s[8:]), le.Uint64(s[16:]), le.Uint64(s[24:])
		if s0&^d0|s1&^d1|s2&^d2|s3&^d3 == 0 {
			return false
		}
		le.PutUint64(d[0:], d0|s0)
		le.PutUint64(d[8:], d1|s1)
		le.PutUint64(d[16:], d2|s2)
		le.PutUint64(d[24:], d3|s3)
		return true
	}
	return v.orIfChangedSlow(a)
}

func (v BitVector) orIfChangedSlow(a BitVector) bool {
	if sameShape(v, a) {
		if len(v.words) <= smallWords {
			return orIfChangedSmall(v.words, a.words)
		}
		return active.OrIfChanged(v.words, a.words)
	}
	return active.OrIfChanged(v.words, a.fitMasked(v))
}

// And sets v = v & a.
func (v BitVector) And(a BitVector) {
	active.And(v.words, a.fit(v))
}

// AndIfChanged sets v = v & a and reports whether v changed.
func (v BitVector) AndIfChanged(a BitVector) bool {
	return active.AndIfChanged(v.words, a.fit(v))
}

// AndNot sets v = v &^ a.
func (v BitVector) AndNot(a BitVector) {
	active.AndNot(v.words, a.fit(v))
}

// Xor sets v = v ^ a.
func (v BitVector) Xor(a BitVector) {
	if sameShape(v, a) {
		active.Xor(v.words, a.words)
		return
	}
	active.Xor(v.words, a.fitMasked(v))
}

// AssignAnd sets v = a & b.
func (v BitVector) AssignAnd(a, b BitVector) {
	active.AssignAnd(v.words, a.fitMasked(v), b.fit(v))
}

// OrWithAndNot sets v = v | gen | (in &^ kill): the liveness transfer
// function folded into the meet.
func (v BitVector) OrWithAndNot(gen, in, kill BitVector) {
	if sameShape(v, gen) && sameShape(v, in) && sameShape(v, kill) {
		active.OrWithAndNot(v.words, gen.words, in.words, kill.words)
		return
	}
	active.OrWithAndNot(v.words, gen.fitMasked(v), in.fitMasked(v), kill.fit(v))
	v.maskTail()
}

// OrWithAndNotIfChanged sets v = v | gen | (in &^ kill) and reports whether
// v changed. This is the fused transfer-and-meet step of the liveness
// solver; when nothing changes it writes nothing.
func (v BitVector) OrWithAndNotIfChanged(gen, in, kill BitVector) bool {
	if len(v.words) == smallWords && gen.nbits == v.nbits && in.nbits == v.nbits && kill.nbits == v.nbits {
		// 256 bits: the whole equation in registers, no loop, no call.
		d, g, x, k := bytes256(v.words), bytes256(gen.words), bytes256(in.words), bytes256(kill.words)
		n0 := le.Uint64(g[0:]) | le.Uint64(x[0:])&^le.Uint64(k[0:])
		n1 := le.Uint64(g[8:]) | le.Uint64(x[8:])&^le.Uint64(k[8:])
		n2 := le.Uint64(g[16:]) | le.Uint64(x[16:])&^le.Uint64(k[16:])
		n3 := le.Uint64(g[24:]) | le.Uint64(x[24:])&^le.Uint64(k[24:])
		d0, d1, d2, d3 := le.Uint64(d[0:]), le.Uint64(d[8:]), le.Uint64(d[16:]), le.Uint64(d[24:])
		if n0&^d0|n1&^d1|n2&^d2|n3&^d3 == 0 {
			return false
		}
		le.PutUint64(d[0:], d0|n0)
		le.PutUint64(d[8:], d1|n1)
		le.PutUint64(d[16:], d2|n2)
		le.PutUint64(d[24:], d3|n3)
		return true
	}
	return v.orWithAndNotIfChangedSlow(gen, in, kill)
}

func (v BitVector) orWithAndNotIfChangedSlow(gen, in, kill BitVector) bool {
	if sameShape(v, gen) && sameShape(v, in) && sameShape(v, kill) {
		if len(v.words) <= smallWords {
			return orWithAndNotIfChangedSmall(v.words, gen.words, in.words, kill.words)
		}
		return active.OrWithAndNotIfChanged(v.words, gen.words, in.words, kill.words)
	}
	return active.OrWithAndNotIfChanged(v.words, gen.fitMasked(v), in.fitMasked(v), kill.fit(v))
}

// IsSubsetOf reports whether every bit set in v is set in a.
func (v BitVector) IsSubsetOf(a BitVector) bool {
	if len(v.words) <= len(a.words) {
		return active.IsSubsetOf(v.words, a.words)
	}
	n := len(a.words)
	if !active.IsSubsetOf(v.words[:n], a.words) {
		return false
	}
	return allZero(v.words[n:])
}

// Intersects returns the lowest bit set in both v and a, or -1 when they
// share none.
func (v BitVector) Intersects(a BitVector) int {
	n := min(len(v.words), len(a.words))
	return active.Intersects(v.words[:n], a.words[:n])
}

// PopCount returns the number of set bits.
func (v BitVector) PopCount() int { return active.PopCount(v.words) }

// Clear clears every bit.
func (v BitVector) Clear() { active.Clear(v.words) }

// Copy sets v = a.
func (v BitVector) Copy(a BitVector) {
	if sameShape(v, a) {
		active.Copy(v.words, a.words)
		return
	}
	active.Copy(v.words, a.fitMasked(v))
}

// Equal reports whether v and a hold the same set bits (zero-padded to the
// longer length).
func (v BitVector) Equal(a BitVector) bool {
	x, y := v.words, a.words
	if len(x) > len(y) {
		x, y = y, x
	}
	return active.Equal(x, y[:len(x)]) && allZero(y[len(x):])
}

// IsEmpty reports whether no bit is set.
func (v BitVector) IsEmpty() bool { return allZero(v.words) }

// ExtractBits returns bits [start, end) as an integer, bit start in the
// least significant position. It panics unless 0 <= start <= end <= Len()
// and end-start <= 64.
func (v BitVector) ExtractBits(start, end int) uint64 {
	if start < 0 || end < start || end > v.nbits || end-start > 64 {
		panic(fmt.Sprintf("bitvec: ExtractBits(%d, %d) on %d bits", start, end, v.nbits))
	}
	var r uint64
	got := 0
	for pos := start; pos < end; {
		w := v.words[pos>>5] >> (uint(pos) & 31)
		take := min(32-(pos&31), end-pos)
		if take < 32 {
			w &= uint32(1)<<uint(take) - 1
		}
		r |= uint64(w) << uint(got)
		got += take
		pos += take
	}
	return r
}

// NextSet returns the lowest set bit at a position >= i, or -1.
func (v BitVector) NextSet(i int) int {
	if i < 0 {
		i = 0
	}
	if i >= v.nbits {
		return -1
	}
	wi := i >> 5
	w := v.words[wi] >> (uint(i) & 31)
	if w != 0 {
		return i + bits.TrailingZeros32(w)
	}
	for wi++; wi < len(v.words); wi++ {
		if w := v.words[wi]; w != 0 {
			return wi<<5 + bits.TrailingZeros32(w)
		}
	}
	return -1
}

// All iterates over the set bits in increasing order. The vector must not
// change during the iteration.
func (v BitVector) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for wi, w := range v.words {
			for w != 0 {
				if !yield(wi<<5 + bits.TrailingZeros32(w)) {
					return
				}
				w &= w - 1
			}
		}
	}
}

// String prints the set bits as {1 5 9}.
func (v BitVector) String() string {
	b := []byte{'{'}
	for i := range v.All() {
		if len(b) > 1 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%d", i)
	}
	return string(append(b, '}'))
}

// le reads and writes the words of the 256-bit paths 64 bits at a time.
// The byte order only has to round-trip: OR, AND and AND-NOT act on each
// bit in place, whatever order the halves are loaded in.
var le = binary.LittleEndian

// bytes256 views the eight words of a 256-bit vector as bytes, so the
// fixed-size paths load them 64 bits at a time whatever their alignment
// (a byte pointer is always aligned, which keeps checkptr content).
//
// Callers check that the receiver has eight words and that every operand
// has the receiver's bit count; a vector's word count follows from its bit
// count (New, FromWords and Slab all make it so), so no bounds check is
// repeated here.
func bytes256(w []uint32) *[32]byte {
	return (*[32]byte)(unsafe.Pointer(unsafe.SliceData(w)))
}

// fit returns a's words resized to dst's word count: truncated when longer,
// zero-padded (into a fresh slice) when shorter. Used where bits beyond
// dst's length cannot leak in (And-like operations and kill sets).
func (a BitVector) fit(dst BitVector) []uint32 {
	n := len(dst.words)
	if len(a.words) >= n {
		return a.words[:n]
	}
	t := make([]uint32, n)
	copy(t, a.words)
	return t
}

// fitMasked is fit, and also clears bits of a that lie past dst's length,
// for operations that would otherwise carry them into dst.
func (a BitVector) fitMasked(dst BitVector) []uint32 {
	n := len(dst.words)
	r := dst.nbits & 31
	if len(a.words) < n || (len(a.words) > n && r == 0) || a.nbits <= dst.nbits {
		return a.fit(dst)
	}
	t := make([]uint32, n)
	copy(t, a.words)
	if r != 0 {
		t[n-1] &= uint32(1)<<r - 1
	}
	return t
}

func allZero(w []uint32) bool {
	for _, x := range w {
		if x != 0 {
			return false
		}
	}
	return true
}
