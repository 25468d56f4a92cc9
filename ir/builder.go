package ir

import (
	"fmt"
	"math"
	"strconv"
)

// Builder: constructing modules and functions from Go, without PTX text,
// for DSLs and JITs. The IR it makes has exactly the shape the parser
// (ir/ptx) produces:
//
//   - the function is a SymFunc symbol in Module.Syms and an ItemFunc item;
//     parameters are SymParam (return parameters SymRetParam) symbols owned
//     by the function, in space .param;
//   - labels are SymLabel symbols with Name interned, Block set and Owner
//     the function; Func.BlockLabel points at them, and a branch target is
//     a KLabel operand whose index is the BlockID;
//   - the full mnemonic is interned in Func.Mnemonic, and its dotted
//     components fill Op (the base name through OpcodeByName), Type and
//     Type2 (the first and second type suffixes) and Space (the first state
//     space named; SpaceGeneric for a memory instruction with an address
//     operand that names none, SpaceNone otherwise);
//   - destinations carry the definition bit; a vector destination has it
//     on the list operand and on each element.
//
// Blocks are laid out in creation order, and fall-through follows the
// layout. An instruction emitted after a branch or terminator opens a new
// unlabeled block placed right after the current one, so
//
//	fb.Guard(p, false)
//	fb.Bra(exit)
//	fb.Ins("add.s32", …) // lands in the fall-through block
//
// builds proper basic blocks. Example:
//
//	b := ir.NewModuleBuilder("8.4", "sm_89", 64)
//	fb := b.Entry("kern", ir.Param("n", ir.TU32))
//	n := fb.Reg(ir.TU32)
//	fb.Ins("ld.param.u32", ir.RegDef(n), fb.Addr(fb.Sym(fb.ParamSym(0)), 0))
//	loop := fb.Block("LOOP")
//	fb.SetBlock(loop)
//	…
//	m := b.Module()
type ModuleBuilder struct {
	m        *Module
	mnem     map[string]mnemInfo
	specials map[StrID]uint32
}

type mnemInfo struct {
	id   StrID
	form Form
}

// NewModuleBuilder starts a module with the given .version, .target and
// .address_size (0 for none).
func NewModuleBuilder(version, target string, addressSize int) *ModuleBuilder {
	m := &Module{Version: version, Target: target, AddressSize: addressSize}
	m.Strings.Intern("")
	return &ModuleBuilder{m: m, mnem: map[string]mnemInfo{}, specials: map[StrID]uint32{}}
}

// Module returns the module built so far.
func (b *ModuleBuilder) Module() *Module { return b.m }

// ParamSpec describes a parameter of Entry or Func.
type ParamSpec struct {
	Name  string
	Type  Type
	Align uint32 // .align N, 0 for none
	Dims  string // array suffix as written ("[16]"), "" for a scalar
	Attrs string // extra attributes (".ptr .global .align 16"), "" for none
}

// Param is a scalar parameter of type t.
func Param(name string, t Type) ParamSpec { return ParamSpec{Name: name, Type: t} }

func (b *ModuleBuilder) mnemonic(mn string) mnemInfo {
	if mi, ok := b.mnem[mn]; ok {
		return mi
	}
	mi := mnemInfo{id: b.m.Strings.Intern(mn), form: Decode(mn)}
	b.mnem[mn] = mi
	return mi
}

func (b *ModuleBuilder) addSym(s Symbol) SymID {
	if len(b.m.Syms) >= int(MaxOperandIndex) {
		panic("ir: too many symbols")
	}
	b.m.Syms = append(b.m.Syms, s)
	return SymID(len(b.m.Syms) - 1)
}

