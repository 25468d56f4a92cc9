package phases

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt/ir"
)

// MaxOpt is the highest -O level.
const MaxOpt = 3

// Config is everything that decides what the pipeline does to a function.
// A Config is read-only while functions run and may be shared by workers.
type Config struct {
	Opt    int // 0..3; 0 runs no phase (parse and print only)
	Target Target
	Knobs  *Knobs
	Verify bool // run the verifier on the input and after every phase, and check the analysis cache
	// PhaseCPU: measure each phase's CPU time (PhaseStat.CPUNS): the
	// running thread's, which a shared machine's load moves much less
	// than the wall time. Linux only (elsewhere CPUNS stays 0); it costs
	// two system calls per phase, so it is off by default.
	PhaseCPU bool
	// FilesAfter: the caller measures the result's register files after
	// the run (a report at MeasureAll). The register cap's end check then
	// asks for them first, and their walk answers the classes too, where
	// it would otherwise walk the classes alone before (runRetry).
	FilesAfter bool
	enabled    []bool
	// subOnly, subOff: per GeneralOptimize slot, the sub-passes a named
	// sub-pass restricts it to (0: no restriction) and those disabled by
	// name (generalopt.go, namedSubPasses)
	subOnly, subOff []subMask
	fns             []PassFunc // the pass function of each slot: the table's, or an override
	keys            []int      // per slot, the first slot running the same pass function or GeneralOptimize bundle (the settled skip's key)
	// subsumers: per GeneralOptimize slot, the keys of earlier bundles
	// whose run without change settles it too (subsumes)
	subsumers [][]int
	// roundSubsumers: per GeneralOptimize slot, the keys of earlier
	// bundles (not among subsumers) whose run without change leaves its
	// rounds nothing to do (subsumes, rounds only) where the function
	// holds no guarded mov: it then runs only what follows them (the
	// combining walk, in the bundle that has one; Pass.roundsSettled)
	roundSubsumers [][]int
	// named: the run is restricted to named phases (NamedPhases), which
	// then run as asked, without PressureRetry's second run.
	named bool
	// around, when set (by benchmarks), runs each phase's pass in its
	// place: a wrapper that measures a phase without overriding its slot,
	// which would change the slot's settled key (setKeys).
	around func(p *Pass, fn PassFunc) bool
	// hooks: the check switches and counters of the tests that run with
	// this configuration (hooks.go); nil outside tests.
	hooks *testHooks

	// Verifier checks a function in Verify mode; nil means the IR
	// verifier (ir.VerifyWith, with the form checks).
	Verifier func(f *ir.Func) error

	Dump  DumpSpec  // which phases to dump around
	DumpW io.Writer // where dumps go (nil: none)

	HTML *HTML // the --html view, for the function it names (nil: none)
}

// NewConfig builds a Config: opt level, target, knob settings, phases
// disabled by name and, when named is non-empty, the only phases to run
// (plus the required ones). Names may be families.
func NewConfig(opt int, t Target, settings []KnobSetting, disabled, named []string) (*Config, error) {
	if opt < 0 || opt > MaxOpt {
		return nil, fmt.Errorf("bad opt level -O%d: want 0..%d", opt, MaxOpt)
	}
	c := &Config{Opt: opt, Target: t, Knobs: NewKnobs(ProfileFor(t), settings), enabled: make([]bool, len(pipeline)), named: len(named) > 0}
	c.fns = make([]PassFunc, len(pipeline))
	for i := range pipeline {
		c.fns[i] = pipeline[i].Fn
	}
	only := make([]bool, len(pipeline))
	whole := make([]bool, len(pipeline)) // named as a phase or family, not only through a sub-pass
	c.subOnly, c.subOff = make([]subMask, len(pipeline)), make([]subMask, len(pipeline))
	for _, n := range named {
		if m, ok := lookupSubPass(n); ok {
			for _, i := range bundleSlots(m) {
				only[i] = true
				c.subOnly[i] |= m
			}
			continue
		}
		idx, err := Resolve(n)
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			only[i], whole[i] = true, true
		}
	}
	for i := range pipeline {
		p := &pipeline[i]
		c.enabled[i] = opt >= p.MinOpt && (len(named) == 0 || only[i] || p.Required)
		if whole[i] {
			c.subOnly[i] = 0
		}
	}
	for _, n := range disabled {
		if m, ok := lookupSubPass(n); ok {
			for _, i := range bundleSlots(m) {
				c.subOff[i] |= m
			}
			continue
		}
		idx, err := Resolve(n)
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			if pipeline[i].Required {
				if len(idx) == 1 {
					return nil, fmt.Errorf("phase %s is required and cannot be disabled", pipeline[i].Name)
				}
				continue
			}
			c.enabled[i] = false
		}
	}
	c.setKeys() // after the sub-pass restrictions, which sameBundle compares
	return c, nil
}

