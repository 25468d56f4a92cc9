package phases

import (
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

// MeasureLevel says how much of Resources to measure.
type MeasureLevel uint8

const (
	// MeasureAll: instructions, registers and maximum live per file
	// (liveness, uniformity and the pressure trace: from the cache when
	// it holds them), local bytes.
	MeasureAll MeasureLevel = iota
	// MeasureCounts: instructions and local bytes only, no analysis.
	MeasureCounts
	// MeasureNone: nothing.
	MeasureNone
)

// Measure computes f's resources, with registers placed in the uniform
// files UR/UP where the uniformity analysis proves them uniform.
func Measure(f *ir.Func) Resources { return MeasureWith(NewAnalyses(f), MeasureAll) }

// MeasureWith measures a's function at the given level, taking the
// analyses from a (and leaving what it computes there for the phases).
func MeasureWith(a *Analyses, level MeasureLevel) Resources {
	var r Resources
	f := a.Func()
	if !f.HasBody || level == MeasureNone {
		return r
	}
	for _, s := range f.Locals {
		sym := &f.Mod.Syms[s]
		if sym.Space == ir.SpaceLocal {
			r.LocalBytes += symBytes(sym)
		}
	}
	if level == MeasureCounts {
		r.Instrs = placedInstrs(f)
		return r
	}
	// Registers count when an instruction names them (a declaration the
	// code no longer uses, after dead-code removal say, is not a register
	// the function needs), plus the .reg parameters.
	du := a.DefUse()
	files := a.Files()
	for reg := range f.NumRegs() {
		if len(du.Defs(ir.RegID(reg))) > 0 || len(du.Uses(ir.RegID(reg))) > 0 {
			r.Regs[files[reg]] += core.RegSlots(f, ir.RegID(reg))
		}
	}
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if reg, ok := f.ParamReg(id); ok && len(du.Defs(reg)) == 0 && len(du.Uses(reg)) == 0 {
				r.Regs[files[reg]] += core.RegSlots(f, reg)
			}
		}
	}
	r.Instrs = placedInstrs(f)
	r.MaxLive = a.MaxLive()
	return r
}

// symBytes is the size of a variable: element size × vector × elements
// (0 for an unsized array).
func symBytes(s *ir.Symbol) int {
	n := max(1, s.Type.Bits()/8) * max(1, int(s.Vec))
	if s.Dims == 0 {
		return n
	}
	return n * int(max(s.Elems, 0))
}

// ComputePressure returns f's register pressure (registers in their
// uniformity files).
func ComputePressure(f *ir.Func) Pressure { return NewAnalyses(f).Pressure() }

// RegisterFiles assigns each register of f to R, UR, P or UP from the
// uniformity analysis.
func RegisterFiles(f *ir.Func) []ir.File { return NewAnalyses(f).Files() }
