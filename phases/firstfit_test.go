package phases

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

// TestLevelBitsNext checks the summary-level set against a plain sorted
// list: every member found in order from every start, across sizes that
// need one, two and three levels.
func TestLevelBitsNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 63, 64, 65, 4095, 4096, 4097, 300_000} {
		s := newLevelBits(n)
		var members []int
		for range min(n, 2000) {
			p := rng.IntN(n)
			s.add(p)
			members = append(members, p)
		}
		slices.Sort(members)
		members = slices.Compact(members)
		starts := []int{0, n, n + 100}
		for range 200 {
			if n > 0 {
				starts = append(starts, rng.IntN(n))
			}
		}
		for _, p := range starts {
			want := -1
			if k, _ := slices.BinarySearch(members, p); k < len(members) {
				want = members[k]
			}
			if got := s.next(p); got != want {
				t.Fatalf("n=%d: next(%d) = %d, want %d", n, p, got, want)
			}
		}
	}
}

// TestFreeRegsFirstFit checks freeRegs against the scan it replaced in
// reuseFree: the lowest register of the type, not a parameter, not taken,
// not the excluded one, and (on the first try) one some class ends in,
// over random register files, exclusions and marks.
func TestFreeRegsFirstFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	types := []ir.Type{ir.TB32, ir.TU32, ir.TB64, ir.TPred}
	for round := range 50 {
		nr := 1 + rng.IntN(3000)
		f := &ir.Func{}
		param := make([]bool, nr)
		for r := range nr {
			f.AddReg(0, types[rng.IntN(len(types))])
			param[r] = rng.IntN(20) == 0
		}
		s := newFreeRegs(f, nr, param)
		inUse := make([]bool, nr)
		taken := make([]bool, nr)
		for q := range 300 {
			if rng.IntN(3) == 0 {
				r := ir.RegID(rng.IntN(nr))
				inUse[r] = true
				s.markUsed(f, r)
			}
			var marked []ir.RegID
			for range rng.IntN(8) {
				r := ir.RegID(rng.IntN(nr))
				taken[r] = true
				marked = append(marked, r)
			}
			ty := types[rng.IntN(len(types))]
			not := ir.RegID(rng.IntN(nr + 2))
			for pass := range 2 {
				want := ir.NoReg
				for r := range nr {
					if !taken[r] && !param[r] && f.RegType[r] == ty && ir.RegID(r) != not && (pass == 1 || inUse[r]) {
						want = ir.RegID(r)
						break
					}
				}
				if got := s.first(ty, pass == 0, taken, not); got != want {
					t.Fatalf("round %d query %d pass %d: first = %d, want %d", round, q, pass, got, want)
				}
			}
			for _, r := range marked {
				taken[r] = false
			}
		}
	}
}
