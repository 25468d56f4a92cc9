// Package simtest holds the test helpers built on the simulator, kept out
// of package sim so that programs using the simulator (ptxopt check) do
// not link the testing package.
package simtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim"
)

// ExtraSeeds is how many seeds past the asked ones CheckEquivalent tries
// while none of the changed instructions has executed.
const ExtraSeeds = 16

// CheckEquivalent is the helper for phase tests: it fails t when before
// and after behave differently on any of seeds random inputs, and when
// after differs from before but none of the changed instructions (nor of
// the removed ones) executed in a run that was compared, even after
// ExtraSeeds more inputs: a change that never ran is not checked.
func CheckEquivalent(t testing.TB, before, after *ir.Func, seeds int) sim.DiffResult {
	t.Helper()
	res, err := sim.Diff(before, after, sim.DiffOptions{Seeds: seeds, ExtraSeeds: ExtraSeeds})
	if err != nil {
		t.Fatalf("differential check of %s: %v", before.Name, err)
	}
	if msg := Verdict(res); msg != "" {
		t.Fatalf("differential check of %s: %s", before.Name, msg)
	}
	return res
}

// Verdict says what is wrong with a differential check's result for a
// test ("" when the versions agree and every change that exists ran at
// least in part): a mismatch, or a change that no compared run executed.
func Verdict(res sim.DiffResult) string {
	switch res.Status {
	case sim.StatusUnchanged, sim.StatusMatched:
		return ""
	case sim.StatusMismatch:
		return res.Mismatch.Error()
	}
	run, total := res.Executed()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d changed instructions executed in %d compared runs (%d runs: %d trapped in both, %d only in the original, %d at the step limit)",
		res.Status, run, total, res.Matches, res.Runs, res.NotExercised, res.OrigUndefined, res.StepLimited)
	n := 0
	for _, c := range res.Changes {
		if c.Executed || n == 8 {
			continue
		}
		n++
		side := "changed"
		if c.Removed {
			side = "removed"
		}
		fmt.Fprintf(&b, "\n\t%s %s:%d: %s", side, c.Func, c.Line, c.Text)
	}
	if res.Undefined != nil {
		fmt.Fprintf(&b, "\n\toriginal trapped: %v", res.Undefined)
	}
	return b.String()
}