// Override makes slot name (a phase, not a family) run fn instead of the
// table's pass, for this configuration only: how tests put a probe or a
// failing pass into the pipeline without touching the shared table.
func (c *Config) Override(name string, fn PassFunc) error {
	i, ok := Lookup(name)
	if !ok {
		return fmt.Errorf("unknown phase %q", name)
	}
	c.fns[i] = fn
	c.setKeys()
	return nil
}

// setKeys gives each slot the index of the first slot running the same
// pass function (by code address: closures of one function literal count
// as one pass, which overrides in tests must keep in mind).
func (c *Config) setKeys() {
	c.keys = make([]int, len(c.fns))
	for i := range c.fns {
		c.keys[i] = i
		for j := range i {
			if samePass(c.fns[j], c.fns[i]) && sameVariant(j, i) || c.sameBundle(j, i) {
				c.keys[i] = j
				break
			}
		}
	}
	c.subsumers = make([][]int, len(c.fns))
	c.roundSubsumers = make([][]int, len(c.fns))
	for i := range c.fns {
		c.subsumers[i] = c.subsumingKeys(i, false)
		for _, k := range c.subsumingKeys(i, true) {
			if !slices.Contains(c.subsumers[i], k) {
				c.roundSubsumers[i] = append(c.roundSubsumers[i], k)
			}
		}
	}
}

// subsumingKeys returns the keys of the earlier slots that subsume slot
// i (subsumes, with rounds), every earlier slot of each key doing so.
func (c *Config) subsumingKeys(i int, rounds bool) []int {
	var keys []int
	for j := range i {
		k := c.keys[j]
		if k == c.keys[i] || slices.Contains(keys, k) {
			continue
		}
		all := true // every earlier slot of that key settles slot i
		for x := range i {
			if c.keys[x] == k && !c.subsumes(x, i, rounds) {
				all = false
				break
			}
		}
		if all {
			keys = append(keys, k)
		}
	}
	return keys
}

// settleMarks records, per settled-skip key (Config.keys), the function
// version at which a slot of that key last left the function settled:
// at, after a run that changed nothing or ended at its own fixed point
// (Pass.FixedPoint); clean, after a run that changed nothing at all. A
// slot is settled by its own key's at, but by a subsuming bundle's clean
// only: a bundle's fixed point after edits rests on its last, partial
// round, which walks only what the round before's edits reach, and the
// full first round of a later bundle can find what that walk did not
// (long-run kernel 119678: GeneralOptimizeMid's partial round passed over
// a copy that GeneralOptimizeMid2, which check mode ran, then propagated).
type settleMarks struct{ at, clean [maxPassFuncs]int }

func newSettleMarks() settleMarks {
	var m settleMarks
	for k := range m.at {
		m.at[k], m.clean[k] = -1, -1
	}
	return m
}

