package phases

import (
	"math/rand/v2"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

// TestWalkVals: the unroller's table of the values a walk wrote answers
// as a map per walk would: a register written in an earlier walk reads
// as unwritten, a rewrite replaces the value, and growing the table (a
// walk writing thousands of registers) keeps the present walk's values.
func TestWalkVals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tab walkVals
	grew := 0
	for gen := uint32(1); gen <= 60; gen++ {
		want := map[ir.RegID]uVal{}
		writes := 1 + rng.IntN(40)
		if gen%10 == 0 {
			writes = 5000 // past the first sizes
		}
		size := len(tab.slot)
		for range writes {
			// registers from a range the size of the walk's, so that some
			// are written twice, and dense like a function's
			r := ir.RegID(rng.IntN(2*writes + 50))
			v := uVal{kind: uConst, bits: rng.Uint64()}
			tab.put(r, v, gen)
			want[r] = v
			if rng.IntN(3) == 0 {
				q := ir.RegID(rng.IntN(2*writes + 50))
				got, ok := tab.get(q, gen)
				if w, had := want[q]; ok != had || ok && got != w {
					t.Fatalf("walk %d: register %d reads %v, %v; want %v, %v", gen, q, got, ok, w, had)
				}
			}
		}
		if len(tab.slot) > size {
			grew++
		}
		for r := range ir.RegID(2*writes + 50) {
			got, ok := tab.get(r, gen)
			if w, had := want[r]; ok != had || ok && got != w {
				t.Fatalf("walk %d: register %d reads %v, %v; want %v, %v", gen, r, got, ok, w, had)
			}
		}
		// the next walk starts empty
		if _, ok := tab.get(0, gen+1); ok {
			t.Fatalf("walk %d: a value of walk %d is read", gen+1, gen)
		}
	}
	if grew < 2 {
		t.Fatalf("the table grew %d times: the test did not reach the growth", grew)
	}
}
