package ir

import (
	"fmt"
	"strings"
)

// The verifier checks the invariants every pass must keep, and reports
// each violation with the printed instruction, so a broken phase is found
// where it broke (the phase driver runs it after each phase in check
// mode).
//
// Checked for every function with a body:
//   - the parallel slices agree in length; Layout holds every block once;
//   - each block's linked list is consistent: BlockFirst/BlockLast, Prev
//     and Next agree, Block[i] names the block, no dead instruction is
//     linked, no instruction is in two blocks, and an instruction outside
//     every list claims no block;
//   - labels are SymLabel symbols owned by the function naming the block;
//   - operands: kinds valid, indices in range (registers, immediates,
//     addresses, lists, symbols, labels, specials), flags where they mean
//     something, destinations (definition bit) are registers, lists of
//     registers or sinks, destinations come before sources;
//   - guards are predicate registers;
//   - register types where the rules are clear: setp writes predicates,
//     the selector of selp is a predicate, a predicate is used only where
//     one belongs, and add/sub/mul/mad/fma/min/max/and/or/xor/not/neg/abs/
//     div/rem/selp/mov on registers use registers as wide as the
//     instruction type (mul/mad .wide and .hi-less forms handled);
//   - branches and terminators end their block; a branch names a target;
//   - when CFGValid(), the edge arrays equal a fresh ComputeCFG;
//   - with VerifyOptions.Forms: fields and mnemonic text agree, and the
//     cached properties are current;
//   - with VerifyOptions.SSA: one definition per register, and each
//     definition dominates its uses (outside phi instructions).

// VerifyError is one violation.
type VerifyError struct {
	Func  string
	Block BlockID // NoBlock when not about a block
	Label string  // the block's label, "" when none
	Instr InstrID // NoInstr when not about an instruction
	Text  string  // the printed instruction, "" when none
	Msg   string
}

