package sim

import (
	"fmt"
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

// The warp-shared register mode (Launch.WarpShared).
//
// PTX registers are per thread, and the default model keeps a value per
// lane: an instruction under an active mask writes only the active lanes,
// the others keep theirs. Under that model each lane's registers go
// through exactly the values of the lane's own path, so any register
// assignment that is right on every scalar path is right for every lane
// of a divergent warp: out-of-SSA coalescing by the scalar CFG's
// interference cannot change what a kernel computes, whatever the
// divergence. (Only a read of another lane's register could tell, and
// PTX leaves shfl from an inactive lane undefined.)
//
// Hardware has storage that is not per lane. From sm_75 on, the SM has a
// uniform register file (UR, with the uniform predicates UP): one 32-bit
// register per warp, written by uniform-datapath instructions that run
// once for the warp whichever of its lanes are active. ptxas puts values
// its varying analysis calls uniform there, and ptxopt's register files
// model does the same (core.Uniformity: uniform registers go to UR/UP).
// "Uniform" means that the active lanes agree at each point; a warp-wide
// register needs more once the warp diverges. Both sides of a divergent
// branch run before the warp reconverges (one after the other here, as
// with the pre-Volta reconvergence stack; interleaved at will under
// Volta's independent thread scheduling), so a UR written on one side is
// what the other side's lanes read next: a value live for the lanes of
// one side interferes with every value written on the other side, even
// where no scalar path sees both. That is the SIMT interference rule, and
// a compiler that keeps uniform values in warp-wide registers and
// coalesces them by the scalar rule computes something else on a
// divergent warp. This mode makes that observable: it is the model of a
// lowering (which registers become URs), not of PTX, so a program is
// right in it only where that choice was SIMT-safe.
//
// In the mode, a register marked shared holds one value per warp: after
// an instruction of the kernel writes it, the value goes to all 32 lanes
// (the inactive ones too). The active lanes must have written one value,
// or the run traps: the register was not uniform, and no UR could hold
// it. Kernels with calls are refused (a call's results are written when
// the callee returns, which the mode does not follow).

// warpShared checks the launch's WarpShared against p and returns it
// sized to p's registers.
func (p *Program) warpShared(marks []bool) ([]bool, error) {
	if len(marks) > p.f.NumRegs() {
		return nil, fmt.Errorf("sim: WarpShared marks %d registers, %s has %d", len(marks), p.name, p.f.NumRegs())
	}
	for k := range p.code {
		if p.code[k].ctl == ctlCall {
			return nil, &Unsupported{Op: "call", Detail: "warp-shared registers in a kernel with calls"}
		}
	}
	sh := make([]bool, p.nregs)
	copy(sh, marks)
	return sh, nil
}

// share makes the warp-shared registers in's active lanes m wrote hold
// their value in every lane.
func (w *warp) share(in *inst, m uint32) {
	sh := w.m.shared
	for k := 0; k < int(in.nd); k++ {
		r := in.d[k]
		if int(r) >= len(sh) || !sh[r] {
			continue
		}
		base := int(r) << 5
		l0 := bits.TrailingZeros32(m)
		v := w.regs[base|l0]
		for x := m & (m - 1); x != 0; x &= x - 1 {
			if l := bits.TrailingZeros32(x); w.regs[base|l] != v {
				w.trap(in, l, 0, fmt.Sprintf("warp-shared register %s written with different values by the active lanes", keyNamer{w.p.f}.RegName(ir.RegID(r))))
				return
			}
		}
		for l := range 32 {
			w.regs[base|l] = v
		}
	}
}
