// Package sim is ptxopt's reference SIMT simulator: it runs one kernel
// (an ir.Func) on a launch grid with warps of 32 lanes in lockstep, an
// active mask, reconvergence at the immediate post-dominator, per-lane
// registers and the PTX memory spaces. It is the semantic oracle of the
// project: the differential check (diff.go) runs a function before and
// after a transformation and compares all memory bit for bit.
//
// Each instruction is decoded once from its mnemonic text (split at the
// dots) into a compact record with an executor function; running a
// kernel allocates nothing per executed instruction.
//
// What the simulator cannot run it refuses by name: Compile and Run
// return *Unsupported{Op}. Faults of the program (out-of-bounds or
// misaligned accesses, trap, a step limit) stop the run with *Trap.
package sim

import (
	"fmt"
	"sort"

	"github.com/ptxopt/ptxopt/ir"
)

// Unsupported is returned for an instruction (or construct) the simulator
// does not implement. Op names it, e.g. "tex" or "mma".
type Unsupported struct {
	Op     string
	Detail string
}

func (e *Unsupported) Error() string {
	if e.Detail != "" {
		return "sim: unsupported " + e.Op + ": " + e.Detail
	}
	return "sim: unsupported " + e.Op
}

// Trap is a fault of the simulated program: a bad memory access, a trap
// instruction, a barrier deadlock, or the step limit.
type Trap struct {
	Kernel string
	PC     int    // index of the faulting instruction in the decoded code
	Instr  string // its mnemonic
	Lane   int    // lane (thread index in the CTA), -1 when not lane-specific
	Addr   uint64
	Msg    string
	// StepLimit is set when the run stopped at the step limit: the
	// program did not fault, it ran longer than allowed.
	StepLimit bool
}

func (e *Trap) Error() string {
	return fmt.Sprintf("sim: trap in %s at #%d %s (thread %d, addr %#x): %s", e.Kernel, e.PC, e.Instr, e.Lane, e.Addr, e.Msg)
}

// Dim3 is a launch dimension.
type Dim3 struct{ X, Y, Z int }

// Size returns X*Y*Z.
func (d Dim3) Size() int { return d.X * d.Y * d.Z }

// Launch describes one kernel launch.
type Launch struct {
	Grid, Block Dim3
	// Params holds the raw little-endian bytes of each kernel parameter,
	// in declaration order (pointers are 8-byte addresses from Memory.Alloc).
	Params [][]byte
	// CTAs, when positive, runs only the first CTAs thread blocks of the
	// grid (in the order x, then y, then z); the others never start. The
	// grid's shape (%nctaid) is still Grid: a kernel that strides over a
	// fixed amount of work by the grid's size does one stride's work in
	// each block that runs. The run is the start of a schedule of the
	// whole grid in which those blocks run first, to completion.
	CTAs int
	// DynShared is the size of dynamically sized (extern) shared memory.
	DynShared int
	// MaxSteps bounds the warp-instructions executed (0: a default of 50M).
	MaxSteps int64
	// Cover, when set, records which instructions executed (on at
	// least one lane with a true guard) during the run.
	Cover *Coverage
	// Const patches the module's .const bytes for this run (launch
	// parameters some kernels read from .const variables).
	Const []ConstPatch
	// Global patches the bytes of module .global variables declared
	// without an initializer for this run (state a host or a runtime
	// sets before the launch: OptiX's per-ray payload, a maximum depth),
	// applied after the variables are placed in memory.
	Global []ConstPatch
	// Extern fixes results of calls to functions without a body (the
	// uninterpreted functions): a pointer the kernel follows, say.
	Extern []ExternResult
	// WarpShared, when set, runs in the warp-shared register mode
	// (warpshared.go): WarpShared[r] true holds the kernel's register r
	// once per warp, as a uniform register (UR) of sm_75 and later is,
	// instead of once per lane. Nil (the default): every register is
	// per lane, as PTX defines.
	WarpShared []bool
	// ExternSeed salts the results of the uninterpreted functions (see
	// extern.go): one launch's results are a pure function of the
	// callee and its arguments, another seed draws others.
	ExternSeed uint64
}