// subsumes reports whether GeneralOptimize slot j < i, left unchanged by
// its run (a run that changed nothing: settleMarks.clean), leaves nothing
// for slot i's bundle to do, when no phase changed the function in between: both run the
// table's bundles in one register form under the same rules, and every
// sub-pass of i's bundle (after the configuration's restrictions) is one
// of j's, or is MovWindow where j has CopyProp. A round that changed
// nothing ran each of j's sub-passes on the same IR without an edit; i's
// bundle does a subset of those walks with a subset of their rewrites
// (the sub-passes only enable rules and walks: a rule, copy or deletion
// open to i's bundle is open to j's, and MovWindow's copies are the
// copies CopyProp knows, fewer), so its first round changes nothing too.
// Slot j may not be GeneralOptimizeEarly (the MergeEquivalentConditional
// Flow knobs skip it or cap its rounds); slot i may not have the late
// slots' guarded-copy completion (LateCopyPropComplPred) unless j has it,
// nor GeneralOptimizeLate2's combining walk. Check mode runs the slots so
// settled and fails any that changes the function.
//
// With rounds, only the fixed-point rounds of slot i's bundle are asked
// about, not its combining walk after them, and slot i may have the
// guarded-copy completion: the bundle then skips its rounds only where
// the function holds no guarded mov, the one instruction that completion
// reads (runSubPasses).
func (c *Config) subsumes(j, i int, rounds bool) bool {
	a, b := &pipeline[j], &pipeline[i]
	if !slices.Contains(a.Families, "GeneralOptimize") || !slices.Contains(b.Families, "GeneralOptimize") ||
		!samePass(c.fns[j], a.Fn) || !samePass(c.fns[i], b.Fn) ||
		a.Pressure != b.Pressure || a.Form != b.Form || a.Preserves != b.Preserves {
		return false
	}
	for k := j + 1; k < i; k++ {
		if pipeline[k].Required {
			return false
		}
	}
	ba, bb := bundleOf(a.Name), bundleOf(b.Name)
	fa, fb := slotBehaviour(a.Name), slotBehaviour(b.Name)
	if fa.early || fb.early || !rounds && (fb.combine || fb.late && !fa.late && c.Knobs.Bool(LateCopyPropComplPred)) {
		return false
	}
	var bufA, bufB [numSubPasses]subPass
	subsA, subsB := c.subsFor(j, ba.subs, bufA[:0]), c.subsFor(i, bb.subs, bufB[:0])
	for _, s := range subsB {
		if !slices.Contains(subsA, s) && !(s == spMovWindow && slices.Contains(subsA, spCopyProp)) {
			return false
		}
	}
	return true
}

// sameBundle reports whether GeneralOptimize slots j < i, each running the
// table's pass function, run the same bundle the same way: the same
// sub-passes (after the configuration's restrictions), none of the
// behaviours runSubPasses gives a slot by its name, the same table entries
// otherwise, and no phase that changes the register form (IntoSSA, CSSA,
// OutOfSSA) between them. A bundle's run that changed nothing is a
// function of the IR and the configuration alone (its first round walks
// everything), so the later slot is settled by the earlier one's run
// (GeneralOptimizeMid after GeneralOptimize when LoadStoreForwarding
// changed nothing in between).
func (c *Config) sameBundle(j, i int) bool {
	a, b := &pipeline[j], &pipeline[i]
	if !slices.Contains(a.Families, "GeneralOptimize") || !slices.Contains(b.Families, "GeneralOptimize") ||
		!samePass(c.fns[j], a.Fn) || !samePass(c.fns[i], b.Fn) ||
		a.Pressure != b.Pressure || a.Form != b.Form || a.Preserves != b.Preserves ||
		slotBehaviour(a.Name) != slotBehaviour(b.Name) || !sameVariant(j, i) {
		return false
	}
	if len(c.subOnly) != len(pipeline) || c.subOnly[j] != c.subOnly[i] || c.subOff[j] != c.subOff[i] {
		return false
	}
	for k := j + 1; k < i; k++ {
		if pipeline[k].Required {
			return false
		}
	}
	return true
}

// sameVariant reports whether slots i and j, which run one pass function,
// also run it the same way: the GeneralOptimize slots each run their own
// bundle of sub-passes, and a slot whose bundle differs is not settled by
// another's run.
func sameVariant(i, j int) bool {
	a, b := &pipeline[i], &pipeline[j]
	if !slices.Contains(a.Families, "GeneralOptimize") || !slices.Contains(b.Families, "GeneralOptimize") {
		return true
	}
	x, y := bundleOf(a.Name), bundleOf(b.Name)
	return x.once == y.once && slices.Equal(x.subs, y.subs)
}

// Enabled reports whether pipeline slot i runs under c.
func (c *Config) Enabled(i int) bool { return c.enabled[i] }

// Planned returns the names of the phases c runs, in order.
func (c *Config) Planned() []string {
	var out []string
	for i := range pipeline {
		if c.enabled[i] {
			out = append(out, pipeline[i].Name)
		}
	}
	return out
}

// Counter is a named statistic of one phase run.
type Counter struct {
	Name string
	N    int64
}

