package bitvec

import "unsafe"

// Slab carves many vectors of one length out of a single allocation, each
// starting on a 64-byte boundary (a cache line, and the width of an AVX-512
// register), so a dataflow solver pays one allocation per analysis instead
// of one per block.
type Slab struct {
	words  []uint32
	nbits  int
	stride int // words between the starts of consecutive vectors
	next   int // index of the next vector to hand out
	count  int
}

// slabAlign is the alignment of every vector in a Slab, in words.
const slabAlign = 64 / 4

// NewSlab returns a slab holding count zeroed vectors of nbits bits.
func NewSlab(nbits, count int) *Slab {
	if nbits < 0 || count < 0 {
		panic("bitvec: negative slab size")
	}
	stride := (WordsFor(nbits) + slabAlign - 1) &^ (slabAlign - 1)
	raw := make([]uint32, stride*count+slabAlign)
	off := 0
	if len(raw) > 0 {
		addr := uintptr(unsafe.Pointer(&raw[0]))
		off = int((64-addr&63)&63) / 4
	}
	return &Slab{words: raw[off : off+stride*count], nbits: nbits, stride: stride, count: count}
}

// Len returns how many vectors the slab holds.
func (s *Slab) Len() int { return s.count }

// Get returns vector i of the slab.
func (s *Slab) Get(i int) BitVector {
	if uint(i) >= uint(s.count) {
		panic("bitvec: slab index out of range")
	}
	nw := WordsFor(s.nbits)
	base := i * s.stride
	return BitVector{words: s.words[base : base+nw : base+nw], nbits: s.nbits}
}

// Next hands out the vectors in order; it panics when all are taken.
func (s *Slab) Next() BitVector {
	v := s.Get(s.next)
	s.next++
	return v
}

// Reset clears every vector of the slab and restarts Next.
func (s *Slab) Reset() {
	clear(s.words)
	s.next = 0
}
