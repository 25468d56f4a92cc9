package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt/bench"
	"github.com/ptxopt/ptxopt/bench/pipeline"
	"github.com/ptxopt/ptxopt/bench/report"
)

// Files written into the output folder.
const (
	fileReport  = "REPORT.md"
	fileRaw     = "raw.txt"
	plotScaling = "scaling.svg"
	plotMemory  = "memory.svg"
	plotShares  = "phase-shares.svg"
	plotBitvec  = "bitvec.svg"
)

// write writes the report, the raw results and the plots.
func (r *reportRun) write() error {
	if err := os.MkdirAll(r.c.out, 0o755); err != nil {
		return err
	}
	// Plots first: the report links only those that were drawn.
	plots := map[string]error{}
	for name, draw := range map[string]func(string) error{
		plotScaling: r.plotScaling, plotMemory: r.plotMemory, plotShares: r.plotShares, plotBitvec: r.plotBitvec,
	} {
		path := filepath.Join(r.c.out, name)
		os.Remove(path) // a plot of an earlier run must not pass for this one's
		plots[name] = draw(path)
	}
	f, err := os.Create(filepath.Join(r.c.out, fileRaw))
	if err != nil {
		return err
	}
	if _, err := r.raw.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.c.out, fileReport), []byte(r.markdown(plots)), 0o644)
}

// plotLink returns the Markdown image of a plot, or a line saying why
// there is none.
func plotLink(plots map[string]error, name, alt string) string {
	if err := plots[name]; err != nil {
		return fmt.Sprintf("(no plot: %v)\n\n", err)
	}
	return fmt.Sprintf("![%s](%s)\n\n", alt, name)
}

func (r *reportRun) command() string {
	if len(r.c.args) == 0 {
		return "go run ./cmd/benchreport"
	}
	return "go run ./cmd/benchreport " + strings.Join(r.c.args, " ")
}

func (r *reportRun) markdown(plots map[string]error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# ptxopt benchmark report\n\n")
	fmt.Fprintf(&b, "Made by `%s` on %s in %v. Every figure is the median [min–max] of %d runs unless it says otherwise; "+
		"ratios are taken per round, between runs made back to back in one process, then summarized. "+
		"The raw results are in [%s](%s), in the `go test -bench` format (`benchstat %s`).\n\n",
		r.command(), r.start.UTC().Format("2006-01-02 15:04 UTC"), r.elapsed.Round(time.Second), r.c.count, fileRaw, fileRaw, fileRaw)
	b.WriteString("## Machine\n\n")
	b.WriteString(r.machine.Markdown())
	fmt.Fprintf(&b, "- load average at the end %.2f", r.loadEnd)
	if r.loadEnd > float64(r.machine.CPUs)/2 {
		b.WriteString(" — **other processes competed for the CPUs during the run: timings are noisy**")
	}
	b.WriteString("\n")
	b.WriteString("\n## Headline\n\n")
	r.headline().Markdown(&b)
	b.WriteString("\n")
	if r.c.has("corpus") {
		r.corpusMarkdown(&b, plots)
	}
	if r.c.has("scaling") {
		r.scalingMarkdown(&b, plots)
	}
	if r.c.has("bitvec") {
		r.bitvecMarkdown(&b, plots)
	}
	if r.c.has("llvm") {
		r.llvmMarkdown(&b)
	}
	b.WriteString("## How to rerun\n\n")
	b.WriteString("```sh\ngo run ./cmd/benchreport            # this report, into bench/results (under 10 minutes on 2 cores)\n" +
		"go run ./cmd/benchreport -short     # smaller sizes and budgets (under 2 minutes)\n" +
		"benchstat old/raw.txt bench/results/raw.txt   # compare two runs\n```\n\n" +
		"`go run ./cmd/benchreport -help` lists the knobs (sizes, budgets, memory cap, sections). The same workloads run under " +
		"`go test -bench`: `BenchmarkCorpus` and `BenchmarkPipelineScaling` in the root package, `BenchmarkKernels` and " +
		"`BenchmarkSmall` in `bench`; their result names match the ones in raw.txt.\n")
	return b.String()
}

// ---- headline

