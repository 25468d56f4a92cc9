// Command phasestats optimizes PTX files and tabulates, per phase of the
// pipeline, the instructions the phase removed and added, summed over
// every function of every file (from the per-phase instruction counts of
// the report: a phase's change is its count minus the previous phase's;
// SSA's PHIs and CSSA's copies count as instructions while they exist).
//
//	go run ./cmd/phasestats [-O 3] [-disable PHASE,...] FILE|DIR...
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ptxopt/ptxopt"
)

type row struct {
	name             string
	removed, added   int
	funcsChanged     int
	counterTotals    map[string]int64
	counterNamesSeen []string
}

func main() {
	opt := flag.Int("O", 3, "optimization level")
	disable := flag.String("disable", "", "phases or families not to run (comma-separated)")
	counters := flag.Bool("counters", false, "also list each phase's counters, summed")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: phasestats [-O N] [-disable PHASES] [-counters] FILE|DIR...")
		os.Exit(2)
	}
	level, err := ptxopt.LevelOf(*opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "phasestats: -O:", err)
		os.Exit(2)
	}
	opts := ptxopt.Options{Opt: level, Measure: ptxopt.MeasureCounts}
	if *disable != "" {
		opts.DisablePhases = strings.Split(*disable, ",")
	}
	p, err := ptxopt.NewPipeline(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "phasestats:", err)
		os.Exit(2)
	}
	var files []string
	for _, a := range flag.Args() {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			m, _ := filepath.Glob(filepath.Join(a, "*.ptx"))
			files = append(files, m...)
		} else {
			files = append(files, a)
		}
	}
	var order []string
	rows := map[string]*row{}
	in, out, nfiles, nfuncs := 0, 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "phasestats:", err)
			continue
		}
		_, rep, err := p.Optimize(context.Background(), path, src)
		if err != nil {
			fmt.Fprintf(os.Stderr, "phasestats: %s: %v (skipped)\n", path, err)
			continue
		}
		nfiles++
		for _, fr := range rep.Functions {
			if len(fr.Phases) == 0 {
				continue
			}
			nfuncs++
			in += fr.InstrsIn
			out += fr.InstrsOut
			prev := fr.InstrsIn
			for _, ph := range fr.Phases {
				r := rows[ph.Name]
				if r == nil {
					r = &row{name: ph.Name, counterTotals: map[string]int64{}}
					rows[ph.Name] = r
					order = append(order, ph.Name)
				}
				d := ph.Instrs - prev
				switch {
				case d < 0:
					r.removed -= d
				case d > 0:
					r.added += d
				}
				if d != 0 {
					r.funcsChanged++
				}
				for _, c := range ph.Counters {
					if _, ok := r.counterTotals[c.Name]; !ok {
						r.counterNamesSeen = append(r.counterNamesSeen, c.Name)
					}
					r.counterTotals[c.Name] += c.N
				}
				prev = ph.Instrs
			}
		}
	}
	fmt.Printf("%d files, %d functions at -O%d: %d instructions in, %d out (%.4fx)\n\n", nfiles, nfuncs, *opt, in, out, float64(out)/float64(max(in, 1)))
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\tremoved\tadded\tnet\tfunctions changed\t")
	for _, name := range order {
		r := rows[name]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", r.name, r.removed, r.added, r.added-r.removed, r.funcsChanged)
	}
	tw.Flush()
	if *counters {
		fmt.Println()
		for _, name := range order {
			r := rows[name]
			for _, c := range r.counterNamesSeen {
				fmt.Printf("%s: %s: %d\n", name, c, r.counterTotals[c])
			}
		}
	}
}