// PhaseStat is what one phase did to one function.
type PhaseStat struct {
	Name     string
	NS       int64
	CPUNS    int64 // the phase's thread CPU time, with Config.PhaseCPU (else 0)
	Changed  bool
	Counters []Counter
	// Settled: not run, because the same pass function (or, for a
	// GeneralOptimize slot, the same bundle run the same way:
	// Config.sameBundle) already ran on this function and changed nothing
	// or ended at its own fixed point, or an earlier bundle that does all
	// this one does (Config.subsumes) ran and changed nothing, and no
	// phase has changed the function since (the passes are deterministic
	// functions of the IR and the configuration, so it would change
	// nothing again; check mode runs the slot and fails it if it does).
	Settled bool
	// Instrs: the function's instructions after the phase (what a phase
	// removed or added is the difference with the previous phase's).
	Instrs int
}

// Pass is what a phase function gets: the function, its analysis cache,
// the configuration, scratch memory, and a place for its counters.
type Pass struct {
	F       *ir.Func
	A       *Analyses
	Phase   *Phase
	Config  *Config
	Knobs   *Knobs
	Scratch *Scratch
	stat    *PhaseStat
	// fixedPoint: the pass says running it again right away would change
	// nothing (FixedPoint).
	fixedPoint bool
	// roundsSettled: an earlier GeneralOptimize bundle whose rounds do
	// all this one's do ran without change, and nothing changed the
	// function since (Config.roundSubsumers): the bundle's fixed-point
	// rounds would change nothing (runSubPasses).
	roundsSettled bool
	// ssa is set from IntoSSA to OutOfSSA while the function is in SSA
	// form (ssa.go).
	ssa *ssaState
	// done is the run's context's Done channel (nil: never canceled).
	done <-chan struct{}
	// limit is how many transformations Allow grants in this run (-1:
	// all); asked counts the requests (pressure.go).
	limit, asked int
	capBy        capMeasure // how the register cap is measured (pressure.go)
	// regCap is the register cap the pipeline holds this function's
	// result to, when regCapSet: what a phase that trades registers for
	// fewer instructions may use (gvnpressure.go). Not set when nothing
	// holds the function (PressureRetry and PressureGuard off, or a
	// RaisesCap phase changed it in an unguarded run: the retry leaves a
	// function whose frame became registers as it is).
	regCap    capLevels
	regCapSet bool
	poll      poller // cancel.go
}

// Canceled reports whether the run's context has been canceled. The
// driver checks between phases and right after each phase; a pass with a
// long loop polls this (GeneralOptimize between its fixed-point rounds,
// the others of cancel.go through a poller) and returns early, at a point
// where the function is correct. The driver then stops with the context's
// error at once. It costs one non-blocking channel receive.
func (p *Pass) Canceled() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// SSA reports whether the function is in SSA form: between IntoSSA and
// OutOfSSA, every register but those IntoSSA left alone (guarded
// definitions, .reg parameters) has one definition, which dominates its
// uses, and PHIs stand at block heads.
func (p *Pass) SSA() bool { return p.ssa != nil }

// FixedPoint tells the driver that the pass left the function at its own
// fixed point: run again on what it produced, it would change nothing.
// The driver then treats later slots of the same pass as settled until
// another phase changes the function, as it does after a run that changed
// nothing. Check mode (--verify) runs those slots anyway and fails any
// that changes the function.
func (p *Pass) FixedPoint() { p.fixedPoint = true }

// Count adds n to the phase's counter name.
func (p *Pass) Count(name string, n int64) {
	cs := p.stat.Counters
	for i := range cs {
		if cs[i].Name == name {
			cs[i].N += n
			return
		}
	}
	p.stat.Counters = append(cs, Counter{name, n})
}

// PhaseError is a failure inside the pipeline: a phase panicked, the
// verifier rejected the phase's output, or the run was cancelled.
type PhaseError struct {
	Phase string // "input" when the verifier rejects the input
	Func  string
	Err   error
	Stack []byte // for panics
}

func (e *PhaseError) Error() string {
	return fmt.Sprintf("phase %s, function %s: %v", e.Phase, e.Func, e.Err)
}

func (e *PhaseError) Unwrap() error { return e.Err }

