package bench

import "github.com/bits-and-blooms/bitset"

// The bnb reference: each kernel composed from the public API of
// github.com/bits-and-blooms/bitset, the most used Go bitset, the way a
// user of that library would write it. The composition never allocates:
// where a temporary is needed (OrWithAndNot*, Intersects) it goes to one
// scratch set made once, as a careful user would do (in.Difference(kill)
// would allocate a fresh set per call and only make the peer look worse).
// The sets wrap the same 64-byte-aligned memory as the other impls
// (bitset.From over a uint64 view of the words), so the peer sees exactly
// the same data and alignment.

// newBNB returns the composed kernels; tmp is the scratch set, as long as
// the operands.
func newBNB(tmp *bitset.BitSet) *ops[*bitset.BitSet] {
	return &ops[*bitset.BitSet]{
		Or: func(dst, a *bitset.BitSet) { dst.InPlaceUnion(a) },
		OrIfChanged: func(dst, a *bitset.BitSet) bool {
			if dst.IsSuperSet(a) {
				return false
			}
			dst.InPlaceUnion(a)
			return true
		},
		And: func(dst, a *bitset.BitSet) { dst.InPlaceIntersection(a) },
		AndIfChanged: func(dst, a *bitset.BitSet) bool {
			if a.IsSuperSet(dst) {
				return false
			}
			dst.InPlaceIntersection(a)
			return true
		},
		AndNot: func(dst, a *bitset.BitSet) { dst.InPlaceDifference(a) },
		Xor:    func(dst, a *bitset.BitSet) { dst.InPlaceSymmetricDifference(a) },
		AssignAnd: func(dst, a, b *bitset.BitSet) {
			a.Copy(dst)
			dst.InPlaceIntersection(b)
		},
		OrWithAndNot: func(dst, gen, in, kill *bitset.BitSet) {
			in.Copy(tmp)
			tmp.InPlaceDifference(kill)
			dst.InPlaceUnion(gen)
			dst.InPlaceUnion(tmp)
		},
		OrWithAndNotIfChanged: func(dst, gen, in, kill *bitset.BitSet) bool {
			in.Copy(tmp)
			tmp.InPlaceDifference(kill)
			tmp.InPlaceUnion(gen)
			if dst.IsSuperSet(tmp) {
				return false
			}
			dst.InPlaceUnion(tmp)
			return true
		},
		IsSubsetOf: func(a, b *bitset.BitSet) bool { return b.IsSuperSet(a) },
		Intersects: func(a, b *bitset.BitSet) int {
			if a.IntersectionCardinality(b) == 0 {
				return -1
			}
			a.Copy(tmp)
			tmp.InPlaceIntersection(b)
			i, _ := tmp.NextSet(0)
			return int(i)
		},
		PopCount: func(a *bitset.BitSet) int { return int(a.Count()) },
		Equal:    func(a, b *bitset.BitSet) bool { return a.Equal(b) },
		Clear:    func(dst *bitset.BitSet) { dst.ClearAll() },
		Copy:     func(dst, src *bitset.BitSet) { src.Copy(dst) },
	}
}
