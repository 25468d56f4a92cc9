package core

import (
	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/ir"
)

// Register pressure.
//
// The pressure of file F at instruction i is the number of 32-bit slots of
// F taken by registers live there (ir.Slots: a 64-bit register counts two
// in R and UR, a predicate one in P and UP), measured at the two points i
// touches:
//
//	before(i)           registers live just before i
//	after(i) ∪ defs(i)  registers live just after i, plus i's destinations
//	                    (a result nobody reads still needs a register)
//
// Each block starts from its live-out set (the registers the liveness
// lists: the union of the successors' in sets), setting their bits in a
// register-indexed vector and counting their slots per file; the walk
// backwards then flips the bits of the registers the instructions name,
// and the counts follow. The next block clears only the bits this one set.
// So a block costs its live-out set plus its register references, and
// nothing of the size of the function is touched per block.

// Pressure is the maximum pressure per file and where it occurs.
type Pressure struct {
	Max [ir.NumFiles]int
	// At is an instruction where Max is reached (the first found walking
	// blocks in layout order, instructions backwards); NoInstr when the
	// file is empty or the maximum is only reached at an empty block.
	At [ir.NumFiles]ir.InstrID
	// Block is the block of that point.
	Block [ir.NumFiles]ir.BlockID
}

// RegSlots is how many 32-bit slots of its file register r takes: one per
// 32 bits of its type, times the lanes of a .v2/.v4 vector register (at
// most 8: a .v4 .b64 register).
func RegSlots(f *ir.Func, r ir.RegID) int {
	return ir.Slots(f.RegType[r]) * max(1, int(f.RegVec[r]))
}

// RegisterPressure computes the maximum pressure per file.
func RegisterPressure(l *Liveness) Pressure { return walkPressure(l, l.Files, nil) }

// PressureTrace calls at for every instruction of l.F, blocks in layout
// order and instructions backwards within a block, with the live slots
// per file at that instruction: the larger of the two program points
// around it, where the point after it includes its destinations (a result
// nobody reads still occupies a register). It returns the maximum, as
// RegisterPressure does.
func PressureTrace(l *Liveness, at func(i ir.InstrID, live [ir.NumFiles]int)) Pressure {
	return walkPressure(l, l.Files, at)
}

// PressureTraceFiles is PressureTrace with registers counted in the files
// files gives (say UR/UP for registers the uniformity analysis proves
// uniform) rather than the files l was solved with: one liveness serves
// every grouping, since the sets are the same.
func PressureTraceFiles(l *Liveness, files []ir.File, at func(i ir.InstrID, live [ir.NumFiles]int)) Pressure {
	return walkPressure(l, files, at)
}

func walkPressure(l *Liveness, files []ir.File, each func(i ir.InstrID, live [ir.NumFiles]int)) Pressure {
	f := l.F
	var p Pressure
	for k := range p.At {
		p.At[k] = ir.NoInstr
		p.Block[k] = ir.NoBlock
	}
	nr := f.NumRegs()
	lw := make([]uint32, bitvec.WordsFor(nr))
	var cnt [ir.NumFiles]int
	var refsBuf [32]RegRef
	refs := refsBuf[:0]
	var extra []ir.RegID
	var b ir.BlockID
	var outRegs, touched []ir.RegID
	// The live bits hold the current block's walk; touched lists the bits
	// it set, so the next block clears only those.
	isLive := func(r ir.RegID) bool { return lw[r>>5]&(1<<(r&31)) != 0 }
	set := func(r ir.RegID) {
		if !isLive(r) {
			lw[r>>5] |= 1 << (r & 31)
			touched = append(touched, r)
			cnt[files[r]] += int(l.slots[r])
		}
	}
	clr := func(r ir.RegID) {
		if isLive(r) {
			lw[r>>5] &^= 1 << (r & 31)
			cnt[files[r]] -= int(l.slots[r])
		}
	}
	record := func(i ir.InstrID) {
		for k := range cnt {
			if cnt[k] > p.Max[k] {
				p.Max[k], p.At[k], p.Block[k] = cnt[k], i, b
			}
		}
	}
	for _, b = range f.Layout {
		for _, r := range touched {
			lw[r>>5] &^= 1 << (r & 31)
		}
		touched = touched[:0]
		cnt = [ir.NumFiles]int{}
		outRegs = l.LiveOutRegs(b, outRegs[:0])
		for _, r := range outRegs {
			set(r)
		}
		record(ir.NoInstr)
		for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			// after(i) ∪ defs(i)
			extra = extra[:0]
			for _, x := range refs {
				if x.Def && !isLive(x.Reg) {
					set(x.Reg)
					extra = append(extra, x.Reg)
				}
			}
			record(i)
			after := cnt
			for _, r := range extra {
				clr(r)
			}
			// before(i) = uses(i) ∪ (after(i) − kdefs(i))
			if f.Guard[i] == ir.NoOperand {
				for _, x := range refs {
					if x.Def {
						clr(x.Reg)
					}
				}
			}
			for _, x := range refs {
				if !x.Def {
					set(x.Reg)
				}
			}
			record(i)
			if each != nil {
				for k := range after {
					after[k] = max(after[k], cnt[k])
				}
				each(i, after)
			}
		}
	}
	return p
}