func (e *VerifyError) Error() string {
	var b strings.Builder
	b.WriteString("verify ")
	b.WriteString(e.Func)
	if e.Block != NoBlock {
		fmt.Fprintf(&b, ": block %d", e.Block)
		if e.Label != "" {
			fmt.Fprintf(&b, " (%s)", e.Label)
		}
	}
	if e.Instr != NoInstr {
		fmt.Fprintf(&b, ": instr %d `%s`", e.Instr, e.Text)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// VerifyOptions selects the optional checks.
type VerifyOptions struct {
	// SSA: each register has at most one definition, and (when Dominates
	// is set) the definition dominates every use.
	SSA bool
	// Dominates reports whether instruction a dominates instruction b
	// (a != b). Supplied by package core from its dominator tree.
	Dominates func(a, b InstrID) bool
	// MaxErrors stops after this many violations (0: 100).
	MaxErrors int
	// Forms: every instruction's decoded fields (opcode, types, space,
	// modifiers) agree with its mnemonic text, and its cached properties
	// with a fresh computation — nothing changed an instruction behind
	// the setters (SetForm, SetOps). The phase driver's check mode sets it.
	Forms bool
}

// Verify checks f with the default options (no SSA) and returns the
// violations, nil when there are none.
func Verify(f *Func) []error { return VerifyWith(f, VerifyOptions{}) }

// VerifyModule verifies every function of m.
func VerifyModule(m *Module) []error {
	var errs []error
	for _, f := range m.Funcs {
		errs = append(errs, Verify(f)...)
	}
	return errs
}

type verifier struct {
	f    *Func
	opts VerifyOptions
	errs []error
	max  int
}

func (v *verifier) full() bool { return len(v.errs) >= v.max }

func (v *verifier) errorf(b BlockID, i InstrID, format string, args ...any) {
	if v.full() {
		return
	}
	e := &VerifyError{Func: v.f.Name, Block: b, Instr: i, Msg: fmt.Sprintf(format, args...)}
	if i != NoInstr {
		e.Text = v.f.FormatInstr(i)
	}
	if b != NoBlock && int(b) < len(v.f.BlockLabel) && v.f.BlockLabel[b] != NoSym {
		e.Label = string(v.f.appendBlockName(nil, b))
	}
	v.errs = append(v.errs, e)
}

// VerifyWith checks f with the given options.
func VerifyWith(f *Func, opts VerifyOptions) []error {
	v := &verifier{f: f, opts: opts, max: opts.MaxErrors}
	if v.max <= 0 {
		v.max = 100
	}
	if !f.HasBody {
		return nil
	}
	if !v.shapes() {
		return v.errs
	}
	v.layout()
	if len(v.errs) > 0 {
		return v.errs // the lists cannot be walked safely
	}
	v.regParams()
	v.labels()
	var forms map[StrID]Form
	if opts.Forms {
		forms = map[StrID]Form{}
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			v.instr(b, i)
			if forms != nil {
				v.form(b, i, forms)
			}
		}
	}
	if len(v.errs) == 0 && f.CFGValid() {
		v.cfg()
	}
	if len(v.errs) == 0 && opts.SSA {
		v.ssa()
	}
	return v.errs
}

// shapes checks that the parallel slices agree; nothing else is safe to
// check when they do not.
func (v *verifier) shapes() bool {
	f := v.f
	n := len(f.Op)
	for _, c := range f.ColumnLens() {
		if c.Len != n && !(c.Lazy && c.Len == 0) {
			v.errorf(NoBlock, NoInstr, "instruction column %s has %d entries, Op has %d", c.Name, c.Len, n)
		}
	}
	nr := len(f.RegType)
	if len(f.RegName) != nr || len(f.RegVec) != nr {
		v.errorf(NoBlock, NoInstr, "register slices disagree: %d names, %d types, %d vec", len(f.RegName), nr, len(f.RegVec))
	}
	nb := len(f.BlockFirst)
	if len(f.BlockLast) != nb || len(f.BlockLabel) != nb {
		v.errorf(NoBlock, NoInstr, "block slices disagree: %d first, %d last, %d labels", nb, len(f.BlockLast), len(f.BlockLabel))
	}
	if len(v.errs) > 0 {
		return false
	}
	for i := range n {
		if int(f.OpStart[i])+int(f.OpCount[i]) > len(f.Operands) {
			v.errorf(NoBlock, NoInstr, "instruction %d: operands [%d:+%d] past the pool (%d)", i, f.OpStart[i], f.OpCount[i], len(f.Operands))
		}
		if int(f.Op[i]) >= NumOpcodes() {
			v.errorf(NoBlock, NoInstr, "instruction %d: opcode %d out of range", i, f.Op[i])
		}
	}
	for k, l := range f.Lists {
		if uint64(l.Start)+uint64(l.Count) > uint64(len(f.ListOps)) {
			v.errorf(NoBlock, NoInstr, "list %d: [%d:+%d] past the pool (%d)", k, l.Start, l.Count, len(f.ListOps))
		}
	}
	for k, a := range f.Addrs {
		if int(a.Elems) >= len(f.Lists) {
			v.errorf(NoBlock, NoInstr, "address %d: list %d out of range", k, a.Elems)
		}
	}
	return len(v.errs) == 0
}

// regParams checks that each .reg-space parameter has a register of its
// own that matches it (name, type, vector width), and that no operand
// names such a parameter as a symbol.
func (v *verifier) regParams() {
	f := v.f
	if f.Mod == nil {
		return
	}
	var owner map[RegID]SymID
	for _, ids := range [2][]SymID{f.RetParams, f.Params} {
		for _, id := range ids {
			if int(id) >= len(f.Mod.Syms) {
				v.errorf(NoBlock, NoInstr, "parameter symbol %d out of range", id)
				continue
			}
			s := &f.Mod.Syms[id]
			if s.Space != SpaceReg {
				continue
			}
			name := f.Str(s.Name)
			r := s.Reg
			switch {
			case int(r) >= len(f.RegType):
				v.errorf(NoBlock, NoInstr, ".reg parameter %s: register %d out of range", name, r)
				continue
			case f.RegName[r] != s.Name || f.RegType[r] != s.Type || f.RegVec[r] != s.Vec:
				v.errorf(NoBlock, NoInstr, ".reg parameter %s (.%s) held by register %s (.%s)", name, s.Type, f.Str(f.RegName[r]), f.RegType[r])
			}
			if owner == nil {
				owner = map[RegID]SymID{}
			}
			if o, dup := owner[r]; dup {
				v.errorf(NoBlock, NoInstr, ".reg parameters %s and %s share register %d", f.Str(f.Mod.Syms[o].Name), name, r)
			}
			owner[r] = id
		}
	}
	if owner == nil {
		return
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			for _, o := range f.Ops(i) {
				if v.symParam(o) {
					v.errorf(b, i, ".reg parameter %s used as a symbol, not as its register", f.FormatOperand(o))
				}
			}
		}
	}
}

