package core

import (
	"fmt"
	"strings"

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
// Blocks are walked backwards from their live-out sets with one
// register-indexed vector and running per-file counters updated as bits
// flip, so the whole function costs one pass over the instructions.

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

// RegisterPressure computes the maximum pressure per file.
func RegisterPressure(l *Liveness) Pressure {
	f := l.F
	var p Pressure
	for k := range p.At {
		p.At[k] = ir.NoInstr
		p.Block[k] = ir.NoBlock
	}
	live := bitvec.New(f.NumRegs())
	var cnt [ir.NumFiles]int
	var refs []RegRef
	var extra []ir.RegID
	set := func(r ir.RegID) {
		if !live.Test(int(r)) {
			live.Set(int(r))
			cnt[l.Files[r]] += int(l.slots[r])
		}
	}
	clr := func(r ir.RegID) {
		if live.Test(int(r)) {
			live.ClearBit(int(r))
			cnt[l.Files[r]] -= int(l.slots[r])
		}
	}
	record := func(i ir.InstrID, b ir.BlockID) {
		for k := range cnt {
			if cnt[k] > p.Max[k] {
				p.Max[k], p.At[k], p.Block[k] = cnt[k], i, b
			}
		}
	}
	var tmp []ir.RegID
	for _, b := range f.Layout {
		live.Clear()
		cnt = [ir.NumFiles]int{}
		tmp = l.LiveOutRegs(b, tmp[:0])
		for _, r := range tmp {
			set(r)
		}
		record(ir.NoInstr, b)
		for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			// after(i) ∪ defs(i)
			extra = extra[:0]
			for _, x := range refs {
				if x.Def && !live.Test(int(x.Reg)) {
					set(x.Reg)
					extra = append(extra, x.Reg)
				}
			}
			record(i, b)
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
			record(i, b)
		}
	}
	return p
}

// Summary is the per-function report printed by "ptxopt -v", in the
// spirit of "ptxas -v".
type Summary struct {
	Name    string
	Instrs  int
	Blocks  int
	Regs    [ir.NumFiles]int // registers declared (and referenced or not) per file
	Slots   [ir.NumFiles]int // 32-bit slots of those registers
	MaxLive [ir.NumFiles]int // maximum live slots
	MaxAt   [ir.NumFiles]ir.InstrID
	Method  Method // how liveness was computed
	Globals int    // registers live across a block boundary
}

// Summarize computes f's summary. files gives each register's file (nil:
// FileOf(type, false)).
func Summarize(f *ir.Func, files []ir.File) Summary {
	s := Summary{Name: f.Name, Blocks: f.NumBlocks()}
	if !f.HasBody {
		return s
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			s.Instrs++
		}
	}
	l := ComputeLiveness(f, LiveOptions{Files: files})
	for r, t := range f.RegType {
		s.Regs[l.Files[r]]++
		s.Slots[l.Files[r]] += ir.Slots(t)
	}
	p := RegisterPressure(l)
	s.MaxLive, s.MaxAt = p.Max, p.At
	s.Method = l.Method
	s.Globals = l.NumGlobals()
	return s
}

// String prints the summary on one line, e.g.
//
//	ptxopt info    : Function properties for 'k': 120 instructions, 8 blocks; R: 12 regs (14 slots), max live 10; UR: …
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ptxopt info    : Function properties for '%s': %d instructions, %d blocks", s.Name, s.Instrs, s.Blocks)
	for k := range ir.NumFiles {
		if s.Regs[k] == 0 && k != ir.FileR {
			continue
		}
		fmt.Fprintf(&b, "; %s: %d regs (%d slots), max live %d", k, s.Regs[k], s.Slots[k], s.MaxLive[k])
	}
	if s.Method == Sparse {
		b.WriteString(" (liveness: sparse method, memory budget exceeded)")
	}
	return b.String()
}
