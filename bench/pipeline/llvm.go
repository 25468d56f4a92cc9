package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt"
)

// The LLVM comparison: the kernels of the -O0 quality suite
// (bench/quality) go two ways from one clang -O0 compile. LLVM's: `opt
// -O2` then `llc -O2` from the compile's LLVM IR. ptxopt's: ptxopt -O2
// in-process from the compile's PTX (which llc -O0 of the same IR prints
// byte for byte; TestLLVMQualitySuite checks it). The figures are the time
// of each tool per -O0 PTX instruction and the instructions and registers
// of what each way prints.
//
// LLVM's time is taken two ways: the process's wall time (what a user
// running the tool per file pays, start-up included) and the in-process
// time LLVM reports with -time-passes (its pass execution report plus IR
// parsing), which is what compares with ptxopt's in-process time (parse,
// phases, report measures, print).

// LLVMCPU is the -mcpu llc compiles for: the quality suite's target.
const LLVMCPU = "sm_80"

// LLVM names the tools of one installed LLVM.
type LLVM struct {
	Opt, Llc string
	Version  string // the line of `opt --version` that names the version
	Major    int    // its major version; 0 where the line names none
}

// FindLLVM returns the newest LLVM whose opt and llc are both installed,
// looking on PATH (opt and llc, and every opt-N with its llc-N) and in
// /usr/lib/llvm-*/bin. The newest, not the first on PATH: IR is read by
// the LLVM that wrote it and newer ones only (the quality suite's IR is
// clang-16's, which LLVM 14 cannot parse), and Debian's unversioned opt
// is often the oldest installed.
func FindLLVM() (*LLVM, error) {
	var best *LLVM
	seen := map[string]bool{}
	for _, c := range llvmCandidates() {
		real, err := filepath.EvalSymlinks(c[0])
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		l, err := newLLVM(c[0], c[1])
		if err != nil {
			continue
		}
		if best == nil || l.Major > best.Major {
			best = l
		}
	}
	if best == nil {
		return nil, fmt.Errorf("LLVM opt and llc not found (on PATH or in /usr/lib/llvm-*/bin)")
	}
	return best, nil
}

// LLVMIn returns the LLVM whose opt and llc are in dir.
func LLVMIn(dir string) (*LLVM, error) {
	return newLLVM(filepath.Join(dir, "opt"), filepath.Join(dir, "llc"))
}

