package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/phases"
	"golang.org/x/term"
)

// Exit codes.
const (
	exitOK        = 0   // every input went through
	exitFailed    = 1   // at least one input failed (parse error, phase failure, unwritable output)
	exitUsage     = 2   // bad command line: unknown flag, knob, phase or target, missing -o in batch mode
	exitIO        = 3   // an error outside any one input: the output directory, report file or standard output cannot be written
	exitInterrupt = 130 // interrupted (SIGINT; SIGTERM exits 143): outputs already written are complete, no partial file is left
)

const usageText = `usage:
  ptxopt [flags] in.ptx [-o out.ptx]        optimize one file (stdout without -o)
  ptxopt [flags] [-] [-o out.ptx]           read stdin
  ptxopt [flags] -j N -o OUTDIR FILES|DIRS  batch mode: N workers (default: all cores)
  ptxopt check [flags] in.ptx               differential check in the simulator (see ptxopt check --help)

Batch mode is chosen when -j is given, when there are several inputs, when
an input is a directory, or when -o names an existing directory. Each output
goes under its input's name in OUTDIR; a directory input's *.ptx files are
mirrored below OUTDIR with their relative paths. An output that would
replace its input (OUTDIR naming an input directory, or the directory an
input file is in) is a usage error, reported before anything is read; a
directory input with no *.ptx file is that input's failure. When standard error is a terminal (and TERM is not
dumb), batch mode shows a progress line there: files done, rate, time left.

Outputs (-o, --report-file, --html-out) replace a new or regular file
atomically (temporary file and rename). A symbolic link is followed and its
target written the same way; a file with several hard links is overwritten in
place; a device or FIFO (-o /dev/null) is written through, never replaced
(a FIFO waits for a reader; a signal ends the wait).
A path that names a file descriptor (/dev/stdout, /dev/fd/N, /proc/self/fd/N,
or a link to one) is written through that descriptor as it is open, never
renamed over: "-o /dev/stdout >>log" appends to log. A socket is refused
(an error, exit 1). A bad input does not stop the
others; the output is byte-identical whatever the number of workers.

flags:
  -o PATH              output file (single mode) or directory (batch mode)
  -O0 -O1 -O2 -O3      optimization level (default -O2; -O0 parses and prints only)
  -j N                 batch mode with N workers; in either mode, the functions
                       of one file are optimized by up to N workers too
                       (default: all cores; output is the same for any N)
  --sm sm_XX           SM target (default: the module's .target)
  --knob Name=Value    set a knob (repeatable); see --help-knobs
  --knob-file F        read knob settings from F (Name=Value, ';' or newline separated, # comments)
  --disable-phase NAME don't run a phase or family (repeatable, comma-separated)
  --named-phases LIST  run only these phases or families (plus the required ones)
  --verify             check mode: verify the IR after every phase
  --dump-ir            write the IR dump instead of PTX
  --dump-ir=SPEC       dump the IR to stderr around phases: before:Phase, after:Phase, all
  --html FUNC          write the per-phase HTML view of function FUNC (to FUNC.html)
  --html-out FILE      where --html writes
  -v                   ptxas-style resource report per function (stderr)
  --report json        write the JSON report to stdout (or to --report-file)
  --report-file F      write the JSON report to F
  --max-input N        largest input, in bytes (K, M, G: binary multiples; default 256M)
  --max-instrs N       most instructions in one function (default 1500000)
  --max-regs N         most registers declared in one function (default 1500000)
  --max-nesting N      deepest nesting of { } blocks in a function (default 256)
                       (0 lifts a limit; see "limits" below)
  --help-phases        list the phases
  --help-knobs         list the knobs (defaults for --sm, else sm_80)
  --version            print the version, the Go release and the bit-vector kernel level
  -h, --help           this text

limits:
  An input over a limit fails with file:line:col at the point that crosses it,
  naming the flag that raises it; the other inputs of a batch go on. Input is
  read only up to the limit (and one byte more). Memory grows with function
  size: on the generator's worst case (go run ./cmd/ptxgen -size N, no -pool:
  the values kept live grow with N), ptxopt -O3 peaks at 1.9 GB for 1.06
  million instructions in one function, 2.9 GB for 1.32 million, 3.6 GB for
  1.5 million and 24 GB for 2.1 million; the defaults keep a run within about
  4 GB. Ordinary kernels need a small fraction of that.

exit codes:
  0    every input went through
  1    at least one input failed (errors are printed as file:line:col: message)
  2    usage error (bad flag, unknown knob or phase, bad target, missing -o in batch mode)
  3    I/O error outside any one input (output directory, report file,
       a write to standard output that failed)
  130  interrupted by SIGINT (143: by SIGTERM; 128 + the signal's number). The
       summary and the report are still written; outputs already written are
       complete and no partial file is left; inputs under way report
       "FILE: interrupted by SIGINT". A second signal ends ptxopt at once.
`

