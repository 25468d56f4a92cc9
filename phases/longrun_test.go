package phases

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// longRunConfig is the n-th kernel of the long run: every feature of the
// generator in rotation, so that one run exercises what each issue's
// phases target. n%4 picks frames reached through generic pointers with
// device functions (promotion, forwarding, inlining), injected
// redundancy of every kind (reassociation, commoning, predication, copy
// chains), both, or neither; every third kernel adds constant-trip loops
// over small local arrays (unrolling), every fifth bounds the value pools
// (loop-carried values with bounded pressure), every odd one adds
// GeneralOptimize's fodder (float constants, constant predicates,
// compare-and-pick selects, equal guarded chains), every seventh cheap
// values read before a loop and again after it (gen.Config.LongRanges).
func longRunConfig(n int64) gen.Config {
	cfg := gen.Config{
		Seed:       900000 + n,
		Size:       40 + int(n%8)*30,
		MaxDepth:   2 + int(n%3),
		Frames:     n%4 == 1 || n%4 == 3,
		ConstLoops: n%3 == 0,
		Fold:       n%2 == 1,
	}
	if n%4 >= 2 {
		cfg.Inject = gen.AllKinds
	}
	if n%5 == 0 {
		cfg.Pool = 8
	}
	// every seventh: cheap values live across loops (splitting by
	// rematerialization, the movement engine)
	cfg.LongRanges = n%7 == 3
	return cfg
}

// TestLongRunGenerated is the whole -O3 pipeline (inlining included, the
// verifier on: the SSA form checked after every phase from IntoSSA to
// OutOfSSA) on generated kernels of every generator feature in rotation
// (longRunConfig), each compared with its original in the simulator with
// the change executed: the semantic gate on generated kernels for the
// phases of issues 9, 10 and 12, 2,000 kernels by default (200 with
// -short); for the long runs the issues ask for, in shards:
//
//	PTXOPT_LONGRUN=200000 PTXOPT_LONGRUN_FROM=0 go test ./phases -run '^TestLongRunGenerated$' -timeout 0 -v
//
// PTXOPT_LONGRUN_SECONDS=S stops after S seconds and logs how many it
// checked.
func TestLongRunGenerated(t *testing.T) {
	skipUnderRace(t)
	n := int64(2000)
	if testing.Short() {
		n = 200
	}
	n = envCount(t, "PTXOPT_LONGRUN", n)
	from := envCount(t, "PTXOPT_LONGRUN_FROM", 0)
	deadline := envDeadline(t, "PTXOPT_LONGRUN_SECONDS")
	c, sc := longRunPipeline(t), NewScratch()
	var checked, matched, unchanged, inlined, injected, phis, copies, left int64
	ran, total := 0, 0
	start := time.Now()
	for k := from; k < from+n; k++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			t.Logf("time budget spent")
			break
		}
		if checked > 0 && checked%10000 == 0 {
			t.Logf("%d kernels checked (next %d), %.0f s", checked, k, time.Since(start).Seconds())
		}
		checked++
		res, injs, inl, stats := longRunKernel(t, c, sc, k)
		injected += int64(injs)
		inlined += int64(inl)
		phis += counter(stats, "PHIs placed")
		copies += phaseCounter(stats, "CSSA", "copies inserted")
		left += phaseCounter(stats, "OutOfSSA", "CSSA copies left")
		switch res.Status {
		case sim.StatusMatched:
			matched++
		case sim.StatusUnchanged:
			unchanged++
		}
		r, tot := res.Executed()
		ran += r
		total += tot
	}
	t.Logf("%d kernels from %d in %.0f s: %d matched, %d unchanged; %d calls inlined, %d redundancies injected, %d PHIs placed, %d CSSA copies inserted, %d left; %d of %d changed instructions executed",
		checked, from, time.Since(start).Seconds(), matched, unchanged, inlined, injected, phis, copies, left, ran, total)
	if checked > 0 && matched == 0 {
		t.Errorf("the pipeline changed none of %d kernels", checked)
	}
}

