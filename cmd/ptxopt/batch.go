package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ptxopt/ptxopt"
	"github.com/schollz/progressbar/v3"
)

// progressRedraw is how often the progress line is redrawn while no
// file finishes.
const progressRedraw = 250 * time.Millisecond

type job struct {
	in, out string
}

// collect lists the jobs: a file goes to OUTDIR/its base name, a
// directory's *.ptx files to OUTDIR/their path relative to it. It fails
// (a usage error: nothing has been read or written yet) when an output
// would land on an input: two inputs on one output, OUTDIR that is an
// input directory (or a link to one), an input file that is its own
// output. A directory holding no *.ptx file is listed in empty.
func collect(inputs []string, outdir string) (jobs []job, empty []string, err error) {
	absOut, _ := filepath.Abs(outdir)
	outSt, _ := os.Stat(outdir) // nil when OUTDIR does not exist yet
	isOut := func(path string, st fs.FileInfo) bool {
		if outSt != nil {
			return os.SameFile(st, outSt)
		}
		abs, _ := filepath.Abs(path)
		return abs == absOut
	}
	seen := map[string]string{}
	add := func(in, rel string) error {
		out := filepath.Join(outdir, rel)
		if prev, dup := seen[out]; dup {
			return fmt.Errorf("%s and %s would both be written to %s", prev, in, out)
		}
		if ist, err := os.Stat(in); err == nil {
			if ost, err := os.Stat(out); err == nil && os.SameFile(ist, ost) {
				return fmt.Errorf("%s would be written over itself: -o %s is the directory it is in", in, outdir)
			}
		}
		seen[out] = in
		jobs = append(jobs, job{in, out})
		return nil
	}
	for _, in := range inputs {
		if in == "-" {
			return nil, nil, fmt.Errorf("batch mode reads files, not stdin")
		}
		st, err := os.Stat(in)
		if err != nil || !st.IsDir() {
			// A missing input is that input's failure, reported with the rest.
			if err := add(in, filepath.Base(in)); err != nil {
				return nil, nil, err
			}
			continue
		}
		if isOut(in, st) {
			return nil, nil, fmt.Errorf("-o %s is the input directory %s: the outputs would replace the inputs; give another output directory", outdir, in)
		}
		n := len(jobs)
		err = filepath.WalkDir(in, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if st, err := os.Stat(path); err == nil && isOut(path, st) {
					return filepath.SkipDir // never read our own outputs
				}
				return nil
			}
			if !d.Type().IsRegular() || !strings.HasSuffix(path, ".ptx") {
				return nil
			}
			rel, err := filepath.Rel(in, path)
			if err != nil {
				return err
			}
			return add(path, rel)
		})
		if err != nil {
			return nil, nil, err
		}
		if len(jobs) == n {
			empty = append(empty, in)
		}
	}
	return jobs, empty, nil
}