// Global declares a module-scope variable in space (SpaceGlobal,
// SpaceShared, SpaceConst, …) and returns its symbol.
func (b *ModuleBuilder) Global(name string, space Space, t Type, align uint32, dims string) SymID {
	s := b.addSym(Symbol{
		Name: b.m.Strings.Intern(name), Kind: SymVar, Space: space, Type: t, Align: align,
		Dims: b.m.Strings.Intern(dims), Elems: DimsElems(dims), Owner: NoFunc, Func: NoFunc, Block: NoBlock,
	})
	b.m.Items = append(b.m.Items, Item{Kind: ItemVar, Sym: s})
	return s
}

// Directive appends a raw top-level directive (".file 1 \"a.cu\"").
func (b *ModuleBuilder) Directive(text string) {
	b.m.Items = append(b.m.Items, Item{Kind: ItemDirective, Text: b.m.Strings.Intern(text)})
}

// Entry starts a kernel (.visible .entry) with the given parameters.
func (b *ModuleBuilder) Entry(name string, params ...ParamSpec) *FuncBuilder {
	return b.newFunc(name, KindEntry, LinkVisible, true, nil, params)
}

// Func starts a device function (.func) with return parameters rets.
func (b *ModuleBuilder) Func(name string, rets []ParamSpec, params ...ParamSpec) *FuncBuilder {
	return b.newFunc(name, KindFunc, 0, true, rets, params)
}

// DeclareFunc declares an external device function without a body
// (".extern .func (.param .b32 r) vprintf (.param .b64 a, …)") and returns
// its symbol, for calls.
func (b *ModuleBuilder) DeclareFunc(name string, rets []ParamSpec, params ...ParamSpec) SymID {
	fb := b.newFunc(name, KindFunc, LinkExtern, false, rets, params)
	return fb.f.Sym
}

func (b *ModuleBuilder) newFunc(name string, kind FuncKind, link Linkage, body bool, rets, params []ParamSpec) *FuncBuilder {
	m := b.m
	id := FuncID(len(m.Funcs))
	f := &Func{Mod: m, ID: id, Name: name, Kind: kind, Linkage: link, HasBody: body}
	f.Sym = b.addSym(Symbol{
		Name: m.Strings.Intern(name), Kind: SymFunc, Linkage: link,
		Owner: NoFunc, Func: id, Block: NoBlock,
	})
	m.Funcs = append(m.Funcs, f)
	m.Items = append(m.Items, Item{Kind: ItemFunc, Func: id})
	fb := &FuncBuilder{
		mb: b, f: f, cur: NoBlock, guard: NoOperand,
		regNames: map[string]RegID{}, labels: map[string]bool{},
	}
	for _, p := range rets {
		f.RetParams = append(f.RetParams, fb.param(p, SymRetParam))
	}
	for _, p := range params {
		f.Params = append(f.Params, fb.param(p, SymParam))
	}
	if body {
		fb.cur = f.AddBlock(NoSym)
	}
	return fb
}

// FuncBuilder builds the body of one function.
type FuncBuilder struct {
	mb       *ModuleBuilder
	f        *Func
	cur      BlockID
	closed   bool    // cur ends with a branch or terminator
	guard    Operand // guard for the next instruction
	regNames map[string]RegID
	regCount [len(regPrefixes)]int
	labels   map[string]bool
}

// Func returns the function being built.
func (fb *FuncBuilder) Func() *Func { return fb.f }

// Module returns the module builder the function belongs to.
func (fb *FuncBuilder) Module() *ModuleBuilder { return fb.mb }

func (fb *FuncBuilder) param(p ParamSpec, kind SymKind) SymID {
	st := &fb.mb.m.Strings
	return fb.mb.addSym(Symbol{
		Name: st.Intern(p.Name), Kind: kind, Space: SpaceParam, Type: p.Type, Align: p.Align,
		Dims: st.Intern(p.Dims), Elems: DimsElems(p.Dims), Attrs: st.Intern(p.Attrs), Owner: fb.f.ID, Func: NoFunc, Block: NoBlock,
	})
}