// listFlag is a repeatable string flag; split, when set, also splits
// each value at commas.
type listFlag struct {
	vals  []string
	split bool
}

func (l *listFlag) String() string { return strings.Join(l.vals, ",") }
func (l *listFlag) Set(s string) error {
	if l.split {
		for _, v := range strings.Split(s, ",") {
			if v = strings.TrimSpace(v); v != "" {
				l.vals = append(l.vals, v)
			}
		}
		return nil
	}
	l.vals = append(l.vals, s)
	return nil
}

// dumpFlag is --dump-ir (bare: dump instead of PTX) or --dump-ir=SPEC.
type dumpFlag struct {
	bare bool
	spec string
}

func (d *dumpFlag) String() string   { return d.spec }
func (d *dumpFlag) IsBoolFlag() bool { return true }
func (d *dumpFlag) Set(s string) error {
	if s == "true" {
		d.bare = true
		return nil
	}
	if s == "false" {
		d.bare = false
		return nil
	}
	d.spec = s
	return nil
}

type cli struct {
	out         string
	opt         int
	jobs        int
	jobsSet     bool
	sm          string
	knobs       listFlag
	knobFile    string
	disable     listFlag
	named       listFlag
	verify      bool
	dump        dumpFlag
	html        string
	htmlOut     string
	verbose     bool
	report      string
	reportFile  string
	maxInput    byteSize
	maxInstrs   int
	maxRegs     int
	maxNesting  int
	helpPhases  bool
	helpKnobs   bool
	version     bool
	inputs      []string
	stdin       io.Reader
	stdout      io.Writer
	stderr      io.Writer
	stderrIsTTY bool
}

func usageErr(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "ptxopt: "+format+"\n", args...)
	fmt.Fprintln(stderr, "run 'ptxopt --help' for usage")
	return exitUsage
}

