// Package ptxopt is the library facade of the PTX optimizer: parse PTX,
// run the phase pipeline (package phases), print PTX again, and report
// what changed.
//
// The one-call form is Optimize. Programs that compile many modules build
// a Pipeline once (options checked once) and run it on parsed Modules; a
// Pipeline is safe for concurrent use on different modules, and each run
// borrows a scratch context from a pool. Cancellation of the context is
// checked between phases and inside the long ones (phases.Pass.Canceled);
// the run's error then names the module and the context's cause
// (context.Cause: "f.ptx: interrupted by SIGTERM" in the command).
package ptxopt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/phases"
)

// Level is an optimization level. The zero value means the default, O2.
type Level int8

const (
	LevelDefault Level = iota // -O2
	O0                        // parse and print only
	O1
	O2
	O3
)

// Int returns the level as 0..3.
func (l Level) Int() int {
	if l == LevelDefault {
		return 2
	}
	return int(l) - 1
}

// LevelOf maps 0..3 to a Level.
func LevelOf(n int) (Level, error) {
	if n < 0 || n > phases.MaxOpt {
		return 0, &OptionError{fmt.Errorf("bad opt level -O%d: want -O0..-O%d", n, phases.MaxOpt)}
	}
	return Level(n + 1), nil
}

// Options configure a run. The zero value optimizes at -O2 for the
// module's own .target.
type Options struct {
	Opt           Level
	SM            string   // "sm_XX"; "" takes the module's .target
	Knobs         []string // "Name=Value" settings, applied after KnobFile
	KnobFile      string   // a file of knob settings (see phases.ParseKnobFile)
	DisablePhases []string // phase or family names not to run
	NamedPhases   []string // when non-empty: run only these (and the required phases)
	Verify        bool     // run the verifier on the input and after every phase
	// PhaseCPU measures each phase's CPU time (its thread's, user and
	// system) into the report's PhaseReport.CPUNS: Linux only (0
	// elsewhere), two system calls per phase, for benchmarks.
	PhaseCPU bool

	DumpIR string    // "before:Phase", "after:Phase", "all" (comma-separated; families allowed)
	DumpW  io.Writer // where phase dumps go; nil: nowhere (the selection is still checked)

	HTMLFunc string    // write the per-phase HTML view of this function…
	HTMLW    io.Writer // …here, when the run finishes

	// Workers, when above 1, lets the functions of one module be optimized
	// in parallel, and bounds the goroutines working for the Pipeline at
	// any moment, across all its concurrent runs: a run takes one slot for
	// itself (waiting when none is free) and more for the functions of its
	// module while free ones last. Output and reports are the same whatever
	// the number. 0 or 1: functions one by one, runs unbounded.
	Workers int

	// Measure selects what the report measures per function: MeasureAll
	// (the default: instructions, registers and maximum live per register
	// file, local bytes), MeasureCounts (instructions and local bytes, no
	// analysis) or MeasureNone (phase statistics only: the cheapest run,
	// for callers that want the PTX and not the figures).
	Measure Measure

	Path string // the name used in errors and reports ("<input>" when empty)

	// Limits bound the size of an input and of its functions (nil:
	// DefaultLimits; &NoLimits lifts them all). An input over a limit is
	// an error at the position that crosses it.
	Limits *Limits
}

// Limits bound what one input may ask (see ptx.Limits): bytes of input,
// instructions and registers per function, depth of nested blocks. A zero
// field lifts that limit.
type Limits = ptx.Limits

// DefaultLimits are the limits of Parse and of a Pipeline whose Options
// leave Limits nil; NoLimits lifts every limit. See ptx.DefaultLimits for
// how the defaults were measured.
var (
	DefaultLimits = ptx.DefaultLimits
	NoLimits      = ptx.NoLimits
)

// Measure selects the per-function figures of a report.
type Measure = phases.MeasureLevel

// The measure levels.
const (
	MeasureAll    = phases.MeasureAll
	MeasureCounts = phases.MeasureCounts
	MeasureNone   = phases.MeasureNone
)

