package core

import "github.com/ptxopt/ptxopt/ir"

// Loc names where an operand word is stored, so a pass can read or
// rewrite it in place: an index into Func.Operands, an index into
// Func.ListOps (list and address elements, flagged by locList), or the
// guard of the instruction (LocGuard).
type Loc uint32

const (
	locList  Loc = 1 << 31
	LocGuard Loc = ^Loc(0)
)

// IsGuard reports whether l names the guard of its instruction.
func (l Loc) IsGuard() bool { return l == LocGuard }

// InList reports whether l names an element of a list or an address.
func (l Loc) InList() bool { return l != LocGuard && l&locList != 0 }

// OperandAt returns the operand word stored at l of instruction i.
func OperandAt(f *ir.Func, i ir.InstrID, l Loc) ir.Operand {
	switch {
	case l == LocGuard:
		return f.Guard[i]
	case l&locList != 0:
		return f.ListOps[l&^locList]
	}
	return f.Operands[l]
}

// SetOperandAt rewrites the operand word stored at l of instruction i.
func SetOperandAt(f *ir.Func, i ir.InstrID, l Loc, o ir.Operand) {
	switch {
	case l == LocGuard:
		if (f.Guard[i] == ir.NoOperand) != (o == ir.NoOperand) && f.Op[i].Props().Has(ir.PTerminator) {
			f.InvalidateCFG() // a guard added to or taken from a terminator changes its fall-through
		}
		f.Guard[i] = o
	case l&locList != 0:
		f.ListOps[l&^locList] = o
	default:
		f.Operands[l] = o
	}
}

// OperandIndex returns the position, among the instruction's operands, of
// the operand that holds l (a list or address element reports the
// operand of its list); -1 for the guard.
func OperandIndex(f *ir.Func, i ir.InstrID, l Loc) int {
	if l == LocGuard {
		return -1
	}
	if l&locList == 0 {
		return int(uint32(l) - f.OpStart[i])
	}
	e := uint32(l &^ locList)
	for k, o := range f.Ops(i) {
		switch o.Kind() {
		case ir.KList:
			if listContains(f, f.Lists[o.Index()], e) {
				return k
			}
		case ir.KAddr:
			if listContains(f, f.Lists[f.Addrs[o.Index()].Elems], e) {
				return k
			}
		}
	}
	return -2
}

func listContains(f *ir.Func, x ir.List, e uint32) bool {
	if e >= x.Start && e < x.Start+x.Count {
		return true
	}
	for _, o := range f.ListOps[x.Start : x.Start+x.Count] {
		switch o.Kind() {
		case ir.KList:
			if listContains(f, f.Lists[o.Index()], e) {
				return true
			}
		case ir.KAddr:
			if listContains(f, f.Lists[f.Addrs[o.Index()].Elems], e) {
				return true
			}
		}
	}
	return false
}

// RegRef is one register operand of an instruction: which register,
// where the word is stored, and whether the instruction writes it.
type RegRef struct {
	Reg ir.RegID
	Loc Loc
	Def bool
}

// AppendRegRefs appends the register operands of instruction i to buf and
// returns it: the guard first (a use), then the operands in order, list
// elements as written (they may be definitions: "ld.v2 {%a, %b}, [x]"),
// address elements always as uses (also inside a nested vector such as
// "[tex, {%x, %y}]"). With a reused buf it allocates nothing.
func AppendRegRefs(f *ir.Func, i ir.InstrID, buf []RegRef) []RegRef {
	if buf == nil {
		buf = make([]RegRef, 0, 16) // one allocation for a caller's first call, not a doubling series
	}
	if g := f.Guard[i]; g.IsReg() {
		buf = append(buf, RegRef{g.Reg(), LocGuard, false})
	}
	s := f.OpStart[i]
	for k, o := range f.Operands[s : s+uint32(f.OpCount[i])] {
		switch o.Kind() {
		case ir.KReg:
			buf = append(buf, RegRef{o.Reg(), Loc(s + uint32(k)), o.IsDef()})
		case ir.KList:
			buf = appendList(f, f.Lists[o.Index()], buf, true)
		case ir.KAddr:
			buf = appendList(f, f.Lists[f.Addrs[o.Index()].Elems], buf, false)
		}
	}
	return buf
}

func appendList(f *ir.Func, x ir.List, buf []RegRef, defsAllowed bool) []RegRef {
	for e := x.Start; e < x.Start+x.Count; e++ {
		o := f.ListOps[e]
		switch o.Kind() {
		case ir.KReg:
			buf = append(buf, RegRef{o.Reg(), Loc(e) | locList, defsAllowed && o.IsDef()})
		case ir.KList:
			buf = appendList(f, f.Lists[o.Index()], buf, defsAllowed)
		case ir.KAddr:
			buf = appendList(f, f.Lists[f.Addrs[o.Index()].Elems], buf, false)
		}
	}
	return buf
}

// AppendRegDefs appends to buf the registers instruction i defines, once
// per reference and in the order AppendRegRefs lists them (its Def
// references), read in place without the uses: for a walk that asks
// only for definitions.
func AppendRegDefs(f *ir.Func, i ir.InstrID, buf []ir.RegID) []ir.RegID {
	s := f.OpStart[i]
	return appendOpDefs(f, f.Operands[s:s+uint32(f.OpCount[i])], buf)
}

// appendOpDefs is AppendRegDefs' walk of an operand sequence: the
// instruction's operands, then each vector list's elements (an address
// inside a list only reads, as in appendList).
func appendOpDefs(f *ir.Func, ops []ir.Operand, buf []ir.RegID) []ir.RegID {
	for _, o := range ops {
		switch o.Kind() {
		case ir.KReg:
			if o.IsDef() {
				buf = append(buf, o.Reg())
			}
		case ir.KList:
			x := f.Lists[o.Index()]
			buf = appendOpDefs(f, f.ListOps[x.Start:x.Start+x.Count], buf)
		}
	}
	return buf
}

// Guarded reports whether instruction i executes under a predicate guard:
// its definitions then do not kill (lanes whose guard is false keep the
// old value).
func Guarded(f *ir.Func, i ir.InstrID) bool { return f.Guard[i] != ir.NoOperand }

// ensureCFG rebuilds the CFG arrays when stale.
func ensureCFG(f *ir.Func) {
	if !f.CFGValid() {
		f.ComputeCFG()
	}
}

// fallsThrough reports whether control can leave b by falling into the
// next block of the layout (its last instruction is not an unguarded
// terminator).
func fallsThrough(f *ir.Func, b ir.BlockID) bool {
	last := f.BlockLast[b]
	if last == ir.NoInstr {
		return true
	}
	return !(f.Op[last].Props().Has(ir.PTerminator) && f.Guard[last] == ir.NoOperand)
}