func (r *reportRun) headline() *report.Table {
	t := &report.Table{Head: []string{"figure", "value"}, Left: 1}
	if r.c.has("corpus") {
		d := &r.corpus
		if d.err != nil {
			t.Add("corpus end to end", "failed: "+d.err.Error())
		} else if len(d.passes[corpusRuns[3]]) > 0 {
			what := fmt.Sprintf("corpus (%d files, %s instructions)", d.files, report.Num(float64(d.instrs)))
			if d.generated {
				what = fmt.Sprintf("generated stand-in for the corpus (%d kernels, %s instructions)", d.files, report.Num(float64(d.instrs)))
			}
			t.Add(what+", -O3 end to end, 1 worker", r.raw.Summary("Corpus/O3/j1", "instrs/ms").String()+" instructions/ms")
			t.Add("… -O2, 1 worker", r.raw.Summary("Corpus/O2/j1", "instrs/ms").String()+" instructions/ms")
			t.Add("… -O3, 2 workers vs 1", r.workerSpeedup().String()+"× faster")
			t.Add("… -O3 heap allocations", r.raw.Summary("Corpus/O3/j1", "allocs/instr").String()+" per instruction")
		}
		switch {
		case r.embedErr != nil:
			t.Add("embedding: one-call `Optimize`", "failed: "+r.embedErr.Error())
		case r.raw.Summary("Embed/Optimize", "ns/op").OK():
			what := fmt.Sprintf("embedding: one-call `Optimize` of `%s` (%d instructions), default options (-O3, report)", filepath.ToSlash(r.c.embed), r.embedInstrs)
			t.Add(what, r.raw.Summary("Embed/Optimize", "ns/op").Scale(1e-3).String()+" µs per call (target 50), "+
				r.raw.Summary("Embed/Optimize", "allocs/op").String()+" allocations (target 100)")
		}
	}
	if r.c.has("scaling") {
		done, next := r.largestDone()
		if done != nil {
			s := r.raw.Summary(fmt.Sprintf("PipelineScaling/%d", done.Spec.Size), "ns/op").Scale(1e-6)
			t.Add(fmt.Sprintf("largest generated kernel finished at -O3 (%s instructions)", report.Num(float64(done.Instrs))),
				s.String()+" ms per run, "+r.raw.Summary(fmt.Sprintf("PipelineScaling/%d", done.Spec.Size), "ns/instr").String()+" ns/instruction")
			if pk := r.raw.Summary(fmt.Sprintf("PipelineScaling/%d", done.Spec.Size), "peak-B/instr"); pk.OK() {
				t.Add("… its peak memory", pk.String()+" bytes per instruction")
			}
			if e, ok := r.growth(); ok {
				t.Add("growth of the pipeline's time with size (exponent, 1 = linear)", e)
			}
			if base, top, ok := r.ratioSizes(); ok {
				t.Add(fmt.Sprintf("time per instruction at %s vs %s instructions (target ≤ %.1f×)", report.Num(float64(top.Instrs)), report.Num(float64(base.Instrs)), ratioTarget),
					r.ratioHeadline(base, top))
			}
		}
		if next != nil {
			t.Add(fmt.Sprintf("first size not finished (%s instructions)", report.Num(float64(next.Spec.Size))), string(next.Status)+": "+next.Note)
		}
	}
	if r.c.has("bitvec") && r.bvErr == nil {
		for _, l := range r.raw.BVHeadline()[:4] { // the speed-ups; the section has the rest
			if l.Value.OK() {
				t.Add("bit vectors: "+l.What, l.Value.String()+l.Unit)
			}
		}
	}
	if r.c.has("llvm") {
		d := &r.llvm
		switch {
		case d.err != nil:
			t.Add("ptxopt vs LLVM", "not measured: "+d.err.Error())
		case len(d.runs) > 0:
			t.Add(fmt.Sprintf("ptxopt -O2 vs opt -O2 + llc -O2 (LLVM %d), in-process, on the %d kernels of the -O0 quality suite", d.tools.Major, len(d.kernels)),
				report.Summarize(r.llvmSpeedRatios()).String()+"× faster")
			q := r.llvmTotals()
			t.Add("… instructions printed: ptxopt -O2 vs LLVM -O2, both from clang -O0",
				fmt.Sprintf("%s vs %s (%s×; -O0: %s)", report.Num(float64(q.ptxopt.Instrs)), report.Num(float64(q.llvm.Instrs)),
					report.Num(float64(q.ptxopt.Instrs)/float64(q.llvm.Instrs)), report.Num(float64(q.o0.Instrs))))
		}
	}
	return t
}

// workerSpeedup is the -O3 corpus time with one worker over two, per round.
func (r *reportRun) workerSpeedup() report.Summary {
	return report.Summarize(report.Ratios(r.raw.Values("Corpus/O3/j1", "ns/op"), r.raw.Values("Corpus/O3/j2", "ns/op")))
}

// largestDone returns the largest size measured in full, and the first
// that was not.
func (r *reportRun) largestDone() (done, next *pipeline.SizeResult) {
	for i := range r.scaling.results {
		res := &r.scaling.results[i]
		if res.Status == pipeline.Done {
			done = res
			continue
		}
		if next == nil {
			next = res
		}
	}
	return done, next
}

// growth returns the exponent k of time ∝ n^k between the two largest
// sizes measured in full.
func (r *reportRun) growth() (string, bool) {
	var done []pipeline.SizeResult
	for _, res := range r.scaling.results {
		if res.Status == pipeline.Done {
			done = append(done, res)
		}
	}
	if len(done) < 2 {
		return "", false
	}
	a, b := done[len(done)-2], done[len(done)-1]
	ta := r.raw.Summary(fmt.Sprintf("PipelineScaling/%d", a.Spec.Size), "ns/op").Median
	tb := r.raw.Summary(fmt.Sprintf("PipelineScaling/%d", b.Spec.Size), "ns/op").Median
	k := math.Log(tb/ta) / math.Log(float64(b.Instrs)/float64(a.Instrs))
	return fmt.Sprintf("%.2f from %s to %s instructions (medians)", k, report.Num(float64(a.Instrs)), report.Num(float64(b.Instrs))), true
}

// partWhole labels the whole pipeline's row in the per-phase scaling
// table.
const partWhole = "whole pipeline"

// ratioBase is the size the scaling ratio is taken from, and ratioTarget
// the most issue 17 allows the time per instruction to grow from there
// to the largest size (1M instructions), for the pipeline and for every
// phase.
const (
	ratioBase   = 10_000
	ratioTarget = 1.5
)

// ratioSizes returns the size ratioBase and the largest size above it,
// both measured in full.
func (r *reportRun) ratioSizes() (base, top *pipeline.SizeResult, ok bool) {
	for i := range r.scaling.results {
		res := &r.scaling.results[i]
		if res.Status != pipeline.Done || len(res.Samples) == 0 {
			continue
		}
		switch {
		case res.Spec.Size == ratioBase:
			base = res
		case res.Spec.Size > ratioBase:
			top = res
		}
	}
	return base, top, base != nil && top != nil
}

