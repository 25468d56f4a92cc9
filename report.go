package ptxopt

import (
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/phases"
)

// Report is what a run did, over one or more files. Its JSON form is the
// stable schema of `ptxopt --report json`:
//
//	{"files":[{"path":…,"error":…,"functions":[{"name":…,
//	  "instrs_in":…,"instrs_out":…,
//	  "regs_in":{"R":…,"UR":…,"P":…,"UP":…},"regs_out":{…},
//	  "maxlive_in":{…},"maxlive_out":{…},
//	  "local_bytes_in":…,"local_bytes_out":…,
//	  "phases":[{"name":…,"ns":…,"changed":…,"counters":{…},"settled":…,"instrs":…}]}]}],
//	 "total_ns":…}
//
// "error" is "" for a file that went through; "functions" and "phases" are
// [] rather than absent, "counters" is {} when a phase counted nothing (in
// Go, the Counters of such a phase are nil).
// Keys are only ever added, never renamed or removed.
type Report struct {
	Files   []FileReport `json:"files"`
	TotalNS int64        `json:"total_ns"`
}

// FileReport is the report of one input file.
type FileReport struct {
	Path      string       `json:"path"`
	Error     string       `json:"error"`
	Functions []FuncReport `json:"functions"`

	Target string `json:"-"` // the SM target the file was optimized for
	NS     int64  `json:"-"` // time spent on the file, parse and print included
}

// FuncReport is the report of one function definition.
type FuncReport struct {
	Name          string        `json:"name"`
	Entry         bool          `json:"-"` // .entry (kernel) rather than .func
	InstrsIn      int           `json:"instrs_in"`
	InstrsOut     int           `json:"instrs_out"`
	RegsIn        RegFiles      `json:"regs_in"`
	RegsOut       RegFiles      `json:"regs_out"`
	MaxLiveIn     RegFiles      `json:"maxlive_in"`
	MaxLiveOut    RegFiles      `json:"maxlive_out"`
	LocalBytesIn  int           `json:"local_bytes_in"`
	LocalBytesOut int           `json:"local_bytes_out"`
	Phases        []PhaseReport `json:"phases"`
}

// RegFiles holds one figure per register file: the registers the code names (in
// 32-bit slots for R and UR, a 64-bit register counting two) or the
// maximum live at any instruction.
type RegFiles struct {
	R  int `json:"R"`
	UR int `json:"UR"`
	P  int `json:"P"`
	UP int `json:"UP"`
}

// PhaseReport is what one phase did to one function.
type PhaseReport struct {
	Name     string   `json:"name"`
	NS       int64    `json:"ns"`
	CPUNS    int64    `json:"cpu_ns,omitempty"` // with Options.PhaseCPU: the phase's thread CPU time
	Changed  bool     `json:"changed"`
	Counters Counters `json:"counters"`
	// Settled: skipped because the same pass (for GeneralOptimize slots:
	// the same bundle of sub-passes, or an earlier bundle whose
	// sub-passes include this one's) already ran to a fixed point and
	// nothing changed the function since.
	Settled bool `json:"settled"`
	// Instrs: the function's instructions after the phase.
	Instrs int `json:"instrs"`
}

func regFiles(a [ir.NumFiles]int) RegFiles {
	return RegFiles{R: a[ir.FileR], UR: a[ir.FileUR], P: a[ir.FileP], UP: a[ir.FileUP]}
}

// Counters are a phase's named statistics, in the order the phase first
// counted them, each name once. Their JSON form is an object
// ({"copies propagated": 12}), {} when the phase counted nothing.
type Counters []phases.Counter

// Get returns the value of counter name (0 when the phase did not count
// it).
func (c Counters) Get(name string) int64 {
	for _, x := range c {
		if x.Name == name {
			return x.N
		}
	}
	return 0
}

// MarshalJSON writes the counters as a JSON object.
func (c Counters) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for k, x := range c {
		if k > 0 {
			b = append(b, ',')
		}
		name, err := json.Marshal(x.Name)
		if err != nil {
			return nil, err
		}
		b = append(b, name...)
		b = append(b, ':')
		b = strconv.AppendInt(b, x.N, 10)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the object form back (names in sorted order, since a
// JSON object keeps none).
func (c *Counters) UnmarshalJSON(b []byte) error {
	var m map[string]int64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*c = (*c)[:0]
	for _, name := range slices.Sorted(maps.Keys(m)) {
		*c = append(*c, phases.Counter{Name: name, N: m[name]})
	}
	return nil
}

func phaseReports(stats []phases.PhaseStat) []PhaseReport {
	out := make([]PhaseReport, len(stats))
	for i, s := range stats {
		// Pass.Count keeps one entry per name: the statistics' slice is
		// the report's (no copy).
		out[i] = PhaseReport{Name: s.Name, NS: s.NS, CPUNS: s.CPUNS, Changed: s.Changed, Counters: Counters(s.Counters), Settled: s.Settled, Instrs: s.Instrs}
	}
	return out
}

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Totals sums a report: files that went through and failed, and
// instructions and R registers before and after over all functions.
type Totals struct {
	OK, Failed                  int
	InstrsIn, InstrsOut         int
	RegsIn, RegsOut             RegFiles
	MaxLiveRIn, MaxLiveROut     int // the largest R max-live of any function
	LocalBytesIn, LocalBytesOut int
	Functions                   int
}

// Totals computes the sums of r.
func (r *Report) Totals() Totals {
	var t Totals
	for _, f := range r.Files {
		if f.Error != "" {
			t.Failed++
			continue
		}
		t.OK++
		for _, fn := range f.Functions {
			t.Functions++
			t.InstrsIn += fn.InstrsIn
			t.InstrsOut += fn.InstrsOut
			t.RegsIn = addFiles(t.RegsIn, fn.RegsIn)
			t.RegsOut = addFiles(t.RegsOut, fn.RegsOut)
			t.MaxLiveRIn = max(t.MaxLiveRIn, fn.MaxLiveIn.R)
			t.MaxLiveROut = max(t.MaxLiveROut, fn.MaxLiveOut.R)
			t.LocalBytesIn += fn.LocalBytesIn
			t.LocalBytesOut += fn.LocalBytesOut
		}
	}
	return t
}

func addFiles(a, b RegFiles) RegFiles {
	return RegFiles{R: a.R + b.R, UR: a.UR + b.UR, P: a.P + b.P, UP: a.UP + b.UP}
}
