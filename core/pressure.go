package core

import (
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

// Register pressure.
//
// The pressure of file F at instruction i is the number of 32-bit slots of
// F taken by registers live there (ir.Slots: a 64-bit register counts two
// in R and UR, a predicate one in P and UP), measured at the two points i
// touches:
//
//	before(i)           registers live just before i
//	after(i) ∪ defs(i)  registers live just after i, plus i's destinations
//	                    (a result nobody reads still needs a register)
//
// Each block starts from its live-out set as bits in its segment's
// numbering (OutSet: the union of the successors' in sets), whose slots per
// file are popcounts under per-segment file masks and bit planes of
// (slots − 1). The walk backwards then touches only the registers the
// instructions name: the first time it meets one, its state is looked up
// in the live-out set; after that a register-indexed vector, valid under a
// per-block stamp, holds it, and the counts change as bits flip. So a
// block costs its set's words plus its register references — not its live
// registers one by one — and nothing is cleared between blocks.

// Pressure is the maximum pressure per file and where it occurs.
type Pressure struct {
	Max [ir.NumFiles]int
	// At is an instruction where Max is reached (the first found walking
	// blocks in layout order, instructions backwards); NoInstr when the
	// file is empty or the maximum is only reached at an empty block.
	At [ir.NumFiles]ir.InstrID
	// Block is the block of that point.
	Block [ir.NumFiles]ir.BlockID
	// Classes, from PressureTraceFilesClasses only: the maximum over the
	// points of R+UR (in FileR) and of P+UP (in FileP), the classes a
	// register cap compares. Files that split only l's own files into
	// their uniform halves give what PressureTrace's Max gives.
	Classes [ir.NumFiles]int
}

// RegSlots is how many 32-bit slots of its file register r takes: one per
// 32 bits of its type, times the lanes of a .v2/.v4 vector register (at
// most 8: a .v4 .b64 register).
func RegSlots(f *ir.Func, r ir.RegID) int {
	return ir.Slots(f.RegType[r]) * max(1, int(f.RegVec[r]))
}

// RegisterPressure computes the maximum pressure per file.
func RegisterPressure(l *Liveness) Pressure { return walkPressure(l, l.Files, nil, nil, false) }

// PressureTrace calls at for every instruction of l.F, blocks in layout
// order and instructions backwards within a block, with the live slots
// per file at that instruction: the larger of the two program points
// around it, where the point after it includes its destinations (a result
// nobody reads still occupies a register). It returns the maximum, as
// RegisterPressure does.
func PressureTrace(l *Liveness, at func(i ir.InstrID, live [ir.NumFiles]int)) Pressure {
	return walkPressure(l, l.Files, nil, at, false)
}

// PressureTraceFiles is PressureTrace with registers counted in the files
// files gives (say UR/UP for registers the uniformity analysis proves
// uniform) rather than the files l was solved with: one liveness serves
// every grouping, since the sets are the same.
func PressureTraceFiles(l *Liveness, files []ir.File, at func(i ir.InstrID, live [ir.NumFiles]int)) Pressure {
	return walkPressure(l, files, nil, at, false)
}

// PressureTraceFilesClasses is PressureTraceFiles without a callback that
// also fills Classes: a cache that wants both the maximum per file and per
// class walks once.
func PressureTraceFilesClasses(l *Liveness, files []ir.File) Pressure {
	return walkPressure(l, files, nil, nil, true)
}

// PressureTraceBlocks is PressureTrace over the given blocks only (in the
// order given); the maximum is theirs.
func PressureTraceBlocks(l *Liveness, blocks []ir.BlockID, at func(i ir.InstrID, live [ir.NumFiles]int)) Pressure {
	return walkPressure(l, l.Files, blocks, at, false)
}

func walkPressure(l *Liveness, files []ir.File, blocks []ir.BlockID, each func(i ir.InstrID, live [ir.NumFiles]int), classes bool) Pressure {
	if blocks == nil {
		blocks = l.F.Layout
	}
	// The walker's memory is the liveness's own (buf.pw), so that walk
	// after walk on one worker allocates nothing; a walk started from
	// another walk's callback gets its own.
	var w *PressureWalker
	if l.buf != nil && !l.buf.pwBusy {
		l.buf.pwBusy = true
		defer func() { l.buf.pwBusy = false }()
		l.buf.pw = NewPressureWalkerInto(l.buf.pw, l, files)
		w = l.buf.pw
	} else {
		w = NewPressureWalker(l, files)
	}
	w.classes = classes
	var p Pressure
	for k := range p.At {
		p.At[k] = ir.NoInstr
		p.Block[k] = ir.NoBlock
	}
	for _, b := range blocks {
		q := w.Block(b, each)
		for k := range q.Max {
			if q.Max[k] > p.Max[k] {
				p.Max[k], p.At[k], p.Block[k] = q.Max[k], q.At[k], q.Block[k]
			}
			p.Classes[k] = max(p.Classes[k], q.Classes[k])
		}
	}
	w.classes = false
	return p
}

// PressureWalker walks the pressure of one block at a time (the walk of
// PressureTraceFiles, block by block), keeping its working memory from
// one block to the next: a pass that needs the pressure of a few blocks
// pays for those blocks (and, once, for its per-register arrays), not
// for the function.
type PressureWalker struct {
	l     *Liveness
	files []ir.File
	// state[r] = stamp<<1 | live: r's live bit, valid where the stamp is
	// the block's. Stamp and bit share one word, so a lookup on a large
	// function is one cache line, not two.
	state   []uint32
	st      uint32
	weights outWeights
	out     OutSet
	// dir: the registers of segment dirSeg−1 (0: none) with their numbers
	// in it, an open-addressing table (reg+1, number) of twice their
	// count at least, for the live-out lookups of its blocks (has): one
	// probe, where a binary search over the segment's sorted registers
	// took a dependent load per halving. It is built once the walk has
	// searched the current segment (curSeg−1) an eighth of its registers'
	// count of times (searched): about what the building costs, so a walk
	// of a few blocks here and there pays at most twice its searches.
	dir      []dirEntry
	dirSeg   int32
	curSeg   int32
	searched int
	dirShift uint8
	refs     []RegRef
	extra    []ir.RegID
	// classes: Block fills Pressure.Classes too (walkPressure's)
	classes bool
}

// NewPressureWalker returns a walker over l's blocks with registers
// counted in files (l.Files when nil).
func NewPressureWalker(l *Liveness, files []ir.File) *PressureWalker {
	if files == nil {
		files = l.Files
	}
	w := &PressureWalker{l: l, files: files, state: make([]uint32, l.F.NumRegs()), refs: make([]RegRef, 0, 32)}
	w.weights.reset(l, files)
	return w
}

// NewPressureWalkerInto is NewPressureWalker reusing old's per-register
// memory (nil: new memory) when it is large enough: nothing is cleared,
// its stamps go on from where old's stopped, so a pass that traces a few
// blocks of a huge function pays for those blocks only. old must not be
// used afterwards.
func NewPressureWalkerInto(old *PressureWalker, l *Liveness, files []ir.File) *PressureWalker {
	if old == nil || len(old.state) < l.F.NumRegs() || old.st > 1<<30 {
		return NewPressureWalker(l, files)
	}
	if files == nil {
		files = l.Files
	}
	w := old
	w.l, w.files, w.classes = l, files, false
	w.weights.reset(l, files)
	w.dirSeg, w.curSeg = 0, 0 // the segments may be another liveness's
	return w
}

// BorrowWalker lends the walker walkPressure keeps in l's working memory
// (reused walk after walk, and from one solve into l to the next),
// ready for a walk with registers counted in files (l.Files when nil),
// until ReturnWalker. A pass that walks a few blocks of a huge function
// then pays for those blocks: its per-register array, which the
// pipeline's earlier pressure walks of the function allocated already, is
// neither allocated nor cleared again. While it is lent, a walk of l
// (PressureTrace and the others) gets a walker of its own, and so does a
// second BorrowWalker.
func (l *Liveness) BorrowWalker(files []ir.File) *PressureWalker {
	if l.buf == nil || l.buf.pwBusy {
		return NewPressureWalker(l, files)
	}
	l.buf.pwBusy = true
	l.buf.pw = NewPressureWalkerInto(l.buf.pw, l, files)
	return l.buf.pw
}

// ReturnWalker gives back a walker BorrowWalker lent (or made); w must
// not be used afterwards.
func (l *Liveness) ReturnWalker(w *PressureWalker) {
	if l.buf != nil && l.buf.pw == w {
		l.buf.pwBusy = false
	}
}

// Block walks block b backwards as PressureTraceFiles does (each, when
// not nil, sees every instruction) and returns the maximum of its points,
// its live-out set's included.
func (w *PressureWalker) Block(b ir.BlockID, each func(i ir.InstrID, live [ir.NumFiles]int)) Pressure {
	l, f, files := w.l, w.l.F, w.files
	var p Pressure
	for k := range p.At {
		p.At[k] = ir.NoInstr
		p.Block[k] = ir.NoBlock
	}
	state := w.state
	var cnt [ir.NumFiles]int
	w.st++
	st := w.st
	out := &w.out
	// A register's state is read from the block's live-out set the first
	// time the walk meets it (a lookup), and kept in state under the
	// block's stamp afterwards: a block costs its references, not its
	// live set.
	isLive := func(r ir.RegID) bool {
		if v := state[r]; v>>1 == st {
			return v&1 != 0
		}
		v := w.has(r)
		state[r] = st << 1
		if v {
			state[r] |= 1
		}
		return v
	}
	set := func(r ir.RegID) {
		if !isLive(r) {
			state[r] |= 1
			cnt[files[r]] += int(l.slots[r])
		}
	}
	clr := func(r ir.RegID) {
		if isLive(r) {
			state[r] &^= 1
			cnt[files[r]] -= int(l.slots[r])
		}
	}
	classes := w.classes
	record := func(i ir.InstrID) {
		for k := range cnt {
			if cnt[k] > p.Max[k] {
				p.Max[k], p.At[k], p.Block[k] = cnt[k], i, b
			}
		}
		if classes {
			p.Classes[ir.FileR] = max(p.Classes[ir.FileR], cnt[ir.FileR]+cnt[ir.FileUR])
			p.Classes[ir.FileP] = max(p.Classes[ir.FileP], cnt[ir.FileP]+cnt[ir.FileUP])
		}
	}
	refs, extra := w.refs, w.extra
	w.enter(b)
	cnt = w.weights.count(l, b, out)
	record(ir.NoInstr)
	for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
		refs = AppendRegRefs(f, i, refs[:0])
		// after(i) ∪ defs(i)
		extra = extra[:0]
		for _, x := range refs {
			if x.Def && !isLive(x.Reg) {
				set(x.Reg)
				extra = append(extra, x.Reg)
			}
		}
		record(i)
		after := cnt
		for _, r := range extra {
			clr(r)
		}
		// before(i) = uses(i) ∪ (after(i) − kdefs(i))
		if f.Guard[i] == ir.NoOperand {
			for _, x := range refs {
				if x.Def {
					clr(x.Reg)
				}
			}
		}
		if f.Op[i] != ir.OpPhi { // a PHI reads on its incoming edges
			for _, x := range refs {
				if !x.Def {
					set(x.Reg)
				}
			}
		}
		record(i)
		if each != nil {
			for k := range after {
				after[k] = max(after[k], cnt[k])
			}
			each(i, after)
		}
	}
	w.refs, w.extra = refs, extra
	return p
}

