package core

import (
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/ir"
)

// Liveness per register file.
//
// Notation: for a block b, gen(b) is the set of registers read in b before
// any killing definition in b (upward-exposed uses), kill(b) the set of
// registers with a killing definition in b. The equations are
//
//	out(b) = ∪ in(s) over the successors s of b        (exit blocks: out = LiveAtExit)
//	in(b)  = gen(b) ∪ (out(b) − kill(b))
//
// solved for the least fixed point. Per instruction i,
//
//	before(i) = uses(i) ∪ (after(i) − kdefs(i))
//
// where uses(i) holds the guard, every source register and every register
// inside an address, and kdefs(i) the destinations of i — or nothing when
// i is guarded: a predicated write leaves the old value in the lanes whose
// guard is false, so it does not end the old value's life. (A guarded
// definition of a register that is not live after it is still dead.) gen
// and kill are this transfer folded over the block.
//
// Only registers in some gen set can be live at a block boundary (a live
// register is read somewhere downstream before being killed, and the
// block holding that read has it in gen): those are the "global"
// registers (Global, GlobalRegs, numbered file by file, so each file is a
// contiguous range FileStart); the others are block-local and are handled
// by the per-instruction walk (Walker).
//
// The dense method solves the blocks in segments. A segment is a run of
// consecutive blocks in reverse post-order (RPO) that no retreating edge
// crosses: every edge leaving a segment goes forward, to a later
// segment, so the segments can be solved one at a time from the last to
// the first, each to its own fixed point, and the result is exactly the
// global least fixed point. Straight-line code and sequences of loop
// nests cut into many small pieces; a loop spanning the whole function is
// one segment. Unreachable blocks form a last segment of their own.
//
// Each segment numbers only the registers that matter inside it: those in
// the gen sets of its blocks, those live into the successors outside it
// (already solved), and LiveAtExit when it holds an exit block. Every
// register live anywhere in the segment is among them (it is read in the
// segment, or live on leaving it), so the segment's sets are dense bit
// vectors over that local numbering, however many registers the function
// has: the storage is the sum over segments of blocks × the registers
// that matter there — proportional to what is live, not to blocks × all
// registers — and each segment's sets (in, gen, kill) are one contiguous
// run that the solve streams through from cache. Inside a segment the
// blocks are visited in post-order, round-robin until a pass changes
// nothing (one pass when the segment has no retreating edge) or with a
// worklist that re-queues only the predecessors, inside the segment, of
// blocks whose in set changed. There is no meet step and no out set: the
// transfer distributes over the union of the successors, in(b) = ∪ (gen ∪
// (in(s) − kill)), so each edge b→s is one fused OrWithAndNotIfChanged
// (in(b) |= gen | (in(s) &^ kill)) reading in(s) directly — a successor
// outside the segment through a copy of its in set translated into the
// segment's numbering. Live-out is not stored: it is the union of the
// successors' in sets (LiveAtExit for blocks without successors).
//
// When a segment's sets would push the total past the memory budget (a
// single loop spanning a huge function with very many registers), the
// sparse method runs instead: for each global register, a backward search
// from the blocks where it is upward-exposed through predecessors,
// stopping at blocks that kill it — exact, linear in the total size of the
// live ranges, and the result is stored as sorted per-block lists.

// Solver picks the iteration strategy of the dense method.
type Solver uint8

const (
	RoundRobin Solver = iota // passes over all blocks in post-order until none changes
	Worklist                 // a FIFO of blocks; re-queue predecessors of changed blocks
)

// Method says how liveness was computed.
type Method uint8

const (
	Dense  Method = iota // per-block bit vectors, iterative solve
	Sparse               // per-register backward search (memory budget exceeded, or asked for)
)

func (m Method) String() string {
	if m == Sparse {
		return "sparse"
	}
	return "dense"
}

// DefaultMemBudget bounds the bytes of per-block sets of the dense method.
const DefaultMemBudget = 512 << 20

// LiveOptions tunes ComputeLiveness. The zero value is the default.
type LiveOptions struct {
	// Files gives the register file of each register (from uniformity);
	// nil means FileOf(type, false): R or P.
	Files []ir.File
	// Solver picks round-robin or worklist for the dense method.
	Solver Solver
	// MemBudget caps the dense sets, in bytes: 0 means DefaultMemBudget,
	// a negative value forces the sparse method.
	MemBudget int64
	// LiveAtExit are registers live when the function returns; nil means
	// the function's .reg-space return parameters (f.ReturnRegs), which
	// the caller reads after the call.
	LiveAtExit []ir.RegID

	// Order, when set, is f's current block order (an analysis cache
	// hands over the one it holds); nil computes it.
	Order *Order

	// segBlocks, when positive, overrides the blocks per segment the
	// dense method aims at (tests use 1 to cut at every allowed point).
	segBlocks int
}

// LiveStats are the solver's counters.
type LiveStats struct {
	Iterations  int   // dense round-robin: most passes over one segment; worklist: pops / blocks of the largest ratio, rounded up
	BlockVisits int   // blocks processed by the solver
	Words       int64 // 32-bit words the set kernels read
	Bytes       int64 // bytes held by the per-block sets (in, gen and kill of every block)
	Globals     int   // registers with a bit in the global solve
	Segments    int   // dense: segments solved one after the other
}