// run is the whole command; main only wires the process to it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr, opt: 2}
	c.disable.split, c.named.split = true, true
	fs := flag.NewFlagSet("ptxopt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.out, "o", "", "")
	fs.IntVar(&c.opt, "opt", 2, "")
	fs.IntVar(&c.jobs, "j", runtime.NumCPU(), "")
	fs.StringVar(&c.sm, "sm", "", "")
	fs.Var(&c.knobs, "knob", "")
	fs.StringVar(&c.knobFile, "knob-file", "", "")
	fs.Var(&c.disable, "disable-phase", "")
	fs.Var(&c.named, "named-phases", "")
	fs.BoolVar(&c.verify, "verify", false, "")
	fs.Var(&c.dump, "dump-ir", "")
	fs.StringVar(&c.html, "html", "", "")
	fs.StringVar(&c.htmlOut, "html-out", "", "")
	fs.BoolVar(&c.verbose, "v", false, "")
	fs.StringVar(&c.report, "report", "", "")
	fs.StringVar(&c.reportFile, "report-file", "", "")
	c.maxInput = byteSize(ptxopt.DefaultLimits.MaxInput)
	fs.Var(&c.maxInput, "max-input", "")
	fs.IntVar(&c.maxInstrs, "max-instrs", ptxopt.DefaultLimits.MaxInstrs, "")
	fs.IntVar(&c.maxRegs, "max-regs", ptxopt.DefaultLimits.MaxRegs, "")
	fs.IntVar(&c.maxNesting, "max-nesting", ptxopt.DefaultLimits.MaxNesting, "")
	fs.BoolVar(&c.helpPhases, "help-phases", false, "")
	fs.BoolVar(&c.helpKnobs, "help-knobs", false, "")
	fs.BoolVar(&c.version, "version", false, "")

	// -O0..-O3 are not Go flags: rewrite them.
	var pre []string
	for _, a := range args {
		if len(a) == 3 && strings.HasPrefix(a, "-O") || len(a) == 4 && strings.HasPrefix(a, "--O") {
			n, err := strconv.Atoi(a[len(a)-1:])
			if err != nil || n > phases.MaxOpt {
				return usageErr(stderr, "bad opt level %s: want -O0..-O%d", a, phases.MaxOpt)
			}
			a = "-opt=" + strconv.Itoa(n)
		}
		pre = append(pre, a)
	}
	// Flags and inputs may interleave: parse, take one input, go on.
	// After "--" everything is an input.
	var tail []string
	for i, a := range pre {
		if a == "--" {
			pre, tail = pre[:i], pre[i+1:]
			break
		}
	}
	rest := pre
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return writeStdout(stdout, stderr, []byte(usageText))
			}
			return usageErr(stderr, "%v", err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		c.inputs = append(c.inputs, rest[0])
		rest = rest[1:]
	}
	c.inputs = append(c.inputs, tail...)
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "j" {
			c.jobsSet = true
		}
	})
	if stderr == io.Writer(os.Stderr) {
		c.stderrIsTTY = isTerminal(os.Stderr)
	}

	if c.version {
		return writeStdout(stdout, stderr, []byte(versionLine()+"\n"))
	}
	if c.helpPhases {
		var b bytes.Buffer
		phases.WriteHelpPhases(&b)
		return writeStdout(stdout, stderr, b.Bytes())
	}
	if c.helpKnobs {
		t, err := phases.ParseTarget(orDefault(c.sm, "sm_80"))
		if err != nil {
			return usageErr(stderr, "%v", err)
		}
		var b bytes.Buffer
		phases.WriteHelpKnobs(&b, t)
		return writeStdout(stdout, stderr, b.Bytes())
	}
	if c.jobs < 1 {
		return usageErr(stderr, "-j wants at least 1 worker, not %d", c.jobs)
	}
	for _, l := range []struct {
		name string
		v    int
	}{{"max-instrs", c.maxInstrs}, {"max-regs", c.maxRegs}, {"max-nesting", c.maxNesting}} {
		if l.v < 0 {
			return usageErr(stderr, "--%s wants 0 (no limit) or more, not %d", l.name, l.v)
		}
	}
	if c.report != "" && c.report != "json" {
		return usageErr(stderr, "--report %q: only json is supported", c.report)
	}
	if c.reportFile != "" {
		c.report = "json"
	}
	return c.main(ctx)
}

// writeStdout writes text (help, version) to stdout: exitOK, or exitIO
// with the error on stderr when the write fails (a full disk, a closed
// pipe).
func writeStdout(stdout, stderr io.Writer, text []byte) int {
	if err := writeAll(stdout, text); err != nil {
		fmt.Fprintf(stderr, "ptxopt: writing standard output: %v\n", err)
		return exitIO
	}
	return exitOK
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func (c *cli) options(batch bool) ptxopt.Options {
	lvl, _ := ptxopt.LevelOf(c.opt)
	o := ptxopt.Options{
		Opt: lvl, SM: c.sm, Knobs: c.knobs.vals, KnobFile: c.knobFile,
		DisablePhases: c.disable.vals, NamedPhases: c.named.vals, Verify: c.verify,
		Workers: c.jobs,
		Limits:  &ptxopt.Limits{MaxInput: int64(c.maxInput), MaxInstrs: c.maxInstrs, MaxRegs: c.maxRegs, MaxNesting: c.maxNesting},
	}
	// Measure what gets printed: -v and the JSON report show every figure,
	// and so does batch mode's summary line; plain PTX out needs none.
	if !c.verbose && c.report == "" && !batch {
		o.Measure = ptxopt.MeasureNone
	}
	if c.dump.spec != "" {
		o.DumpIR, o.DumpW = c.dump.spec, c.stderr
	}
	return o
}

func (c *cli) main(ctx context.Context) int {
	if c.opt < 0 || c.opt > phases.MaxOpt {
		return usageErr(c.stderr, "bad opt level -O%d", c.opt)
	}
	batch := c.jobsSet || len(c.inputs) > 1
	if st, err := os.Stat(c.out); c.out != "" && err == nil && st.IsDir() {
		batch = true // -o names a directory
	}
	for _, in := range c.inputs {
		if st, err := os.Stat(in); in != "-" && err == nil && st.IsDir() {
			batch = true
		}
	}
	opts := c.options(batch)
	var htmlBuf bytes.Buffer
	if c.html != "" {
		opts.HTMLFunc, opts.HTMLW = c.html, &htmlBuf
		if c.htmlOut == "" {
			c.htmlOut = sanitize(c.html) + ".html"
		}
	}
	p, err := ptxopt.NewPipeline(opts)
	if err != nil {
		return usageErr(c.stderr, "%v", err)
	}
	var code int
	if batch {
		code = c.batch(ctx, p)
	} else {
		code = c.single(ctx, p)
	}
	if c.html != "" && code != exitUsage {
		if err := p.FinishHTML(); err != nil {
			fmt.Fprintf(c.stderr, "ptxopt: %v\n", err)
			return max(code, exitFailed)
		}
		// Written after an interrupt too (only a second signal stops it).
		if err := writeOutput(context.WithoutCancel(ctx), c.htmlOut, htmlBuf.Bytes()); err != nil {
			fmt.Fprintf(c.stderr, "ptxopt: %v\n", err)
			return max(code, exitIO)
		}
		fmt.Fprintf(c.stderr, "ptxopt: wrote %s\n", c.htmlOut)
	}
	return code
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, s)
}

