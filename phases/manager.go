package phases

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt/ir"
)

// Hooks into packages that may not be linked in: the verifier, the IR
// dump and the register-pressure analysis. The driver works without
// them (no verification, a plain built-in dump, a built-in pressure
// estimate); hooks.go wires the real ones.
var (
	VerifyHook   func(f *ir.Func) error
	DumpHook     func(w io.Writer, f *ir.Func) error
	PressureHook func(f *ir.Func) Pressure
)

// MaxOpt is the highest -O level.
const MaxOpt = 3

// Config is everything that decides what the pipeline does to a function.
// A Config is read-only while functions run and may be shared by workers.
type Config struct {
	Opt     int // 0..3; 0 runs no phase (parse and print only)
	Target  Target
	Knobs   *Knobs
	Verify  bool // run the verifier on the input and after every phase
	enabled []bool

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
	c := &Config{Opt: opt, Target: t, Knobs: NewKnobs(ProfileFor(t), settings), enabled: make([]bool, len(Pipeline))}
	only := make([]bool, len(Pipeline))
	for _, n := range named {
		idx, err := Resolve(n)
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			only[i] = true
		}
	}
	for i := range Pipeline {
		p := &Pipeline[i]
		c.enabled[i] = opt >= p.MinOpt && (len(named) == 0 || only[i] || p.Required)
	}
	for _, n := range disabled {
		idx, err := Resolve(n)
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			if Pipeline[i].Required {
				if len(idx) == 1 {
					return nil, fmt.Errorf("phase %s is required and cannot be disabled", Pipeline[i].Name)
				}
				continue
			}
			c.enabled[i] = false
		}
	}
	return c, nil
}

// Enabled reports whether pipeline slot i runs under c.
func (c *Config) Enabled(i int) bool { return c.enabled[i] }

// Planned returns the names of the phases c runs, in order.
func (c *Config) Planned() []string {
	var out []string
	for i := range Pipeline {
		if c.enabled[i] {
			out = append(out, Pipeline[i].Name)
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
	Changed  bool
	Counters []Counter
	// Settled: not run, because the same pass function already ran on
	// this function, changed nothing, and no phase has changed the
	// function since (the passes are deterministic functions of the IR
	// and the configuration, so it would change nothing again).
	Settled bool
}

// Pass is what a phase function gets: the function, the configuration,
// scratch memory, and a place for its counters.
type Pass struct {
	F       *ir.Func
	Phase   *Phase
	Config  *Config
	Knobs   *Knobs
	Scratch *Scratch
	stat    *PhaseStat
}

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
// nil). It stops with ctx's error between phases when ctx is cancelled.
// Statistics for each phase that ran are appended to stats.
func Run(ctx context.Context, c *Config, sc *Scratch, f *ir.Func, stats []PhaseStat) ([]PhaseStat, error) {
	if !f.HasBody || c.Opt == 0 {
		return stats, nil
	}
	if sc == nil {
		sc = NewScratch()
	}
	if c.Verify && VerifyHook != nil {
		if err := VerifyHook(f); err != nil {
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
	// version counts the changes made to f; settledAt[k] is the version
	// at which pass function k last ran without changing anything.
	version := 0
	var settledAt [maxPassFuncs]int
	for k := range settledAt {
		settledAt[k] = -1
	}
	for i := range Pipeline {
		if !c.enabled[i] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		ph := &Pipeline[i]
		if settledAt[ph.fnKey] == version && c.DumpW == nil && html == nil {
			stats = append(stats, PhaseStat{Name: ph.Name, Settled: true})
			continue
		}
		if c.DumpW != nil && c.Dump.before(i) {
			writeDump(c.DumpW, "before", ph.Name, f)
		}
		stats = append(stats, PhaseStat{Name: ph.Name})
		st := &stats[len(stats)-1]
		p := Pass{F: f, Phase: ph, Config: c, Knobs: c.Knobs, Scratch: sc, stat: st}
		start := time.Now()
		changed, err := runOne(&p)
		st.NS = time.Since(start).Nanoseconds()
		st.Changed = changed
		if changed {
			version++
		} else {
			settledAt[ph.fnKey] = version
		}
		sc.reset()
		if err != nil {
			return stats, err
		}
		if c.Verify && VerifyHook != nil {
			if err := VerifyHook(f); err != nil {
				return stats, &PhaseError{Phase: ph.Name, Func: f.Name, Err: fmt.Errorf("verifier: %w", err)}
			}
		}
		if c.DumpW != nil && c.Dump.after(i) {
			writeDump(c.DumpW, "after", ph.Name, f)
		}
		if html != nil {
			html.Snapshot(ph.Name, f)
		}
	}
	return stats, nil
}

// runOne runs one phase, turning a panic into a PhaseError that names the
// phase and the function.
func runOne(p *Pass) (changed bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PhaseError{Phase: p.Phase.Name, Func: p.F.Name, Err: fmt.Errorf("panic: %v", r), Stack: debug.Stack()}
		}
	}()
	return p.Phase.Fn(p), nil
}

// DumpSpec selects the phases to dump around: "before:Phase",
// "after:Phase" (families allowed), "all" (after every phase), joined by
// commas.
type DumpSpec struct {
	bef, aft []bool // nil: nothing selected
}

// ParseDumpSpec parses a --dump-ir value.
func ParseDumpSpec(s string) (DumpSpec, error) {
	d := DumpSpec{bef: make([]bool, len(Pipeline)), aft: make([]bool, len(Pipeline))}
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

// DumpFunc writes the text dump of f (ir.Dump when linked in).
func DumpFunc(w io.Writer, f *ir.Func) {
	if DumpHook != nil {
		if err := DumpHook(w, f); err == nil {
			return
		}
	}
	plainDump(w, f)
}
