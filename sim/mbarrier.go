package sim

import (
	"github.com/ptxopt/ptxopt/ir"
)

// mbarrier objects (PTX ISA "Parallel Synchronization and Communication
// Instructions: mbarrier").
//
// An mbarrier is an opaque 8-byte object in shared memory. Its state is
// a current phase (only the parity is observable), the pending arrival
// count of the phase, the expected arrival count each new phase starts
// with, and a transaction count (tx-count, bytes of asynchronous copies
// still to complete). A phase completes when the pending count and the
// tx-count are both zero: the parity flips, the pending count is reset
// to the expected count and the tx-count to zero.
//
// The ISA leaves the object's encoding to the implementation; the
// simulator keeps the state in the object's own 8 bytes (so it lives and
// dies with the CTA's shared memory), as
//
//	bits  0-19: pending arrival count
//	bits 20-39: expected arrival count
//	bits 40-61: tx-count, 22-bit two's complement
//	bit     63: phase parity
//
// The opaque state an arrive returns is this word as it was before the
// arrive (it carries the phase the arrive belonged to); test_wait and
// try_wait with a state test whether that phase completed, the .parity
// forms whether the phase of that parity did (the current phase's parity
// is not complete, the other one, the preceding phase, is).
//
// try_wait and test_wait that find the phase incomplete make the warp
// yield (a suspended thread, as the ISA allows try_wait to be): the
// CTA's scheduler runs the other warps before the waiting one retries,
// so the producer/consumer loops of warp-specialized kernels make
// progress. Rounds of the scheduler in which every live warp only waits
// and no mbarrier, barrier or exit changes anything are a deadlock and
// trap (after mbarStallRounds of them).
//
// What is undefined behaviour in the ISA traps: an arrive on a phase
// whose pending count is already zero, a count outside 1..2^20-1, a
// tx-count leaving its range, an .noComplete arrive that completes the
// phase, and any operation but init on an invalidated object (the
// zeroed word an invalidated or never-initialized object holds).

const (
	mbCountMask   = 1<<20 - 1
	mbExpShift    = 20
	mbTxShift     = 40
	mbTxBits      = 22
	mbPhaseBit    = uint64(1) << 63
	mbTxMax       = 1<<20 - 1
	mbStallRounds = 1000
)

// mbarrier operations (inst.sub).
const (
	mbInit uint8 = iota
	mbInval
	mbArrive
	mbExpectTx
	mbCompleteTx
	mbTestWait
	mbPendingCount
)

// arrive flags (inst.bop).
const (
	mbfExpectTx   uint8 = 1 << iota // arrive.expect_tx: the operand is a tx-count
	mbfNoComplete                   // arrive.noComplete
	mbfDrop                         // arrive_drop
	mbfParity                       // the wait's operand is a phase parity
	mbfCount                        // arrive has an explicit count
)

type mbState struct {
	pending, expected uint32
	tx                int32
	phase             bool
}

func unpackMbar(v uint64) mbState {
	tx := int32(uint32(v>>mbTxShift)&(1<<mbTxBits-1)<<(32-mbTxBits)) >> (32 - mbTxBits)
	return mbState{pending: uint32(v & mbCountMask), expected: uint32(v>>mbExpShift) & mbCountMask, tx: tx, phase: v&mbPhaseBit != 0}
}

func (s mbState) pack() uint64 {
	v := uint64(s.pending&mbCountMask) | uint64(s.expected&mbCountMask)<<mbExpShift | uint64(uint32(s.tx)&(1<<mbTxBits-1))<<mbTxShift
	if s.phase {
		v |= mbPhaseBit
	}
	return v
}

// valid: an initialized object has an expected count of at least one
// (init refuses zero; arrive_drop can lower it to zero only with the
// phase's own arrivals, and an object left so is dead).
func (s mbState) valid() bool { return s.expected != 0 || s.pending != 0 }

// settle completes the phase when nothing is pending.
func (s *mbState) settle() {
	if s.pending == 0 && s.tx == 0 {
		s.phase = !s.phase
		s.pending = s.expected
	}
}

func (d *decoder) mbarrier(in *inst, dst, src []ir.Operand) error {
	if len(d.parts) < 2 {
		return unsup(in, "")
	}
	if in.sp == ir.SpaceNone {
		in.sp = ir.SpaceGeneric
	}
	if in.sp != ir.SpaceShared && in.sp != ir.SpaceSharedCluster && in.sp != ir.SpaceGeneric {
		return unsup(in, "state space")
	}
	// the value operands after the address
	var vals []ir.Operand
	needDst := false
	switch d.parts[1] {
	case "init":
		in.sub = mbInit
	case "inval":
		in.sub = mbInval
	case "arrive", "arrive_drop":
		in.sub = mbArrive
		needDst = true
		if d.parts[1] == "arrive_drop" {
			in.bop |= mbfDrop
		}
		if d.has("expect_tx") {
			in.bop |= mbfExpectTx
		}
		if d.has("noComplete") {
			in.bop |= mbfNoComplete
		}
	case "expect_tx":
		in.sub = mbExpectTx
	case "complete_tx":
		in.sub = mbCompleteTx
	case "test_wait", "try_wait":
		in.sub = mbTestWait
		needDst = true
		if d.has("parity") {
			in.bop |= mbfParity
		}
	case "pending_count":
		in.sub = mbPendingCount
		if len(dst) != 1 || len(src) != 1 {
			return unsup(in, "operands")
		}
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
		if err := d.setSrcs(in, src, ir.TU64); err != nil {
			return err
		}
		in.fn = execMbarrier
		return nil
	default:
		return unsup(in, "")
	}
	if needDst {
		if len(dst) != 1 {
			return unsup(in, "operands")
		}
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
	} else if len(dst) != 0 {
		return unsup(in, "operands")
	}
	if len(src) < 1 || src[0].Kind() != ir.KAddr {
		return unsup(in, "operands")
	}
	if err := d.addr(in, src[0]); err != nil {
		return err
	}
	vals = src[1:]
	want := 0
	switch in.sub {
	case mbInit, mbExpectTx, mbCompleteTx:
		want = 1
	case mbArrive:
		if len(vals) == 1 {
			want = 1
			if in.bop&mbfExpectTx == 0 {
				in.bop |= mbfCount
			}
		} else if in.bop&(mbfExpectTx|mbfNoComplete) != 0 {
			return unsup(in, "operands")
		}
	case mbTestWait:
		// a state or phase parity, and try_wait's optional suspend hint
		// (a time the simulator does not model)
		if len(vals) == 2 && d.parts[1] == "try_wait" {
			vals = vals[:1]
		}
		want = 1
	}
	if len(vals) != want {
		return unsup(in, "operands")
	}
	if want == 1 {
		t := ir.TU32
		if in.sub == mbTestWait && in.bop&mbfParity == 0 {
			t = ir.TU64
		}
		v, err := d.src(vals[0], t)
		if err != nil {
			return err
		}
		in.s[0], in.ns = v, 1
	}
	in.size = 8
	in.fn = execMbarrier
	return nil
}