// ratioCell formats the growth of the time per instruction from a to b.
func ratioCell(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", b/a)
}

// ratioHeadline states the growth of the time per instruction from base
// to top for the whole pipeline and names the phases above ratioTarget
// (parse, print and the report's measures included).
func (r *reportRun) ratioHeadline(base, top *pipeline.SizeResult) string {
	med := func(name string) float64 { return r.raw.Summary(name, "ns/instr").Median }
	whole := ratioCell(med(fmt.Sprintf("PipelineScaling/%d", base.Spec.Size)), med(fmt.Sprintf("PipelineScaling/%d", top.Spec.Size)))
	if cpu := r.cpuRatio(partWhole, base, top); cpu != "-" {
		whole += "× (CPU time " + cpu + ")"
	} else {
		whole += "×"
	}
	var over, overCPU, notRun []string
	// Every part is checked, the small ones too (the plots leave those
	// out); a small one over the target says how small it is, since its
	// ratio can rest on a few microseconds at the base size.
	_, minor := r.scalingPartsSplit()
	isMinor := make(map[string]bool, len(minor))
	for _, p := range minor {
		isMinor[p] = true
	}
	for _, p := range r.scalingParts() {
		a := med(fmt.Sprintf("PipelineScalingPhase/%s/%d", p, base.Spec.Size))
		c := med(fmt.Sprintf("PipelineScalingPhase/%s/%d", p, top.Spec.Size))
		cpu := r.cpuRatio(p, base, top)
		small := ""
		if isMinor[p] {
			small = fmt.Sprintf(" [under %.1f%% of the pipeline: %.2g → %.2g ns/instr]", 100*minorShare, a, c)
		}
		if a <= 0 && c > 0 {
			// settled at the base size (an earlier slot left nothing
			// for it), run at the top one: no ratio to give
			notRun = append(notRun, p)
			continue
		}
		if a > 0 && c/a > ratioTarget {
			cell := fmt.Sprintf("%s %.2f", p, c/a)
			if cpu != "-" {
				cell += " (CPU " + cpu + ")"
			}
			over = append(over, cell+small)
		}
		if x, err := strconv.ParseFloat(cpu, 64); err == nil && x > ratioTarget {
			overCPU = append(overCPU, p+" "+cpu+small)
		}
	}
	s := whole + " whole pipeline; "
	if len(over) == 0 {
		s += "every part within in wall time"
	} else {
		s += fmt.Sprintf("over %.1f× in wall time (the phase's own thread CPU time in parentheses): %s", ratioTarget, strings.Join(over, ", "))
	}
	if len(overCPU) == 0 {
		s += "; every phase within in CPU time"
	} else {
		s += fmt.Sprintf("; over %.1f× in CPU time: %s", ratioTarget, strings.Join(overCPU, ", "))
	}
	if len(notRun) > 0 {
		s += fmt.Sprintf("; no ratio for %s (skipped as settled at %d instructions, run at %d)", strings.Join(notRun, ", "), base.Spec.Size, top.Spec.Size)
	}
	return s
}

// cpuRatio is the growth of part's CPU time per instruction from base to
// top (medians), "-" where it was not measured: a phase's thread CPU
// time, or for the whole pipeline the process's (the collector's
// included).
func (r *reportRun) cpuRatio(part string, base, top *pipeline.SizeResult) string {
	name := func(size int) string {
		if part == partWhole {
			return fmt.Sprintf("PipelineScaling/%d", size)
		}
		return fmt.Sprintf("PipelineScalingPhase/%s/%d", part, size)
	}
	a := r.raw.Summary(name(base.Spec.Size), "cpu-ns/instr")
	c := r.raw.Summary(name(top.Spec.Size), "cpu-ns/instr")
	if !a.OK() || !c.OK() {
		return "-"
	}
	return ratioCell(a.Median, c.Median)
}

// cpuCell is a CPU-time cell, "-" where the time was not measured.
func cpuCell(s report.Summary) string {
	if !s.OK() {
		return "-"
	}
	return s.Cell()
}

// ---- corpus

