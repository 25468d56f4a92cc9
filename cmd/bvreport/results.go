package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ptxopt/ptxopt/bench"
	"github.com/ptxopt/ptxopt/bitvec"
)

// sample is one measurement: time per call and the kernel's ideal bytes
// per nanosecond (GB/s; 0 when the benchmark sets no bytes).
type sample struct{ ns, gbps float64 }

// results holds the samples by name ("Kernels/..." or "Small/...", the
// benchmark name without the Benchmark prefix and the -GOMAXPROCS suffix).
type results struct {
	header  string
	samples map[string][]sample
}

func newResults() *results { return &results{samples: map[string][]sample{}} }

func (rs *results) add(name string, s sample) { rs.samples[name] = append(rs.samples[name], s) }

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// get returns the median sample of a name.
func (rs *results) get(name string) (sample, bool) {
	ss := rs.samples[name]
	if len(ss) == 0 {
		return sample{}, false
	}
	var ns, gb []float64
	for _, s := range ss {
		ns = append(ns, s.ns)
		gb = append(gb, s.gbps)
	}
	return sample{median(ns), median(gb)}, true
}

var benchLine = regexp.MustCompile(`^Benchmark((?:Kernels|Small)/\S+?)(?:-\d+)?\s+\d+\s+([0-9.eE+-]+) ns/op(.*)$`)
var mbLine = regexp.MustCompile(`([0-9.eE+-]+) MB/s`)

// parse reads `go test -bench` output (several -count runs are fine; other
// packages' lines are skipped).
func (rs *results) parse(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var hdr strings.Builder
	seen := map[string]bool{}
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		for _, p := range []string{"goos:", "goarch:", "pkg:", "cpu:"} {
			if strings.HasPrefix(line, p) && !seen[line] {
				seen[line] = true
				k, v, _ := strings.Cut(line, ":")
				fmt.Fprintf(&hdr, "%-10s %s\n", k+":", strings.TrimSpace(v))
			}
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return fmt.Errorf("bad ns/op in %q", line)
		}
		s := sample{ns: ns}
		if mb := mbLine.FindStringSubmatch(m[3]); mb != nil {
			v, err := strconv.ParseFloat(mb[1], 64)
			if err != nil {
				return fmt.Errorf("bad MB/s in %q", line)
			}
			s.gbps = v / 1000
		}
		rs.add(m[1], s)
	}
	rs.header = "(from saved output)\n" + hdr.String() + "\n"
	return sc.Err()
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

type groupKey struct {
	kernel, cas string
	bits        int
}

// kernelGroups collects the Kernels results by (kernel, case, bits), each
// with its samples by impl.
func (rs *results) kernelGroups() ([]groupKey, map[groupKey]map[string]sample) {
	groups := map[groupKey]map[string]sample{}
	for name := range rs.samples {
		f := strings.Split(name, "/")
		if len(f) != 5 || f[0] != "Kernels" {
			continue
		}
		bits, err := strconv.Atoi(f[3])
		if err != nil {
			continue
		}
		k := groupKey{f[1], f[2], bits}
		if groups[k] == nil {
			groups[k] = map[string]sample{}
		}
		groups[k][f[4]], _ = rs.get(name)
	}
	var keys []groupKey
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

// bestLevel returns the fastest bitvec level in a group.
func bestLevel(g map[string]sample) (string, sample, bool) {
	best, bs, ok := "", sample{}, false
	for impl, s := range g {
		if bench.IsLevel(impl) && (!ok || s.ns < bs.ns || (s.ns == bs.ns && implRank(impl) > implRank(best))) {
			best, bs, ok = impl, s, true
		}
	}
	return best, bs, ok
}

func ratio(ref, x sample, ok bool) string {
	if !ok || x.ns == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", ref.ns/x.ns)
}

func bitsLabel(b int) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return strconv.Itoa(b>>20) + "Mi"
	case b >= 1<<10 && b%(1<<10) == 0:
		return strconv.Itoa(b>>10) + "Ki"
	}
	return strconv.Itoa(b)
}

func (rs *results) print(w io.Writer) {
	rs.printKernels(w)
	rs.printSmall(w)
	rs.printHeadline(w)
}

