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
// block holding that read has it in gen), so those "global" registers
// alone get a bit in the solve; the others are block-local and are
// handled by the per-instruction walk (Walker). Global registers are
// numbered file by file (R, UR, P, UP), so each file is a contiguous bit
// range (FileStart) and one vector holds every file: the files are solved
// together but stay separate sets.
//
// The dense method solves the blocks in segments. A segment is a run of
// consecutive blocks in reverse post-order (RPO) that no retreating edge
// crosses: every edge leaving a segment goes forward, to a later
// segment, so the segments can be solved one at a time from the last to
// the first, each to its own fixed point, and the result is exactly the
// global least fixed point. Straight-line code and sequences of loop
// nests cut into many small pieces; pieces are grouped until a segment's
// sets take about segBytes, so the sets being iterated stay in L1/L2
// however large the function is, and the SIMD kernels run at cache
// speed instead of DRAM speed. A loop spanning the whole function is one
// segment (the old, whole-function solve). Unreachable blocks form a
// last segment of their own.
//
// in(b), gen(b) and kill(b) are dense sets of every block, built once
// before the solve from per-block lists of global bits and laid out in
// solve order in one aligned array, a block's three sets back to back
// (a segment's sets are one contiguous range that the iteration streams
// through). Inside a segment the blocks are visited in post-order,
// either round-robin until a pass changes nothing (one pass when the
// segment has no retreating edge) or with a worklist that re-queues only
// the predecessors, inside the segment, of blocks whose in set changed.
// There is no meet step and no out set: the transfer distributes over
// the union of the successors, in(b) = ∪ (gen ∪ (in(s) − kill)), so each
// edge b→s is one fused OrWithAndNotIfChanged (in(b) |= gen | (in(s) &^
// kill)) reading in(s) directly; since every set only grows from empty,
// OR into in computes the same as assigning. The solve is nothing but
// these kernel calls over the padded stride (see segSolver). Live-out is
// not stored: it is the union of the successors' in sets (LiveAtExit
// for blocks without successors), formed word by word when asked for.
//
// When the sets would take more than the memory budget (many global
// registers times many blocks), the sparse method runs instead: for each
// global register, a backward search from the blocks where it is
// upward-exposed through predecessors, stopping at blocks that kill it —
// exact, linear in the total size of the live ranges, and the result is
// stored as sorted per-block lists.

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
	// Global maps a register to its bit in the block sets, -1 for a
	// block-local register; GlobalRegs is the inverse.
	Global     []int32
	GlobalRegs []ir.RegID
	// FileStart[k]..FileStart[k+1] are the global bits of file k.
	FileStart [ir.NumFiles + 1]int
	Method    Method
	Stats     LiveStats

	// Dense: the live-in set of every block, nil under Sparse. Live-out
	// sets are derived (LiveOut, LiveOutRegs).
	In []bitvec.BitVector
	// exitOut is the live-out set of blocks without successors.
	exitOut bitvec.BitVector
	// Sparse: sorted global bits per block.
	inSets, outSets idxCSR

	order []ir.BlockID // solve order: reachable blocks in RPO, then the rest
	slots []uint8      // 32-bit slots of each register

	buf *liveBuf // working memory, kept for the next ComputeLivenessInto
}