// Param appends a parameter to the function's signature and returns its
// symbol.
func (fb *FuncBuilder) Param(name string, t Type) SymID {
	s := fb.param(Param(name, t), SymParam)
	fb.f.Params = append(fb.f.Params, s)
	return s
}

// ParamSym returns the symbol of the k-th parameter.
func (fb *FuncBuilder) ParamSym(k int) SymID { return fb.f.Params[k] }

// RetParamSym returns the symbol of the k-th return parameter.
func (fb *FuncBuilder) RetParamSym(k int) SymID { return fb.f.RetParams[k] }

// Local declares a variable in the function body (.local, .shared, or a
// .param used for call arguments) and returns its symbol.
func (fb *FuncBuilder) Local(name string, space Space, t Type, align uint32, dims string) SymID {
	st := &fb.mb.m.Strings
	s := fb.mb.addSym(Symbol{
		Name: st.Intern(name), Kind: SymVar, Space: space, Type: t, Align: align,
		Dims: st.Intern(dims), Elems: DimsElems(dims), Owner: fb.f.ID, Func: NoFunc, Block: NoBlock,
	})
	fb.f.Locals = append(fb.f.Locals, s)
	return s
}

// Directive adds a function directive (".maxntid 256, 1, 1").
func (fb *FuncBuilder) Directive(text string) {
	fb.f.Directives = append(fb.f.Directives, fb.mb.m.Strings.Intern(text))
}

// Register name prefixes, nvcc's convention.
var regPrefixes = [...]string{"%p", "%rs", "%r", "%rd", "%rq", "%f", "%fd", "%h", "%hh", "%x"}

func regPrefix(t Type) int {
	switch t {
	case TPred:
		return 0
	case TF32:
		return 5
	case TF64:
		return 6
	case TF16, TBF16:
		return 7
	case TF16x2, TBF16x2:
		return 8
	}
	switch t.Bits() {
	case 8, 16:
		return 1
	case 32:
		return 2
	case 64:
		return 3
	case 128:
		return 4
	}
	return 9
}

// Reg declares a fresh register of type t, named in nvcc's style (%r7,
// %rd3, %p1, %f2, …).
func (fb *FuncBuilder) Reg(t Type) RegID {
	k := regPrefix(t)
	for {
		fb.regCount[k]++
		name := regPrefixes[k] + strconv.Itoa(fb.regCount[k])
		if _, taken := fb.regNames[name]; !taken {
			return fb.NamedReg(name, t)
		}
	}
}

// NamedReg declares a register with an explicit name ("%acc"). It panics
// when the name is taken.
func (fb *FuncBuilder) NamedReg(name string, t Type) RegID {
	if _, taken := fb.regNames[name]; taken {
		panic(fmt.Sprintf("ir: register %s declared twice", name))
	}
	r := fb.f.AddReg(fb.mb.m.Strings.Intern(name), t)
	fb.regNames[name] = r
	return r
}

// Block creates an empty block labeled name ("" for none) at the end of
// the layout. A name already used in the function gets a suffix.
func (fb *FuncBuilder) Block(name string) BlockID {
	f := fb.f
	b := f.AddBlock(NoSym)
	if name != "" {
		fb.setLabel(b, name)
	}
	return b
}

func (fb *FuncBuilder) setLabel(b BlockID, name string) {
	base := name
	for k := 1; fb.labels[name]; k++ {
		name = base + "_" + strconv.Itoa(k)
	}
	fb.labels[name] = true
	s := fb.mb.addSym(Symbol{
		Name: fb.mb.m.Strings.Intern(name), Kind: SymLabel, Owner: fb.f.ID, Func: NoFunc, Block: b,
	})
	fb.f.BlockLabel[b] = s
}

// BlockName returns the label of b, giving it one ("$L__BB<f>_<b>") when
// it has none.
func (fb *FuncBuilder) BlockName(b BlockID) string {
	if fb.f.BlockLabel[b] == NoSym {
		fb.setLabel(b, fmt.Sprintf("$L__BB%d_%d", fb.f.ID, b))
	}
	return fb.f.Str(fb.mb.m.Syms[fb.f.BlockLabel[b]].Name)
}

