package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/ptxopt/ptxopt"
)

// The scaling measurement runs each kernel size in a child process, so
// that a size that is too slow or too big for the machine costs its time
// budget and no more: the parent kills the child when the budget runs
// out or when the child's resident memory passes the cap, and records
// which. The child is the parent's own executable (cmd/benchreport, or a
// test binary), started with ChildEnv set to the JSON of a SizeSpec; its
// main calls MaybeChild first. The child writes one JSON line per event
// (the kernel's size, then each sample as soon as it is measured) to
// stdout, so the samples taken before a kill are kept.
//
// Where /proc is missing (not Linux) the parent cannot read the child's
// resident size, and only the soft limit and the time budget hold.
//
// Peak memory comes from the child's own high-water mark of resident
// memory (VmHWM in /proc/self/status), reset before each sample
// (/proc/self/clear_refs) after a garbage collection has returned free
// memory to the system: the peak of one sample is the high-water mark
// minus the resident size before it. Where /proc is missing the peak is
// not measured (reported as -1).
//
// Returning the memory leaves the heap without mapped pages: the next run
// would touch every page it allocates for the first time (a page fault
// each, the kernel zeroing the page), charged to whichever phase first
// writes it. A sample of a small kernel repeats the pipeline, so only its
// first iteration paid that; a sample of a large one is one run, which
// paid it all, so the time per instruction of the phases that grow the
// heap (IntoSSA adding its PHIs to every per-instruction array, say) rose
// with the size for a reason that is no part of the phase's own work.
// Hence each sample starts with one untimed run of the pipeline, after
// the high-water mark is reset, and a collection: every timed run, at
// every size, finds the heap as an earlier run left it, as in a process
// that optimizes one file after another (the first run of a process pays
// the first touches at every size, in proportion to the memory it uses).
// The peak is the untimed run's: one run from a returned heap, what a
// process that optimizes one input pays (the timed runs after it find
// the first run's freed pages still resident, which a single run never
// has).

// ChildEnv names the environment variable that makes a process a scaling
// child.
const ChildEnv = "PTXOPT_BENCH_CHILD"

// SizeSpec is what a child measures: Runs samples of the pipeline at -O
// Opt on the generated kernel of Size instructions and Seed. A sample
// repeats the pipeline until it has run MinSampleNS (one iteration when
// the first takes that long; that first iteration is then the first
// sample, otherwise a warm-up; each sample also runs the pipeline once,
// untimed, before its iterations: see above). MemCap (bytes, 0 for none) is passed to
// debug.SetMemoryLimit, so the collector works harder before the parent
// kills the child at the cap.
type SizeSpec struct {
	Size        int   `json:"size"`
	Seed        int64 `json:"seed"`
	Pool        int   `json:"pool"` // gen.Config.Pool: 0 keeps every value readable to the end
	Opt         int   `json:"opt"`
	Runs        int   `json:"runs"`
	MinSampleNS int64 `json:"min_sample_ns"`
	MemCap      int64 `json:"mem_cap"`
}

// SizeSample is one sample of a size: Iters runs of the pipeline.
type SizeSample struct {
	Iters int   `json:"iters"`
	NS    int64 `json:"ns"` // wall time of all iterations
	// CPUNS is the process's CPU time over all iterations (every thread,
	// the collector's included; -1 where not measured): on a shared
	// machine it moves much less than the wall time with the load.
	CPUNS   int64  `json:"cpu_ns"`
	Split   Split  `json:"split"`
	Mallocs uint64 `json:"mallocs"` // heap objects allocated, all iterations
	Bytes   uint64 `json:"bytes"`   // heap bytes allocated, all iterations
	PeakRSS int64  `json:"peak_rss"`
	HWM     int64  `json:"hwm"` // the process's resident high-water mark after the sample's untimed run
}

// NSPerInstr returns the time per instruction of one pipeline run.
func (s *SizeSample) NSPerInstr(instrs int) float64 {
	return float64(s.NS) / float64(s.Iters) / float64(instrs)
}

// Status says how a size's measurement ended.
type Status string

const (
	Done    Status = "done"    // every run measured
	Budget  Status = "budget"  // killed when the time budget ran out
	Memory  Status = "memory"  // killed when resident memory passed the cap
	Failed  Status = "failed"  // the child failed (its message is in Note)
	Skipped Status = "skipped" // not started (see Note)
)

