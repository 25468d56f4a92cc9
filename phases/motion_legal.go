package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The legality checks of instruction motion, one set for the whole
// HoistInvariants family: OriHoistInvariantsLate (hoist.go) and the
// movement engine's four phases (movement.go) ask these and nothing else
// about whether an instruction may leave its place. What each caller adds
// is its own geometry (a preheader, a dominator path, a window inside one
// block) and its own profitability.

// motionPinned: properties that keep an instruction where it is for every
// movement: effects beyond its registers (stores, atomics, calls,
// barriers and fences, volatile or strong accesses, asynchronous work),
// warp-synchronous work (never moved across control flow), the carry
// chain, instructions the table does not know, PHIs and control flow.
const motionPinned = ir.PSideEffect | ir.PVolatile | ir.PConvergent | ir.PCall | ir.PCarry | ir.PAsync |
	ir.POpaque | ir.PPseudo | ir.PBranch | ir.PTerminator | ir.PBarrier | ir.PWritesMem

// pinned reports whether instruction i may not move at all: guarded (its
// guard would have to move with the lanes it selects), dead, or one of
// motionPinned.
func pinned(f *ir.Func, i ir.InstrID) bool {
	return f.Guard[i] != ir.NoOperand || f.IsDead(i) || f.InstrProps(i)&motionPinned != 0
}

// pureDef reports whether i is of the kill class: an unpinned pure
// computation (no memory read) with at least one register result.
func pureDef(f *ir.Func, i ir.InstrID) bool {
	return !pinned(f, i) && f.InstrProps(i).Has(ir.PPure) && f.InstrProps(i)&ir.PReadsMem == 0
}

// speculable reports whether executing pure instruction i where the
// program did not is harmless: not div or rem (PTX leaves division by
// zero unspecified; we do not execute it where the program did not).
func speculable(f *ir.Func, i ir.InstrID) bool {
	return f.Op[i] != ir.OpDiv && f.Op[i] != ir.OpRem
}

// texClass reports whether i is of the texture class: a long-latency
// fetch (tex, tld4, suld, ld.global.nc) that may move within its block
// without passing a write of memory.
func texClass(f *ir.Func, i ir.InstrID) bool {
	if !texOp(f.Op[i]) || f.IsDead(i) || f.InstrProps(i)&motionPinned != 0 {
		return false
	}
	return f.Op[i] != ir.OpLd || f.Space[i] == ir.SpaceGlobal && f.Mods[i].Has(ir.ModNC)
}

// texOp reports whether an instruction of opcode op may be of the
// texture class (texClass decides).
func texOp(op ir.Opcode) bool {
	switch op {
	case ir.OpTex, ir.OpTld4, ir.OpSuld, ir.OpLd:
		return true
	}
	return false
}

// invariantLoad reports whether i is a load of memory the kernel never
// writes (ld.const, ld.global.nc, ldu, a kernel's own ld.param): it reads
// the same value wherever it moves among the instructions that reach it.
func invariantLoad(f *ir.Func, i ir.InstrID) bool {
	p := f.InstrProps(i)
	return p&motionPinned == 0 && p.Has(ir.PInvariant) && (f.Op[i] == ir.OpLd || f.Op[i] == ir.OpLdu)
}

// ownParamLoad: "ld.param.t %r, [p]" reading the kernel's own scalar
// parameter p whole or in part from offset 0: never written, never out
// of bounds, aligned. It may execute anywhere in the kernel.
func ownParamLoad(f *ir.Func, i ir.InstrID) bool {
	p := f.InstrProps(i)
	if f.Op[i] != ir.OpLd || f.Space[i] != ir.SpaceParam || !p.Has(ir.PInvariant) {
		return false
	}
	ops := f.Ops(i)
	if len(ops) != 2 || ops[0].Kind() != ir.KReg || ops[1].Kind() != ir.KAddr {
		return false
	}
	a := f.Addrs[ops[1].Index()]
	el := f.ListElems(a.Elems)
	if a.Off != 0 || len(el) != 1 || el[0].Kind() != ir.KSym {
		return false
	}
	s := &f.Mod.Syms[el[0].Index()]
	return s.Kind == ir.SymParam && s.Owner == f.ID && s.Dims == 0 && s.Vec == 0 &&
		f.Type[i].Bits() > 0 && f.Type[i].Bits() <= s.Type.Bits()
}

