package report

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/bench"
	"github.com/ptxopt/ptxopt/bitvec"
)

// The bit-vector kernel report: BenchmarkKernels and BenchmarkSmall of
// package bench measured in-process (MeasureBV) or read from `go test
// -bench` output (Parse), tabulated against the naive loop, the
// bits-and-blooms library and the read probe. Result names are those of
// the Go benchmarks without the Benchmark prefix ("Kernels/…",
// "Small/…"), so either source feeds the same tables.

// BVJob is one bit-vector benchmark: its result name and how to prepare it.
type BVJob struct {
	Name string
	Make func() (*bench.Body, error)
}

func splitList(s string) []string {
	var r []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			r = append(r, f)
		}
	}
	return r
}

// BVSelection lists the jobs for comma-separated kernels ("all" for
// every kernel), sizes in bits ("all"), implementations ("" for all
// available) and, when small is set, the 256-bit method-vs-floor check of
// the selected kernels; all selects every kernel and size.
func BVSelection(all bool, kernels, sizes, impls string, small bool) ([]BVJob, error) {
	ks := splitList(kernels)
	if all || kernels == "all" {
		ks = bench.KernelNames
	}
	for _, k := range ks {
		if !slices.Contains(bench.KernelNames, k) {
			return nil, fmt.Errorf("unknown kernel %q (want one of %s)", k, strings.Join(bench.KernelNames, ", "))
		}
	}
	var bs []int
	if all || sizes == "all" {
		bs = bench.Sizes
	} else {
		for _, s := range splitList(sizes) {
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 || n%64 != 0 {
				return nil, fmt.Errorf("bad size %q: want a positive multiple of 64 bits", s)
			}
			bs = append(bs, n)
		}
	}
	is := bench.Impls()
	if impls != "" {
		is = splitList(impls)
		for _, i := range is {
			if !slices.Contains(bench.Impls(), i) {
				return nil, fmt.Errorf("impl %q not available here (have %s)", i, strings.Join(bench.Impls(), ", "))
			}
		}
	}
	var jobs []BVJob
	for _, k := range ks {
		for _, c := range bench.Cases(k) {
			for _, b := range bs {
				for _, i := range is {
					jobs = append(jobs, BVJob{kernelKey(k, c, b, i), func() (*bench.Body, error) {
						return bench.NewKernelBody(k, c, b, i)
					}})
				}
			}
		}
	}
	if !small {
		return jobs, nil
	}
	// The 256-bit check: the methods, their floors, and for context the
	// naive32 and bnb kernels at 256 bits (unless 256 is already selected).
	floors := map[int]bool{}
	for _, k := range ks {
		floors[bench.SmallArity(k)] = true
	}
	for _, n := range bench.FloorArities {
		if floors[n] {
			jobs = append(jobs, BVJob{"Small/" + bench.FloorName(n), func() (*bench.Body, error) { return bench.NewFloorBody(n) }})
		}
	}
	for _, k := range ks {
		for _, c := range bench.Cases(k) {
			for _, l := range bench.Levels() {
				if impls != "" && !slices.Contains(is, l) {
					continue
				}
				jobs = append(jobs, BVJob{"Small/" + bench.SmallName(k, c, l), func() (*bench.Body, error) {
					return bench.NewSmallBody(k, c, l)
				}})
			}
			if slices.Contains(bs, bench.SmallBits) {
				continue
			}
			for _, i := range []string{bench.ImplNaive32, bench.ImplBNB} {
				if impls != "" && !slices.Contains(is, i) {
					continue
				}
				jobs = append(jobs, BVJob{kernelKey(k, c, bench.SmallBits, i), func() (*bench.Body, error) {
					return bench.NewKernelBody(k, c, bench.SmallBits, i)
				}})
			}
		}
	}
	return jobs, nil
}

func kernelKey(k, c string, bits int, impl string) string {
	return "Kernels/" + bench.KernelName(k, c, bits, impl)
}

