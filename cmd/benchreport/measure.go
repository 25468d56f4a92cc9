package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/bench"
	"github.com/ptxopt/ptxopt/bench/pipeline"
	"github.com/ptxopt/ptxopt/bench/quality"
	"github.com/ptxopt/ptxopt/bench/report"
)

// reportRun is one run of the report: the configuration, the machine, the
// raw results as they are measured, and what each section found.
type reportRun struct {
	c       *config
	log     io.Writer
	machine report.Machine
	raw     *report.Set
	// the embedding figure (measureEmbed)
	embedErr    error
	embedInstrs int
	start       time.Time
	elapsed     time.Duration
	loadEnd     float64 // one-minute load average when the measuring ended

	bvErr   error
	corpus  corpusData
	llvm    llvmData
	scaling scalingData
}

func newRun(c *config, log io.Writer) *reportRun {
	r := &reportRun{c: c, log: log, machine: report.ThisMachine(), raw: &report.Set{}}
	r.machine.Config(r.raw)
	return r
}

func (r *reportRun) logf(format string, args ...any) {
	fmt.Fprintf(r.log, "benchreport: "+format+"\n", args...)
}

// measure runs the sections. A section that cannot run (no LLVM, no
// corpus) says so in the report; only an interrupt stops the run.
func (r *reportRun) measure(ctx context.Context) error {
	r.start = time.Now()
	defer func() { r.elapsed, r.loadEnd = time.Since(r.start), report.LoadAvg() }()
	r.logf("%s, bit vectors %s; %d runs per figure", r.machine.CPU, r.machine.Level, r.c.count)
	steps := []struct {
		name    string
		section string // the -sections name that selects it
		fn      func(context.Context)
	}{
		{"bitvec", "bitvec", r.measureBitvec},
		{"corpus", "corpus", r.measureCorpus},
		{"embedding", "corpus", r.measureEmbed},
		{"llvm", "llvm", r.measureLLVM},
		{"scaling", "scaling", r.measureScaling},
	}
	for _, s := range steps {
		if !r.c.has(s.section) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return errors.New("interrupted")
		}
		t := time.Now()
		s.fn(ctx)
		r.logf("%s done in %v", s.name, time.Since(t).Round(100*time.Millisecond))
	}
	if ctx.Err() != nil {
		return errors.New("interrupted")
	}
	return nil
}

// ---- bit vectors

func (r *reportRun) measureBitvec(ctx context.Context) {
	sel, err := report.BVSelection(false, strings.Join(bench.HeadlineKernels, ","), "4096,65536", "", true)
	if err != nil {
		r.bvErr = err
		return
	}
	r.logf("bit-vector kernels: %d benchmarks x %d rounds at -benchtime %v", len(sel), r.c.count, r.c.benchtime)
	r.bvErr = report.MeasureBV(r.raw, sel, r.c.count, r.c.benchtime, nil)
}

// ---- the corpus, end to end

// corpusRuns are the configurations of a corpus round, in the order they
// run: -O0 to -O3 with one worker, then -O3 with two.
var corpusRuns = []corpusRun{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {3, 2}}

type corpusRun struct{ opt, workers int }

func (c corpusRun) name() string { return fmt.Sprintf("Corpus/O%d/j%d", c.opt, c.workers) }

type corpusData struct {
	source    string // what was optimized, in words
	generated bool   // generated kernels stand in for the corpus
	files     int
	instrs    int
	skipped   []string
	passes    map[corpusRun][]pipeline.Pass
	err       error
}

