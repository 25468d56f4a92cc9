package sim

import (
	"encoding/binary"
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

// Operand kinds of decoded sources.
type okind uint8

const (
	oReg    okind = iota // register
	oImm                 // constant (immediates, symbol addresses)
	oSpec                // special register
	oRegXor              // register xor v (predicate or float negation)
	oRegNeg              // integer register negated (two's complement)
)

type opnd struct {
	k okind
	r uint32
	v uint64
}

// Control kinds.
const (
	ctlNone uint8 = iota
	ctlBra
	ctlBrx
	ctlExit
	ctlRet
	ctlBar
	ctlTrap
	ctlCall
)

// sfn is a scalar per-lane operation.
type sfn func(in *inst, a, b, c, d uint64) uint64

// inst is one decoded instruction.
type inst struct {
	fn   func(w *warp, in *inst, m uint32)
	f    sfn
	ef   sfn // element op of packed f16x2/bf16x2
	ctl  uint8
	nd   uint8
	ns   uint8
	vec  uint8
	sub  uint8
	bop  uint8
	rnd  uint8
	ftz  bool
	sat  bool
	hasG bool
	gneg bool
	t    ir.Type
	t2   ir.Type
	sp   ir.Space
	size uint8 // memory access size in bytes (per element)
	ff   ffmt
	ii   intInfo
	g    uint32
	d    [4]uint32
	s    [5]opnd
	addr opnd
	off  uint64
	// control
	target int32
	rpc    int32 // reconvergence pc (-1: function exit)
	tgts   []int32
	callee *Program
	cl     *callInfo
	tx     *texInfo
	mt     *matInfo
	bk     *bulkInfo
	name   string
}

type entry struct {
	pc, rpc int32
	mask    uint32
}

type cta struct {
	id    [3]uint32
	sh    *space
	warps []*warp
	bars  [16]barrier
	// mbarEpoch counts changes of the CTA's mbarrier objects (the
	// scheduler's progress test for warps that wait on them)
	mbarEpoch uint64
}

type warp struct {
	m     *machine
	p     *Program
	c     *cta
	id    int
	regs  []uint64
	stack []entry
	live  uint32 // lanes that exist and have not exited
	done  bool
	atBar bool // waits at barrier barID
	barID int8
	// release: the barrier completed, the warp runs again next round
	release bool
	// a bar.red the warp waits at, and its lanes
	redIn   *inst
	redMask uint32
	// spin: the warp's last instruction was an mbarrier wait that found
	// the phase incomplete; it yields to the other warps (mbarrier.go)
	spin   bool
	tid    [32][3]uint32
	lv     *space // .local variables: lane l at l*lstride
	lstr   uint64
	pa     []byte // .param call-argument variables: lane l at l*pstr
	pstr   int
	frames []frame
	hit    []bool // coverage of the current program (nil: not recorded)
}

type machine struct {
	p      *Program
	l      *Launch
	mem    *Memory
	params []byte
	err    error
	steps  int64
	lanes  int64
	max    int64
	cov    *Coverage
	cbank  []byte // the .const bytes of this run
	used   int64  // pages of paged spaces in use
	// shared marks the kernel's registers held once per warp (nil: the
	// default per-lane model; warpshared.go).
	shared []bool
	// uninterpreted functions: results fixed by the launch, whether
	// integer results take the full width, a scratch record
	externPtr map[externKey]uint64
	// externNear: values integer results are drawn from on half of the
	// calls (ExternResult.Near)
	externNear map[externKey][]uint64
	extWide    bool
	// extThread: the results of OptiX intrinsics depend on the thread
	extThread bool
	recBuf    []byte
}

func (w *warp) val(o *opnd, l int) uint64 {
	switch o.k {
	case oReg:
		return w.regs[int(o.r)<<5|l]
	case oImm:
		return o.v
	case oRegXor:
		return w.regs[int(o.r)<<5|l] ^ o.v
	case oRegNeg:
		return -w.regs[int(o.r)<<5|l]
	}
	return w.special(o, l)
}

// Special registers.
const (
	spTid uint32 = iota
	spNtid
	spCtaid
	spNctaid
	spLaneid
	spWarpid
	spNwarpid
	spLanemaskEq
	spLanemaskLe
	spLanemaskLt
	spLanemaskGe
	spLanemaskGt
	spZero
	spOne
	spSmid
	spNsmid
	spGridid
	spClock
	spDynSmem
	spTotalSmem
)

func (w *warp) special(o *opnd, l int) uint64 {
	m := w.m
	switch o.r {
	case spTid:
		return uint64(w.tid[l][o.v])
	case spNtid:
		return uint64(dimOf(m.l.Block, int(o.v)))
	case spCtaid:
		return uint64(w.c.id[o.v])
	case spNctaid:
		return uint64(dimOf(m.l.Grid, int(o.v)))
	case spLaneid:
		return uint64(l)
	case spWarpid:
		return uint64(w.id)
	case spNwarpid:
		return 64
	case spLanemaskEq:
		return 1 << l
	case spLanemaskLe:
		return uint64(uint32(2<<l) - 1)
	case spLanemaskLt:
		return uint64(uint32(1<<l) - 1)
	case spLanemaskGe:
		return uint64(^uint32(1<<l - 1))
	case spLanemaskGt:
		return uint64(^uint32(2<<l - 1))
	case spNsmid:
		return 1
	case spDynSmem:
		return uint64(m.l.DynShared)
	case spTotalSmem:
		return uint64(m.p.sharedSize + m.l.DynShared)
	}
	return 0
}

func dimOf(d Dim3, c int) int {
	switch c {
	case 0:
		return d.X
	case 1:
		return d.Y
	}
	return d.Z
}

// guard returns the lanes of m whose guard predicate holds.
func (w *warp) guard(in *inst, m uint32) uint32 {
	base := int(in.g) << 5
	var r uint32
	for x := m; x != 0; x &= x - 1 {
		l := bits.TrailingZeros32(x)
		if (w.regs[base+l] != 0) != in.gneg {
			r |= 1 << l
		}
	}
	return r
}

func (w *warp) trap(in *inst, l int, addr uint64, msg string) {
	if w.m.err != nil {
		return
	}
	pc := -1
	if len(w.stack) > 0 {
		pc = int(w.stack[len(w.stack)-1].pc)
	}
	lane := -1
	if l >= 0 {
		lane = w.id*32 + l
	}
	w.m.err = &Trap{Kernel: w.p.name, PC: pc, Instr: in.name, Lane: lane, Addr: addr, Msg: msg}
}

// retire removes lanes from the warp (exit).
func (w *warp) retire(m uint32) {
	w.live &^= m
	for i := range w.stack {
		w.stack[i].mask &^= m
	}
	for i := range w.frames {
		fr := &w.frames[i]
		fr.mask &^= m
		for j := range fr.stack {
			fr.stack[j].mask &^= m
		}
	}
}

// run executes the warp until it finishes, waits at a barrier or faults.
func (w *warp) run() {
	m := w.m
	for {
		n := len(w.stack)
		if n == 0 {
			if len(w.frames) > 0 {
				w.popFrame()
				continue
			}
			w.done = true
			return
		}
		top := &w.stack[n-1]
		if top.mask == 0 || top.pc == top.rpc {
			w.stack = w.stack[:n-1]
			continue
		}
		code := w.p.code
		pc := top.pc
		if int(pc) >= len(code) {
			// fell off the end of the function: like ret
			if len(w.frames) > 0 {
				w.stack = w.stack[:0]
				continue
			}
			w.retire(top.mask)
			continue
		}
		in := &code[pc]
		mask := top.mask
		if in.hasG {
			mask = w.guard(in, mask)
		}
		m.steps++
		m.lanes += int64(bits.OnesCount32(mask))
		if m.steps > m.max {
			w.trap(in, -1, 0, "step limit exceeded")
			if t, ok := m.err.(*Trap); ok {
				t.StepLimit = true
			}
			return
		}
		if mask != 0 && w.hit != nil {
			w.hit[pc] = true
		}
		switch in.ctl {
		case ctlNone:
			top.pc = pc + 1
			if mask != 0 && in.fn != nil {
				in.fn(w, in, mask)
				if m.shared != nil && w.p == m.p {
					w.share(in, mask)
				}
				if m.err != nil || w.spin {
					return
				}
			}
		case ctlBra:
			w.branch(top, pc, in, mask)
		case ctlBrx:
			w.brx(top, pc, in, mask)
			if m.err != nil {
				return
			}
		case ctlExit:
			top.pc = pc + 1
			w.retire(mask)
		case ctlRet:
			top.pc = pc + 1
			if len(w.frames) == 0 {
				w.retire(mask)
			} else {
				w.retFrame(mask)
			}
		case ctlBar:
			top.pc = pc + 1
			if mask != 0 && w.arrive(in, mask) {
				return
			}
			if m.err != nil {
				return
			}
		case ctlTrap:
			top.pc = pc + 1
			if mask != 0 {
				w.trap(in, bits.TrailingZeros32(mask), 0, trapInstrMsg)
				return
			}
		case ctlCall:
			top.pc = pc + 1
			if mask != 0 {
				w.call(in, mask)
				if m.err != nil {
					return
				}
			}
		}
	}
}

func (w *warp) branch(top *entry, pc int32, in *inst, taken uint32) {
	all := top.mask
	not := all &^ taken
	switch {
	case not == 0:
		top.pc = in.target
	case taken == 0:
		top.pc = pc + 1
	default:
		// Which side runs first is not something PTX defines, but it
		// decides the order of float atomics (and so their rounding):
		// the side whose code comes first in the layout, past
		// unconditional jumps, runs first, so inverting a branch
		// ("@p bra A; bra B; A:" into "@!p bra B; A:") keeps the order.
		first, fm, second, sm := in.target, taken, pc+1, not
		if w.p.resolveJump(pc+1) < w.p.resolveJump(in.target) {
			first, fm, second, sm = pc+1, not, in.target, taken
		}
		r := in.rpc
		if r == top.rpc {
			top.pc, top.mask = second, sm
			w.stack = append(w.stack, entry{first, r, fm})
		} else {
			top.pc = r
			w.stack = append(w.stack, entry{second, r, sm}, entry{first, r, fm})
		}
	}
}

// resolveJump follows unguarded direct jumps from pc (a few at most) and
// returns where the code really starts.
func (p *Program) resolveJump(pc int32) int32 {
	for k := 0; k < 8 && int(pc) < len(p.code); k++ {
		in := &p.code[pc]
		if in.ctl != ctlBra || in.hasG {
			break
		}
		pc = in.target
	}
	return pc
}

func (w *warp) brx(top *entry, pc int32, in *inst, mask uint32) {
	if mask != top.mask {
		w.trap(in, -1, 0, "guarded brx.idx is not supported")
		return
	}
	// group lanes by target
	var groups [32]entry
	ng := 0
	for x := mask; x != 0; x &= x - 1 {
		l := bits.TrailingZeros32(x)
		idx := w.val(&in.s[0], l) & 0xffffffff
		if idx >= uint64(len(in.tgts)) {
			w.trap(in, l, idx, "brx.idx index out of range")
			return
		}
		t := in.tgts[idx]
		k := 0
		for k < ng && groups[k].pc != t {
			k++
		}
		if k == ng {
			groups[k] = entry{t, in.rpc, 0}
			ng++
		}
		groups[k].mask |= 1 << l
	}
	if ng == 1 {
		top.pc = groups[0].pc
		return
	}
	r := in.rpc
	if r == top.rpc {
		*top = groups[0]
		w.stack = append(w.stack, groups[1:ng]...)
	} else {
		top.pc = r
		w.stack = append(w.stack, groups[:ng]...)
	}
}

// Memory access.

const paramLocalBase = 1 << 24

// trapInstrMsg is the message of the trap a trap instruction (or
// __assertfail) raises.
const trapInstrMsg = "trap instruction"

// mem returns the bytes [addr, addr+size) of space sp as seen by lane l,
// or nil after setting a trap.
func (w *warp) mem(in *inst, sp ir.Space, addr uint64, size int, l int, write bool) []byte {
	if addr&uint64(size-1) != 0 {
		w.trap(in, l, addr, "misaligned access")
		return nil
	}
	if sp == ir.SpaceGeneric || sp == ir.SpaceNone {
		switch {
		case addr-sharedWindow < windowSize:
			sp, addr = ir.SpaceShared, addr-sharedWindow
		case addr-localWindow < localWindowSize:
			off := addr - localWindow
			return w.localMem(in, int(off>>localFrameShift), off&(1<<localFrameShift-1), size, l, addr)
		case addr-constWindow < windowSize:
			sp, addr = ir.SpaceConst, addr-constWindow
		case addr-paramWindow < windowSize && addr-paramWindow < paramLocalBase:
			// a kernel parameter (cvta.param): read-only, in every
			// function of the thread
			off := addr - paramWindow
			if write {
				w.trap(in, l, addr, "write to kernel parameter space")
				return nil
			}
			if off+uint64(size) > uint64(len(w.m.params)) {
				w.trap(in, l, addr, "param access out of bounds")
				return nil
			}
			return w.m.params[off : off+uint64(size)]
		default:
			sp = ir.SpaceGlobal
		}
	}
	var buf []byte
	switch sp {
	case ir.SpaceGlobal:
		a := w.m.mem.find(addr, size)
		if a == nil {
			w.trap(in, l, addr, "global access out of bounds")
			return nil
		}
		if write && a.ReadOnly {
			w.trap(in, l, addr, "write to read-only memory")
			return nil
		}
		b, why := w.m.mem.at(a, addr-a.Base, size)
		if b == nil {
			w.trap(in, l, addr, why)
		}
		return b
	case ir.SpaceShared, ir.SpaceSharedCluster:
		if addr+uint64(size) > w.c.sh.size || addr+uint64(size) < addr {
			w.trap(in, l, addr, "shared access out of bounds")
			return nil
		}
		b, why := w.c.sh.at(addr, size)
		if b == nil {
			w.trap(in, l, addr, why)
		}
		return b
	case ir.SpaceLocal:
		// cvta.to.local in a callee of a caller's generic local address
		// (a pointer to the caller's variable passed down) gives the
		// offset from the callee's own frame: negative, a multiple of
		// the frame stride below it. It names the caller's frame, as
		// the one local space of a thread holds every frame.
		if s := int64(addr); s < 0 {
			d := len(w.frames) + int(s>>localFrameShift)
			if d >= 0 {
				return w.localMem(in, d, uint64(s)&(1<<localFrameShift-1), size, l, addr)
			}
		}
		return w.localMem(in, len(w.frames), addr, size, l, addr)
	case ir.SpaceConst:
		buf = w.m.cbank
		if write {
			w.trap(in, l, addr, "write to const space")
			return nil
		}
	case ir.SpaceParam:
		if addr >= paramLocalBase {
			addr -= paramLocalBase
			buf = w.pa[l*w.pstr : (l+1)*w.pstr]
		} else {
			buf = w.m.params
			if len(w.frames) > 0 {
				buf = w.frames[len(w.frames)-1].params[l]
			} else if write {
				w.trap(in, l, addr, "write to kernel parameter space")
				return nil
			}
		}
	default:
		w.trap(in, l, addr, "access to unsupported state space "+sp.String())
		return nil
	}
	if addr+uint64(size) > uint64(len(buf)) || addr+uint64(size) < addr {
		w.trap(in, l, addr, sp.String()+" access out of bounds")
		return nil
	}
	return buf[addr : addr+uint64(size)]
}

// localMem returns the bytes [off, off+size) of the .local frame of call
// depth d (the running function's is len(w.frames)) for lane l, or nil
// after a trap (ga: the address to report).
func (w *warp) localMem(in *inst, d int, off uint64, size int, l int, ga uint64) []byte {
	lv, lstr := w.lv, w.lstr
	switch {
	case d < len(w.frames):
		lv, lstr = w.frames[d].lv, w.frames[d].lstr
	case d > len(w.frames):
		w.trap(in, l, ga, "local access to the frame of a function that returned")
		return nil
	}
	if off+uint64(size) > lstr || off+uint64(size) < off {
		w.trap(in, l, ga, "local access out of bounds")
		return nil
	}
	b, why := lv.at(uint64(l)*lstr+off, size)
	if b == nil {
		w.trap(in, l, ga, why)
	}
	return b
}

func getLE(b []byte) uint64 {
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func putLE(b []byte, v uint64) {
	switch len(b) {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}
