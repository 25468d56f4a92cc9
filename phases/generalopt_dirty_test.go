package phases

import (
	"bytes"
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// TestGeneralOptimizeDirtyRoundsSameOutput: the dirty rounds
// (generalopt_dirty.go) walk less than full rounds and must make exactly
// the same edits. The whole -O3 pipeline runs on generated kernels with
// and without GeneralOptimizeFullRounds, which must print the same PTX;
// and the kernels must be ones where the bundles do iterate (some round
// after the first edits), or the comparison says nothing.
func TestGeneralOptimizeDirtyRoundsSameOutput(t *testing.T) {
	cDirty, cFull := dirtyAndFullConfigs(t)
	// check mode: the IR verifier after every phase, the analysis cache,
	// and merging's counts from the def-use chains against a walk
	cDirty.Verify = true
	seeds := int64(12)
	if testing.Short() {
		seeds = 4
	}
	iterated := 0
	for seed := int64(1); seed <= seeds; seed++ {
		cfg := gen.Config{Seed: 7700 + seed, Size: 2000 + int(seed%3)*1500, Pool: 64,
			Fold: seed%2 == 0, Frames: seed%3 == 0}
		if seed%4 == 1 {
			cfg.Inject = gen.AllKinds
		}
		var out [2][]byte
		for k, c := range []*Config{cDirty, cFull} {
			m := gen.Kernel(cfg)
			var stats []PhaseStat
			for _, f := range m.Funcs {
				var err error
				stats, err = Run(context.Background(), c, NewScratch(), f, stats[:0])
				if err != nil {
					t.Fatalf("seed %d: %v", cfg.Seed, err)
				}
				if k == 0 {
					iterated += int(counter(stats, "rounds that walked only what the last round's edits reach"))
				}
			}
			out[k] = ptx.Format(m)
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("seed %d: the dirty rounds' output differs from the full rounds'", cfg.Seed)
		}
	}
	if iterated == 0 {
		t.Fatal("no GeneralOptimize round walked in part: the kernels test nothing")
	}
}

// TestGeneralOptimizeDirtyPrefixSameOutput: a partial round's local walk
// passes over the instructions of a block before its first edit since
// the block's last walk without rewriting them (prefixUnchanged); the
// -O3 pipeline prints the same PTX as with every instruction of a walked
// block rewritten, on kernels where instructions are passed over; and
// rewriting them anyway edits none (checkPrefix panics otherwise).
func TestGeneralOptimizeDirtyPrefixSameOutput(t *testing.T) {
	t.Parallel()
	c, _ := dirtyAndFullConfigs(t)
	h := &testHooks{prefixCheck: true}
	c.hooks = h
	seeds := int64(10)
	if testing.Short() {
		seeds = 4
	}
	for seed := int64(1); seed <= seeds; seed++ {
		cfg := iteratingKernel(9600, seed)
		var out [2][]byte
		for k, whole := range []bool{false, true} {
			h.prefixRewrite = whole
			m := gen.Kernel(cfg)
			for _, f := range m.Funcs {
				if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
					t.Fatalf("seed %d: %v", cfg.Seed, err)
				}
			}
			out[k] = ptx.Format(m)
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("seed %d: the output passing over unedited prefixes differs from rewriting whole blocks'", cfg.Seed)
		}
	}
	if h.prefixSkipped.Load() == 0 {
		t.Fatal("no instruction was passed over: the kernels test nothing")
	}
}

// TestGeneralOptimizeDirtyNarrowingSameOutput: the dirty rounds leave
// out the add uses of a register whose edit is past the uses findReuse
// scans, and the use blocks of a register whose use count cannot have
// crossed one (merging); on kernels large enough to have registers with
// more uses than findReuse scans, both happen, and the output is still
// the full rounds'.
func TestGeneralOptimizeDirtyNarrowingSameOutput(t *testing.T) {
	t.Parallel()
	cDirty, cFull := dirtyAndFullConfigs(t)
	h := new(testHooks)
	cDirty.hooks, cFull.hooks = h, h
	kernels := []gen.Config{{Seed: 1, Size: 30000, Pool: 64}, {Seed: 2, Size: 60000, Pool: 64}}
	if testing.Short() {
		kernels = kernels[1:] // the one on which both narrowings fire
	}
	for _, cfg := range kernels {
		size := cfg.Size
		var out [2][]byte
		for j, c := range []*Config{cDirty, cFull} {
			m := gen.Kernel(cfg)
			for _, f := range m.Funcs {
				if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
					t.Fatalf("size %d: %v", size, err)
				}
			}
			out[j] = ptx.Format(m)
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("size %d: the dirty rounds' output differs from the full rounds'", size)
		}
	}
	if h.dirtyReuse.Load() == 0 {
		t.Error("no register's add uses were left out: the kernels do not test the findReuse narrowing")
	}
	if h.dirtyMerge.Load() == 0 {
		t.Error("no register's use blocks were left unmarked for merging: the kernels do not test markMergeUses")
	}
}

