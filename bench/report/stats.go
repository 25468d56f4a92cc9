// Package report holds what the benchmark reports share: summaries of
// repeated runs (min, median, max), the machine description, tables
// printed as aligned text or Markdown, the `go test -bench` text format
// (written and read, so benchstat reads what the reports write), SVG plots
// (gonum.org/v1/plot), and the bit-vector kernel tables of cmd/bvreport
// and cmd/benchreport.
package report

import (
	"fmt"
	"math"
	"slices"
)

// Summary is what repeated runs of one figure measured.
type Summary struct {
	N                int
	Min, Median, Max float64
}

// Summarize returns the summary of xs; NaN values are ignored. With no
// values the summary has N 0 and NaN figures.
func Summarize(xs []float64) Summary {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return Summary{Min: math.NaN(), Median: math.NaN(), Max: math.NaN()}
	}
	slices.Sort(v)
	n := len(v)
	med := v[n/2]
	if n%2 == 0 {
		med = (v[n/2-1] + v[n/2]) / 2
	}
	return Summary{N: n, Min: v[0], Median: med, Max: v[n-1]}
}

// OK reports whether the summary holds at least one value.
func (s Summary) OK() bool { return s.N > 0 }

// Scale returns the summary with every figure multiplied by k (k > 0).
func (s Summary) Scale(k float64) Summary {
	s.Min, s.Median, s.Max = s.Min*k, s.Median*k, s.Max*k
	return s
}

// Ratios divides paired samples: num[i]/den[i] for the i that both have
// (runs paired by round, so each ratio comes from runs made back to back).
func Ratios(num, den []float64) []float64 {
	n := min(len(num), len(den))
	r := make([]float64, n)
	for i := range n {
		r[i] = num[i] / den[i]
	}
	return r
}

// Num formats a figure with three significant digits, grouping thousands
// ("1,234", "12.3", "0.0123").
func Num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 0):
		return "∞"
	}
	a := math.Abs(x)
	switch {
	case a >= 1000:
		return group(fmt.Sprintf("%.0f", x))
	case a >= 100:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	case a >= 1:
		return fmt.Sprintf("%.2f", x)
	case a == 0:
		return "0"
	}
	return fmt.Sprintf("%.3g", x)
}

// group inserts thousands separators into an integer string.
func group(s string) string {
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// String formats a summary with Num: "median [min–max]".
func (s Summary) String() string {
	if !s.OK() {
		return "n/a"
	}
	if s.N == 1 {
		return Num(s.Median) + " (1 run)"
	}
	return Num(s.Median) + " [" + Num(s.Min) + "–" + Num(s.Max) + "]"
}

// Cell formats a summary for a table cell: the figure alone for one run,
// "median [min–max]" for more.
func (s Summary) Cell() string {
	if s.N == 1 {
		return Num(s.Median)
	}
	return s.String()
}