// ConstPatch sets bytes of a .const (or, in Launch.Global, a .global)
// variable at an offset.
type ConstPatch struct {
	Sym  ir.SymID
	Off  int
	Data []byte
}

// ExternResult is the value that result Ret of every call to the
// function without a body named Name returns.
type ExternResult struct {
	Name  string
	Ret   int
	Value uint64
	// Near, when set, replaces Value: an integer result is one of these
	// on about half of the calls (which, a pure function of the
	// arguments like every uninterpreted result), values the kernel
	// compares the result with, so both sides of its branches run.
	Near []uint64
}

// Global address layout: allocations live above 4 GiB; generic windows for
// shared and local memory are fixed high ranges.
const (
	globalBase   uint64 = 1 << 32
	paramWindow  uint64 = 0x7c00_0000_0000
	constWindow  uint64 = 0x7d00_0000_0000
	sharedWindow uint64 = 0x7e00_0000_0000
	localWindow  uint64 = 0x7f00_0000_0000
	windowSize   uint64 = 1 << 32
	// A generic local address names the frame of the call depth d whose
	// .local byte it is: localWindow + d<<localFrameShift + offset. A
	// pointer to a caller's local variable, converted with cvta.local
	// and passed to a callee, keeps reaching the caller's frame there.
	localFrameShift        = 36
	localWindowSize uint64 = maxCallDepth << localFrameShift
	allocGap        uint64 = 1 << 12
)

// Alloc is one global allocation.
type Alloc struct {
	Base uint64
	Data []byte
	// ReadOnly allocations trap on writes (module .const banks use it).
	ReadOnly bool
	// A lazy region (Data nil) of size bytes: pages are made on first
	// touch and filled by fill, a pure function of the offset, so two
	// runs from clones of one memory see identical bytes.
	size  uint64
	pages [][]byte
	fill  func(dst []byte, off uint64)
	heap  bool // a block of the device heap (malloc)
}

// pageSize is the page of a lazy region.
const pageSize = 4096

// Size returns the allocation's size in bytes.
func (a *Alloc) Size() uint64 {
	if a.pages != nil {
		return a.size
	}
	return uint64(len(a.Data))
}

// Lazy reports whether a is a lazily filled region.
func (a *Alloc) Lazy() bool { return a.pages != nil }

// Memory is the global address space: a set of disjoint allocations.
type Memory struct {
	allocs []*Alloc
	next   uint64
	last   int // index of the last allocation hit (lookup cache)
	// Budget bounds the bytes of lazy-region pages made (0: 256 MiB).
	Budget int64
	used   int64
	// the device heap (extern.go): bytes handed out, blocks freed
	heapUsed uint64
	freed    []uint64
	// out holds the output streams by thread (extern.go)
	out map[uint64]*outStream
	// surf holds the surface bytes written (tex.go)
	surf map[surfKey]byte
}

// defaultBudget is the default bound on the pages of lazy regions.
const defaultBudget = 256 << 20

// NewMemory returns an empty global memory.
func NewMemory() *Memory { return &Memory{next: globalBase} }

// Alloc reserves size zeroed bytes aligned to 256 and returns the address.
func (m *Memory) Alloc(size int) uint64 {
	return m.AllocBytes(make([]byte, size))
}

// AllocBytes adds data (not copied) as a new allocation and returns its address.
func (m *Memory) AllocBytes(data []byte) uint64 {
	if m.next == 0 {
		m.next = globalBase
	}
	base := m.next
	m.allocs = append(m.allocs, &Alloc{Base: base, Data: data})
	m.next = (base + uint64(len(data)) + allocGap + 255) &^ 255
	return base
}

// AllocLazy adds a region of size bytes whose pages are made when first
// touched and filled by fill (dst is one page, off its offset in the
// region); it returns the region's address.
func (m *Memory) AllocLazy(size uint64, fill func(dst []byte, off uint64)) uint64 {
	if m.next == 0 {
		m.next = globalBase
	}
	size = (size + pageSize - 1) &^ (pageSize - 1)
	base := (m.next + pageSize - 1) &^ (pageSize - 1)
	m.allocs = append(m.allocs, &Alloc{Base: base, size: size, pages: make([][]byte, size/pageSize), fill: fill})
	m.next = base + size + allocGap
	return base
}