// Liveness is the result of ComputeLiveness.
type Liveness struct {
	F *ir.Func
	// Files is the register file of each register.
	Files []ir.File
	// Global maps a register to its number among the registers that can be
	// live at a block boundary, -1 for a block-local register; GlobalRegs
	// is the inverse. Numbered file by file: FileStart[k]..FileStart[k+1]
	// are the numbers of file k.
	Global     []int32
	GlobalRegs []ir.RegID
	FileStart  [ir.NumFiles + 1]int
	Method     Method
	Stats      LiveStats

	// Dense: per segment, the registers it numbers (sorted) and the words
	// of its sets; per block, its segment and the offset of its in set.
	segs   []segment
	segOf  []int32
	inOff  []uint32
	inBits []uint32
	atExit []ir.RegID // LiveAtExit, sorted
	// Sparse: sorted global numbers per block.
	inSets, outSets idxCSR

	order []ir.BlockID // solve order: reachable blocks in RPO, then the rest
	slots []uint8      // 32-bit slots of each register
	// globBits: a bit per register, set for the global ones (Global >= 0):
	// OutSet.Has answers a block-local register from it, a bitmap small
	// enough to stay cached, without searching the segment's registers.
	globBits []uint64
	// LiveOutRegs's duplicate filter (a stamp per register).
	seen   []uint32
	seenSt uint32

	// PHI operands read on edges out of each block (phi.go): a CSR over
	// blocks, empty when the function holds no PHI.
	phiStart []uint32
	phiRegs  []ir.RegID
	hasPhi   bool

	buf *liveBuf // working memory, kept for the next ComputeLivenessInto
}

// PhiOut returns the registers that PHIs of b's successors read on the
// edges from b (sorted; live out of b).
func (l *Liveness) PhiOut(b ir.BlockID) []ir.RegID {
	if !l.hasPhi {
		return nil
	}
	return l.phiRegs[l.phiStart[b]:l.phiStart[b+1]]
}

// liveBuf is the working memory of one solve, reused by the next solve
// into the same Liveness: a function's analyses are recomputed many times
// over a pipeline, and reusing the arrays keeps that from being
// allocation- and clearing-bound.
type liveBuf struct {
	pw        *PressureWalker // walkPressure's walker, reused walk after walk (pressure.go)
	pwBusy    bool
	files     []ir.File
	slots     []uint8
	order     []ir.BlockID
	stamps    []uint32
	gen, kill blockSets
	global    []bool
	glob      []int32
	globBits  []uint64
	globRegs  []ir.RegID
	reach     []int32
	back      []bool
	segs      []segment
	segOf     []int32
	inOff     []uint32
	raw       []uint32 // the in sets' backing array (aligned inside)
	segRegs   []ir.RegID
	seen      []uint32
	// per-segment solve
	uMark    []uint32 // register → segment stamp when numbered in the current segment
	loc      []int32  // register → local number (valid under uMark)
	work     []uint32 // gen, kill, and external successor sets of the current segment
	ext      []int32  // block → index of its external set (valid under extMark)
	extMrk   []uint32
	segExts  []ir.BlockID // every segment's exts, back to back
	mergeTmp []ir.RegID
	listTmp  []ir.RegID
	regs     []ir.RegID
	queue    []int32
	inQ      []bool
	phiStart []uint32
	phiRegs  []ir.RegID
}

// grow returns s resized to n zeroed elements, reusing its array when it
// is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/8)
	}
	s = s[:n]
	clear(s)
	return s
}

// idxCSR holds sorted lists of global numbers per block.
type idxCSR struct {
	start []uint32
	idx   []uint32
}

func (c *idxCSR) of(b ir.BlockID) []uint32 { return c.idx[c.start[b]:c.start[b+1]] }

// segBlocksTarget is how many blocks a segment aims at when cuts allow:
// small segments number few registers.
const segBlocksTarget = 32

// ComputeLiveness computes block live-in and live-out sets of f's
// registers per register file.
func ComputeLiveness(f *ir.Func, opt LiveOptions) *Liveness {
	return ComputeLivenessInto(nil, f, opt)
}

// ComputeLivenessInto is ComputeLiveness into old, a result the caller no
// longer needs, whose memory is reused (nil: a new one). The caller must
// not use old's previous contents afterwards.
func ComputeLivenessInto(old *Liveness, f *ir.Func, opt LiveOptions) *Liveness {
	l, gen, kill := prepareLiveness(old, f, opt)
	if l.Method == Dense && !l.solveDense(gen, kill, opt) {
		l.Method = Sparse
		l.solveSparse(gen, kill, l.atExit)
	}
	return l
}

