// Package bench holds the benchmark bodies for the bitvec kernels and the
// references they are measured against; bench_test.go turns them into Go
// benchmarks and cmd/bvreport and cmd/benchreport into reports (tables in
// package bench/report), so all of them measure the same code. The
// pipeline's workloads and measurements are in package bench/pipeline;
// cmd/benchreport writes the whole benchmark report (bench/results).
//
// # Names
//
//	BenchmarkKernels/<Kernel>/<case>/<bits>/<impl>
//	BenchmarkSmall/<Method>/<case>/<level>
//	BenchmarkSmall/floor/<n>vec
//
// Kernel is every bulk kernel of bitvec.Kernels (KernelNames). case is
// "changed" and "converged" for the IfChanged kernels, "changed" alone for
// the others (see Changed). bits is 256, 4096, 65536 or 1048576 (Sizes).
// impl is each level bitvec.Available reports on this machine and build
// (generic, sse2, avx2, avx512, neon), then:
//
//   - naive32: the obvious scan-first `for i := range dst` loop over
//     []uint32, no unrolling (naive.go);
//   - bnb: the kernel composed from github.com/bits-and-blooms/bitset the way
//     a user of that library writes it, without allocating (bnb.go);
//   - readprobe: a read-only XOR-sum over the same vectors, the read-bandwidth
//     limit (probe.go; assembly at the widest width the CPU has on amd64).
//
// Every kernel is called through a function value, as the BitVector
// methods call the dispatch table. All vectors come from bitvec.NewSlab and
// start on a 64-byte boundary.
//
// BenchmarkSmall calls the BitVector methods themselves at 256 bits (so
// their inlinable small paths count), with the dispatch level set by
// bitvec.SetLevel, against floor/<n>vec: a //go:noinline function taking
// the same n BitVector arguments and doing nothing, in the same loop.
//
// # Bytes
//
// b.SetBytes is the traffic of the ideal scan-first kernel (Traffic): the
// vectors it reads plus the vectors it writes, so GB/s compares with the
// machine's bandwidth. The fused OrWithAndNotIfChanged moves 5 vectors when
// it changes dst (reads dst, gen, in, kill; writes dst) and 4 when it
// converges; OrIfChanged 3 / 2. readprobe counts the bytes it reads (each
// distinct vector once), so "% of readprobe" = kernel GB/s / probe GB/s.
//
// # The changed case
//
// See operands: in the changed case of an IfChanged kernel the first
// source rotates through 16 windows of one buffer (one cache line apart)
// that each bring a new bit into every word, so every call really changes
// every word of dst; dst is restored with one copy per 16 calls, inside
// the timed loop and identical for every impl. That restore adds 1/8 of a
// vector-length of traffic per call, which GB/s does not count.
package bench