// OptionError is an error in Options (a bad knob, phase name, target or
// level): the caller's mistake rather than the input's.
type OptionError struct{ Err error }

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// Module is a parsed PTX module.
type Module struct {
	IR   *ir.Module
	Path string
}

// Parse parses PTX source under DefaultLimits; errors read
// path:line:col: message.
func Parse(path string, src []byte) (*Module, error) {
	return ParseWith(path, src, DefaultLimits)
}

// ParseWith parses PTX source under the limits lim.
func ParseWith(path string, src []byte, lim Limits) (*Module, error) {
	m, err := parsePTX(path, src, lim)
	if err != nil {
		return nil, err
	}
	return &Module{IR: m, Path: path}, nil
}

// Parse parses PTX source under the pipeline's limits.
func (p *Pipeline) Parse(path string, src []byte) (*Module, error) {
	return ParseWith(path, src, p.limits)
}

// Limits returns the limits the pipeline parses under.
func (p *Pipeline) Limits() Limits { return p.limits }

// Format prints the module as PTX.
func (m *Module) Format() []byte { return formatPTX(m.IR) }

// Func returns the function definition named name, or nil.
func (m *Module) Func(name string) *ir.Func {
	for _, f := range m.IR.Funcs {
		if f.Name == name && f.HasBody {
			return f
		}
	}
	return nil
}

// Pipeline is a checked configuration that runs on modules.
type Pipeline struct {
	opt      int
	target   *phases.Target // nil: each module's own
	settings []phases.KnobSetting
	disabled []string
	named    []string
	verify   bool
	phaseCPU bool
	dump     phases.DumpSpec
	dumpW    io.Writer
	html     *phases.HTML
	htmlMu   sync.Mutex
	htmlDone bool
	// scratches are the workers' arenas, kept between runs (a sync.Pool
	// would let the garbage collector drop them, and with them the memory
	// every analysis of the next module reuses).
	scratchMu sync.Mutex
	scratches []*phases.Scratch
	cfgs      sync.Map // target name → *phases.Config
	measure   Measure
	limits    Limits
	// slots bounds the goroutines working for the pipeline at once
	// (Options.Workers); nil: no bound, and functions run one by one.
	slots chan struct{}
	// override, for tests: a pass to run in one slot instead of the
	// table's (phases.Config.Override), set before the first run.
	override map[string]phases.PassFunc
}

