package phases

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// framesRegressSeeds are generated kernels that once failed the gate,
// checked before the others:
//
//	21408: OutOfSSA took "mov.b64 {%a, %b}, %rd" (a vector unpack that
//	       ConvertMemoryToRegister writes) for a self-copy when the list's
//	       index equalled %rd's register number, and deleted it.
var framesRegressSeeds = []int64{21408}

// TestFramesWholePipeline is the semantic gate of the -O0 memory phases
// (OriInline, ConvertMemoryToRegister, InferAddressSpaces,
// LoadStoreForwarding, dead loads) on generated kernels with frames,
// pointer pairs and device functions (gen.Config.Frames): the whole -O3
// pipeline, inlining included, verifier on, then the differential check
// of the kernel against the original. It fails on any mismatch, and on a
// changed kernel whose change no compared run executed.
//
// PTXOPT_FRAMES_KERNELS sets the number of kernels (default 60, 15 under
// -short), PTXOPT_FRAMES_SEED the first seed and PTXOPT_FRAMES_SECONDS a
// time budget after which the run stops and reports how many it checked,
// for long runs:
//
//	PTXOPT_FRAMES_KERNELS=2000 go test ./phases -run TestFramesWholePipeline -timeout 0 -v
func TestFramesWholePipeline(t *testing.T) {
	n, first := int64(60), int64(20000)
	if testing.Short() {
		n = 15
	}
	if v, err := strconv.ParseInt(os.Getenv("PTXOPT_FRAMES_KERNELS"), 10, 64); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.ParseInt(os.Getenv("PTXOPT_FRAMES_SEED"), 10, 64); err == nil {
		first = v
	}
	var deadline time.Time
	if v, err := strconv.ParseInt(os.Getenv("PTXOPT_FRAMES_SECONDS"), 10, 64); err == nil && v > 0 {
		deadline = time.Now().Add(time.Duration(v) * time.Second)
	}
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	sc := NewScratch()
	var inlined, matched, unchanged int64
	ran, total := 0, 0
	seeds := append([]int64(nil), framesRegressSeeds...)
	for k := range n {
		seeds = append(seeds, first+k)
	}
	checked := int64(0)
	for _, seed := range seeds {
		if !deadline.IsZero() && time.Now().After(deadline) {
			t.Logf("time budget spent after %d kernels", checked)
			break
		}
		if checked > 0 && checked%5000 == 0 {
			t.Logf("%d kernels checked (seed %d)", checked, seed)
		}
		checked++
		cfg := gen.Config{Seed: seed, Size: 60 + int(seed%7)*50, Frames: true}
		orig, opt := gen.Kernel(cfg), gen.Kernel(cfg)
		inlined += int64(InlineModule(c, opt).Inlined)
		if _, err := Run(context.Background(), c, sc, gen.Func(opt), nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		res, err := sim.Diff(gen.Func(orig), gen.Func(opt), sim.DiffOptions{Seeds: 3, ExtraSeeds: simtest.ExtraSeeds})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if res.Mismatch != nil {
			t.Fatalf("seed %d (ptxgen -frames -seed %d -size %d): the pipeline changes what the kernel computes: %v", seed, seed, cfg.Size, res.Mismatch)
		}
		if msg := simtest.Verdict(res); msg != "" {
			t.Fatalf("seed %d (ptxgen -frames -seed %d -size %d): the change was not checked: %s", seed, seed, cfg.Size, msg)
		}
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
	t.Logf("%d kernels checked from seed %d (%d regression seeds first): %d matched, %d unchanged; %d calls inlined; %d of %d changed instructions executed", checked, first, len(framesRegressSeeds), matched, unchanged, inlined, ran, total)
	if inlined == 0 {
		t.Errorf("no call inlined in %d kernels", n)
	}
}