// llvmCandidates lists (opt, llc) pairs that exist, in the order FindLLVM
// prefers among equal versions.
func llvmCandidates() [][2]string {
	var out [][2]string
	if o, err := exec.LookPath("opt"); err == nil {
		if l, err := exec.LookPath("llc"); err == nil {
			out = append(out, [2]string{o, l})
		}
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		opts, _ := filepath.Glob(filepath.Join(dir, "opt-[0-9]*"))
		for _, o := range opts {
			l := filepath.Join(dir, "llc-"+strings.TrimPrefix(filepath.Base(o), "opt-"))
			if isFile(o) && isFile(l) {
				out = append(out, [2]string{o, l})
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/llvm-*/bin")
	for _, d := range dirs {
		o, l := filepath.Join(d, "opt"), filepath.Join(d, "llc")
		if isFile(o) && isFile(l) {
			out = append(out, [2]string{o, l})
		}
	}
	return out
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// llvmVersion matches the version line of `opt --version`
// ("Debian LLVM version 16.0.6", "LLVM version 14.0.0", "Ubuntu LLVM version 18.1.3").
var llvmVersion = regexp.MustCompile(`LLVM version (\d+)\.`)

func newLLVM(opt, llc string) (*LLVM, error) {
	for _, t := range []string{opt, llc} {
		if !isFile(t) {
			return nil, fmt.Errorf("%s not found", t)
		}
	}
	out, err := exec.Command(opt, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %v", opt, err)
	}
	l := &LLVM{Opt: opt, Llc: llc}
	for line := range strings.Lines(string(out)) {
		if m := llvmVersion.FindStringSubmatch(line); m != nil {
			l.Version = strings.TrimSpace(line)
			l.Major, _ = strconv.Atoi(m[1])
			break
		}
	}
	return l, nil
}

// irProducer matches the clang named in a module's !llvm.ident.
var irProducer = regexp.MustCompile(`(?m)^![0-9]+ = !\{!"[^"]*clang version (\d+)\.`)

// IRMajor returns the major version of the clang that wrote ir (from its
// !llvm.ident), 0 where the module names none.
func IRMajor(ir []byte) int {
	m := irProducer.FindSubmatch(ir)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// CanRead says why l cannot read ir, or nil: textual IR is read by the
// LLVM that wrote it and newer ones, not by older ones (clang-16 writes
// attributes such as memory(none) that LLVM 14's parser rejects).
func (l *LLVM) CanRead(ir []byte) error {
	if w := IRMajor(ir); w > 0 && l.Major > 0 && l.Major < w {
		return fmt.Errorf("the IR is clang %d's, which LLVM %d (%s) cannot read: install llvm-%d or newer", w, l.Major, l.Opt, w)
	}
	return nil
}

// LLVMSource is one kernel as a clang -O0 compile left it: its LLVM IR
// (LLVM's way starts there) and its PTX (ptxopt's way starts there).
type LLVMSource struct {
	Name string
	IR   []byte
	O0   []byte
}

// LLVMKernel is one kernel of the comparison, ready to run.
type LLVMKernel struct {
	Name string
	IR   string // the IR's file, in the scratch folder
	O0   Input  // the -O0 PTX: ptxopt's input
}

// PrepareLLVM writes every kernel's IR into tmp and parses its -O0 PTX;
// it fails when l cannot read the IR.
func (l *LLVM) PrepareLLVM(srcs []LLVMSource, tmp string) ([]LLVMKernel, error) {
	if len(srcs) == 0 {
		return nil, fmt.Errorf("no kernels")
	}
	var ks []LLVMKernel
	for _, src := range srcs {
		if err := l.CanRead(src.IR); err != nil {
			return nil, fmt.Errorf("%s.O0.ll: %w", src.Name, err)
		}
		k := LLVMKernel{Name: src.Name, IR: filepath.Join(tmp, src.Name+".O0.ll")}
		if err := os.WriteFile(k.IR, src.IR, 0o644); err != nil {
			return nil, err
		}
		var err error
		if k.O0, err = NewInput(src.Name+".O0.ptx", src.O0); err != nil {
			return nil, fmt.Errorf("%s: -O0 PTX: %w", src.Name, err)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// ToolTime is one run of an LLVM tool.
type ToolTime struct {
	WallNS int64 // the process, start to exit
	PassNS int64 // -time-passes: pass execution plus IR parsing
}

// LLVMRun is one run of LLVM's way on one kernel.
type LLVMRun struct {
	Opt, Llc ToolTime
	PTX      []byte
}

// RunLLVM runs opt -O2 and llc -O2 on k, with scratch files in tmp.
func (l *LLVM) RunLLVM(k LLVMKernel, tmp string) (LLVMRun, error) {
	var r LLVMRun
	bc := filepath.Join(tmp, k.Name+".O2.bc")
	out := filepath.Join(tmp, k.Name+".llvm.ptx")
	var err error
	if r.Opt, err = timeTool(l.Opt, "-O2", "-time-passes", k.IR, "-o", bc); err != nil {
		return r, err
	}
	if r.Llc, err = timeTool(l.Llc, "-O2", "-mcpu="+LLVMCPU, "-time-passes", bc, "-o", out); err != nil {
		return r, err
	}
	r.PTX, err = os.ReadFile(out)
	return r, err
}

func timeTool(tool string, args ...string) (ToolTime, error) {
	var stderr bytes.Buffer
	cmd := exec.Command(tool, args...)
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	t := ToolTime{WallNS: time.Since(start).Nanoseconds()}
	if err != nil {
		return t, fmt.Errorf("%s %s: %v\n%s", filepath.Base(tool), strings.Join(args, " "), err, stderr.Bytes())
	}
	ns, err := passTime(stderr.String())
	if err != nil {
		return t, fmt.Errorf("%s %s: %v", filepath.Base(tool), strings.Join(args, " "), err)
	}
	t.PassNS = ns
	return t, nil
}

var (
	timerGroup = regexp.MustCompile(`(?m)^\s*(\.\.\. Pass execution timing report \.\.\.|LLVM IR Parsing)\s*$`)
	totalTime  = regexp.MustCompile(`Total Execution Time: [0-9.]+ seconds \(([0-9.]+) wall clock\)`)
)

// passTime sums the wall clock totals of the pass execution and IR
// parsing groups of a -time-passes report.
func passTime(report string) (int64, error) {
	locs := timerGroup.FindAllStringIndex(report, -1)
	if len(locs) == 0 {
		return 0, fmt.Errorf("no pass timing report in the output (-time-passes)")
	}
	var ns int64
	for _, loc := range locs {
		m := totalTime.FindStringSubmatch(report[loc[1]:])
		if m == nil {
			return 0, fmt.Errorf("a timing group without its total")
		}
		s, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return 0, err
		}
		ns += int64(s * 1e9)
	}
	return ns, nil
}

// Quality is what a way printed for one kernel.
type Quality struct {
	Instrs int
	RegsR  int // R registers (32-bit slots) over the functions
}

// Measure parses PTX and counts its instructions and R registers the way
// ptxopt's report does.
func Measure(name string, src []byte) (Quality, error) {
	p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: ptxopt.O0})
	if err != nil {
		return Quality{}, err
	}
	_, rep, err := p.Optimize(context.Background(), name, src)
	if err != nil {
		return Quality{}, err
	}
	var q Quality
	for _, f := range rep.Functions {
		q.Instrs += f.InstrsIn
		q.RegsR += f.RegsIn.R
	}
	return q, nil
}