// NewPipeline checks opts and returns a Pipeline. Errors are *OptionError.
func NewPipeline(opts Options) (*Pipeline, error) {
	p := &Pipeline{opt: opts.Opt.Int(), verify: opts.Verify, phaseCPU: opts.PhaseCPU, disabled: opts.DisablePhases, named: opts.NamedPhases, measure: opts.Measure, limits: DefaultLimits}
	if opts.Limits != nil {
		l := *opts.Limits
		if l.MaxInput < 0 || l.MaxInstrs < 0 || l.MaxRegs < 0 || l.MaxNesting < 0 {
			return nil, &OptionError{fmt.Errorf("negative limit in %+v", l)}
		}
		p.limits = l
	}
	if opts.Measure > MeasureNone {
		return nil, &OptionError{fmt.Errorf("bad measure level %d", opts.Measure)}
	}
	if opts.Workers < 0 {
		return nil, &OptionError{fmt.Errorf("bad worker count %d", opts.Workers)}
	}
	if opts.Workers > 1 {
		p.slots = make(chan struct{}, opts.Workers)
	}
	if opts.Opt < LevelDefault || opts.Opt > O3 {
		return nil, &OptionError{fmt.Errorf("bad opt level %d", opts.Opt)}
	}
	if opts.SM != "" {
		t, err := phases.ParseTarget(opts.SM)
		if err != nil {
			return nil, &OptionError{err}
		}
		p.target = &t
	}
	if opts.KnobFile != "" {
		s, err := phases.ParseKnobFile(opts.KnobFile)
		if err != nil {
			return nil, &OptionError{err}
		}
		p.settings = append(p.settings, s...)
	}
	for _, k := range opts.Knobs {
		s, err := phases.ParseKnob(k)
		if err != nil {
			return nil, &OptionError{err}
		}
		p.settings = append(p.settings, s)
	}
	if opts.DumpIR != "" {
		d, err := phases.ParseDumpSpec(opts.DumpIR)
		if err != nil {
			return nil, &OptionError{err}
		}
		p.dump = d
		p.dumpW = opts.DumpW
		if p.dumpW != nil {
			p.dumpW = &lockedWriter{w: opts.DumpW}
		}
	}
	if opts.HTMLFunc != "" && opts.HTMLW != nil {
		p.html = phases.NewHTML(opts.HTMLW, opts.HTMLFunc)
	}
	// Check the phase names and the level once, for a default target.
	t, _ := phases.ParseTarget("sm_80")
	if _, err := p.config(t); err != nil {
		return nil, err
	}
	return p, nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// config returns the phase configuration for target t (cached).
func (p *Pipeline) config(t phases.Target) (*phases.Config, error) {
	if c, ok := p.cfgs.Load(t.Name); ok {
		return c.(*phases.Config), nil
	}
	t.Name = strings.Clone(t.Name) // kept: not the module's text (ParseTarget)
	c, err := phases.NewConfig(p.opt, t, p.settings, p.disabled, p.named)
	if err != nil {
		return nil, &OptionError{err}
	}
	c.Verify = p.verify
	c.PhaseCPU = p.phaseCPU
	c.FilesAfter = p.measure == phases.MeasureAll // runFunc's output measure
	for name, fn := range p.override {
		if err := c.Override(name, fn); err != nil {
			return nil, &OptionError{err}
		}
	}
	c.Dump, c.DumpW = p.dump, p.dumpW
	c.HTML = p.html
	p.cfgs.Store(t.Name, c)
	return c, nil
}

// Phases returns the names of the phases the pipeline runs for target t
// ("" for the default sm_80), in order.
func (p *Pipeline) Phases(target string) ([]string, error) {
	if target == "" {
		target = "sm_80"
	}
	t, err := phases.ParseTarget(target)
	if err != nil {
		return nil, &OptionError{err}
	}
	c, err := p.config(t)
	if err != nil {
		return nil, err
	}
	return c.Planned(), nil
}

// Run optimizes m in place and reports on it. On error the module may be
// partly optimized; the report still lists what was done.
func (p *Pipeline) Run(ctx context.Context, m *Module) (*FileReport, error) {
	start := time.Now()
	rep := &FileReport{Path: m.Path, Functions: []FuncReport{}}
	err := p.run(ctx, m, rep)
	rep.NS = time.Since(start).Nanoseconds()
	if err != nil {
		rep.Error = err.Error()
	}
	return rep, err
}

func (p *Pipeline) run(ctx context.Context, m *Module, rep *FileReport) error {
	var t phases.Target
	if p.target != nil {
		t = *p.target
	} else {
		var err error
		if t, err = phases.TargetOfModule(m.IR.Target); err != nil {
			return fmt.Errorf("%s: .target: %w", m.Path, err)
		}
	}
	cfg, err := p.config(t)
	if err != nil {
		return err
	}
	// The configuration's copy of the name: t.Name may be part of the
	// module's text (phases.ParseTarget), which the report should not keep.
	rep.Target = cfg.Target.Name
	if cfg.HTML != nil {
		cfg = p.claimHTML(cfg, m)
	}
	// Inlining is module-wide: it runs before the functions go to the
	// workers, and the report's "in" figures are measured before it. When
	// it cannot change the module (no call, no .func), each function is
	// measured by runFunc instead, into the analysis cache its phases then
	// use (the figures are the same; the analyses are not computed twice).
	var pre []phases.Resources
	if phases.InlineEnabled(cfg) && phases.InlineMayChange(m.IR) {
		pre = make([]phases.Resources, len(m.IR.Funcs))
		sc := p.getScratch()
		for k, f := range m.IR.Funcs {
			if f.HasBody {
				a := phases.NewAnalysesIn(f, sc)
				if pre[k], err = p.measure1(a, m.Path); err != nil {
					p.putScratch(sc)
					return err
				}
				a.Release()
			}
		}
		p.putScratch(sc)
	}
	if phases.InlineEnabled(cfg) {
		if err := inlineModule(cfg, m); err != nil {
			return err
		}
	}
	if p.slots != nil {
		p.slots <- struct{}{} // this goroutine's slot
		defer func() { <-p.slots }()
	}
	nfuncs := 0
	for _, f := range m.IR.Funcs {
		if f.HasBody {
			nfuncs++
		}
	}
	if p.slots == nil || nfuncs <= 1 || cfg.DumpW != nil {
		// One worker (the caller's goroutine): the functions in order,
		// without the pool's shared state (an embedder optimizing one
		// small kernel at a time pays for none of it).
		sc := p.getScratch()
		defer p.putScratch(sc)
		rep.Functions = slices.Grow(rep.Functions, nfuncs)
		for _, f := range m.IR.Funcs {
			if !f.HasBody {
				continue
			}
			var in *phases.Resources
			if pre != nil {
				in = &pre[f.ID]
			}
			fr, err := p.runFunc(ctx, cfg, sc, m.Path, f, in)
			rep.Functions = append(rep.Functions, fr)
			if err != nil {
				return p.funcError(ctx, m, err)
			}
		}
		return nil
	}
	funcs := make([]*ir.Func, 0, nfuncs)
	for _, f := range m.IR.Funcs {
		if f.HasBody {
			funcs = append(funcs, f)
		}
	}
	reports := make([]FuncReport, len(funcs))
	errs := make([]error, len(funcs))
	var next atomic.Int64
	var failed atomic.Bool
	work := func() {
		sc := p.getScratch()
		defer p.putScratch(sc)
		for {
			k := int(next.Add(1) - 1)
			if k >= len(funcs) || failed.Load() {
				return
			}
			var in *phases.Resources
			if pre != nil {
				in = &pre[funcs[k].ID]
			}
			reports[k], errs[k] = p.runFunc(ctx, cfg, sc, m.Path, funcs[k], in)
			if errs[k] != nil {
				failed.Store(true)
			}
		}
	}
	// Functions are independent: further workers take them while free
	// slots last (Options.Workers), and the caller's goroutine works too.
	// Each function's report lands in its own place, so the result is the
	// same whatever the number of workers. Dumps stay sequential, so
	// their order stays the module's.
	var wg sync.WaitGroup
	if p.slots != nil && cfg.DumpW == nil {
	spawn:
		for range len(funcs) - 1 {
			select {
			case p.slots <- struct{}{}:
				wg.Go(func() {
					defer func() { <-p.slots }()
					work()
				})
			default:
				break spawn
			}
		}
	}
	work()
	wg.Wait()
	// As a sequential run: the functions up to the first that failed.
	for k := range funcs {
		if errs[k] == nil && reports[k].Name == "" {
			break // not started: an earlier function failed
		}
		rep.Functions = append(rep.Functions, reports[k])
		if err := errs[k]; err != nil {
			return p.funcError(ctx, m, err)
		}
	}
	return nil
}

// funcError is the error of module m for a function's error err.
func (p *Pipeline) funcError(ctx context.Context, m *Module, err error) error {
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return fmt.Errorf("%s: %w", m.Path, context.Cause(ctx))
	}
	var pe *phases.PhaseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", m.Path, err)
	}
	return err
}

