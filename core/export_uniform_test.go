package core

import "github.com/ptxopt/ptxopt/ir"

// ReferenceUniformity exports referenceUniformity to core_test.
func ReferenceUniformity(f *ir.Func, du *DefUse, divergence func() DivergenceInputs) *Uniformity {
	return referenceUniformity(nil, f, du, divergence)
}

// SetUniformitySweeps sets how many layout-order sweeps the uniformity
// analysis makes at most and returns the old bound.
func SetUniformitySweeps(n int) int {
	old := maxSweeps
	maxSweeps = n
	return old
}
