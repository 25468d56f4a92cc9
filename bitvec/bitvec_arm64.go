//go:build !purego

package bitvec

// archKernels lists the arm64 kernel sets this processor supports.
// (Filled in with the NEON kernels.)
func archKernels() []*Kernels { return nil }

// CPUReport describes the processor features that matter to the kernels.
func CPUReport() string { return "arm64" }