// Run runs the pipeline of c on f, borrowing memory from sc (which may be
// nil). When ctx is canceled it stops with ctx's error between phases, or
// within a phase that polls Pass.Canceled; f is then not to be used.
// Statistics for each phase that ran are appended to stats.
func Run(ctx context.Context, c *Config, sc *Scratch, f *ir.Func, stats []PhaseStat) ([]PhaseStat, error) {
	return RunWith(ctx, c, sc, NewAnalyses(f), stats)
}

// RunWith is Run on the function of the analysis cache a, which the
// phases use and leave in a valid state (a report measuring the result
// reuses what it holds).
func RunWith(ctx context.Context, c *Config, sc *Scratch, a *Analyses, stats []PhaseStat) ([]PhaseStat, error) {
	f := a.Func()
	if !f.HasBody || c.Opt == 0 {
		return stats, nil
	}
	if sc == nil {
		sc = NewScratch()
	}
	if c.Verify {
		if err := c.verify(f); err != nil {
			return stats, &PhaseError{Phase: "input", Func: f.Name, Err: err}
		}
	}
	html := c.HTML
	if html != nil && html.Func != f.Name {
		html = nil
	}
	if html != nil {
		html.Snapshot("input", f)
	}
	if stats == nil {
		stats = make([]PhaseStat, 0, len(pipeline))
	}
	// The register cap of the guarded phases (pressure.go): from the
	// input's maximum live registers, which the report's input measure
	// has usually computed into this cache already.
	if !c.anyEnabled(Guarded) {
		return runPipeline(ctx, c, sc, a, stats, html, capLevels{}, false, byClasses, nil)
	}
	if c.Knobs.Bool(PressureGuard) {
		return runPipeline(ctx, c, sc, a, stats, html, pressureCap(c.Knobs, byClasses.of(a)), true, byClasses, nil)
	}
	if !c.Knobs.Bool(PressureRetry) || c.named {
		return runPipeline(ctx, c, sc, a, stats, html, capLevels{}, false, byClasses, nil)
	}
	return runRetry(ctx, c, sc, a, stats, html)
}

// runPipeline runs the enabled phases of the pipeline on a's function,
// the guarded ones held to capLive when capSet (pressure.go), measured by
// capBy. When raised is not nil, it is raised to what each RaisesCap
// phase that changed the function leaves (measured by capBy).
func runPipeline(ctx context.Context, c *Config, sc *Scratch, a *Analyses, stats []PhaseStat, html *HTML, capLive capLevels, capSet bool, capBy capMeasure, raised *capLevels) ([]PhaseStat, error) {
	return runPipelineWith(ctx, c, sc, a, stats, html, capLive, capSet, capBy, raised, false, nil, nil)
}

