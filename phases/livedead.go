package phases

import (
	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Liveness-based dead-code elimination: EarlyOriSimpleLiveDead and the
// four OriPerformLiveDead* instances (one function, four slots).
//
// Purpose: delete instructions whose results are never used and that have
// no side effects (the opcode table says which). Preconditions: none (works
// on SSA and non-SSA form). Guarantees: no pure instruction with only dead
// definitions survives.
//
//	before:  add.s32 %r3, %r1, %r2;   // %r3 never read
//	after:   (removed)
//
// Dataflow (per register file, backwards):
//
//	live_out(b) = ∪ live_in(s) for s in succ(b)
//	live_in(b)  = use(b) ∪ (live_out(b) − def(b))

// What may be deleted: an instruction the opcode table calls pure, after
// the per-instruction refinement (.cc, .volatile, special registers such
// as %clock), that is not convergent, a branch, a call, a pseudo (PHI) or
// a carry-chain member, and that reads no memory: a dead load stays, so a
// load that would fault still faults (the differential check compares
// completion status too). Its register results must all be dead; a result
// written to the sink "_" is dead by definition.
const keepProps = ir.PSideEffect | ir.PVolatile | ir.PConvergent | ir.PCall | ir.PReadsMem | ir.PWritesMem |
	ir.PTerminator | ir.PBranch | ir.POpaque | ir.PPseudo | ir.PCarry | ir.PBarrier | ir.PAsync

func removable(f *ir.Func, i ir.InstrID) bool {
	p := f.InstrProps(i)
	return p&ir.PPure != 0 && p&keepProps == 0
}

// simpleLiveDead: EarlyOriSimpleLiveDead, a local sweep without global
// liveness: a removable instruction whose register results are read by no
// instruction anywhere is deleted, and the registers it read lose a use,
// which may make their definitions dead in turn (a worklist over use
// counts, so chains of dead temporaries go in one phase).
func simpleLiveDead(p *Pass) bool {
	f := p.F
	uses := make([]int32, f.NumRegs())
	var refs []core.RegRef
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			for _, x := range core.AppendRegRefs(f, i, refs[:0]) {
				if !x.Def {
					uses[x.Reg]++
				}
			}
		}
	}
	// Return registers are read by the caller.
	for _, r := range f.ReturnRegs(nil) {
		uses[r]++
	}
	// Every instruction starts on the worklist; a register whose last use
	// goes puts its definitions back on it (def-use chains, built once:
	// deleted instructions are skipped by their Dead mark).
	du := p.A.DefUse()
	var work []ir.InstrID
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			work = append(work, i)
		}
	}
	removed := int64(0)
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if f.Dead[i] || f.Block[i] == ir.NoBlock || !removable(f, i) {
			continue
		}
		refs = core.AppendRegRefs(f, i, refs[:0])
		dead := true
		for _, x := range refs {
			if x.Def && uses[x.Reg] > 0 {
				dead = false
				break
			}
		}
		if !dead {
			continue
		}
		f.Remove(i)
		removed++
		for _, x := range refs {
			if !x.Def {
				uses[x.Reg]--
				if uses[x.Reg] == 0 {
					for _, d := range du.Defs(x.Reg) {
						work = append(work, d.Instr)
					}
				}
			}
		}
	}
	if removed > 0 {
		p.Count("instructions removed", removed)
	}
	return removed > 0
}

// liveDead: OriPerformLiveDead{First,Second,Third,Fourth}, global liveness
// DCE. Each sweep computes liveness (core), then walks every block
// backwards from its live-out set, deleting removable instructions whose
// register results are not live after them:
//
//	live = live_out(b)
//	for i from last to first:
//	    if removable(i) and defs(i) ∩ live = ∅: delete i
//	    else: live = (live − kills(i)) ∪ uses(i)   (a guarded def kills nothing)
//
// A deletion can make values dead in blocks already walked (a use in a
// later block that fed only the deleted instruction), so sweeps repeat
// until one deletes nothing (at most maxLiveDeadSweeps). Liveness comes
// from the analysis cache: one solve per sweep, for all the deletions of
// the sweep before it. A sweep that deletes nothing leaves the cache's
// liveness (and every other analysis) describing the function as it is,
// so the slot preserves all; a sweep that deletes drops what it made
// stale. (The last of maxLiveDeadSweeps sweeps may delete and still end
// the phase: the cache is then dropped as after any deleting sweep.)
func liveDead(p *Pass) bool {
	removed := int64(0)
	for sweep := 0; sweep < maxLiveDeadSweeps; sweep++ {
		n := liveDeadSweep(p.F, p.A.Liveness())
		removed += n
		if n == 0 {
			break
		}
		p.A.Invalidate(instrAnalyses)
	}
	if removed > 0 {
		p.Count("instructions removed", removed)
	}
	return removed > 0
}

const maxLiveDeadSweeps = 8

func liveDeadSweep(f *ir.Func, l *core.Liveness) int64 {
	live := bitvec.New(f.NumRegs())
	var refs []core.RegRef
	var outs []ir.RegID
	n := int64(0)
	for _, b := range f.Layout {
		live.Clear()
		outs = l.LiveOutRegs(b, outs[:0])
		for _, r := range outs {
			live.Set(int(r))
		}
		for i := f.BlockLast[b]; i != ir.NoInstr; {
			prev := f.Prev[i]
			refs = core.AppendRegRefs(f, i, refs[:0])
			if removable(f, i) && !anyDefLive(refs, live) {
				f.Remove(i)
				n++
				i = prev
				continue
			}
			if f.Guard[i] == ir.NoOperand {
				for _, x := range refs {
					if x.Def {
						live.ClearBit(int(x.Reg))
					}
				}
			}
			for _, x := range refs {
				if !x.Def {
					live.Set(int(x.Reg))
				}
			}
			i = prev
		}
	}
	return n
}

func anyDefLive(refs []core.RegRef, live bitvec.BitVector) bool {
	for _, x := range refs {
		if x.Def && live.Test(int(x.Reg)) {
			return true
		}
	}
	return false
}
