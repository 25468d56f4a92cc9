// Command benchreport measures ptxopt and writes the benchmark report:
// REPORT.md, SVG plots and the raw results (raw.txt, in the `go test
// -bench` format that benchstat reads) into one folder.
//
//	go run ./cmd/benchreport            # the full report into bench/results (under 10 minutes on 2 cores)
//	go run ./cmd/benchreport -short     # the quick one (under 2 minutes)
//	go run ./cmd/benchreport -readme README.md   # also refresh the README's benchmark section
//
// What it measures, each figure the median [min–max] of -count runs (6,
// the fewest for which benchstat gives a confidence interval; at least 5),
// ratios taken per round between runs made back to back in one process:
//
//   - the corpus end to end (parse, phases, report measures, print) at
//     -O0 to -O3 with one worker and at -O3 with two: instructions per
//     millisecond, allocations per instruction, and where the time goes
//     phase by phase;
//   - generated kernels from 1K to 1M instructions at -O3: time per
//     instruction of the pipeline and of every phase, peak memory and
//     allocations per instruction. Each size runs in a child process with
//     a time budget and a memory cap; a size that does not finish within
//     them is recorded as such and the larger sizes are skipped;
//   - the bit-vector kernels against the naive loop, bits-and-blooms and
//     the read-bandwidth probe (the tables of cmd/bvreport);
//   - ptxopt -O2 against LLVM's opt -O2 and llc -O2 on the -O0 quality
//     suite (bench/quality: LLVM's way from each kernel's clang-16 -O0 IR,
//     ptxopt's from the PTX of the same compile), with the newest LLVM
//     installed; without one that reads the IR the section says why.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt/bench/pipeline"
	"github.com/ptxopt/ptxopt/bench/report"
)

