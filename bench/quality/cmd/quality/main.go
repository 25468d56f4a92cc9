// Command quality prints the -O0 quality suite's table: per kernel and in
// total, the instructions, .local bytes, max live R/P and calls of the
// clang -O0 input, ptxopt of it, LLVM -O3, and ptxopt of LLVM -O3.
//
//	go run ./bench/quality/cmd/quality [-O3] [--knob Name=Value]... [--disable-phase NAME]...
//
// Run from the module root (or give -dir).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/bench/quality"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	var knobs, disabled list
	dir := flag.String("dir", "", "the suite's directory (default: found from the working directory)")
	level := flag.Int("O", 3, "ptxopt's optimization level")
	flag.Var(&knobs, "knob", "set a knob, Name=Value (repeatable)")
	flag.Var(&disabled, "disable-phase", "don't run a phase or family (repeatable)")
	flag.Parse()
	if *dir == "" {
		d, err := quality.Dir()
		if err != nil {
			fmt.Fprintln(os.Stderr, "quality:", err)
			os.Exit(2)
		}
		*dir = d
	}
	lv, err := ptxopt.LevelOf(*level)
	if err != nil {
		fmt.Fprintln(os.Stderr, "quality:", err)
		os.Exit(2)
	}
	ks, err := quality.Load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "quality:", err)
		os.Exit(2)
	}
	rows, err := quality.Measure(context.Background(), ks, quality.Options{Opt: lv, Knobs: knobs, DisablePhases: disabled})
	if err != nil {
		fmt.Fprintln(os.Stderr, "quality:", err)
		os.Exit(1)
	}
	if err := quality.WriteTable(os.Stdout, rows); err != nil {
		fmt.Fprintln(os.Stderr, "quality:", err)
		os.Exit(1)
	}
}