func (r *reportRun) corpusMarkdown(b *strings.Builder, plots map[string]error) {
	d := &r.corpus
	b.WriteString("## The pipeline end to end\n\n")
	if d.err != nil {
		fmt.Fprintf(b, "Not measured: %v\n\n", d.err)
		return
	}
	if len(d.passes) == 0 {
		b.WriteString("Not measured (interrupted).\n\n")
		return
	}
	fmt.Fprintf(b, "Input: %s: %d modules, %s instructions in function bodies", d.source, d.files, report.Num(float64(d.instrs)))
	switch len(d.skipped) {
	case 0:
	case 1:
		first, _, _ := strings.Cut(d.skipped[0], "\n")
		fmt.Fprintf(b, "; 1 file that does not parse is left out: %s", first)
	default:
		fmt.Fprintf(b, "; %d files that do not parse are left out", len(d.skipped))
	}
	b.WriteString(". One pass optimizes every module from its text: parse, the phases, the report's measures, print. " +
		"Each round runs -O0, -O1, -O2, -O3 with one worker, then -O3 with two (one shared Pipeline, modules taken in turn).\n\n")
	t := &report.Table{Head: []string{"level", "workers", "instructions/ms", "ms per pass", "allocations/instr", "bytes allocated/instr", "instructions out"}, Left: 2}
	for _, cr := range corpusRuns {
		name := cr.name()
		out := "-"
		if ps := d.passes[cr]; len(ps) > 0 {
			out = fmt.Sprintf("%s (%.3f×)", report.Num(float64(ps[0].InstrsOut)), float64(ps[0].InstrsOut)/float64(ps[0].Instrs))
		}
		t.Add(fmt.Sprintf("-O%d", cr.opt), fmt.Sprint(cr.workers),
			r.raw.Summary(name, "instrs/ms").Cell(), r.raw.Summary(name, "ns/op").Scale(1e-6).Cell(),
			r.raw.Summary(name, "allocs/instr").Cell(), r.raw.Summary(name, "B/instr").Cell(), out)
	}
	t.Markdown(b)
	fmt.Fprintf(b, "\nTwo workers against one at -O3: %s× (per round). -O0 parses and prints only.\n\n", r.workerSpeedup())

	b.WriteString("### Where the time goes (-O3, one worker)\n\n")
	b.WriteString("The phases' own timings (the report's per-phase `ns`), parsing and printing timed around them, and the rest of " +
		"`Pipeline.Run` (the resource measures the report takes before and after the phases, and the driver). " +
		"A phase that runs under several names (the GeneralOptimize bundle, the live/dead sweeps) has a row per name.\n\n")
	b.WriteString(plotLink(plots, plotShares, "share of the -O3 time per phase"))
	t = &report.Table{Head: []string{"part", "ms per pass", "share"}, Left: 1}
	major, minor := r.corpusParts()
	for _, part := range major {
		name := "CorpusSplit/O3/" + part
		ms := r.raw.Summary(name, "ns/op").Scale(1e-6)
		t.Add(part, ms.Cell(), report.Summarize(r.shares(3, part)).Scale(100).Cell()+"%")
	}
	if len(minor) > 0 {
		var names []string
		for _, p := range minor {
			names = append(names, "CorpusSplit/O3/"+p)
		}
		t.Add(minorLabel(len(minor)), report.Summarize(r.sumValues(names, "ns/op")).Scale(1e-6).Cell(),
			report.Summarize(r.sumShares(3, minor)).Scale(100).Cell()+"%")
	}
	t.Markdown(b)
	if len(minor) > 0 {
		fmt.Fprintf(b, "\nUnder %.1f%% each: %s.\n", 100*minorShare, strings.Join(minor, ", "))
	}
	b.WriteString("\n")
}

// minorShare is the share of the time under which a phase is not given
// a row (or a bar) of its own.
const minorShare = 0.001

func minorLabel(n int) string {
	return fmt.Sprintf("%d other phases, under %.1f%% each", n, 100*minorShare)
}

// isPhase reports whether a split part is a phase (not parse, print or
// the rest of the run).
func isPhase(part string) bool { return part != partParse && part != partOther && part != partPrint }

// corpusParts splits the -O3 parts into those shown one by one and the
// phases under minorShare.
func (r *reportRun) corpusParts() (major, minor []string) {
	for _, part := range r.splitNames(3) {
		if isPhase(part) && report.Summarize(r.shares(3, part)).Median < minorShare {
			minor = append(minor, part)
		} else {
			major = append(major, part)
		}
	}
	return major, minor
}

// sumValues sums the values of several names round by round.
func (r *reportRun) sumValues(names []string, unit string) []float64 {
	var sum []float64
	for _, n := range names {
		v := r.raw.Values(n, unit)
		if sum == nil {
			sum = make([]float64, len(v))
		}
		for i := range min(len(v), len(sum)) {
			sum[i] += v[i]
		}
	}
	return sum
}

// sumShares sums the shares of several parts round by round.
func (r *reportRun) sumShares(opt int, parts []string) []float64 {
	var sum []float64
	for _, p := range parts {
		sh := r.shares(opt, p)
		if sum == nil {
			sum = make([]float64, len(sh))
		}
		for i := range min(len(sh), len(sum)) {
			sum[i] += sh[i]
		}
	}
	return sum
}

// splitNames lists the parts of the -O<opt> split in pipeline order.
func (r *reportRun) splitNames(opt int) []string {
	ps := r.corpus.passes[corpusRun{opt, 1}]
	if len(ps) == 0 {
		return nil
	}
	var names []string
	for _, p := range splitParts(&ps[0].Split) {
		names = append(names, p.Name)
	}
	return names
}

// shares returns a part's share of the split's total, per round.
func (r *reportRun) shares(opt int, part string) []float64 {
	var sh []float64
	for _, ps := range r.corpus.passes[corpusRun{opt, 1}] {
		for _, p := range splitParts(&ps.Split) {
			if p.Name == part {
				sh = append(sh, float64(p.NS)/float64(ps.Split.TotalNS()))
			}
		}
	}
	return sh
}

func (r *reportRun) plotShares(path string) error {
	if !r.c.has("corpus") || r.corpus.err != nil || len(r.corpus.passes) == 0 {
		return fmt.Errorf("corpus not measured")
	}
	bars := &report.Bars{Title: "Where the -O3 time goes (corpus, one worker)\n" + r.machine.Label(),
		XLabel: fmt.Sprintf("%% of end-to-end time: median and min–max of %d rounds", r.c.count), Ref: math.NaN()}
	major, minor := r.corpusParts()
	for _, part := range major {
		bars.Labels = append(bars.Labels, part)
		bars.Values = append(bars.Values, report.Summarize(r.shares(3, part)).Scale(100))
	}
	if len(minor) > 0 {
		bars.Labels = append(bars.Labels, minorLabel(len(minor)))
		bars.Values = append(bars.Values, report.Summarize(r.sumShares(3, minor)).Scale(100))
	}
	return bars.Save(path)
}

