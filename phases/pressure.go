package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// corePressure is core's pressure walk (core.PressureTrace) laid out per
// instruction in layout order, for the reports and the HTML plot: at each
// instruction, the live 32-bit slots per file, the larger of the two
// program points around it with its destinations counted.
func corePressure(f *ir.Func, files []ir.File) Pressure {
	var p Pressure
	if !f.HasBody || f.NumBlocks() == 0 {
		return p
	}
	// Position of each instruction in layout order.
	pos := make([]int32, f.NumInstrs())
	n := int32(0)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			pos[i] = n
			n++
		}
	}
	p.PerInstr = make([][ir.NumFiles]int32, n)
	l := core.ComputeLiveness(f, core.LiveOptions{Files: files})
	max := core.PressureTrace(l, func(i ir.InstrID, live [ir.NumFiles]int) {
		at := &p.PerInstr[pos[i]]
		for k, v := range live {
			at[k] = int32(v)
		}
	})
	p.Max = max.Max
	return p
}