// symParam reports whether o (or an element of it) names a .reg-space
// parameter as a KSym.
func (v *verifier) symParam(o Operand) bool {
	f := v.f
	switch o.Kind() {
	case KSym:
		if int(o.Index()) < len(f.Mod.Syms) {
			s := &f.Mod.Syms[o.Index()]
			return s.Space == SpaceReg && s.Owner == f.ID && (s.Kind == SymParam || s.Kind == SymRetParam)
		}
	case KList:
		if int(o.Index()) < len(f.Lists) {
			for _, e := range f.ListElems(o.Index()) {
				if v.symParam(e) {
					return true
				}
			}
		}
	case KAddr:
		if int(o.Index()) < len(f.Addrs) {
			for _, e := range f.ListElems(f.Addrs[o.Index()].Elems) {
				if v.symParam(e) {
					return true
				}
			}
		}
	}
	return false
}

// layout checks the block order and the linked lists.
func (v *verifier) layout() {
	f := v.f
	nb := f.NumBlocks()
	n := f.NumInstrs()
	inLayout := make([]int, nb)
	for k, b := range f.Layout {
		if int(b) >= nb {
			v.errorf(NoBlock, NoInstr, "layout position %d: block %d does not exist", k, b)
			continue
		}
		inLayout[b]++
	}
	for b, c := range inLayout {
		if c != 1 {
			v.errorf(BlockID(b), NoInstr, "block appears %d times in the layout", c)
		}
	}
	linked := make([]bool, n)
	for b := range BlockID(nb) {
		prev := NoInstr
		steps := 0
		i := f.BlockFirst[b]
		for ; i != NoInstr; i = f.Next[i] {
			if int(i) >= n {
				v.errorf(b, NoInstr, "list reaches instruction %d, past %d", i, n)
				break
			}
			if linked[i] {
				v.errorf(b, i, "instruction linked twice (a cycle or two blocks)")
				break
			}
			linked[i] = true
			if f.Prev[i] != prev {
				v.errorf(b, i, "Prev is %d, want %d", int32(f.Prev[i]), int32(prev))
			}
			if f.Block[i] != b {
				v.errorf(b, i, "Block says %d", int32(f.Block[i]))
			}
			if f.IsDead(i) {
				v.errorf(b, i, "dead instruction still linked")
			}
			prev = i
			if steps++; steps > n {
				break
			}
		}
		if i == NoInstr && f.BlockLast[b] != prev {
			v.errorf(b, NoInstr, "BlockLast is %d, the list ends at %d", int32(f.BlockLast[b]), int32(prev))
		}
	}
	for i := range InstrID(n) {
		if !linked[i] && f.Block[i] != NoBlock {
			v.errorf(NoBlock, i, "claims block %d but is not in its list", f.Block[i])
		}
	}
}

func (v *verifier) labels() {
	f := v.f
	for b, s := range f.BlockLabel {
		if s == NoSym {
			continue
		}
		if int(s) >= len(f.Mod.Syms) {
			v.errorf(BlockID(b), NoInstr, "label symbol %d out of range", s)
			continue
		}
		sym := &f.Mod.Syms[s]
		if sym.Kind != SymLabel || sym.Block != BlockID(b) || sym.Owner != f.ID {
			v.errorf(BlockID(b), NoInstr, "label %q: kind %d, block %d, owner %d; want a label of this block and function",
				f.Str(sym.Name), sym.Kind, int32(sym.Block), int32(sym.Owner))
		}
	}
}

// sameWidthOps are the opcodes whose register operands must all be as
// wide as the instruction type (predicate selectors and shift amounts
// aside); PTX rejects a mismatch.
var sameWidthOps = map[Opcode]bool{
	OpAdd: true, OpSub: true, OpMul: true, OpMad: true, OpFma: true, OpMin: true, OpMax: true,
	OpAnd: true, OpOr: true, OpXor: true, OpNot: true, OpNeg: true, OpAbs: true,
	OpDiv: true, OpRem: true, OpSelp: true, OpMov: true,
}