// minProbeBits is the smallest size the probe column is shown for: below
// it both the kernel and the probe are call-bound and the ratio says
// nothing about bandwidth.
const minProbeBits = 2048

func (rs *results) printKernels(w io.Writer) {
	keys, groups := rs.kernelGroups()
	if len(keys) == 0 {
		return
	}
	io.WriteString(w, "Kernels: ns per call; GB/s = bytes an ideal scan-first kernel moves (reads + writes) / time (%probe from 2Ki bits);\n")
	io.WriteString(w, "xREF = REF time / this time (higher is faster); %probe = GB/s / readprobe GB/s; * = fastest level\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	io.WriteString(tw, "kernel\tcase\tbits\timpl\tns/op\tGB/s\txgeneric\txnaive32\txbnb\t%probe\t\n")
	for _, k := range keys {
		g := groups[k]
		impls := make([]string, 0, len(g))
		for i := range g {
			impls = append(impls, i)
		}
		sort.Slice(impls, func(i, j int) bool { return implRank(impls[i]) < implRank(impls[j]) })
		best, _, _ := bestLevel(g)
		gen, okGen := g["generic"]
		nai, okNai := g[bench.ImplNaive32]
		bnb, okBnb := g[bench.ImplBNB]
		probe, okProbe := g[bench.ImplReadProbe]
		for n, impl := range impls {
			s := g[impl]
			kernel, cas, bits := "", "", ""
			if n == 0 {
				kernel, cas, bits = k.kernel, k.cas, bitsLabel(k.bits)
			}
			name := impl
			if impl == best {
				name += "*"
			}
			pct := "-"
			if okProbe && probe.gbps > 0 && impl != bench.ImplReadProbe && k.bits >= minProbeBits {
				pct = fmt.Sprintf("%.0f%%", 100*s.gbps/probe.gbps)
			}
			rg, rn, rb := ratio(gen, s, okGen), ratio(nai, s, okNai), ratio(bnb, s, okBnb)
			if impl == bench.ImplReadProbe {
				rg, rn, rb = "", "", ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f\t%.1f\t%s\t%s\t%s\t%s\t\n",
				kernel, cas, bits, name, s.ns, s.gbps, rg, rn, rb, pct)
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
}

// smallRow is one BenchmarkSmall method result.
type smallRow struct{ method, cas, level string }

func (rs *results) smallRows() []smallRow {
	var rows []smallRow
	for name := range rs.samples {
		f := strings.Split(name, "/")
		if len(f) == 4 && f[0] == "Small" && f[1] != bench.ImplFloor {
			rows = append(rows, smallRow{f[1], f[2], f[3]})
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

func (rs *results) printSmall(w io.Writer) {
	rows := rs.smallRows()
	var floors []string
	for _, n := range bench.FloorArities {
		if s, ok := rs.get("Small/" + bench.FloorName(n)); ok {
			floors = append(floors, fmt.Sprintf("%s %.2f ns", bench.FloorName(n), s.ns))
		}
	}
	if len(rows) == 0 && len(floors) == 0 {
		return
	}
	fmt.Fprintf(w, "Small: BitVector methods at %d bits against the empty call with the same arguments (target <= 2x floor)\n", bench.SmallBits)
	fmt.Fprintf(w, "floors: %s\n", strings.Join(floors, ", "))
	fmt.Fprintln(w, "naive32 / bnb: the reference kernels at 256 bits (BenchmarkKernels, called through a func value), for context")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tcase\tlevel\tns/op\tfloor ns\txfloor\tnaive32 ns\tbnb ns\t")
	for _, r := range rows {
		s, _ := rs.get("Small/" + bench.SmallName(r.method, r.cas, r.level))
		fl, okF := rs.get("Small/" + bench.FloorName(bench.SmallArity(r.method)))
		floorNs, xf := "-", "-"
		if okF {
			floorNs, xf = fmt.Sprintf("%.2f", fl.ns), fmt.Sprintf("%.2fx", s.ns/fl.ns)
		}
		ctx := func(impl string) string {
			if c, ok := rs.get(kernelKey(r.method, r.cas, bench.SmallBits, impl)); ok {
				return fmt.Sprintf("%.2f", c.ns)
			}
			return "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t\n", r.method, r.cas, r.level, s.ns, floorNs, xf,
			ctx(bench.ImplNaive32), ctx(bench.ImplBNB))
	}
	tw.Flush()
	fmt.Fprintln(w)
}

// headlineBits is the size the headline targets are stated at.
const headlineBits = 65536

func (rs *results) printHeadline(w io.Writer) {
	_, groups := rs.kernelGroups()
	type line struct {
		what, got string
		val       float64 // NaN when not measured
		target    float64
		atMost    bool
	}
	var lines []line
	speedup := func(kernel, cas, ref string, target float64) {
		l := line{what: fmt.Sprintf("%s %s %s: best level vs %s", kernel, cas, bitsLabel(headlineBits), ref), val: math.NaN(), target: target}
		g := groups[groupKey{kernel, cas, headlineBits}]
		if best, bs, ok := bestLevel(g); ok {
			if r, ok := g[ref]; ok {
				l.val = r.ns / bs.ns
				l.got = fmt.Sprintf("%s %.1f ns vs %.1f ns", best, bs.ns, r.ns)
			}
		}
		lines = append(lines, l)
	}
	speedup("OrWithAndNotIfChanged", bench.Changed, bench.ImplNaive32, 6)
	speedup("OrWithAndNotIfChanged", bench.Changed, bench.ImplBNB, 4)
	speedup("OrWithAndNotIfChanged", bench.Converged, bench.ImplNaive32, 8)
	speedup("OrIfChanged", bench.Converged, bench.ImplNaive32, 10)
	for _, cas := range []string{bench.Changed, bench.Converged} {
		l := line{what: fmt.Sprintf("OrWithAndNotIfChanged %s %s: %% of readprobe GB/s", cas, bitsLabel(headlineBits)), val: math.NaN(), target: 70}
		g := groups[groupKey{"OrWithAndNotIfChanged", cas, headlineBits}]
		if best, bs, ok := bestLevel(g); ok {
			if p, ok := g[bench.ImplReadProbe]; ok && p.gbps > 0 {
				l.val = 100 * bs.gbps / p.gbps
				l.got = fmt.Sprintf("%s %.0f GB/s vs probe %.0f GB/s", best, bs.gbps, p.gbps)
			}
		}
		lines = append(lines, l)
	}
	// 256 bits: the methods at the level they would use (the fastest
	// measured, which is what dispatch picks).
	for _, m := range bench.HeadlineKernels {
		for _, cas := range bench.Cases(m) {
			l := line{what: fmt.Sprintf("%s %s 256 bits: method vs empty call", m, cas), val: math.NaN(), target: 2, atMost: true}
			fl, okF := rs.get("Small/" + bench.FloorName(bench.SmallArity(m)))
			lvl := ""
			for _, r := range rs.smallRows() {
				if r.method == m && r.cas == cas && (lvl == "" || implRank(r.level) > implRank(lvl)) {
					lvl = r.level
				}
			}
			if s, ok := rs.get("Small/" + bench.SmallName(m, cas, lvl)); ok && okF {
				l.val = s.ns / fl.ns
				l.got = fmt.Sprintf("%s %.2f ns vs floor %.2f ns", lvl, s.ns, fl.ns)
			}
			lines = append(lines, l)
		}
	}
	fmt.Fprintln(w, "Headline targets (ratios from this one run)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tmeasured\ttarget\tverdict\tdetail")
	for _, l := range lines {
		unit, cmp := "x", ">="
		if strings.Contains(l.what, "%") {
			unit = "%"
		}
		if l.atMost {
			cmp = "<="
		}
		got, verdict := "n/a", "not measured"
		if !math.IsNaN(l.val) {
			if unit == "%" {
				got = fmt.Sprintf("%.0f%%", l.val)
			} else {
				got = fmt.Sprintf("%.2fx", l.val)
			}
			pass := l.val >= l.target
			if l.atMost {
				pass = l.val <= l.target
			}
			verdict = "MISS"
			if pass {
				verdict = "ok"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s %g%s\t%s\t%s\n", l.what, got, cmp, l.target, unit, verdict, l.got)
	}
	tw.Flush()
}
