package phases

import (
	"unsafe"

	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Scratch is a per-worker arena that phases borrow temporary memory from.
// What a phase borrows is valid until the phase returns; the driver then
// takes it all back at once (reset), so nothing a phase leaves behind is
// visible to the next phase or the next function. One Scratch serves one
// goroutine at a time.
type Scratch struct {
	u32    []uint32 // the current chunk
	top    int      // words of u32 in use
	spill  int      // words borrowed beyond the chunk since the last reset
	Resets int      // how many times the arena was taken back (for tests)

	// Pass states kept between runs on this worker (their arrays are
	// reused; each run resets what it reads).
	dead   *deadState
	genOpt genOptBufs // GeneralOptimize's growable buffers (generalopt_dirty.go)
	// genOptState is the state of the GeneralOptimize bundle running on
	// this worker (genOptBusy while it runs).
	genOptState genOpt
	genOptBusy  bool
	split       *splitter // the splitting phases' arrays (splitlive.go)
	move        moveBufs  // the movement engine's growable buffers (movement.go)

	// Dropped analysis results whose memory the next computation on this
	// worker reuses, whatever the function (see Analyses).
	spareLive           *core.Liveness
	spareDU             *core.DefUse
	duWork              core.DefUseWork // def-use chains' working memory, lent to each computation
	spareUni            *core.Uniformity
	spareOrder          *core.Order
	spareDom, sparePdom *core.DomTree
	// spareSnap is a function copy the retry did not need (its resume
	// point's snapshot): the next snapshot is copied into its arrays.
	spareSnap *ir.Func
	// stats is the memory of a run's phase statistics lent by
	// StatsBuffer.
	stats []PhaseStat
	// pass is the Pass of the pipeline run on this worker (passBusy
	// while it runs: manager.go).
	pass     Pass
	passBusy bool
	// cache is the analysis cache NewAnalysesIn hands out (cacheBusy
	// until its Release).
	cache     Analyses
	cacheBusy bool
}

// StatsBuffer returns an empty slice with room for a run's phase
// statistics, to pass to Run or RunWith: for a caller done with the
// statistics (their Counters may be kept) before the next run given this
// scratch's buffer, whose entries overwrite them. KeepStats gives the
// memory back when the run grew it.
func (s *Scratch) StatsBuffer() []PhaseStat {
	if s.stats == nil {
		s.stats = make([]PhaseStat, 0, len(pipeline))
	}
	return s.stats[:0]
}

// KeepStats keeps the memory of st, a run's statistics in a slice
// StatsBuffer returned, for the next StatsBuffer.
func (s *Scratch) KeepStats(st []PhaseStat) {
	if cap(st) > cap(s.stats) {
		s.stats = st[:0]
	}
}

// takeSnap hands over the spare snapshot (nil when there is none).
func (s *Scratch) takeSnap() *ir.Func {
	f := s.spareSnap
	s.spareSnap = nil
	return f
}

// NewScratch returns an empty arena; it grows on demand and keeps its
// largest size across phases and functions.
func NewScratch() *Scratch { return &Scratch{} }

// ChunkBytes returns the size of the arena's chunk, which grows to what
// the largest function it served needed (its spare analyses and pass
// states grow alike).
func (s *Scratch) ChunkBytes() int { return 4 * len(s.u32) }

// U32 borrows n zeroed words.
func (s *Scratch) U32(n int) []uint32 {
	b := s.u32Raw(n)
	clear(b)
	return b
}

// u32Raw is U32 without the clearing: the words hold whatever the
// arena's last user left, for a caller that writes each one before it
// reads it (on a huge function the clearing is a pass over memory that
// is not in cache).
func (s *Scratch) u32Raw(n int) []uint32 {
	if s.top+n > len(s.u32) {
		// Too small: hand out fresh memory now, and grow the chunk at the
		// next reset so the next phase fits.
		s.spill += n
		return make([]uint32, n)
	}
	b := s.u32[s.top : s.top+n : s.top+n]
	s.top += n
	return b
}

// takeRaw is take without the clearing (u32Raw): every element must be
// written before it is read.
func takeRaw[T any](s *Scratch, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if n == 0 || size == 0 {
		return make([]T, n)
	}
	words := (size*n + 7) / 8 * 2
	if s.top&1 != 0 {
		s.top++
	}
	w := s.u32Raw(words)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(w))), n)
}

// take borrows n zeroed elements of T from s. T must hold no pointers
// (the arena is uint32 words the garbage collector does not scan) and need
// no more than 8-byte alignment; every borrowed run starts 8-byte aligned.
func take[T any](s *Scratch, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if n == 0 || size == 0 {
		return make([]T, n)
	}
	words := (size*n + 7) / 8 * 2 // whole 8-byte units, so the next run stays aligned
	if s.top&1 != 0 {
		s.top++ // keep runs 8-byte aligned (the chunk itself is)
	}
	w := s.U32(words)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(w))), n)
}

// takeFit is take when n elements fit in the chunk's free room, and a
// plain allocation otherwise, not counted toward the chunk's next size.
// It serves a phase that runs once, after the chunk was sized by the
// phases that use it most (OutOfSSA's arrays per register): on a huge
// function they would otherwise grow the chunk, at the run's peak, for
// the phases after it, while the room the chunk has is idle.
func takeFit[T any](s *Scratch, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if words := (size*n + 7) / 8 * 2; s.top+s.top&1+words > len(s.u32) {
		return make([]T, n)
	}
	return take[T](s, n)
}

// Bits borrows a cleared bit vector of nbits bits.
func (s *Scratch) Bits(nbits int) bitvec.BitVector {
	return bitvec.FromWords(s.U32(bitvec.WordsFor(nbits)), nbits)
}

// InUse returns how many words are borrowed right now.
func (s *Scratch) InUse() int { return s.top + s.spill }

// reset takes back everything borrowed.
func (s *Scratch) reset() {
	if s.spill > 0 {
		// What the phase needed and an eighth more: the chunk stays
		// allocated for the function's whole run (and the worker's next
		// ones), so doubling it would add as much again to the peak
		// memory of a huge function (on the 1M-instruction kernel the
		// chunk is the largest single holder of memory).
		need := s.top + s.spill
		s.u32 = make([]uint32, need+need/8+2)
	}
	s.top, s.spill = 0, 0
	s.Resets++
}

// Reset takes back everything borrowed; the driver calls it after every
// phase, and code driving phases by hand may call it between functions.
func (s *Scratch) Reset() { s.reset() }