// prepareLiveness does everything but the solve: scan, numbering of the
// global registers, solve order and segments.
func prepareLiveness(old *Liveness, f *ir.Func, opt LiveOptions) (*Liveness, blockSets, blockSets) {
	ensureCFG(f)
	if opt.LiveAtExit == nil {
		opt.LiveAtExit = f.ReturnRegs(nil)
	}
	nb, nr := f.NumBlocks(), f.NumRegs()
	// (Allocated only when there is no old result to reuse: an
	// allocation made and then replaced would still cost one.)
	var buf *liveBuf
	if old != nil && old.buf != nil {
		buf = old.buf
	} else {
		buf = &liveBuf{}
	}
	l := old
	if l == nil {
		l = &Liveness{}
	}
	*l = Liveness{F: f, Files: opt.Files, buf: buf}
	if l.Files == nil {
		buf.files = grow(buf.files, nr)
		l.Files = buf.files
		for r, t := range f.RegType {
			l.Files[r] = ir.FileOf(t, false)
		}
	}
	buf.slots = grow(buf.slots, nr)
	l.slots = buf.slots
	for r := range f.RegType {
		l.slots[r] = uint8(RegSlots(f, ir.RegID(r)))
	}

	// Solve order: RPO of the reachable blocks, then the others.
	o := opt.Order
	if o == nil {
		o = ComputeOrder(f)
	}
	l.order = append(buf.order[:0], o.RPO...)
	for b := range nb {
		if o.Num[b] < 0 {
			l.order = append(l.order, ir.BlockID(b))
		}
	}
	buf.order = l.order

	// PHI operands, by the block they are read at the end of.
	buf.phiStart, buf.phiRegs, l.hasPhi = phiOuts(f, buf.phiStart, buf.phiRegs)
	l.phiStart, l.phiRegs = buf.phiStart, buf.phiRegs

	// One forward scan: upward-exposed uses and first killing definition
	// of every register in every block, as per-block lists.
	gen, kill := scanBlocks(f, buf, l)
	buf.global = grow(buf.global, nr)
	global := buf.global
	for _, r := range gen.bits {
		global[r] = true
	}
	for _, r := range l.phiRegs {
		global[r] = true // live out of a predecessor even where it kills it
	}
	l.atExit = append(l.atExit[:0], opt.LiveAtExit...)
	slices.Sort(l.atExit)
	l.atExit = slices.Compact(l.atExit)
	for _, r := range l.atExit {
		global[r] = true
	}
	buf.glob = grow(buf.glob, nr)
	l.Global = buf.glob
	var cnt [ir.NumFiles]int
	for r := range nr {
		l.Global[r] = -1
		if global[r] {
			cnt[l.Files[r]]++
		}
	}
	for k := range ir.NumFiles {
		l.FileStart[k+1] = l.FileStart[k] + cnt[k]
	}
	ng := l.FileStart[ir.NumFiles]
	buf.globRegs = grow(buf.globRegs, ng)
	l.GlobalRegs = buf.globRegs
	buf.globBits = grow(buf.globBits, (nr+63)/64)
	l.globBits = buf.globBits
	next := l.FileStart
	for r := range nr {
		if global[r] {
			l.globBits[r>>6] |= 1 << (r & 63)
			g := next[l.Files[r]]
			next[l.Files[r]]++
			l.Global[r] = int32(g)
			l.GlobalRegs[g] = ir.RegID(r)
		}
	}
	l.Stats.Globals = ng
	// Kill lists drop block-local registers (they cannot be live at a
	// boundary); gen lists hold global registers only by construction.
	kill.dropLocal(l.Global)
	buf.seen = grow(buf.seen, nr)
	l.seen = buf.seen

	budget := opt.MemBudget
	if budget < 0 {
		l.Method = Sparse
		l.solveSparse(gen, kill, l.atExit)
		return l, gen, kill
	}
	l.Method = Dense
	l.segs = l.segments(o, opt.segBlocks, buf)
	return l, gen, kill
}

// blockSets holds a list of registers per block: bits[start[b]:start[b+1]].
type blockSets struct {
	start []uint32
	bits  []uint32
}

func (c *blockSets) of(b ir.BlockID) []uint32 { return c.bits[c.start[b]:c.start[b+1]] }

// dropLocal removes block-local registers from the lists, in place.
func (c *blockSets) dropLocal(global []int32) {
	n := 0
	k := uint32(0)
	for b := range len(c.start) - 1 {
		end := c.start[b+1]
		c.start[b] = uint32(n)
		for ; k < end; k++ {
			if global[c.bits[k]] >= 0 {
				c.bits[n] = c.bits[k]
				n++
			}
		}
	}
	c.start[len(c.start)-1] = uint32(n)
	c.bits = c.bits[:n]
}

// scanBlocks walks every block forward once. A use of r not preceded in
// the block by a killing (unguarded) definition puts r in gen(b); the
// first killing definition of r in b puts it in kill(b). Within an
// instruction, uses come before definitions. A PHI's definition kills at
// the head of its block; its operands are read at the end of the
// predecessors they come from (l.PhiOut), so they join gen of that
// predecessor unless it defines them.
func scanBlocks(f *ir.Func, buf *liveBuf, l *Liveness) (gen, kill blockSets) {
	nr, nb := f.NumRegs(), f.NumBlocks()
	buf.stamps = grow(buf.stamps, 2*nr)
	stamps := buf.stamps
	defStamp := stamps[:nr:nr] // block+1 of the last kill seen
	genStamp := stamps[nr:]    // block+1 of the last gen entry
	gen.start = grow(buf.gen.start, nb+1)
	kill.start = grow(buf.kill.start, nb+1)
	gen.bits = buf.gen.bits[:0]
	kill.bits = buf.kill.bits[:0]
	defer func() { buf.gen, buf.kill = gen, kill }()
	var refsBuf [32]RegRef
	refs := refsBuf[:0]
	for b := range nb {
		st := uint32(b) + 1
		gen.start[b] = uint32(len(gen.bits))
		kill.start[b] = uint32(len(kill.bits))
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			phi := f.Op[i] == ir.OpPhi
			for _, x := range refs {
				if !x.Def && !phi && defStamp[x.Reg] != st && genStamp[x.Reg] != st {
					genStamp[x.Reg] = st
					gen.bits = append(gen.bits, uint32(x.Reg))
				}
			}
			if f.Guard[i] != ir.NoOperand {
				continue
			}
			for _, x := range refs {
				if x.Def && defStamp[x.Reg] != st {
					defStamp[x.Reg] = st
					kill.bits = append(kill.bits, uint32(x.Reg))
				}
			}
		}
		for _, r := range l.PhiOut(ir.BlockID(b)) {
			if defStamp[r] != st && genStamp[r] != st {
				genStamp[r] = st
				gen.bits = append(gen.bits, uint32(r))
			}
		}
	}
	gen.start[nb] = uint32(len(gen.bits))
	kill.start[nb] = uint32(len(kill.bits))
	return gen, kill
}

// segment is a run [lo, hi) of positions in l.order; cyclic when a
// retreating edge lies inside it. After its solve, regs are the registers
// it numbers (sorted) and sw the words of each of its sets.
type segment struct {
	lo, hi int32
	cyclic bool
	sw     int32
	regs   []ir.RegID
	// exts are the successors outside the segment of its blocks; their
	// in sets in this segment's numbering follow its blocks' in sets, from
	// extBase, one per ext in order, then LiveAtExit's.
	exts    []ir.BlockID
	extBase uint32
}