// getScratch takes a free worker arena, or makes one.
func (p *Pipeline) getScratch() *phases.Scratch {
	p.scratchMu.Lock()
	defer p.scratchMu.Unlock()
	if n := len(p.scratches); n > 0 {
		sc := p.scratches[n-1]
		p.scratches = p.scratches[:n-1]
		return sc
	}
	return phases.NewScratch()
}

// putScratch gives an arena back. At most as many as the machine has
// threads are kept: more would only hold memory no worker will ask for.
// An arena grown past keepScratchBytes by a huge function is dropped: kept,
// it would hold its memory (with its spare analyses, about 250 bytes per
// instruction of that function) through the printing of the module and
// every later run, for an allocation that costs little next to optimizing
// a function that size.
func (p *Pipeline) putScratch(sc *phases.Scratch) {
	if sc.ChunkBytes() > keepScratchBytes {
		return
	}
	p.scratchMu.Lock()
	defer p.scratchMu.Unlock()
	if len(p.scratches) < max(runtime.GOMAXPROCS(0), 1) {
		p.scratches = append(p.scratches, sc)
	}
}

// keepScratchBytes is the largest arena chunk a Pipeline keeps between
// runs: what a function of some 200,000 instructions needs.
const keepScratchBytes = 32 << 20

// measure1 is phases.MeasureWith with a panic turned into an error naming
// the module and the function: the figures are computed outside the
// phases, whose panics the phase manager recovers.
func (p *Pipeline) measure1(a *phases.Analyses, path string) (r phases.Resources, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("%s: function %s: internal error while measuring: %v", path, a.Func().Name, rec)
		}
	}()
	fault("measure", path)
	return phases.MeasureWith(a, p.measure), nil
}

