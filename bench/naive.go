package bench

import (
	"math/bits"

	"github.com/ptxopt/ptxopt/bitvec"
)

// The naive32 reference: the loop anyone would write first over []uint32,
// one word per step, `for i := range dst`, no unrolling, no reslicing to
// help bounds-check elimination, and scan-first for the IfChanged kernels
// (look for a word that would change; only from there on write). It is the
// "x× the naive loop" yardstick of the report.

// Naive32 is the naive reference as a kernel set (its Impl field is
// meaningless).
var Naive32 = &bitvec.Kernels{
	Or:                    naiveOr,
	OrIfChanged:           naiveOrIfChanged,
	And:                   naiveAnd,
	AndIfChanged:          naiveAndIfChanged,
	AndNot:                naiveAndNot,
	Xor:                   naiveXor,
	AssignAnd:             naiveAssignAnd,
	OrWithAndNot:          naiveOrWithAndNot,
	OrWithAndNotIfChanged: naiveOrWithAndNotIfChanged,
	IsSubsetOf:            naiveIsSubsetOf,
	Intersects:            naiveIntersects,
	PopCount:              naivePopCount,
	Equal:                 naiveEqual,
	Clear:                 naiveClear,
	Copy:                  naiveCopy,
}

func naiveOr(dst, a []uint32) {
	for i := range dst {
		dst[i] |= a[i]
	}
}

func naiveOrIfChanged(dst, a []uint32) bool {
	for i := range dst {
		if a[i]&^dst[i] != 0 {
			for ; i < len(dst); i++ {
				dst[i] |= a[i]
			}
			return true
		}
	}
	return false
}

func naiveAnd(dst, a []uint32) {
	for i := range dst {
		dst[i] &= a[i]
	}
}

func naiveAndIfChanged(dst, a []uint32) bool {
	for i := range dst {
		if dst[i]&^a[i] != 0 {
			for ; i < len(dst); i++ {
				dst[i] &= a[i]
			}
			return true
		}
	}
	return false
}

func naiveAndNot(dst, a []uint32) {
	for i := range dst {
		dst[i] &^= a[i]
	}
}

func naiveXor(dst, a []uint32) {
	for i := range dst {
		dst[i] ^= a[i]
	}
}

func naiveAssignAnd(dst, a, b []uint32) {
	for i := range dst {
		dst[i] = a[i] & b[i]
	}
}

func naiveOrWithAndNot(dst, gen, in, kill []uint32) {
	for i := range dst {
		dst[i] |= gen[i] | in[i]&^kill[i]
	}
}

func naiveOrWithAndNotIfChanged(dst, gen, in, kill []uint32) bool {
	for i := range dst {
		if (gen[i]|in[i]&^kill[i])&^dst[i] != 0 {
			for ; i < len(dst); i++ {
				dst[i] |= gen[i] | in[i]&^kill[i]
			}
			return true
		}
	}
	return false
}

func naiveIsSubsetOf(a, b []uint32) bool {
	for i := range a {
		if a[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

func naiveIntersects(a, b []uint32) int {
	for i := range a {
		if w := a[i] & b[i]; w != 0 {
			return i*32 + bits.TrailingZeros32(w)
		}
	}
	return -1
}

func naivePopCount(a []uint32) int {
	n := 0
	for i := range a {
		n += bits.OnesCount32(a[i])
	}
	return n
}

func naiveEqual(a, b []uint32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// naiveClear is the obvious loop; the Go compiler turns this idiom into a
// memclr call, which is what a user of the naive loop gets.
func naiveClear(dst []uint32) {
	for i := range dst {
		dst[i] = 0
	}
}

func naiveCopy(dst, src []uint32) {
	for i := range dst {
		dst[i] = src[i]
	}
}