// execMbarrier runs an mbarrier operation for the lanes of m, one thread
// after the other in lane order.
func execMbarrier(w *warp, in *inst, m uint32) {
	if in.sub == mbPendingCount {
		d := int(in.d[0]) << 5
		for x := m; x != 0; x &= x - 1 {
			l := trailing(x)
			w.regs[d|l] = uint64(unpackMbar(w.val(&in.s[0], l)).pending)
		}
		return
	}
	waited := false
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		a := w.val(&in.addr, l) + in.off
		b := w.mem(in, in.sp, a, 8, l, in.sub != mbTestWait)
		if b == nil {
			return
		}
		word := getLE(b)
		s := unpackMbar(word)
		var v uint64
		if in.ns > 0 {
			v = w.val(&in.s[0], l)
		}
		if in.sub != mbInit && !s.valid() {
			w.trap(in, l, a, "mbarrier operation on an object that is not initialized")
			return
		}
		switch in.sub {
		case mbInit:
			n := uint32(v)
			if n == 0 || n > mbCountMask {
				w.trap(in, l, uint64(n), "mbarrier.init count out of range")
				return
			}
			s = mbState{pending: n, expected: n}
		case mbInval:
			s = mbState{}
		case mbArrive:
			count := uint32(1)
			if in.bop&mbfCount != 0 {
				count = uint32(v)
				if count == 0 || count > mbCountMask {
					w.trap(in, l, uint64(count), "mbarrier.arrive count out of range")
					return
				}
			}
			if in.bop&mbfExpectTx != 0 && !s.addTx(int64(uint32(v))) {
				w.trap(in, l, a, "mbarrier tx-count out of range")
				return
			}
			if count > s.pending {
				w.trap(in, l, a, "mbarrier arrive-on beyond the pending arrival count")
				return
			}
			if in.bop&mbfDrop != 0 {
				if count > s.expected {
					w.trap(in, l, a, "mbarrier arrive_drop beyond the expected arrival count")
					return
				}
				s.expected -= count
			}
			s.pending -= count
			old := s.phase
			s.settle()
			if in.bop&mbfNoComplete != 0 && s.phase != old {
				w.trap(in, l, a, "mbarrier.arrive.noComplete completed the phase")
				return
			}
			w.regs[int(in.d[0])<<5|l] = word
		case mbExpectTx:
			if !s.addTx(int64(uint32(v))) {
				w.trap(in, l, a, "mbarrier tx-count out of range")
				return
			}
		case mbCompleteTx:
			if !s.addTx(-int64(uint32(v))) {
				w.trap(in, l, a, "mbarrier tx-count out of range")
				return
			}
			s.settle()
		case mbTestWait:
			var done bool
			if in.bop&mbfParity != 0 {
				// the phase of parity v completed unless it is the
				// current one
				done = s.phase != (v&1 != 0)
			} else {
				done = s.phase != (v&mbPhaseBit != 0)
			}
			w.regs[int(in.d[0])<<5|l] = b2u(done)
			if !done {
				waited = true
			}
			continue
		}
		if nw := s.pack(); nw != word {
			putLE(b, nw)
			w.c.mbarEpoch++
		}
	}
	if waited {
		w.spin = true
	}
}

// addTx adds n to the tx-count; false when it leaves the ISA's range.
func (s *mbState) addTx(n int64) bool {
	t := int64(s.tx) + n
	if t > mbTxMax || t < -mbTxMax {
		return false
	}
	s.tx = int32(t)
	return true
}

// completeTx performs complete_tx of n bytes on the mbarrier at shared
// address a (an asynchronous copy's completion), as thread l.
func (w *warp) completeTx(in *inst, a uint64, n int64, l int) {
	b := w.mem(in, ir.SpaceShared, a, 8, l, true)
	if b == nil {
		return
	}
	s := unpackMbar(getLE(b))
	if !s.valid() {
		w.trap(in, l, a, "mbarrier operation on an object that is not initialized")
		return
	}
	if !s.addTx(-n) {
		w.trap(in, l, a, "mbarrier tx-count out of range")
		return
	}
	s.settle()
	putLE(b, s.pack())
	w.c.mbarEpoch++
}