func (r *reportRun) measureCorpus(ctx context.Context) {
	d := &r.corpus
	d.passes = map[corpusRun][]pipeline.Pass{}
	var ins []pipeline.Input
	if r.c.corpus != "gen" {
		if _, err := os.Stat(r.c.corpus); err == nil {
			ins, d.skipped, d.err = pipeline.LoadDir(r.c.corpus)
			if d.err != nil {
				return
			}
			d.source = fmt.Sprintf("the PTX corpus in `%s`", r.c.corpus)
		} else {
			d.source = fmt.Sprintf("no corpus at `%s`, so %d generated kernels", r.c.corpus, r.c.genSet)
		}
	}
	if ins == nil {
		d.generated = true
		ins = pipeline.GeneratedSet(r.c.genSet)
		if d.source == "" {
			d.source = fmt.Sprintf("%d generated kernels", r.c.genSet)
		}
		d.source += fmt.Sprintf(" (package gen, seeds 1–%d, sizes %v in turn)", r.c.genSet, pipeline.GeneratedSetSizes)
	}
	d.files, d.instrs = len(ins), pipeline.Total(ins)
	r.logf("corpus: %d files, %d instructions, %d rounds of %d passes", d.files, d.instrs, r.c.count, len(corpusRuns))
	pipes := map[int]*ptxopt.Pipeline{}
	for _, cr := range corpusRuns {
		if pipes[cr.opt] == nil {
			lvl, _ := ptxopt.LevelOf(cr.opt)
			p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: lvl})
			if err != nil {
				d.err = err
				return
			}
			pipes[cr.opt] = p
		}
	}
	for range r.c.count {
		for _, cr := range corpusRuns {
			if ctx.Err() != nil {
				return
			}
			ps, err := pipeline.RunPass(ctx, pipes[cr.opt], ins, cr.workers)
			if err != nil {
				d.err = fmt.Errorf("-O%d: %w", cr.opt, err)
				return
			}
			d.passes[cr] = append(d.passes[cr], ps)
			ni := float64(ps.Instrs)
			r.raw.Add(cr.name(), 1,
				report.Metric{Value: float64(ps.WallNS), Unit: "ns/op"},
				report.Metric{Value: ps.InstrsPerMS(), Unit: "instrs/ms"},
				report.Metric{Value: float64(ps.Mallocs) / ni, Unit: "allocs/instr"},
				report.Metric{Value: float64(ps.Bytes) / ni, Unit: "B/instr"})
			if cr.workers == 1 {
				for _, part := range splitParts(&ps.Split) {
					r.raw.Add(fmt.Sprintf("CorpusSplit/O%d/%s", cr.opt, part.Name), 1, report.Metric{Value: float64(part.NS), Unit: "ns/op"})
				}
			}
		}
	}
}

// embedCalls is how many ptxopt.Optimize calls one embedding sample
// times (after as many to warm up the shared pipeline's memory).
const embedCalls = 2000

// measureEmbed times the one-call ptxopt.Optimize on the small kernel of
// -embed, as a program embedding ptxopt calls it: default options (-O3,
// the default report), one call after another. Each round is one sample
// of time and heap allocations per call.
func (r *reportRun) measureEmbed(ctx context.Context) {
	src, err := os.ReadFile(r.c.embed)
	if err != nil {
		r.embedErr = err
		return
	}
	opts := ptxopt.Options{Opt: ptxopt.O3}
	call := func() error {
		_, _, err := ptxopt.Optimize(ctx, src, opts)
		return err
	}
	for range embedCalls {
		if err := call(); err != nil {
			r.embedErr = err
			return
		}
	}
	var ms0, ms1 runtime.MemStats
	for range r.c.count {
		if ctx.Err() != nil {
			return
		}
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		start := time.Now()
		for range embedCalls {
			if err := call(); err != nil {
				r.embedErr = err
				return
			}
		}
		ns := time.Since(start).Nanoseconds()
		runtime.ReadMemStats(&ms1)
		r.raw.Add("Embed/Optimize", embedCalls,
			report.Metric{Value: float64(ns) / embedCalls, Unit: "ns/op"},
			report.Metric{Value: float64(ms1.Mallocs-ms0.Mallocs) / embedCalls, Unit: "allocs/op"},
			report.Metric{Value: float64(ms1.TotalAlloc-ms0.TotalAlloc) / embedCalls, Unit: "B/op"})
	}
	r.embedInstrs = countInstrs(src)
}

// countInstrs counts the instructions of a PTX text (0 when it does not
// parse).
func countInstrs(src []byte) int {
	m, err := ptxopt.Parse("embed.ptx", src)
	if err != nil {
		return 0
	}
	n := 0
	for _, f := range m.IR.Funcs {
		n += f.NumInstrs()
	}
	return n
}

// splitParts lists where a split's time went, in pipeline order: parse,
// the phases, the rest of Pipeline.Run, print.
func splitParts(s *pipeline.Split) []pipeline.PhaseTime {
	parts := []pipeline.PhaseTime{{Name: partParse, NS: s.ParseNS}}
	parts = append(parts, s.Phases...)
	return append(parts, pipeline.PhaseTime{Name: partOther, NS: s.OtherNS()}, pipeline.PhaseTime{Name: partPrint, NS: s.PrintNS})
}

// The parts of a split that are not phases.
const (
	partParse = "parse"
	partOther = "report-measures+driver"
	partPrint = "print"
)

// ---- LLVM

type llvmData struct {
	tools   *pipeline.LLVM
	kernels []pipeline.LLVMKernel
	// per round, per kernel
	runs    [][]pipeline.LLVMRun
	ptxoptN [][]int64 // ptxopt -O2 in-process ns
	quality []llvmQuality
	irMajor int // the clang that wrote the suite's IR
	err     error
}

