package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		in               []float64
		n                int
		min, median, max float64
	}{
		{[]float64{3, 1, 2}, 3, 1, 2, 3},
		{[]float64{4, 1, 3, 2}, 4, 1, 2.5, 4},
		{[]float64{5}, 1, 5, 5, 5},
		{[]float64{nan, 7, nan, 1}, 2, 1, 4, 7},
	} {
		s := Summarize(c.in)
		if s.N != c.n || s.Min != c.min || s.Median != c.median || s.Max != c.max {
			t.Errorf("Summarize(%v) = %+v", c.in, s)
		}
	}
	if s := Summarize(nil); s.OK() || !math.IsNaN(s.Median) || s.String() != "n/a" {
		t.Errorf("empty: %+v %q", s, s.String())
	}
	s := Summarize([]float64{1, 2, 4})
	if got := s.String(); got != "2.00 [1.00–4.00]" {
		t.Errorf("String %q", got)
	}
	if got := s.Scale(1000).Cell(); got != "2,000 [1,000–4,000]" {
		t.Errorf("Cell %q", got)
	}
	if got := Summarize([]float64{12.5}).Cell(); got != "12.5" {
		t.Errorf("one-run Cell %q", got)
	}
	if r := Ratios([]float64{10, 20, 30}, []float64{5, 4}); len(r) != 2 || r[0] != 2 || r[1] != 5 {
		t.Errorf("Ratios %v", r)
	}
}

func TestNum(t *testing.T) {
	for in, want := range map[float64]string{
		0: "0", 0.01234: "0.0123", 1.5: "1.50", 12.34: "12.3", 123.4: "123", 1234.5: "1,234", -1234567: "-1,234,567", 1e9: "1,000,000,000",
	} {
		if got := Num(in); got != want {
			t.Errorf("Num(%v) = %q, want %q", in, got, want)
		}
	}
	if Num(math.NaN()) != "n/a" || Num(math.Inf(1)) != "∞" {
		t.Error("NaN or Inf")
	}
}

func TestTable(t *testing.T) {
	tb := &Table{Head: []string{"name", "kind", "value"}, Left: 2}
	tb.Add("a|b", "x", "1")
	tb.Add("long name", "y", "12,345")
	var md bytes.Buffer
	tb.Markdown(&md)
	want := "| name | kind | value |\n|---|---|---:|\n| a\\|b | x | 1 |\n| long name | y | 12,345 |\n"
	if md.String() != want {
		t.Errorf("Markdown:\n%s\nwant:\n%s", md.String(), want)
	}
	var txt bytes.Buffer
	if err := tb.Text(&txt); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(txt.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("Text:\n%s", txt.String())
	}
	// Left columns start in the same place; figures end in the same place.
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing space in %q", l)
		}
		if len(l) != len(lines[0]) {
			t.Errorf("ragged right edge:\n%s", txt.String())
		}
	}
	if !strings.HasPrefix(lines[1], "  a|b        x") || !strings.HasPrefix(lines[2], "  long name  y") {
		t.Errorf("left columns:\n%s", txt.String())
	}
}

