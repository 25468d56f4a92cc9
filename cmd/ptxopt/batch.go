package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ptxopt/ptxopt"
)

type job struct {
	in, out string
}

// collect lists the jobs: a file goes to OUTDIR/its base name, a
// directory's *.ptx files to OUTDIR/their path relative to it. Two inputs
// landing on one output are a usage error.
func collect(inputs []string, outdir string) ([]job, error) {
	absOut, _ := filepath.Abs(outdir)
	var jobs []job
	seen := map[string]string{}
	add := func(in, rel string) error {
		out := filepath.Join(outdir, rel)
		if prev, dup := seen[out]; dup {
			return fmt.Errorf("%s and %s would both be written to %s", prev, in, out)
		}
		seen[out] = in
		jobs = append(jobs, job{in, out})
		return nil
	}
	for _, in := range inputs {
		if in == "-" {
			return nil, fmt.Errorf("batch mode reads files, not stdin")
		}
		st, err := os.Stat(in)
		if err != nil {
			// A missing input is that input's failure, reported with the rest.
			if err := add(in, filepath.Base(in)); err != nil {
				return nil, err
			}
			continue
		}
		if !st.IsDir() {
			if err := add(in, filepath.Base(in)); err != nil {
				return nil, err
			}
			continue
		}
		err = filepath.WalkDir(in, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if abs, _ := filepath.Abs(path); abs == absOut {
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
			return nil, err
		}
	}
	return jobs, nil
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
	jobs, err := collect(c.inputs, c.out)
	if err != nil {
		return usageErr(c.stderr, "%v", err)
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		fmt.Fprintf(c.stderr, "ptxopt: %v\n", err)
		return exitIO
	}
	start := time.Now()
	reports := make([]ptxopt.FileReport, len(jobs))
	var mu sync.Mutex // guards stderr and the progress count
	done := 0
	progress := func() {
		if !c.stderrIsTTY {
			return
		}
		const width = 30
		n := width * done / max(len(jobs), 1)
		fmt.Fprintf(c.stderr, "\r[%s%s] %d/%d files", strings.Repeat("=", n), strings.Repeat(" ", width-n), done, len(jobs))
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(c.jobs, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fr := c.one(ctx, p, jobs[i])
				reports[i] = *fr
				mu.Lock()
				done++
				if fr.Error != "" {
					if c.stderrIsTTY {
						fmt.Fprint(c.stderr, "\r\033[K")
					}
					fmt.Fprintln(c.stderr, fr.Error)
				}
				progress()
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if c.stderrIsTTY {
		fmt.Fprint(c.stderr, "\r\033[K")
	}
	rep := &ptxopt.Report{Files: reports, TotalNS: time.Since(start).Nanoseconds()}
	for i := range rep.Files {
		if rep.Files[i].Path == "" { // never started (interrupted)
			rep.Files[i] = ptxopt.FileReport{Path: jobs[i].in, Error: "not started: interrupted", Functions: []ptxopt.FuncReport{}}
		}
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
		len(jobs), t.OK, t.Failed, t.Functions, t.InstrsIn, t.InstrsOut, t.RegsIn.R, t.RegsOut.R, t.RegsIn.UR, t.RegsOut.UR,
		t.RegsIn.P, t.RegsOut.P, t.RegsIn.UP, t.RegsOut.UP,
		t.MaxLiveRIn, t.MaxLiveROut, time.Since(start).Seconds(), min(c.jobs, max(len(jobs), 1)))
	if code := c.writeReport(rep); code != exitOK {
		return code
	}
	switch {
	case ctx.Err() != nil:
		return exitInterrupt
	case t.Failed > 0:
		return exitFailed
	}
	return exitOK
}

// one optimizes one batch input and writes its output.
func (c *cli) one(ctx context.Context, p *ptxopt.Pipeline, j job) *ptxopt.FileReport {
	start := time.Now()
	src, err := readFile(j.in, int64(c.maxInput))
	if err != nil {
		return &ptxopt.FileReport{Path: j.in, Error: err.Error(), Functions: []ptxopt.FuncReport{}}
	}
	out, fr, err := c.optimize(ctx, p, j.in, src)
	if err == nil {
		if err = os.MkdirAll(filepath.Dir(j.out), 0o755); err == nil {
			err = writeOutput(j.out, out)
		}
		if err != nil {
			fr.Error = fmt.Sprintf("%s: %v", j.in, err)
		}
	}
	fr.NS = time.Since(start).Nanoseconds()
	return fr
}
