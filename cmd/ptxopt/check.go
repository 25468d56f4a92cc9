package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/phases"
	"github.com/ptxopt/ptxopt/sim"
)

// Exit codes of "ptxopt check".
const (
	checkOK       = 0 // every kernel the optimizer changed was verified (matched)
	checkMismatch = 1 // some kernel behaved differently (or the optimizer failed)
	checkUsage    = 2 // bad command line, unreadable or unparseable input or --input file
	checkNoVerify = 3 // no mismatch, but some changed kernel could not be verified
	checkLowCover = 4 // no mismatch, but fewer changed instructions executed than --min-coverage asks
	checkIO       = 5 // standard output could not be written (the report is lost)
)

const checkUsageText = `usage:
  ptxopt check [flags] in.ptx                 run the differential check on every
                                              kernel of in.ptx: original vs optimized
  ptxopt check [flags] --against B.ptx A.ptx  compare A (before) with B (after),
                                              kernel by kernel (by name)

The optimization flags are those of ptxopt (-O0..-O3, --sm, --knob,
--knob-file, --disable-phase, --named-phases, --verify). Each kernel runs in
the simulator on --seeds random inputs (buffers behind pointer parameters,
scalars mixing small and edge values, small launches); all memory is compared
bit for bit. A mismatch names the kernel, the seed (and the flipped null
tests when a variant found it) and the first differing address, and (without --against) a reduced reproducer is written: the input
with instructions removed while the mismatch persists (at most --reduce-time).

Coverage of the change: the instructions of the two versions are aligned
(renamed labels and the "$k" suffix of a re-declared register do not count,
branch targets are compared on their own); an instruction of the optimized
version without a counterpart is changed, one of the original without a
counterpart is removed. An instruction executed when it ran on at least one
lane with its guard true, in a seed whose result was compared: both versions
completed (with --aborted-alike also: both stopped at the same thread's
explicit abort, a trap instruction or __assertfail, not a fault, with
identical memory and output). Each kernel gets a status (matched needs a
seed that completed):
  matched             compared seeds agree and changed instructions executed
  mismatch            a seed on which the versions differ
  unchanged           the optimizer left the kernel as it was
  not exercised       the kernel changed but no compared seed ran the change
  original undefined  only the original trapped (no seed compared)
  could not compare   the original ran into the step limit (no seed compared)
  unsupported         the simulator refuses an instruction (named)

flags:
  --seeds N            random inputs per kernel (default 16)
  --extra-seeds N      more inputs while a changed kernel's change has not run, or has run
                       only in part and the last 4 extra inputs executed some of the rest
                       (default 16; none when every seed ran the original into the step limit);
                       then, while part of the change has not run, variants of the inputs
                       that ran new code with one choice flipped at a time: a null-tested
                       pointer, or a scalar compared with immediates pinned to one of them or
                       a neighbour (4 runs per choice, 64 at most), then pairs of such pins on
                       the first input that ran new code (256 runs at most, ending after 48 in
                       a row that run nothing new); all within 100M warp-instructions of the
                       original; a mismatch names its flips
  --seed S             first seed (default 0)
  --against B.ptx      compare with B instead of optimizing
  --report FORMAT      text (default) or json: the whole report as JSON on
                       stdout, with every changed instruction and the totals
  --aborted-alike      count a seed on which both versions stop at the same thread's explicit
                       abort with identical memory and output as compared up to the abort
                       (default off: a trap in both versions says nothing)
  --min-coverage P     exit 4 when less than P percent of the changed and
                       removed instructions executed (default 0: no bound)
  --repro PATH         where the reproducer goes (default: next to the input, IN.repro.ptx)
  --reduce-time D      time bound of the reduction (default 20s; 0 disables it)
  --max-steps N        warp-instructions per run (default 2000000)
  -q                   print mismatches and the summary only

The text report lists, per kernel, at most 8 changed instructions that did
not execute; --report json lists them all.

exit codes:
  0  every kernel the optimizer changed matched (coverage as reported)
  1  a kernel behaved differently (or the optimizer failed on the input)
  2  usage error, unreadable or unparseable input
  3  no mismatch, but a changed kernel could not be verified (not exercised,
     original undefined, could not compare, unsupported)
  4  no mismatch, but the coverage is below --min-coverage
  5  standard output could not be written (a full disk, a closed pipe): the
     report is lost, whatever the check found
`

