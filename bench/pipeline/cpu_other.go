//go:build !unix

package pipeline

// processCPU is not measured here (-1).
func processCPU() int64 { return -1 }
