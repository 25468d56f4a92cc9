package sim_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
)

// corpusDir is the shared third-party PTX corpus, relative to this
// package's directory. The test reads it in place.
const corpusDir = "../../shared/corpus/ptx"

type kernelOutcome struct {
	file, kernel string
	status       string // "ran", "trapped", "refused", "error"
	reason       string
	detail       string
	steps        int64
}

// runCorpusKernel runs f on a few generated inputs with small launches and
// a step limit; it reports whether any input ran to completion.
func runCorpusKernel(f *ir.Func) (out kernelOutcome) {
	defer func() {
		if r := recover(); r != nil {
			out = kernelOutcome{status: "panic", reason: fmt.Sprint(r)}
		}
	}()
	p, err := sim.Compile(f)
	if err != nil {
		return classify(err)
	}
	out.status = "trapped"
	for seed := int64(0); seed < 3; seed++ {
		in := sim.MakeInput(f, seed, 64<<20)
		in.Launch.MaxSteps = 200_000
		in.Launch.Grid.X = min(in.Launch.Grid.X, 2)
		st, err := p.Run(&in.Launch, in.Mem)
		// like the differential check, give a kernel that runs out of
		// extern shared memory more (up to 1 MiB)
		for dyn := in.Launch.DynShared; err != nil && dyn > 0 && dyn < 1<<20 && strings.Contains(err.Error(), "shared access out of bounds"); {
			dyn *= 2
			in = sim.MakeInput(f, seed, 64<<20)
			in.Launch.MaxSteps = 200_000
			in.Launch.Grid.X = min(in.Launch.Grid.X, 2)
			in.Launch.DynShared = dyn
			var st2 sim.Stats
			st2, err = p.Run(&in.Launch, in.Mem)
			st.WarpInstrs += st2.WarpInstrs
		}
		out.steps += st.WarpInstrs
		if err == nil {
			out.status, out.reason = "ran", ""
			return out
		}
		c := classify(err)
		if c.status != "trapped" {
			return c
		}
		if out.reason == "" {
			out.reason, out.detail = c.reason, c.detail
		}
	}
	return out
}

func classify(err error) kernelOutcome {
	var u *sim.Unsupported
	var t *sim.Trap
	switch {
	case errors.As(err, &u):
		r := u.Op
		if u.Op == "call" || u.Op == "symbol" {
			// group by the kind of problem, not by the function's name
			d := u.Detail
			for _, p := range []string{"undeclared function", "address of", "function"} {
				if strings.HasPrefix(d, p) {
					d = p + " …"
					break
				}
			}
			r += " (" + d + ")"
		}
		return kernelOutcome{status: "refused", reason: r, detail: u.Detail}
	case errors.As(err, &t):
		msg := t.Msg
		if i := strings.IndexAny(msg, "0123456789"); i > 0 {
			msg = strings.TrimSpace(msg[:i])
		}
		// the trap class and the instruction's opcode name the reason
		op := t.Instr
		if i := strings.IndexByte(op, '.'); i > 0 {
			op = op[:i]
		}
		return kernelOutcome{status: "trapped", reason: msg + " (" + op + ")", detail: t.Error()}
	}
	return kernelOutcome{status: "error", reason: err.Error()}
}

// TestCorpusRuns runs every .entry kernel of the shared corpus: each must
// run to completion, trap, or be refused with a named reason, and at least
// half of the files must have a kernel that runs to completion.
func TestCorpusRuns(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "*.ptx"))
	if len(paths) == 0 {
		testenv.Missing(t, "PTX corpus not found at %s (relative to sim); skipping the corpus run", corpusDir)
	}
	sort.Strings(paths)
	start := time.Now()
	var outs []kernelOutcome
	filesRun, filesWithKernels := 0, 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		m, err := ptx.Parse(name, src)
		if err != nil {
			t.Logf("%s: parse error (not counted): %v", name, err)
			continue
		}
		ran, any := false, false
		for _, f := range m.Funcs {
			if f.Kind != ir.KindEntry || !f.HasBody {
				continue
			}
			any = true
			o := runCorpusKernel(f)
			o.file, o.kernel = name, f.Name
			outs = append(outs, o)
			if o.status == "ran" {
				ran = true
			}
			if testing.Verbose() {
				t.Logf("%-8s %s:%.60s: %s %s (%d warp-instrs)", o.status, name, f.Name, o.reason, o.detail, o.steps)
			}
		}
		if any {
			filesWithKernels++
		}
		if ran {
			filesRun++
		}
	}
	byStatus := map[string]int{}
	byReason := map[string]int{}
	for _, o := range outs {
		byStatus[o.status]++
		switch o.status {
		case "refused", "trapped":
			byReason[o.status+" "+o.reason]++
		case "panic", "error":
			t.Errorf("%s: %s: %s: %s", o.file, o.kernel, o.status, o.reason)
		}
	}
	var reasons []string
	for r := range byReason {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if byReason[reasons[i]] != byReason[reasons[j]] {
			return byReason[reasons[i]] > byReason[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	var sb strings.Builder
	fmt.Fprintf(&sb, "corpus: %d files (%d with kernels), %d kernels: %d ran to completion, %d trapped, %d refused (%v)\n",
		len(paths), filesWithKernels, len(outs), byStatus["ran"], byStatus["trapped"], byStatus["refused"], time.Since(start).Round(time.Millisecond))
	for _, r := range reasons {
		fmt.Fprintf(&sb, "  %4d  %s\n", byReason[r], r)
	}
	fmt.Fprintf(&sb, "files with a kernel that ran to completion: %d of %d\n", filesRun, len(paths))
	fmt.Fprintf(&sb, "kernels that do not run to completion:\n")
	fmt.Fprintf(&sb, "  %-8s  %-50s  %-40s  %s\n", "status", "file", "kernel", "reason")
	for _, o := range outs {
		if o.status == "ran" {
			continue
		}
		k := o.kernel
		if len(k) > 40 {
			k = k[:37] + "..."
		}
		fmt.Fprintf(&sb, "  %-8s  %-50s  %-40s  %s\n", o.status, strings.TrimSuffix(o.file, ".ptx"), k, o.reason)
		if o.reason == "" {
			t.Errorf("%s: %s: %s without a named reason", o.file, o.kernel, o.status)
		}
	}
	t.Log(sb.String())
	if 2*filesRun < len(paths) {
		t.Errorf("only %d of %d corpus files have a kernel that runs to completion; want at least half", filesRun, len(paths))
	}
}