type checker struct {
	cli
	seeds      int
	seed       int64
	against    string
	repro      string
	reduceTime time.Duration
	maxSteps   int64
	quiet      bool
	extraSeeds int
	report     string
	// abortedAlike: --aborted-alike (sim.DiffOptions.AbortedAlike)
	abortedAlike bool
	minCover     float64
	pipe         *ptxopt.Pipeline
	// transform makes the "after" module from an input; c.optimized
	// (the pipeline) unless a test substitutes its own.
	transform func(ctx context.Context, path string, src []byte) (*ptxopt.Module, error)
}

// runCheck is "ptxopt check ARGS". Everything it writes to stdout (the
// report, the help) goes through one checked writer: a failed write is
// exit 5 (checkIO) with the error on stderr, unless a signal ended the
// run (its own status stands).
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := runCheckTo(ctx, args, out, stderr)
	if out.err != nil && code < 128 {
		fmt.Fprintf(stderr, "ptxopt check: writing standard output: %v\n", out.err)
		return checkIO
	}
	return code
}

// checkedWriter keeps the first error of its writes (a short write is
// io.ErrShortWrite) and writes nothing after it.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (cw *checkedWriter) Write(p []byte) (int, error) {
	if cw.err != nil {
		return 0, cw.err
	}
	n, err := cw.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	cw.err = err
	return n, err
}

func runCheckTo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &checker{seeds: 16, reduceTime: 20 * time.Second, extraSeeds: 16, report: "text"}
	c.stdout, c.stderr, c.opt = stdout, stderr, 2
	c.disable.split, c.named.split = true, true
	fs := flag.NewFlagSet("ptxopt check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&c.opt, "opt", 2, "")
	fs.StringVar(&c.sm, "sm", "", "")
	fs.Var(&c.knobs, "knob", "")
	fs.StringVar(&c.knobFile, "knob-file", "", "")
	fs.Var(&c.disable, "disable-phase", "")
	fs.Var(&c.named, "named-phases", "")
	fs.BoolVar(&c.verify, "verify", false, "")
	fs.IntVar(&c.seeds, "seeds", 16, "")
	fs.Int64Var(&c.seed, "seed", 0, "")
	fs.StringVar(&c.against, "against", "", "")
	fs.StringVar(&c.repro, "repro", "", "")
	fs.DurationVar(&c.reduceTime, "reduce-time", 20*time.Second, "")
	fs.Int64Var(&c.maxSteps, "max-steps", 2_000_000, "")
	fs.BoolVar(&c.quiet, "q", false, "")
	fs.IntVar(&c.extraSeeds, "extra-seeds", 16, "")
	fs.BoolVar(&c.abortedAlike, "aborted-alike", false, "")
	fs.StringVar(&c.report, "report", "text", "")
	fs.Float64Var(&c.minCover, "min-coverage", 0, "")
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "ptxopt check: "+format+"\n", a...)
		fmt.Fprintln(stderr, "run 'ptxopt check --help' for usage")
		return checkUsage
	}
	var pre []string
	for _, a := range args {
		if len(a) == 3 && strings.HasPrefix(a, "-O") || len(a) == 4 && strings.HasPrefix(a, "--O") {
			n, err := strconv.Atoi(a[len(a)-1:])
			if err != nil || n > phases.MaxOpt {
				return usage("bad opt level %s: want -O0..-O%d", a, phases.MaxOpt)
			}
			a = "-opt=" + strconv.Itoa(n)
		}
		pre = append(pre, a)
	}
	rest := pre
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				io.WriteString(stdout, checkUsageText)
				return checkOK
			}
			return usage("%v", err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		c.inputs = append(c.inputs, rest[0])
		rest = rest[1:]
	}
	if len(c.inputs) != 1 {
		return usage("want exactly one input file, have %d", len(c.inputs))
	}
	if c.seeds < 1 {
		return usage("--seeds wants at least 1, not %d", c.seeds)
	}
	if c.report != "text" && c.report != "json" {
		return usage("--report wants text or json, not %q", c.report)
	}
	if c.minCover < 0 || c.minCover > 100 {
		return usage("--min-coverage wants a percentage in [0, 100], not %v", c.minCover)
	}
	if c.extraSeeds < 0 {
		return usage("--extra-seeds wants at least 0, not %d", c.extraSeeds)
	}
	if c.opt < 0 || c.opt > phases.MaxOpt {
		return usage("bad opt level -O%d", c.opt)
	}
	if c.against == "" {
		p, err := ptxopt.NewPipeline(c.options(false))
		if err != nil {
			return usage("%v", err)
		}
		c.pipe = p
		c.transform = c.optimized
	}
	return c.run(ctx)
}

