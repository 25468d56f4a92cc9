// Command gpuoracle prepares the GPU oracle: for each PTX file it writes
// the original and its ptxopt output, and for each kernel the simulator
// runs to completion, the simulator's input (launch shape, parameters,
// buffers with their pointers as relocations) and the simulator's own
// final memory. launch.py runs both versions on a real GPU from those
// inputs and compares their memory; oracle.sh also assembles both
// versions with ptxas and compares registers and spills. See README.md
// beside this file.
//
//	go run ./cmd/gpuoracle -o DIR [-O 3] [-seeds 8] FILE|DIR...
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
)

// Manifest is DIR/manifest.json.
type Manifest struct {
	Opt   int          `json:"opt"`
	Files []FileRecord `json:"files"`
}

// FileRecord is one input file: where its two versions are, and its
// kernels.
type FileRecord struct {
	Name    string         `json:"name"`
	Orig    string         `json:"orig"` // relative to DIR
	Opt     string         `json:"opt"`
	Error   string         `json:"error,omitempty"` // why the file has no cases
	Kernels []KernelRecord `json:"kernels"`
}

// KernelRecord is one kernel: its exported cases, or why it has none.
type KernelRecord struct {
	Name    string   `json:"name"`
	Changed bool     `json:"changed"` // the optimized kernel differs in text
	Cases   []string `json:"cases"`   // case files (JSON; the blob beside it, .bin)
	Skipped string   `json:"skipped,omitempty"`
}

func main() {
	out := flag.String("o", "", "output directory (required)")
	opt := flag.Int("O", 3, "optimization level of the optimized version")
	seeds := flag.Int("seeds", 8, "seeds tried per kernel, from 0")
	perKernel := flag.Int("cases", 1, "cases exported per kernel (the first seeds that complete)")
	maxBlob := flag.Int64("max-blob", 8<<20, "largest blob of one case in bytes (larger cases are skipped)")
	var knobs []string
	flag.Func("knob", "a knob setting Name=Value for the optimized version (repeatable)", func(v string) error { knobs = append(knobs, v); return nil })
	named := flag.String("named-phases", "", "run only these phases (comma-separated), to find the phase behind a difference")
	disable := flag.String("disable-phase", "", "phases not to run (comma-separated)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: gpuoracle -o DIR [-O 3] [-seeds N] [-cases N] [-knob K=V] [-named-phases P,...] [-disable-phase P,...] FILE|DIR...")
		os.Exit(2)
	}
	files, err := inputs(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpuoracle:", err)
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gpuoracle:", err)
		os.Exit(1)
	}
	level, err := ptxopt.LevelOf(*opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpuoracle: -O:", err)
		os.Exit(2)
	}
	// ptxopt.Level(3) would be -O2: the Level type starts at the default
	opts := ptxopt.Options{Opt: level, Measure: ptxopt.MeasureNone, Knobs: knobs}
	if *named != "" {
		opts.NamedPhases = strings.Split(*named, ",")
	}
	if *disable != "" {
		opts.DisablePhases = strings.Split(*disable, ",")
	}
	p, err := ptxopt.NewPipeline(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpuoracle:", err)
		os.Exit(2)
	}
	man := Manifest{Opt: *opt}
	ncases := 0
	for k, path := range files {
		rec := exportFile(p, *out, k, path, *seeds, *perKernel, *maxBlob)
		for _, kr := range rec.Kernels {
			ncases += len(kr.Cases)
		}
		man.Files = append(man.Files, rec)
	}
	if err := writeManifest(*out, man); err != nil {
		fmt.Fprintln(os.Stderr, "gpuoracle:", err)
		os.Exit(1)
	}
	fmt.Printf("gpuoracle: %d files, %d cases in %s\n", len(files), ncases, *out)
}

// writeManifest writes dir/manifest.json.
func writeManifest(dir string, man Manifest) error {
	b, _ := json.MarshalIndent(man, "", "  ")
	return os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
}

// inputs expands directories into their .ptx files, sorted.
func inputs(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(a, "*.ptx"))
		sort.Strings(m)
		files = append(files, m...)
	}
	return files, nil
}

func exportFile(p *ptxopt.Pipeline, dir string, k int, path string, seeds, perKernel int, maxBlob int64) FileRecord {
	rec := FileRecord{Name: filepath.Base(path)}
	src, err := os.ReadFile(path)
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	stem := fmt.Sprintf("f%03d", k)
	rec.Orig, rec.Opt = stem+".orig.ptx", stem+".opt.ptx"
	optSrc, _, err := p.Optimize(context.Background(), path, src)
	if err != nil {
		rec.Error = "ptxopt: " + err.Error()
		rec.Opt = ""
	}
	// the launcher loads the original as the user gave it; NUL bytes a C
	// string left at the end would stop the driver's reader
	if err := os.WriteFile(filepath.Join(dir, rec.Orig), []byte(strings.TrimRight(string(src), "\x00")), 0o644); err != nil {
		rec.Error = err.Error()
		return rec
	}
	if rec.Opt == "" {
		return rec
	}
	if err := os.WriteFile(filepath.Join(dir, rec.Opt), optSrc, 0o644); err != nil {
		rec.Error = err.Error()
		return rec
	}
	before, err := ptx.Parse(path, src)
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	after, err := ptx.Parse(path+" (optimized)", optSrc)
	if err != nil {
		rec.Error = "optimized output does not parse: " + err.Error()
		return rec
	}
	opt := map[string]*ir.Func{}
	for _, f := range after.Funcs {
		opt[f.Name] = f
	}
	for _, f := range before.Funcs {
		if !f.HasBody || f.Kind != ir.KindEntry {
			continue
		}
		kr := KernelRecord{Name: f.Name}
		g := opt[f.Name]
		if g == nil {
			kr.Skipped = "no kernel of that name in the optimized output"
			rec.Kernels = append(rec.Kernels, kr)
			continue
		}
		kr.Changed = instrText(f) != instrText(g)
		var last error
		for seed := int64(0); seed < int64(seeds) && len(kr.Cases) < perKernel; seed++ {
			c, blob, err := sim.ExportGPU(f, seed, sim.DiffOptions{})
			if err != nil {
				last = err
				var u *sim.Unsupported
				if errors.As(err, &u) || errors.Is(err, sim.ErrGPUExport) {
					break // no other seed does better
				}
				continue
			}
			if int64(len(blob)) > maxBlob {
				last = fmt.Errorf("the case needs %d bytes of buffers (more than -max-blob)", len(blob))
				continue
			}
			name := fmt.Sprintf("%s.k%03d.s%d", stem, len(rec.Kernels), seed)
			js, _ := json.Marshal(c)
			if err := os.WriteFile(filepath.Join(dir, name+".json"), js, 0o644); err != nil {
				last = err
				break
			}
			if err := os.WriteFile(filepath.Join(dir, name+".bin"), blob, 0o644); err != nil {
				last = err
				break
			}
			kr.Cases = append(kr.Cases, name)
		}
		if len(kr.Cases) == 0 {
			kr.Skipped = fmt.Sprint(last)
		}
		rec.Kernels = append(rec.Kernels, kr)
	}
	return rec
}

// instrText is the function's instructions as printed, one per line.
func instrText(f *ir.Func) string {
	var b strings.Builder
	for _, blk := range f.Layout {
		for i := range f.Instrs(blk) {
			b.WriteString(f.FormatInstr(i))
			b.WriteByte('\n')
		}
	}
	return b.String()
}