// MeasureBV runs every job count times, round-robin (so the i-th results
// of all jobs come from one round, measured back to back), with
// testing.Benchmark at the given benchtime, and adds the results to s
// (ns/op, and MB/s where the body counts bytes). progress, when not nil,
// is called after each measurement.
func MeasureBV(s *Set, jobs []BVJob, count int, benchtime time.Duration, progress func(round int, r Result)) error {
	testing.Init() // registers -test.benchtime, which testing.Benchmark reads
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		return err
	}
	bodies := make([]*bench.Body, len(jobs))
	for round := range count {
		for i, j := range jobs {
			if bodies[i] == nil {
				b, err := j.Make()
				if err != nil {
					return fmt.Errorf("%s: %w", j.Name, err)
				}
				bodies[i] = b
			}
			r := testing.Benchmark(bodies[i].Benchmark)
			if r.N == 0 {
				return fmt.Errorf("%s: benchmark failed", j.Name)
			}
			ns := float64(r.T.Nanoseconds()) / float64(r.N)
			res := Result{Name: j.Name, N: r.N, Metrics: []Metric{{ns, "ns/op"}}}
			if r.Bytes > 0 {
				res.Metrics = append(res.Metrics, Metric{float64(r.Bytes) / ns * 1000, "MB/s"})
			}
			s.Results = append(s.Results, res)
			if progress != nil {
				progress(round, res)
			}
		}
	}
	return nil
}

// bvFig is one implementation's figures in a group: ns/op and GB/s per
// round.
type bvFig struct{ ns, gbps []float64 }

func (f bvFig) nsSum() Summary   { return Summarize(f.ns) }
func (f bvFig) gbpsSum() Summary { return Summarize(f.gbps) }

// ratio summarizes ref/this per round: how many times faster this is.
func (f bvFig) ratio(ref bvFig) Summary { return Summarize(Ratios(ref.ns, f.ns)) }

func (s *Set) bvFig(name string) (bvFig, bool) {
	ns := s.Values(name, "ns/op")
	if len(ns) == 0 {
		return bvFig{}, false
	}
	f := bvFig{ns: ns}
	for _, mb := range s.Values(name, "MB/s") {
		f.gbps = append(f.gbps, mb/1000)
	}
	return f, true
}

// implRank orders implementations: the levels slowest first, then the
// references.
func implRank(impl string) int {
	if l, err := bitvec.ParseImpl(impl); err == nil {
		return int(l)
	}
	switch impl {
	case bench.ImplNaive32:
		return 100
	case bench.ImplBNB:
		return 101
	case bench.ImplReadProbe:
		return 102
	}
	return 200
}

func kernelRank(k string) int {
	if i := slices.Index(bench.KernelNames, k); i >= 0 {
		return i
	}
	return len(bench.KernelNames)
}

type bvGroup struct {
	kernel, cas string
	bits        int
}

// bvGroups collects the Kernels results by (kernel, case, bits), each
// with its figures by impl.
func (s *Set) bvGroups() ([]bvGroup, map[bvGroup]map[string]bvFig) {
	groups := map[bvGroup]map[string]bvFig{}
	for _, name := range s.Names() {
		f := strings.Split(name, "/")
		if len(f) != 5 || f[0] != "Kernels" {
			continue
		}
		bits, err := strconv.Atoi(f[3])
		if err != nil {
			continue
		}
		k := bvGroup{f[1], f[2], bits}
		if groups[k] == nil {
			groups[k] = map[string]bvFig{}
		}
		groups[k][f[4]], _ = s.bvFig(name)
	}
	var keys []bvGroup
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.kernel != b.kernel {
			return kernelRank(a.kernel) < kernelRank(b.kernel) || (kernelRank(a.kernel) == kernelRank(b.kernel) && a.kernel < b.kernel)
		}
		if a.cas != b.cas {
			return a.cas == bench.Changed
		}
		return a.bits < b.bits
	})
	return keys, groups
}

// bestLevel returns the fastest bitvec level (by median) in a group.
func bestLevel(g map[string]bvFig) (string, bvFig, bool) {
	best, bf, ok := "", bvFig{}, false
	for impl, f := range g {
		if !bench.IsLevel(impl) {
			continue
		}
		m, bm := f.nsSum().Median, bf.nsSum().Median
		if !ok || m < bm || (m == bm && implRank(impl) > implRank(best)) {
			best, bf, ok = impl, f, true
		}
	}
	return best, bf, ok
}

// BitsLabel writes a size in bits as 256, 4Ki, 1Mi.
func BitsLabel(b int) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return strconv.Itoa(b>>20) + "Mi"
	case b >= 1<<10 && b%(1<<10) == 0:
		return strconv.Itoa(b>>10) + "Ki"
	}
	return strconv.Itoa(b)
}

// minProbeBits is the smallest size the probe column is shown for: below
// it both the kernel and the probe are call-bound and the ratio says
// nothing about bandwidth.
const minProbeBits = 2048

// BVKernelNote explains the columns of BVKernelTable.
const BVKernelNote = "ns per call; GB/s = bytes an ideal scan-first kernel moves (reads + writes) / time; " +
	"×REF = REF time / this time, per round (higher is faster); %probe = GB/s / readprobe GB/s (from 2Ki bits); * = fastest level. " +
	"Cells: median [min–max] over the rounds."

