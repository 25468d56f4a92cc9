package sim

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// staleSeeds is how many extra compared seeds in a row may execute no
// changed or removed instruction that had not executed before
// DiffOptions' UntilCovered stops.
const staleSeeds = 4

// DiffOptions controls the differential check.
type DiffOptions struct {
	Seeds    int   // number of random inputs (default 16)
	Seed     int64 // first seed
	BufBytes int   // size of the lazy region behind each pointer (default 64 MiB)
	MaxSteps int64 // per run (default 20M)
	// ExtraSeeds is how many more seeds to try, after Seeds, while the
	// versions differ and none of the changed instructions has executed
	// in a compared run.
	ExtraSeeds int
	// UntilCovered: the extra seeds also run while some changed or
	// removed instruction has not executed, as long as they keep
	// executing ones that had not (staleSeeds compared seeds in a row
	// that execute none new end them).
	UntilCovered bool
	// Variant flips these choices (InputMaker.MakeVariant) in every
	// seed's input: it reproduces a mismatch the variant search found
	// (Mismatch.Variant).
	Variant []int32
	// WarpShared, when set, runs both versions in the warp-shared
	// register mode (Launch.WarpShared), each with the registers it
	// returns for that version's function.
	WarpShared func(f *ir.Func) []bool
	// AbortedAlike counts a seed on which both versions stopped at the
	// same thread's explicit abort (a trap instruction, __assertfail)
	// with identical memory and output as compared up to the abort: what
	// it executed counts as run (Result.Aborted). Off (the default), such
	// a seed is a trap in both versions and says nothing, like a fault.
	AbortedAlike bool
	// the marks of before and after (from WarpShared)
	sharedB, sharedA []bool
}

// Status is the verdict of a differential check on one kernel.
type Status uint8

const (
	// StatusUnchanged: the two versions have the same instructions.
	StatusUnchanged Status = iota
	// StatusMatched: some inputs ran to completion in both versions with
	// identical memory, and changed instructions executed in them.
	StatusMatched
	// StatusNotExercised: no compared run executed any changed
	// instruction (every input trapped in both, or the changes lie on
	// paths the inputs never took).
	StatusNotExercised
	// StatusMismatch: an input on which the versions behave differently.
	StatusMismatch
	// StatusOrigUndefined: the original trapped (an out-of-bounds access
	// whose result was dead, say) where the optimized version completed,
	// and no input was compared.
	StatusOrigUndefined
	// StatusCouldNotCompare: the original ran into the step limit on
	// every input that did not trap in both.
	StatusCouldNotCompare
	// StatusUnsupported: the simulator refuses an instruction.
	StatusUnsupported
)

var statusNames = [...]string{"unchanged", "matched", "not exercised", "mismatch", "original undefined", "could not compare", "unsupported"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", s)
}

// Verified reports whether the status says the versions agree on inputs
// that ran the change (or that there was no change).
func (s Status) Verified() bool { return s == StatusUnchanged || s == StatusMatched }

// Mismatch describes the first observed difference.
type Mismatch struct {
	Kernel string
	Seed   int64
	// Variant lists the choices (null and value, InputMaker.MakeVariant)
	// flipped in seed's input when the
	// variant search found the mismatch (DiffOptions.Variant reproduces
	// it); nil for the seed's own input.
	Variant     []int32
	Addr        uint64 // first differing address (0 for status mismatches)
	Before      byte
	After       byte
	BeforeError error
	AfterError  error
	// Output describes a difference of the output streams (vprintf and
	// calls of uninterpreted functions) or of the device heaps, when
	// that is the difference.
	Output string
}

func (m *Mismatch) Error() string {
	if m.Output != "" {
		return fmt.Sprintf("sim: %s %s: %s", m.Kernel, m.Input(), m.Output)
	}
	if m.BeforeError != nil || m.AfterError != nil {
		return fmt.Sprintf("sim: %s %s: completion differs: before=%v after=%v", m.Kernel, m.Input(), m.BeforeError, m.AfterError)
	}
	return fmt.Sprintf("sim: %s %s: memory differs at %#x: before %#02x after %#02x", m.Kernel, m.Input(), m.Addr, m.Before, m.After)
}

