package core

import (
	"fmt"
	"slices"

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
// The dense method keeps in, out, gen and kill of every block in one
// bitvec.Slab and iterates in post-order (reverse RPO), either round-robin
// until a pass changes nothing or with a worklist that re-queues only the
// predecessors of blocks whose in set changed. The meet is OrIfChanged
// (out |= in(s)); the transfer is the fused OrWithAndNotIfChanged
// (in |= gen | (out &^ kill)): since every set only grows from empty, OR
// into in computes the same as assigning, and a block whose out did not
// change is skipped. When the sets would take more than the memory budget
// (many global registers times many blocks), the sparse method runs
// instead: for each global register, a backward search from the blocks
// where it is upward-exposed through predecessors, stopping at blocks that
// kill it — exact, linear in the total size of the live ranges, and the
// result is stored as sorted per-block lists.

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
	// LiveAtExit are registers live when the function returns.
	LiveAtExit []ir.RegID
}

// LiveStats are the solver's counters.
type LiveStats struct {
	Iterations  int   // dense round-robin: passes over the blocks; worklist: pops / blocks, rounded up
	BlockVisits int   // blocks processed by the solver
	Words       int64 // 32-bit words the set kernels read
	Bytes       int64 // bytes held by the per-block sets
	Globals     int   // registers with a bit in the global solve
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

	// Dense: per-block sets, nil under Sparse.
	In, Out   []bitvec.BitVector
	gen, kill []bitvec.BitVector
	// Sparse: sorted global bits per block.
	inSets, outSets idxCSR

	order []ir.BlockID // solve order: reachable blocks in post-order, then the rest
	slots []uint8      // 32-bit slots of each register
}

// idxCSR holds sorted lists of global bit numbers per block.
type idxCSR struct {
	start []uint32
	idx   []uint32
}

func (c *idxCSR) of(b ir.BlockID) []uint32 { return c.idx[c.start[b]:c.start[b+1]] }

// ComputeLiveness computes block live-in and live-out sets of f's
// registers per register file.
func ComputeLiveness(f *ir.Func, opt LiveOptions) *Liveness {
	ensureCFG(f)
	nb, nr := f.NumBlocks(), f.NumRegs()
	l := &Liveness{F: f, Files: opt.Files}
	if l.Files == nil {
		l.Files = make([]ir.File, nr)
		for r, t := range f.RegType {
			l.Files[r] = ir.FileOf(t, false)
		}
	}
	l.slots = make([]uint8, nr)
	for r, t := range f.RegType {
		l.slots[r] = uint8(ir.Slots(t))
	}

	// Solve order: post-order of the reachable blocks, then the others.
	o := ComputeOrder(f)
	l.order = make([]ir.BlockID, 0, nb)
	for b := range o.PostOrder() {
		l.order = append(l.order, b)
	}
	for b := range nb {
		if o.Num[b] < 0 {
			l.order = append(l.order, ir.BlockID(b))
		}
	}

	// One forward scan: upward-exposed uses and first killing definition
	// of every register in every block, as (register, block) pairs.
	genP, killP := scanBlocks(f)
	global := make([]bool, nr)
	for _, p := range genP {
		global[p.r] = true
	}
	for _, r := range opt.LiveAtExit {
		global[r] = true
	}
	l.Global = make([]int32, nr)
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
	l.GlobalRegs = make([]ir.RegID, ng)
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

	stride := int64((bitvec.WordsFor(ng)+15)&^15) * 4
	bytes := stride * 4 * int64(nb)
	budget := opt.MemBudget
	if budget == 0 {
		budget = DefaultMemBudget
	}
	if budget < 0 || bytes > budget {
		l.Method = Sparse
		l.solveSparse(genP, killP, opt.LiveAtExit)
		return l
	}
	l.Method = Dense
	l.Stats.Bytes = bytes
	slab := bitvec.NewSlab(ng, 4*nb)
	l.In = make([]bitvec.BitVector, nb)
	l.Out = make([]bitvec.BitVector, nb)
	l.gen = make([]bitvec.BitVector, nb)
	l.kill = make([]bitvec.BitVector, nb)
	for b := range nb {
		l.In[b], l.Out[b], l.gen[b], l.kill[b] = slab.Next(), slab.Next(), slab.Next(), slab.Next()
	}
	for _, p := range genP {
		l.gen[p.b].Set(int(l.Global[p.r]))
	}
	for _, p := range killP {
		if g := l.Global[p.r]; g >= 0 {
			l.kill[p.b].Set(int(g))
		}
	}
	for b := range nb {
		if len(f.SuccsOf(ir.BlockID(b))) == 0 {
			for _, r := range opt.LiveAtExit {
				l.Out[b].Set(int(l.Global[r]))
			}
		}
	}
	if opt.Solver == Worklist {
		l.solveWorklist()
	} else {
		l.solveRoundRobin()
	}
	return l
}