// single optimizes one file or stdin.
func (c *cli) single(ctx context.Context, p *ptxopt.Pipeline) int {
	if c.report == "json" && c.reportFile == "" && c.out == "" {
		return usageErr(c.stderr, "--report json writes to stdout: give -o for the PTX or --report-file for the report")
	}
	path := "-"
	if len(c.inputs) == 1 {
		path = c.inputs[0]
	}
	var src []byte
	var err error
	name := path
	if path == "-" {
		name = "<stdin>"
		src, err = readInput(c.stdin, 0, int64(c.maxInput))
	} else {
		src, err = readFile(path, int64(c.maxInput))
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "ptxopt: %v\n", err)
		return exitFailed
	}
	rep := &ptxopt.Report{}
	out, fr, err := c.optimizeAbandonable(ctx, p, name, src)
	rep.Files = append(rep.Files, *fr)
	rep.TotalNS = fr.NS
	if err != nil {
		fmt.Fprintln(c.stderr, err)
		c.writeReport(rep)
		if code := interruptCode(ctx); code != 0 {
			return code
		}
		return exitFailed
	}
	if c.verbose {
		writeResources(c.stderr, fr)
	}
	if c.out == "" || c.out == "-" {
		if err := writeAll(c.stdout, out); err != nil {
			fmt.Fprintf(c.stderr, "ptxopt: writing standard output: %v\n", err)
			return exitIO
		}
	} else if err := writeRecovered(ctx, c.out, out); err != nil {
		fmt.Fprintf(c.stderr, "ptxopt: %v\n", err)
		if code := interruptCode(ctx); code != 0 {
			// A signal while the output waited (a FIFO without a reader).
			c.writeReport(rep)
			return code
		}
		return exitFailed
	}
	if code := c.writeReport(rep); code != exitOK {
		return code
	}
	return exitOK
}

// optimizeAbandonable is optimize, given up at once when ctx is
// canceled: the work goes on in its goroutine until it next polls the
// context, but the command does not wait for it (it writes its report and
// exits). A run that finished is kept only if ctx is not canceled: after
// a signal no output is written. A panic of the run is the input's error.
func (c *cli) optimizeAbandonable(ctx context.Context, p *ptxopt.Pipeline, name string, src []byte) ([]byte, *ptxopt.FileReport, error) {
	type result struct {
		out []byte
		fr  *ptxopt.FileReport
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if rec := recover(); rec != nil {
				r = result{err: fmt.Errorf("%s: internal error: %v", name, rec)}
			}
			ch <- r
		}()
		r.out, r.fr, r.err = c.optimize(ctx, p, name, src)
	}()
	var r result
	select {
	case r = <-ch:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		r.out, r.err = nil, errors.New(interruptMsg(ctx, name))
	}
	if r.fr == nil {
		r.fr = &ptxopt.FileReport{Path: name, Functions: []ptxopt.FuncReport{}}
	}
	if r.err != nil {
		r.fr.Error = r.err.Error()
	}
	return r.out, r.fr, r.err
}

