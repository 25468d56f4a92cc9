//go:build amd64 && !purego

package bench

import "golang.org/x/sys/cpu"

// Each function XOR-sums nblocks blocks of 256 bytes starting at p.
//
//go:noescape
func sumSSE2(p *uint32, nblocks int) uint64

//go:noescape
func sumAVX2(p *uint32, nblocks int) uint64

//go:noescape
func sumAVX512(p *uint32, nblocks int) uint64

var (
	probeWidth string
	readSum    func([]uint32) uint64
)

func init() {
	switch {
	case cpu.X86.HasAVX512F:
		probeWidth, readSum = "avx512", readSumAVX512
	case cpu.X86.HasAVX2:
		probeWidth, readSum = "avx2", readSumAVX2
	default:
		probeWidth, readSum = "sse2", readSumSSE2
	}
}

func readSumAVX512(v []uint32) uint64 {
	nb := len(v) / probeBlockWords
	var s uint64
	if nb > 0 {
		s = sumAVX512(&v[0], nb)
	}
	return s ^ sumTail(v[nb*probeBlockWords:])
}

func readSumAVX2(v []uint32) uint64 {
	nb := len(v) / probeBlockWords
	var s uint64
	if nb > 0 {
		s = sumAVX2(&v[0], nb)
	}
	return s ^ sumTail(v[nb*probeBlockWords:])
}

func readSumSSE2(v []uint32) uint64 {
	nb := len(v) / probeBlockWords
	var s uint64
	if nb > 0 {
		s = sumSSE2(&v[0], nb)
	}
	return s ^ sumTail(v[nb*probeBlockWords:])
}