// SizeResult is what the parent learned about one size.
type SizeResult struct {
	Spec    SizeSpec
	Instrs  int   // the kernel's instructions (0 if the child died before)
	GenNS   int64 // generating and counting the kernel, in the child
	Samples []SizeSample
	Status  Status
	Note    string
	Wall    time.Duration // the child's whole life
	MaxRSS  int64         // the largest resident size the parent saw (bytes; 0 where unknown)
}

type childMsg struct {
	Instrs int         `json:"instrs,omitempty"`
	GenNS  int64       `json:"gen_ns,omitempty"`
	Sample *SizeSample `json:"sample,omitempty"`
	Err    string      `json:"err,omitempty"`
}

// MaybeChild runs the scaling child and exits when ChildEnv is set;
// otherwise it returns at once. Call it first in main (or TestMain).
func MaybeChild() {
	v, ok := os.LookupEnv(ChildEnv)
	if !ok {
		return
	}
	var spec SizeSpec
	err := json.Unmarshal([]byte(v), &spec)
	if err == nil {
		err = runChild(spec, os.Stdout)
	}
	if err != nil {
		json.NewEncoder(os.Stdout).Encode(childMsg{Err: err.Error()})
		os.Exit(1)
	}
	os.Exit(0)
}

func runChild(spec SizeSpec, w io.Writer) error {
	if spec.MemCap > 0 {
		debug.SetMemoryLimit(spec.MemCap)
	}
	enc := json.NewEncoder(w)
	t0 := time.Now()
	in, err := NewInput("gen.ptx", GeneratedSource(spec.Size, spec.Seed, spec.Pool))
	if err != nil {
		return err
	}
	if err := enc.Encode(childMsg{Instrs: in.Instrs, GenNS: time.Since(t0).Nanoseconds()}); err != nil {
		return err
	}
	lvl, err := ptxopt.LevelOf(spec.Opt)
	if err != nil {
		return err
	}
	p, err := ptxopt.NewPipeline(ptxopt.Options{Opt: lvl, PhaseCPU: true})
	if err != nil {
		return err
	}
	ctx := context.Background()
	iters := 1
	for done := 0; done < spec.Runs; {
		s, err := sample(ctx, p, in, iters)
		if err != nil {
			return err
		}
		if iters == 1 && s.NS < spec.MinSampleNS {
			// Too short to time alone: it was the warm-up; size the samples.
			iters = int(min(1_000_000, (spec.MinSampleNS+s.NS-1)/max(s.NS, 1)))
			continue
		}
		if err := enc.Encode(childMsg{Sample: &s}); err != nil {
			return err
		}
		done++
	}
	return nil
}

// sample runs the pipeline once untimed, then iters times on in.
func sample(ctx context.Context, p *ptxopt.Pipeline, in Input, iters int) (SizeSample, error) {
	debug.FreeOSMemory() // collects, and returns free memory to the system
	rss0, hwmOK := resetHWM()
	// The untimed run: the timed ones find the heap's pages mapped (see
	// the comment at the top).
	var warm Split
	if _, _, err := Optimize(ctx, p, in, &warm); err != nil {
		return SizeSample{}, err
	}
	hwm := procStatusBytes("/proc/self/status", "VmHWM")
	runtime.GC()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	s := SizeSample{Iters: iters}
	cpu0 := processCPU()
	start := time.Now()
	for range iters {
		if _, _, err := Optimize(ctx, p, in, &s.Split); err != nil {
			return s, err
		}
	}
	s.NS = time.Since(start).Nanoseconds()
	s.CPUNS = -1
	if cpu1 := processCPU(); cpu0 >= 0 && cpu1 >= 0 {
		s.CPUNS = cpu1 - cpu0
	}
	runtime.ReadMemStats(&ms1)
	s.Mallocs, s.Bytes = ms1.Mallocs-ms0.Mallocs, ms1.TotalAlloc-ms0.TotalAlloc
	s.PeakRSS, s.HWM = -1, -1
	if hwmOK && hwm > 0 {
		s.HWM, s.PeakRSS = hwm, hwm-rss0
	}
	return s, nil
}

// resetHWM resets the process's resident high-water mark to its current
// resident size and returns that size; ok is false where it cannot.
func resetHWM() (rss int64, ok bool) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0, false
	}
	rss = procStatusBytes("/proc/self/status", "VmRSS")
	return rss, rss > 0
}