type llvmQuality struct {
	o0, llvm, ptxopt pipeline.Quality
}

func (r *reportRun) measureLLVM(ctx context.Context) {
	d := &r.llvm
	if r.c.llvmBin != "" {
		d.tools, d.err = pipeline.LLVMIn(r.c.llvmBin)
	} else {
		d.tools, d.err = pipeline.FindLLVM()
	}
	if d.err != nil {
		return
	}
	ks, err := quality.Load(r.c.quality)
	if err != nil {
		d.err = fmt.Errorf("the -O0 quality suite: %w", err)
		return
	}
	var srcs []pipeline.LLVMSource
	for _, k := range ks {
		srcs = append(srcs, pipeline.LLVMSource{Name: k.Name, IR: k.IR, O0: k.O0})
	}
	d.irMajor = pipeline.IRMajor(ks[0].IR)
	tmp, err := os.MkdirTemp("", "benchreport-llvm-")
	if err != nil {
		d.err = err
		return
	}
	defer os.RemoveAll(tmp)
	if d.kernels, d.err = d.tools.PrepareLLVM(srcs, tmp); d.err != nil {
		if r.c.llvmBin == "" {
			d.err = fmt.Errorf("%w (LLVM %d is the newest installed)", d.err, d.tools.Major)
		}
		return
	}
	p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: ptxopt.O2})
	if err != nil {
		d.err = err
		return
	}
	r.logf("LLVM: %d kernels of %s, %d rounds (%s)", len(d.kernels), r.c.quality, r.c.count, d.tools.Version)
	var lastLLVM [][]byte
	var lastPtxopt [][]byte
	for range r.c.count {
		runs := make([]pipeline.LLVMRun, len(d.kernels))
		ns := make([]int64, len(d.kernels))
		lastLLVM, lastPtxopt = make([][]byte, len(d.kernels)), make([][]byte, len(d.kernels))
		var sumOpt, sumLlc, sumOptWall, sumLlcWall, sumPtxopt int64
		for i, k := range d.kernels {
			if ctx.Err() != nil {
				return
			}
			lr, err := d.tools.RunLLVM(k, tmp)
			if err != nil {
				d.err = err
				return
			}
			var split pipeline.Split
			t := time.Now()
			out, _, err := pipeline.Optimize(ctx, p, k.O0, &split)
			ns[i] = time.Since(t).Nanoseconds()
			if err != nil {
				d.err = fmt.Errorf("ptxopt -O2 on %s.O0.ptx: %w", k.Name, err)
				return
			}
			runs[i] = lr
			lastLLVM[i], lastPtxopt[i] = lr.PTX, out
			pre := "LLVM/" + k.Name + "/"
			r.raw.Add(pre+"ptxopt-O2", 1, report.Metric{Value: float64(ns[i]), Unit: "ns/op"})
			r.raw.Add(pre+"opt-O2", 1, report.Metric{Value: float64(lr.Opt.PassNS), Unit: "ns/op"}, report.Metric{Value: float64(lr.Opt.WallNS), Unit: "wall-ns/op"})
			r.raw.Add(pre+"llc-O2", 1, report.Metric{Value: float64(lr.Llc.PassNS), Unit: "ns/op"}, report.Metric{Value: float64(lr.Llc.WallNS), Unit: "wall-ns/op"})
			sumOpt += lr.Opt.PassNS
			sumLlc += lr.Llc.PassNS
			sumOptWall += lr.Opt.WallNS
			sumLlcWall += lr.Llc.WallNS
			sumPtxopt += ns[i]
		}
		total := float64(r.llvmInstrs())
		perMS := func(ns int64) float64 { return total / (float64(ns) / 1e6) }
		r.raw.Add("LLVM/all/ptxopt-O2", 1, report.Metric{Value: float64(sumPtxopt), Unit: "ns/op"}, report.Metric{Value: perMS(sumPtxopt), Unit: "instrs/ms"})
		r.raw.Add("LLVM/all/opt-O2", 1, report.Metric{Value: float64(sumOpt), Unit: "ns/op"}, report.Metric{Value: perMS(sumOpt), Unit: "instrs/ms"},
			report.Metric{Value: float64(sumOptWall), Unit: "wall-ns/op"})
		r.raw.Add("LLVM/all/llc-O2", 1, report.Metric{Value: float64(sumLlc), Unit: "ns/op"}, report.Metric{Value: perMS(sumLlc), Unit: "instrs/ms"},
			report.Metric{Value: float64(sumLlcWall), Unit: "wall-ns/op"})
		d.runs = append(d.runs, runs)
		d.ptxoptN = append(d.ptxoptN, ns)
	}
	// What each way printed (the same every round: both are deterministic).
	for i, k := range d.kernels {
		var q llvmQuality
		var err error
		if q.o0, err = pipeline.Measure(k.O0.Name, k.O0.Src); err == nil {
			if q.llvm, err = pipeline.Measure(k.Name+".llvm.ptx", lastLLVM[i]); err == nil {
				q.ptxopt, err = pipeline.Measure(k.Name+".ptxopt.ptx", lastPtxopt[i])
			}
		}
		if err != nil {
			d.err = fmt.Errorf("%s: measuring the output: %w", k.Name, err)
			return
		}
		d.quality = append(d.quality, q)
	}
}

