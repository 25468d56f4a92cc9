package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt"
)

// The LLVM comparison: the same kernels, written as LLVM IR, go two ways.
// LLVM's: `opt -O2` then `llc -O2` to PTX. ptxopt's: `llc -O0` to PTX
// (made once, outside the timing), then ptxopt -O2 in-process. The figures
// are the time of each tool per -O0 PTX instruction and the instructions
// and registers of what each way prints.
//
// LLVM's time is taken two ways: the process's wall time (what a user
// running the tool per file pays, start-up included) and the in-process
// time LLVM reports with -time-passes (its pass execution report plus IR
// parsing), which is what compares with ptxopt's in-process time (parse,
// phases, report measures, print).
//
// The kernels are the LLVM IR files of the simulator's cross-check
// (sim/testdata/llvm): hand-written, already in SSA form, each a
// `define void @body(...)` with no kernel wrapper, so llc prints it as a
// .func. They are not clang -O0 output; the -O0 quality suite of real
// CUDA kernels takes their place when it exists.

// nvptxTarget turns a target-independent .ll body into an nvptx64 module.
const nvptxTarget = "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n" +
	"target triple = \"nvptx64-nvidia-cuda\"\n"

// LLVMCPU is the -mcpu llc compiles for.
const LLVMCPU = "sm_70"

// LLVM names the installed tools.
type LLVM struct {
	Opt, Llc string
	Version  string // the first line of `opt --version` that names the version
}

// FindLLVM looks for opt and llc on PATH (unversioned, then -14 to -20)
// and in /usr/lib/llvm-*/bin.
func FindLLVM() (*LLVM, error) {
	look := func(tool string) string {
		if p, err := exec.LookPath(tool); err == nil {
			return p
		}
		for v := 20; v >= 14; v-- {
			if p, err := exec.LookPath(fmt.Sprintf("%s-%d", tool, v)); err == nil {
				return p
			}
		}
		dirs, _ := filepath.Glob("/usr/lib/llvm-*/bin")
		sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
		for _, d := range dirs {
			p := filepath.Join(d, tool)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p
			}
		}
		return ""
	}
	l := &LLVM{Opt: look("opt"), Llc: look("llc")}
	if l.Opt == "" || l.Llc == "" {
		return nil, fmt.Errorf("LLVM opt and llc not found (on PATH or in /usr/lib/llvm-*/bin)")
	}
	out, err := exec.Command(l.Opt, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %v", l.Opt, err)
	}
	for line := range strings.Lines(string(out)) {
		if strings.Contains(line, "version") {
			l.Version = strings.TrimSpace(line)
			break
		}
	}
	return l, nil
}

// LLVMKernel is one kernel of the comparison.
type LLVMKernel struct {
	Name string
	IR   string // the nvptx64 module (.ll)
	O0   Input  // llc -O0's PTX: ptxopt's input
}

// PrepareLLVM writes an nvptx64 module into tmp for every *.ll of irDir
// (the file as it is when it names its target triple, else with the
// nvptx64 target put in front) and compiles it with llc -O0.
func (l *LLVM) PrepareLLVM(irDir, tmp string) ([]LLVMKernel, error) {
	paths, err := filepath.Glob(filepath.Join(irDir, "*.ll"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no .ll files in %s", irDir)
	}
	sort.Strings(paths)
	var ks []LLVMKernel
	for _, p := range paths {
		body, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(p), ".ll")
		k := LLVMKernel{Name: name, IR: filepath.Join(tmp, name+".ll")}
		if !bytes.Contains(body, []byte("target triple")) {
			body = append([]byte(nvptxTarget), body...)
		}
		if err := os.WriteFile(k.IR, body, 0o644); err != nil {
			return nil, err
		}
		o0 := filepath.Join(tmp, name+".O0.ptx")
		if out, err := exec.Command(l.Llc, "-O0", "-mcpu="+LLVMCPU, k.IR, "-o", o0).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("llc -O0 %s: %v\n%s", p, err, out)
		}
		src, err := os.ReadFile(o0)
		if err != nil {
			return nil, err
		}
		if k.O0, err = NewInput(o0, src); err != nil {
			return nil, fmt.Errorf("llc -O0 output of %s: %w", p, err)
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
