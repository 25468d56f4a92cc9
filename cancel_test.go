package ptxopt

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// armWriter is a dump writer that cancels a run a while after the dump
// written just before a phase: the phase is then under way.
type armWriter struct {
	after  time.Duration
	cancel context.CancelFunc
	mu     sync.Mutex
	at     time.Time // when cancel was called
}

func (w *armWriter) Write(b []byte) (int, error) {
	time.AfterFunc(w.after, func() {
		w.mu.Lock()
		w.at = time.Now()
		w.mu.Unlock()
		w.cancel()
	})
	return len(b), nil
}

// TestOptimizeCanceledInsidePhase: a context canceled while OutOfSSA runs
// on a large kernel (ptxgen -size 300000 -pool 64: OutOfSSA is one of
// the slowest phases there, several hundred ms) ends Optimize within a
// small part of that: the phase polls the context inside its walks.
// Before, only the driver polled between phases, and the run went on
// to the end of the phase. The bound follows the machine's speed: an
// eighth of the time all the phases before OutOfSSA took in the same run
// (OutOfSSA alone takes about half of that), at least 50 ms and at most
// 2 s.
func TestOptimizeCanceledInsidePhase(t *testing.T) {
	if testing.Short() {
		t.Skip("optimizes a kernel of 300,000 instructions up to OutOfSSA (about 2 s)")
	}
	src := ptx.Format(gen.Kernel(gen.Config{Seed: 1, Size: 300000, MaxDepth: 3, Pool: 64}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &armWriter{after: 20 * time.Millisecond, cancel: cancel}
	_, rep, err := Optimize(ctx, src, Options{Opt: O3, DumpIR: "before:OutOfSSA", DumpW: w, Measure: MeasureNone})
	end := time.Now()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Optimize: %v; want the cancellation", err)
	}
	w.mu.Lock()
	at := w.at
	w.mu.Unlock()
	if at.IsZero() {
		t.Fatal("the run ended before the cancel")
	}
	fr := rep.Files[0]
	if len(fr.Functions) != 1 || len(fr.Functions[0].Phases) == 0 {
		t.Fatalf("no phase statistics in the report: %+v", fr)
	}
	ph := fr.Functions[0].Phases
	last := ph[len(ph)-1]
	if last.Name != "OutOfSSA" {
		t.Fatalf("the last phase run was %s, want OutOfSSA (canceled in it)", last.Name)
	}
	var before time.Duration
	for _, p := range ph[:len(ph)-1] {
		before += time.Duration(p.NS)
	}
	bound := min(max(before/8, 50*time.Millisecond), 2*time.Second)
	took := end.Sub(at)
	t.Logf("phases before OutOfSSA: %v; OutOfSSA ran %v, Optimize returned %v after the cancel (bound %v)",
		before, time.Duration(last.NS), took, bound)
	if took > bound {
		t.Errorf("Optimize returned %v after the cancel, want at most %v: OutOfSSA does not stop when the run is canceled", took, bound)
	}
}