// dirEntry is a register of the directory's segment (reg+1; 0: an empty
// slot) and its number there.
type dirEntry struct {
	reg1, x uint32
}

// buildDir fills the directory with the segment's registers regs.
func (w *PressureWalker) buildDir(regs []ir.RegID) {
	n := 16
	for n < 2*len(regs) {
		n <<= 1
	}
	if cap(w.dir) < n {
		w.dir = make([]dirEntry, n)
	}
	w.dir = w.dir[:n]
	clear(w.dir)
	w.dirShift = uint8(32 - bits.TrailingZeros(uint(n)))
	mask := uint32(n - 1)
	for x, r := range regs {
		k := (uint32(r) * 0x9E3779B1) >> w.dirShift
		for w.dir[k].reg1 != 0 {
			k = (k + 1) & mask
		}
		w.dir[k] = dirEntry{reg1: uint32(r) + 1, x: uint32(x)}
	}
}

// enter fills w.out with b's live-out set and notes b's segment.
func (w *PressureWalker) enter(b ir.BlockID) {
	l := w.l
	l.Out(b, &w.out)
	if w.out.words != nil {
		if k := l.segOf[b] + 1; w.curSeg != k {
			w.curSeg, w.searched = k, 0
		}
	}
}

// has is w.out.Has(r), from the directory when the set is dense.
func (w *PressureWalker) has(r ir.RegID) bool {
	o := &w.out
	if o.words == nil {
		return o.Has(r)
	}
	if k := int(r >> 6); k < len(o.l.globBits) && o.l.globBits[k]&(1<<(r&63)) == 0 {
		return false // block-local
	}
	if w.dirSeg != w.curSeg {
		if w.searched < len(o.regs)/8 {
			w.searched++
			x, ok := searchRegs(o.regs, r)
			return ok && o.bit(x)
		}
		w.buildDir(o.regs)
		w.dirSeg = w.curSeg
	}
	mask := uint32(len(w.dir) - 1)
	for k := (uint32(r) * 0x9E3779B1) >> w.dirShift; ; k = (k + 1) & mask {
		e := w.dir[k]
		if e.reg1 == 0 {
			return false
		}
		if e.reg1 == uint32(r)+1 {
			return o.bit(int(e.x))
		}
	}
}