// Input names the input of the mismatch: "seed N", with the flipped null
// choices when the variant search found it.
func (m *Mismatch) Input() string {
	if len(m.Variant) == 0 {
		return fmt.Sprintf("seed %d", m.Seed)
	}
	return fmt.Sprintf("seed %d with choices %v flipped", m.Seed, m.Variant)
}

// ChangedInstr is one instruction the versions do not share.
type ChangedInstr struct {
	Func string // the function holding it (the kernel or a callee)
	// Removed: an instruction of the original that the optimized version
	// no longer has; otherwise a changed or inserted instruction of the
	// optimized version.
	Removed  bool
	Line     int    // source line in its file (0 when unknown)
	Text     string // the instruction as printed
	Executed bool   // it executed in a compared run
}

// DiffResult counts the outcomes of a differential check.
type DiffResult struct {
	Status       Status
	Runs         int // seeds run
	Matches      int // both completed with identical memory
	NotExercised int // both trapped: inputs that say nothing
	// Aborted counts, with DiffOptions.AbortedAlike, the inputs on which
	// both versions stopped at an explicit abort (a trap instruction,
	// __assertfail) of the same thread with identical memory and output:
	// compared up to the abort, so what they executed counts as run (a
	// kernel's status still needs a completed comparison, Matches, to be
	// matched)
	Aborted       int
	OrigUndefined int // only the original trapped
	StepLimited   int // the original ran into the step limit
	Mismatch      *Mismatch
	// Undefined is the original's trap of the first input on which only
	// the original trapped.
	Undefined error
	// The change, instruction by instruction, and how much of it ran.
	Changes                 []ChangedInstr
	Changed, ChangedRun     int // instructions of the optimized version
	Removed, RemovedRun     int // instructions of the original
	changeBefore, changeAft []progChange
}

// Executed returns the changed and removed instructions that executed in
// a compared run, and how many there are.
func (r *DiffResult) Executed() (run, total int) {
	return r.ChangedRun + r.RemovedRun, r.Changed + r.Removed
}

// progChange is the changed instructions of one program of a version.
type progChange struct {
	p   *Program
	ids []ir.InstrID
}

func isTrap(err error) bool {
	var t *Trap
	return errors.As(err, &t)
}

// abortedAlike reports whether both runs stopped at an explicit abort
// (a trap instruction or __assertfail: the program's own way out, not a
// fault of undefined behaviour) in the same thread.
func abortedAlike(eb, ea error) bool {
	var tb, ta *Trap
	return errors.As(eb, &tb) && errors.As(ea, &ta) && tb.Msg == trapInstrMsg && ta.Msg == trapInstrMsg && tb.Lane == ta.Lane
}

func isStepLimit(err error) bool {
	var t *Trap
	return errors.As(err, &t) && t.StepLimit
}

// changes aligns every program of pb with the program of the same name in
// pa (a program with no counterpart counts as wholly removed or inserted).
func changes(pb, pa *Program) (before, after []progChange) {
	byName := map[string]*Program{}
	for _, q := range pa.Programs() {
		byName[q.name] = q
	}
	seen := map[*Program]bool{}
	for _, p := range pb.Programs() {
		q := byName[p.name]
		if p == pb {
			q = pa
		}
		if q == nil {
			before = append(before, progChange{p, liveInstrs(p.f)})
			continue
		}
		seen[q] = true
		fc := diffFuncs(p.f, q.f)
		if len(fc.removed) > 0 {
			before = append(before, progChange{p, fc.removed})
		}
		if len(fc.changed) > 0 {
			after = append(after, progChange{q, fc.changed})
		}
	}
	for _, q := range pa.Programs() {
		if !seen[q] && q != pa {
			after = append(after, progChange{q, liveInstrs(q.f)})
		}
	}
	return before, after
}

