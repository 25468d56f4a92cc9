package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptxopt/ptxopt"
)

// PhaseTime is the time spent in one phase (by name, over every function
// and every input of a pass).
type PhaseTime struct {
	Name string `json:"name"`
	NS   int64  `json:"ns"`
	// CPUNS: the phase's thread CPU time, where the run measured it
	// (ptxopt.Options.PhaseCPU; 0 otherwise).
	CPUNS int64 `json:"cpu_ns,omitempty"`
}

// Split is where the time of optimizing inputs went: parsing, the
// phases (by name, in the order they first ran), the rest of
// Pipeline.Run (the report's resource measures before and after, and the
// driver), and printing. Summed over inputs, so with several workers it is
// CPU time rather than wall time.
type Split struct {
	ParseNS  int64       `json:"parse_ns"`
	RunNS    int64       `json:"run_ns"` // Pipeline.Run: the phases and the rest
	PrintNS  int64       `json:"print_ns"`
	Phases   []PhaseTime `json:"phases"`
	phaseIdx map[string]int
}

// PhasesNS returns the time of all phases together.
func (s *Split) PhasesNS() int64 {
	var n int64
	for _, p := range s.Phases {
		n += p.NS
	}
	return n
}

// OtherNS returns the time of Pipeline.Run outside the phases: the
// resource measures of the report and the driver.
func (s *Split) OtherNS() int64 { return s.RunNS - s.PhasesNS() }

// TotalNS returns parse + run + print.
func (s *Split) TotalNS() int64 { return s.ParseNS + s.RunNS + s.PrintNS }

func (s *Split) addPhase(name string, ns, cpu int64) {
	if s.phaseIdx == nil {
		s.phaseIdx = map[string]int{}
		for i, p := range s.Phases {
			s.phaseIdx[p.Name] = i
		}
	}
	i, ok := s.phaseIdx[name]
	if !ok {
		i = len(s.Phases)
		s.phaseIdx[name] = i
		s.Phases = append(s.Phases, PhaseTime{Name: name})
	}
	s.Phases[i].NS += ns
	s.Phases[i].CPUNS += cpu
}

// Add adds t into s.
func (s *Split) Add(t *Split) {
	s.ParseNS += t.ParseNS
	s.RunNS += t.RunNS
	s.PrintNS += t.PrintNS
	for _, p := range t.Phases {
		s.addPhase(p.Name, p.NS, p.CPUNS)
	}
}

// Optimize parses, optimizes and prints one input, adding where the time
// went to s. It returns the printed PTX and the report of the run.
func Optimize(ctx context.Context, p *ptxopt.Pipeline, in Input, s *Split) ([]byte, *ptxopt.FileReport, error) {
	t0 := time.Now()
	m, err := ptxopt.Parse(in.Name, in.Src)
	t1 := time.Now()
	if err != nil {
		return nil, nil, err
	}
	rep, err := p.Run(ctx, m)
	t2 := time.Now()
	if err != nil {
		return nil, rep, err
	}
	out := m.Format()
	t3 := time.Now()
	s.ParseNS += t1.Sub(t0).Nanoseconds()
	s.RunNS += t2.Sub(t1).Nanoseconds()
	s.PrintNS += t3.Sub(t2).Nanoseconds()
	for _, fn := range rep.Functions {
		for _, ph := range fn.Phases {
			s.addPhase(ph.Name, ph.NS, ph.CPUNS)
		}
	}
	return out, rep, nil
}

// Pass is one optimization of every input.
type Pass struct {
	WallNS    int64  // the whole pass
	Instrs    int    // input instructions
	InstrsOut int    // instructions after optimization
	Mallocs   uint64 // heap objects allocated during the pass
	Bytes     uint64 // heap bytes allocated during the pass
	Split     Split
}

// InstrsPerMS returns the end-to-end throughput of the pass.
func (p *Pass) InstrsPerMS() float64 { return float64(p.Instrs) / (float64(p.WallNS) / 1e6) }

// RunPass optimizes every input once with the given number of workers
// (goroutines taking inputs in turn from one Pipeline), and measures the
// wall time and the heap allocations of the whole pass. The first error
// stops the pass and is returned with the input's name.
func RunPass(ctx context.Context, p *ptxopt.Pipeline, ins []Input, workers int) (Pass, error) {
	workers = max(1, min(workers, len(ins)))
	splits := make([]Split, workers)
	outs := make([]int, workers)
	var next atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(ins) {
					return
				}
				_, rep, err := Optimize(ctx, p, ins[i], &splits[w])
				if err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("%s: %w", ins[i].Name, err) })
					next.Store(int64(len(ins)))
					return
				}
				for _, f := range rep.Functions {
					outs[w] += f.InstrsOut
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	runtime.ReadMemStats(&ms1)
	if firstErr != nil {
		return Pass{}, firstErr
	}
	ps := Pass{WallNS: wall.Nanoseconds(), Instrs: Total(ins), Mallocs: ms1.Mallocs - ms0.Mallocs, Bytes: ms1.TotalAlloc - ms0.TotalAlloc}
	for i := range splits {
		ps.Split.Add(&splits[i])
		ps.InstrsOut += outs[i]
	}
	return ps, nil
}
