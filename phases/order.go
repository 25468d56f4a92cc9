package phases

import "github.com/ptxopt/ptxopt/ir"

// instrOrder answers "which of two instructions of a block comes first"
// in constant time while a pass moves instructions around: each
// instruction has a number, increasing along its block, with gaps; an
// instruction linked at a new place takes a number between its
// neighbours', and only when they leave no gap is its block renumbered.
// A pass that looked for a value's first use by walking its block from
// the top spent time quadratic in the block's length.
type instrOrder struct {
	f   *ir.Func
	pos []uint64
}

// orderGap is the distance between the numbers of neighbours after a
// block is (re)numbered: room for many insertions between two of them.
const orderGap = 1 << 20

func newInstrOrder(f *ir.Func) *instrOrder {
	o := &instrOrder{f: f, pos: make([]uint64, len(f.Op))}
	for _, b := range f.Layout {
		o.number(b)
	}
	return o
}

// number renumbers block b.
func (o *instrOrder) number(b ir.BlockID) {
	n := uint64(orderGap)
	for i := o.f.BlockFirst[b]; i != ir.NoInstr; i = o.f.Next[i] {
		o.pos[i] = n
		n += orderGap
	}
}

// moved records that i was just linked at a new place.
func (o *instrOrder) moved(i ir.InstrID) {
	f := o.f
	lo := uint64(0)
	if p := f.Prev[i]; p != ir.NoInstr {
		lo = o.pos[p]
	}
	var hi uint64
	if n := f.Next[i]; n != ir.NoInstr {
		hi = o.pos[n]
	} else {
		hi = lo + 2*orderGap
	}
	if hi-lo < 2 {
		o.number(f.Block[i])
		return
	}
	o.pos[i] = lo + (hi-lo)/2
}

// before reports whether a comes before b (both in one block).
func (o *instrOrder) before(a, b ir.InstrID) bool { return o.pos[a] < o.pos[b] }