type regBlock struct {
	r ir.RegID
	b ir.BlockID
}

// scanBlocks walks every block forward once. A use of r not preceded in
// the block by a killing (unguarded) definition makes (r, b) a gen pair;
// the first killing definition of r in b makes a kill pair. Within an
// instruction, uses come before definitions.
func scanBlocks(f *ir.Func) (genP, killP []regBlock) {
	nr := f.NumRegs()
	defStamp := make([]uint32, nr) // block+1 of the last kill seen
	genStamp := make([]uint32, nr) // block+1 of the last gen pair
	var refs []RegRef
	for b := range f.NumBlocks() {
		st := uint32(b) + 1
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if !x.Def && defStamp[x.Reg] != st && genStamp[x.Reg] != st {
					genStamp[x.Reg] = st
					genP = append(genP, regBlock{x.Reg, ir.BlockID(b)})
				}
			}
			if f.Guard[i] != ir.NoOperand {
				continue
			}
			for _, x := range refs {
				if x.Def && defStamp[x.Reg] != st {
					defStamp[x.Reg] = st
					killP = append(killP, regBlock{x.Reg, ir.BlockID(b)})
				}
			}
		}
	}
	return genP, killP
}

func (l *Liveness) solveRoundRobin() {
	f := l.F
	nw := int64(bitvec.WordsFor(len(l.GlobalRegs)))
	first := true
	for {
		l.Stats.Iterations++
		changed := false
		for _, b := range l.order {
			l.Stats.BlockVisits++
			out := l.Out[b]
			ch := first
			for _, s := range f.SuccsOf(b) {
				if out.OrIfChanged(l.In[s]) {
					ch = true
				}
			}
			l.Stats.Words += 2 * nw * int64(len(f.SuccsOf(b)))
			if ch {
				l.Stats.Words += 4 * nw
				if l.In[b].OrWithAndNotIfChanged(l.gen[b], out, l.kill[b]) {
					changed = true
				}
			}
		}
		first = false
		if !changed {
			return
		}
	}
}

func (l *Liveness) solveWorklist() {
	f := l.F
	nb := f.NumBlocks()
	nw := int64(bitvec.WordsFor(len(l.GlobalRegs)))
	queue := make([]ir.BlockID, nb) // ring buffer; a block is queued at most once
	inQ := make([]bool, nb)
	done := make([]bool, nb)
	copy(queue, l.order)
	head, size := 0, nb
	for _, b := range l.order {
		inQ[b] = true
	}
	for size > 0 {
		b := queue[head]
		head = (head + 1) % nb
		size--
		inQ[b] = false
		l.Stats.BlockVisits++
		out := l.Out[b]
		ch := !done[b]
		done[b] = true
		for _, s := range f.SuccsOf(b) {
			if out.OrIfChanged(l.In[s]) {
				ch = true
			}
		}
		l.Stats.Words += 2 * nw * int64(len(f.SuccsOf(b)))
		if !ch {
			continue
		}
		l.Stats.Words += 4 * nw
		if l.In[b].OrWithAndNotIfChanged(l.gen[b], out, l.kill[b]) {
			for _, p := range f.PredsOf(b) {
				if !inQ[p] {
					inQ[p] = true
					queue[(head+size)%nb] = p
					size++
				}
			}
		}
	}
	if nb > 0 {
		l.Stats.Iterations = (l.Stats.BlockVisits + nb - 1) / nb
	}
}