func main() {
	pipeline.MaybeChild() // a scaling child: measure one size and exit
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// Sections, in the order they run.
var allSections = []string{"bitvec", "corpus", "llvm", "scaling"}

type config struct {
	short       bool
	out         string
	count       int
	corpus      string // a folder of .ptx files, or "gen"
	genSet      int
	pool        int // gen.Config.Pool of the scaling kernels
	sizes       []int
	sizeBudget  time.Duration
	scaleBudget time.Duration
	memCap      int64
	minSample   time.Duration
	benchtime   time.Duration
	sections    []string
	quality     string // the -O0 quality suite's folder
	embed       string // the small kernel of the embedding figure
	llvmBin     string // folder of opt and llc; "" for the newest installed
	readme      string
	args        []string // as given, for the report
}

// modeDefaults are the figures -short changes.
type modeDefaults struct {
	sizes                   string
	sizeBudget, scaleBudget time.Duration
	minSample, benchtime    time.Duration
}

var (
	fullDefaults  = modeDefaults{"1000,3000,10000,30000,100000,300000,1000000", 180 * time.Second, 360 * time.Second, 100 * time.Millisecond, 100 * time.Millisecond}
	shortDefaults = modeDefaults{"1000,3000,10000,30000,100000", 20 * time.Second, 45 * time.Second, 30 * time.Millisecond, 20 * time.Millisecond}
)

// minCount is the fewest runs a figure of the report may rest on;
// defaultCount is one more, the fewest for which benchstat states a
// confidence interval.
const (
	minCount     = 5
	defaultCount = 6
)

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{args: args}
	var sizes, sections string
	var memCapMiB int64
	var sizeBudget, scaleBudget, minSample, benchtime time.Duration
	fs.BoolVar(&c.short, "short", false, "the quick report: smaller sizes and budgets, shorter kernel benchmarks (under 2 minutes on 2 cores)")
	fs.StringVar(&c.out, "out", filepath.Join("bench", "results"), "folder for REPORT.md, raw.txt and the plots")
	fs.IntVar(&c.count, "count", defaultCount, fmt.Sprintf("runs per figure (at least %d)", minCount))
	fs.StringVar(&c.corpus, "corpus", filepath.Join("..", "shared", "corpus", "ptx"), "folder of .ptx files to optimize end to end; \"gen\" (or a missing folder) uses generated kernels instead")
	fs.IntVar(&c.genSet, "gen-set", 24, "generated kernels standing in for the corpus when there is none")
	fs.IntVar(&c.pool, "pool", 64, "values the scaling kernels keep readable (gen.Config.Pool; 0: all, so live values grow with the size)")
	fs.StringVar(&sizes, "sizes", "", "generated kernel sizes in instructions, comma-separated (default "+fullDefaults.sizes+"; -short "+shortDefaults.sizes+")")
	fs.DurationVar(&sizeBudget, "size-budget", 0, fmt.Sprintf("time budget of one size (default %v; -short %v)", fullDefaults.sizeBudget, shortDefaults.sizeBudget))
	fs.DurationVar(&scaleBudget, "scaling-budget", 0, fmt.Sprintf("time budget of all sizes together (default %v; -short %v)", fullDefaults.scaleBudget, shortDefaults.scaleBudget))
	fs.Int64Var(&memCapMiB, "memcap", 0, "resident memory cap of a size's child process in MiB (default 4096, at most half the machine's memory)")
	fs.DurationVar(&minSample, "min-sample", 0, fmt.Sprintf("a scaling sample repeats the pipeline until it has run this long (default %v; -short %v)", fullDefaults.minSample, shortDefaults.minSample))
	fs.DurationVar(&benchtime, "benchtime", 0, fmt.Sprintf("target time per bit-vector benchmark and round (default %v; -short %v)", fullDefaults.benchtime, shortDefaults.benchtime))
	fs.StringVar(&sections, "sections", strings.Join(allSections, ","), "sections to measure, comma-separated: "+strings.Join(allSections, ", "))
	fs.StringVar(&c.embed, "embed", filepath.Join("examples", "saxpy.ptx"), "the small kernel whose one-call ptxopt.Optimize (default options: -O3, report on) gives the embedding figure, measured with the corpus section")
	fs.StringVar(&c.quality, "quality", filepath.Join("bench", "quality"), "the -O0 quality suite (cuda/*.cu with testdata/K.O0.ll and K.O0.ptx) for the comparison with LLVM")
	fs.StringVar(&c.llvmBin, "llvm-bin", "", "folder of the opt and llc to compare with (default: the newest LLVM on PATH or in /usr/lib/llvm-*/bin)")
	fs.StringVar(&c.readme, "readme", "", "also rewrite the benchmark section of this README (between its benchreport markers)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	d := fullDefaults
	if c.short {
		d = shortDefaults
	}
	pick := func(v, def time.Duration) time.Duration {
		if v > 0 {
			return v
		}
		return def
	}
	c.sizeBudget, c.scaleBudget = pick(sizeBudget, d.sizeBudget), pick(scaleBudget, d.scaleBudget)
	c.minSample, c.benchtime = pick(minSample, d.minSample), pick(benchtime, d.benchtime)
	if sizes == "" {
		sizes = d.sizes
	}
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 40 {
			return nil, fmt.Errorf("bad size %q: want a number of instructions, at least 40", f)
		}
		c.sizes = append(c.sizes, n)
	}
	slices.Sort(c.sizes)
	c.sizes = slices.Compact(c.sizes)
	if c.count < minCount {
		return nil, fmt.Errorf("-count %d: every figure rests on at least %d runs", c.count, minCount)
	}
	for _, s := range strings.Split(sections, ",") {
		s = strings.TrimSpace(s)
		if !slices.Contains(allSections, s) {
			return nil, fmt.Errorf("unknown section %q (want %s)", s, strings.Join(allSections, ", "))
		}
		if !slices.Contains(c.sections, s) {
			c.sections = append(c.sections, s)
		}
	}
	c.memCap = 4096 << 20
	if memCapMiB > 0 {
		c.memCap = memCapMiB << 20
	}
	if mt := report.ThisMachine().MemTotal; mt > 0 && memCapMiB == 0 {
		c.memCap = min(c.memCap, mt/2)
	}
	if c.genSet < 1 {
		return nil, fmt.Errorf("-gen-set %d: want at least 1", c.genSet)
	}
	return c, nil
}

func (c *config) has(section string) bool { return slices.Contains(c.sections, section) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "benchreport:", err)
		return 2
	}
	r := newRun(c, stderr)
	if err := r.measure(ctx); err != nil {
		fmt.Fprintln(stderr, "benchreport:", err)
		return 1
	}
	if err := r.write(); err != nil {
		fmt.Fprintln(stderr, "benchreport:", err)
		return 1
	}
	if c.readme != "" {
		if err := updateReadme(c.readme, r.readmeSection()); err != nil {
			fmt.Fprintln(stderr, "benchreport:", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "wrote %s (%v)\n", filepath.Join(c.out, "REPORT.md"), r.elapsed.Round(time.Second))
	return 0
}