func (v *verifier) instr(b BlockID, i InstrID) {
	f := v.f
	ops := f.Ops(i)
	if g := f.Guard[i]; g != NoOperand {
		switch {
		case g.Kind() != KReg || g.IsDef() || g.Flags()&^FlagNot != 0:
			v.errorf(b, i, "guard is not a predicate register use")
		case int(g.Index()) >= f.NumRegs():
			v.errorf(b, i, "guard register %d out of range", g.Index())
		case f.RegType[g.Reg()] != TPred:
			v.errorf(b, i, "guard %s is .%s, not .pred", f.FormatOperand(g), f.RegType[g.Reg()])
		}
	}
	sawUse := false
	for k, o := range ops {
		if !v.operand(b, i, o, 0) {
			continue
		}
		if o.IsDef() {
			switch o.Kind() {
			case KReg, KSink, KList:
			default:
				v.errorf(b, i, "operand %d: destination is a %s", k, o.Kind())
			}
			if sawUse {
				v.errorf(b, i, "operand %d: destination after a source", k)
			}
		} else {
			sawUse = true
		}
	}
	if a := arity[f.Op[i]]; len(ops) < int(a[0]) || len(ops) > int(a[1]) {
		if a[0] == a[1] {
			v.errorf(b, i, "%s takes %d operands, found %d", f.Op[i], a[0], len(ops))
		} else {
			v.errorf(b, i, "%s takes %d to %d operands, found %d", f.Op[i], a[0], a[1], len(ops))
		}
	}
	p := f.Op[i].Props()
	if p&(PTerminator|PBranch) != 0 && i != f.BlockLast[b] {
		v.errorf(b, i, "%s is not the last instruction of its block", f.Op[i])
	}
	if p.Has(PBranch) {
		v.branchTarget(b, i, ops)
	}
	v.types(b, i, ops)
}

// arity gives the operand count range of the instructions whose every
// PTX form has a known count (the second destination of "setp a|b", a
// boolean-combine source, a cache-policy operand or a three-input min/max
// widen the range where the ISA has them). Opcodes not listed are not
// checked here.
var arityRanges = map[Opcode][2]uint8{
	OpAdd: {3, 3}, OpSub: {3, 3}, OpMul: {3, 3}, OpDiv: {3, 3}, OpRem: {3, 3},
	OpAnd: {3, 3}, OpOr: {3, 3}, OpXor: {3, 3}, OpShl: {3, 3}, OpShr: {3, 3},
	OpMad: {4, 4}, OpFma: {4, 4}, OpSelp: {4, 4},
	OpMov: {2, 2}, OpNeg: {2, 2}, OpNot: {2, 2}, OpAbs: {2, 2}, OpCvta: {2, 2},
	OpRcp: {2, 2}, OpSqrt: {2, 2},
	OpSetp: {3, 5}, OpLd: {2, 3}, OpSt: {2, 3},
	OpBra: {1, 1}, OpRet: {0, 0}, OpExit: {0, 0},
}

// arity is arityRanges indexed by opcode; {0, 0xff} where unchecked.
var arity = func() []([2]uint8) {
	a := make([][2]uint8, NumOpcodes())
	for i := range a {
		a[i] = [2]uint8{0, 0xff}
	}
	for op, r := range arityRanges {
		a[op] = r
	}
	return a
}()

// operand checks one operand word; depth counts list nesting. It reports
// whether the operand is well-formed enough to look at further.
func (v *verifier) operand(b BlockID, i InstrID, o Operand, depth int) bool {
	f := v.f
	if o == NoOperand {
		v.errorf(b, i, "absent operand (NoOperand) in the operand list")
		return false
	}
	idx := o.Index()
	fl := o.Flags()
	in := func(n int, what string) bool {
		if int(idx) >= n {
			v.errorf(b, i, "%s index %d out of range (%d)", what, idx, n)
			return false
		}
		return true
	}
	switch o.Kind() {
	case KReg:
		if !in(f.NumRegs(), "register") {
			return false
		}
		if fl&FlagNot != 0 && f.RegType[idx] != TPred {
			v.errorf(b, i, "'!' on %s, a .%s register", f.FormatOperand(o.WithFlags(0)), f.RegType[idx])
		}
		if fl&FlagParen != 0 {
			v.errorf(b, i, "parenthesis flag on register %s", f.FormatOperand(o))
		}
		if fl&FlagPipe != 0 && !o.IsDef() {
			v.errorf(b, i, "'|' on register use %s", f.FormatOperand(o))
		}
		return true
	case KImm:
		return in(len(f.Imms), "immediate")
	case KSym:
		return in(len(f.Mod.Syms), "symbol")
	case KLabel:
		return in(f.NumBlocks(), "label block")
	case KAddr:
		if !in(len(f.Addrs), "address") {
			return false
		}
		if o.IsDef() {
			v.errorf(b, i, "address %s used as a destination", f.FormatOperand(o))
		}
		for _, e := range f.ListElems(f.Addrs[idx].Elems) {
			if depth > 2 || !v.operand(b, i, e, depth+1) {
				return false
			}
			if e.IsDef() {
				v.errorf(b, i, "address element %s is a destination", f.FormatOperand(e))
			}
		}
		return true
	case KList:
		if !in(len(f.Lists), "list") {
			return false
		}
		for _, e := range f.ListElems(idx) {
			if depth > 2 || !v.operand(b, i, e, depth+1) {
				return false
			}
			if o.IsDef() && e.Kind() != KReg && e.Kind() != KSink && e.Kind() != KSym {
				v.errorf(b, i, "destination list holds a %s", e.Kind())
			}
		}
		return true
	case KSpecial:
		return in(len(f.Mod.Specials), "special register")
	case KSink:
		return true
	}
	return true
}