// SetBlock makes b the block instructions are appended to.
func (fb *FuncBuilder) SetBlock(b BlockID) {
	fb.cur = b
	last := fb.f.BlockLast[b]
	fb.closed = last != NoInstr && fb.f.Op[last].Props()&(PTerminator|PBranch) != 0
}

// Current returns the block the last instruction went to (after a branch
// or terminator, the next instruction opens a new block).
func (fb *FuncBuilder) Current() BlockID { return fb.cur }

// open starts the fall-through block after a closed one, placed right
// after it in the layout.
func (fb *FuncBuilder) open() {
	if fb.cur == NoBlock {
		panic("ir: function " + fb.f.Name + " has no body")
	}
	if !fb.closed {
		return
	}
	f := fb.f
	nb := f.AddBlock(NoSym) // appended last; move it after cur
	lay := f.Layout
	pos := 0
	for k, b := range lay {
		if b == fb.cur {
			pos = k + 1
			break
		}
	}
	copy(lay[pos+1:], lay[pos:len(lay)-1])
	lay[pos] = nb
	fb.cur, fb.closed = nb, false
}

// Guard guards the next instruction emitted with predicate p ("@p", or
// "@!p" when negated).
func (fb *FuncBuilder) Guard(p RegID, negated bool) {
	var fl OperandFlag
	if negated {
		fl = FlagNot
	}
	fb.guard = Pack(KReg, uint32(p), fl, false)
}

// Ins appends an instruction with mnemonic mn ("add.s32",
// "ld.global.nc.v4.f32") and operands ops, destinations first with the
// definition bit (RegDef, a Vec of RegDefs, Sink). The pending Guard, if
// any, applies to it.
func (fb *FuncBuilder) Ins(mn string, ops ...Operand) InstrID {
	fb.open()
	f := fb.f
	mi := fb.mb.mnemonic(mn)
	i := f.NewInstrDecoded(mi.form, mi.id, ops)
	f.Guard[i] = fb.guard
	fb.guard = NoOperand
	f.Append(fb.cur, i)
	if mi.form.Op.Props()&(PTerminator|PBranch) != 0 {
		fb.closed = true
	}
	return i
}

// Bra appends "bra target".
func (fb *FuncBuilder) Bra(target BlockID) InstrID { return fb.Ins("bra", fb.Label(target)) }

// BraUni appends "bra.uni target" (a branch known to be non-divergent).
func (fb *FuncBuilder) BraUni(target BlockID) InstrID { return fb.Ins("bra.uni", fb.Label(target)) }

// Ret appends "ret".
func (fb *FuncBuilder) Ret() InstrID { return fb.Ins("ret") }

// Exit appends "exit".
func (fb *FuncBuilder) Exit() InstrID { return fb.Ins("exit") }

// Call appends "call (rets), fn, (args)"; rets and args are the .param
// symbols (or registers) passed, and either may be nil.
func (fb *FuncBuilder) Call(rets []Operand, fn SymID, args []Operand) InstrID {
	ops := make([]Operand, 0, 3)
	if rets != nil {
		defs := make([]Operand, len(rets))
		for k, o := range rets {
			defs[k] = o.AsDef()
		}
		ops = append(ops, fb.list(defs, FlagParen, true))
	}
	ops = append(ops, fb.Sym(fn))
	if args != nil {
		ops = append(ops, fb.list(args, FlagParen, false))
	}
	return fb.Ins("call", ops...)
}

func (fb *FuncBuilder) list(elems []Operand, fl OperandFlag, def bool) Operand {
	l := fb.f.AddList(elems)
	if l > MaxOperandIndex {
		panic("ir: too many lists")
	}
	return Pack(KList, l, fl, def)
}