// BVKernelTable tabulates the Kernels results, nil when there are none.
func (s *Set) BVKernelTable() *Table {
	keys, groups := s.bvGroups()
	if len(keys) == 0 {
		return nil
	}
	t := &Table{Head: []string{"kernel", "case", "bits", "impl", "ns/op", "GB/s", "×generic", "×naive32", "×bnb", "%probe"}, Left: 4}
	for _, k := range keys {
		g := groups[k]
		impls := make([]string, 0, len(g))
		for i := range g {
			impls = append(impls, i)
		}
		sort.Slice(impls, func(i, j int) bool { return implRank(impls[i]) < implRank(impls[j]) })
		best, _, _ := bestLevel(g)
		ratio := func(f bvFig, ref string) string {
			r, ok := g[ref]
			if !ok {
				return "-"
			}
			return f.ratio(r).Cell() + "×"
		}
		for n, impl := range impls {
			f := g[impl]
			kernel, cas, bits := "", "", ""
			if n == 0 {
				kernel, cas, bits = k.kernel, k.cas, BitsLabel(k.bits)
			}
			name := impl
			if impl == best {
				name += "*"
			}
			pct := "-"
			if p, ok := g[bench.ImplReadProbe]; ok && impl != bench.ImplReadProbe && k.bits >= minProbeBits && len(p.gbps) > 0 {
				pct = Summarize(Ratios(f.gbps, p.gbps)).Scale(100).Cell() + "%"
			}
			rg, rn, rb := ratio(f, "generic"), ratio(f, bench.ImplNaive32), ratio(f, bench.ImplBNB)
			if impl == bench.ImplReadProbe {
				rg, rn, rb = "", "", ""
			}
			t.Add(kernel, cas, bits, name, f.nsSum().Cell(), f.gbpsSum().Cell(), rg, rn, rb, pct)
		}
	}
	return t
}

// bvSmallRow is one BenchmarkSmall method result.
type bvSmallRow struct{ method, cas, level string }

func (s *Set) bvSmallRows() []bvSmallRow {
	var rows []bvSmallRow
	for _, name := range s.Names() {
		f := strings.Split(name, "/")
		if len(f) == 4 && f[0] == "Small" && f[1] != bench.ImplFloor {
			rows = append(rows, bvSmallRow{f[1], f[2], f[3]})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.method != b.method {
			return kernelRank(a.method) < kernelRank(b.method)
		}
		if a.cas != b.cas {
			return a.cas == bench.Changed
		}
		return implRank(a.level) < implRank(b.level)
	})
	return rows
}

// BVSmallNote returns the lines above BVSmallTable: the floors measured.
func (s *Set) BVSmallNote() string {
	var floors []string
	for _, n := range bench.FloorArities {
		if f, ok := s.bvFig("Small/" + bench.FloorName(n)); ok {
			floors = append(floors, fmt.Sprintf("%s %s ns", bench.FloorName(n), f.nsSum().Cell()))
		}
	}
	return fmt.Sprintf("BitVector methods at %d bits against the empty call with the same arguments (target ≤ 2× floor); "+
		"floors: %s; naive32 / bnb: the reference kernels at 256 bits (called through a func value), for context.",
		bench.SmallBits, strings.Join(floors, ", "))
}

// BVSmallTable tabulates the Small results, nil when there are none.
func (s *Set) BVSmallTable() *Table {
	rows := s.bvSmallRows()
	if len(rows) == 0 {
		return nil
	}
	t := &Table{Head: []string{"method", "case", "level", "ns/op", "floor ns", "×floor", "naive32 ns", "bnb ns"}, Left: 3}
	for _, r := range rows {
		f, _ := s.bvFig("Small/" + bench.SmallName(r.method, r.cas, r.level))
		fl, okF := s.bvFig("Small/" + bench.FloorName(bench.SmallArity(r.method)))
		floorNs, xf := "-", "-"
		if okF {
			floorNs = fl.nsSum().Cell()
			xf = Summarize(Ratios(f.ns, fl.ns)).Cell() + "×"
		}
		ctx := func(impl string) string {
			if c, ok := s.bvFig(kernelKey(r.method, r.cas, bench.SmallBits, impl)); ok {
				return c.nsSum().Cell()
			}
			return "-"
		}
		t.Add(r.method, r.cas, r.level, f.nsSum().Cell(), floorNs, xf, ctx(bench.ImplNaive32), ctx(bench.ImplBNB))
	}
	return t
}

// HeadlineBits is the size the bit-vector headline targets are stated at.
const HeadlineBits = 65536