// segments cuts the solve order into segments (see the package comment
// above): a cut after RPO position i is allowed when no retreating edge
// spans it; pieces are grouped until a segment holds segBlocksTarget
// blocks (or segBlocks, when positive). The unreachable blocks form the
// last segment.
func (l *Liveness) segments(o *Order, segBlocks int, buf *liveBuf) []segment {
	f := l.F
	m := len(o.RPO)
	nb := len(l.order)
	target := int32(segBlocksTarget)
	if segBlocks > 0 {
		target = int32(segBlocks)
	}
	// reach[i]: the furthest position a retreating edge into position i
	// comes from; back[i]: some retreating edge enters i.
	buf.reach = grow(buf.reach, m)
	buf.back = grow(buf.back, m)
	reach, back := buf.reach, buf.back
	for i := range reach {
		reach[i] = int32(i)
	}
	for i, b := range o.RPO {
		for _, s := range f.SuccsOf(b) {
			if j := o.Num[s]; j <= int32(i) {
				back[j] = true
				reach[j] = max(reach[j], int32(i))
			}
		}
	}
	segs := buf.segs[:0]
	defer func() { buf.segs = segs }()
	lo, end := int32(0), int32(-1)
	cyc := false
	for i := range int32(m) {
		end = max(end, reach[i])
		cyc = cyc || back[i]
		if end == i && (i+1-lo >= target || i+1 == int32(m)) {
			segs = append(segs, segment{lo: lo, hi: i + 1, cyclic: cyc})
			lo, cyc = i+1, false
		}
	}
	if nb > m {
		// Unreachable blocks may branch into reachable ones, never the
		// other way: their segment is solved last, so it goes first (the
		// segments are solved from the last to the first).
		segs = slices.Insert(segs, 0, segment{lo: int32(m), hi: int32(nb), cyclic: true})
	}
	return segs
}

// alignedWords returns n zeroed words starting on a 64-byte boundary,
// carved from *raw (grown when too small, keeping its first keep words).
func alignedWords(raw *[]uint32, n, keep int) []uint32 {
	r := *raw
	off := 0
	if len(r) > 0 {
		off = int((64-uintptr(unsafe.Pointer(&r[0]))&63)&63) / 4
	}
	if len(r) < off+n {
		nr := make([]uint32, max(n+n/2, 1024)+16)
		noff := int((64-uintptr(unsafe.Pointer(&nr[0]))&63)&63) / 4
		if keep > 0 {
			copy(nr[noff:noff+keep], r[off:off+keep])
		}
		*raw, r, off = nr, nr, noff
	}
	w := r[off : off+n : off+n]
	clear(w[keep:])
	return w
}

