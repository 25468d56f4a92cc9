package phases

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// The semantic gate every phase passes: a phase may never change what a
// program computes. Each phase of the pipeline table runs alone (with the
// required phases around it, at -O3, verifier on) on generated SIMT
// kernels, on every corpus kernel the simulator can run, and on the
// regression files in testdata/regress; the simulator then compares all
// memory the kernel writes, bit for bit, on random inputs. A miscompile
// found once goes into testdata/regress (the reproducer `ptxopt check`
// writes) and is checked by TestRegressions from then on.

// equivKernel is one program of the gate, with a name for messages.
type equivKernel struct {
	name string
	f    *ir.Func
}

func equivKernels(t *testing.T) []equivKernel {
	t.Helper()
	var ks []equivKernel
	nGen := 12
	if testing.Short() {
		nGen = 4
	}
	for seed := range int64(nGen) {
		m := gen.Kernel(gen.Config{Seed: seed, Size: 250})
		ks = append(ks, equivKernel{name: "gen#" + strconv.Itoa(int(seed)), f: gen.Func(m)})
	}
	files, ok := testenv.OptionalCorpus(t)
	if !ok {
		t.Logf("no corpus at %s: generated kernels only", testenv.CorpusPath())
	}
	budget := 60 // corpus kernels, smallest files first would bias; take them in order
	if testing.Short() {
		budget = 15
	}
	for _, path := range files {
		if budget == 0 {
			break
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(filepath.Base(path), src)
		if err != nil || ptx.Check(path, src, m) != nil {
			continue // invalid input is not the gate's business
		}
		for _, f := range m.Funcs {
			if budget == 0 || !f.HasBody || f.Kind != ir.KindEntry || f.NumInstrs() > 3000 {
				continue
			}
			// Only kernels the simulator runs to completion on some input.
			res, err := sim.Diff(f, f, sim.DiffOptions{Seeds: 2})
			if err != nil || res.Matches == 0 {
				continue
			}
			ks = append(ks, equivKernel{name: strings.TrimSuffix(filepath.Base(path), ".ptx") + ":" + f.Name, f: f})
			budget--
		}
	}
	return ks
}

func TestEveryPhasePreservesSemantics(t *testing.T) {
	skipUnderRace(t)
	kernels := equivKernels(t)
	if len(kernels) == 0 {
		t.Fatal("no kernel to check the phases on")
	}
	target, err := ParseTarget("sm_80")
	if err != nil {
		t.Fatal(err)
	}
	seeds := 3
	for i := range pipeline {
		ph := &pipeline[i]
		if ph.Required {
			continue // runs around every other phase anyway
		}
		t.Run(ph.Name, func(t *testing.T) {
			c, err := NewConfig(MaxOpt, target, nil, nil, []string{ph.Name})
			if err != nil {
				t.Fatal(err)
			}
			c.Verify = true
			sc := NewScratch()
			changed, ran, all := 0, 0, 0
			for _, k := range kernels {
				after := k.f.Clone()
				if _, err := Run(context.Background(), c, sc, after, nil); err != nil {
					t.Fatalf("%s: %v", k.name, err)
				}
				res, err := sim.Diff(k.f, after, sim.DiffOptions{Seeds: seeds, ExtraSeeds: simtest.ExtraSeeds})
				if err != nil {
					t.Fatalf("%s: %v", k.name, err)
				}
				if res.Mismatch != nil {
					t.Fatalf("%s changes what %s computes: %v", ph.Name, k.name, res.Mismatch)
				}
				if msg := simtest.Verdict(res); msg != "" {
					t.Errorf("%s changed %s, but the check did not run the change: %s", ph.Name, k.name, msg)
				}
				if res.Status == sim.StatusMatched {
					changed++
					run, total := res.Executed()
					ran += run
					all += total
				}
			}
			t.Logf("%s changed %d of %d kernels; %d of %d changed instructions executed", ph.Name, changed, len(kernels), ran, all)
		})
	}
	t.Logf("%d kernels per phase", len(kernels))
}

// TestRegressions runs the whole pipeline at -O3 on every file of
// testdata/regress and checks each kernel in the simulator.
func TestRegressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "regress", "*.ptx"))
	if len(files) == 0 {
		t.Fatal("no regression files in testdata/regress")
	}
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.Funcs {
			if !f.HasBody || f.Kind != ir.KindEntry {
				continue
			}
			after := f.Clone()
			if _, err := Run(context.Background(), c, nil, after, nil); err != nil {
				t.Fatalf("%s:%s: %v", path, f.Name, err)
			}
			simtest.CheckEquivalent(t, f, after, 8)
		}
	}
}