// ---- scaling

func (r *reportRun) scalingMarkdown(b *strings.Builder, plots map[string]error) {
	d := &r.scaling
	b.WriteString("## Scaling on generated kernels\n\n")
	if d.err != nil {
		fmt.Fprintf(b, "Not measured: %v\n\n", d.err)
		return
	}
	pool := "every value it makes stays readable to the end (`gen.Config.Pool` 0), so the values live at once grow with the size"
	if r.c.pool > 0 {
		pool = fmt.Sprintf("at most %d values of each kind stay readable (`gen.Config.Pool` %d: older ones are folded into a checksum), so, as in real kernels, the values live at once stay bounded", r.c.pool, r.c.pool)
	}
	fmt.Fprintf(b, "One kernel per size from package gen (seed 1; `go run ./cmd/ptxgen -size N -pool %d` prints it): %s. Each is optimized at -O3 from its text. ", r.c.pool, pool)
	fmt.Fprintf(b, ""+
		"Each size runs in a child process of its own with a time budget (%v per size, %v for all sizes) and a resident memory cap "+
		"(%d MiB, also the child's soft memory limit); a size that does not finish within them is recorded as such and the larger sizes are skipped. "+
		"Each sample starts with one untimed run, after the child has returned its free memory to the system, so that every timed run finds the heap's pages "+
		"as an earlier run left them, at every size, as in a process optimizing one file after another "+
		"(the first run of a process touches its memory for the first time at every size, in proportion to what it uses). "+
		"A run shorter than %v is repeated to fill a sample (the iterations column); the first run is then a warm-up.\n\n",
		r.c.sizeBudget, r.c.scaleBudget, r.c.memCap>>20, r.c.minSample)
	b.WriteString(plotLink(plots, plotScaling, "time per run against kernel size, log-log"))
	if plots[plotScaling] == nil {
		if parts := r.plottedParts(); len(parts) > 0 {
			fmt.Fprintf(b, "The plot draws the whole pipeline and only the %d parts that cost most at the largest size measured (%s), "+
				"so that its lines can be told apart; the table \"Every phase, ns per instruction\" below has every part.\n\n",
				len(parts), strings.Join(parts, ", "))
		}
	}
	t := &report.Table{Head: []string{"size", "instructions", "status", "runs", "iterations", "ms per run", "ns/instr", "CPU ns/instr", "peak MiB", "peak B/instr", "allocations/instr", "bytes allocated/instr"}, Left: 3}
	for _, res := range d.results {
		name := fmt.Sprintf("PipelineScaling/%d", res.Spec.Size)
		status := string(res.Status)
		if res.Status != pipeline.Done {
			status += ": " + res.Note
		}
		instrs := "-"
		if res.Instrs > 0 {
			instrs = report.Num(float64(res.Instrs))
		}
		if len(res.Samples) == 0 {
			t.Add(report.Num(float64(res.Spec.Size)), instrs, status, "0", "", "", "", "", "", "", "", "")
			continue
		}
		var peak []float64
		for _, s := range res.Samples {
			if s.PeakRSS >= 0 {
				peak = append(peak, float64(s.PeakRSS)/(1<<20))
			}
		}
		t.Add(report.Num(float64(res.Spec.Size)), instrs, status, fmt.Sprint(len(res.Samples)), fmt.Sprint(res.Samples[0].Iters),
			r.raw.Summary(name, "ns/op").Scale(1e-6).Cell(), r.raw.Summary(name, "ns/instr").Cell(), cpuCell(r.raw.Summary(name, "cpu-ns/instr")),
			report.Summarize(peak).Cell(), r.raw.Summary(name, "peak-B/instr").Cell(),
			r.raw.Summary(name, "allocs/instr").Cell(), r.raw.Summary(name, "B/instr").Cell())
	}
	t.Markdown(b)
	b.WriteString("\nCPU ns/instr: the child process's CPU time (user and system, every thread, the collector's included) per run and input instruction; " +
		"on a shared machine it moves much less with the load than the wall time the other columns and the per-phase table use.\n\n")
	b.WriteString("Peak memory: the child's resident high-water mark during a sample's untimed run (one run from a returned heap, as a process optimizing one input) minus its resident size before it " +
		"(after a collection returned free memory); the Go collector runs at its default GOGC=100. " +
		"Allocations: heap objects and bytes allocated per run, from runtime.MemStats.\n\n")
	if e, ok := r.growth(); ok {
		fmt.Fprintf(b, "Growth exponent of the whole pipeline: %s.\n\n", e)
	}
	b.WriteString(plotLink(plots, plotMemory, "peak memory against kernel size, log-log"))

	// Per-phase ns/instr by size.
	sizes := r.sizesWithSamples()
	if len(sizes) == 0 {
		return
	}
	b.WriteString("### Every phase, ns per instruction\n\n")
	fmt.Fprintf(b, "Median [min–max] over the %d runs of each size; a flat row is linear, and the exponent is taken from the medians. "+
		"Parse, the report's measures and the driver, and print are rows of their own.\n\n", r.c.count)
	head := []string{"part"}
	for _, res := range sizes {
		head = append(head, report.Num(float64(res.Instrs)))
	}
	if len(sizes) >= 2 {
		head = append(head, "exponent (last two)")
	}
	base, top, haveRatio := r.ratioSizes()
	if haveRatio {
		head = append(head, fmt.Sprintf("%s / %s", report.Num(float64(top.Instrs)), report.Num(float64(base.Instrs))), "same, CPU time")
	}
	t = &report.Table{Head: head, Left: 1}
	major, minor := r.scalingPartsSplit()
	rows := [][]string{{partWhole}}
	for _, part := range major {
		rows = append(rows, []string{part})
	}
	if len(minor) > 0 {
		rows = append(rows, append([]string{minorLabel(len(minor))}, minor...))
	}
	for _, parts := range rows {
		label := parts[0]
		if len(parts) > 1 {
			parts = parts[1:]
		}
		row := []string{label}
		var med []float64
		for _, res := range sizes {
			names := []string{fmt.Sprintf("PipelineScaling/%d", res.Spec.Size)}
			if label != partWhole {
				names = names[:0]
				for _, p := range parts {
					names = append(names, fmt.Sprintf("PipelineScalingPhase/%s/%d", p, res.Spec.Size))
				}
			}
			s := report.Summarize(r.sumValues(names, "ns/instr"))
			row = append(row, s.Cell())
			med = append(med, s.Median)
		}
		if len(sizes) >= 2 {
			n := len(sizes)
			a, c := med[n-2]*float64(sizes[n-2].Instrs), med[n-1]*float64(sizes[n-1].Instrs)
			e := "-"
			if a > 0 && c > 0 {
				e = fmt.Sprintf("%.2f", math.Log(c/a)/math.Log(float64(sizes[n-1].Instrs)/float64(sizes[n-2].Instrs)))
			}
			row = append(row, e)
		}
		if haveRatio {
			var a, c float64
			for k, res := range sizes {
				switch res.Spec.Size {
				case base.Spec.Size:
					a = med[k]
				case top.Spec.Size:
					c = med[k]
				}
			}
			cpu := "-"
			if len(parts) == 1 { // (the whole pipeline's row too: parts is its label)
				cpu = r.cpuRatio(parts[0], base, top)
			}
			row = append(row, ratioCell(a, c), cpu)
		}
		t.Add(row...)
	}
	t.Markdown(b)
	if haveRatio {
		fmt.Fprintf(b, "\nThe last two columns are the time per instruction at the largest size measured in full over that at %s instructions (medians): "+
			"wall time, then the CPU time of the thread that ran the phase (the run measures it with ptxopt.Options.PhaseCPU; it leaves out the collector's "+
			"background work, which the wall time charges to whichever phase is running, and moves less with the machine's load; "+
			"for the whole pipeline, the process's CPU time, the collector's included). "+
			"Issue 17 asks for at most %.1f× for the whole pipeline and for every phase.\n", report.Num(float64(base.Instrs)), ratioTarget)
	}
	if len(minor) > 0 {
		fmt.Fprintf(b, "\nUnder %.1f%% of the pipeline at every size: %s.\n", 100*minorShare, strings.Join(minor, ", "))
	}
	b.WriteString("\n")
}