// runPipelineWith is runPipeline; everyPhase (with capSet) checks the cap
// after every guarded phase from the start, instead of once per segment
// (the retry knows the function ends above its cap unchecked). save, when
// not nil, records the state before the first guarded phase; from, when
// not nil, starts there (the function already restored to its copy).
func runPipelineWith(ctx context.Context, c *Config, sc *Scratch, a *Analyses, stats []PhaseStat, html *HTML, capLive capLevels, capSet bool, capBy capMeasure, raised *capLevels, everyPhase bool, save, from *resumePoint) ([]PhaseStat, error) {
	f := a.Func()
	// The Pass lives in the worker's scratch (a pass function's argument
	// escapes: one allocation per run otherwise); it is cleared on return,
	// so it holds nothing of this function afterwards.
	var p *Pass
	if !sc.passBusy {
		p, sc.passBusy = &sc.pass, true
		defer func() { sc.pass, sc.passBusy = Pass{}, false }()
	} else {
		p = new(Pass)
	}
	*p = Pass{F: f, A: a, Config: c, Knobs: c.Knobs, Scratch: sc, done: ctx.Done(), limit: -1, capBy: capBy,
		regCap: capLive, regCapSet: capLive != capLevels{}}
	// version counts the changes made to f; settledAt says at which
	// version each settled-skip key last left the function settled.
	version := 0
	settledAt := newSettleMarks()
	start := 0
	if from != nil {
		start, version, settledAt, p.ssa = from.slot, from.version, from.settledAt, from.ssa
	}
	// seg is the open segment of guarded phases (pressure.go), strict
	// whether its phases are being replayed one check at a time.
	var seg *capSegment
	strict := capSet && everyPhase
	replayNS := int64(0)
	// Phase times are differences of time.Since(clock): each reads only
	// the monotonic clock, once.
	clock := time.Now()
	// instrs is placedInstrs(f) when known (-1: count again): a phase that
	// changed nothing leaves the count as it was, so only the phases that
	// changed the function pay for the walk.
	instrs := -1
	placed := func() int {
		if instrs < 0 {
			instrs = placedInstrs(f)
		}
		return instrs
	}
	for i := start; i <= len(pipeline); i++ {
		if i < len(pipeline) && !c.enabled[i] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		// A segment closes before a phase that changes the register form
		// or moves the cap, and at the end.
		if seg != nil && (i == len(pipeline) || pipeline[i].Required || pipeline[i].Pressure == RaisesCap) {
			if !strict && !capBy.within(a, capLive) && !capBy.within(a, maxFiles(capLive, capBy.ofFunc(seg.snap))) {
				// The segment's phases together raised the function
				// above its register cap: start it again from its copy,
				// checking after each guarded phase.
				*f = *seg.snap
				a.Invalidate(PreserveAll)
				instrs = -1
				version, settledAt = seg.version, seg.settledAt
				for _, s := range stats[seg.nstats:] {
					replayNS += s.NS
				}
				stats = stats[:seg.nstats]
				if html != nil {
					html.rewind(seg.html)
				}
				i, strict, seg = seg.start-1, true, nil
				continue
			}
			seg, strict = nil, false
		}
		if i == len(pipeline) {
			break
		}
		ph := &pipeline[i]
		if save != nil && !save.set && ph.Pressure == Guarded {
			*save = resumePoint{set: true, slot: i, snap: f.CloneInto(sc.takeSnap()), ssa: p.ssa.clone(), version: version, settledAt: settledAt, nstats: len(stats)}
			if html != nil {
				save.html = html.mark()
			}
		}
		if capSet && !everyPhase && seg == nil && ph.Pressure == Guarded {
			seg = &capSegment{start: i, snap: f.Clone(), version: version, settledAt: settledAt, nstats: len(stats)}
			if html != nil {
				seg.html = html.mark()
			}
		}
		switch {
		case ph.Form == NeedsSSA && p.ssa == nil:
			// IntoSSA could not build SSA for this function (a block
			// with more predecessors than a PHI holds): nothing to do.
			stats = append(stats, PhaseStat{Name: ph.Name, Counters: []Counter{{"not in SSA form", 1}}, Instrs: placed()})
			continue
		case ph.Form == NeedsNonSSA && p.ssa != nil:
			return stats, &PhaseError{Phase: ph.Name, Func: f.Name, Err: fmt.Errorf("the phase needs ordinary registers but the function is in SSA form")}
		}
		key := c.keys[i]
		settled := key >= 0 && settledAt.at[key] == version
		for _, k := range c.subsumers[i] {
			settled = settled || settledAt.clean[k] == version
		}
		// A bundle's rounds are settled the same way by a bundle that
		// subsumes them (the combining walk and the guarded-copy
		// completion left aside).
		p.roundsSettled = false
		for _, k := range c.roundSubsumers[i] {
			p.roundsSettled = p.roundsSettled || !settled && settledAt.clean[k] == version
		}
		if settled && c.DumpW == nil && html == nil && !c.Verify {
			stats = append(stats, PhaseStat{Name: ph.Name, Settled: true, Instrs: placed()})
			continue
		}
		if c.DumpW != nil && c.Dump.before(i) {
			writeDump(c.DumpW, "before", ph.Name, f)
		}
		var print uint64
		if c.Verify {
			print = fingerprint(f)
		}
		stats = append(stats, PhaseStat{Name: ph.Name})
		st := &stats[len(stats)-1]
		p.Phase, p.stat, p.fixedPoint = ph, st, false
		guarded := ph.Pressure == Guarded && capSet && strict
		var snap *ir.Func
		if guarded {
			snap = f.Clone() // what the register cap may have to restore
		}
		cpu0 := int64(0)
		if c.PhaseCPU {
			// The phase's goroutine stays on this thread, so the
			// thread's clock is the phase's.
			runtime.LockOSThread()
			cpu0 = threadCPU()
		}
		start := time.Since(clock) // monotonic clock only: one clock read (time.Now reads two)
		if replayNS > 0 {
			// the discarded attempt's time goes to the replay's first phase
			start -= time.Duration(replayNS)
			p.Count("segment replayed for the register cap", 1)
			replayNS = 0
		}
		if capSet {
			p.regCap = capLive
		}
		changed, err := p.runPhase(ctx, c.fns[i])
		if guarded && changed && err == nil && ctx.Err() == nil && !capBy.within(a, capLive) {
			// Only a rise is the phase's doing: where the function was
			// above the cap already (an unguarded phase raised it), the
			// level it found is the cap.
			capLive = maxFiles(capLive, capBy.ofFunc(snap))
			if !capBy.within(a, capLive) {
				changed, err = p.holdToCap(ctx, c.fns[i], snap, capLive)
			}
		}
		st.NS = (time.Since(clock) - start).Nanoseconds()
		if c.PhaseCPU {
			st.CPUNS = threadCPU() - cpu0
			runtime.UnlockOSThread()
		}
		st.Changed = changed
		if changed {
			instrs = -1
		}
		st.Instrs = placed()
		if cerr := ctx.Err(); cerr != nil {
			// A pass that polled Canceled may have stopped part way:
			// nothing after it (PHI repair, checks) may look at f, and
			// no cached analysis of it is trusted.
			a.Invalidate(PreserveAll)
			sc.reset()
			return stats, cerr
		}
		if changed && err == nil && (capSet || raised != nil) && ph.Pressure == RaisesCap {
			lc := capBy.of(a)
			capLive = maxFiles(capLive, lc)
			if raised != nil {
				*raised = maxFiles(*raised, lc)
			}
		}
		if changed && ph.Pressure == RaisesCap && !capSet {
			p.regCapSet = false
		}
		if changed {
			version++
		}
		if key >= 0 && (!changed || p.fixedPoint) {
			settledAt.at[key] = version
		}
		if key >= 0 && !changed {
			settledAt.clean[key] = version
		}
		sc.reset()
		if err != nil {
			return stats, err
		}
		if c.Verify {
			if settled && changed {
				// Check mode runs the slots the driver would skip, to
				// check the skip: the same pass on the same function
				// must change nothing again.
				return stats, &PhaseError{Phase: ph.Name, Func: f.Name, Err: fmt.Errorf("the phase changed a function its pass had already left unchanged (a settled slot would have been skipped)")}
			}
			if !changed && fingerprint(f) != print {
				return stats, &PhaseError{Phase: ph.Name, Func: f.Name, Err: fmt.Errorf("the phase changed the function but reported no change")}
			}
			if err := c.verify(f); err != nil {
				return stats, &PhaseError{Phase: ph.Name, Func: f.Name, Err: fmt.Errorf("verifier: %w", err)}
			}
			if err := verifyForm(f, p.ssa); err != nil {
				return stats, &PhaseError{Phase: ph.Name, Func: f.Name, Err: fmt.Errorf("verifier: %w", err)}
			}
			if err := a.check(); err != nil {
				return stats, &PhaseError{Phase: ph.Name, Func: f.Name, Err: err}
			}
		}
		if c.DumpW != nil && c.Dump.after(i) {
			when := "after"
			if strict {
				when = "after (replayed for the register cap)"
			}
			writeDump(c.DumpW, when, ph.Name, f)
		}
		if html != nil {
			html.Snapshot(ph.Name, f)
		}
	}
	return stats, nil
}

