package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/internal/testenv"
)

// TestExportAndLauncherSelftest exports the bundled examples, the quality
// suite and (when present) a quarter of the corpus, then runs launch.py's self-test on
// the export: the launcher's host side (initial bytes, relocations,
// parameters, comparisons) against a fake driver whose kernels leave what
// the simulator's run left. Every case must match, the device bytes equal
// to the simulator's. No GPU needed; the GPU run itself is oracle.sh.
func TestExportAndLauncherSelftest(t *testing.T) {
	python := testenv.Tool(t, "launch.py's self-test runs the GPU launcher's host side", "python3")
	dir := t.TempDir()
	inputs, _ := filepath.Glob("../../examples/*.ptx")
	quality, _ := filepath.Glob("../../bench/quality/testdata/*.O0.ptx")
	inputs = append(inputs, quality...)
	if corpus, ok := testenv.OptionalCorpus(t); ok {
		for k, path := range corpus {
			if k%4 == 0 { // a sample: the plumbing, not the corpus, is under test
				inputs = append(inputs, path)
			}
		}
	}
	p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: ptxopt.O3, Measure: ptxopt.MeasureNone})
	if err != nil {
		t.Fatal(err)
	}
	man := Manifest{Opt: 3}
	cases := 0
	for k, path := range inputs {
		rec := exportFile(p, dir, k, path, 8, 1, 8<<20)
		for _, kr := range rec.Kernels {
			cases += len(kr.Cases)
		}
		man.Files = append(man.Files, rec)
	}
	if err := writeManifest(dir, man); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(python, "launch.py", "selftest", dir).CombinedOutput()
	last := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(last, '\n'); i >= 0 {
		last = last[i+1:]
	}
	t.Logf("%d files, %d cases exported; %s", len(inputs), cases, last)
	if err != nil {
		t.Fatalf("launch.py selftest: %v\n%s", err, out)
	}
	if cases < 30 {
		t.Errorf("only %d cases exported", cases)
	}
}
