// Package quality is the -O0 quality suite: real-style CUDA kernels of
// our own (cuda/*.cu), compiled by Debian's clang-16 device-only for sm_80
// at -O0 (what ptxopt gets, as a user with unoptimized PTX would give it)
// and by LLVM at -O3 from the same IR (the yardstick), both checked in as
// PTX under testdata/ by gen.sh, so that nothing here needs clang. The -O0
// LLVM IR is checked in beside them: cmd/benchreport times LLVM's opt -O2
// and llc -O2 on it against ptxopt -O2 on the -O0 PTX.
//
// For every kernel the suite measures four programs: the -O0 input,
// ptxopt -O3 of it, LLVM -O3, and ptxopt -O3 of LLVM -O3. Per program it
// reports the instructions (all function bodies of the file), the .local
// bytes, the maximum live registers (R and UR slots, then P and UP
// predicates; the largest of any function), and the calls left. The test
// (quality_test.go) checks every optimized kernel in the simulator and
// prints the table; `go run ./bench/quality/cmd/quality` prints it too.
package quality

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ptxopt/ptxopt"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/phases"
)

// Kernel is one kernel of the suite: the name of its .cu file and the
// files gen.sh made from it.
type Kernel struct {
	Name string
	O0   []byte // clang-16 -O0
	IR   []byte // the LLVM IR of the same -O0 compile (optnone and noinline left off): what opt starts from
	LLVM []byte // opt-16 -O3 + llc-16 -O3 of IR
}

// Dir returns the suite's directory when run from the module root, from
// bench/quality, or from any package directory one or two levels down.
func Dir() (string, error) {
	for _, d := range []string{"bench/quality", ".", "../quality", "../bench/quality", "../../bench/quality"} {
		if st, err := os.Stat(filepath.Join(d, "testdata", "VERSION")); err == nil && !st.IsDir() {
			return d, nil
		}
	}
	return "", fmt.Errorf("quality suite not found (run from the module root)")
}

// Load reads every kernel of the suite under dir, sorted by name.
func Load(dir string) ([]Kernel, error) {
	srcs, err := filepath.Glob(filepath.Join(dir, "cuda", "*.cu"))
	if err != nil {
		return nil, err
	}
	sort.Strings(srcs)
	var ks []Kernel
	for _, s := range srcs {
		name := strings.TrimSuffix(filepath.Base(s), ".cu")
		k := Kernel{Name: name}
		if k.O0, err = os.ReadFile(filepath.Join(dir, "testdata", name+".O0.ptx")); err != nil {
			return nil, fmt.Errorf("%s: %w (run gen.sh)", name, err)
		}
		if k.IR, err = os.ReadFile(filepath.Join(dir, "testdata", name+".O0.ll")); err != nil {
			return nil, fmt.Errorf("%s: %w (run gen.sh)", name, err)
		}
		if k.LLVM, err = os.ReadFile(filepath.Join(dir, "testdata", name+".llvm.ptx")); err != nil {
			return nil, fmt.Errorf("%s: %w (run gen.sh)", name, err)
		}
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("no kernels under %s/cuda", dir)
	}
	return ks, nil
}

// Figures are the measures of one program (one PTX file).
type Figures struct {
	Instrs     int // instructions of every function body
	LocalBytes int // .local bytes declared in function bodies
	MaxLiveR   int // the most data registers (32-bit slots) live at one point, largest over the functions
	MaxLiveP   int // the most predicates live at one point, largest over the functions
	Calls      int // call instructions
}

// Row is one kernel's four programs.
type Row struct {
	Name         string
	O0, OptO0    Figures // the -O0 input, ptxopt of it
	LLVM, OptLLV Figures // LLVM -O3, ptxopt of it
	OutO0        []byte  // ptxopt's output for the -O0 input
}

// Options are the ptxopt options the suite runs with (Opt defaults to -O3).
type Options = ptxopt.Options