func liveInstrs(f *ir.Func) []ir.InstrID {
	var out []ir.InstrID
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if !f.IsDead(i) {
				out = append(out, i)
			}
		}
	}
	return out
}

// Diff runs before and after on the same inputs and compares the
// completion status and every byte of memory; it records which changed
// instructions executed in the runs it compared. An unsupported
// instruction in either function is returned as the error (with
// Status StatusUnsupported).
func Diff(before, after *ir.Func, o DiffOptions) (DiffResult, error) {
	var res DiffResult
	if o.Seeds == 0 {
		o.Seeds = 16
	}
	if o.BufBytes == 0 {
		o.BufBytes = 64 << 20
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 20_000_000
	}
	res.Status = StatusUnsupported
	pb, err := Compile(before)
	if err == nil {
		var pa *Program
		if pa, err = Compile(after); err == nil {
			return diffPrograms(before, pb, pa, o, res)
		}
	}
	// the simulator cannot run a version: the change is still counted
	// (none of it executed)
	res.changesIR(before, after)
	return res, err
}

// diffPrograms is Diff on the compiled versions.
func diffPrograms(before *ir.Func, pb, pa *Program, o DiffOptions, res DiffResult) (DiffResult, error) {
	after := pa.f
	if len(before.Params) != len(after.Params) {
		return res, fmt.Errorf("sim: %s: signatures differ", before.Name)
	}
	res.changeBefore, res.changeAft = changes(pb, pa)
	for _, c := range res.changeBefore {
		res.Removed += len(c.ids)
	}
	for _, c := range res.changeAft {
		res.Changed += len(c.ids)
	}
	changed := res.Changed+res.Removed > 0
	if o.WarpShared != nil {
		o.sharedB, o.sharedA = o.WarpShared(before), o.WarpShared(after)
	}
	covB, covA := &Coverage{}, &Coverage{}
	maker := NewInputMaker(before)
	ranChange := func() bool {
		for _, c := range res.changeAft {
			ex := covA.Executed(c.p)
			for _, id := range c.ids {
				if ex[id] {
					return true
				}
			}
		}
		for _, c := range res.changeBefore {
			ex := covB.Executed(c.p)
			for _, id := range c.ids {
				if ex[id] {
					return true
				}
			}
		}
		return false
	}
	// ranCount is how many changed and removed instructions have
	// executed so far, and how many there are.
	ranCount := func() (n, of int) {
		for _, side := range [2]struct {
			cs  []progChange
			cov *Coverage
		}{{res.changeAft, covA}, {res.changeBefore, covB}} {
			for _, c := range side.cs {
				ex := side.cov.Executed(c.p)
				for _, id := range c.ids {
					of++
					if ex[id] {
						n++
					}
				}
			}
		}
		return n, of
	}
	// run runs seed (with the choices in flip made the other way)
	// on both versions and merges what it executed; it reports whether
	// the original executed an instruction no earlier compared run had
	// (fresh), and whether the loop ends (a mismatch, or an error that is
	// not a trap).
	var steps int64 // the original's warp-instructions over every run
	run := func(seed int64, flip []int32) (fresh, stop bool, err error) {
		mb, ma, rb, ra, eb, ea, n := runSeed(pb, pa, maker, seed, flip, o)
		steps += n
		res.Runs++
		for _, e := range []error{eb, ea} {
			if e != nil && !isTrap(e) {
				res.Status = StatusMismatch
				return false, true, e
			}
		}
		switch {
		case isStepLimit(eb):
			res.StepLimited++
			return false, false, nil
		case eb != nil && ea != nil:
			if !o.AbortedAlike || !abortedAlike(eb, ea) || compareMem(mb, ma) != nil {
				res.NotExercised++
				return false, false, nil
			}
			res.Aborted++
			fresh = covB.Merge(rb) > 0
			covA.Merge(ra)
			return fresh, false, nil
		case eb != nil:
			res.OrigUndefined++
			if res.Undefined == nil {
				res.Undefined = eb
			}
			return false, false, nil
		case ea != nil:
			res.Mismatch = &Mismatch{Kernel: before.Name, Seed: seed, BeforeError: eb, AfterError: ea}
		default:
			if mm := compareMem(mb, ma); mm != nil {
				mm.Kernel, mm.Seed = before.Name, seed
				res.Mismatch = mm
			}
		}
		fresh = covB.Merge(rb) > 0
		covA.Merge(ra)
		if res.Mismatch != nil {
			res.Mismatch.Variant = slices.Clone(flip)
			return fresh, true, nil
		}
		res.Matches++
		return fresh, false, nil
	}
	// productive are the compared inputs that executed code of the
	// original no earlier input had: the starting points of the variant
	// search.
	type variant struct {
		seed int64
		flip []int32
	}
	var productive []variant
	lastRan, lastMatches, stale := -1, 0, 0
	for k := 0; k < o.Seeds+o.ExtraSeeds; k++ {
		if k >= o.Seeds && o.UntilCovered && changed && res.Matches > 0 {
			n, of := ranCount()
			switch {
			case n > lastRan:
				stale = 0
			case res.Matches+res.Aborted > lastMatches:
				// only a compared seed is stale: one that trapped in
				// both versions (an input drawn on the failing side of
				// an assertion, see guardedSeeds) says nothing of
				// whether more seeds would reach more of the change
				stale++
			}
			lastRan, lastMatches = n, res.Matches+res.Aborted
			if n == of || stale >= staleSeeds {
				break
			}
		} else if k >= o.Seeds && (!changed || res.Matches > 0 && ranChange()) {
			break
		}
		if !changed && res.Matches > 0 {
			break // nothing to verify: one completed run says the kernel runs
		}
		if k >= o.Seeds && res.StepLimited == res.Runs {
			// every input ran the original into the step limit, even on
			// a single warp: the kernel's work does not depend on what the
			// inputs vary (a fixed-size GEMM), and each extra seed would
			// cost two runs to the limit for nothing
			break
		}
		seed := o.Seed + int64(k)
		fresh, stop, err := run(seed, o.Variant)
		if err != nil {
			return res, err
		}
		if stop {
			break
		}
		if fresh && o.UntilCovered {
			productive = append(productive, variant{seed, o.Variant})
		}
	}
	// The variant search: code behind several null tests (a buffer
	// absent, another present) runs on few seeds, each choice being a
	// coin flip, and so does code behind a particular value of a scalar
	// compared with immediates (one case of a switch on an operation
	// code, in the mode another flag selects). From each input that
	// executed code of the original no earlier one had, newest first,
	// flip one choice at a time (a null choice, or a value choice that
	// pins a scalar to a compared immediate or a neighbour); a variant
	// that does so too is a starting point in turn. It ends when every
	// changed and removed instruction has executed, or after
	// variantRuns(choices) runs or variantSteps of the original's work.
	if o.UntilCovered && changed && res.Mismatch == nil && res.Matches > 0 && maker.Choices() > 0 {
		budget := variantRuns(maker.Choices())
		// and within a budget of simulated work: kernels whose runs are
		// long (photon loops near the step limit) stop early
		stepCap := steps + variantSteps
		var first variant
		if len(productive) > 0 {
			first = productive[0]
		}
		for len(productive) > 0 && budget > 0 && steps < stepCap {
			if n, of := ranCount(); n == of {
				break
			}
			// the newest first: a variant that went further than its
			// parent is the likeliest way further still
			p := productive[len(productive)-1]
			productive = productive[:len(productive)-1]
			for c := range int32(maker.Choices()) {
				if budget == 0 || steps >= stepCap {
					break
				}
				budget--
				flip := toggle(p.flip, c)
				fresh, stop, err := run(p.seed, flip)

				if err != nil {
					return res, err
				}
				if stop {
					break
				}
				if fresh {
					productive = append(productive, variant{p.seed, flip})
				}
			}
			if res.Mismatch != nil {
				break
			}
		}
		// Pairs of value choices of two scalars on the first input that
		// ran new code: a case of one scalar in the mode another
		// selects, which no single pin of the inputs the search above
		// expanded reaches (their runs went to newer inputs, or neither
		// pin alone ran new code: the mode's code ran with other cases,
		// the case's in the other mode). They stop after pairStale runs
		// in a row that execute nothing new.
		pairs, stale := pairRuns, 0
		lastN, _ := ranCount()
		nc := int32(maker.Choices())
		for i := int32(maker.NullChoices()); i < nc && res.Mismatch == nil && stale < pairStale; i++ {
			for j := i + 1; j < nc && pairs > 0 && steps < stepCap && stale < pairStale; j++ {
				if maker.valueLoc(i) == maker.valueLoc(j) {
					continue
				}
				n, of := ranCount()
				if n == of {
					break
				}
				if n > lastN {
					stale = 0
				} else {
					stale++
				}
				lastN = n
				pairs--
				if _, stop, err := run(first.seed, toggle(toggle(first.flip, i), j)); err != nil {
					return res, err
				} else if stop {
					break
				}
			}
		}
	}
	res.collect(covB, covA)
	switch {
	case res.Mismatch != nil:
		res.Status = StatusMismatch
	case !changed:
		res.Status = StatusUnchanged
	case res.Matches > 0 && res.ChangedRun+res.RemovedRun > 0:
		res.Status = StatusMatched
	case res.Matches > 0:
		res.Status = StatusNotExercised
	case res.OrigUndefined > 0:
		res.Status = StatusOrigUndefined
	case res.StepLimited > 0:
		res.Status = StatusCouldNotCompare
	default:
		res.Status = StatusNotExercised
	}
	return res, nil
}