// inlineModule runs the module-wide inlining, which runs outside the
// phase manager, with a panic turned into an error naming the module.
func inlineModule(cfg *phases.Config, m *Module) (err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("%s: internal error in OriInline: %v", m.Path, rec)
		}
	}()
	fault("inline", m.Path)
	phases.InlineModule(cfg, m.IR)
	return nil
}

// runFunc optimizes one function of the module at path and reports on it.
// pre, when not nil, is the function's measure taken before inlining.
func (p *Pipeline) runFunc(ctx context.Context, cfg *phases.Config, sc *phases.Scratch, path string, f *ir.Func, pre *phases.Resources) (FuncReport, error) {
	if err := ctx.Err(); err != nil {
		return FuncReport{Name: f.Name, Entry: f.Kind == ir.KindEntry, Phases: []PhaseReport{}}, err
	}
	// The input measure computes analyses the first phases ask for
	// (def-use, liveness); the output measure reuses what the last phases
	// left valid. With inlining the input was measured before it (pre).
	a := phases.NewAnalysesIn(f, sc)
	var in phases.Resources
	if pre != nil {
		in = *pre
	} else {
		var err error
		if in, err = p.measure1(a, path); err != nil {
			return FuncReport{Name: f.Name, Entry: f.Kind == ir.KindEntry, Phases: []PhaseReport{}}, err
		}
	}
	// The statistics go into the worker's buffer: the report copies them.
	stats, err := phases.RunWith(ctx, cfg, sc, a, sc.StatsBuffer())
	fr := FuncReport{
		Name: f.Name, Entry: f.Kind == ir.KindEntry,
		InstrsIn: in.Instrs, RegsIn: regFiles(in.Regs), MaxLiveIn: regFiles(in.MaxLive), LocalBytesIn: in.LocalBytes,
		Phases: phaseReports(stats),
	}
	sc.KeepStats(stats)
	if err != nil {
		fr.InstrsOut, fr.RegsOut, fr.MaxLiveOut, fr.LocalBytesOut = fr.InstrsIn, fr.RegsIn, fr.MaxLiveIn, fr.LocalBytesIn
		return fr, err
	}
	out, err := p.measure1(a, path)
	if err != nil {
		return fr, err
	}
	a.Release()
	fr.InstrsOut, fr.RegsOut, fr.MaxLiveOut, fr.LocalBytesOut = out.Instrs, regFiles(out.Regs), regFiles(out.MaxLive), out.LocalBytes
	return fr, nil
}

// claimHTML gives the HTML view to the first module holding the function
// it names; other modules run without it.
func (p *Pipeline) claimHTML(cfg *phases.Config, m *Module) *phases.Config {
	p.htmlMu.Lock()
	defer p.htmlMu.Unlock()
	if !p.htmlDone && m.Func(p.html.Func) != nil {
		p.htmlDone = true
		return cfg
	}
	c := *cfg
	c.HTML = nil
	return &c
}

// FinishHTML writes the HTML view, if one was asked for. It reports an
// error when no module held the function.
func (p *Pipeline) FinishHTML() error {
	if p.html == nil {
		return nil
	}
	if !p.html.Seen() {
		return fmt.Errorf("--html: no function named %q was optimized", p.html.Func)
	}
	return p.html.Close()
}

