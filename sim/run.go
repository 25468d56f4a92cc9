package sim

import (
	"fmt"
	"sort"

	"github.com/ptxopt/ptxopt/ir"
)

// Stats reports what a run executed.
type Stats struct {
	WarpInstrs int64 // warp-level instructions issued
	LaneInstrs int64 // instructions times active lanes
}

const defaultMaxSteps = 50_000_000

// RunFunc compiles f and runs it (a convenience for tests).
func RunFunc(f *ir.Func, l *Launch, mem *Memory) (Stats, error) {
	p, err := Compile(f)
	if err != nil {
		return Stats{}, err
	}
	return p.Run(l, mem)
}

// insertFixed adds an allocation at a fixed address unless one exists.
func (m *Memory) insertFixed(base uint64, data []byte) {
	for _, a := range m.allocs {
		if a.Base == base {
			return
		}
	}
	m.allocs = append(m.allocs, &Alloc{Base: base, Data: append([]byte(nil), data...)})
	sort.Slice(m.allocs, func(i, j int) bool { return m.allocs[i].Base < m.allocs[j].Base })
	m.last = 0
}

// Run executes the kernel on the launch. Memory is updated in place.
func (p *Program) Run(l *Launch, mem *Memory) (Stats, error) {
	if p.f.Kind != ir.KindEntry {
		return Stats{}, fmt.Errorf("sim: %s is not a kernel", p.name)
	}
	if l.Block.Size() <= 0 || l.Grid.Size() <= 0 || l.Block.Size() > 1024 {
		return Stats{}, fmt.Errorf("sim: bad launch shape %v x %v", l.Grid, l.Block)
	}
	if len(l.Params) != len(p.paramOff) {
		return Stats{}, fmt.Errorf("sim: %s takes %d parameters, launch has %d", p.name, len(p.paramOff), len(l.Params))
	}
	for _, g := range p.globals {
		mem.insertFixed(g.Base, g.Data)
	}
	for _, c := range l.Global {
		if err := p.patchGlobal(mem, c); err != nil {
			return Stats{}, err
		}
	}
	m := &machine{p: p, l: l, mem: mem, max: l.MaxSteps, cov: l.Cover}
	if l.WarpShared != nil {
		sh, err := p.warpShared(l.WarpShared)
		if err != nil {
			return Stats{}, err
		}
		m.shared = sh
	}
	if m.max == 0 {
		m.max = defaultMaxSteps
	}
	m.cbank = p.constBank
	m.extWide = l.ExternSeed%4 == 3
	m.extThread = l.ExternSeed%4 == 1 || l.ExternSeed%4 == 2
	for _, e := range l.Extern {
		if len(e.Near) > 0 {
			if m.externNear == nil {
				m.externNear = map[externKey][]uint64{}
			}
			m.externNear[externKey{e.Name, e.Ret}] = e.Near
			continue
		}
		if m.externPtr == nil {
			m.externPtr = map[externKey]uint64{}
		}
		m.externPtr[externKey{e.Name, e.Ret}] = e.Value
	}
	if len(l.Const) > 0 {
		m.cbank = append([]byte(nil), p.constBank...)
		for _, c := range l.Const {
			a, ok := p.ml.symAddr(c.Sym)
			if !ok || int(a)+c.Off < 0 || int(a)+c.Off+len(c.Data) > len(m.cbank) {
				return Stats{}, fmt.Errorf("sim: .const patch outside the variable's bytes")
			}
			copy(m.cbank[int(a)+c.Off:], c.Data)
		}
	}
	m.params = make([]byte, p.paramSize)
	for k, b := range l.Params {
		if len(b) > p.paramSz[k] {
			return Stats{}, fmt.Errorf("sim: parameter %d has %d bytes, expected at most %d", k, len(b), p.paramSz[k])
		}
		copy(m.params[p.paramOff[k]:], b)
	}
	bs := l.Block.Size()
	nw := (bs + 31) / 32
	shSize := p.dynShared + l.DynShared
	if p.dynShared < p.sharedSize {
		shSize = p.sharedSize + l.DynShared
	}
	c := &cta{sh: newSpace(uint64(shSize), &m.used)}
	warps := make([]*warp, nw)
	regs := make([]uint64, nw*p.nregs*32)
	for i := range warps {
		w := &warp{m: m, p: p, c: c, id: i}
		w.regs = regs[i*p.nregs*32 : (i+1)*p.nregs*32]
		w.stack = make([]entry, 0, 16)
		for ln := 0; ln < 32; ln++ {
			t := i*32 + ln
			w.tid[ln] = [3]uint32{uint32(t % l.Block.X), uint32(t / l.Block.X % l.Block.Y), uint32(t / (l.Block.X * l.Block.Y))}
		}
		warps[i] = w
	}
	lvs := make([]*space, nw)
	pas := make([]byte, nw*32*p.paramArea)
	for i := range lvs {
		lvs[i] = newSpace(32*uint64(p.localVars), &m.used)
	}
	c.warps = warps
	var st Stats
	ran := 0
	for cz := 0; cz < l.Grid.Z; cz++ {
		for cy := 0; cy < l.Grid.Y; cy++ {
			for cx := 0; cx < l.Grid.X; cx++ {
				if l.CTAs > 0 && ran == l.CTAs {
					st.WarpInstrs, st.LaneInstrs = m.steps, m.lanes
					return st, nil
				}
				ran++
				c.id = [3]uint32{uint32(cx), uint32(cy), uint32(cz)}
				c.sh.reset()
				for b := range c.bars {
					c.bars[b].reset()
				}
				clear(regs)
				clear(pas)
				for i, w := range warps {
					w.p = p
					w.hit = m.cov.of(p)
					w.regs = regs[i*p.nregs*32 : (i+1)*p.nregs*32]
					lvs[i].reset()
					w.lv, w.lstr = lvs[i], uint64(p.localVars)
					w.pa, w.pstr = pas[i*32*p.paramArea:(i+1)*32*p.paramArea], p.paramArea
					n := min(32, bs-i*32)
					w.release, w.redIn = false, nil
					w.live = uint32(1<<n - 1)
					w.stack = append(w.stack[:0], entry{0, -1, w.live})
					w.frames = w.frames[:0]
					w.done, w.atBar, w.spin = false, false, false
				}
				c.mbarEpoch = 0
				if err := m.runCTA(warps); err != nil {
					st.WarpInstrs, st.LaneInstrs = m.steps, m.lanes
					return st, err
				}
			}
		}
	}
	st.WarpInstrs, st.LaneInstrs = m.steps, m.lanes
	return st, nil
}

