package phases

import (
	"strings"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// InferAddressSpaces: generic loads, stores and atomics whose address
// provably lies in one state space get that space, and the conversions
// that only fed them go away.
//
// Purpose: -O0 compilers reach every buffer through generic pointers.
// clang converts each kernel pointer parameter to global and straight
// back ("cvta.to.global %rd4, %rd3; cvta.global %rd5, %rd4"), and its
// frame is "cvta.local %SP, %SPL"; every access through them is then a
// generic "ld.u32"/"st.u32", which the hardware resolves at run time.
// Naming the space is what LLVM's InferAddressSpaces does; here it also
// removes the "cvta.X" of every pointer whose uses all became
// space-specific (DCE deletes it once nothing reads it).
//
// Where: in SSA form (Form NeedsSSA), right after IntoSSA. With one
// definition per register the origin of a pointer is its definition
// chain, exact on every path; the GeneralOptimize bundle that follows
// removes the conversions left dead.
//
// Facts. A register is an X-pointer (X one of global, local, shared,
// const) when its one unguarded definition is "cvta.X r, q" (q holds the
// X address), "mov r, p" of an X-pointer p, or "add r, p, o", "add r, o,
// p", "sub r, p, o" of an X-pointer p and an offset o: an immediate, or a
// register defined by a multiplication, shift or conversion (an index
// scaled to bytes, never a second pointer). An address computed from a
// pointer into X plus such an offset stays in X for every program whose
// accesses are defined (PTX's generic windows do not overlap, and
// arithmetic that walks out of one object into another state space is
// undefined in the source languages that produce PTX). PHIs are not
// followed (a pointer merged from several definitions stays generic).
//
// Rewrites. For the cvta.X r, q itself: each generic ld/st/atom/red whose
// address is [r+k] becomes ld.X/st.X/... [q+k]; each "cvta.to.X d, r"
// becomes "mov d, q" (the round trip folds, also through offsets, which
// addr.rules's CvtaRoundTrip does not see); each derived pointer (add,
// sub, mov) all of whose uses can be rewritten the same way is redefined
// from q in place (it then holds the X address) and its uses rewritten in
// turn. A derived pointer with some other use (stored, passed to a call,
// compared) keeps its generic value and its accesses stay generic: no
// instruction is added. Ordering qualifiers, cache operators, guards and
// vector widths are kept.
//
//	before: cvta.to.global.u64 %rd4, %rd3;  cvta.global.u64 %rd5, %rd4;
//	        add.s64 %rd7, %rd5, %rd6;  ld.f32 %f1, [%rd7+4];
//	after:  cvta.to.global.u64 %rd4, %rd3;
//	        add.s64 %rd7, %rd4, %rd6;  ld.global.f32 %f1, [%rd7+4];
func inferAddressSpaces(p *Pass) bool {
	f := p.F
	if !p.SSA() {
		return false
	}
	// Every pointer the phase follows starts at a cvta.X to the generic
	// space (pointerForm): a function without one has nothing to infer,
	// and its def-use chains, most of this phase's time on a large
	// function (their build walks every instruction and its operands;
	// at a million instructions the walk misses the cache), are left to
	// the next phase that asks for them.
	if !hasPointerRoot(f) {
		return false
	}
	s := asInfer{f: f, du: p.A.DefUse()}
	n := f.NumRegs()
	s.space = take[ir.Space](p.Scratch, n)
	s.conv = take[bool](p.Scratch, n)
	s.def = take[ir.InstrID](p.Scratch, n)
	// Which registers are pointers, in dominance order (SSA: a definition
	// comes before its uses in reverse post-order).
	order := p.A.Order()
	var ptrs []ir.RegID
	for _, b := range order.RPO {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if r, sp := s.pointerDef(i); sp != ir.SpaceNone {
				s.space[r], s.def[r] = sp, i
				ptrs = append(ptrs, r)
			}
		}
	}
	if len(ptrs) == 0 {
		return false
	}
	// Which derived pointers can be rewritten whole: every use is an
	// access, a round trip back, or a derived pointer rewritten whole.
	// Uses come after their definition, so walk the pointers backwards.
	for k := len(ptrs) - 1; k >= 0; k-- {
		r := ptrs[k]
		if f.Op[s.def[r]] != ir.OpCvta {
			s.conv[r] = s.allUsesConvertible(r)
		}
	}
	for _, r := range ptrs {
		if d := s.def[r]; f.Op[d] == ir.OpCvta && !f.IsDead(d) {
			s.rewriteUses(r, f.Ops(d)[1].Reg(), s.space[r])
		}
	}
	if s.accesses+s.roundTrips == 0 {
		return false
	}
	p.A.Invalidate(instrAnalyses)
	p.Count("accesses given a state space", int64(s.accesses))
	if s.roundTrips > 0 {
		p.Count("cvta round trips folded", int64(s.roundTrips))
	}
	return true
}

type asInfer struct {
	f     *ir.Func
	du    *core.DefUse
	space []ir.Space    // the state space a pointer register points into
	def   []ir.InstrID  // its definition
	conv  []bool        // a derived pointer all of whose uses convert
	refs  []core.RegRef // scratch
	// counters
	accesses, roundTrips int
}