// solveDense runs the dense method: the segments from the last to the
// first, each numbering its own registers. It reports false (and solves
// nothing) when the sets would pass the memory budget.
func (l *Liveness) solveDense(gen, kill blockSets, opt LiveOptions) bool {
	f, buf := l.F, l.buf
	nb, nr := f.NumBlocks(), f.NumRegs()
	budget := opt.MemBudget
	if budget == 0 {
		budget = DefaultMemBudget
	}
	kern, _ := bitvec.KernelsFor(bitvec.Level())
	buf.segOf = grow(buf.segOf, nb)
	l.segOf = buf.segOf
	for k, sg := range l.segs {
		for _, b := range l.order[sg.lo:sg.hi] {
			l.segOf[b] = int32(k)
		}
	}
	buf.inOff = grow(buf.inOff, nb)
	l.inOff = buf.inOff
	buf.uMark = grow(buf.uMark, nr)
	buf.loc = grow(buf.loc, nr)
	buf.ext = grow(buf.ext, nb)
	buf.extMrk = grow(buf.extMrk, nb)
	l.inBits = alignedWords(&buf.raw, 0, 0)
	buf.segRegs = buf.segRegs[:0]
	buf.segExts = buf.segExts[:0]
	maxSeg := 0
	for _, sg := range l.segs {
		maxSeg = max(maxSeg, int(sg.hi-sg.lo))
	}
	if opt.Solver == Worklist {
		buf.queue = grow(buf.queue, maxSeg)
		buf.inQ = grow(buf.inQ, maxSeg)
	}
	total := int64(0)
	var calls int64
	l.Stats.Segments = len(l.segs)
	for k := len(l.segs) - 1; k >= 0; k-- {
		sg := &l.segs[k]
		st := uint32(k) + 1
		blocks := l.order[sg.lo:sg.hi]
		// The registers that matter in the segment, sorted: the gen sets'
		// (sorted here), merged with the external successors' live-in sets
		// and LiveAtExit (each already in register order).
		regs := buf.regs[:0]
		extStart := len(buf.segExts)
		exit := false
		for _, b := range blocks {
			for _, r := range gen.of(b) {
				if buf.uMark[r] != st {
					buf.uMark[r] = st
					regs = append(regs, ir.RegID(r))
				}
			}
			for _, r := range l.PhiOut(b) {
				if buf.uMark[r] != st {
					buf.uMark[r] = st
					regs = append(regs, r)
				}
			}
			succs := f.SuccsOf(b)
			if len(succs) == 0 {
				exit = true
			}
			for _, q := range succs {
				if l.segOf[q] != int32(k) && buf.extMrk[q] != st {
					buf.extMrk[q] = st
					buf.segExts = append(buf.segExts, q)
				}
			}
		}
		// (Later segments append past this one's exts: a reallocation
		// leaves this slice on the old array, whose contents stay.)
		exts := buf.segExts[extStart:len(buf.segExts):len(buf.segExts)]
		slices.Sort(regs)
		merge := func(more []ir.RegID) {
			if len(more) == 0 {
				return
			}
			old := append(buf.mergeTmp[:0], regs...)
			buf.mergeTmp = old
			regs = regs[:0]
			i, j := 0, 0
			for i < len(old) || j < len(more) {
				switch {
				case j == len(more) || i < len(old) && old[i] < more[j]:
					regs = append(regs, old[i])
					i++
				case i == len(old) || more[j] < old[i]:
					regs = append(regs, more[j])
					buf.uMark[more[j]] = st
					j++
				default:
					regs = append(regs, old[i])
					i++
					j++
				}
			}
		}
		for _, q := range exts {
			buf.listTmp = l.LiveInRegs(q, buf.listTmp[:0])
			merge(buf.listTmp)
		}
		if exit {
			merge(l.atExit)
		}
		buf.regs = regs
		for j, r := range regs {
			buf.loc[r] = int32(j)
		}
		start := len(buf.segRegs)
		buf.segRegs = append(buf.segRegs, regs...)
		sg.regs = buf.segRegs[start:len(buf.segRegs):len(buf.segRegs)]
		sw := bitvec.WordsFor(len(regs))
		if sw > 8 {
			sw = (sw + 15) &^ 15 // whole 64-byte lines for the wide kernels
		} else if sw > 0 {
			sw = (sw + 1) &^ 1
		}
		sg.sw = int32(sw)
		n := len(blocks)
		nx := len(exts) + 1
		total += int64((n+nx)*sw) * 4
		if total > budget {
			return false
		}
		// In sets, then the external successors' in sets in this
		// segment's numbering (and LiveAtExit, last), appended to the
		// result array: the solve reads them, and so does Out later.
		base := len(l.inBits)
		l.inBits = alignedWords(&buf.raw, base+(n+nx)*sw, base)
		for j, b := range blocks {
			l.inOff[b] = uint32(base + j*sw)
		}
		sg.exts = exts
		sg.extBase = uint32(base + n*sw)
		// Gen and kill in the working array.
		buf.work = grow(buf.work, 2*n*sw)
		w := buf.work
		for j, b := range blocks {
			g := w[(2*j)*sw : (2*j+1)*sw]
			for _, r := range gen.of(b) {
				x := buf.loc[r]
				g[x>>5] |= 1 << (x & 31)
			}
			kl := w[(2*j+1)*sw : (2*j+2)*sw]
			for _, r := range kill.of(b) {
				if buf.uMark[r] == st {
					x := buf.loc[r]
					kl[x>>5] |= 1 << (x & 31)
				}
			}
		}
		xs := int(sg.extBase)
		for e, q := range exts {
			buf.ext[q] = int32(e)
			set := l.inBits[xs+e*sw : xs+(e+1)*sw]
			l.eachIn(q, func(r ir.RegID) {
				x := buf.loc[r]
				set[x>>5] |= 1 << (x & 31)
			})
		}
		exitSet := l.inBits[xs+(nx-1)*sw : xs+nx*sw]
		if exit {
			for _, r := range l.atExit {
				x := buf.loc[r]
				exitSet[x>>5] |= 1 << (x & 31)
			}
		}
		if sw == 0 {
			continue
		}
		// One block's transfer over its successors: a fused kernel call
		// per edge.
		visit := func(j int) bool {
			b := blocks[j]
			dst := l.inBits[base+j*sw : base+(j+1)*sw]
			g := w[(2*j)*sw : (2*j+1)*sw]
			kl := w[(2*j+1)*sw : (2*j+2)*sw]
			succs := f.SuccsOf(b)
			changed := false
			if len(succs) == 0 {
				calls++
				return kern.OrWithAndNotIfChanged(dst, g, exitSet, kl)
			}
			for _, q := range succs {
				var src []uint32
				if l.segOf[q] == int32(k) {
					o := int(l.inOff[q])
					src = l.inBits[o : o+sw]
				} else {
					e := int(buf.ext[q])
					src = l.inBits[xs+e*sw : xs+(e+1)*sw]
				}
				if kern.OrWithAndNotIfChanged(dst, g, src, kl) {
					changed = true
				}
				calls++
			}
			return changed
		}
		if opt.Solver == Worklist {
			l.worklist(k, visit)
		} else {
			passes := 0
			for {
				passes++
				changed := false
				for j := n - 1; j >= 0; j-- {
					if visit(j) {
						changed = true
					}
				}
				l.Stats.BlockVisits += n
				// Without a retreating edge, post-order sees every
				// successor inside the segment before the block: one
				// pass is the fixed point.
				if !changed || !sg.cyclic {
					break
				}
			}
			l.Stats.Iterations = max(l.Stats.Iterations, passes)
		}
		l.wordsPerCall(sw, &calls)
	}
	l.Stats.Bytes = total
	return true
}

// wordsPerCall adds the words the kernel calls of one segment read
// (four sets of sw words per call) to the statistics, and resets calls.
func (l *Liveness) wordsPerCall(sw int, calls *int64) {
	l.Stats.Words += 4 * int64(sw) * *calls
	*calls = 0
}

// worklist solves segment k with a FIFO of blocks, re-queuing the
// predecessors inside the segment of blocks whose in set changed.
func (l *Liveness) worklist(k int, visit func(j int) bool) {
	f, buf := l.F, l.buf
	sg := &l.segs[k]
	n := int(sg.hi - sg.lo)
	blocks := l.order[sg.lo:sg.hi]
	queue, inQ := buf.queue[:n], buf.inQ[:n]
	// Post-order: positions from the last to the first.
	for j := range n {
		queue[j] = int32(n - 1 - j)
		inQ[j] = true
	}
	head, size := 0, n
	visits := 0
	for size > 0 {
		j := queue[head]
		head++
		if head == n {
			head = 0
		}
		size--
		inQ[j] = false
		visits++
		if !visit(int(j)) {
			continue
		}
		for _, p := range f.PredsOf(blocks[j]) {
			if l.segOf[p] != int32(k) {
				continue
			}
			q := int32(slices.Index(blocks, p)) // segments are short
			if q >= 0 && !inQ[q] {
				inQ[q] = true
				t := head + size
				if t >= n {
					t -= n
				}
				queue[t] = q
				size++
			}
		}
	}
	l.Stats.BlockVisits += visits
	l.Stats.Iterations = max(l.Stats.Iterations, (visits+n-1)/n)
}