// outcome of one kernel.
type kernelResult struct {
	name     string
	status   sim.Status
	res      sim.DiffResult
	mismatch *sim.Mismatch
	reason   string // why it could not run, or a failure ("FAIL ...")
}

func (c *checker) logf(format string, a ...any) {
	if !c.quiet && c.report == "text" {
		fmt.Fprintf(c.stdout, format, a...)
	}
}

func (c *checker) run(ctx context.Context) int {
	path := c.inputs[0]
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(c.stderr, "ptxopt check: %v\n", err)
		return checkUsage
	}
	before, err := ptxopt.Parse(path, src)
	if err != nil {
		fmt.Fprintf(c.stderr, "ptxopt check: %v\n", err)
		return checkUsage
	}
	var after *ptxopt.Module
	if c.against != "" {
		bsrc, err := os.ReadFile(c.against)
		if err != nil {
			fmt.Fprintf(c.stderr, "ptxopt check: %v\n", err)
			return checkUsage
		}
		if after, err = ptxopt.Parse(c.against, bsrc); err != nil {
			fmt.Fprintf(c.stderr, "ptxopt check: %v\n", err)
			return checkUsage
		}
	} else {
		after, err = c.transform(ctx, path, src)
		if err != nil {
			fmt.Fprintf(c.stderr, "ptxopt check: optimizing %s: %v\n", path, err)
			return checkMismatch
		}
	}
	var results []kernelResult
	for _, f := range before.IR.Funcs {
		if f.Kind != ir.KindEntry || !f.HasBody {
			continue
		}
		if ctx.Err() != nil {
			return interruptCode(ctx)
		}
		results = append(results, c.checkKernel(f, after.Func(f.Name)))
	}
	rep := buildReport(path, results)
	if c.report == "json" {
		data, _ := json.MarshalIndent(rep, "", "  ")
		c.stdout.Write(append(data, '\n'))
	} else {
		c.printText(rep, results)
	}
	t := rep.Totals
	switch {
	case t.Mismatch > 0:
		if c.against == "" {
			for _, r := range results {
				if r.mismatch != nil {
					c.reduce(ctx, path, src, r)
					break
				}
			}
		} else if c.report == "text" {
			fmt.Fprintln(c.stdout, "no reproducer in --against mode")
		}
		return checkMismatch
	case c.minCover > 0 && t.Coverage < c.minCover:
		return checkLowCover
	case t.Kernels-t.Matched-t.Unchanged > 0:
		return checkNoVerify
	}
	return checkOK
}

// checkReport is the whole report (--report json).
type checkReport struct {
	File    string         `json:"file"`
	Kernels []kernelReport `json:"kernels"`
	Totals  checkTotals    `json:"totals"`
}

type kernelReport struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// seeds: run, compared (both completed), trapped in both, trapped in
	// the original only, original at the step limit
	Runs        int `json:"runs"`
	Compared    int `json:"compared"`
	TrappedBoth int `json:"trapped_both"`
	// AbortedAlike: seeds on which both versions stopped at the same
	// thread's explicit abort with identical memory and output
	// (compared up to the abort; counted in coverage, not in Compared)
	AbortedAlike  int    `json:"aborted_alike"`
	OrigUndefined int    `json:"original_undefined"`
	StepLimited   int    `json:"step_limited"`
	Mismatch      string `json:"mismatch,omitempty"`
	MismatchSeed  *int64 `json:"mismatch_seed,omitempty"`
	// MismatchVariant lists the choices (null and value) flipped in the seed's input
	// when the variant search found the mismatch.
	MismatchVariant []int32 `json:"mismatch_variant,omitempty"`
	Changed         int     `json:"changed"`
	ChangedExecuted int     `json:"changed_executed"`
	Removed         int     `json:"removed"`
	RemovedExecuted int     `json:"removed_executed"`
	// Unexecuted lists the changed and removed instructions that did not
	// execute in a compared run.
	Unexecuted []changedJSON `json:"unexecuted,omitempty"`
}

type changedJSON struct {
	Func string `json:"func"`
	Side string `json:"side"` // "changed" (optimized version) or "removed" (original)
	Line int    `json:"line,omitempty"`
	Text string `json:"text"`
}