// hasPointerRoot reports whether a slot of f holds what pointerForm
// takes for a pointer's origin: a cvta.X to the generic space, X a space
// addrSpace accepts (dead slots included: a superset is enough). It reads
// the opcodes in slot order, one small array, and the modifiers and space
// of the cvtas only.
func hasPointerRoot(f *ir.Func) bool {
	for i, op := range f.Op {
		if op == ir.OpCvta && f.Mods[i] == 0 && addrSpace(f.Space[i]) {
			return true
		}
	}
	return false
}

// addrSpaces are the spaces a cvta names that loads and stores accept.
func addrSpace(sp ir.Space) bool {
	return sp == ir.SpaceGlobal || sp == ir.SpaceLocal || sp == ir.SpaceShared || sp == ir.SpaceConst
}

// single reports whether r has exactly one definition, unguarded, at i.
func (s *asInfer) single(r ir.RegID, i ir.InstrID) bool {
	defs := s.du.Defs(r)
	return len(defs) == 1 && defs[0].Instr == i && s.f.Guard[i] == ir.NoOperand
}

// stable reports whether q holds one value wherever it is read: at most
// one definition, unguarded (IntoSSA leaves guarded definitions alone).
func (s *asInfer) stable(q ir.RegID) bool {
	defs := s.du.Defs(q)
	return len(defs) == 0 || len(defs) == 1 && s.f.Guard[defs[0].Instr] == ir.NoOperand
}

// pointerDef returns the register i defines and the space it points into,
// or SpaceNone when i does not make a pointer of a known space.
func (s *asInfer) pointerDef(i ir.InstrID) (ir.RegID, ir.Space) {
	f := s.f
	ops := f.Ops(i)
	if len(ops) < 2 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() || f.Guard[i] != ir.NoOperand {
		return 0, ir.SpaceNone
	}
	r := ops[0].Reg()
	// The form first, and only then the definitions of r: few
	// instructions have a pointer's form, and the chains are read at
	// random (by register) on a function of a million instructions.
	if sp := s.pointerForm(i, ops); sp != ir.SpaceNone && s.single(r, i) && f.RegType[r].Bits() >= 32 {
		return r, sp
	}
	return 0, ir.SpaceNone
}

// pointerForm returns the space instruction i (whose operands are ops)
// makes a pointer into when its destination has one definition (the
// caller checks that), SpaceNone when its form makes none.
func (s *asInfer) pointerForm(i ir.InstrID, ops []ir.Operand) ir.Space {
	f := s.f
	ptr := func(o ir.Operand) ir.Space {
		if o.Kind() != ir.KReg || o.Flags() != 0 {
			return ir.SpaceNone
		}
		return s.space[o.Reg()]
	}
	switch f.Op[i] {
	case ir.OpCvta:
		if len(ops) == 2 && f.Mods[i] == 0 && addrSpace(f.Space[i]) && ops[1].Kind() == ir.KReg && ops[1].Flags() == 0 && s.stable(ops[1].Reg()) {
			return f.Space[i]
		}
	case ir.OpMov:
		if len(ops) == 2 {
			return ptr(ops[1])
		}
	case ir.OpAdd, ir.OpSub:
		if len(ops) != 3 || f.Mods[i] != 0 || f.Type[i].IsFloat() || f.Type[i] == ir.TPred {
			return ir.SpaceNone
		}
		if sp := ptr(ops[1]); sp != ir.SpaceNone && s.offset(ops[2]) {
			return sp
		}
		if f.Op[i] == ir.OpAdd {
			if sp := ptr(ops[2]); sp != ir.SpaceNone && s.offset(ops[1]) {
				return sp
			}
		}
	}
	return ir.SpaceNone
}

// offset reports whether o is a byte offset: an immediate, or a register
// defined once by a multiplication, shift or conversion.
func (s *asInfer) offset(o ir.Operand) bool {
	switch o.Kind() {
	case ir.KImm:
		return true
	case ir.KReg:
		if o.Flags() != 0 || s.space[o.Reg()] != ir.SpaceNone {
			return false
		}
		defs := s.du.Defs(o.Reg())
		if len(defs) != 1 {
			return false
		}
		switch s.f.Op[defs[0].Instr] {
		case ir.OpMul, ir.OpShl, ir.OpCvt, ir.OpMad:
			return true
		}
	}
	return false
}