// Imm is a decimal integer immediate.
func (fb *FuncBuilder) Imm(v int64) Operand { return fb.f.AddImm(Imm{Bits: uint64(v), Kind: ImmInt}) }

// ImmU is an unsigned immediate written with a U suffix.
func (fb *FuncBuilder) ImmU(v uint64) Operand { return fb.f.AddImm(Imm{Bits: v, Kind: ImmUint}) }

// ImmHex is an integer immediate written in hexadecimal.
func (fb *FuncBuilder) ImmHex(v uint64) Operand { return fb.f.AddImm(Imm{Bits: v, Kind: ImmHex}) }

// ImmF32 is a single-precision immediate (0fXXXXXXXX).
func (fb *FuncBuilder) ImmF32(v float32) Operand {
	return fb.f.AddImm(Imm{Bits: uint64(math.Float32bits(v)), Kind: ImmF32})
}

// ImmF64 is a double-precision immediate (0dXXXXXXXXXXXXXXXX).
func (fb *FuncBuilder) ImmF64(v float64) Operand {
	return fb.f.AddImm(Imm{Bits: math.Float64bits(v), Kind: ImmF64})
}

// Addr is the address "[base+off]"; base is a register or symbol operand,
// or NoOperand for an absolute address. An offset of 0 is not written.
func (fb *FuncBuilder) Addr(base Operand, off int64) Operand {
	if base == NoOperand {
		return fb.f.AddAddr(nil, off, true)
	}
	return fb.f.AddAddr([]Operand{base.AsUse()}, off, off != 0)
}

// AddrElems is a multi-element address such as "[tex, {x, y}]".
func (fb *FuncBuilder) AddrElems(elems ...Operand) Operand { return fb.f.AddAddr(elems, 0, false) }

// Vec is the vector operand "{a, b, …}". It is a destination when its
// elements are (RegDef, Sink).
func (fb *FuncBuilder) Vec(elems ...Operand) Operand {
	def := false
	for _, e := range elems {
		def = def || e.IsDef()
	}
	return fb.list(elems, 0, def)
}

// Args is the parenthesised list "(a, b, …)" of a call.
func (fb *FuncBuilder) Args(elems ...Operand) Operand { return fb.list(elems, FlagParen, false) }

// Special is the special register name ("%tid.x", "%clock64").
func (fb *FuncBuilder) Special(name string) Operand {
	m := fb.mb.m
	s := m.Strings.Intern(name)
	k, ok := fb.mb.specials[s]
	if !ok {
		k = uint32(len(m.Specials))
		for j, t := range m.Specials { // a module the builder did not start
			if t == s {
				k = uint32(j)
			}
		}
		if k == uint32(len(m.Specials)) {
			m.Specials = append(m.Specials, s)
		}
		fb.mb.specials[s] = k
	}
	return Pack(KSpecial, k, 0, false)
}

// Sym is a use of symbol s (a variable, parameter or function name).
func (fb *FuncBuilder) Sym(s SymID) Operand { return Pack(KSym, uint32(s), 0, false) }

// Label is a branch-target operand naming block b (labeled on demand).
func (fb *FuncBuilder) Label(b BlockID) Operand {
	fb.BlockName(b)
	return Pack(KLabel, uint32(b), 0, false)
}

// Sink is the destination "_".
func (fb *FuncBuilder) Sink() Operand { return Pack(KSink, 0, 0, true) }

// Not is a negated predicate source "!p".
func Not(p RegID) Operand { return Pack(KReg, uint32(p), FlagNot, false) }

// Neg is an arithmetically negated source "-r".
func Neg(r RegID) Operand { return Pack(KReg, uint32(r), FlagNeg, false) }

// PipeDef is setp's second destination "%p|%q": the q part.
func PipeDef(q RegID) Operand { return Pack(KReg, uint32(q), FlagPipe, true) }
