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
// code; the tables are those of package bench/report, which
// cmd/benchreport puts in its report. With -count > 1 every benchmark runs
// once per round, round after round, and the tables show medians with
// [min–max], ratios taken per round. -raw writes the measurements in the
// `go test -bench` format, for benchstat.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt/bench"
	"github.com/ptxopt/ptxopt/bench/report"
)

func main() {
	var (
		benchtime = flag.Duration("benchtime", 200*time.Millisecond, "target time per benchmark")
		count     = flag.Int("count", 1, "rounds; tables show the median [min–max]")
		sizes     = flag.String("sizes", "4096,65536", "vector sizes in bits, comma-separated, or all (256,4096,65536,1048576)")
		kernels   = flag.String("kernels", strings.Join(bench.HeadlineKernels, ","), "kernels, comma-separated, or all")
		impls     = flag.String("impls", "", "implementations (levels, naive32, bnb, readprobe), comma-separated; default all available")
		small     = flag.Bool("small", true, "run the 256-bit method-vs-floor check for the selected kernels")
		all       = flag.Bool("all", false, "every kernel, every size, every method (several minutes on 2 cores)")
		in        = flag.String("in", "", "tabulate `go test -bench` output from this file (- for stdin) instead of measuring")
		raw       = flag.String("raw", "", "also write the measurements to this file in the `go test -bench` format")
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

	var rs *report.Set
	header := ""
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
		var err error
		if rs, err = report.Parse(r); err != nil {
			fail(fmt.Errorf("%s: %w", *in, err))
		}
		if rs.BVKernelTable() == nil && rs.BVSmallTable() == nil {
			fail(fmt.Errorf("no BenchmarkKernels or BenchmarkSmall results in %s", *in))
		}
		header = "(from saved output)\n"
		for _, c := range rs.Config {
			header += fmt.Sprintf("%-10s %s\n", c[0]+":", c[1])
		}
		header += "\n"
	} else {
		sel, err := report.BVSelection(*all, *kernels, *sizes, *impls, *small)
		if err != nil {
			fail(err)
		}
		if *list {
			for _, j := range sel {
				fmt.Println(j.Name)
			}
			return
		}
		m := report.ThisMachine()
		fmt.Print(m.Header())
		fmt.Printf("measuring %d benchmarks x %d round(s), -benchtime %v ...\n\n", len(sel), *count, *benchtime)
		rs = &report.Set{}
		m.Config(rs)
		rs.SetConfig("pkg", "github.com/ptxopt/ptxopt/bench")
		progress := func(round int, r report.Result) {
			if *verbose {
				ns, _ := r.Get("ns/op")
				mb, _ := r.Get("MB/s")
				fmt.Fprintf(os.Stderr, "round %d  %-60s %12.2f ns/op %9.2f GB/s\n", round+1, r.Name, ns, mb/1000)
			}
		}
		if err := report.MeasureBV(rs, sel, *count, *benchtime, progress); err != nil {
			fail(err)
		}
		if *raw != "" {
			if err := writeRaw(*raw, rs); err != nil {
				fail(err)
			}
		}
	}
	fmt.Print(header)
	if err := print(os.Stdout, rs); err != nil {
		fail(err)
	}
}

func print(w io.Writer, rs *report.Set) error {
	if t := rs.BVKernelTable(); t != nil {
		fmt.Fprintf(w, "Kernels: %s\n", report.BVKernelNote)
		if err := t.Text(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if t := rs.BVSmallTable(); t != nil {
		fmt.Fprintf(w, "Small: %s\n", rs.BVSmallNote())
		if err := t.Text(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "Headline targets (ratios per round, from this one run)")
	return rs.BVHeadlineTable().Text(w)
}

func writeRaw(path string, rs *report.Set) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := rs.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bvreport:", err)
	os.Exit(2)
}