// llvmInstrs returns the -O0 PTX instructions of all LLVM kernels.
func (r *reportRun) llvmInstrs() int {
	n := 0
	for _, k := range r.llvm.kernels {
		n += k.O0.Instrs
	}
	return n
}

// ---- scaling

type scalingData struct {
	results []pipeline.SizeResult
	child   string
	err     error
}

func (r *reportRun) measureScaling(ctx context.Context) {
	d := &r.scaling
	child, err := pipeline.SelfChild()
	if err != nil {
		d.err = err
		return
	}
	d.child = child.Path
	deadline := time.Now().Add(r.c.scaleBudget)
	stopped := ""
	for _, size := range r.c.sizes {
		spec := pipeline.SizeSpec{Size: size, Seed: 1, Pool: r.c.pool, Opt: 3, Runs: r.c.count, MinSampleNS: r.c.minSample.Nanoseconds(), MemCap: r.c.memCap}
		left := time.Until(deadline)
		switch {
		case stopped != "":
			d.results = append(d.results, pipeline.SizeResult{Spec: spec, Status: pipeline.Skipped, Note: stopped})
			continue
		case left < time.Second:
			d.results = append(d.results, pipeline.SizeResult{Spec: spec, Status: pipeline.Skipped,
				Note: fmt.Sprintf("the scaling budget of %v was spent", r.c.scaleBudget)})
			continue
		case ctx.Err() != nil:
			return
		}
		budget := min(r.c.sizeBudget, left)
		r.logf("scaling: %d instructions at -O3, %d runs, budget %v, memory cap %d MiB", size, r.c.count, budget.Round(time.Second), r.c.memCap>>20)
		res := pipeline.RunSize(ctx, child, spec, budget, func(s pipeline.SizeSample) {
			r.logf("  run: %.0f ms", float64(s.NS)/float64(s.Iters)/1e6)
		})
		if res.Status != pipeline.Done {
			r.logf("  %s: %s", res.Status, res.Note)
			stopped = fmt.Sprintf("a smaller size did not finish (%s instructions: %s)", report.Num(float64(size)), res.Note)
		}
		d.results = append(d.results, res)
		for _, s := range res.Samples {
			ni := float64(res.Instrs)
			it := float64(s.Iters)
			m := []report.Metric{
				{Value: float64(s.NS) / it, Unit: "ns/op"},
				{Value: s.NSPerInstr(res.Instrs), Unit: "ns/instr"},
				{Value: float64(s.Mallocs) / it / ni, Unit: "allocs/instr"},
				{Value: float64(s.Bytes) / it / ni, Unit: "B/instr"},
			}
			if s.PeakRSS >= 0 {
				m = append(m, report.Metric{Value: float64(s.PeakRSS) / ni, Unit: "peak-B/instr"})
			}
			if s.CPUNS >= 0 {
				m = append(m, report.Metric{Value: float64(s.CPUNS) / it / ni, Unit: "cpu-ns/instr"})
			}
			r.raw.Add(fmt.Sprintf("PipelineScaling/%d", size), s.Iters, m...)
			for _, part := range splitParts(&s.Split) {
				m := []report.Metric{{Value: float64(part.NS) / it / ni, Unit: "ns/instr"}}
				if part.CPUNS > 0 {
					// the phase's thread CPU time (the child sets
					// ptxopt.Options.PhaseCPU; parse and print have none)
					m = append(m, report.Metric{Value: float64(part.CPUNS) / it / ni, Unit: "cpu-ns/instr"})
				}
				r.raw.Add(fmt.Sprintf("PipelineScalingPhase/%s/%d", part.Name, size), s.Iters, m...)
			}
		}
	}
}