// outWeights counts the slots per file of live-out sets: for each segment
// of the dense method, masks over its numbering that pick each file's
// registers and bit planes of (slots − 1), made the first time a block of
// the segment asks, so a count is popcounts over the set's words.
type outWeights struct {
	files []ir.File
	segs  []*segWeights
	pool  []*segWeights // per segment, weights whose memory a later walk reuses
}

type segWeights struct {
	mask  [ir.NumFiles][]uint32
	plane [3][]uint32
	all   []uint32 // the array mask and plane live in
	// used lists the files some register of the segment is in (a walk
	// of a liveness solved by type alone has no uniform registers):
	// the count skips the others' masks
	used  [ir.NumFiles]ir.File
	nused int
}

// reset empties w for a walk of l with registers in files, keeping the
// memory of the segments' weights for reuse.
func (w *outWeights) reset(l *Liveness, files []ir.File) {
	w.files = files
	if cap(w.segs) < len(l.segs) {
		w.segs = make([]*segWeights, len(l.segs))
		w.pool = make([]*segWeights, len(l.segs))
	}
	w.segs = w.segs[:len(l.segs)]
	clear(w.segs)
}

// count returns the live slots per file of o, the live-out set of b.
func (w *outWeights) count(l *Liveness, b ir.BlockID, o *OutSet) [ir.NumFiles]int {
	var cnt [ir.NumFiles]int
	if o.words == nil {
		o.Each(func(r ir.RegID) { cnt[w.files[r]] += int(l.slots[r]) })
		return cnt
	}
	k := l.segOf[b]
	sw := w.segs[k]
	if sw == nil {
		n := len(o.words)
		if w.pool[k] == nil { // (pool is at least as long as segs: reset)
			w.pool[k] = &segWeights{}
		}
		sw = w.pool[k]
		m := (int(ir.NumFiles) + 3) * n
		if cap(sw.all) < m {
			sw.all = make([]uint32, m)
		}
		all := sw.all[:m]
		clear(all)
		for f := range sw.mask {
			sw.mask[f] = all[f*n : (f+1)*n : (f+1)*n]
		}
		for p := range sw.plane {
			q := int(ir.NumFiles) + p
			sw.plane[p] = all[q*n : (q+1)*n : (q+1)*n]
		}
		var has [ir.NumFiles]bool
		for x, r := range o.regs {
			sw.mask[w.files[r]][x>>5] |= 1 << (x & 31)
			has[w.files[r]] = true
			e := uint32(l.slots[r] - 1)
			for p := range sw.plane {
				sw.plane[p][x>>5] |= (e >> p & 1) << (x & 31)
			}
		}
		sw.nused = 0
		for f := range ir.NumFiles {
			if has[f] {
				sw.used[sw.nused] = f
				sw.nused++
			}
		}
		w.segs[k] = sw
	}
	used := sw.used[:sw.nused]
	for i, x := range o.words {
		if o.words2 != nil {
			x |= o.words2[i]
		}
		if x == 0 {
			continue
		}
		for _, f := range used {
			if y := x & sw.mask[f][i]; y != 0 {
				cnt[f] += bits.OnesCount32(y) + bits.OnesCount32(y&sw.plane[0][i]) +
					2*bits.OnesCount32(y&sw.plane[1][i]) + 4*bits.OnesCount32(y&sw.plane[2][i])
			}
		}
	}
	return cnt
}