// BVLine is one headline figure of the bit-vector report.
type BVLine struct {
	What   string
	Value  Summary // NaN figures when not measured
	Target float64
	AtMost bool   // the target is an upper bound
	Unit   string // "×" or "%"
	Detail string
}

// Verdict is "ok", "MISS" or "not measured" (against the median).
func (l BVLine) Verdict() string {
	if !l.Value.OK() {
		return "not measured"
	}
	pass := l.Value.Median >= l.Target
	if l.AtMost {
		pass = l.Value.Median <= l.Target
	}
	if pass {
		return "ok"
	}
	return "MISS"
}

// BVHeadline returns the headline figures: the fused kernel against the
// naive loop and bits-and-blooms, its share of the read probe's
// bandwidth, and the 256-bit methods against the empty call, each with
// its target. Ratios are per round.
func (s *Set) BVHeadline() []BVLine {
	_, groups := s.bvGroups()
	var lines []BVLine
	speedup := func(kernel, cas, ref string, target float64) {
		l := BVLine{What: fmt.Sprintf("%s %s %s: best level vs %s", kernel, cas, BitsLabel(HeadlineBits), ref), Target: target, Unit: "×"}
		l.Value = Summarize(nil)
		g := groups[bvGroup{kernel, cas, HeadlineBits}]
		if best, bf, ok := bestLevel(g); ok {
			if r, ok := g[ref]; ok {
				l.Value = bf.ratio(r)
				l.Detail = fmt.Sprintf("%s %s ns vs %s ns", best, Num(bf.nsSum().Median), Num(r.nsSum().Median))
			}
		}
		lines = append(lines, l)
	}
	speedup("OrWithAndNotIfChanged", bench.Changed, bench.ImplNaive32, 6)
	speedup("OrWithAndNotIfChanged", bench.Changed, bench.ImplBNB, 4)
	speedup("OrWithAndNotIfChanged", bench.Converged, bench.ImplNaive32, 8)
	speedup("OrIfChanged", bench.Converged, bench.ImplNaive32, 10)
	for _, cas := range []string{bench.Changed, bench.Converged} {
		l := BVLine{What: fmt.Sprintf("OrWithAndNotIfChanged %s %s: %% of readprobe GB/s", cas, BitsLabel(HeadlineBits)), Target: 70, Unit: "%"}
		l.Value = Summarize(nil)
		g := groups[bvGroup{"OrWithAndNotIfChanged", cas, HeadlineBits}]
		if best, bf, ok := bestLevel(g); ok {
			if p, ok := g[bench.ImplReadProbe]; ok && len(p.gbps) > 0 {
				l.Value = Summarize(Ratios(bf.gbps, p.gbps)).Scale(100)
				l.Detail = fmt.Sprintf("%s %s GB/s vs probe %s GB/s", best, Num(bf.gbpsSum().Median), Num(p.gbpsSum().Median))
			}
		}
		lines = append(lines, l)
	}
	// 256 bits: the methods at the level they would use (the fastest
	// measured, which is what dispatch picks).
	rows := s.bvSmallRows()
	for _, m := range bench.HeadlineKernels {
		for _, cas := range bench.Cases(m) {
			l := BVLine{What: fmt.Sprintf("%s %s 256 bits: method vs empty call", m, cas), Target: 2, AtMost: true, Unit: "×"}
			l.Value = Summarize(nil)
			fl, okF := s.bvFig("Small/" + bench.FloorName(bench.SmallArity(m)))
			lvl := ""
			for _, r := range rows {
				if r.method == m && r.cas == cas && (lvl == "" || implRank(r.level) > implRank(lvl)) {
					lvl = r.level
				}
			}
			if f, ok := s.bvFig("Small/" + bench.SmallName(m, cas, lvl)); ok && okF {
				l.Value = Summarize(Ratios(f.ns, fl.ns))
				l.Detail = fmt.Sprintf("%s %s ns vs floor %s ns", lvl, Num(f.nsSum().Median), Num(fl.nsSum().Median))
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// BVHeadlineTable tabulates BVHeadline.
func (s *Set) BVHeadlineTable() *Table {
	t := &Table{Head: []string{"figure", "measured", "target", "verdict", "detail"}, Left: 5}
	for _, l := range s.BVHeadline() {
		cmp := "≥"
		if l.AtMost {
			cmp = "≤"
		}
		got := "n/a"
		if l.Value.OK() {
			got = l.Value.Cell() + l.Unit
		}
		t.Add(l.What, got, fmt.Sprintf("%s %g%s", cmp, l.Target, l.Unit), l.Verdict(), l.Detail)
	}
	return t
}