// scalingPartsSplit splits the scaling parts into those shown one by one
// and the phases under minorShare of the pipeline at every size.
func (r *reportRun) scalingPartsSplit() (major, minor []string) {
	sizes := r.sizesWithSamples()
	for _, part := range r.scalingParts() {
		small := isPhase(part)
		for _, res := range sizes {
			whole := r.raw.Summary(fmt.Sprintf("PipelineScaling/%d", res.Spec.Size), "ns/instr").Median
			if r.raw.Summary(fmt.Sprintf("PipelineScalingPhase/%s/%d", part, res.Spec.Size), "ns/instr").Median >= minorShare*whole {
				small = false
			}
		}
		if small {
			minor = append(minor, part)
		} else {
			major = append(major, part)
		}
	}
	return major, minor
}

// sizesWithSamples lists the sizes with at least one sample.
func (r *reportRun) sizesWithSamples() []pipeline.SizeResult {
	var out []pipeline.SizeResult
	for _, res := range r.scaling.results {
		if len(res.Samples) > 0 {
			out = append(out, res)
		}
	}
	return out
}

// scalingParts lists the split parts of the scaling samples in pipeline
// order.
func (r *reportRun) scalingParts() []string {
	for _, res := range r.sizesWithSamples() {
		var names []string
		for _, p := range splitParts(&res.Samples[0].Split) {
			names = append(names, p.Name)
		}
		return names
	}
	return nil
}

// plotTopParts is how many parts the scaling plot draws beside the
// whole pipeline: with every phase (some forty) the lines could not be
// told apart; the table beside the plot has them all.
const plotTopParts = 6

// plottedParts returns the parts the scaling plot draws: the
// plotTopParts that cost most at the largest size measured, costliest
// first.
func (r *reportRun) plottedParts() []string {
	sizes := r.sizesWithSamples()
	if len(sizes) == 0 {
		return nil
	}
	last := sizes[len(sizes)-1]
	parts := r.scalingParts()
	cost := func(p string) float64 {
		return r.raw.Summary(fmt.Sprintf("PipelineScalingPhase/%s/%d", p, last.Spec.Size), "ns/instr").Median
	}
	sort.SliceStable(parts, func(i, j int) bool { return cost(parts[i]) > cost(parts[j]) })
	return parts[:min(plotTopParts, len(parts))]
}

