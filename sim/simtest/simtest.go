// Package simtest holds the test helpers built on the simulator, kept out
// of package sim so that programs using the simulator (ptxopt check) do
// not link the testing package.
package simtest

import (
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim"
)

// CheckEquivalent is the helper for phase tests: it fails t when before
// and after behave differently on any of seeds random inputs, and when
// no input exercised the kernel at all.
func CheckEquivalent(t testing.TB, before, after *ir.Func, seeds int) {
	t.Helper()
	res, err := sim.Diff(before, after, sim.DiffOptions{Seeds: seeds})
	if err != nil {
		t.Fatalf("differential check of %s: %v", before.Name, err)
	}
	if res.Mismatch != nil {
		t.Fatalf("differential check: %v", res.Mismatch)
	}
	if res.Matches == 0 {
		t.Fatalf("differential check of %s: no input ran to completion (%d trapped in both)", before.Name, res.NotExercised)
	}
}