// changesIR counts and lists the change of before into after (every
// instruction unexecuted) from the IR alone, for versions the simulator
// cannot compile: the functions are aligned by name like changes does.
func (r *DiffResult) changesIR(before, after *ir.Func) {
	fb, fa := reachableFuncs(before), reachableFuncs(after)
	byName := map[string]*ir.Func{}
	for _, g := range fa {
		byName[g.Name] = g
	}
	seen := map[*ir.Func]bool{}
	add := func(g *ir.Func, ids []ir.InstrID, removed bool) {
		for _, id := range ids {
			r.Changes = append(r.Changes, ChangedInstr{Func: g.Name, Removed: removed, Line: int(g.SrcLine(id)), Text: g.FormatInstr(id)})
			if removed {
				r.Removed++
			} else {
				r.Changed++
			}
		}
	}
	type side struct {
		g   *ir.Func
		ids []ir.InstrID
	}
	var removed []side
	for _, g := range fb {
		h := byName[g.Name]
		if g == before {
			h = after
		}
		if h == nil {
			removed = append(removed, side{g, liveInstrs(g)})
			continue
		}
		seen[h] = true
		fc := diffFuncs(g, h)
		add(h, fc.changed, false)
		if len(fc.removed) > 0 {
			removed = append(removed, side{g, fc.removed})
		}
	}
	for _, h := range fa {
		if !seen[h] && h != after {
			add(h, liveInstrs(h), false)
		}
	}
	// as collect lists them: the optimized version's, then the original's
	for _, x := range removed {
		add(x.g, x.ids, true)
	}
}