// Allocs returns the allocations in address order.
func (m *Memory) Allocs() []*Alloc { return m.allocs }

// Bytes returns the data of the eager allocation that starts at base, or nil.
func (m *Memory) Bytes(base uint64) []byte {
	for _, a := range m.allocs {
		if a.Base == base {
			return a.Data
		}
	}
	return nil
}

// Read returns a copy of n bytes at addr (pages of a lazy region that
// were never touched read as their fill), or nil when [addr, addr+n) is
// not inside one allocation.
func (m *Memory) Read(addr uint64, n int) []byte {
	a := m.find(addr, n)
	if a == nil {
		return nil
	}
	off := addr - a.Base
	if !a.Lazy() {
		return append([]byte(nil), a.Data[off:off+uint64(n)]...)
	}
	out := make([]byte, 0, n)
	page := make([]byte, pageSize)
	for n > 0 {
		p := off / pageSize
		src := a.pages[p]
		if src == nil {
			clear(page)
			a.fill(page, p*pageSize)
			src = page
		}
		k := min(uint64(n), pageSize-off%pageSize)
		out = append(out, src[off%pageSize:off%pageSize+k]...)
		off += k
		n -= int(k)
	}
	return out
}

// at returns the bytes [off, off+size) of allocation a (making the page
// of a lazy region), or nil with a reason.
func (m *Memory) at(a *Alloc, off uint64, size int) ([]byte, string) {
	if !a.Lazy() {
		return a.Data[off : off+uint64(size)], ""
	}
	p := off / pageSize
	in := off % pageSize
	if in+uint64(size) > pageSize {
		return nil, "access across a page of an input region"
	}
	pg := a.pages[p]
	if pg == nil {
		budget := m.Budget
		if budget == 0 {
			budget = defaultBudget
		}
		if m.used+pageSize > budget {
			return nil, "the input regions' memory budget is spent"
		}
		m.used += pageSize
		pg = make([]byte, pageSize)
		a.fill(pg, p*pageSize)
		a.pages[p] = pg
	}
	return pg[in : in+uint64(size)], ""
}

// find returns the allocation holding [addr, addr+size), or nil.
func (m *Memory) find(addr uint64, size int) *Alloc {
	if m.last < len(m.allocs) {
		a := m.allocs[m.last]
		if addr >= a.Base && addr+uint64(size) <= a.Base+a.Size() {
			return a
		}
	}
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base > addr }) - 1
	if i < 0 {
		return nil
	}
	a := m.allocs[i]
	if addr+uint64(size) > a.Base+a.Size() || addr+uint64(size) < addr {
		return nil
	}
	m.last = i
	return a
}

// Clone returns a deep copy of the memory (same addresses).
func (m *Memory) Clone() *Memory {
	c := &Memory{next: m.next, Budget: m.Budget, used: m.used, heapUsed: m.heapUsed, freed: append([]uint64(nil), m.freed...)}
	for k, v := range m.surf {
		if c.surf == nil {
			c.surf = map[surfKey]byte{}
		}
		c.surf[k] = v
	}
	for t, s := range m.out {
		if c.out == nil {
			c.out = map[uint64]*outStream{}
		}
		c.out[t] = &outStream{n: s.n, head: append([]OutputRecord(nil), s.head...), tail: s.tail}
	}
	for _, a := range m.allocs {
		b := &Alloc{Base: a.Base, Data: append([]byte(nil), a.Data...), ReadOnly: a.ReadOnly, size: a.size, fill: a.fill, heap: a.heap}
		if a.Data == nil {
			b.Data = nil
		}
		if a.pages != nil {
			b.pages = make([][]byte, len(a.pages))
			for k, pg := range a.pages {
				if pg != nil {
					b.pages[k] = append([]byte(nil), pg...)
				}
			}
		}
		c.allocs = append(c.allocs, b)
	}
	return c
}