// eachIn calls fn for every register live into block b (dense method;
// b's segment must be solved).
func (l *Liveness) eachIn(b ir.BlockID, fn func(ir.RegID)) {
	sg := &l.segs[l.segOf[b]]
	sw := int(sg.sw)
	o := int(l.inOff[b])
	for w, x := range l.inBits[o : o+sw] {
		for ; x != 0; x &= x - 1 {
			fn(sg.regs[w<<5|bits.TrailingZeros32(x)])
		}
	}
}

// solveSparse is the per-register method: for each global register g, in
// number order, mark in(b) for the blocks where g is upward-exposed, then
// search backwards: a predecessor p of a block with g live-in has g in
// out(p), and in in(p) unless p kills g. The (block, g) pairs come out in
// g order, so a stable counting sort by block leaves each block's list
// sorted.
func (l *Liveness) solveSparse(gen, kill blockSets, atExit []ir.RegID) {
	f := l.F
	nb := f.NumBlocks()
	ng := len(l.GlobalRegs)
	genC := groupByGlobal(ng, gen, l.Global)
	killC := groupByGlobal(ng, kill, l.Global)
	killMark := make([]uint32, nb)
	inMark := make([]uint32, nb)
	outMark := make([]uint32, nb)
	isExit := make([]bool, nb)
	for b := range nb {
		isExit[b] = len(f.SuccsOf(ir.BlockID(b))) == 0
	}
	exitLive := make([]bool, ng)
	for _, r := range atExit {
		exitLive[l.Global[r]] = true
	}
	var inP, outP []regBlock // (number, block) with r holding the number
	var work []ir.BlockID
	for g := range ng {
		st := uint32(g) + 1
		for _, b := range killC.of(ir.BlockID(g)) {
			killMark[b] = st
		}
		work = work[:0]
		for _, b := range genC.of(ir.BlockID(g)) {
			inMark[b] = st
			inP = append(inP, regBlock{ir.RegID(g), b})
			work = append(work, b)
		}
		if exitLive[g] {
			for b := range nb {
				if isExit[b] {
					outMark[b] = st
					outP = append(outP, regBlock{ir.RegID(g), ir.BlockID(b)})
					if killMark[b] != st && inMark[b] != st {
						inMark[b] = st
						inP = append(inP, regBlock{ir.RegID(g), ir.BlockID(b)})
						work = append(work, ir.BlockID(b))
					}
				}
			}
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			l.Stats.BlockVisits++
			for _, p := range f.PredsOf(b) {
				if outMark[p] != st {
					outMark[p] = st
					outP = append(outP, regBlock{ir.RegID(g), p})
				}
				if killMark[p] != st && inMark[p] != st {
					inMark[p] = st
					inP = append(inP, regBlock{ir.RegID(g), p})
					work = append(work, p)
				}
			}
		}
	}
	l.inSets = byBlock(nb, inP)
	l.outSets = byBlock(nb, outP)
	l.Stats.Iterations = 1
	l.Stats.Bytes = int64(len(inP)+len(outP))*4 + int64(nb+1)*8
}

// regBlock is a (number, block) pair of the sparse method.
type regBlock struct {
	r ir.RegID
	b ir.BlockID
}

// groupByGlobal transposes per-block lists of registers into rows of
// blocks by global number.
func groupByGlobal(ng int, c blockSets, global []int32) csr {
	t := csr{start: make([]uint32, ng+1)}
	for _, r := range c.bits {
		t.start[global[r]+1]++
	}
	for g := range ng {
		t.start[g+1] += t.start[g]
	}
	t.adj = make([]ir.BlockID, len(c.bits))
	fill := slices.Clone(t.start[:ng])
	for b := range len(c.start) - 1 {
		for _, r := range c.of(ir.BlockID(b)) {
			g := global[r]
			t.adj[fill[g]] = ir.BlockID(b)
			fill[g]++
		}
	}
	return t
}

func byBlock(nb int, ps []regBlock) idxCSR {
	c := idxCSR{start: make([]uint32, nb+1), idx: make([]uint32, len(ps))}
	for _, p := range ps {
		c.start[p.b+1]++
	}
	for b := range nb {
		c.start[b+1] += c.start[b]
	}
	fill := slices.Clone(c.start[:nb])
	for _, p := range ps {
		c.idx[fill[p.b]] = uint32(p.r)
		fill[p.b]++
	}
	return c
}

// NumGlobals returns how many registers can be live at a block boundary.
func (l *Liveness) NumGlobals() int { return len(l.GlobalRegs) }

// IsLiveIn reports whether r is live on entry to b.
func (l *Liveness) IsLiveIn(b ir.BlockID, r ir.RegID) bool {
	g := l.Global[r]
	if g < 0 {
		return false
	}
	if l.Method == Dense {
		sg := &l.segs[l.segOf[b]]
		x, ok := searchRegs(sg.regs, r)
		return ok && l.inBits[int(l.inOff[b])+x>>5]&(1<<(x&31)) != 0
	}
	_, ok := slices.BinarySearch(l.inSets.of(b), uint32(g))
	return ok
}

