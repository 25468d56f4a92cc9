package core

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// TestCorpusLiveness cross-checks liveness (dense round-robin, worklist,
// sparse) against the reference on every function of every corpus file,
// and runs the other analyses on them.
func TestCorpusLiveness(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "ptx")
	files, _ := filepath.Glob(filepath.Join(dir, "*.ptx"))
	if len(files) == 0 {
		testenv.Missing(t, "no corpus at %s", dir)
	}
	// The map-based reference is slow on the largest functions (about
	// 3.5 minutes for the whole corpus on 2 cores), so the default run
	// stops at 1500 instructions and CI sets PTXOPT_FULL_CORPUS=1 in a
	// step of its own to check every function.
	maxInstrs := 1500
	if os.Getenv("PTXOPT_FULL_CORPUS") != "" {
		maxInstrs = 1 << 30
	} else if testing.Short() {
		maxInstrs = 500
	}
	funcs := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(filepath.Base(path), src)
		if err != nil {
			t.Logf("%s: parse error, skipped: %v", filepath.Base(path), err)
			continue
		}
		for _, f := range m.Funcs {
			if !f.HasBody || f.NumInstrs() > maxInstrs {
				continue
			}
			funcs++
			f.ComputeCFG()
			ref := computeRef(f, f.ReturnRegs(nil)) // return registers are live at exit by default
			for _, opt := range []LiveOptions{{}, {Solver: Worklist}, {segBlocks: 1}, {Solver: Worklist, segBlocks: 2}, {MemBudget: -1}} {
				l := ComputeLiveness(f, opt)
				checkLiveness(t, f, l, ref)
			}
			FindLoops(f, Dominators(f))
			PostDominators(f)
			u := ComputeUniformity(f)
			RegisterPressure(ComputeLiveness(f, LiveOptions{Files: u.Files(f)}))
		}
	}
	t.Logf("%d functions from %d files", funcs, len(files))
}
