package bench

// The read-bandwidth probe: a read-only reduction (an XOR-sum) over the
// same bytes a kernel touches. It is the "hardware limit" column of the report: a kernel that
// streams at the speed of this sum is bound by load bandwidth, not by its
// arithmetic. On amd64 the sum runs in assembly at the widest vector width
// the processor offers (AVX-512, else AVX2, else SSE2), 256 bytes per loop
// iteration with independent accumulators and, on AVX-512, fewer ALU ops
// than loads, so that it measures the cache, not the loop; elsewhere (and
// under the purego tag) it is a Go loop.

// probeBlockWords is the number of 32-bit words the assembly sums per loop
// iteration (256 bytes); the rest of a vector is summed in Go.
const probeBlockWords = 64

// ReadSum returns the XOR of v's words taken in little-endian 64-bit pairs
// (v[2k] | v[2k+1]<<32, and a last odd word alone). Any read-only
// reduction would do; the value only keeps the loads alive.
func ReadSum(v []uint32) uint64 { return readSum(v) }

// ProbeWidth names the instruction set the probe uses: "avx512", "avx2",
// "sse2" or "go".
func ProbeWidth() string { return probeWidth }

// sumTail is the portable XOR-sum, for tails and for machines without the
// assembly probe. Four independent accumulators keep it from being bound
// by the latency of one chain.
func sumTail(v []uint32) uint64 {
	var s0, s1, s2, s3 uint64
	i := 0
	for ; i+8 <= len(v); i += 8 {
		s0 ^= uint64(v[i]) | uint64(v[i+1])<<32
		s1 ^= uint64(v[i+2]) | uint64(v[i+3])<<32
		s2 ^= uint64(v[i+4]) | uint64(v[i+5])<<32
		s3 ^= uint64(v[i+6]) | uint64(v[i+7])<<32
	}
	for ; i+2 <= len(v); i += 2 {
		s0 ^= uint64(v[i]) | uint64(v[i+1])<<32
	}
	if i < len(v) {
		s0 ^= uint64(v[i])
	}
	return s0 ^ s1 ^ s2 ^ s3
}