func (r *reportRun) plotScaling(path string) error {
	sizes := r.sizesWithSamples()
	if len(sizes) == 0 {
		return fmt.Errorf("no size measured")
	}
	whole := report.Series{Name: "whole pipeline"}
	for _, res := range sizes {
		whole.X = append(whole.X, float64(res.Instrs))
		whole.Y = append(whole.Y, r.raw.Summary(fmt.Sprintf("PipelineScaling/%d", res.Spec.Size), "ns/op").Scale(1e-6))
	}
	series := []report.Series{whole}
	for _, p := range r.plottedParts() {
		s := report.Series{Name: p}
		for _, res := range sizes {
			s.X = append(s.X, float64(res.Instrs))
			s.Y = append(s.Y, r.raw.Summary(fmt.Sprintf("PipelineScalingPhase/%s/%d", p, res.Spec.Size), "ns/instr").Scale(float64(res.Instrs)*1e-6))
		}
		series = append(series, s)
	}
	ll := &report.LogLog{
		Title: fmt.Sprintf("ptxopt -O3 on generated kernels: the whole pipeline and its %d costliest parts\n%s",
			len(series)-1, r.machine.Label()),
		XLabel: "instructions", YLabel: fmt.Sprintf("ms per run (median, min–max of %d runs)", r.c.count),
		Series: series, RefLabel: "linear (slope 1)",
	}
	return ll.Save(path)
}

func (r *reportRun) plotMemory(path string) error {
	var s report.Series
	s.Name = "peak resident memory"
	for _, res := range r.sizesWithSamples() {
		var peak []float64
		for _, x := range res.Samples {
			if x.PeakRSS > 0 {
				peak = append(peak, float64(x.PeakRSS)/(1<<20))
			}
		}
		if len(peak) > 0 {
			s.X = append(s.X, float64(res.Instrs))
			s.Y = append(s.Y, report.Summarize(peak))
		}
	}
	if len(s.X) == 0 {
		return fmt.Errorf("no peak memory measured")
	}
	ll := &report.LogLog{Title: "ptxopt -O3 peak memory on generated kernels\n" + r.machine.Label(), XLabel: "instructions",
		YLabel: fmt.Sprintf("MiB above the resident size before a run (median, min–max of %d runs)", r.c.count),
		Series: []report.Series{s}, RefLabel: "linear (slope 1)"}
	return ll.Save(path)
}

// ---- bit vectors

func (r *reportRun) bitvecMarkdown(b *strings.Builder, plots map[string]error) {
	b.WriteString("## Bit-vector kernels\n\n")
	if r.bvErr != nil {
		fmt.Fprintf(b, "Not measured: %v\n\n", r.bvErr)
		return
	}
	fmt.Fprintf(b, "The kernels of package bitvec at every level this machine runs, against the obvious Go loop over []uint32 (naive32), "+
		"the same kernel composed from github.com/bits-and-blooms/bitset (bnb) and a read-only sum over the same bytes (readprobe, "+
		"the load-bandwidth limit), -benchtime %v per benchmark and round (`go run ./cmd/bvreport` prints the same tables).\n\n", r.c.benchtime)
	b.WriteString(plotLink(plots, plotBitvec, "bit-vector kernel bandwidth"))
	b.WriteString("### Targets\n\n")
	r.raw.BVHeadlineTable().Markdown(b)
	if t := r.raw.BVKernelTable(); t != nil {
		fmt.Fprintf(b, "\n### Kernels\n\n%s\n\n", report.BVKernelNote)
		t.Markdown(b)
	}
	if t := r.raw.BVSmallTable(); t != nil {
		fmt.Fprintf(b, "\n### 256 bits\n\n%s\n\n", r.raw.BVSmallNote())
		t.Markdown(b)
	}
	b.WriteString("\n")
}

func (r *reportRun) plotBitvec(path string) error {
	if !r.c.has("bitvec") || r.bvErr != nil {
		return fmt.Errorf("bit vectors not measured")
	}
	const kernel, cas, bits = "OrWithAndNotIfChanged", bench.Changed, report.HeadlineBits
	bars := &report.Bars{Title: fmt.Sprintf("%s, %s, %s bits\n%s", kernel, cas, report.BitsLabel(bits), r.machine.Label()),
		XLabel: fmt.Sprintf("GB/s an ideal kernel moves: median and min–max of %d rounds (readprobe: median)", r.c.count), Ref: math.NaN()}
	for _, impl := range bench.Impls() {
		v := r.raw.Values("Kernels/"+bench.KernelName(kernel, cas, bits, impl), "MB/s")
		if len(v) == 0 {
			continue
		}
		gb := report.Summarize(v).Scale(1e-3)
		if impl == bench.ImplReadProbe {
			bars.Ref, bars.RefLabel = gb.Median, "readprobe: a read-only sum over the same vectors"
			continue
		}
		bars.Labels = append(bars.Labels, impl)
		bars.Values = append(bars.Values, gb)
	}
	return bars.Save(path)
}

// ---- LLVM

// irProducer names the clang that wrote the suite's IR, in words.
func (r *reportRun) irProducer() string {
	if r.llvm.irMajor == 0 {
		return "of a clang that does not name itself"
	}
	return fmt.Sprintf("clang %d's", r.llvm.irMajor)
}