// Optimize parses src, runs the pipeline and prints the result.
func (p *Pipeline) Optimize(ctx context.Context, path string, src []byte) ([]byte, *FileReport, error) {
	start := time.Now()
	m, err := p.Parse(path, src)
	if err != nil {
		return nil, &FileReport{Path: path, Error: err.Error(), Functions: []FuncReport{}, NS: time.Since(start).Nanoseconds()}, err
	}
	rep, err := p.Run(ctx, m)
	if err != nil {
		rep.NS = time.Since(start).Nanoseconds()
		return nil, rep, err
	}
	out, err := formatChecked(path, m.IR)
	rep.NS = time.Since(start).Nanoseconds()
	if err != nil {
		rep.Error = err.Error()
		return nil, rep, err
	}
	return out, rep, nil
}

// Optimize is the one-call form: check opts, parse src, optimize, print.
// The report holds one file. The HTML view, if asked for, is written
// before Optimize returns.
func Optimize(ctx context.Context, src []byte, opts Options) ([]byte, *Report, error) {
	start := time.Now()
	p, err := sharedPipeline(opts)
	if err != nil {
		return nil, nil, err
	}
	path := opts.Path
	if path == "" {
		path = "<input>"
	}
	out, fr, err := p.Optimize(ctx, path, src)
	rep := &Report{Files: []FileReport{*fr}}
	if err == nil {
		err = p.FinishHTML()
	}
	rep.TotalNS = time.Since(start).Nanoseconds()
	return out, rep, err
}

// Pipelines the one-call Optimize keeps, by options, so that a program
// calling it again and again (a JIT) does not check the options, build
// the configuration and grow fresh scratch memory every time. Options
// with writers (dumps, the HTML view) or a knob file (whose content may
// change) always get a new Pipeline; at most maxShare are kept.
//
// The table is copied on write (at most maxShare writes in a process) and
// read with one atomic load and a map lookup on a comparable key: a call
// with the usual options (no lists) builds its key without allocating.
var (
	sharedMu  sync.Mutex // serializes writers
	sharedTab atomic.Pointer[map[sharedKey]*Pipeline]
	maxShare  = 64
)

// sharedKey is everything in Options that NewPipeline reads, apart from
// the writers and the knob file (which never share).
type sharedKey struct {
	opt                    Level
	sm                     string
	knobs, disabled, named string // joinKey of the lists
	verify, phaseCPU       bool
	dumpIR                 string
	measure                Measure
	workers                int
	lim                    Limits
}

// joinKey encodes a list of names one-to-one (each with its length in
// front): "" for an empty list, so a call without lists allocates nothing.
func joinKey(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	var b []byte
	for _, s := range ss {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	return string(b)
}

func sharedPipeline(opts Options) (*Pipeline, error) {
	if opts.DumpW != nil || opts.HTMLW != nil || opts.KnobFile != "" {
		return NewPipeline(opts)
	}
	key := sharedKey{opt: opts.Opt, sm: opts.SM, knobs: joinKey(opts.Knobs), disabled: joinKey(opts.DisablePhases),
		named: joinKey(opts.NamedPhases), verify: opts.Verify, phaseCPU: opts.PhaseCPU, dumpIR: opts.DumpIR,
		measure: opts.Measure, workers: opts.Workers, lim: DefaultLimits}
	if opts.Limits != nil {
		key.lim = *opts.Limits
	}
	if tab := sharedTab.Load(); tab != nil {
		if p, ok := (*tab)[key]; ok {
			return p, nil
		}
	}
	p, err := NewPipeline(opts)
	if err != nil {
		return nil, err
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	var old map[sharedKey]*Pipeline
	if tab := sharedTab.Load(); tab != nil {
		old = *tab
	}
	if prev, ok := old[key]; ok {
		return prev, nil // another caller stored one meanwhile
	}
	if len(old) < maxShare {
		tab := make(map[sharedKey]*Pipeline, len(old)+1)
		maps.Copy(tab, old)
		tab[key] = p
		sharedTab.Store(&tab)
	}
	return p, nil
}

// Dump writes the IR text dump of every function definition of m.
func (m *Module) Dump(w io.Writer) error {
	var b bytes.Buffer
	for _, f := range m.IR.Funcs {
		if f.HasBody {
			phases.DumpFunc(&b, f)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}