type checkTotals struct {
	Kernels int `json:"kernels"`
	// Completed: kernels with an input on which both versions ran to
	// completion.
	Completed       int            `json:"ran_to_completion"`
	ByStatus        map[string]int `json:"by_status"`
	Matched         int            `json:"-"`
	Unchanged       int            `json:"-"`
	Mismatch        int            `json:"-"`
	Changed         int            `json:"changed"`
	ChangedExecuted int            `json:"changed_executed"`
	Removed         int            `json:"removed"`
	RemovedExecuted int            `json:"removed_executed"`
	// Coverage is the percentage of changed and removed instructions
	// that executed (100 when there are none).
	Coverage float64 `json:"coverage_percent"`
}

func buildReport(path string, results []kernelResult) checkReport {
	rep := checkReport{File: path, Kernels: []kernelReport{}}
	t := &rep.Totals
	t.ByStatus = map[string]int{}
	for _, r := range results {
		res := &r.res
		k := kernelReport{Name: r.name, Status: r.status.String(), Reason: strings.TrimPrefix(r.reason, "FAIL "),
			Runs: res.Runs, Compared: res.Matches, TrappedBoth: res.NotExercised, AbortedAlike: res.Aborted, OrigUndefined: res.OrigUndefined, StepLimited: res.StepLimited,
			Changed: res.Changed, ChangedExecuted: res.ChangedRun, Removed: res.Removed, RemovedExecuted: res.RemovedRun}
		if r.mismatch != nil {
			k.Mismatch = describe(r.mismatch)
			seed := r.mismatch.Seed
			k.MismatchSeed = &seed
			k.MismatchVariant = r.mismatch.Variant
			if r.mismatch.BeforeError == nil && r.mismatch.AfterError == nil {
				k.Compared++ // both completed on the mismatching seed
			}
		}
		for _, ch := range res.Changes {
			if ch.Executed {
				continue
			}
			side := "changed"
			if ch.Removed {
				side = "removed"
			}
			k.Unexecuted = append(k.Unexecuted, changedJSON{Func: ch.Func, Side: side, Line: ch.Line, Text: ch.Text})
		}
		rep.Kernels = append(rep.Kernels, k)
		t.Kernels++
		t.ByStatus[k.Status]++
		switch r.status {
		case sim.StatusMatched:
			t.Matched++
		case sim.StatusUnchanged:
			t.Unchanged++
		case sim.StatusMismatch:
			t.Mismatch++
		}
		if k.Compared > 0 {
			t.Completed++
		}
		t.Changed += k.Changed
		t.ChangedExecuted += k.ChangedExecuted
		t.Removed += k.Removed
		t.RemovedExecuted += k.RemovedExecuted
	}
	t.Coverage = 100
	if n := t.Changed + t.Removed; n > 0 {
		t.Coverage = 100 * float64(t.ChangedExecuted+t.RemovedExecuted) / float64(n)
	}
	return rep
}

// maxListed is how many unexecuted changed instructions the text report
// shows per kernel.
const maxListed = 8