// llvmSpeedRatios returns, per round, LLVM's in-process time (opt + llc)
// over ptxopt's on all kernels.
func (r *reportRun) llvmSpeedRatios() []float64 {
	llvm := r.raw.Values("LLVM/all/opt-O2", "ns/op")
	llc := r.raw.Values("LLVM/all/llc-O2", "ns/op")
	for i := range min(len(llvm), len(llc)) {
		llvm[i] += llc[i]
	}
	return report.Ratios(llvm, r.raw.Values("LLVM/all/ptxopt-O2", "ns/op"))
}

func (r *reportRun) llvmTotals() llvmQuality {
	var q llvmQuality
	for _, x := range r.llvm.quality {
		q.o0.Instrs += x.o0.Instrs
		q.o0.RegsR += x.o0.RegsR
		q.llvm.Instrs += x.llvm.Instrs
		q.llvm.RegsR += x.llvm.RegsR
		q.ptxopt.Instrs += x.ptxopt.Instrs
		q.ptxopt.RegsR += x.ptxopt.RegsR
	}
	return q
}

func (r *reportRun) llvmMarkdown(b *strings.Builder) {
	d := &r.llvm
	b.WriteString("## ptxopt and LLVM\n\n")
	if d.err != nil {
		fmt.Fprintf(b, "Not measured: %v\n\n", d.err)
		return
	}
	if len(d.runs) == 0 {
		b.WriteString("Not measured (interrupted).\n\n")
		return
	}
	fmt.Fprintf(b, "The same %d kernels go two ways from one clang -O0 compile: the -O0 quality suite (`%s`: CUDA kernels of our own, "+
		"compiled by `gen.sh` with clang-16 device-only for sm_80 at -O0; the LLVM IR and the PTX of each compile are checked in). "+
		"LLVM's way: `opt -O2` then `llc -O2 -mcpu=%s` from the IR (optnone and -O0's noinline left off, so opt optimizes it as clang -O2 would). "+
		"ptxopt's way: ptxopt -O2 in-process from the PTX, which is what `llc -O0` prints from that IR. "+
		"LLVM here: %s (`%s`, `%s`, the newest installed; the IR is %s). Rates are -O0 PTX instructions (%s in all) per millisecond. "+
		"LLVM's in-process time is what `-time-passes` reports (pass execution and IR parsing); its wall time is the whole process, "+
		"start-up included, which is what running the tool once per file costs. Each round runs every kernel through both ways, kernel after kernel.\n\n",
		len(d.kernels), r.c.quality, pipeline.LLVMCPU, d.tools.Version, d.tools.Opt, d.tools.Llc, r.irProducer(), report.Num(float64(r.llvmInstrs())))
	total := float64(r.llvmInstrs())
	rate := func(name, unit string) string {
		v := r.raw.Values(name, unit)
		rs := make([]float64, len(v))
		for i, ns := range v {
			rs[i] = total / (ns / 1e6)
		}
		return report.Summarize(rs).Cell()
	}
	t := &report.Table{Head: []string{"tool", "in-process ms, all kernels", "instructions/ms in-process", "wall ms, all kernels", "instructions/ms wall"}, Left: 1}
	t.Add("ptxopt -O2", r.raw.Summary("LLVM/all/ptxopt-O2", "ns/op").Scale(1e-6).Cell(), rate("LLVM/all/ptxopt-O2", "ns/op"), "(in-process)", "")
	for _, tool := range []string{"opt-O2", "llc-O2"} {
		n := "LLVM/all/" + tool
		t.Add(strings.Replace(tool, "-", " -", 1), r.raw.Summary(n, "ns/op").Scale(1e-6).Cell(), rate(n, "ns/op"),
			r.raw.Summary(n, "wall-ns/op").Scale(1e-6).Cell(), rate(n, "wall-ns/op"))
	}
	t.Markdown(b)
	fmt.Fprintf(b, "\nptxopt -O2 against opt -O2 + llc -O2, in-process, per round: %s× faster.\n\n", report.Summarize(r.llvmSpeedRatios()))
	q := r.llvmTotals()
	b.WriteString("What each way prints (instructions and R registers in 32-bit slots, summed over the kernels; the same every round):\n\n")
	t = &report.Table{Head: []string{"", "instructions", "R registers"}, Left: 1}
	t.Add("clang -O0 (ptxopt's input)", report.Num(float64(q.o0.Instrs)), report.Num(float64(q.o0.RegsR)))
	t.Add("opt -O2 + llc -O2", report.Num(float64(q.llvm.Instrs)), report.Num(float64(q.llvm.RegsR)))
	t.Add("clang -O0 + ptxopt -O2", report.Num(float64(q.ptxopt.Instrs)), report.Num(float64(q.ptxopt.RegsR)))
	t.Markdown(b)
	b.WriteString("\n<details><summary>Per kernel</summary>\n\n")
	t = &report.Table{Head: []string{"kernel", "-O0 instrs", "LLVM -O2 instrs", "ptxopt -O2 instrs", "ptxopt ms", "opt ms", "llc ms"}, Left: 1}
	for i, k := range d.kernels {
		pre := "LLVM/" + k.Name + "/"
		qi := d.quality[i]
		t.Add(k.Name, fmt.Sprint(qi.o0.Instrs), fmt.Sprint(qi.llvm.Instrs), fmt.Sprint(qi.ptxopt.Instrs),
			r.raw.Summary(pre+"ptxopt-O2", "ns/op").Scale(1e-6).Cell(), r.raw.Summary(pre+"opt-O2", "ns/op").Scale(1e-6).Cell(),
			r.raw.Summary(pre+"llc-O2", "ns/op").Scale(1e-6).Cell())
	}
	t.Markdown(b)
	b.WriteString("\n</details>\n\n")
}