// earlyLoad reports whether load i may execute earlier than written,
// provided it still executes only where it did (the caller's part: it
// moves within the region it runs on, from a block that runs whenever
// the region is left) and nothing in that region may write memory
// (loopWrites): ld.const, ld.global.nc, ldu, and weak ld.global (no
// .volatile or memory order: PInvariant is dropped and PVolatile set for
// those). Loads of generic, shared or local memory stay: other threads'
// shared writes and the frame are not what these checks look at.
func earlyLoad(f *ir.Func, i ir.InstrID) bool {
	p := f.InstrProps(i)
	if p&motionPinned != 0 || !p.Has(ir.PReadsMem) {
		return false
	}
	switch f.Op[i] {
	case ir.OpLdu:
		return true
	case ir.OpLd:
		switch f.Space[i] {
		case ir.SpaceConst, ir.SpaceGlobal:
			return true
		}
	}
	return false
}

// regionWrites: properties of an instruction that may change memory an
// early load reads, or order memory, or leave the thread (exit and trap
// are PSideEffect): a region holding one keeps its loads.
const regionWrites = ir.PWritesMem | ir.PSideEffect | ir.PVolatile | ir.PCall | ir.PBarrier | ir.POpaque | ir.PAsync

// crossable reports whether instruction i may trade places with j, its
// neighbour in one block: no register j writes is read or written by i,
// no register i writes is read by j; and when i reads memory, j neither
// writes nor orders it nor may leave the block early (a guarded exit). i
// itself is not pinned (the caller checked). refs holds i's registers
// (core.AppendRegRefs); jrefs is a buffer for j's, returned for reuse.
func crossable(f *ir.Func, refs []core.RegRef, i, j ir.InstrID, jrefs []core.RegRef) (bool, []core.RegRef) {
	pj := f.InstrProps(j)
	if pj&(ir.POpaque|ir.PPseudo|ir.PCall|ir.PBranch|ir.PTerminator) != 0 {
		return false, jrefs
	}
	if f.InstrProps(i).Has(ir.PReadsMem) && pj&regionWrites != 0 {
		return false, jrefs
	}
	jrefs = core.AppendRegRefs(f, j, jrefs[:0])
	for _, y := range jrefs {
		for _, x := range refs {
			if x.Reg == y.Reg && (x.Def || y.Def) {
				return false, jrefs
			}
		}
	}
	return true, jrefs
}

// operandsStable reports whether every register i reads has at most one
// definition, unguarded: registers IntoSSA leaves alone (guarded
// definitions) may change between i's place and its target.
func operandsStable(f *ir.Func, i ir.InstrID, du *core.DefUse) bool {
	var buf [16]core.RegRef
	for _, x := range core.AppendRegRefs(f, i, buf[:0]) {
		if x.Def {
			continue
		}
		if defs := du.Defs(x.Reg); len(defs) > 1 || len(defs) == 1 && f.Guard[defs[0].Instr] != ir.NoOperand {
			return false
		}
	}
	return true
}

// touchesMultiVersion: i defines or reads a version of a register written
// several times. Moving it changes where that version lives relative to
// the register's other versions; where they come to overlap, OutOfSSA
// must split them (a register of their own and copies on the edges),
// which costs more than the move gains (measured on the corpus: most of
// the CSSA copies left were there).
func touchesMultiVersion(p *Pass, i ir.InstrID) bool {
	st := p.ssa
	if st == nil {
		return false
	}
	var refs [16]core.RegRef
	for _, x := range core.AppendRegRefs(p.F, i, refs[:0]) {
		if st.multiVersion(x.Reg) {
			return true
		}
	}
	return false
}

// fixedReg reports whether r is a .reg parameter or return register of
// the function, or a vector register: they live outside the instructions
// that name them, and a move cannot see all their readers.
func fixedReg(f *ir.Func, r ir.RegID) bool {
	return f.RegVec[r] != 0 || f.RegParam(r) != ir.NoSym
}
