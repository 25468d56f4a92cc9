package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// tracePressure is core's pressure walk (core.PressureTraceFiles) laid
// out per instruction in layout order, for the reports and the HTML plot:
// at each instruction, the live 32-bit slots per file (registers in
// files), the larger of the two program points around it with its
// destinations counted.
func tracePressure(f *ir.Func, l *core.Liveness, files []ir.File) Pressure {
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
	max := core.PressureTraceFiles(l, files, func(i ir.InstrID, live [ir.NumFiles]int) {
		at := &p.PerInstr[pos[i]]
		for k, v := range live {
			at[k] = int32(v)
		}
	})
	p.Max = max.Max
	return p
}