func (v *verifier) branchTarget(b BlockID, i InstrID, ops []Operand) {
	f := v.f
	for _, o := range ops {
		switch o.Kind() {
		case KLabel:
			return
		case KSym:
			if int(o.Index()) < len(f.Mod.Syms) && f.Mod.Syms[o.Index()].Kind == SymBranchTargets {
				return
			}
		case KReg:
			if f.Op[i] == OpBrxIdx {
				continue
			}
		}
	}
	v.errorf(b, i, "branch without a target")
}

// regBits returns the width of a register operand, 0 when o is none.
func (v *verifier) regBits(o Operand) int {
	if o.Kind() != KReg || int(o.Index()) >= v.f.NumRegs() {
		return 0
	}
	return v.f.RegType[o.Reg()].Bits()
}

func (v *verifier) types(b BlockID, i InstrID, ops []Operand) {
	f := v.f
	op := f.Op[i]
	isPred := func(o Operand) bool {
		return o.Kind() == KReg && int(o.Index()) < f.NumRegs() && f.RegType[o.Reg()] == TPred
	}
	switch op {
	case OpSetp:
		for _, o := range ops {
			if o.IsDef() && o.Kind() == KReg && !isPred(o) {
				v.errorf(b, i, "setp destination %s is not .pred", f.FormatOperand(o))
			}
		}
	case OpSelp:
		if n := len(ops); n == 4 && ops[3].Kind() == KReg && !isPred(ops[3]) {
			v.errorf(b, i, "selp selector %s is not .pred", f.FormatOperand(ops[3]))
		}
	}
	if !sameWidthOps[op] {
		return
	}
	t := f.Type[i]
	want := t.Bits()
	if want == 0 {
		return
	}
	m := f.Str(f.Mnemonic[i])
	if op == OpMov && (len(ops) != 2 || ops[0].Kind() != KReg || ops[1].Kind() != KReg) {
		return // pack/unpack, symbol address, special register: not a plain move
	}
	wide := (op == OpMul || op == OpMad) && HasMod(m, "wide")
	if wide && want > 32 {
		v.errorf(b, i, "%s.wide takes 16- and 32-bit types only, not .%s", op, t)
		return
	}
	for k, o := range ops {
		if o.Kind() != KReg || int(o.Index()) >= f.NumRegs() {
			continue
		}
		if op == OpSelp && k == 3 {
			continue // the selector, checked above
		}
		rt := f.RegType[o.Reg()]
		got := rt.Bits()
		if got == 0 {
			continue
		}
		w := want
		if wide && (k == 0 || (op == OpMad && k == 3)) {
			w = 2 * want
		}
		if (rt == TPred) != (t == TPred) {
			v.errorf(b, i, "operand %s is .%s, the instruction is .%s", f.FormatOperand(o), rt, t)
		} else if got != w {
			v.errorf(b, i, "operand %s is %d bits (.%s), want %d for .%s", f.FormatOperand(o), got, rt, w, t)
		}
	}
}