// batch optimizes many files with c.jobs workers.
func (c *cli) batch(ctx context.Context, p *ptxopt.Pipeline) int {
	if c.out == "" {
		return usageErr(c.stderr, "batch mode needs -o OUTDIR")
	}
	if c.dump.bare {
		return usageErr(c.stderr, "--dump-ir without a phase selection works on one file only")
	}
	if len(c.inputs) == 0 {
		return usageErr(c.stderr, "batch mode needs input files or directories")
	}
	jobs, empty, err := collect(c.inputs, c.out)
	if err != nil {
		return usageErr(c.stderr, "%v", err)
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		fmt.Fprintf(c.stderr, "ptxopt: %v\n", err)
		return exitIO
	}
	for _, d := range empty {
		fmt.Fprintf(c.stderr, "%s: no .ptx file in this directory\n", d)
	}
	start := time.Now()
	reports := make([]ptxopt.FileReport, len(jobs))
	started := make([]bool, len(jobs))
	var mu sync.Mutex  // guards stderr, the progress line, reports and started
	abandoned := false // set under mu once an interrupt stops the waiting
	// The progress line (a terminal only): count, rate, time left,
	// redrawn at most ten times a second; cleared before an error line,
	// the summary and on an interrupt, so those lines stand alone. The
	// throttle drops a redraw that comes too soon after the last one, so
	// a ticker redraws the line every 250 ms (under mu, as the workers
	// draw it): a count dropped that way shows at the next tick, and the
	// rate and time left move while a long file runs.
	var bar *progressbar.ProgressBar
	stopTicker := func() {}
	if c.stderrIsTTY {
		bar = progressbar.NewOptions(len(jobs),
			progressbar.OptionSetWriter(c.stderr),
			progressbar.OptionSetDescription("ptxopt"),
			progressbar.OptionSetWidth(30),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("files"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetRenderBlankState(true),
		)
		stop, stopped := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(stopped)
			t := time.NewTicker(progressRedraw)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					mu.Lock()
					if !abandoned {
						bar.RenderBlank() // redraws the current state (not throttled at this rate)
					}
					mu.Unlock()
				}
			}
		}()
		stopTicker = func() { close(stop); <-stopped }
	}
	// gate keeps outputs whole across an interrupt: a worker writes under
	// its read lock and only while ctx is live; the interrupt path takes
	// the write lock, so it waits for the writes under way, and no later
	// one starts.
	var gate sync.RWMutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(c.jobs, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				mu.Lock()
				started[i] = true
				mu.Unlock()
				fr := c.oneRecovered(ctx, p, jobs[i], &gate)
				mu.Lock()
				if abandoned {
					mu.Unlock()
					return
				}
				reports[i] = *fr
				if fr.Error != "" {
					if bar != nil {
						bar.Clear()
					}
					fmt.Fprintln(c.stderr, fr.Error)
				}
				if bar != nil {
					bar.Add(1)
				}
				mu.Unlock()
			}
		}()
	}
	finished, allDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		defer close(next)
		for i := range jobs {
			if ctx.Err() != nil {
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		<-finished
		wg.Wait()
		close(allDone)
	}()
	select {
	case <-allDone:
	case <-ctx.Done():
		// Interrupted: the files under way stop at their next poll of
		// ctx, but the command does not wait for them. It waits only
		// for the outputs being written, so none is left partial.
		gate.Lock()
	}
	stopTicker() // before the last Clear: nothing draws the line after it
	mu.Lock()
	abandoned = true // from here on, reports is the main goroutine's
	begun := slices.Clone(started)
	mu.Unlock()
	if bar != nil {
		bar.Clear()
	}
	rep := &ptxopt.Report{Files: reports, TotalNS: time.Since(start).Nanoseconds()}
	for i := range rep.Files {
		if rep.Files[i].Path != "" || ctx.Err() == nil {
			continue // done (without an interrupt every job is)
		}
		msg := jobs[i].in + ": not started: " + context.Cause(ctx).Error()
		if begun[i] {
			msg = interruptMsg(ctx, jobs[i].in)
			fmt.Fprintln(c.stderr, msg)
		}
		rep.Files[i] = ptxopt.FileReport{Path: jobs[i].in, Error: msg, Functions: []ptxopt.FuncReport{}}
	}
	for _, d := range empty {
		rep.Files = append(rep.Files, ptxopt.FileReport{Path: d, Error: d + ": no .ptx file in this directory", Functions: []ptxopt.FuncReport{}})
	}
	if c.verbose {
		for i := range rep.Files {
			if rep.Files[i].Error == "" {
				fmt.Fprintf(c.stderr, "ptxopt info    : %s\n", rep.Files[i].Path)
				writeResources(c.stderr, &rep.Files[i])
			}
		}
	}
	t := rep.Totals()
	fmt.Fprintf(c.stderr, "ptxopt: %d files: %d ok, %d failed; %d functions; instructions %d -> %d; registers R %d -> %d, UR %d -> %d, P %d -> %d, UP %d -> %d; max live R %d -> %d; %.2fs with %d worker(s)\n",
		len(rep.Files), t.OK, t.Failed, t.Functions, t.InstrsIn, t.InstrsOut, t.RegsIn.R, t.RegsOut.R, t.RegsIn.UR, t.RegsOut.UR,
		t.RegsIn.P, t.RegsOut.P, t.RegsIn.UP, t.RegsOut.UP,
		t.MaxLiveRIn, t.MaxLiveROut, time.Since(start).Seconds(), min(c.jobs, max(len(jobs), 1)))
	if code := c.writeReport(rep); code != exitOK {
		return code
	}
	switch {
	case ctx.Err() != nil:
		return interruptCode(ctx)
	case t.Failed > 0:
		return exitFailed
	}
	return exitOK
}

// oneRecovered is one with a panic anywhere in it (reading, the run, the
// printer, writing) turned into that input's error, so the batch goes on.
func (c *cli) oneRecovered(ctx context.Context, p *ptxopt.Pipeline, j job, gate *sync.RWMutex) (fr *ptxopt.FileReport) {
	defer func() {
		if rec := recover(); rec != nil {
			fr = &ptxopt.FileReport{Path: j.in, Error: fmt.Sprintf("%s: internal error: %v", j.in, rec), Functions: []ptxopt.FuncReport{}}
		}
	}()
	fault("worker", j.in)
	return c.one(ctx, p, j, gate)
}

// one optimizes one batch input and writes its output, under gate's read
// lock and only while ctx is live (see batch).
func (c *cli) one(ctx context.Context, p *ptxopt.Pipeline, j job, gate *sync.RWMutex) *ptxopt.FileReport {
	start := time.Now()
	src, err := readFile(j.in, int64(c.maxInput))
	if err != nil {
		return &ptxopt.FileReport{Path: j.in, Error: err.Error(), Functions: []ptxopt.FuncReport{}}
	}
	out, fr, err := c.optimize(ctx, p, j.in, src)
	if err == nil {
		gate.RLock()
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		} else if err = os.MkdirAll(filepath.Dir(j.out), 0o755); err == nil {
			err = writeRecovered(ctx, j.out, out)
		}
		gate.RUnlock()
		if err != nil {
			fr.Error = fmt.Sprintf("%s: %v", j.in, err)
		}
	}
	fr.NS = time.Since(start).Nanoseconds()
	return fr
}
