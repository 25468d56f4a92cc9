package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
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
	checkOK       = 0 // every kernel that could run matched
	checkMismatch = 1 // some kernel behaved differently (or the optimizer failed)
	checkUsage    = 2 // bad command line, unreadable or unparseable input
	checkNoRun    = 3 // no kernel could run (the reasons are printed)
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
bit for bit. A mismatch names the kernel, the seed and the first differing
address, and (without --against) a reduced reproducer is written: the input
with instructions removed while the mismatch persists (at most --reduce-time).

flags:
  --seeds N            random inputs per kernel (default 16)
  --seed S             first seed (default 0)
  --against B.ptx      compare with B instead of optimizing
  --repro PATH         where the reproducer goes (default: next to the input, IN.repro.ptx)
  --reduce-time D      time bound of the reduction (default 20s; 0 disables it)
  --max-steps N        warp-instructions per run (default 2000000)
  -q                   print mismatches and the summary only

exit codes:
  0  every kernel that could run matched
  1  a kernel behaved differently (or the optimizer failed on the input)
  2  usage error, unreadable or unparseable input
  3  no kernel could run (the reasons are printed)
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
	pipe       *ptxopt.Pipeline
	// transform makes the "after" module from an input; c.optimized
	// (the pipeline) unless a test substitutes its own.
	transform func(ctx context.Context, path string, src []byte) (*ptxopt.Module, error)
}

// runCheck is "ptxopt check ARGS".
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &checker{seeds: 16, reduceTime: 20 * time.Second}
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
	matched  bool
	mismatch *sim.Mismatch
	reason   string // why it could not run, or a failure
}

func (c *checker) logf(format string, a ...any) {
	if !c.quiet {
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
			return exitInterrupt
		}
		results = append(results, c.checkKernel(f, after.Func(f.Name)))
	}
	ran, matched, mismatched := 0, 0, 0
	reasons := map[string]int{}
	for _, r := range results {
		switch {
		case r.mismatch != nil:
			mismatched++
			ran++
			fmt.Fprintf(c.stdout, "MISMATCH %s: seed %d: %s\n", r.name, r.mismatch.Seed, describe(r.mismatch))
		case r.matched:
			matched++
			ran++
			c.logf("ok       %s\n", r.name)
		case strings.HasPrefix(r.reason, "FAIL "):
			mismatched++
			fmt.Fprintf(c.stdout, "MISMATCH %s: %s\n", r.name, strings.TrimPrefix(r.reason, "FAIL "))
		default:
			reasons[r.reason]++
			c.logf("skipped  %s: %s\n", r.name, r.reason)
		}
	}
	fmt.Fprintf(c.stdout, "%s: %d kernels: %d matched, %d mismatched, %d could not run\n",
		path, len(results), matched, mismatched, len(results)-matched-mismatched)
	if mismatched > 0 {
		if c.against == "" {
			for _, r := range results {
				if r.mismatch != nil {
					c.reduce(ctx, path, src, r)
					break
				}
			}
		} else {
			fmt.Fprintln(c.stdout, "no reproducer in --against mode")
		}
		return checkMismatch
	}
	if matched == 0 {
		keys := make([]string, 0, len(reasons))
		for k := range reasons {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(c.stdout, "no kernel could run:\n")
		for _, k := range keys {
			fmt.Fprintf(c.stdout, "  %d × %s\n", reasons[k], k)
		}
		if len(results) == 0 {
			fmt.Fprintf(c.stdout, "  the file has no .entry kernel\n")
		}
		return checkNoRun
	}
	return checkOK
}

func describe(m *sim.Mismatch) string {
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
	return sim.DiffOptions{Seeds: c.seeds, Seed: c.seed, MaxSteps: c.maxSteps}
}

// checkKernel diffs one kernel against its counterpart.
func (c *checker) checkKernel(f, g *ir.Func) (r kernelResult) {
	r.name = f.Name
	defer func() {
		if p := recover(); p != nil {
			r = kernelResult{name: f.Name, reason: fmt.Sprintf("FAIL simulator panic: %v", p)}
		}
	}()
	if g == nil {
		r.reason = "FAIL no kernel of that name on the other side"
		return r
	}
	res, err := sim.Diff(f, g, c.diffOptions())
	if err != nil {
		var u *sim.Unsupported
		if errors.As(err, &u) {
			r.reason = "unsupported " + u.Op
			if u.Detail != "" && u.Detail != u.Op {
				r.reason += " (" + u.Detail + ")"
			}
			return r
		}
		r.reason = "FAIL " + err.Error()
		return r
	}
	if res.Mismatch != nil {
		r.mismatch = res.Mismatch
		return r
	}
	if res.Matches == 0 {
		r.reason = fmt.Sprintf("no input ran to completion (%d of %d trapped)", res.NotExercised, res.Runs)
		return r
	}
	r.matched = true
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
				if !f.Dead[i] {
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
			o.Seed, o.Seeds = seed, 1
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
		if err := writeOutput(out, src); err == nil {
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
	if err := writeOutput(out, data); err != nil {
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
			if !f.Dead[i] {
				n++
			}
		}
	}
	return n
}