// collect lists the changed instructions with whether each executed.
func (r *DiffResult) collect(covB, covA *Coverage) {
	add := func(cs []progChange, cov *Coverage, removed bool) {
		for _, c := range cs {
			ex := cov.Executed(c.p)
			f := c.p.f
			for _, id := range c.ids {
				ci := ChangedInstr{Func: f.Name, Removed: removed, Line: int(f.SrcLine(id)), Text: f.FormatInstr(id), Executed: ex[id]}
				r.Changes = append(r.Changes, ci)
				if ci.Executed {
					if removed {
						r.RemovedRun++
					} else {
						r.ChangedRun++
					}
				}
			}
		}
	}
	add(r.changeAft, covA, false)
	add(r.changeBefore, covB, true)
}

// variantRuns is the variant search's budget of runs for a kernel with
// choices choices: every choice flipped from a few starting points.
func variantRuns(choices int) int { return min(4*choices, 64) }

// pairRuns bounds the runs of pairs of value choices, and pairStale
// the runs in a row that execute nothing new before they stop.
const (
	pairRuns  = 256
	pairStale = 48
)

// variantSteps bounds the original's warp-instructions over the runs of
// the variant search.
const variantSteps = 100_000_000

// toggle returns flip with choice c added, or removed when it is there
// (a new slice: flip is shared with the variant it came from).
func toggle(flip []int32, c int32) []int32 {
	if i := slices.Index(flip, c); i >= 0 {
		return slices.Delete(slices.Clone(flip), i, i+1)
	}
	out := append(slices.Clone(flip), c)
	slices.Sort(out)
	return out
}