// Measure runs ptxopt on both PTX files of every kernel and measures the
// four programs.
func Measure(ctx context.Context, ks []Kernel, opts Options) ([]Row, error) {
	if opts.Opt == ptxopt.LevelDefault {
		opts.Opt = ptxopt.O3
	}
	rows := make([]Row, 0, len(ks))
	for _, k := range ks {
		r := Row{Name: k.Name}
		var err error
		if r.O0, r.OptO0, r.OutO0, err = measurePair(ctx, k.Name+".O0.ptx", k.O0, opts); err != nil {
			return nil, err
		}
		if r.LLVM, r.OptLLV, _, err = measurePair(ctx, k.Name+".llvm.ptx", k.LLVM, opts); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// measurePair optimizes src and returns the figures of the input and the
// output, and the output.
func measurePair(ctx context.Context, path string, src []byte, opts Options) (in, out Figures, res []byte, err error) {
	opts.Path = path
	res, rep, err := ptxopt.Optimize(ctx, src, opts)
	if err != nil {
		return in, out, nil, fmt.Errorf("%s: %w", path, err)
	}
	// The input as given: every function, measured without the pipeline
	// (the report's "in" figures of an optimizing run are taken after
	// inlining and leave out the functions it removed).
	o0 := opts
	o0.Opt, o0.KnobFile, o0.Knobs = ptxopt.O0, "", nil
	_, rep0, err := ptxopt.Optimize(ctx, src, o0)
	if err != nil {
		return in, out, nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, fn := range rep0.Files[0].Functions {
		in.Instrs += fn.InstrsIn
		in.LocalBytes += fn.LocalBytesIn
	}
	for _, fn := range rep.Files[0].Functions {
		out.Instrs += fn.InstrsOut
		out.LocalBytes += fn.LocalBytesOut
	}
	if in.Calls, in.MaxLiveR, in.MaxLiveP, err = scan(path, src); err != nil {
		return in, out, nil, err
	}
	if out.Calls, out.MaxLiveR, out.MaxLiveP, err = scan(path, res); err != nil {
		return in, out, nil, fmt.Errorf("%s: reparsing ptxopt's output: %w", path, err)
	}
	return in, out, res, nil
}

// scan counts the call instructions of a module and measures the most
// data registers (32-bit slots) and predicates live at one point in any
// of its functions. Both classes are counted whole, uniform and per-lane
// registers together: PTX has one register space per thread, and which
// values become uniform registers is ptxas's choice (the report's R/UR
// split is ptxopt's model of it; adding the two files' maxima, which
// can occur at different points, would overstate the pressure).
func scan(path string, src []byte) (calls, maxR, maxP int, err error) {
	m, err := ptxopt.Parse(path, src)
	if err != nil {
		return 0, 0, 0, err
	}
	for _, f := range m.IR.Funcs {
		if !f.HasBody {
			continue
		}
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if f.InstrProps(i)&ir.PCall != 0 {
					calls++
				}
			}
		}
		// the register retry's measure (phases.Analyses.LiveClasses)
		mx := phases.NewAnalyses(f).LiveClasses()
		maxR, maxP = max(maxR, mx[ir.FileR]), max(maxP, mx[ir.FileP])
	}
	return calls, maxR, maxP, nil
}

// Totals sums the rows (max live: the largest of any kernel).
func Totals(rows []Row) Row {
	t := Row{Name: "total"}
	add := func(a *Figures, b Figures) {
		a.Instrs += b.Instrs
		a.LocalBytes += b.LocalBytes
		a.MaxLiveR = max(a.MaxLiveR, b.MaxLiveR)
		a.MaxLiveP = max(a.MaxLiveP, b.MaxLiveP)
		a.Calls += b.Calls
	}
	for _, r := range rows {
		add(&t.O0, r.O0)
		add(&t.OptO0, r.OptO0)
		add(&t.LLVM, r.LLVM)
		add(&t.OptLLV, r.OptLLV)
	}
	return t
}

// Verdicts are the goals, checked over the rows.
type Verdicts struct {
	// InstrRatio is ptxopt -O3 of -O0 over LLVM -O3, in total: the goal
	// is at most 1.
	InstrRatio float64
	// LocalMissed lists the kernels where LLVM -O3 keeps no .local bytes
	// and ptxopt -O3 of -O0 keeps some.
	LocalMissed []string
	// LiveOver lists the kernels whose ptxopt -O3 max live R is above both
	// the input's and LLVM -O3's.
	LiveOver []string
}

// Check computes the verdicts.
func Check(rows []Row) Verdicts {
	t := Totals(rows)
	v := Verdicts{InstrRatio: float64(t.OptO0.Instrs) / float64(max(t.LLVM.Instrs, 1))}
	for _, r := range rows {
		if r.LLVM.LocalBytes == 0 && r.OptO0.LocalBytes > 0 {
			v.LocalMissed = append(v.LocalMissed, r.Name)
		}
		if r.OptO0.MaxLiveR > max(r.O0.MaxLiveR, r.LLVM.MaxLiveR) {
			v.LiveOver = append(v.LiveOver, r.Name)
		}
	}
	return v
}

// WriteTable prints the rows and the total as a fixed-width table, then
// the ratios and the verdicts.
func WriteTable(w io.Writer, rows []Row) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-18s | %27s | %27s | %27s | %27s\n", "", "clang -O0", "ptxopt -O3 of -O0", "LLVM -O3", "ptxopt -O3 of LLVM -O3")
	fmt.Fprintf(&b, "%-18s |", "kernel")
	for range 4 {
		fmt.Fprintf(&b, " %6s %6s %4s %2s %5s |", "instr", "local", "R", "P", "calls")
	}
	b.WriteString(" opt/O0 opt/LLVM\n")
	line := func(r Row) {
		fmt.Fprintf(&b, "%-18s |", r.Name)
		for _, f := range [4]Figures{r.O0, r.OptO0, r.LLVM, r.OptLLV} {
			fmt.Fprintf(&b, " %6d %6d %4d %2d %5d |", f.Instrs, f.LocalBytes, f.MaxLiveR, f.MaxLiveP, f.Calls)
		}
		fmt.Fprintf(&b, " %6.3f %8.3f\n", ratio(r.OptO0.Instrs, r.O0.Instrs), ratio(r.OptO0.Instrs, r.LLVM.Instrs))
	}
	for _, r := range rows {
		line(r)
	}
	t := Totals(rows)
	line(t)
	v := Check(rows)
	fmt.Fprintf(&b, "\nptxopt -O3 of -O0 keeps %.3fx of the -O0 instructions; LLVM -O3 keeps %.3fx; ptxopt ends at %.3fx LLVM's count (goal: <= 1)\n",
		ratio(t.OptO0.Instrs, t.O0.Instrs), ratio(t.LLVM.Instrs, t.O0.Instrs), v.InstrRatio)
	fmt.Fprintf(&b, ".local bytes: -O0 %d, ptxopt -O3 of -O0 %d, LLVM -O3 %d\n", t.O0.LocalBytes, t.OptO0.LocalBytes, t.LLVM.LocalBytes)
	fmt.Fprintf(&b, "kernels with .local left where LLVM -O3 has none: %d %v\n", len(v.LocalMissed), v.LocalMissed)
	fmt.Fprintf(&b, "kernels whose max live R exceeds both the input's and LLVM's: %d %v\n", len(v.LiveOver), v.LiveOver)
	_, err := io.WriteString(w, b.String())
	return err
}

func ratio(a, b int) float64 { return float64(a) / float64(max(b, 1)) }
