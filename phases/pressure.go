package phases

import (
	"context"
	"math"
	"slices"

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

// capLevels are the figures the register cap compares: the maximum live
// registers per register class (LiveClasses: data in FileR, predicates in
// FileP), then, when measured byFiles, per file of the report (MaxLive:
// R, UR, P, UP), at NumFiles+file.
type capLevels [2 * ir.NumFiles]int

// pressureCap is the cap of a function whose levels are live: each level
// at least the budget knob of its kind (PressureBudgetR for data,
// PressureBudgetP for predicates).
func pressureCap(k *Knobs, live capLevels) capLevels {
	r, pr := budgetR(k), int(k.Int(PressureBudgetP))
	for i := range live {
		switch ir.File(i % int(ir.NumFiles)) {
		case ir.FileR:
			live[i] = max(live[i], r)
		case ir.FileP:
			live[i] = max(live[i], pr)
		default:
			// The uniform files are not capped: the report's figures
			// are R and P (ptxas -v's registers and predicates), and a
			// value the uniformity analysis moves between R and UR
			// moves between the files without living any longer.
			live[i] = math.MaxInt32
		}
	}
	return live
}

// capMeasure is how the register cap is measured.
type capMeasure uint8

const (
	// byClasses: data and predicates (LiveClasses), no uniformity
	// analysis; what PressureGuard holds every function to.
	byClasses capMeasure = iota
	// byFiles: the classes and the four files of the report (MaxLive: R,
	// UR, P, UP as the uniformity analysis splits them), what the retry
	// holds the few functions it reruns to, so that neither a class nor a
	// file the report shows rises. The uniformity analysis costs as much
	// as the rest of the check, paid only by the functions rerun.
	byFiles
)

// of measures a's function.
func (m capMeasure) of(a *Analyses) capLevels {
	var l capLevels
	if m == byFiles {
		// first: its walk answers LiveClasses too
		fl := a.MaxLive()
		copy(l[ir.NumFiles:], fl[:])
	}
	cl := a.LiveClasses()
	copy(l[:ir.NumFiles], cl[:])
	return l
}

// within reports whether a's function is within cap. byFiles asks for
// the uniformity analysis only when the classes leave the answer open:
// a class above its cap is above it whatever the split, and data (or
// predicates) within the cap of the per-lane file R (or P) leave each of
// R and UR (P and UP) within it too.
func (m capMeasure) within(a *Analyses, cap capLevels) bool {
	cl := a.LiveClasses()
	for k := range cl {
		if cl[k] > cap[k] {
			return false
		}
	}
	if m == byClasses {
		return true
	}
	if cl[ir.FileR] <= cap[ir.NumFiles+ir.FileR] && cl[ir.FileP] <= cap[ir.NumFiles+ir.FileP] {
		return true
	}
	fl := a.MaxLive()
	for k := range fl {
		if fl[k] > cap[int(ir.NumFiles)+k] {
			return false
		}
	}
	return true
}

// ofFunc measures f (a copy the manager keeps) on its own.
func (m capMeasure) ofFunc(f *ir.Func) capLevels { return m.of(NewAnalyses(f)) }

// within reports whether every file of m is at most its cap.
func within(m, cap capLevels) bool {
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
func (p *Pass) holdToCap(ctx context.Context, fn PassFunc, snap *ir.Func, cap capLevels) (bool, error) {
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
		return true, p.capBy.within(p.A, cap), nil
	}
	best, last, lastChanged := 0, -1, false
	for lo, hi := 1, n-1; lo <= hi && probes < p.capProbes(); {
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
func maxFiles(a, b capLevels) capLevels {
	for k := range a {
		a[k] = max(a[k], b[k])
	}
	return a
}

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
	settledAt settleMarks
	nstats    int
	html      htmlMark
}

// The retry (knob PressureRetry, on by default while PressureGuard is
// off). Holding every guarded phase to the cap costs a liveness per
// segment of guarded phases on every function (about 60% more compile
// time on the corpus), while only some functions end above it. So the
// pipeline runs unguarded first; the function's maximum live registers
// are measured on entry (the report's input measure has usually left the
// liveness and the uniformity in the cache) and at the end (the output
// measure reuses them). Only a function that ends above its cap — per
// class (data, predicates) and per report file (R, P), the input's
// figures or the budget knobs — is optimized again from a copy of its
// input with the guard on, checked after every guarded phase and
// measured byFiles. The guarded result is kept unless it is further above
// the cap than the first (its excess, summed over the figures, is
// larger), so the retry never makes a function worse by this measure.
// Cost, measured on the corpus at -O3 with one worker: 67 of 484
// functions (57,165 of 131,421 instructions) run again, and the whole run
// takes 66% more CPU time (user time, median of 5: 0.90 s -> 1.49 s);
// with the knob off it is back to the old time.
//
// A function whose .local frame promotion shrank (slots turned into
// registers) is left
// as the first run made it: memory became registers, and the input's
// figures are no bound for what follows (holding the phases after
// promotion to the level it left cost the -O0 quality suite 1,549 ->
// 1,677 instructions).

// resumePoint is the state of a run before its first guarded phase: the
// phases before it do the same whether the guard is on or off, so the
// retry starts there.
type resumePoint struct {
	set       bool
	slot      int // the pipeline slot
	snap      *ir.Func
	ssa       *ssaState
	version   int
	settledAt settleMarks
	nstats    int // the statistics before it
	html      htmlMark
}

// runRetry runs the pipeline on a's function, and once more from its
// first guarded phase with the register cap enforced when the first run
// ends above it.
func runRetry(ctx context.Context, c *Config, sc *Scratch, a *Analyses, stats []PhaseStat, html *HTML) ([]PhaseStat, error) {
	f := a.Func()
	capLive := pressureCap(c.Knobs, byFiles.of(a))
	local0 := localBytes(f)
	var rp resumePoint
	// Unguarded, but with the cap the end will be measured against, for
	// the phases that heed it (Pass.regCap).
	stats, err := runPipelineWith(ctx, c, sc, a, stats, html, capLive, false, byClasses, nil, false, &rp, nil)
	if err != nil || ctx.Err() != nil || !rp.set {
		if rp.set {
			sc.spareSnap = rp.snap
		}
		return stats, err
	}
	if localBytes(f) < local0 {
		sc.spareSnap = rp.snap // no retry: the copy's arrays serve the next snapshot
		return stats, nil
	}
	if c.FilesAfter {
		a.MaxLive() // the caller's measure asks next; this walk gives the classes too
	}
	if byFiles.within(a, capLive) && !splitHidExcess(stats[rp.nstats:], capLive) {
		sc.spareSnap = rp.snap
		return stats, nil
	}
	out := byFiles.of(a)
	// Start again before the first guarded phase, the first result set
	// aside (its arrays are no longer the function's: the copy's are).
	// The guarded run edits a copy of the snapshot, which stays whole for
	// a third run (below).
	first := *f
	from := rp.nstats
	firstStats := slices.Clone(stats[from:])
	total := sumNS(firstStats) // every run's time; what the kept one did not take was discarded
	*f = *rp.snap.Clone()
	a.Invalidate(PreserveAll)
	if html != nil {
		html.rewind(rp.html)
	}
	stats, err = runPipelineWith(ctx, c, sc, a, stats[:from], html, capLive, true, byFiles, nil, true, nil, &rp)
	if err != nil || ctx.Err() != nil {
		return stats, err
	}
	total += sumNS(stats[from:])
	kept := "guarded"
	if excess(byFiles.of(a), capLive) > excess(out, capLive) {
		*f = first
		a.Invalidate(PreserveAll)
		stats = append(stats[:from], firstStats...)
		kept = "unguarded"
	}
	// Both ended above the cap: the phases that heed the cap (Pass.regCap:
	// GvnCse and LateOriCommoning declining commonings, LICM's limit)
	// decide on estimates made in SSA form, and what leaving SSA makes of
	// uniform and per-lane values can still land above it where the
	// commonings they declined would have lowered it. A third run without
	// the cap is kept when it ends nearer the cap (measured on the corpus:
	// one function, the wmma GEMM, R 68 -> 63 against its input's 64).
	if e := excess(byFiles.of(a), capLive); e > 0 {
		best := *f
		bestStats := slices.Clone(stats[from:])
		*f = *rp.snap
		a.Invalidate(PreserveAll)
		if html != nil {
			html.rewind(rp.html)
		}
		stats, err = runPipelineWith(ctx, c, sc, a, stats[:from], html, capLevels{}, false, byClasses, nil, false, nil, &rp)
		if err != nil || ctx.Err() != nil {
			return stats, err
		}
		total += sumNS(stats[from:])
		if excess(byFiles.of(a), capLive) < e {
			kept = "uncapped"
		} else {
			*f = best
			a.Invalidate(PreserveAll)
			stats = append(stats[:from], bestStats...)
		}
	}
	if len(stats) > from {
		// The discarded runs' time goes to the first phase run again,
		// as a replayed segment's does.
		stats[from].NS += total - sumNS(stats[from:])
		stats[from].Counters = append(stats[from].Counters, Counter{"pipeline run again for the register cap (" + kept + " result kept)", 1})
	}
	return stats, nil
}

// sumNS is the time of stats.
func sumNS(stats []PhaseStat) int64 {
	n := int64(0)
	for _, s := range stats {
		n += s.NS
	}
	return n
}

// excess is how far m is above cap, summed over the files.
func excess(m, cap capLevels) int {
	n := 0
	for k := range m {
		n += max(0, m[k]-cap[k])
	}
	return n
}

// capProbes is how many prefixes holdToCap may try. The retry's guard
// (byFiles) tries none: a phase that raises the function above its cap
// there is undone whole. Measured on the corpus (-O3, one worker, user
// CPU): with 4 probes the retry cost 105% more time than no retry, with
// none 50%, and the prefixes kept saved 51 instructions of 123,459.
func (p *Pass) capProbes() int {
	if p.capBy == byFiles {
		return 0
	}
	return maxCapProbes
}

// localBytes is the size of f's .local frame.
func localBytes(f *ir.Func) int {
	n := 0
	for _, s := range f.Locals {
		if sym := &f.Mod.Syms[s]; sym.Space == ir.SpaceLocal {
			n += symBytes(sym)
		}
	}
	return n
}

// budgetR is the register budget of the data registers: PressureBudgetR,
// or when that is 0 the registers per thread at TargetOccupancy (0 when
// neither is set).
func budgetR(k *Knobs) int {
	if r := int(k.Int(PressureBudgetR)); r > 0 {
		return r
	}
	return occupancyRegs(int(k.Int(TargetOccupancy)), int(k.Int(MaxWarpsPerSM)))
}

// occupancyRegs is the most 32-bit registers per thread that let pct
// percent of maxWarps warps reside on an SM of 65,536 registers
// (registers are given out in units of 8 per thread; at most 255).
func occupancyRegs(pct, maxWarps int) int {
	if pct <= 0 {
		return 0
	}
	warps := max(1, (maxWarps*pct+99)/100)
	return min(255, 65536/(warps*32)/8*8)
}
