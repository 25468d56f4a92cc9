//go:build !purego

package bitvec

// archKernels lists the amd64 kernel sets this processor supports.
// (Filled in with the SSE2, AVX2 and AVX-512 kernels.)
func archKernels() []*Kernels { return nil }

// CPUReport describes the processor features that matter to the kernels.
func CPUReport() string { return "amd64" }