func (m *machine) runCTA(warps []*warp) error {
	c := warps[0].c
	stalled := 0
	for {
		alive, spinning, exited := 0, 0, false
		epoch := c.mbarEpoch
		for _, w := range warps {
			if w.done {
				continue
			}
			if !w.atBar {
				w.spin = false
				w.run()
				if m.err != nil {
					return m.err
				}
				if w.done {
					exited = true
					// an exited warp no longer holds back a barrier
					// without a thread count
					for b := range c.bars {
						c.completeIfAll(b)
					}
				}
			}
			if !w.done {
				alive++
				if w.spin {
					spinning++
				}
			}
		}
		if alive == 0 {
			return nil
		}
		// every live warp waits at a barrier or on an mbarrier: release
		// those whose barrier completed
		released := false
		for _, w := range warps {
			if w.release {
				w.release, w.atBar = false, false
				released = true
			}
		}
		if released || exited || c.mbarEpoch != epoch {
			stalled = 0
			continue
		}
		if spinning > 0 {
			// warps waiting on mbarriers retry in the next round; a run
			// of rounds in which nothing changes is a deadlock
			if stalled++; stalled < mbStallRounds {
				continue
			}
			for _, w := range warps {
				if w.spin {
					m.err = &Trap{Kernel: m.p.name, PC: -1, Instr: "mbarrier", Lane: w.id * 32, Msg: "mbarrier deadlock: every live warp waits on a phase that cannot complete"}
					return m.err
				}
			}
		}
		for _, w := range warps {
			if !w.done {
				m.err = &Trap{Kernel: m.p.name, PC: -1, Instr: "bar", Lane: w.id * 32, Msg: "barrier deadlock: every live warp waits at a barrier that cannot complete"}
				return m.err
			}
		}
	}
}

// patchGlobal writes c's bytes into the module .global variable it names
// (the variable's allocation in mem).
func (p *Program) patchGlobal(mem *Memory, c ConstPatch) error {
	a, ok := p.ml.symAddr(c.Sym)
	if ok {
		for _, al := range mem.allocs {
			if al.Base == a {
				if c.Off < 0 || c.Off+len(c.Data) > len(al.Data) {
					break
				}
				copy(al.Data[c.Off:], c.Data)
				return nil
			}
		}
	}
	return fmt.Errorf("sim: .global patch outside the variable's bytes")
}
