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
	// DynShared is the size of dynamically sized (extern) shared memory.
	DynShared int
	// MaxSteps bounds the warp-instructions executed (0: a default of 50M).
	MaxSteps int64
	// Cover, when set, records which instructions executed (on at
	// least one lane with a true guard) during the run.
	Cover *Coverage
}

// Global address layout: allocations live above 4 GiB; generic windows for
// shared and local memory are fixed high ranges.
const (
	globalBase   uint64 = 1 << 32
	constWindow  uint64 = 0x7d00_0000_0000
	sharedWindow uint64 = 0x7e00_0000_0000
	localWindow  uint64 = 0x7f00_0000_0000
	windowSize   uint64 = 1 << 32
	allocGap     uint64 = 1 << 12
)

// Alloc is one global allocation.
type Alloc struct {
	Base uint64
	Data []byte
	// ReadOnly allocations trap on writes (module .const banks use it).
	ReadOnly bool
}

// Memory is the global address space: a set of disjoint allocations.
type Memory struct {
	allocs []*Alloc
	next   uint64
	last   int // index of the last allocation hit (lookup cache)
}

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

// Allocs returns the allocations in address order.
func (m *Memory) Allocs() []*Alloc { return m.allocs }

// Bytes returns the data of the allocation that starts at base, or nil.
func (m *Memory) Bytes(base uint64) []byte {
	for _, a := range m.allocs {
		if a.Base == base {
			return a.Data
		}
	}
	return nil
}

// find returns the allocation holding [addr, addr+size), or nil.
func (m *Memory) find(addr uint64, size int) *Alloc {
	if m.last < len(m.allocs) {
		a := m.allocs[m.last]
		if addr >= a.Base && addr+uint64(size) <= a.Base+uint64(len(a.Data)) {
			return a
		}
	}
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base > addr }) - 1
	if i < 0 {
		return nil
	}
	a := m.allocs[i]
	if addr+uint64(size) > a.Base+uint64(len(a.Data)) || addr+uint64(size) < addr {
		return nil
	}
	m.last = i
	return a
}

// Clone returns a deep copy of the memory (same addresses).
func (m *Memory) Clone() *Memory {
	c := &Memory{next: m.next}
	for _, a := range m.allocs {
		c.allocs = append(c.allocs, &Alloc{Base: a.Base, Data: append([]byte(nil), a.Data...), ReadOnly: a.ReadOnly})
	}
	return c
}
