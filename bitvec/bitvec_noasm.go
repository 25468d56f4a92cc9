//go:build purego || !(amd64 || arm64)

package bitvec

// archKernels: without assembly only the generic kernels exist.
func archKernels() []*Kernels { return nil }

// CPUReport describes the processor features that matter to the kernels.
func CPUReport() string { return "assembly disabled (purego build or unsupported architecture)" }