// solveSparse is the per-register method: for each global register g, in
// bit order, mark in(b) for the blocks where g is upward-exposed, then
// search backwards: a predecessor p of a block with g live-in has g in
// out(p), and in in(p) unless p kills g. The (block, g) pairs come out in
// g order, so a stable counting sort by block leaves each block's list
// sorted.
func (l *Liveness) solveSparse(genP, killP []regBlock, atExit []ir.RegID) {
	f := l.F
	nb := f.NumBlocks()
	ng := len(l.GlobalRegs)
	genC := groupByGlobal(l, genP)
	killC := groupByGlobal(l, killP)
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

// groupByGlobal sorts (register, block) pairs of global registers into
// rows by bit number.
func groupByGlobal(l *Liveness, ps []regBlock) csr {
	ng := len(l.GlobalRegs)
	c := csr{start: make([]uint32, ng+1)}
	n := 0
	for _, p := range ps {
		if g := l.Global[p.r]; g >= 0 {
			c.start[g+1]++
			n++
		}
	}
	for g := range ng {
		c.start[g+1] += c.start[g]
	}
	c.adj = make([]ir.BlockID, n)
	fill := slices.Clone(c.start[:ng])
	for _, p := range ps {
		if g := l.Global[p.r]; g >= 0 {
			c.adj[fill[g]] = p.b
			fill[g]++
		}
	}
	return c
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
	return l.isLive(b, r, l.In, &l.inSets)
}

// IsLiveOut reports whether r is live on exit from b.
func (l *Liveness) IsLiveOut(b ir.BlockID, r ir.RegID) bool {
	return l.isLive(b, r, l.Out, &l.outSets)
}

func (l *Liveness) isLive(b ir.BlockID, r ir.RegID, sets []bitvec.BitVector, sp *idxCSR) bool {
	g := l.Global[r]
	if g < 0 {
		return false
	}
	if l.Method == Dense {
		return sets[b].Test(int(g))
	}
	_, ok := slices.BinarySearch(sp.of(b), uint32(g))
	return ok
}

// LiveInRegs appends the registers live on entry to b, in global bit
// order (file by file).
func (l *Liveness) LiveInRegs(b ir.BlockID, dst []ir.RegID) []ir.RegID {
	return l.appendRegs(b, dst, l.In, &l.inSets)
}

// LiveOutRegs appends the registers live on exit from b.
func (l *Liveness) LiveOutRegs(b ir.BlockID, dst []ir.RegID) []ir.RegID {
	return l.appendRegs(b, dst, l.Out, &l.outSets)
}

func (l *Liveness) appendRegs(b ir.BlockID, dst []ir.RegID, sets []bitvec.BitVector, sp *idxCSR) []ir.RegID {
	if l.Method == Dense {
		for g := range sets[b].All() {
			dst = append(dst, l.GlobalRegs[g])
		}
		return dst
	}
	for _, g := range sp.of(b) {
		dst = append(dst, l.GlobalRegs[g])
	}
	return dst
}

func (l *Liveness) String() string {
	return fmt.Sprintf("liveness(%s, %d globals, %d iterations, %d visits, %d words, %d bytes)",
		l.Method, l.Stats.Globals, l.Stats.Iterations, l.Stats.BlockVisits, l.Stats.Words, l.Stats.Bytes)
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
		for g := range l.Out[b].All() {
			w.live.Set(int(l.GlobalRegs[g]))
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