// optimize runs one input: PTX out, or the IR dump with bare --dump-ir.
func (c *cli) optimize(ctx context.Context, p *ptxopt.Pipeline, name string, src []byte) ([]byte, *ptxopt.FileReport, error) {
	if !c.dump.bare {
		return p.Optimize(ctx, name, src)
	}
	m, err := p.Parse(name, src)
	if err != nil {
		return nil, &ptxopt.FileReport{Path: name, Error: err.Error(), Functions: []ptxopt.FuncReport{}}, err
	}
	fr, err := p.Run(ctx, m)
	if err != nil {
		return nil, fr, err
	}
	var b bytes.Buffer
	m.Dump(&b)
	return b.Bytes(), fr, nil
}

func (c *cli) writeReport(rep *ptxopt.Report) int {
	if c.report != "json" {
		return exitOK
	}
	var b bytes.Buffer
	rep.WriteJSON(&b)
	if c.reportFile == "" {
		if err := writeAll(c.stdout, b.Bytes()); err != nil {
			fmt.Fprintf(c.stderr, "ptxopt: report: writing standard output: %v\n", err)
			return exitIO
		}
		return exitOK
	}
	// The report is written after an interrupt too: a FIFO without a
	// reader waits for one until a second signal ends ptxopt.
	if err := writeOutput(context.Background(), c.reportFile, b.Bytes()); err != nil {
		fmt.Fprintf(c.stderr, "ptxopt: report: %v\n", err)
		return exitIO
	}
	return exitOK
}

// writeResources prints the ptxas -v style report of one file.
func writeResources(w io.Writer, fr *ptxopt.FileReport) {
	var b strings.Builder
	for _, f := range fr.Functions {
		kind := "function"
		if f.Entry {
			kind = "entry function"
		}
		fmt.Fprintf(&b, "ptxopt info    : Optimized %s '%s' for '%s'\n", kind, f.Name, fr.Target)
		fmt.Fprintf(&b, "ptxopt info    : Function properties for %s\n", f.Name)
		fmt.Fprintf(&b, "    %d bytes local memory (was %d), %d instructions (was %d)\n", f.LocalBytesOut, f.LocalBytesIn, f.InstrsOut, f.InstrsIn)
		fmt.Fprintf(&b, "ptxopt info    : Used %d registers (max live; was %d), %d predicates (was %d), %d uniform registers, %d uniform predicates; registers named R %d, UR %d, P %d, UP %d\n",
			f.MaxLiveOut.R, f.MaxLiveIn.R, f.MaxLiveOut.P, f.MaxLiveIn.P, f.MaxLiveOut.UR, f.MaxLiveOut.UP, f.RegsOut.R, f.RegsOut.UR, f.RegsOut.P, f.RegsOut.UP)
	}
	io.WriteString(w, b.String())
}

// versionLine names the build: module version (or VCS revision), Go
// release, and the bit-vector kernel level this machine runs.
func versionLine() string {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" && len(kv.Value) >= 12 {
				v += " " + kv.Value[:12]
			}
		}
	}
	return fmt.Sprintf("ptxopt %s (%s %s/%s, bitvec %s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH, bitvec.Level())
}

// isTerminal reports whether f is a terminal (a successful terminal
// ioctl, not merely a character device: /dev/null is none). TERM=dumb
// counts as no terminal, for the progress line's sake.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// byteSize is a flag value in bytes: a number with an optional K, M or G
// (binary multiples; KiB, MiB, GiB and a trailing B are accepted too).
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }
func (b *byteSize) Set(s string) error {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	shift := 0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		}
		if shift != 0 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 || v > math.MaxInt64>>shift {
		return fmt.Errorf("bad size %q: want bytes, optionally with K, M or G", s)
	}
	*b = byteSize(v << shift)
	return nil
}

// readFile reads the file at path, at most max+1 bytes of it (max 0: all
// of it), so that an input over the limit is reported by the parser at
// the position that crosses it without being read in full.
func readFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return readInput(f, size, max)
}

// readInput reads r to its end, or to max+1 bytes when max > 0; size is
// the expected length (0: unknown), used to allocate once.
func readInput(r io.Reader, size, max int64) ([]byte, error) {
	if max > 0 {
		r = io.LimitReader(r, max+1)
		size = min(size, max+1)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}
