package core

import (
	"math/rand/v2"
	"testing"

	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

// TestBorrowWalker: the walker a liveness lends is the one its pressure
// walks reuse (no new one when a walk has sized it), a walk of the
// liveness while it is lent gets a walker of its own and leaves the lent
// one's state alone (block by block, the lent walker's maxima are
// PressureTraceBlocks' before and after that walk), a second borrow
// while lent gets a new walker, and after ReturnWalker the liveness's
// walks use its walker again.
func TestBorrowWalker(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 13))
	for k := range 200 {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 1 + rng.IntN(12), Regs: 1 + rng.IntN(40), MaxInstrs: rng.IntN(9)})
		l := ComputeLiveness(f, LiveOptions{})
		RegisterPressure(l) // sizes the liveness's walker
		own := l.buf.pw
		w := l.BorrowWalker(nil)
		if w != own || !l.buf.pwBusy {
			t.Fatalf("case %d: borrowed a walker other than the liveness's (%p, %p) or not marked lent", k, w, own)
		}
		if w2 := l.BorrowWalker(nil); w2 == w {
			t.Fatalf("case %d: a second borrow got the lent walker", k)
		} else {
			l.ReturnWalker(w2)
			if !l.buf.pwBusy {
				t.Fatalf("case %d: returning the second walker gave back the first", k)
			}
		}
		for b := range ir.BlockID(f.NumBlocks()) {
			want := PressureTraceBlocks(l, []ir.BlockID{b}, nil).Max
			if l.buf.pw != w {
				t.Fatalf("case %d: a walk while lent replaced the lent walker", k)
			}
			if got := w.Block(b, nil).Max; got != want {
				t.Fatalf("case %d block %d: lent walker %v, PressureTraceBlocks %v", k, b, got, want)
			}
		}
		l.ReturnWalker(w)
		if l.buf.pwBusy {
			t.Fatalf("case %d: still lent after ReturnWalker", k)
		}
		RegisterPressure(l)
		if l.buf.pw != w {
			t.Fatalf("case %d: the liveness's walks no longer use its walker", k)
		}
	}
}
