package ptxopt

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// TestPtxasAcceptsOutput: NVIDIA's assembler is the judge of what valid
// PTX is, and the simulator is more lenient than it (it never looks at
// operand types, say). Every input ptxas accepts — the corpus, the
// quality suite, the examples, generated kernels with and without frames
// — must still be accepted after -O3. Found this way before the test
// existed: a forward declaration left after inlining removed its
// definition, and "cvt.u64.u32 %rd, %f" from load forwarding.
//
// ptxas comes from PTXAS or PATH; .ci/steps/ptxas.sh installs the one of
// Debian's nvidia-cuda-toolkit (CUDA 11.8: PTX ISA up to 7.8, so newer
// inputs are refused as originals and skipped).
func TestPtxasAcceptsOutput(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine over the corpus: nothing for the race detector (see race_on_test.go)")
	}
	tool := os.Getenv("PTXAS")
	if tool == "" {
		tool = testenv.Tool(t, "ptxas checks that the optimizer's output is valid PTX (.ci/steps/ptxas.sh installs it)", "ptxas")
	}
	var inputs []string
	if corpus, ok := testenv.OptionalCorpus(t); ok {
		inputs = append(inputs, corpus...)
	}
	for _, glob := range []string{"examples/*.ptx", "bench/quality/testdata/*.ptx"} {
		m, _ := filepath.Glob(glob)
		inputs = append(inputs, m...)
	}
	dir := t.TempDir()
	type src struct {
		name string
		text []byte
	}
	var srcs []src
	for _, p := range inputs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src{filepath.Base(p), b})
	}
	n := 12
	if testing.Short() {
		n = 4
	}
	for k := range n {
		cfg := gen.Config{Seed: int64(900 + k), Size: 200 + 150*k, Frames: k%2 == 1}
		srcs = append(srcs, src{fmt.Sprintf("gen-seed%d-size%d-frames%v.ptx", cfg.Seed, cfg.Size, cfg.Frames), ptx.Format(gen.Kernel(cfg))})
	}
	p, err := NewPipeline(Options{Opt: O3, Measure: MeasureNone})
	if err != nil {
		t.Fatal(err)
	}
	accepted := 0
	for _, s := range srcs {
		arch := ptxasArch(s.text)
		orig := filepath.Join(dir, "orig.ptx")
		if err := os.WriteFile(orig, s.text, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := runPtxas(tool, arch, orig, dir); err != nil {
			continue // not an input this ptxas takes
		}
		out, _, err := p.Optimize(context.Background(), s.name, s.text)
		if err != nil {
			t.Errorf("%s: ptxas accepts it, ptxopt -O3 fails: %v", s.name, err)
			continue
		}
		opt := filepath.Join(dir, "opt.ptx")
		if err := os.WriteFile(opt, out, 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := runPtxas(tool, arch, opt, dir); err != nil {
			t.Errorf("%s: ptxas rejects the -O3 output (%s):\n%s", s.name, arch, msg)
			continue
		}
		accepted++
	}
	t.Logf("%d of %d inputs accepted by ptxas before and after -O3", accepted, len(srcs))
	if accepted < len(srcs)/2 {
		t.Errorf("ptxas accepted only %d of %d originals: is it working?", accepted, len(srcs))
	}
}

var targetRE = regexp.MustCompile(`(?m)^\s*\.target\s+sm_(\d+)(\w?)`)

// ptxasArch is sm_80, or the module's own target when that is newer.
func ptxasArch(src []byte) string {
	if m := targetRE.FindSubmatch(src); m != nil {
		if n, _ := strconv.Atoi(string(m[1])); n > 80 || len(m[2]) > 0 {
			return "sm_" + string(m[1]) + string(m[2])
		}
	}
	return "sm_80"
}

func runPtxas(tool, arch, path, dir string) (string, error) {
	cmd := exec.Command(tool, "-arch="+arch, "-o", filepath.Join(dir, "out.cubin"), path)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}