// runPhase runs the pass function of the current phase with what follows
// each run: PHIs repaired after a CFG change in SSA form, the analyses the
// phase does not preserve dropped, sparse instruction slots compacted.
// A run the context canceled is left as it stopped (the caller checks).
func (p *Pass) runPhase(ctx context.Context, fn PassFunc) (bool, error) {
	// Edge arrays valid before and after, and not rebuilt: no edge
	// changed (ir marks them stale at every edit that can change one), so
	// the PHIs, which matched the edges before, still do, and the repair's
	// walk of every block (1–2 ms at a million instructions, paid by every
	// SSA phase that changes something) is left out.
	cfgKept, cfgVersion := p.F.CFGValid(), p.F.CFGVersion()
	changed, err := runOne(p, fn)
	if ctx.Err() != nil {
		return changed, err
	}
	f, a, ph := p.F, p.A, p.Phase
	cfgKept = cfgKept && f.CFGValid() && f.CFGVersion() == cfgVersion
	if changed && err == nil && p.ssa != nil && !cfgKept {
		repaired, rerr := repairPhis(f)
		if rerr != nil {
			err = &PhaseError{Phase: ph.Name, Func: f.Name, Err: fmt.Errorf("PHIs after a CFG change: %w", rerr)}
		}
		if repaired {
			p.fixedPoint = false // the repair may give the pass more to do
		}
	}
	if changed {
		a.Keep(ph.Preserves)
		compactIfSparse(a)
	}
	return changed, err
}