// liveBuf is the working memory of one solve, reused by the next solve
// into the same Liveness: a function's analyses are recomputed many times
// over a pipeline, and reusing the arrays keeps that from being
// allocation- and clearing-bound.
type liveBuf struct {
	files     []ir.File
	slots     []uint8
	order     []ir.BlockID
	stamps    []uint32
	gen, kill blockSets
	global    []bool
	glob      []int32
	globRegs  []ir.RegID
	reach     []int32
	back      []bool
	segs      []segment
	pos       []int32
	raw       []uint32 // the sets' backing array (aligned inside)
	in        []bitvec.BitVector
	sstart    []int32
	spos      []int32
	solver    segSolver
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

// idxCSR holds sorted lists of global bit numbers per block.
type idxCSR struct {
	start []uint32
	idx   []uint32
}

func (c *idxCSR) of(b ir.BlockID) []uint32 { return c.idx[c.start[b]:c.start[b+1]] }

// segBytes is the size the sets of one segment (in, gen, kill and the
// successors' in) aim at: well inside L2, so a segment's fixed-point
// iteration runs from cache.
const segBytes = 192 << 10

// ComputeLiveness computes block live-in and live-out sets of f's
// registers per register file.
func ComputeLiveness(f *ir.Func, opt LiveOptions) *Liveness {
	return ComputeLivenessInto(nil, f, opt)
}

// ComputeLivenessInto is ComputeLiveness into old, a result the caller no
// longer needs, whose memory is reused (nil: a new one). The caller must
// not use old's previous contents afterwards.
func ComputeLivenessInto(old *Liveness, f *ir.Func, opt LiveOptions) *Liveness {
	l, s := prepareLiveness(old, f, opt)
	if s != nil {
		s.run(opt.Solver)
	}
	return l
}

// prepareLiveness does everything but the dense fixed-point solve: scan,
// numbering, segments and sets. It returns the dense solver to run, or
// nil when the sparse method has already produced the result.
func prepareLiveness(old *Liveness, f *ir.Func, opt LiveOptions) (*Liveness, *segSolver) {
	ensureCFG(f)
	if opt.LiveAtExit == nil {
		opt.LiveAtExit = f.ReturnRegs(nil)
	}
	nb, nr := f.NumBlocks(), f.NumRegs()
	buf := &liveBuf{}
	if old != nil && old.buf != nil {
		buf = old.buf
	}
	l := &Liveness{F: f, Files: opt.Files, buf: buf}
	if old != nil {
		*old = Liveness{F: f, Files: opt.Files, buf: buf}
		l = old
	}
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

	// One forward scan: upward-exposed uses and first killing definition
	// of every register in every block, as per-block lists.
	gen, kill := scanBlocks(f, buf)
	buf.global = grow(buf.global, nr)
	global := buf.global
	for _, r := range gen.bits {
		global[r] = true
	}
	for _, r := range opt.LiveAtExit {
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
	next := l.FileStart
	for r := range nr {
		if global[r] {
			g := next[l.Files[r]]
			next[l.Files[r]]++
			l.Global[r] = int32(g)
			l.GlobalRegs[g] = ir.RegID(r)
		}
	}
	l.Stats.Globals = ng
	// Registers to global bits; kill lists drop block-local registers.
	for k, r := range gen.bits {
		gen.bits[k] = uint32(l.Global[r])
	}
	kill.toGlobal(l.Global)

	strideW := int64((bitvec.WordsFor(ng) + 15) &^ 15)
	stride := strideW * 4
	segs, maxSeg := l.segments(o, stride, opt.segBlocks, buf)
	bytes := stride * (3*int64(nb) + 1)
	budget := opt.MemBudget
	if budget == 0 {
		budget = DefaultMemBudget
	}
	if budget < 0 || bytes > budget {
		l.Method = Sparse
		l.solveSparse(gen, kill, opt.LiveAtExit)
		return l, nil
	}
	l.Method = Dense
	l.Stats.Bytes = bytes
	s := &buf.solver
	*s = segSolver{l: l, segs: segs, queue: s.queue, inQ: s.inQ}
	s.setup(gen, kill, maxSeg, buf)
	for _, r := range opt.LiveAtExit {
		l.exitOut.Set(int(l.Global[r]))
	}
	return l, s
}

// blockSets holds a list of registers (or global bits) per block:
// bits[start[b]:start[b+1]].
type blockSets struct {
	start []uint32
	bits  []uint32
}

func (c *blockSets) of(b ir.BlockID) []uint32 { return c.bits[c.start[b]:c.start[b+1]] }

// toGlobal maps registers to global bits in place, dropping block-local
// registers.
func (c *blockSets) toGlobal(global []int32) {
	n := 0
	k := uint32(0)
	for b := range len(c.start) - 1 {
		end := c.start[b+1]
		c.start[b] = uint32(n)
		for ; k < end; k++ {
			if g := global[c.bits[k]]; g >= 0 {
				c.bits[n] = uint32(g)
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
// instruction, uses come before definitions.
func scanBlocks(f *ir.Func, buf *liveBuf) (gen, kill blockSets) {
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
			for _, x := range refs {
				if !x.Def && defStamp[x.Reg] != st && genStamp[x.Reg] != st {
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
	}
	gen.start[nb] = uint32(len(gen.bits))
	kill.start[nb] = uint32(len(kill.bits))
	return gen, kill
}

// segment is a run [lo, hi) of positions in l.order; cyclic when a
// retreating edge lies inside it.
type segment struct {
	lo, hi int32
	cyclic bool
}

// segments cuts the solve order into segments (see the package comment
// above): a cut after RPO position i is allowed when no retreating edge
// spans it; pieces are grouped until a segment's four sets take about
// segBytes. The unreachable blocks form the last segment. It returns the
// segments and the length of the longest.
func (l *Liveness) segments(o *Order, stride int64, segBlocks int, buf *liveBuf) ([]segment, int) {
	f := l.F
	m := len(o.RPO)
	nb := len(l.order)
	target := int32(max(8, segBytes/(4*max(stride, 64))))
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
	maxSeg := 0
	lo, end := int32(0), int32(-1)
	cyc := false
	for i := range int32(m) {
		end = max(end, reach[i])
		cyc = cyc || back[i]
		if end == i && (i+1-lo >= target || i+1 == int32(m)) {
			segs = append(segs, segment{lo, i + 1, cyc})
			maxSeg = max(maxSeg, int(i+1-lo))
			lo, cyc = i+1, false
		}
	}
	if nb > m {
		// Unreachable blocks may branch into reachable ones, never the
		// other way: their segment is solved last, so it goes first (the
		// segments are solved from the last to the first).
		segs = slices.Insert(segs, 0, segment{int32(m), int32(nb), true})
		maxSeg = max(maxSeg, nb-m)
	}
	return segs, maxSeg
}

// segSolver holds the dense method's state: per solve position, the in
// set and the gen and kill sets, and the successor positions.
//
// The hot loop works on raw words, not on BitVector values: every set is
// a window of sw words (the stride, a multiple of 16 words, whose
// padding stays zero) in one aligned array, where position p holds in,
// gen and kill back to back (3 sets, contiguous: a block's sets share
// pages and prefetch streams, and a segment's sets are one contiguous
// range). The successors of every position are precomputed as positions
// (an exit block has the live-at-exit set, stored after the last block,
// as its one successor). The kernels are called through the level's
// kernel table over the whole padded stride: a single indirect call per
// edge, with no shape checks and no tail handling.
//
// A block with several successors needs no out set: the transfer
// distributes over the union, in = gen ∪ ((∪ in(s)) − kill) =
// ∪ (gen ∪ (in(s) − kill)), so the solver calls the fused
// OrWithAndNotIfChanged once per successor, each reading that
// successor's in set directly. The bytes read are the same as a meet
// (OrIfChanged per successor) followed by one transfer, with one call
// fewer and no scratch set to clear.
type segSolver struct {
	l    *Liveness
	segs []segment

	sw     int      // words per set (the stride)
	maxSeg int      // blocks in the longest segment
	w      []uint32 // in, gen, kill of each position; then LiveAtExit
	sstart []int32  // successors of position p: spos[sstart[p]:sstart[p+1]]
	spos   []int32  // successor positions (nb: LiveAtExit)

	// worklist
	queue []int32
	inQ   []bool
	pred  csr32 // predecessor positions of each position
}

// csr32 is a compressed list of int32 per position.
type csr32 struct {
	start []int32
	adj   []int32
}

// alignedWords returns n zeroed words starting on a 64-byte boundary,
// carved from *raw (grown when too small).
func alignedWords(raw *[]uint32, n int) []uint32 {
	*raw = grow(*raw, n+16)
	r := *raw
	off := int((64-uintptr(unsafe.Pointer(&r[0]))&63)&63) / 4
	return r[off : off+n : off+n]
}

// setup lays out the sets and sets gen and kill from the per-block lists
// of global bits.
func (s *segSolver) setup(gen, kill blockSets, maxSeg int, buf *liveBuf) {
	l := s.l
	f := l.F
	nb := f.NumBlocks()
	ng := len(l.GlobalRegs)
	nw := bitvec.WordsFor(ng)
	s.sw = (nw + 15) &^ 15
	s.maxSeg = maxSeg
	sw := s.sw
	buf.pos = grow(buf.pos, nb)
	pos := buf.pos
	for p, b := range l.order {
		pos[b] = int32(p)
	}

	s.w = alignedWords(&buf.raw, sw*(3*nb+1))
	w := s.w
	buf.in = grow(buf.in, nb)
	l.In = buf.in
	for p, b := range l.order {
		base := 3 * p * sw
		l.In[b] = bitvec.FromWords(w[base:base+nw], ng)
		g := w[base+sw : base+2*sw]
		for _, x := range gen.of(b) {
			g[x>>5] |= 1 << (x & 31)
		}
		k := w[base+2*sw : base+3*sw]
		for _, x := range kill.of(b) {
			k[x>>5] |= 1 << (x & 31)
		}
	}
	l.exitOut = bitvec.FromWords(w[3*nb*sw:3*nb*sw+nw], ng)

	buf.sstart = grow(buf.sstart, nb+1)
	s.sstart = buf.sstart
	n := 0
	for p, b := range l.order {
		n += max(1, len(f.SuccsOf(b)))
		s.sstart[p+1] = int32(n)
	}
	buf.spos = grow(buf.spos, n)
	s.spos = buf.spos
	for p, b := range l.order {
		succs := f.SuccsOf(b)
		k := s.sstart[p]
		if len(succs) == 0 {
			s.spos[k] = int32(nb)
			continue
		}
		for i, x := range succs {
			s.spos[int(k)+i] = pos[x]
		}
	}
}

// setupWorklist builds the predecessor positions the worklist needs.
func (s *segSolver) setupWorklist() {
	if s.pred.start != nil {
		return
	}
	nb := len(s.l.order)
	st := make([]int32, nb+2)
	for _, q := range s.spos {
		if int(q) < nb {
			st[q+2]++
		}
	}
	for p := range nb {
		st[p+2] += st[p+1]
	}
	adj := make([]int32, len(s.spos))
	for p := range nb {
		for _, q := range s.spos[s.sstart[p]:s.sstart[p+1]] {
			if int(q) < nb {
				adj[st[q+1]] = int32(p)
				st[q+1]++
			}
		}
	}
	s.pred = csr32{start: st[:nb+1], adj: adj}
}

// run solves the segments from the last to the first.
func (s *segSolver) run(sv Solver) {
	l := s.l
	kern, _ := bitvec.KernelsFor(bitvec.Level())
	if sv == Worklist {
		s.setupWorklist()
	}
	l.Stats.Segments = len(s.segs)
	var calls int64
	for k := len(s.segs) - 1; k >= 0; k-- {
		if sv == Worklist {
			calls += s.worklist(s.segs[k], kern)
		} else {
			calls += s.roundRobin(s.segs[k], kern)
		}
	}
	l.Stats.Words += 4 * int64(bitvec.WordsFor(len(l.GlobalRegs))) * calls
}

// visit applies the transfer to the block at position p, one fused call
// per successor, and reports whether its in set changed.
func (s *segSolver) visit(kern *bitvec.Kernels, p int, calls *int64) bool {
	sw := s.sw
	w := s.w
	base := 3 * p * sw
	dst, g, k := w[base:base+sw], w[base+sw:base+2*sw], w[base+2*sw:base+3*sw]
	ss := s.spos[s.sstart[p]:s.sstart[p+1]]
	changed := false
	for _, q := range ss {
		o := 3 * int(q) * sw
		if kern.OrWithAndNotIfChanged(dst, g, w[o:o+sw], k) {
			changed = true
		}
	}
	*calls += int64(len(ss))
	return changed
}

func (s *segSolver) roundRobin(sg segment, kern *bitvec.Kernels) (calls int64) {
	l := s.l
	sw := s.sw
	lo, hi := int(sg.lo), int(sg.hi)
	// Every window below lies inside s.w by construction (positions are
	// < nb, successors ≤ nb): the sets are formed from the base pointer
	// without bounds checks.
	w := unsafe.Pointer(unsafe.SliceData(s.w))
	set := func(off int) []uint32 { return unsafe.Slice((*uint32)(unsafe.Add(w, 4*off)), sw) }
	spos, sstart := s.spos, s.sstart
	fused := kern.OrWithAndNotIfChanged
	passes := 0
	for {
		passes++
		changed := false
		for p := hi - 1; p >= lo; p-- {
			base := 3 * p * sw
			dst, g, k := set(base), set(base+sw), set(base+2*sw)
			for _, q := range spos[sstart[p]:sstart[p+1]] {
				if fused(dst, g, set(3*int(q)*sw), k) {
					changed = true
				}
			}
		}
		calls += int64(sstart[hi] - sstart[lo])
		l.Stats.BlockVisits += hi - lo
		// Without a retreating edge, post-order sees every successor
		// inside the segment before the block: one pass is the fixed point.
		if !changed || !sg.cyclic {
			break
		}
	}
	l.Stats.Iterations = max(l.Stats.Iterations, passes)
	return calls
}

func (s *segSolver) worklist(sg segment, kern *bitvec.Kernels) (calls int64) {
	l := s.l
	n := int(sg.hi - sg.lo)
	if len(s.queue) < n {
		s.queue = make([]int32, s.maxSeg)
		s.inQ = make([]bool, s.maxSeg)
	}
	queue, inQ := s.queue[:n], s.inQ[:n]
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
		p := int(sg.lo + j)
		if !s.visit(kern, p, &calls) {
			continue
		}
		for _, q := range s.pred.adj[s.pred.start[p]:s.pred.start[p+1]] {
			k := q - sg.lo
			if k >= 0 && k < int32(n) && !inQ[k] {
				inQ[k] = true
				t := head + size
				if t >= n {
					t -= n
				}
				queue[t] = k
				size++
			}
		}
	}
	l.Stats.BlockVisits += visits
	l.Stats.Iterations = max(l.Stats.Iterations, (visits+n-1)/n)
	return calls
}

// solveSparse is the per-register method: for each global register g, in
// bit order, mark in(b) for the blocks where g is upward-exposed, then
// search backwards: a predecessor p of a block with g live-in has g in
// out(p), and in in(p) unless p kills g. The (block, g) pairs come out in
// g order, so a stable counting sort by block leaves each block's list
// sorted.
func (l *Liveness) solveSparse(gen, kill blockSets, atExit []ir.RegID) {
	f := l.F
	nb := f.NumBlocks()
	ng := len(l.GlobalRegs)
	genC := groupByGlobal(ng, gen)
	killC := groupByGlobal(ng, kill)
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
	var inP, outP []regBlock // (bit, block) with r holding the bit number
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

// regBlock is a (bit, block) pair of the sparse method.
type regBlock struct {
	r ir.RegID
	b ir.BlockID
}

// groupByGlobal transposes per-block lists of global bits into rows of
// blocks by bit number.
func groupByGlobal(ng int, c blockSets) csr {
	t := csr{start: make([]uint32, ng+1)}
	for _, g := range c.bits {
		t.start[g+1]++
	}
	for g := range ng {
		t.start[g+1] += t.start[g]
	}
	t.adj = make([]ir.BlockID, len(c.bits))
	fill := slices.Clone(t.start[:ng])
	for b := range len(c.start) - 1 {
		for _, g := range c.of(ir.BlockID(b)) {
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

// NumGlobals returns how many registers take part in the block-level
// solve.
func (l *Liveness) NumGlobals() int { return len(l.GlobalRegs) }

// IsLiveIn reports whether r is live on entry to b.
func (l *Liveness) IsLiveIn(b ir.BlockID, r ir.RegID) bool {
	g := l.Global[r]
	if g < 0 {
		return false
	}
	if l.Method == Dense {
		return l.In[b].Test(int(g))
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
	if l.Method == Dense {
		return l.testOut(b, int(g))
	}
	_, ok := slices.BinarySearch(l.outSets.of(b), uint32(g))
	return ok
}

// testOut tests global bit g of out(b) (dense method).
func (l *Liveness) testOut(b ir.BlockID, g int) bool {
	succs := l.F.SuccsOf(b)
	if len(succs) == 0 {
		return l.exitOut.Test(g)
	}
	w, m := g>>5, uint32(1)<<(uint(g)&31)
	for _, s := range succs {
		if l.In[s].Words()[w]&m != 0 {
			return true
		}
	}
	return false
}

// outWord returns word w of out(b) (dense method).
func (l *Liveness) outWord(succs []ir.BlockID, w int) uint32 {
	if len(succs) == 0 {
		return l.exitOut.Words()[w]
	}
	x := l.In[succs[0]].Words()[w]
	for _, s := range succs[1:] {
		x |= l.In[s].Words()[w]
	}
	return x
}

// LiveOut stores out(b) into dst, a vector of NumGlobals() bits, by
// global bit number (dense method only).
func (l *Liveness) LiveOut(b ir.BlockID, dst bitvec.BitVector) {
	succs := l.F.SuccsOf(b)
	if len(succs) == 0 {
		dst.Copy(l.exitOut)
		return
	}
	dst.Copy(l.In[succs[0]])
	for _, s := range succs[1:] {
		dst.Or(l.In[s])
	}
}

// LiveInRegs appends the registers live on entry to b, in global bit
// order (file by file).
func (l *Liveness) LiveInRegs(b ir.BlockID, dst []ir.RegID) []ir.RegID {
	if l.Method == Dense {
		for g := range l.In[b].All() {
			dst = append(dst, l.GlobalRegs[g])
		}
		return dst
	}
	for _, g := range l.inSets.of(b) {
		dst = append(dst, l.GlobalRegs[g])
	}
	return dst
}

// LiveOutRegs appends the registers live on exit from b.
func (l *Liveness) LiveOutRegs(b ir.BlockID, dst []ir.RegID) []ir.RegID {
	if l.Method == Dense {
		succs := l.F.SuccsOf(b)
		for w := range bitvec.WordsFor(len(l.GlobalRegs)) {
			for x := l.outWord(succs, w); x != 0; x &= x - 1 {
				dst = append(dst, l.GlobalRegs[w<<5|bits.TrailingZeros32(x)])
			}
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
	l    *Liveness
	live bitvec.BitVector
	refs []RegRef
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
	w.live.Clear()
	if l.Method == Dense {
		succs := f.SuccsOf(b)
		for k := range bitvec.WordsFor(len(l.GlobalRegs)) {
			for x := l.outWord(succs, k); x != 0; x &= x - 1 {
				w.live.Set(int(l.GlobalRegs[k<<5|bits.TrailingZeros32(x)]))
			}
		}
	} else {
		for _, g := range l.outSets.of(b) {
			w.live.Set(int(l.GlobalRegs[g]))
		}
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
	for _, x := range w.refs {
		if !x.Def {
			w.live.Set(int(x.Reg))
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