// IsLiveOut reports whether r is live on exit from b.
func (l *Liveness) IsLiveOut(b ir.BlockID, r ir.RegID) bool {
	g := l.Global[r]
	if g < 0 {
		return false
	}
	if l.hasPhi {
		if _, ok := slices.BinarySearch(l.PhiOut(b), r); ok {
			return true
		}
	}
	if l.Method == Dense {
		succs := l.F.SuccsOf(b)
		if len(succs) == 0 {
			_, ok := slices.BinarySearch(l.atExit, r)
			return ok
		}
		for _, s := range succs {
			if l.IsLiveIn(s, r) {
				return true
			}
		}
		return false
	}
	_, ok := slices.BinarySearch(l.outSets.of(b), uint32(g))
	return ok
}

// LiveInRegs appends the registers live on entry to b: by register number
// under the dense method, by global number under the sparse one.
func (l *Liveness) LiveInRegs(b ir.BlockID, dst []ir.RegID) []ir.RegID {
	if l.Method == Dense {
		l.eachIn(b, func(r ir.RegID) { dst = append(dst, r) })
		return dst
	}
	for _, g := range l.inSets.of(b) {
		dst = append(dst, l.GlobalRegs[g])
	}
	return dst
}

// eachLiveIn calls fn for every register live into b (either method).
func (l *Liveness) eachLiveIn(b ir.BlockID, fn func(ir.RegID)) {
	if l.Method == Dense {
		l.eachIn(b, fn)
		return
	}
	for _, g := range l.inSets.of(b) {
		fn(l.GlobalRegs[g])
	}
}

// LiveOutRegs appends the registers live on exit from b, each once.
func (l *Liveness) LiveOutRegs(b ir.BlockID, dst []ir.RegID) []ir.RegID {
	if phis := l.PhiOut(b); len(phis) > 0 {
		// Merge the PHI operands in, each once.
		n := len(dst)
		dst = l.liveOutRegs(b, dst)
		l.seenSt++
		if l.seenSt == 0 {
			clear(l.seen)
			l.seenSt = 1
		}
		st := l.seenSt
		for _, r := range dst[n:] {
			l.seen[r] = st
		}
		for _, r := range phis {
			if l.seen[r] != st {
				dst = append(dst, r)
			}
		}
		return dst
	}
	return l.liveOutRegs(b, dst)
}

func (l *Liveness) liveOutRegs(b ir.BlockID, dst []ir.RegID) []ir.RegID {
	if l.Method == Dense {
		succs := l.F.SuccsOf(b)
		if len(succs) == 0 {
			return append(dst, l.atExit...)
		}
		if len(succs) == 1 {
			return l.LiveInRegs(succs[0], dst)
		}
		l.seenSt++
		if l.seenSt == 0 {
			clear(l.seen)
			l.seenSt = 1
		}
		st := l.seenSt
		for _, s := range succs {
			l.eachIn(s, func(r ir.RegID) {
				if l.seen[r] != st {
					l.seen[r] = st
					dst = append(dst, r)
				}
			})
		}
		return dst
	}
	for _, g := range l.outSets.of(b) {
		dst = append(dst, l.GlobalRegs[g])
	}
	return dst
}

func (l *Liveness) String() string {
	return fmt.Sprintf("liveness(%s, %d globals, %d segments, %d iterations, %d visits, %d words, %d bytes)",
		l.Method, l.Stats.Globals, l.Stats.Segments, l.Stats.Iterations, l.Stats.BlockVisits, l.Stats.Words, l.Stats.Bytes)
}

// Walker computes per-instruction live sets on demand by walking a block
// backwards from its live-out set. It owns one register-indexed vector
// and a reference buffer, reused across calls: no allocation per
// instruction or per block.
type Walker struct {
	l       *Liveness
	live    bitvec.BitVector
	refs    []RegRef
	outs    []ir.RegID
	touched []ir.RegID // registers whose bit the current walk set
}

// NewWalker returns a walker over l.
func (l *Liveness) NewWalker() *Walker {
	return &Walker{l: l, live: bitvec.New(l.F.NumRegs())}
}

// Block calls fn for each instruction of b from the last to the first,
// with after = the registers (by RegID) live just after the instruction;
// after then becomes the set live just before it. fn must not modify
// after and returns false to stop. When the walk completes, Live() holds
// the block's live-in set over all registers.
func (w *Walker) Block(b ir.BlockID, fn func(i ir.InstrID, after bitvec.BitVector) bool) {
	l, f := w.l, w.l.F
	// Clear what the last walk set: its live-out set and the uses it met
	// (a cost of what it touched, not of the register count).
	for _, r := range w.touched {
		w.live.ClearBit(int(r))
	}
	w.outs = l.LiveOutRegs(b, w.outs[:0])
	w.touched = append(w.touched[:0], w.outs...)
	for _, r := range w.outs {
		w.live.Set(int(r))
	}
	for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
		if fn != nil && !fn(i, w.live) {
			return
		}
		w.Step(i)
	}
}

// Step applies the backward transfer of i to the walker's set:
// live = uses(i) ∪ (live − kdefs(i)).
func (w *Walker) Step(i ir.InstrID) {
	f := w.l.F
	w.refs = AppendRegRefs(f, i, w.refs[:0])
	if f.Guard[i] == ir.NoOperand {
		for _, x := range w.refs {
			if x.Def {
				w.live.ClearBit(int(x.Reg))
			}
		}
	}
	if f.Op[i] == ir.OpPhi {
		return // its operands are read on the incoming edges
	}
	for _, x := range w.refs {
		if !x.Def {
			w.live.Set(int(x.Reg))
			w.touched = append(w.touched, x.Reg)
		}
	}
}

// Live returns the walker's current set (by RegID).
func (w *Walker) Live() bitvec.BitVector { return w.live }

