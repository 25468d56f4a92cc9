package phases

import "github.com/ptxopt/ptxopt/ir"

// Repeated unpacks as copies (part of the global copy propagation,
// sub-pass CopyProp). Promotion splits a wide frame slot into pieces, and
// every 64-bit store of one value into such slots becomes its own unpack
// "mov.b64 {%a, %b}, %s"; once inlining's copies are propagated, several
// unpacks read the same %s. An unpack C that repeats a dominating unpack
// E of the same register, element for element, computes what E computed:
// each element %c_k of C is a copy "mov %c_k, %a_k" of E's element at C.
// Those copies go through the global rule as written (file comment of
// generalopt.go): every use of %c_k that C dominates reads %a_k instead,
// or none does, and C, unread, is dead code.
//
// Exact when: C and E are unguarded "mov.bW {…}, %s" of one form whose
// elements are plain registers (no sink); %a_k and %c_k are ordinary
// registers of interchangeable types, each with exactly one definition
// (E, C); E dominates C; %s has no definition or exactly one, D, that
// dominates E. Then at C, %s holds what it held at the last execution of
// E (a path from D to C avoiding E, behind a path from the entry to D
// avoiding E, would reach C avoiding E), so piece k of %s at C is %a_k,
// and the global rule's argument carries %a_k to the uses.
//
// Only where every reader of %s is an unpack of that form that E
// dominates (E included): then the repeated unpacks die with their
// readers moved, %s ends at E, and %a_k, which takes over %s's slots
// from E on, lengthens no live range past what %s and %c_k covered (a
// %s still read elsewhere would stay live beside the %a_k: measured on
// the corpus, that raised the register maximum of a function holding
// repeated unpacks of a double that other instructions also read).
//
//	before:  mov.b64 {%a, %b}, %rd1;  …  mov.b64 {%c, %d}, %rd1;  add.f32 %f, %c, %d;
//	after:   mov.b64 {%a, %b}, %rd1;  …  mov.b64 {%c, %d}, %rd1;  add.f32 %f, %a, %b;
//	         (the second unpack is dead)

// unpackIndex maps a register to the unpack of it that the global walk
// compares later unpacks with (built on the first unpack met).
type unpackIndex struct {
	first []ir.InstrID // register -> its earliest dominating unpack with single-definition elements
	// onlyUnpacks: register -> 0 not yet known, 1 every reader is an
	// unpack first dominates (or first), 2 not
	onlyUnpacks []uint8
	built       bool
}

// unpackOf returns the source register of i when i is an unguarded
// unpack whose elements are all plain registers.
func (g *genOpt) unpackOf(i ir.InstrID) (ir.RegID, bool) {
	f := g.f
	if f.Op[i] != ir.OpMov || f.Guard[i] != ir.NoOperand || f.OpCount[i] != 2 {
		return ir.NoReg, false
	}
	ops := f.Ops(i)
	if ops[0].Kind() != ir.KList || ops[1].Kind() != ir.KReg || ops[1].Flags() != 0 || !g.plainReg(ops[1].Reg()) {
		return ir.NoReg, false
	}
	for _, e := range f.ListElems(ops[0].Index()) {
		if e.Kind() != ir.KReg || e.Flags() != 0 || !g.plainReg(e.Reg()) {
			return ir.NoReg, false
		}
	}
	return ops[1].Reg(), true
}

// build records, per source register, the unpack that dominates the
// others (of those whose elements each have that one definition).
func (x *unpackIndex) build(g *genOpt) {
	f := g.f
	x.built = true
	x.first = take[ir.InstrID](g.sc, f.NumRegs())
	for r := range x.first {
		x.first[r] = ir.NoInstr
	}
	x.onlyUnpacks = take[uint8](g.sc, f.NumRegs())
	clear(x.onlyUnpacks)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			s, ok := g.unpackOf(i)
			if !ok || !g.singleElems(i) {
				continue
			}
			if e := x.first[s]; e == ir.NoInstr || g.before(i, e) {
				x.first[s] = i
			}
		}
	}
}

// singleElems reports whether every element of unpack i has i as its
// only definition.
func (g *genOpt) singleElems(i ir.InstrID) bool {
	for _, e := range g.f.ListElems(g.f.Ops(i)[0].Index()) {
		if d, ok := g.single(e.Reg()); !ok || d != i {
			return false
		}
	}
	return true
}

// unpackCopy returns the register that element d of unpack c copies
// (see the comment above), when c repeats a dominating unpack.
func (g *genOpt) unpackCopy(x *unpackIndex, c ir.InstrID, d ir.RegID) (ir.Operand, bool) {
	f := g.f
	s, ok := g.unpackOf(c)
	if !ok {
		return ir.NoOperand, false
	}
	if !x.built {
		x.build(g)
	}
	e := x.first[s]
	if e == ir.NoInstr || e == c || !g.before(e, c) || f.Form(e) != f.Form(c) || !x.readOnlyByUnpacks(g, s) {
		return ir.NoOperand, false
	}
	switch defs := g.du.Defs(s); len(defs) {
	case 0:
		if g.opaque[s] {
			return ir.NoOperand, false
		}
	case 1:
		if g.opaque[s] || !g.before(defs[0].Instr, e) {
			return ir.NoOperand, false
		}
	default:
		return ir.NoOperand, false
	}
	ce, ee := f.ListElems(f.Ops(c)[0].Index()), f.ListElems(f.Ops(e)[0].Index())
	if len(ce) != len(ee) {
		return ir.NoOperand, false
	}
	for k, o := range ce {
		if o.Reg() != d {
			continue
		}
		a := ee[k].Reg()
		if a == d || !regsInterchangeable(f.RegType[d], f.RegType[a]) {
			return ir.NoOperand, false
		}
		return ee[k].AsUse(), true
	}
	return ir.NoOperand, false
}

// readOnlyByUnpacks reports whether every reader of s is an unpack of s
// of first[s]'s form that first[s] dominates, or first[s] itself.
func (x *unpackIndex) readOnlyByUnpacks(g *genOpt, s ir.RegID) bool {
	if v := x.onlyUnpacks[s]; v != 0 {
		return v == 1
	}
	f := g.f
	e := x.first[s]
	ok := true
	for _, u := range g.du.Uses(s) {
		i := u.Instr
		if f.IsDead(i) || f.Block[i] == ir.NoBlock {
			continue
		}
		if i == e {
			continue
		}
		if src, isUnpack := g.unpackOf(i); !isUnpack || src != s || f.Form(i) != f.Form(e) || !g.before(e, i) {
			ok = false
			break
		}
	}
	x.onlyUnpacks[s] = 2
	if ok {
		x.onlyUnpacks[s] = 1
	}
	return ok
}
