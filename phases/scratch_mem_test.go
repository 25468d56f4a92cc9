package phases

import (
	"context"
	"reflect"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
)

// TestTakeFit checks that takeFit borrows from the chunk's free room
// while the elements fit, and otherwise allocates them without growing
// the chunk at the next reset (take would).
func TestTakeFit(t *testing.T) {
	sc := NewScratch()
	sc.U32(1000)
	sc.reset() // the chunk: 1000 words and an eighth more
	chunk := sc.ChunkBytes()
	a := takeFit[uint32](sc, 600)
	if sc.InUse() < 600 {
		t.Fatalf("takeFit of 600 words that fit borrowed %d words from the arena", sc.InUse())
	}
	a[0] = 7
	before := sc.InUse()
	b := takeFit[uint64](sc, 1000) // 2000 words: more than the room left
	if len(b) != 1000 || sc.InUse() != before {
		t.Fatalf("takeFit beyond the room: %d elements, arena in use %d -> %d words", len(b), before, sc.InUse())
	}
	for _, x := range b {
		if x != 0 {
			t.Fatal("takeFit returned an element not zeroed")
		}
	}
	sc.reset()
	if sc.ChunkBytes() != chunk {
		t.Fatalf("the chunk grew from %d to %d bytes after a takeFit that did not fit", chunk, sc.ChunkBytes())
	}
	if c := takeFit[uint32](sc, 10); c[0] != 0 {
		t.Fatal("takeFit from the arena returned a word not cleared")
	}
}

// TestClassPairsChunks checks that classPairs keeps every pair, in the
// order added, across its chunks, and takes its chunks from the arena
// while they fit.
func TestClassPairsChunks(t *testing.T) {
	sc := NewScratch()
	sc.U32(1 << 20)
	sc.reset()
	var l classPairs
	const n = 200_000
	for k := range n {
		l.add(sc, classPair{ir.RegID(k), ir.RegID(n - k)})
	}
	if l.n != n || len(l.chunks) < 2 {
		t.Fatalf("%d pairs in %d chunks, want %d in several", l.n, len(l.chunks), n)
	}
	k := 0
	for _, ch := range l.chunks {
		for _, e := range ch {
			if e != (classPair{ir.RegID(k), ir.RegID(n - k)}) {
				t.Fatalf("pair %d is %v", k, e)
			}
			k++
		}
	}
	if k != n {
		t.Fatalf("the chunks hold %d pairs, want %d", k, n)
	}
	if sc.InUse() == 0 {
		t.Fatal("no chunk came from the arena, which had room")
	}
}

// TestGeneralOptimizeStateCleared checks that a GeneralOptimize bundle
// leaves nothing in the worker's scratch-held state once it returns: its
// arrays are the arena's, and a state still pointing at them would keep
// a chunk the driver's reset replaced reachable until the next bundle.
func TestGeneralOptimizeStateCleared(t *testing.T) {
	tg, _ := ParseTarget("sm_80")
	c, err := NewConfig(3, tg, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := gen.Func(gen.Kernel(gen.Config{Seed: 1, Size: 2000, Pool: 64}))
	f.ComputeCFG()
	sc := NewScratch()
	stats, err := Run(context.Background(), c, sc, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	ran := false
	for _, s := range stats {
		if s.Name == "GeneralOptimizeLate2" && !s.Settled {
			ran = true
		}
	}
	if !ran {
		t.Fatal("GeneralOptimizeLate2 did not run: the test checks nothing")
	}
	if sc.genOptBusy || !reflect.ValueOf(sc.genOptState).IsZero() {
		t.Fatal("the GeneralOptimize state in the scratch is not cleared after the bundles returned")
	}
}
