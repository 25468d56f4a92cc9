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
	bars := &Bars{Title: "b", XLabel: "%", Labels: []string{"parse", "phases"}, Values: []float64{10, 90}, Ref: 50, RefLabel: "half"}
	if err := bars.Save(filepath.Join(dir, "b.svg")); err != nil {
		t.Fatal(err)
	}
	if err := (&Bars{Title: "none", Ref: math.NaN()}).Save(filepath.Join(dir, "n.svg")); err == nil {
		t.Error("an empty bar chart was drawn")
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