// cfg compares the edge arrays with a fresh computation.
func (v *verifier) cfg() {
	f := v.f
	g := *f
	g.SuccStart, g.Succs, g.PredStart, g.Preds = nil, nil, nil, nil
	g.rebuildCFG()
	if len(f.SuccStart) != len(g.SuccStart) || len(f.PredStart) != len(g.PredStart) {
		v.errorf(NoBlock, NoInstr, "CFG marked valid but sized for %d blocks, the function has %d", len(f.SuccStart)-1, f.NumBlocks())
		return
	}
	for b := range BlockID(f.NumBlocks()) {
		if s, w := f.SuccsOf(b), g.SuccsOf(b); !sameBlocks(s, w) {
			v.errorf(b, NoInstr, "stale CFG: successors %v, instructions say %v", s, w)
		}
		if p, w := f.PredsOf(b), g.PredsOf(b); !sameBlocks(p, w) {
			v.errorf(b, NoInstr, "stale CFG: predecessors %v, instructions say %v", p, w)
		}
	}
}

func sameBlocks(a, b []BlockID) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// ssa checks single definitions and, given Dominates, that definitions
// dominate uses. Uses in phi instructions (PPseudo) flow in from
// predecessors and are not checked against dominance here.
func (v *verifier) ssa() {
	f := v.f
	def := make([]InstrID, f.NumRegs())
	for r := range def {
		def[r] = NoInstr
	}
	var defs, uses []RegID
	for _, b := range f.Layout {
		for i := range f.Instrs(b) {
			defs, uses = f.appendRegs(i, defs[:0], uses[:0])
			for _, r := range defs {
				if def[r] != NoInstr {
					v.errorf(b, i, "SSA: %s defined again (first by `%s`)", f.Str(f.RegName[r]), f.FormatInstr(def[r]))
					continue
				}
				def[r] = i
			}
		}
	}
	if v.opts.Dominates == nil {
		return
	}
	for _, b := range f.Layout {
		for i := range f.Instrs(b) {
			if f.Op[i].Props().Has(PPseudo) {
				continue
			}
			defs, uses = f.appendRegs(i, defs[:0], uses[:0])
			for _, r := range uses {
				d := def[r]
				if d == NoInstr {
					continue // undefined on entry: allowed
				}
				if d == i || !v.opts.Dominates(d, i) {
					v.errorf(b, i, "SSA: use of %s not dominated by its definition `%s`", f.Str(f.RegName[r]), f.FormatInstr(d))
				}
			}
		}
	}
}

// appendRegs appends the registers instruction i defines and uses (guard,
// address and list elements included).
func (f *Func) appendRegs(i InstrID, defs, uses []RegID) ([]RegID, []RegID) {
	if g := f.Guard[i]; g != NoOperand && g.Kind() == KReg {
		uses = append(uses, g.Reg())
	}
	var walk func(o Operand, def bool, depth int)
	walk = func(o Operand, def bool, depth int) {
		switch o.Kind() {
		case KReg:
			if def || o.IsDef() {
				defs = append(defs, o.Reg())
			} else {
				uses = append(uses, o.Reg())
			}
		case KList:
			if depth < 3 {
				for _, e := range f.ListElems(o.Index()) {
					walk(e, def || o.IsDef(), depth+1)
				}
			}
		case KAddr:
			if depth < 3 {
				for _, e := range f.ListElems(f.Addrs[o.Index()].Elems) {
					walk(e, false, depth+1)
				}
			}
		}
	}
	for _, o := range f.Ops(i) {
		walk(o, false, 0)
	}
	return defs, uses
}

// form checks that instruction i's fields say what its mnemonic says, and
// that its cached properties are current. forms caches Decode per text.
func (v *verifier) form(b BlockID, i InstrID, forms map[StrID]Form) {
	f := v.f
	d, ok := forms[f.Mnemonic[i]]
	if !ok {
		d = Decode(f.Str(f.Mnemonic[i]))
		forms[f.Mnemonic[i]] = d
	}
	sp := f.Space[i]
	if sp == SpaceGeneric && d.Space == SpaceNone {
		sp = SpaceNone // generic addressing: no space in the text
	}
	if d.Op != f.Op[i] || d.Type != f.Type[i] || d.Type2 != f.Type2[i] || d.Space != sp || d.Mods != f.Mods[i] {
		v.errorf(b, i, "fields (%s .%s .%s space %s mods %#x) disagree with the mnemonic (%s .%s .%s space %s mods %#x)",
			f.Op[i], f.Type[i], f.Type2[i], f.Space[i], uint64(f.Mods[i]), d.Op, d.Type, d.Type2, d.Space, uint64(d.Mods))
		return
	}
	if got, want := f.InstrProps(i), f.computeProps(i); got != want {
		v.errorf(b, i, "cached properties %#x are stale (now %#x): changed behind SetForm/SetOps", uint32(got), uint32(want))
	}
}