// maxDynShared bounds the growth of extern shared memory.
const maxDynShared = 1 << 20

// Shrinking a run that reaches the step limit.
const (
	fullGrid = iota // the input's launch
	oneWarp         // one block of one warp (a smaller block if the input's is)
	// oneBlock: the first block of a grid of bigGrid blocks alone, with
	// bigBlockSteps times the step budget: a kernel that strides over a
	// fixed amount of work by the grid's size (a GEMM of fixed shape)
	// does one stride's share in it
	oneBlock
)

const (
	bigGrid       = 1<<16 - 1
	bigBlockSteps = 4
)

// runSeed runs the original and then the optimized version on the input
// of seed. When the original runs out of extern shared memory, the input
// gets twice as much (up to maxDynShared) and the seed runs again; when
// it runs into the step limit, the seed runs again on a single warp, and
// then, when the kernel reads the grid's size, as the first block of a
// grid of bigGrid blocks (Launch.CTAs 1) with a larger step budget.
func runSeed(pb, pa *Program, maker *InputMaker, seed int64, flip []int32, o DiffOptions) (mb, ma *Memory, rb, ra *Coverage, eb, ea error, steps int64) {
	dyn := -1
	shape := fullGrid
	for {
		in := maker.MakeVariant(seed, o.BufBytes, flip)
		in.Launch.MaxSteps = o.MaxSteps
		if dyn >= 0 {
			in.Launch.DynShared = dyn
		}
		switch shape {
		case oneWarp:
			in.Launch.Grid = Dim3{1, 1, 1}
			if maker.k.reqntid[0] == 0 {
				in.Launch.Block = Dim3{min(32, in.Launch.Block.X), 1, 1}
			}
		case oneBlock:
			in.Launch.Grid = Dim3{bigGrid, 1, 1}
			in.Launch.CTAs = 1
			in.Launch.MaxSteps = bigBlockSteps * o.MaxSteps
		}
		mb, ma = in.Mem, in.Mem.Clone()
		rb, ra = &Coverage{}, &Coverage{}
		lb := in.Launch
		lb.Cover = rb
		lb.WarpShared = o.sharedB
		var sb Stats
		sb, eb = pb.Run(&lb, mb)
		steps += sb.WarpInstrs
		var t *Trap
		if errors.As(eb, &t) {
			if maker.k.dynShared && strings.HasPrefix(t.Msg, "shared access out of bounds") && in.Launch.DynShared < maxDynShared {
				dyn = max(in.Launch.DynShared*2, dynSharedBytes)
				continue
			}
			if t.StepLimit && shape == fullGrid && in.Launch.Grid.Size()*in.Launch.Block.Size() > 32 {
				shape = oneWarp
				continue
			}
			if t.StepLimit && shape < oneBlock && maker.k.gridSize {
				shape = oneBlock
				continue
			}
		}
		// the transformed code gets a step budget relative to the original,
		// so a mutant that loops (almost) forever fails fast
		la := in.Launch
		la.Cover = ra
		la.WarpShared = o.sharedA
		if eb == nil {
			la.MaxSteps = min(in.Launch.MaxSteps, 10*sb.WarpInstrs+100_000)
		}
		_, ea = pa.Run(&la, ma)
		return
	}
}
