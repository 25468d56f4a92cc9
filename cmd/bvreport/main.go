// Command bvreport measures the bitvec kernels in-process against the
// naive Go loop, the bits-and-blooms/bitset library and the read-bandwidth
// probe, and prints the comparison tables (ratios measured in one run).
//
//	go run ./cmd/bvreport                         # headline kernels, 4096 and 65536 bits
//	go run ./cmd/bvreport -all -benchtime 300ms   # every kernel, size and method
//	go run ./cmd/bvreport -kernels Or,PopCount -sizes 256,1048576 -count 3
//	go test ./bench -run '^$' -bench . -count 5 > run.txt
//	go run ./cmd/bvreport -in run.txt             # re-tabulate a saved run
//
// The benchmark bodies are those of package bench (BenchmarkKernels and
// BenchmarkSmall), so the command and `go test -bench` measure the same
// code. With -count > 1 every benchmark runs once per round, round after
// round, and the tables show medians.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/bench"
	"github.com/ptxopt/ptxopt/bitvec"
)

func main() {
	testing.Init() // registers -test.benchtime, which testing.Benchmark reads
	var (
		benchtime = flag.Duration("benchtime", 200*time.Millisecond, "target time per benchmark")
		count     = flag.Int("count", 1, "rounds; tables show the median")
		sizes     = flag.String("sizes", "4096,65536", "vector sizes in bits, comma-separated, or all (256,4096,65536,1048576)")
		kernels   = flag.String("kernels", strings.Join(bench.HeadlineKernels, ","), "kernels, comma-separated, or all")
		impls     = flag.String("impls", "", "implementations (levels, naive32, bnb, readprobe), comma-separated; default all available")
		small     = flag.Bool("small", true, "run the 256-bit method-vs-floor check for the selected kernels")
		all       = flag.Bool("all", false, "every kernel, every size, every method (several minutes on 2 cores)")
		in        = flag.String("in", "", "tabulate `go test -bench` output from this file (- for stdin) instead of measuring")
		list      = flag.Bool("list", false, "print the benchmark names that would run and exit")
		verbose   = flag.Bool("v", false, "print each result as it is measured (stderr)")
	)
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: bvreport [flags]\n\n")
		flag.VisitAll(func(f *flag.Flag) {
			if !strings.HasPrefix(f.Name, "test.") {
				fmt.Fprintf(flag.CommandLine.Output(), "  -%s\t%s (default %q)\n", f.Name, f.Usage, f.DefValue)
			}
		})
	}
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected arguments %q", flag.Args()))
	}

	rs := newResults()
	if *in != "" {
		r := io.Reader(os.Stdin)
		if *in != "-" {
			f, err := os.Open(*in)
			if err != nil {
				fail(err)
			}
			defer f.Close()
			r = f
		}
		if err := rs.parse(r); err != nil {
			fail(err)
		}
		if len(rs.samples) == 0 {
			fail(fmt.Errorf("no BenchmarkKernels or BenchmarkSmall results in %s", *in))
		}
	} else {
		sel, err := selection(*all, *kernels, *sizes, *impls, *small)
		if err != nil {
			fail(err)
		}
		if *list {
			for _, j := range sel {
				fmt.Println(j.name)
			}
			return
		}
		if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
			fail(err)
		}
		rs.header = machineHeader()
		fmt.Print(rs.header)
		fmt.Printf("measuring %d benchmarks x %d round(s), -benchtime %v ...\n\n", len(sel), *count, *benchtime)
		if err := measure(rs, sel, *count, *verbose); err != nil {
			fail(err)
		}
	}
	if *in != "" {
		fmt.Print(rs.header)
	}
	rs.print(os.Stdout)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bvreport:", err)
	os.Exit(2)
}

// job is one benchmark to run: its result name and how to prepare it.
type job struct {
	name string
	make func() (*bench.Body, error)
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

// selection lists the jobs the flags ask for.
func selection(all bool, kernels, sizes, impls string, small bool) ([]job, error) {
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
	var jobs []job
	for _, k := range ks {
		for _, c := range bench.Cases(k) {
			for _, b := range bs {
				for _, i := range is {
					jobs = append(jobs, job{kernelKey(k, c, b, i), func() (*bench.Body, error) {
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
			jobs = append(jobs, job{"Small/" + bench.FloorName(n), func() (*bench.Body, error) { return bench.NewFloorBody(n) }})
		}
	}
	for _, k := range ks {
		for _, c := range bench.Cases(k) {
			for _, l := range bench.Levels() {
				if impls != "" && !slices.Contains(is, l) {
					continue
				}
				jobs = append(jobs, job{"Small/" + bench.SmallName(k, c, l), func() (*bench.Body, error) {
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
				jobs = append(jobs, job{kernelKey(k, c, bench.SmallBits, i), func() (*bench.Body, error) {
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

// measure runs every job count times, round-robin, with testing.Benchmark.
func measure(rs *results, jobs []job, count int, verbose bool) error {
	bodies := make([]*bench.Body, len(jobs))
	for round := range count {
		for i, j := range jobs {
			if bodies[i] == nil {
				b, err := j.make()
				if err != nil {
					return fmt.Errorf("%s: %w", j.name, err)
				}
				bodies[i] = b
			}
			r := testing.Benchmark(bodies[i].Benchmark)
			if r.N == 0 {
				return fmt.Errorf("%s: benchmark failed", j.name)
			}
			ns := float64(r.T.Nanoseconds()) / float64(r.N)
			s := sample{ns: ns}
			if r.Bytes > 0 {
				s.gbps = float64(r.Bytes) / ns
			}
			rs.add(j.name, s)
			if verbose {
				fmt.Fprintf(os.Stderr, "round %d  %-60s %12.2f ns/op %9.2f GB/s\n", round+1, j.name, s.ns, s.gbps)
			}
		}
		if count > 1 && !verbose {
			fmt.Fprintf(os.Stderr, "round %d/%d done\n", round+1, count)
		}
	}
	return nil
}

// machineHeader describes this machine and build.
func machineHeader() string {
	var b strings.Builder
	fmt.Fprintf(&b, "go:        %s %s/%s, GOMAXPROCS %d\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
	if name := cpuName(); name != "" {
		fmt.Fprintf(&b, "cpu:       %s\n", name)
	}
	fmt.Fprintf(&b, "bitvec:    %s\n", bitvec.CPUReport())
	fmt.Fprintf(&b, "levels:    %s (methods use %s", strings.Join(bench.Levels(), ", "), bitvec.Level())
	if err := bitvec.ForcedLevelError(); err != nil {
		fmt.Fprintf(&b, "; %s ignored: %v", bitvec.EnvVar, err)
	}
	fmt.Fprintf(&b, ")\nreadprobe: %s\n", bench.ProbeWidth())
	if la := loadAvg(); la > float64(runtime.NumCPU())/2 {
		fmt.Fprintf(&b, "WARNING:   load average %.2f on %d CPUs: other processes compete, timings are noisy\n", la, runtime.NumCPU())
	}
	b.WriteString("\n")
	return b.String()
}

// loadAvg returns the one-minute load average where /proc has it, else 0.
func loadAvg() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// cpuName returns the processor model from /proc/cpuinfo where there is one.
func cpuName() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