// anyEnabled reports whether some enabled phase has pressure rule r.
func (c *Config) anyEnabled(r PressureRule) bool {
	for i := range pipeline {
		if c.enabled[i] && pipeline[i].Pressure == r {
			return true
		}
	}
	return false
}

// compactIfSparse reclaims the slots of deleted instructions once they
// are a quarter of all slots (DESIGN.md's compaction step): the arrays
// stay proportional to the live code over the 26 phases. Instruction IDs
// change, so the analyses that hold them are dropped.
func compactIfSparse(a *Analyses) {
	f := a.Func()
	if n := f.NumDead(); n >= 64 && 4*n >= f.NumInstrs() {
		f.Compact()
		a.Invalidate(ADefUse | APressure)
	}
}

// verify runs c's verifier (the IR verifier by default) on f.
func (c *Config) verify(f *ir.Func) error {
	if c.Verifier != nil {
		return c.Verifier(f)
	}
	return verifyIR(f)
}

// runOne runs one phase, turning a panic into a PhaseError that names the
// phase and the function.
func runOne(p *Pass, fn PassFunc) (changed bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PhaseError{Phase: p.Phase.Name, Func: p.F.Name, Err: fmt.Errorf("panic: %v", r), Stack: debug.Stack()}
		}
	}()
	if p.Config.around != nil {
		return p.Config.around(p, fn), nil
	}
	return fn(p), nil
}

// DumpSpec selects the phases to dump around: "before:Phase",
// "after:Phase" (families allowed), "all" (after every phase), joined by
// commas.
type DumpSpec struct {
	bef, aft []bool // nil: nothing selected
}

// ParseDumpSpec parses a --dump-ir value.
func ParseDumpSpec(s string) (DumpSpec, error) {
	d := DumpSpec{bef: make([]bool, len(pipeline)), aft: make([]bool, len(pipeline))}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if strings.EqualFold(item, "all") {
			for i := range d.aft {
				d.aft[i] = true
			}
			continue
		}
		when, name, ok := strings.Cut(item, ":")
		if !ok || (when != "before" && when != "after") {
			return d, fmt.Errorf("bad dump selection %q: want before:Phase, after:Phase or all", item)
		}
		idx, err := Resolve(name)
		if m, ok := lookupSubPass(name); ok {
			idx, err = bundleSlots(m), nil // around the bundles that run it
		}
		if err != nil {
			return d, err
		}
		for _, i := range idx {
			if when == "before" {
				d.bef[i] = true
			} else {
				d.aft[i] = true
			}
		}
	}
	return d, nil
}

func (d *DumpSpec) before(i int) bool { return d.bef != nil && d.bef[i] }
func (d *DumpSpec) after(i int) bool  { return d.aft != nil && d.aft[i] }

// writeDump writes one dump in a single Write, so dumps of functions
// running on different workers do not interleave.
func writeDump(w io.Writer, when, phase string, f *ir.Func) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// ---- %s %s: %s ----\n", when, phase, f.Name)
	DumpFunc(&b, f)
	w.Write(b.Bytes())
}

// DumpFunc writes the text dump of f (ir.Dump).
func DumpFunc(w io.Writer, f *ir.Func) {
	if err := ir.Dump(w, f); err != nil {
		plainDump(w, f)
	}
}

// placedInstrs counts the instructions in f's blocks (a walk of the
// layout: a few nanoseconds per instruction, next to microseconds for
// the phases).
func placedInstrs(f *ir.Func) int {
	n := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			n++
		}
	}
	return n
}