// longRunKernel is one kernel of the long run: long-run kernel k
// (longRunConfig) through the inlining and the pipeline of c, compared
// with its original in the simulator; it fails t on an error, a mismatch
// or a change no compared seed ran. It returns the comparison, the
// redundancies the generator injected, the calls inlined and the
// pipeline's statistics.
func longRunKernel(t *testing.T, c *Config, sc *Scratch, k int64) (sim.DiffResult, int, int, []PhaseStat) {
	t.Helper()
	cfg := longRunConfig(k)
	orig, injs := gen.Generate(cfg)
	opt, _ := gen.Generate(cfg)
	inlined := InlineModule(c, opt).Inlined
	stats, err := Run(context.Background(), c, sc, gen.Func(opt), nil)
	if err != nil {
		t.Fatalf("kernel %d (%+v): %v", k, cfg, err)
	}
	res, err := sim.Diff(gen.Func(orig), gen.Func(opt), sim.DiffOptions{Seeds: 2, ExtraSeeds: simtest.ExtraSeeds})
	if err != nil {
		t.Fatalf("kernel %d (%+v): %v", k, cfg, err)
	}
	if res.Mismatch != nil {
		t.Fatalf("kernel %d (%+v): the pipeline changes what the kernel computes: %v", k, cfg, res.Mismatch)
	}
	if msg := simtest.Verdict(res); msg != "" {
		t.Fatalf("kernel %d (%+v): the change was not checked: %s", k, cfg, msg)
	}
	return res, len(injs), inlined, stats
}

// TestLongRunRegressions reruns the long-run kernels on which a
// miscompile or a failed check was once found, whatever range the
// default run covers.
//   - 54775: MergeEquivalentConditionalFlow merged across a write of the
//     register it copied, in a block only the flush of the global walk's
//     edits marked, whose entries of what each instruction writes were
//     left zero (fixed by filling them as each block is walked; found by
//     comparing the long run's outputs kernel by kernel).
//   - 119678: GeneralOptimizeMid2 was settled by GeneralOptimizeMid, which
//     subsumes it, after Mid's edits and a last partial round that passed
//     over a copy; check mode ran Mid2, which propagated it (fixed by
//     letting a subsuming bundle settle a slot only from a run that
//     changed nothing: settleMarks; found by TestLongRunHashes, whose
//     pipeline has check mode on).
func TestLongRunRegressions(t *testing.T) {
	c, sc := longRunPipeline(t), NewScratch()
	for _, k := range []int64{54775, 119678} {
		if res, _, _, _ := longRunKernel(t, c, sc, k); res.Status != sim.StatusMatched {
			t.Errorf("kernel %d: %v, not matched: the pipeline no longer changes it, so it tests nothing", k, res.Status)
		}
	}
}

// longRunPipeline is the long run's configuration: -O3 for sm_80 with the
// verifier on.
func longRunPipeline(t *testing.T) *Config {
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	return c
}

// TestLongRunHashes writes, for each long-run kernel, its number and the
// SHA-256 of its -O3 output (the long run's pipeline, inlining included,
// no simulator), one line each, to the file PTXOPT_LONGRUN_HASHES names;
// skipped without it. Two commits' files compared line by line say which
// kernels a change gives other code: a long run made on one commit then
// describes the other for every kernel whose output is the same, and the
// others can be checked on their own (PTXOPT_LONGRUN=1
// PTXOPT_LONGRUN_FROM=K with TestLongRunGenerated). The same range
// variables as the long run:
//
//	PTXOPT_LONGRUN_HASHES=h.txt PTXOPT_LONGRUN=200000 go test ./phases -run '^TestLongRunHashes$' -timeout 0
func TestLongRunHashes(t *testing.T) {
	path := os.Getenv("PTXOPT_LONGRUN_HASHES")
	if path == "" {
		t.Skip("PTXOPT_LONGRUN_HASHES names no file")
	}
	n := envCount(t, "PTXOPT_LONGRUN", 2000)
	from := envCount(t, "PTXOPT_LONGRUN_FROM", 0)
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(out)
	c, sc := longRunPipeline(t), NewScratch()
	for k := from; k < from+n; k++ {
		m, _ := gen.Generate(longRunConfig(k))
		InlineModule(c, m)
		if _, err := Run(context.Background(), c, sc, gen.Func(m), nil); err != nil {
			t.Fatalf("kernel %d: %v", k, err)
		}
		fmt.Fprintf(w, "%d %x\n", k, sha256.Sum256(ptx.Format(m)))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
