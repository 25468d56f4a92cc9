package sim

import "github.com/ptxopt/ptxopt/ir"

// CTA barriers: bar{.cta}.sync / barrier{.cta}.sync, bar.arrive,
// bar.red.{popc,and,or}.
//
// A CTA has 16 barriers. A warp arrives at barrier a as a whole: PTX
// counts arrivals per warp, incrementing the count by the warp size (32,
// whatever the warp's active threads; a last partial warp counts 32
// too, so a count rounded up to a multiple of 32 completes). A
// barrier with a thread count b completes when the threads that arrived
// in the current phase reach b; one without completes when every warp
// that has not exited has arrived. bar.sync and bar.red wait for the
// completion, bar.arrive does not. Warps released by a completion resume
// in the next round of the scheduler (runCTA runs the warps in index
// order, each until it waits or exits, then releases), so a kernel with
// one barrier runs as before; warps waiting at barriers that can no
// longer complete are a deadlock, which traps.
//
// bar.red reduces the predicate c of the threads that execute it (the
// active lanes whose guard holds) over all the warps of the phase: popc
// counts the true ones (.u32), and is true when all are, or when any is;
// every thread that executed it receives the result when the barrier
// completes.

// Barrier operations (inst.sub of a ctlBar instruction).
const (
	barSync uint8 = iota
	barArrive
	barRed
)

// bar.red operations (inst.size).
const (
	redPopc uint8 = iota + 1
	redAnd
	redOr
)

type barrier struct {
	arrived  int    // threads arrived in this phase
	expected int    // the thread count of the phase (0: every warp)
	warps    uint32 // the warps that arrived (a warp index is below 32)
	popc     uint64
	all, any bool
}

func (b *barrier) reset() { *b = barrier{all: true} }

func (d *decoder) barrier(in *inst, dst, src []ir.Operand) error {
	in.ctl = ctlBar
	switch {
	case d.has("arrive"):
		in.sub = barArrive
	case d.has("red"):
		in.sub = barRed
		switch d.hasAny("popc", "and", "or") {
		case "popc":
			in.size = redPopc
		case "and":
			in.size = redAnd
		case "or":
			in.size = redOr
		default:
			return unsup(in, "reduction")
		}
	}
	if len(src) == 0 {
		// "barrier.sync;" is not PTX, but bar.sync always had a barrier 0
		in.s[0], in.ns = opnd{k: oImm}, 1
		return nil
	}
	var pred ir.Operand = ir.NoOperand
	if in.sub == barRed {
		if len(dst) != 1 || len(src) < 2 || len(src) > 3 {
			return unsup(in, "operands")
		}
		pred, src = src[len(src)-1], src[:len(src)-1]
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
	}
	if len(src) > 2 || in.sub == barArrive && len(src) != 2 {
		return unsup(in, "operands")
	}
	if err := d.setSrcs(in, src, ir.TU32); err != nil {
		return err
	}
	if pred != ir.NoOperand {
		v, err := d.src(pred, ir.TPred)
		if err != nil {
			return err
		}
		in.s[2] = v
	}
	return nil
}

// arrive registers the arrival of w (the lanes of mask execute in) at a
// barrier; it reports whether w waits.
func (w *warp) arrive(in *inst, mask uint32) bool {
	l := trailing(mask)
	id := w.val(&in.s[0], l) & 0xffffffff
	if id >= 16 {
		w.trap(in, l, id, "barrier number out of range")
		return false
	}
	c := w.c
	b := &c.bars[id]
	if in.ns > 1 {
		n := int(w.val(&in.s[1], l) & 0xffffffff)
		if n <= 0 || n > len(c.warps)*32 {
			w.trap(in, l, uint64(n), "barrier thread count out of range")
			return false
		}
		b.expected = n
	}
	if in.sub == barRed {
		for x := mask; x != 0; x &= x - 1 {
			p := w.val(&in.s[2], trailing(x))&1 != 0
			b.popc += b2u(p)
			b.all = b.all && p
			b.any = b.any || p
		}
		w.redIn, w.redMask = in, mask
	}
	b.arrived += 32
	b.warps |= 1 << w.id
	wait := in.sub != barArrive
	if wait {
		w.atBar, w.barID = true, int8(id)
	}
	if b.expected > 0 && b.arrived >= b.expected {
		c.complete(int(id))
	} else if b.expected == 0 {
		c.completeIfAll(int(id))
	}
	return wait
}

// completeIfAll completes barrier id (one without a thread count) when
// every warp that has not exited has arrived.
func (c *cta) completeIfAll(id int) {
	b := &c.bars[id]
	if b.expected != 0 || b.warps == 0 {
		return
	}
	for _, w := range c.warps {
		if !w.done && b.warps&(1<<w.id) == 0 {
			return
		}
	}
	c.complete(id)
}

// complete ends the phase of barrier id: the warps waiting at it get the
// reduction's result and are released at the end of the scheduler's
// round.
func (c *cta) complete(id int) {
	b := &c.bars[id]
	for _, w := range c.warps {
		if !w.atBar || int(w.barID) != id || b.warps&(1<<w.id) == 0 {
			continue
		}
		if in := w.redIn; in != nil {
			var r uint64
			switch in.size {
			case redPopc:
				r = b.popc
			case redAnd:
				r = b2u(b.all)
			case redOr:
				r = b2u(b.any)
			}
			d := int(in.d[0]) << 5
			for x := w.redMask; x != 0; x &= x - 1 {
				w.regs[d|trailing(x)] = r
			}
			w.redIn = nil
		}
		w.release = true
	}
	b.reset()
}
