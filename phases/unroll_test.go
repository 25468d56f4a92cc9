package phases

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// TestOriUnrollLoopsGenerated: the phase alone and the whole pipeline on
// generated kernels with constant loops over .local arrays, in clang
// -O0's shape and LLVM's (gen.Config.ConstLoops), some with frames too.
// The unrolled copies of clang's "in[row*8 + k]" share one address chain
// through GeneralOptimize's reuse rules in the whole pipeline (checked by
// the gate above on the same kernels): they must fire.
func TestOriUnrollLoopsGenerated(t *testing.T) {
	cfg := func(n int64) gen.Config {
		return gen.Config{Seed: 9700 + n, Size: 120 + int(n%5)*60, ConstLoops: true, Frames: n%4 == 0}
	}
	checkGeneratedWith(t, "OriUnrollLoops", "loops unrolled", cfg)
	target, _ := ParseTarget("sm_80")
	all, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	reuse := int64(0)
	for n := range int64(10) {
		stats, err := Run(context.Background(), all, nil, gen.Func(gen.Kernel(cfg(n))), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []string{"ReuseSext", "ReuseShl", "ReuseAdd"} {
			reuse += counter(stats, "rule "+r)
		}
	}
	if reuse == 0 {
		t.Error("the reuse rules never fired on the unrolled generated kernels")
	}
}

// TestOriUnrollLoopsPromotes: on generated kernels, what the unrolling is
// for happens — a constant loop's array (gen_cl<N>), indexed by the
// counter, is gone after the whole pipeline wherever its loop was
// unrolled, and with the phase off every such array stays.
func TestOriUnrollLoopsPromotes(t *testing.T) {
	target, _ := ParseTarget("sm_80")
	on, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	off, err := NewConfig(MaxOpt, target, nil, []string{"OriUnrollLoops"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	arrays := func(f *ir.Func) int {
		n := 0
		for _, s := range f.Locals {
			if strings.HasPrefix(f.Str(f.Mod.Syms[s].Name), "gen_cl") {
				n++
			}
		}
		return n
	}
	n := int64(30)
	if testing.Short() {
		n = 10
	}
	gone := 0
	for seed := range n {
		f := gen.Func(gen.Kernel(gen.Config{Seed: 9800 + seed, Size: 150, ConstLoops: true}))
		in := arrays(f)
		a, b := f.Clone(), f.Clone()
		stats, err := Run(context.Background(), on, nil, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), off, nil, b, nil); err != nil {
			t.Fatal(err)
		}
		if arrays(b) != in {
			t.Errorf("seed %d: without OriUnrollLoops %d of %d constant loops' arrays went", seed, in-arrays(b), in)
		}
		unrolled := phaseCounter(stats, "OriUnrollLoops", "loops unrolled")
		if unrolled > 0 && arrays(a) == in {
			t.Errorf("seed %d: %d loops unrolled, none of the %d arrays promoted", seed, unrolled, in)
		}
		gone += in - arrays(a)
	}
	if gone == 0 {
		t.Fatalf("no constant loop's array promoted in %d kernels", n)
	}
	t.Logf("%d arrays promoted over %d kernels", gone, n)
}

// TestOriUnrollLoopsVerify runs -O3 with the verifier after every phase
// on the -O0 quality suite and the corpus, and checks in the simulator
// every kernel in which OriUnrollLoops unrolled a loop; the suite has
// such kernels (poly_eval, small_matvec), so the phase must fire.
func TestOriUnrollLoopsVerify(t *testing.T) {
	skipUnderRace(t)
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	paths, _ := filepath.Glob(filepath.Join("..", "bench", "quality", "testdata", "*.O0.ptx"))
	if len(paths) == 0 {
		t.Fatal("no quality suite")
	}
	corpus, _ := testenv.OptionalCorpus(t)
	fired, checked := 0, 0
	for _, path := range append(paths, corpus...) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(path, src)
		if err != nil || ptx.Check(path, src, m) != nil {
			continue
		}
		for _, f := range m.Funcs {
			if !f.HasBody {
				continue
			}
			before := f.Clone()
			stats, err := Run(context.Background(), c, nil, f, nil)
			if err != nil {
				t.Fatalf("%s:%s: %v", filepath.Base(path), f.Name, err)
			}
			if phaseCounter(stats, "OriUnrollLoops", "loops unrolled") == 0 {
				continue
			}
			fired++
			if f.Kind == ir.KindEntry {
				simtest.CheckEquivalent(t, before, f, 3)
				checked++
			}
		}
	}
	if fired == 0 {
		t.Fatal("OriUnrollLoops unrolled nothing in the quality suite")
	}
	t.Logf("OriUnrollLoops fired in %d functions, %d kernels checked in the simulator", fired, checked)
}