func TestRawRoundTrip(t *testing.T) {
	s := &Set{Procs: 2}
	s.SetConfig("goos", "linux")
	s.SetConfig("cpu", "Some CPU @ 2.0GHz")
	s.SetConfig("goos", "linux") // replaced, not repeated
	s.Add("Corpus/O3/j1", 1, Metric{504011142, "ns/op"}, Metric{261.4, "instrs/ms"})
	s.Add("Kernels/Or/changed/256/generic", 1000, Metric{12.25, "ns/op"}, Metric{5000.5, "MB/s"})
	s.Add("Corpus/O3/j1", 1, Metric{490000000, "ns/op"}, Metric{270, "instrs/ms"})
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	want := "goos: linux\ncpu: Some CPU @ 2.0GHz\n" +
		"BenchmarkCorpus/O3/j1-2\t1\t504011142 ns/op\t261.4 instrs/ms\n" +
		"BenchmarkKernels/Or/changed/256/generic-2\t1000\t12.25 ns/op\t5000.5 MB/s\n" +
		"BenchmarkCorpus/O3/j1-2\t1\t490000000 ns/op\t270 instrs/ms\n"
	if b.String() != want {
		t.Errorf("WriteTo:\n%s\nwant:\n%s", b.String(), want)
	}
	back, err := Parse(strings.NewReader("some log line\n" + b.String() + "PASS\nok  \tpkg\t1.2s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if back.Procs != 2 || back.ConfigValue("cpu") != "Some CPU @ 2.0GHz" || len(back.Results) != 3 {
		t.Fatalf("Parse: %+v", back)
	}
	if v := back.Values("Corpus/O3/j1", "instrs/ms"); len(v) != 2 || v[0] != 261.4 || v[1] != 270 {
		t.Errorf("Values %v", v)
	}
	if names := back.Names(); len(names) != 2 || names[0] != "Corpus/O3/j1" {
		t.Errorf("Names %v", names)
	}
	if sm := back.Summary("Kernels/Or/changed/256/generic", "MB/s"); sm.N != 1 || sm.Median != 5000.5 {
		t.Errorf("Summary %+v", sm)
	}
}

// Parse reads what `go test -bench` prints, -benchmem and custom metrics
// included.
func TestParseGoTest(t *testing.T) {
	const out = `goos: linux
goarch: amd64
pkg: github.com/ptxopt/ptxopt
cpu: AMD EPYC
BenchmarkPipelineScaling/10000-2         	       1	     15133 ns/instr	117694720 B/op	   75635 allocs/op
BenchmarkCorpus-2   	       1	 504011142 ns/op	       261.4 instrs/ms
--- FAIL: BenchmarkBroken
PASS
`
	s, err := Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 2 || s.ConfigValue("pkg") != "github.com/ptxopt/ptxopt" {
		t.Fatalf("%+v", s)
	}
	r := s.Results[0]
	if r.Name != "PipelineScaling/10000" || r.N != 1 || len(r.Metrics) != 3 {
		t.Errorf("%+v", r)
	}
	if v, ok := r.Get("allocs/op"); !ok || v != 75635 {
		t.Errorf("allocs/op %v %v", v, ok)
	}
	if _, ok := r.Get("MB/s"); ok {
		t.Error("a unit that is not there")
	}
}

// Per-round ratios: the i-th result of each name pairs with the i-th of
// the other.
func TestBVTables(t *testing.T) {
	s := &Set{}
	const pre = "Kernels/OrWithAndNotIfChanged/changed/65536/"
	for _, k := range []float64{1, 2, 1} {
		s.Add(pre+"generic", 1, Metric{400 * k, "ns/op"}, Metric{80000 / k, "MB/s"})
		s.Add(pre+"avx2", 1, Metric{100 * k, "ns/op"}, Metric{320000 / k, "MB/s"})
		s.Add(pre+"naive32", 1, Metric{1000 * k, "ns/op"}, Metric{32000 / k, "MB/s"})
		s.Add(pre+"bnb", 1, Metric{800, "ns/op"}, Metric{40000, "MB/s"})
		s.Add(pre+"readprobe", 1, Metric{80, "ns/op"}, Metric{400000, "MB/s"})
	}
	tb := s.BVKernelTable()
	if tb == nil || len(tb.Rows) != 5 {
		t.Fatalf("table %+v", tb)
	}
	// avx2 is the fastest level: 10× naive32 in every round (the rounds
	// slow both alike), 8× or 4× bnb.
	var avx []string
	for _, r := range tb.Rows {
		if r[3] == "avx2*" {
			avx = r
		}
	}
	if avx == nil || avx[7] != "10.0 [10.0–10.0]×" || avx[8] != "8.00 [4.00–8.00]×" || avx[9] != "80.0 [40.0–80.0]%" {
		t.Errorf("avx2 row %q", avx)
	}
	hl := s.BVHeadline()
	if hl[0].Value.Median != 10 || hl[0].Verdict() != "ok" || hl[1].Verdict() != "ok" {
		t.Errorf("headline %+v", hl[:2])
	}
	if hl[2].Verdict() != "not measured" {
		t.Errorf("converged not measured: %+v", hl[2])
	}
	if hl[4].Value.Median != 80 || hl[4].Verdict() != "ok" {
		t.Errorf("probe share %+v", hl[4])
	}
}

func TestPlots(t *testing.T) {
	dir := t.TempDir()
	ll := &LogLog{Title: "t", XLabel: "n", YLabel: "ms", RefLabel: "linear", Series: []Series{
		{Name: "a", X: []float64{1000, 10000, 100000}, Y: []Summary{Summarize([]float64{1, 2}), Summarize([]float64{15, 20}), Summarize(nil)}},
		{Name: "b", X: []float64{1000, 10000}, Y: []Summary{Summarize([]float64{0.5}), Summarize([]float64{0})}},
	}}
	path := filepath.Join(dir, "ll.svg")
	if err := ll.Save(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte("<svg")) || !bytes.Contains(data, []byte("linear")) {
		t.Errorf("log-log SVG: %v, %d bytes", err, len(data))
	}
	if err := (&LogLog{Title: "empty", Series: []Series{{Name: "x"}}}).Save(filepath.Join(dir, "e.svg")); err == nil {
		t.Error("an empty plot was drawn")
	}
	// The same medians drawn with and without spread: the min–max error
	// bars add lines (one bar and two caps each) to the SVG.
	paths := func(name string, vals ...Summary) int {
		bars := &Bars{Title: "b\nmachine", XLabel: "%", Labels: []string{"parse", "phases"}, Values: vals, Ref: 50, RefLabel: "half"}
		p := filepath.Join(dir, name)
		if err := bars.Save(p); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(data, []byte("machine")) {
			t.Fatalf("%s: %v, no second title line", name, err)
		}
		return bytes.Count(data, []byte("<path"))
	}
	flat := paths("flat.svg", Summarize([]float64{10}), Summarize([]float64{90}))
	spread := paths("spread.svg", Summarize([]float64{8, 10, 13}), Summarize([]float64{85, 90, 91}))
	if spread < flat+6 {
		t.Errorf("bars with spread draw %d paths, without %d: no min–max error bars", spread, flat)
	}
	if err := (&Bars{Title: "none", Ref: math.NaN()}).Save(filepath.Join(dir, "n.svg")); err == nil {
		t.Error("an empty bar chart was drawn")
	}
}

// The error bars sit on their bars (the first value on top) and reach
// from the min to the max; a bar of one run has none.
func TestBarSpread(t *testing.T) {
	sp := newBarSpread([]Summary{Summarize([]float64{1, 2, 6}), Summarize([]float64{5}), Summarize([]float64{3, 4, 9, 10})})
	if sp.Len() != 2 {
		t.Fatalf("%d error bars, want 2 (the single run has none)", sp.Len())
	}
	for i, want := range []struct{ x, y, lo, hi float64 }{{2, 2, 1, 4}, {6.5, 0, 3.5, 3.5}} {
		x, y := sp.XY(i)
		lo, hi := sp.XError(i)
		if x != want.x || y != want.y || lo != want.lo || hi != want.hi {
			t.Errorf("bar %d: at (%v, %v) -%v +%v, want (%v, %v) -%v +%v", i, x, y, lo, hi, want.x, want.y, want.lo, want.hi)
		}
	}
}

func TestTicks(t *testing.T) {
	var got []string
	for _, tk := range (logTicks{}).Ticks(800, 30000) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "1,000 2,000 5,000 10,000 20,000" {
		t.Errorf("log labels %v", got)
	}
	got = nil
	for _, tk := range (logTicks{}).Ticks(0.5, 2e6) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "1 10 100 1,000 10,000 100,000 1,000,000" {
		t.Errorf("wide log labels %v", got)
	}
	got = nil
	for _, tk := range (linearTicks{}).Ticks(0, 27) {
		got = append(got, tk.Label)
	}
	if strings.Join(got, " ") != "0 5 10 15 20 25" {
		t.Errorf("linear labels %v", got)
	}
}

// A figure's machine line names the CPU model and the bit-vector level,
// and still says what it can where /proc has no model name.
func TestMachineLabel(t *testing.T) {
	m := Machine{CPU: "AMD EPYC 7B13", CPUs: 2, Level: "avx2", OS: "linux", Arch: "amd64"}
	if got, want := m.Label(), "AMD EPYC 7B13, 2 CPUs; bit vectors avx2"; got != want {
		t.Errorf("Label = %q, want %q", got, want)
	}
	m.CPU = ""
	if got := m.Label(); !strings.Contains(got, "linux/amd64") || !strings.Contains(got, "bit vectors avx2") {
		t.Errorf("Label without a model = %q", got)
	}
	if l := ThisMachine().Label(); !strings.Contains(l, "bit vectors "+ThisMachine().Level) {
		t.Errorf("this machine's label %q lacks its level", l)
	}
}