func (c *checker) printText(rep checkReport, results []kernelResult) {
	for i, k := range rep.Kernels {
		r := results[i]
		cov := ""
		if n := k.Changed + k.Removed; n > 0 {
			cov = fmt.Sprintf(" (%d of %d changed instructions executed)", k.ChangedExecuted+k.RemovedExecuted, n)
		}
		switch r.status {
		case sim.StatusMismatch:
			if r.mismatch != nil {
				fmt.Fprintf(c.stdout, "MISMATCH %s: %s: %s\n", k.Name, r.mismatch.Input(), describe(r.mismatch))
			} else {
				fmt.Fprintf(c.stdout, "MISMATCH %s: %s\n", k.Name, k.Reason)
			}
		case sim.StatusMatched:
			c.logf("ok       %s%s\n", k.Name, cov)
		case sim.StatusUnchanged:
			c.logf("same     %s: unchanged by the optimizer\n", k.Name)
		default:
			why := k.Reason
			if why == "" {
				why = fmt.Sprintf("%d seeds: %d compared, %d aborted alike, %d trapped in both, %d trapped only in the original, %d at the step limit",
					k.Runs, k.Compared, k.AbortedAlike, k.TrappedBoth, k.OrigUndefined, k.StepLimited)
			}
			c.logf("%-8s %s: %s: %s%s\n", statusTag(r.status), k.Name, k.Status, why, cov)
			if r.status == sim.StatusOrigUndefined && r.res.Undefined != nil {
				c.logf("         original: %v\n", r.res.Undefined)
			}
		}
		if c.quiet || r.status == sim.StatusUnchanged || r.status == sim.StatusUnsupported {
			continue
		}
		for n, u := range k.Unexecuted {
			if n == maxListed {
				c.logf("         ... %d more (--report json lists them all)\n", len(k.Unexecuted)-maxListed)
				break
			}
			c.logf("         not executed: %s %s:%d: %s\n", u.Side, u.Func, u.Line, u.Text)
		}
	}
	t := rep.Totals
	var parts []string
	for _, st := range []sim.Status{sim.StatusMatched, sim.StatusMismatch, sim.StatusUnchanged, sim.StatusNotExercised,
		sim.StatusOrigUndefined, sim.StatusCouldNotCompare, sim.StatusUnsupported} {
		if n := t.ByStatus[st.String()]; n > 0 || st == sim.StatusMatched || st == sim.StatusMismatch {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	fmt.Fprintf(c.stdout, "%s: %d kernels: %s\n", rep.File, t.Kernels, strings.Join(parts, ", "))
	if n := t.Changed + t.Removed; n > 0 {
		fmt.Fprintf(c.stdout, "coverage: %d of %d changed instructions executed (%.1f%%): %d of %d changed, %d of %d removed; %d of %d kernels ran to completion\n",
			t.ChangedExecuted+t.RemovedExecuted, n, t.Coverage, t.ChangedExecuted, t.Changed, t.RemovedExecuted, t.Removed, t.Completed, t.Kernels)
	} else {
		fmt.Fprintf(c.stdout, "coverage: no instruction changed; %d of %d kernels ran to completion\n", t.Completed, t.Kernels)
	}
	if t.Kernels == 0 {
		fmt.Fprintf(c.stdout, "  the file has no .entry kernel\n")
	}
}

func statusTag(s sim.Status) string {
	switch s {
	case sim.StatusUnsupported:
		return "skipped"
	case sim.StatusCouldNotCompare:
		return "nocompare"
	case sim.StatusOrigUndefined:
		return "undef"
	}
	return "unrun"
}

func describe(m *sim.Mismatch) string {
	if m.Output != "" {
		return m.Output
	}
	if m.BeforeError != nil || m.AfterError != nil {
		return fmt.Sprintf("completion differs: before: %v; after: %v", errText(m.BeforeError), errText(m.AfterError))
	}
	return fmt.Sprintf("memory differs first at %#x: before %#02x, after %#02x", m.Addr, m.Before, m.After)
}

func errText(err error) string {
	if err == nil {
		return "completed"
	}
	return err.Error()
}

// optimized runs the pipeline on src and parses the printed result, so the
// check sees exactly what ptxopt would write.
func (c *checker) optimized(ctx context.Context, path string, src []byte) (*ptxopt.Module, error) {
	out, _, err := c.pipe.Optimize(ctx, path, src)
	if err != nil {
		return nil, err
	}
	m, err := ptxopt.Parse(path+" (optimized)", out)
	if err != nil {
		return nil, fmt.Errorf("the optimized PTX does not parse: %v", err)
	}
	return m, nil
}

func (c *checker) diffOptions() sim.DiffOptions {
	return sim.DiffOptions{Seeds: c.seeds, Seed: c.seed, MaxSteps: c.maxSteps, ExtraSeeds: c.extraSeeds, UntilCovered: true, AbortedAlike: c.abortedAlike}
}

// checkKernel diffs one kernel against its counterpart.
func (c *checker) checkKernel(f, g *ir.Func) (r kernelResult) {
	r.name = f.Name
	defer func() {
		if p := recover(); p != nil {
			r = kernelResult{name: f.Name, status: sim.StatusMismatch, reason: fmt.Sprintf("FAIL simulator panic: %v", p)}
		}
	}()
	if g == nil {
		r.status, r.reason = sim.StatusMismatch, "FAIL no kernel of that name on the other side"
		return r
	}
	res, err := sim.Diff(f, g, c.diffOptions())
	r.res, r.status = res, res.Status
	if err != nil {
		var u *sim.Unsupported
		if errors.As(err, &u) {
			r.status = sim.StatusUnsupported
			r.reason = "unsupported " + u.Op
			if u.Detail != "" && u.Detail != u.Op {
				r.reason += " (" + u.Detail + ")"
			}
			return r
		}
		r.status, r.reason = sim.StatusMismatch, "FAIL "+err.Error()
		return r
	}
	r.mismatch = res.Mismatch
	return r
}

// reduce delta-debugs the input kernel of a mismatch: it removes
// instructions (in ever smaller chunks) while the optimized code still
// differs from the reduced original in the same way (a memory difference
// stays a memory difference), and writes the smallest input found.
func (c *checker) reduce(ctx context.Context, path string, src []byte, r kernelResult) {
	out := c.repro
	if out == "" {
		out = strings.TrimSuffix(path, ".ptx") + ".repro.ptx"
	}
	if c.reduceTime <= 0 {
		fmt.Fprintln(c.stdout, "reduction disabled (--reduce-time 0)")
		return
	}
	deadline := time.Now().Add(c.reduceTime)
	memDiff := r.mismatch.BeforeError == nil && r.mismatch.AfterError == nil
	seed := r.mismatch.Seed
	total := c.countInstrs(path, src, r.name)
	if total == 0 {
		return
	}
	build := func(keep []int) []byte {
		m, err := ptxopt.Parse(path, src)
		if err != nil {
			return nil
		}
		f := m.Func(r.name)
		if f == nil {
			return nil
		}
		kept := make(map[int]bool, len(keep))
		for _, k := range keep {
			kept[k] = true
		}
		pos := 0
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; {
				next := f.Next[i]
				if !f.IsDead(i) {
					if !kept[pos] {
						f.Remove(i)
					}
					pos++
				}
				i = next
			}
		}
		return m.Format()
	}
	test := func(keep []int) bool {
		cand := build(keep)
		if cand == nil {
			return false
		}
		ok := false
		func() {
			defer func() {
				if recover() != nil {
					ok = false
				}
			}()
			bm, err := ptxopt.Parse(path, cand)
			if err != nil {
				return
			}
			am, err := c.transform(ctx, path, cand)
			if err != nil {
				return
			}
			f, g := bm.Func(r.name), am.Func(r.name)
			if f == nil || g == nil {
				return
			}
			o := c.diffOptions()
			o.Seed, o.Seeds, o.ExtraSeeds = seed, 1, 0
			o.Variant = r.mismatch.Variant
			res, err := sim.Diff(f, g, o)
			if err != nil || res.Mismatch == nil {
				return
			}
			mm := res.Mismatch
			ok = (mm.BeforeError == nil && mm.AfterError == nil) == memDiff
		}()
		return ok
	}
	keep := make([]int, total)
	for k := range keep {
		keep[k] = k
	}
	if !test(keep) {
		// the printed input does not reproduce on its own seed: write it as is
		if err := writeOutput(ctx, out, src); err == nil {
			fmt.Fprintf(c.stdout, "reproducer (not reduced): %s\n", out)
		}
		return
	}
	n := 2
	timedOut := false
	for len(keep) >= 2 {
		if time.Now().After(deadline) || ctx.Err() != nil {
			timedOut = true
			break
		}
		chunk := (len(keep) + n - 1) / n
		reduced := false
		for start := 0; start < len(keep); start += chunk {
			if time.Now().After(deadline) || ctx.Err() != nil {
				break
			}
			cand := append(append([]int(nil), keep[:start]...), keep[min(start+chunk, len(keep)):]...)
			if len(cand) > 0 && test(cand) {
				keep, n, reduced = cand, max(n-1, 2), true
				break
			}
		}
		if !reduced {
			if n >= len(keep) {
				break
			}
			n = min(2*n, len(keep))
		}
	}
	data := build(keep)
	if err := writeOutput(ctx, out, data); err != nil {
		fmt.Fprintf(c.stderr, "ptxopt check: writing the reproducer: %v\n", err)
		return
	}
	note := ""
	if timedOut {
		note = " (time bound reached)"
	}
	fmt.Fprintf(c.stdout, "reproducer: %s: kernel %s, %d of %d instructions, seed %d%s\n", out, r.name, len(keep), total, seed, note)
}

func (c *checker) countInstrs(path string, src []byte, name string) int {
	m, err := ptxopt.Parse(path, src)
	if err != nil {
		return 0
	}
	f := m.Func(name)
	if f == nil {
		return 0
	}
	n := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if !f.IsDead(i) {
				n++
			}
		}
	}
	return n
}