// procStatusBytes reads a "Key:   N kB" line of a /proc status file, in
// bytes; 0 when absent.
func procStatusBytes(path, key string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(line, ":")
		if !ok || k != key {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			return 0
		}
		n, _ := strconv.ParseInt(f[0], 10, 64)
		if len(f) > 1 && f[1] == "kB" {
			n <<= 10
		}
		return n
	}
	return 0
}

// Child is how to start a child: the executable and its arguments (the
// spec travels in the environment).
type Child struct {
	Path string
	Args []string
	Env  []string // added to the parent's environment
}

// SelfChild starts this process's own executable again.
func SelfChild() (Child, error) {
	exe, err := os.Executable()
	if err != nil {
		return Child{}, err
	}
	return Child{Path: exe}, nil
}

// pollEvery is how often the parent reads the child's resident size.
const pollEvery = 50 * time.Millisecond

// RunSize measures one size in a child, within the time budget (0: no
// limit other than ctx) and spec.MemCap. progress, when not nil, is
// called with each sample as it arrives.
func RunSize(ctx context.Context, c Child, spec SizeSpec, budget time.Duration, progress func(SizeSample)) SizeResult {
	res := SizeResult{Spec: spec}
	js, _ := json.Marshal(spec)
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = append(append(os.Environ(), c.Env...), ChildEnv+"="+string(js))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		res.Status, res.Note = Failed, err.Error()
		return res
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.Status, res.Note = Failed, err.Error()
		return res
	}
	msgs := make(chan childMsg)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<16), 1<<24)
		for sc.Scan() {
			var m childMsg
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				readErr <- fmt.Errorf("bad line from the child: %q", sc.Text())
				return
			}
			msgs <- m
		}
		readErr <- sc.Err()
	}()
	var timeout <-chan time.Time
	if budget > 0 {
		t := time.NewTimer(budget)
		defer t.Stop()
		timeout = t.C
	}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	statusPath := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	kill := func(st Status, note string) {
		cmd.Process.Kill()
		res.Status, res.Note = st, note
	}
	childErr := ""
loop:
	for {
		select {
		case m := <-msgs:
			switch {
			case m.Err != "":
				childErr = m.Err
			case m.Sample != nil:
				res.Samples = append(res.Samples, *m.Sample)
				if progress != nil {
					progress(*m.Sample)
				}
			default:
				res.Instrs, res.GenNS = m.Instrs, m.GenNS
			}
		case err := <-readErr:
			if err != nil && res.Status == "" {
				kill(Failed, err.Error())
			}
			break loop
		case <-timeout:
			kill(Budget, fmt.Sprintf("did not finish within the %v budget", budget))
		case <-ctx.Done():
			kill(Failed, "interrupted")
		case <-tick.C:
			rss := procStatusBytes(statusPath, "VmRSS")
			res.MaxRSS = max(res.MaxRSS, rss)
			if spec.MemCap > 0 && rss > spec.MemCap && res.Status == "" {
				kill(Memory, fmt.Sprintf("resident memory passed the %d MiB cap", spec.MemCap>>20))
			}
		}
	}
	werr := cmd.Wait()
	res.Wall = time.Since(start)
	if res.Status != "" {
		return res
	}
	switch {
	case childErr != "":
		res.Status, res.Note = Failed, childErr
	case werr != nil:
		res.Status, res.Note = Failed, fmt.Sprintf("%v: %s", werr, stderr.last())
	case len(res.Samples) < spec.Runs:
		res.Status, res.Note = Failed, fmt.Sprintf("the child ended after %d of %d runs", len(res.Samples), spec.Runs)
	default:
		res.Status = Done
	}
	return res
}

// tailBuffer keeps the last few KiB written to it.
type tailBuffer struct{ b []byte }

const tailKeep = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2*tailKeep {
		t.b = append(t.b[:0], t.b[len(t.b)-tailKeep:]...)
	}
	return len(p), nil
}

// last returns the first line of the kept text that says what went wrong
// (a Go fatal error or panic), else its last non-empty line.
func (t *tailBuffer) last() string {
	lines := bytes.Split(bytes.TrimSpace(t.b), []byte("\n"))
	for _, l := range lines {
		if s := string(l); strings.HasPrefix(s, "fatal error:") || strings.HasPrefix(s, "panic:") {
			return s
		}
	}
	if len(lines) == 0 {
		return "no message"
	}
	return string(lines[len(lines)-1])
}
