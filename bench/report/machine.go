package report

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/ptxopt/ptxopt/bench"
	"github.com/ptxopt/ptxopt/bitvec"
)

// Machine describes the machine and build a report measured on.
type Machine struct {
	Go, OS, Arch string
	Procs        int    // GOMAXPROCS
	CPUs         int    // runtime.NumCPU
	CPU          string // model name ("" where /proc/cpuinfo has none)
	BitvecCPU    string // bitvec.CPUReport
	Levels       []string
	Level        string // the level the BitVector methods use
	Forced       string // why PTXOPT_BITVEC was ignored, when it was
	Probe        string // the read probe's instruction set
	Load         float64
	MemTotal     int64 // bytes; 0 where unknown
}

// ThisMachine describes the running process's machine.
func ThisMachine() Machine {
	m := Machine{
		Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
		Procs: runtime.GOMAXPROCS(0), CPUs: runtime.NumCPU(),
		CPU: cpuName(), BitvecCPU: bitvec.CPUReport(), Levels: bench.Levels(),
		Level: bitvec.Level().String(), Probe: bench.ProbeWidth(), Load: LoadAvg(),
		MemTotal: memTotal(),
	}
	if err := bitvec.ForcedLevelError(); err != nil {
		m.Forced = fmt.Sprintf("%s ignored: %v", bitvec.EnvVar, err)
	}
	return m
}

// Label names the machine in a figure's title: the CPU model and the
// level the BitVector methods run at, which together decide the figures.
func (m Machine) Label() string {
	cpu := m.CPU
	if cpu == "" {
		cpu = m.OS + "/" + m.Arch + " (CPU model not reported)"
	}
	return fmt.Sprintf("%s, %d CPUs; bit vectors %s", cpu, m.CPUs, m.Level)
}

// Busy reports whether other processes were competing for the CPUs when
// the description was taken (one-minute load above half the CPUs).
func (m Machine) Busy() bool { return m.Load > float64(m.CPUs)/2 }

// Header is the text header of cmd/bvreport.
func (m Machine) Header() string {
	var b strings.Builder
	fmt.Fprintf(&b, "go:        %s %s/%s, GOMAXPROCS %d\n", m.Go, m.OS, m.Arch, m.Procs)
	if m.CPU != "" {
		fmt.Fprintf(&b, "cpu:       %s\n", m.CPU)
	}
	fmt.Fprintf(&b, "bitvec:    %s\n", m.BitvecCPU)
	fmt.Fprintf(&b, "levels:    %s (methods use %s", strings.Join(m.Levels, ", "), m.Level)
	if m.Forced != "" {
		fmt.Fprintf(&b, "; %s", m.Forced)
	}
	fmt.Fprintf(&b, ")\nreadprobe: %s\n", m.Probe)
	if m.Busy() {
		fmt.Fprintf(&b, "WARNING:   load average %.2f on %d CPUs: other processes compete, timings are noisy\n", m.Load, m.CPUs)
	}
	b.WriteString("\n")
	return b.String()
}

// Config writes the machine into a raw set's configuration lines, which
// benchstat shows and compares.
func (m Machine) Config(s *Set) {
	s.SetConfig("goos", m.OS)
	s.SetConfig("goarch", m.Arch)
	if m.CPU != "" {
		s.SetConfig("cpu", m.CPU)
	}
	s.SetConfig("go", m.Go)
	s.SetConfig("gomaxprocs", strconv.Itoa(m.Procs))
	s.SetConfig("bitvec-level", m.Level)
	s.SetConfig("bitvec-levels", strings.Join(m.Levels, ","))
	s.Procs = m.Procs
}

// Markdown describes the machine as a Markdown list.
func (m Machine) Markdown() string {
	var b strings.Builder
	cpu := m.CPU
	if cpu == "" {
		cpu = "(model not reported)"
	}
	fmt.Fprintf(&b, "- CPU: %s, %d logical CPUs", cpu, m.CPUs)
	if m.MemTotal > 0 {
		fmt.Fprintf(&b, ", %.0f GiB memory", float64(m.MemTotal)/(1<<30))
	}
	fmt.Fprintf(&b, "\n- %s %s/%s, GOMAXPROCS %d\n", m.Go, m.OS, m.Arch, m.Procs)
	fmt.Fprintf(&b, "- bit vectors: %s; levels %s; BitVector methods use **%s**", m.BitvecCPU, strings.Join(m.Levels, ", "), m.Level)
	if m.Forced != "" {
		fmt.Fprintf(&b, " (%s)", m.Forced)
	}
	fmt.Fprintf(&b, "; read probe %s\n", m.Probe)
	fmt.Fprintf(&b, "- load average at start %.2f", m.Load)
	if m.Busy() {
		b.WriteString(" — **other processes competed for the CPUs: timings are noisy**")
	}
	b.WriteString("\n")
	return b.String()
}

// LoadAvg returns the one-minute load average where /proc has it, else 0.
func LoadAvg() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// procField returns the first value of a "Key: value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// cpuName returns the processor model from /proc/cpuinfo where there is one.
func cpuName() string { return procField("/proc/cpuinfo", "model name") }

func memTotal() int64 {
	f := strings.Fields(procField("/proc/meminfo", "MemTotal"))
	if len(f) == 0 {
		return 0
	}
	kb, _ := strconv.ParseInt(f[0], 10, 64)
	return kb << 10
}