// LiveAfter returns the registers live just after i (valid until the next
// call on w).
func (w *Walker) LiveAfter(i ir.InstrID) bitvec.BitVector {
	w.Block(w.l.F.Block[i], func(j ir.InstrID, _ bitvec.BitVector) bool { return j != i })
	return w.live
}

// LiveBefore returns the registers live just before i.
func (w *Walker) LiveBefore(i ir.InstrID) bitvec.BitVector {
	w.LiveAfter(i)
	w.Step(i)
	return w.live
}

// OutSet is a block's live-out set kept as bits in the numbering of the
// block's segment, for walks that look at few of its registers: a walk
// asks Has for the registers it meets instead of listing the whole set,
// so a block costs its references, not its live registers (which in a
// huge function with long live ranges are many). Reuse one OutSet across
// blocks; it allocates only to grow. The set may view the liveness's own
// in sets: it is valid until the liveness changes (Shrink, Grow, a solve).
type OutSet struct {
	l    *Liveness
	regs []ir.RegID // the segment's registers (dense), sorted
	// words is the set over regs; words2, when not nil, a second part of
	// it (the set is their union): a block with one or two successors
	// and no PHI operand out of it views its successors' in sets in
	// place rather than copying them, since a walk looks up few of the
	// set's registers (on the corpus's largest kernels, of 7,700 blocks of
	// four instructions, the copies of sets of 90 words were a tenth of
	// the time)
	words, words2 []uint32
	buf           []uint32
	list          []ir.RegID // sparse method: the set as a list
	sorted        bool
}

// Out fills o with the live-out set of b.
func (l *Liveness) Out(b ir.BlockID, o *OutSet) {
	o.l = l
	if l.Method != Dense {
		o.list = l.LiveOutRegs(b, o.list[:0])
		slices.Sort(o.list)
		o.regs, o.words, o.words2, o.sorted = nil, nil, nil, true
		return
	}
	sg := &l.segs[l.segOf[b]]
	sw := int(sg.sw)
	o.regs = sg.regs
	o.words2 = nil
	// inOf is where the in set of b's successor s lies, in b's segment's
	// numbering: its own (same segment) or the copy the solve kept (a
	// later segment); LiveAtExit's for NoBlock.
	inOf := func(s ir.BlockID) []uint32 {
		off := int(sg.extBase) + len(sg.exts)*sw
		if s != ir.NoBlock {
			if l.segOf[s] == l.segOf[b] {
				off = int(l.inOff[s])
			} else {
				off = int(sg.extBase) + slices.Index(sg.exts, s)*sw
			}
		}
		return l.inBits[off : off+sw : off+sw]
	}
	succs := l.F.SuccsOf(b)
	phis := l.PhiOut(b)
	if sw == 0 {
		o.words = noWords // (nil would read as the sparse method's set)
		return
	}
	if len(phis) == 0 && len(succs) <= 2 {
		switch len(succs) {
		case 0:
			o.words = inOf(ir.NoBlock)
		case 1:
			o.words = inOf(succs[0])
		default:
			o.words, o.words2 = inOf(succs[0]), inOf(succs[1])
		}
		return
	}
	if cap(o.buf) < sw {
		o.buf = make([]uint32, sw)
	}
	o.words = o.buf[:sw]
	clear(o.words)
	or := func(s ir.BlockID) {
		for w, x := range inOf(s) {
			o.words[w] |= x
		}
	}
	if len(succs) == 0 {
		or(ir.NoBlock)
	}
	for _, s := range succs {
		or(s)
	}
	for _, r := range phis {
		x, _ := slices.BinarySearch(sg.regs, r) // numbered by the solve
		o.words[x>>5] |= 1 << (x & 31)
	}
}

// noWords is the dense set of a segment that numbers no register.
var noWords = []uint32{}

// bit reports whether the register numbered x in the segment is in the
// dense set.
func (o *OutSet) bit(x int) bool {
	m := uint32(1) << (x & 31)
	return o.words[x>>5]&m != 0 || o.words2 != nil && o.words2[x>>5]&m != 0
}

// Has reports whether r is in the set.
func (o *OutSet) Has(r ir.RegID) bool {
	if o.words == nil {
		_, ok := slices.BinarySearch(o.list, r)
		return ok
	}
	if k := int(r >> 6); k < len(o.l.globBits) && o.l.globBits[k]&(1<<(r&63)) == 0 {
		return false // block-local (a bit stays set if Shrink makes it so)
	}
	x, ok := searchRegs(o.regs, r)
	return ok && o.bit(x)
}

// searchRegs is slices.BinarySearch on sorted registers, without a
// branch on the comparisons (each step halves the range and moves its
// base by a conditional move): the pressure walks look a register up in
// its block's live-out set for every register they meet, in segments of
// hundreds of registers, where the mispredicted branches of an ordinary
// binary search were most of the lookup.
func searchRegs(a []ir.RegID, r ir.RegID) (int, bool) {
	n := len(a)
	if n == 0 {
		return 0, false
	}
	base := 0
	for n > 1 {
		half := n >> 1
		// a[base+half] <= r: no borrow, the top bit of the difference is
		// clear and the mask all ones (the compiler makes a branch of an
		// if here)
		d := uint64(r) - uint64(a[base+half])
		base += half & (int(d>>63) - 1)
		n -= half
	}
	return base, a[base] == r
}

// Each calls fn for every register in the set.
func (o *OutSet) Each(fn func(ir.RegID)) {
	if o.words == nil {
		for _, r := range o.list {
			fn(r)
		}
		return
	}
	for w, x := range o.words {
		if o.words2 != nil {
			x |= o.words2[w]
		}
		for ; x != 0; x &= x - 1 {
			fn(o.regs[w<<5|bits.TrailingZeros32(x)])
		}
	}
}
