package core

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

// TestSearchRegs: the branch-free search finds what slices.BinarySearch
// finds, at the same index, on sorted sets of every small size and some
// large ones, registers near the ends of the ID range included.
func TestSearchRegs(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 340, 1000, 4097} {
		for rep := 0; rep < 20; rep++ {
			seen := map[ir.RegID]bool{}
			var a []ir.RegID
			for len(a) < n {
				r := ir.RegID(rng.Intn(3 * (n + 1)))
				if rep%4 == 3 {
					r = ^ir.RegID(0) - 1 - r // near the top of the range
				}
				if !seen[r] {
					seen[r] = true
					a = append(a, r)
				}
			}
			slices.Sort(a)
			for q := 0; q < 4*n+8; q++ {
				r := ir.RegID(rng.Intn(3*(n+1) + 2))
				if rep%4 == 3 {
					r = ^ir.RegID(0) - r
				}
				wx, wok := slices.BinarySearch(a, r)
				x, ok := searchRegs(a, r)
				if ok != wok || ok && x != wx {
					t.Fatalf("n=%d r=%d: searchRegs = %d,%v, BinarySearch = %d,%v", n, r, x, ok, wx, wok)
				}
			}
		}
	}
}