// accessAddr returns the address operand of a generic access i whose only
// register element is r (nowhere else in i), or false.
func (s *asInfer) accessAddr(i ir.InstrID, r ir.RegID) (ir.Operand, bool) {
	f := s.f
	switch f.Op[i] {
	case ir.OpLd, ir.OpSt, ir.OpAtom, ir.OpRed:
	default:
		return 0, false
	}
	if f.Space[i] != ir.SpaceGeneric {
		return 0, false
	}
	var addr ir.Operand
	found := false
	for _, o := range f.Ops(i) {
		if o.Kind() == ir.KAddr {
			if found {
				return 0, false
			}
			addr, found = o, true
		}
	}
	if !found {
		return 0, false
	}
	elems := f.ListElems(f.Addrs[addr.Index()].Elems)
	if len(elems) != 1 || elems[0].Kind() != ir.KReg || elems[0].Reg() != r {
		return 0, false
	}
	// r appears once in i: as the address
	n := 0
	s.refs = core.AppendRegRefs(f, i, s.refs[:0])
	for _, rr := range s.refs {
		if rr.Reg == r {
			n++
		}
	}
	return addr, n == 1
}

// roundTrip reports whether i is "cvta.to.X d, r" for r's space X.
func (s *asInfer) roundTrip(i ir.InstrID, r ir.RegID) bool {
	f := s.f
	ops := f.Ops(i)
	return f.Op[i] == ir.OpCvta && f.Mods[i] == ir.ModOther && f.Space[i] == s.space[r] && len(ops) == 2 &&
		ops[1].Kind() == ir.KReg && ops[1].Reg() == r && ops[1].Flags() == 0
}

// derived reports whether i is the definition of a derived pointer
// rewritten whole that reads r.
func (s *asInfer) derived(i ir.InstrID) (ir.RegID, bool) {
	ops := s.f.Ops(i)
	if len(ops) == 0 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() {
		return 0, false
	}
	d := ops[0].Reg()
	return d, s.def[d] == i && s.space[d] != ir.SpaceNone && s.f.Op[i] != ir.OpCvta && s.conv[d]
}

func (s *asInfer) allUsesConvertible(r ir.RegID) bool {
	uses := s.du.Uses(r)
	if len(uses) == 0 {
		return false
	}
	for _, u := range uses {
		if u.Loc.IsGuard() {
			return false
		}
		if _, ok := s.accessAddr(u.Instr, r); ok {
			continue
		}
		if s.roundTrip(u.Instr, r) {
			continue
		}
		if d, ok := s.derived(u.Instr); ok && s.space[d] == s.space[r] {
			continue
		}
		return false
	}
	return true
}

// rewriteUses rewrites the convertible uses of pointer r, whose address
// in space sp register x holds.
func (s *asInfer) rewriteUses(r, x ir.RegID, sp ir.Space) {
	f := s.f
	for _, u := range s.du.Uses(r) {
		i := u.Instr
		if u.Loc.IsGuard() {
			continue
		}
		if addr, ok := s.accessAddr(i, r); ok {
			a := f.Addrs[addr.Index()]
			f.ListOps[f.Lists[a.Elems].Start] = ir.RegOp(x)
			setSpace(f, i, sp)
			s.accesses++
			continue
		}
		if s.roundTrip(i, r) {
			f.SetForm(i, ir.Form{Op: ir.OpMov, Type: movTypeOf(f.Type[i])})
			f.SetOps(i, []ir.Operand{f.Ops(i)[0], ir.RegOp(x)})
			s.roundTrips++
			continue
		}
		if d, ok := s.derived(i); ok {
			ops := f.Ops(i)
			for k := 1; k < len(ops); k++ {
				if ops[k].Kind() == ir.KReg && ops[k].Reg() == r {
					ops[k] = ir.RegOp(x)
				}
			}
			f.SetOps(i, ops)
			s.rewriteUses(d, d, sp)
		}
	}
}

// movTypeOf is the bit type of t's width, for a mov replacing a cvta.
func movTypeOf(t ir.Type) ir.Type {
	if t.Bits() == 32 {
		return ir.TB32
	}
	return ir.TB64
}

// setSpace gives the generic access i the state space sp. A form the
// decoder describes whole is rebuilt from its fields; one with components
// only its text holds (an atom's or red's operation, cache hints) gets
// the space written into its text, after the ordering and scope
// qualifiers, where PTX's grammar puts it.
func setSpace(f *ir.Func, i ir.InstrID, sp ir.Space) {
	d := f.Form(i)
	if !d.Mods.Has(ir.ModOther) {
		d.Space = sp
		f.SetForm(i, d)
		return
	}
	parts := strings.Split(f.Str(f.Mnemonic[i]), ".")
	k := 1
	for k < len(parts) && spaceFollows[parts[k]] {
		k++
	}
	parts = append(parts[:k], append([]string{sp.String()}, parts[k:]...)...)
	text := strings.Join(parts, ".")
	d = ir.Decode(text)
	f.Op[i], f.Mnemonic[i] = d.Op, f.Mod.Strings.Intern(text)
	f.Type[i], f.Type2[i], f.Mods[i] = d.Type, d.Type2, d.Mods
	f.Space[i] = ir.InstrSpace(d, f.Ops(i))
	f.SetOps(i, f.Ops(i)) // recomputes the cached properties
}

// spaceFollows are the qualifiers PTX writes before a state space.
var spaceFollows = map[string]bool{"weak": true, "volatile": true, "relaxed": true, "acquire": true, "release": true,
	"acq_rel": true, "mmio": true, "cta": true, "cluster": true, "gpu": true, "sys": true}
