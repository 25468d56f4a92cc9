package phases

import (
	"context"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// tracePressure is core's pressure walk (core.PressureTraceFiles) laid
// out per instruction in layout order, for the reports and the HTML plot:
// at each instruction, the live 32-bit slots per file (registers in
// files), the larger of the two program points around it with its
// destinations counted.
func tracePressure(f *ir.Func, l *core.Liveness, files []ir.File) Pressure {
	var p Pressure
	if !f.HasBody || f.NumBlocks() == 0 {
		return p
	}
	// Position of each instruction in layout order.
	pos := make([]int32, f.NumInstrs())
	n := int32(0)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			pos[i] = n
			n++
		}
	}
	p.PerInstr = make([][ir.NumFiles]int32, n)
	max := core.PressureTraceFiles(l, files, func(i ir.InstrID, live [ir.NumFiles]int) {
		at := &p.PerInstr[pos[i]]
		for k, v := range live {
			at[k] = int32(v)
		}
	})
	p.Max = max.Max
	return p
}

// The register budget (DESIGN.md: "pressure is a budget, not an
// afterthought"). On GPUs the registers a thread needs decide how many
// threads run at once, so a phase that shortens the code but lengthens
// live ranges (hoisting, commoning, forwarding, if-conversion) can make a
// kernel slower. The manager holds each Guarded phase to a cap per
// register class: the larger of the function's own maximum live
// registers on entry to the pipeline and the budget knobs
// (PressureBudgetR for 32-bit slots, PressureBudgetP for predicates; 0 by
// default, so by default no phase may raise the maximum). Phases that
// trade memory for registers (RaisesCap: promotion of .local slots) move
// the cap up to what they leave; IntoSSA and OutOfSSA rebase it on the
// same program in the new form.
//
// The classes are data (R and UR together) and predicates (P and UP):
// the split into uniform and per-lane files is the uniformity analysis's
// classification of the values, which an edit elsewhere can change
// without any value living longer, and which costs as much to compute as
// the rest of the check (measured: with it, the guard doubled the
// pipeline's time on the corpus). The reports keep the four files.
//
// A Guarded phase runs on the function as usual; when it leaves some
// file above the cap, the manager restores the function from a copy
// taken before and runs the phase again allowing only its first L
// transformations (Pass.Allow), with L found by binary search as the
// largest prefix that stays within the cap (each candidate is measured;
// the count of transformations is not monotone in pressure, so the
// search is a heuristic, but its result is always measured within the
// cap). A phase that does not ask Allow is undone whole.

// PressureRule is how a phase is held to the register budget.
type PressureRule uint8

const (
	// PressureFree: the phase cannot raise the maximum live registers
	// (or is required: the SSA conversions).
	PressureFree PressureRule = iota
	// Guarded: a rise above the cap is undone (a prefix of the phase's
	// transformations is kept).
	Guarded
	// RaisesCap: the phase may raise pressure (memory becomes registers)
	// and the cap follows it.
	RaisesCap
)

// Allow reports whether the pass may make one more transformation. A
// pass that can raise register pressure asks before each transformation
// it would make; the manager limits a run to a prefix of them when the
// whole run would exceed the function's register cap. Asking never
// changes what the pass does while no limit is set.
func (p *Pass) Allow() bool {
	p.asked++
	return p.limit < 0 || p.asked <= p.limit
}

// pressureCap is the cap of each register class (LiveClasses) for a
// function whose maximum live registers per class are live.
func pressureCap(k *Knobs, live [ir.NumFiles]int) [ir.NumFiles]int {
	return [ir.NumFiles]int{
		ir.FileR: max(live[ir.FileR], int(k.Int(PressureBudgetR))),
		ir.FileP: max(live[ir.FileP], int(k.Int(PressureBudgetP))),
	}
}

// within reports whether every file of m is at most its cap.
func within(m, cap [ir.NumFiles]int) bool {
	for k := range m {
		if m[k] > cap[k] {
			return false
		}
	}
	return true
}

// holdToCap is called when a Guarded phase's run (the pass function fn,
// started from snap) left the function above cap in some register file:
// it restores snap and runs the phase again on prefixes of the
// transformations the full run asked Allow for, keeping the longest prefix
// found within the cap (binary search), or nothing. It reports whether
// the function changed after all.
func (p *Pass) holdToCap(ctx context.Context, fn PassFunc, snap *ir.Func, cap [ir.NumFiles]int) (bool, error) {
	n := p.asked
	probes := 0
	// run restores the function and runs the phase with limit; ok is
	// whether the result is within the cap.
	run := func(limit int) (changed, ok bool, err error) {
		*p.F = *snap.Clone()
		p.A.Invalidate(PreserveAll)
		p.Scratch.reset()
		p.stat.Counters = p.stat.Counters[:0]
		p.limit, p.asked, p.fixedPoint = limit, 0, false
		probes++
		changed, err = p.runPhase(ctx, fn)
		if err != nil || ctx.Err() != nil || !changed {
			return changed, true, err
		}
		return true, within(p.A.LiveClasses(), cap), nil
	}
	best, last, lastChanged := 0, -1, false
	for lo, hi := 1, n-1; lo <= hi && probes < maxCapProbes; {
		mid := (lo + hi) / 2
		c, ok, err := run(mid)
		if err != nil || ctx.Err() != nil {
			return false, err
		}
		last, lastChanged = mid, c
		if ok {
			best, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	changed := false
	if best > 0 && last != best {
		var ok bool
		var err error
		if changed, ok, err = run(best); err != nil || ctx.Err() != nil {
			return false, err
		} else if !ok {
			best = 0 // cannot happen: the same prefix measured within before
		}
	} else if best > 0 {
		changed = lastChanged
	}
	if best == 0 {
		*p.F = *snap
		p.A.Invalidate(PreserveAll)
		p.stat.Counters = p.stat.Counters[:0]
		p.Count("runs undone for register pressure", 1)
		changed = false
	}
	p.limit = -1
	p.fixedPoint = false // what was held back might fit after other phases
	p.Count("transformations held back for register pressure", int64(n-best))
	p.Count("register pressure probes", int64(probes))
	return changed, nil
}

// maxFiles is the larger of a and b in each file.
func maxFiles(a, b [ir.NumFiles]int) [ir.NumFiles]int {
	for k := range a {
		a[k] = max(a[k], b[k])
	}
	return a
}

// liveClassesOf measures f (a copy the manager keeps) on its own.
func liveClassesOf(f *ir.Func) [ir.NumFiles]int { return NewAnalyses(f).LiveClasses() }

// maxCapProbes bounds the reruns of one phase in the search for the
// prefix to keep: each costs a run of the phase and a liveness, and the
// functions that need the most are the largest.
const maxCapProbes = 4

// A segment is a run of phases from a Guarded one to the next phase that
// changes the register form or moves the cap. The manager runs a
// segment's phases without checks, measures once at its end, and only
// when the segment left the function above the cap replays it from a
// copy with a check after each guarded phase (holdToCap). One liveness
// per segment instead of one per phase: most functions never exceed the
// cap. The result is the same as checking every phase would give where
// no phase exceeded it; where one did, the replay checks each phase as
// if from the start.
type capSegment struct {
	start     int // the pipeline slot it starts at
	snap      *ir.Func
	version   int
	settledAt [maxPassFuncs]int
	nstats    int
	html      htmlMark
}