// dirtyAndFullConfigs returns the -O3 configurations for sm_80 with the
// dirty rounds (the default) and with GeneralOptimizeFullRounds.
func dirtyAndFullConfigs(t *testing.T) (dirty, full *Config) {
	t.Helper()
	k, err := ParseKnob("GeneralOptimizeFullRounds=true")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := ParseTarget("sm_80")
	if err != nil {
		t.Fatal(err)
	}
	if dirty, err = NewConfig(3, tg, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if full, err = NewConfig(3, tg, []KnobSetting{k}, nil, nil); err != nil {
		t.Fatal(err)
	}
	return dirty, full
}

// TestMergeWritesInLateMarkedBlocks: a dirty round's merging walks the
// blocks the flush of the global walk's edits and markMergeUses mark, and
// what each of their instructions writes must be current there. It once
// was filled only for the blocks marked before those two, leaving the
// others' entries zero ("writes register 0"), so that a merge could pass
// over a write of the register it copies. Check mode compares every
// walked block's entries with the instructions; the kernels are ones on
// which late-marked blocks occur (ptxgen -seed 16 -size 2392; -seed 7
// -size 1159 -inject all).
func TestMergeWritesInLateMarkedBlocks(t *testing.T) {
	t.Parallel()
	c, _ := dirtyAndFullConfigs(t)
	c.Verify = true
	h := new(testHooks)
	c.hooks = h
	for _, cfg := range []gen.Config{
		{Seed: 16, Size: 2392, MaxDepth: 3},
		{Seed: 7, Size: 1159, MaxDepth: 3, Inject: gen.AllKinds},
	} {
		m := gen.Kernel(cfg)
		for _, f := range m.Funcs {
			if _, err := Run(context.Background(), c, NewScratch(), f, nil); err != nil {
				t.Fatalf("seed %d: %v", cfg.Seed, err)
			}
		}
	}
	if h.mergeLateBlocks.Load() == 0 {
		t.Fatal("no block was marked only by the flush or markMergeUses: the kernels test nothing")
	}
}

// TestGeneralOptimizeDirtyBundlesSameIR: every GeneralOptimize slot leaves
// the same IR with dirty rounds as with full ones, not only the pipeline's
// output (a later bundle can do what an earlier one's partial round
// passed over, and did on long-run kernel 119678: GeneralOptimizeMid's
// partial round missed a copy whose source had lost its guarded second
// definition to GuardFalse, since deleting a definition of a register
// still read was followed only through the opcodes rules look through).
// The IR is dumped after every slot, on long-run kernels (119678 and a
// range), inlining as the long run does.
func TestGeneralOptimizeDirtyBundlesSameIR(t *testing.T) {
	cDirty, cFull := dirtyAndFullConfigs(t)
	spec, err := ParseDumpSpec("after:GeneralOptimize")
	if err != nil {
		t.Fatal(err)
	}
	kernels := []int64{119678}
	n := int64(300)
	if testing.Short() {
		n = 60
	}
	for k := range n {
		kernels = append(kernels, 5000+k)
	}
	iterated := 0
	for _, k := range kernels {
		var dumps [2]string
		for x, c := range []*Config{cDirty, cFull} {
			var buf bytes.Buffer
			cc := *c
			cc.Dump, cc.DumpW = spec, &buf
			m, _ := gen.Generate(longRunConfig(k))
			InlineModule(&cc, m)
			stats, err := Run(context.Background(), &cc, NewScratch(), gen.Func(m), nil)
			if err != nil {
				t.Fatalf("kernel %d: %v", k, err)
			}
			if x == 0 {
				iterated += int(counter(stats, "rounds that walked only what the last round's edits reach"))
			}
			dumps[x] = buf.String()
		}
		if dumps[0] != dumps[1] {
			t.Errorf("kernel %d: a GeneralOptimize slot leaves other IR with dirty rounds than with full ones", k)
		}
	}
	if iterated == 0 {
		t.Fatal("no GeneralOptimize round walked in part: the kernels test nothing")
	}
	t.Logf("%d kernels, %d partial rounds", len(kernels), iterated)
}
