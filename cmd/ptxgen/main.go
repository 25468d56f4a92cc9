// Command ptxgen prints a random, reproducible PTX kernel from package gen:
// the workloads of the scaling benchmarks, as files anyone can feed to
// ptxopt (or ptxas).
//
//	ptxgen -size 100000 -seed 1 > k.ptx
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

func main() {
	size := flag.Int("size", 1000, "target number of instructions")
	seed := flag.Int64("seed", 1, "random seed")
	depth := flag.Int("depth", 3, "maximum nesting of loops and branches")
	pool := flag.Int("pool", 0, "bound on the values kept readable (0: all, so live values grow with -size)")
	frames := flag.Bool("frames", false, "give the kernel a .local frame reached through generic pointers, as -O0 compilers do")
	fold := flag.Bool("fold", false, "add what GeneralOptimize folds: float constants and conversions, constant predicates, compare-and-pick selects, equal guarded chains")
	inject := flag.String("inject", "", "inject redundancy on purpose: all, or kinds separated by commas (Reassoc, Dominated, Diamond, JoinRecompute, MovChain)")
	flag.Parse()
	kinds, err := gen.ParseKinds(*inject)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptxgen:", err)
		os.Exit(2)
	}
	if flag.NArg() != 0 || *size < 1 || *depth < 1 || *pool < 0 {
		fmt.Fprintln(os.Stderr, "usage: ptxgen [-size N] [-seed S] [-depth D] [-pool P] [-frames] [-fold] [-inject KINDS] > out.ptx")
		os.Exit(2)
	}
	m := gen.Kernel(gen.Config{Seed: *seed, Size: *size, MaxDepth: *depth, Pool: *pool, Frames: *frames, Inject: kinds, Fold: *fold})
	if _, err := os.Stdout.Write(ptx.Format(m)); err != nil {
		fmt.Fprintln(os.Stderr, "ptxgen:", err)
		os.Exit(1)
	}
}
