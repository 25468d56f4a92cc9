package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Metric is one figure of a benchmark result line: "12.5 ns/op".
type Metric struct {
	Value float64
	Unit  string
}

// Result is one benchmark result line of the `go test -bench` format:
//
//	Benchmark<Name>-<procs>  <N>  <value> <unit>  <value> <unit> ...
//
// Name has no "Benchmark" prefix and no -procs suffix.
type Result struct {
	Name    string
	N       int
	Metrics []Metric
}

// Get returns the value of a unit.
func (r Result) Get(unit string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Unit == unit {
			return m.Value, true
		}
	}
	return math.NaN(), false
}

// Set is a run's raw output: configuration lines ("key: value", which
// benchstat reads as the file's configuration) and results, in the order
// they were measured.
type Set struct {
	Config  [][2]string
	Results []Result
	// Procs is the -procs suffix written after every name (GOMAXPROCS, as
	// `go test` writes it; 1 writes none).
	Procs int
}

// SetConfig sets (or adds) a configuration line. Keys are lower case
// without spaces, as benchstat wants them.
func (s *Set) SetConfig(key, value string) {
	for i := range s.Config {
		if s.Config[i][0] == key {
			s.Config[i][1] = value
			return
		}
	}
	s.Config = append(s.Config, [2]string{key, value})
}

// ConfigValue returns the value of a configuration key ("" when absent).
func (s *Set) ConfigValue(key string) string {
	for _, c := range s.Config {
		if c[0] == key {
			return c[1]
		}
	}
	return ""
}

// Add appends a result.
func (s *Set) Add(name string, n int, metrics ...Metric) {
	s.Results = append(s.Results, Result{Name: name, N: n, Metrics: metrics})
}

// Values returns the values of one unit over the results of one name, in
// measurement order.
func (s *Set) Values(name, unit string) []float64 {
	var v []float64
	for _, r := range s.Results {
		if r.Name == name {
			if x, ok := r.Get(unit); ok {
				v = append(v, x)
			}
		}
	}
	return v
}

// Summary summarizes Values(name, unit).
func (s *Set) Summary(name, unit string) Summary { return Summarize(s.Values(name, unit)) }

// Names returns the distinct result names in first-seen order.
func (s *Set) Names() []string {
	seen := map[string]bool{}
	var r []string
	for _, x := range s.Results {
		if !seen[x.Name] {
			seen[x.Name] = true
			r = append(r, x.Name)
		}
	}
	return r
}

// WriteTo writes the set in the `go test -bench` format.
func (s *Set) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, c := range s.Config {
		fmt.Fprintf(&b, "%s: %s\n", c[0], c[1])
	}
	suffix := ""
	if s.Procs > 1 {
		suffix = "-" + strconv.Itoa(s.Procs)
	}
	for _, r := range s.Results {
		fmt.Fprintf(&b, "Benchmark%s%s\t%d", r.Name, suffix, max(r.N, 1))
		for _, m := range r.Metrics {
			fmt.Fprintf(&b, "\t%s %s", formatValue(m.Value), m.Unit)
		}
		b.WriteString("\n")
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

var (
	resultLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-(\d+))?\s+(\d+)((?:\s+\S+\s+\S+)*)\s*$`)
	configLine = regexp.MustCompile(`^([a-z][^\s:A-Z]*):\s*(.*)$`)
)

// Parse reads `go test -bench` output: configuration lines and result
// lines; everything else (PASS, ok, log lines) is skipped. Several runs
// (-count) and several packages may be concatenated.
func Parse(r io.Reader) (*Set, error) {
	s := &Set{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), " \t\r")
		if m := configLine.FindStringSubmatch(text); m != nil {
			if s.ConfigValue(m[1]) == "" {
				s.SetConfig(m[1], m[2])
			}
			continue
		}
		m := resultLine.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[3])
		if err != nil {
			return nil, fmt.Errorf("line %d: bad iteration count %q", line, m[3])
		}
		if m[2] != "" && s.Procs == 0 {
			s.Procs, _ = strconv.Atoi(m[2])
		}
		f := strings.Fields(m[4])
		res := Result{Name: m[1], N: n}
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: bad value %q", line, f[i])
			}
			res.Metrics = append(res.Metrics, Metric{v, f[i+1]})
		}
		s.Results = append(s.Results, res)
	}
	return s, sc.Err()
}

// formatValue prints a figure with six significant digits, without an
// exponent for large values.
func formatValue(v float64) string {
	if math.Abs(v) >= 1e5 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
