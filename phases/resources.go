package phases

import (
	"strconv"
	"strings"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Pressure is the register pressure of a function: for each instruction in
// layout order, the 32-bit slots live across it per register file, and the
// maximum per file.
type Pressure struct {
	PerInstr [][ir.NumFiles]int32
	Max      [ir.NumFiles]int
}

// Resources is what reports show per function, before and after.
type Resources struct {
	Instrs     int
	Regs       [ir.NumFiles]int // registers the instructions name, in 32-bit slots (R, UR) or count (P, UP)
	MaxLive    [ir.NumFiles]int
	LocalBytes int
}

// Measure computes f's resources, with registers placed in the uniform
// files UR/UP where the uniformity analysis proves them uniform.
func Measure(f *ir.Func) Resources {
	var r Resources
	if !f.HasBody {
		return r
	}
	// Registers count when an instruction names them (a declaration the
	// code no longer uses, after dead-code removal say, is not a register
	// the function needs), plus the .reg parameters.
	named := make([]bool, f.NumRegs())
	var refs []core.RegRef
	for _, b := range f.Layout {
		for i := range f.Instrs(b) {
			r.Instrs++
			for _, x := range core.AppendRegRefs(f, i, refs[:0]) {
				named[x.Reg] = true
			}
		}
	}
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if reg, ok := f.ParamReg(id); ok {
				named[reg] = true
			}
		}
	}
	files := RegisterFiles(f)
	for i, ok := range named {
		if ok {
			r.Regs[files[i]] += core.RegSlots(f, ir.RegID(i))
		}
	}
	r.MaxLive = pressureWith(f, files).Max
	for _, s := range f.Locals {
		sym := &f.Mod.Syms[s]
		if sym.Space == ir.SpaceLocal {
			r.LocalBytes += symBytes(f.Mod, sym)
		}
	}
	return r
}

// symBytes is the size of a variable: element size × vector × array dims.
func symBytes(m *ir.Module, s *ir.Symbol) int {
	n := max(1, s.Type.Bits()/8) * max(1, int(s.Vec))
	dims := m.Strings.Get(s.Dims)
	for dims != "" {
		open := strings.IndexByte(dims, '[')
		end := strings.IndexByte(dims, ']')
		if open < 0 || end < open {
			break
		}
		v, err := strconv.Atoi(strings.TrimSpace(dims[open+1 : end]))
		if err != nil {
			return 0 // "[]": unsized
		}
		n *= v
		dims = dims[end+1:]
	}
	return n
}

// ComputePressure returns f's register pressure: PressureHook when set,
// else the walk over core's liveness (pressure.go).
func ComputePressure(f *ir.Func) Pressure {
	if PressureHook != nil {
		return PressureHook(f)
	}
	return corePressure(f, RegisterFiles(f))
}

func pressureWith(f *ir.Func, files []ir.File) Pressure {
	if PressureHook != nil {
		return PressureHook(f)
	}
	return corePressure(f, files)
}

// RegisterFiles assigns each register of f to R, UR, P or UP from the
// uniformity analysis.
func RegisterFiles(f *ir.Func) []ir.File {
	return core.ComputeUniformity(f).Files(f)
}
