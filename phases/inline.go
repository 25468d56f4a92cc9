package phases

import (
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// OriInline: inlining of small device functions, and removal of the
// non-visible functions nothing calls any more. ptxas inlines before its
// mid-end; PTX from -O0 compilers still has the calls, and their .param
// marshalling (st.param of the arguments, ld.param of the result) hides
// values from every later phase and makes frame pointers passed as
// arguments escape.
//
// Unlike the other phases it works on a whole module (it reads the
// callee while editing the caller), so it runs before the per-function
// pipeline, from InlineModule; its slot in the table is what names it
// (--disable-phase OriInline, --named-phases) and gives its -O level.
//
// Which calls: a direct "call (r), g, (a, …)" whose callee g is a .func
// of the module with a body that makes no call itself (leaves first:
// functions that become leaves are inlined into their callers in later
// rounds, up to inlineRounds), is not the caller, has no .reg
// parameters, reads its parameters only with "ld.param [p+k]" and writes
// its return parameter only with "st.param [r+k]", and either has at most
// InlineMaxInstrs instructions or is called once in the module. Each
// argument and the return value must be a .param variable of the caller
// that this call alone names, written or read only by st.param/ld.param
// at constant offsets. Recursion, indirect calls (through a register or a
// prototype), and functions without a body are never inlined.
//
// How: the caller's block is split after the call; the callee's blocks
// are copied in between with fresh registers, fresh copies of its .local
// variables, and "ret" turned into a branch to the split-off block. The
// caller's argument and return variables become .local variables (their
// st.param/ld.param become st.local/ld.local), and the callee's ld.param
// of parameter k reads the caller's argument variable k, its st.param of
// the return parameter writes the caller's return variable: the same
// bytes move the same way, through local memory that
// ConvertMemoryToRegister then promotes. Exact: a call runs the callee's
// body once, on the caller's lanes, with its arguments in fresh storage;
// the inlined body does the same.
//
// Dead functions: after inlining, a .func without .visible or .extern
// linkage that no instruction of the module names is removed from the
// output.

// inlineRounds bounds the bottom-up rounds (nesting depth inlined).
const inlineRounds = 4

// InlineStats counts what InlineModule did.
type InlineStats struct {
	Inlined     int // call sites replaced by the callee's body
	DeadRemoved int // functions removed
}

// oriInline is the slot's per-function pass: the work is module-wide and
// done by InlineModule before the per-function phases.
func oriInline(p *Pass) bool { return false }

// InlineEnabled reports whether c runs OriInline.
func InlineEnabled(c *Config) bool {
	return inlineSlot >= 0 && c.Enabled(inlineSlot)
}

// inlineSlot is OriInline's index in the pipeline (-1: none). Found once:
// Lookup lower-cases the name, an allocation on every run of a small
// kernel.
var inlineSlot = func() int {
	for i := range pipeline {
		if pipeline[i].Name == "OriInline" {
			return i
		}
	}
	return -1
}()

// InlineMayChange reports whether InlineModule could change m: some
// function with a body makes a call, or is a .func (which the dead-function
// removal may drop). A module of kernels without calls, the common case,
// is left as it is, and a caller may skip what it does only around the
// inlining (the report's measure before it).
func InlineMayChange(m *ir.Module) bool {
	for _, f := range m.Funcs {
		if !f.HasBody {
			continue
		}
		if f.Kind != ir.KindEntry {
			return true
		}
		if _, calls := funcSize(f); calls {
			return true
		}
	}
	return false
}

// InlineModule runs OriInline on m when c enables it. Call it before
// optimizing m's functions, from one goroutine.
func InlineModule(c *Config, m *ir.Module) InlineStats {
	var st InlineStats
	if !InlineEnabled(c) || !InlineMayChange(m) {
		return st
	}
	limit := c.Knobs.Int(InlineMaxInstrs)
	for range inlineRounds {
		n := inlineRound(m, limit)
		st.Inlined += n
		if n == 0 {
			break
		}
	}
	st.DeadRemoved = removeDeadFuncs(m)
	return st
}

// funcSize counts the instructions of f's body; calls reports whether one
// of them is a call.
func funcSize(f *ir.Func) (n int, calls bool) {
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			n++
			if f.InstrProps(i)&ir.PCall != 0 {
				calls = true
			}
		}
	}
	return n, calls
}

// callee returns the function a call instruction names directly, and the
// positions of its operands: return list (-1 when none), callee, arguments
// (-1 when none).
func callee(f *ir.Func, i ir.InstrID) (g ir.FuncID, ret, fn, args int) {
	ops := f.Ops(i)
	ret, fn, args = -1, -1, -1
	for k, o := range ops {
		switch {
		case o.Kind() == ir.KSym && fn < 0:
			s := &f.Mod.Syms[o.Index()]
			if s.Kind != ir.SymFunc {
				return ir.NoFunc, -1, -1, -1
			}
			fn = k
			g = s.Func
		case o.Kind() == ir.KList && fn < 0:
			ret = k
		case o.Kind() == ir.KList && args < 0:
			args = k
		default:
			return ir.NoFunc, -1, -1, -1 // a prototype, or something not understood
		}
	}
	if fn < 0 {
		return ir.NoFunc, -1, -1, -1
	}
	return g, ret, fn, args
}

// inlineRound inlines every call whose callee qualifies now; it returns
// how many.
func inlineRound(m *ir.Module, limit int64) int {
	sizes := make([]int, len(m.Funcs))
	leaf := make([]bool, len(m.Funcs))
	sites := make([]int, len(m.Funcs))
	for k, f := range m.Funcs {
		if !f.HasBody {
			continue
		}
		var calls bool
		sizes[k], calls = funcSize(f)
		leaf[k] = !calls
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if f.InstrProps(i)&ir.PCall != 0 {
					if g, _, _, _ := callee(f, i); g != ir.NoFunc && int(g) < len(sites) {
						sites[g]++
					}
				}
			}
		}
	}
	n := 0
	for _, f := range m.Funcs {
		if !f.HasBody {
			continue
		}
		var calls []ir.InstrID
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if f.InstrProps(i)&ir.PCall != 0 {
					calls = append(calls, i)
				}
			}
		}
		for _, ci := range calls {
			g, _, _, _ := callee(f, ci)
			if g == ir.NoFunc || int(g) >= len(m.Funcs) || g == f.ID || !leaf[g] {
				continue
			}
			if int64(sizes[g]) > limit && sites[g] != 1 {
				continue
			}
			if inlineCall(f, ci, m.Funcs[g]) {
				n++
			}
		}
	}
	return n
}

// paramAccessesOnly reports whether every instruction of f naming one of
// syms does so as the single element of the address of a non-vector-free
// ld.param/st.param (load when load, else store), or is the call skip.
func paramAccessesOnly(f *ir.Func, syms []ir.SymID, skip ir.InstrID, load bool, dead []ir.InstrID) bool {
	if len(syms) == 0 {
		return true
	}
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if i == skip || slices.Contains(dead, i) {
				continue
			}
			if !namesOnlyAsParamAccess(f, i, syms, load) {
				return false
			}
		}
	}
	return true
}

func namesOnlyAsParamAccess(f *ir.Func, i ir.InstrID, syms []ir.SymID, load bool) bool {
	names := false
	var visit func(o ir.Operand)
	visit = func(o ir.Operand) {
		switch o.Kind() {
		case ir.KSym:
			if slices.Contains(syms, ir.SymID(o.Index())) {
				names = true
			}
		case ir.KList:
			for _, e := range f.ListElems(o.Index()) {
				visit(e)
			}
		case ir.KAddr:
			for _, e := range f.ListElems(f.Addrs[o.Index()].Elems) {
				visit(e)
			}
		}
	}
	for _, o := range f.Ops(i) {
		visit(o)
	}
	if !names {
		return true
	}
	want := ir.OpSt
	if load {
		want = ir.OpLd
	}
	if f.Op[i] != want || f.Space[i] != ir.SpaceParam || f.Mods[i].Flags() != 0 || f.Mods[i].Order() != ir.OrderNone {
		return false
	}
	ops := f.Ops(i)
	ai := 0
	if load {
		ai = 1
	}
	if len(ops) != 2 || ops[ai].Kind() != ir.KAddr {
		return false
	}
	el := f.ListElems(f.Addrs[ops[ai].Index()].Elems)
	if len(el) != 1 || el[0].Kind() != ir.KSym {
		return false
	}
	// the other operand must not name them
	names = false
	visit(ops[1-ai])
	return !names
}

// listSyms returns the symbols of list operand k of call i, nil and false
// when an element is not a .param variable of f.
func listSyms(f *ir.Func, i ir.InstrID, k int) ([]ir.SymID, bool) {
	if k < 0 {
		return nil, true
	}
	var out []ir.SymID
	for _, e := range f.ListElems(f.Ops(i)[k].Index()) {
		if e.Kind() != ir.KSym {
			return nil, false
		}
		s := &f.Mod.Syms[e.Index()]
		if s.Kind != ir.SymVar || s.Space != ir.SpaceParam || s.Owner != f.ID || !slices.Contains(f.Locals, ir.SymID(e.Index())) {
			return nil, false
		}
		out = append(out, ir.SymID(e.Index()))
	}
	return out, true
}

// inlineCall replaces call ci of f by the body of g, or changes nothing
// and returns false.
func inlineCall(f *ir.Func, ci ir.InstrID, g *ir.Func) bool {
	m := f.Mod
	_, ret, _, args := callee(f, ci)
	retSyms, ok1 := listSyms(f, ci, ret)
	argSyms, ok2 := listSyms(f, ci, args)
	if !ok1 || !ok2 || len(retSyms) != len(g.RetParams) || len(argSyms) != len(g.Params) {
		return false
	}
	for _, id := range slices.Concat(g.Params, g.RetParams) {
		if m.Syms[id].Space != ir.SpaceParam {
			return false // .reg parameters
		}
	}
	// The caller's variables: this call and their own loads/stores only.
	if !paramAccessesOnly(f, argSyms, ci, false, nil) || !paramAccessesOnly(f, retSyms, ci, true, nil) {
		return false
	}
	// The callee: parameters read, return values written, directly; no
	// other symbol of its own but .local variables. A parameter's address
	// moved into a register nothing reads (clang -O0 does that for
	// structs passed by value) is dropped.
	dead := deadParamAddrs(g)
	if !paramAccessesOnly(g, g.Params, ir.NoInstr, true, dead) || !paramAccessesOnly(g, g.RetParams, ir.NoInstr, false, dead) {
		return false
	}
	for _, s := range g.Locals {
		if sym := &m.Syms[s]; sym.Kind != ir.SymVar || sym.Space != ir.SpaceLocal {
			return false
		}
	}
	for _, b := range g.Layout {
		for i := g.BlockFirst[b]; i != ir.NoInstr; i = g.Next[i] {
			if g.Mods[i].Has(ir.ModOther) && g.Op[i] != ir.OpRet && g.Space[i] == ir.SpaceParam {
				return false // a form that cannot be rewritten to .local
			}
			if !slices.Contains(dead, i) && !ownSymsKnown(g, i) {
				return false
			}
		}
	}

	// Symbols: the callee's parameters map to the caller's variables, its
	// .local variables to fresh copies.
	symMap := func(s ir.SymID) (ir.SymID, bool) {
		if k := slices.Index(g.Params, s); k >= 0 {
			return argSyms[k], true
		}
		if k := slices.Index(g.RetParams, s); k >= 0 {
			return retSyms[k], true
		}
		return s, false
	}
	localMap := make([]ir.SymID, len(g.Locals))
	for k, s := range g.Locals {
		c := m.Syms[s]
		c.Owner = f.ID
		m.Syms = append(m.Syms, c)
		localMap[k] = ir.SymID(len(m.Syms) - 1)
		f.Locals = append(f.Locals, localMap[k])
	}
	mapSym := func(s ir.SymID) ir.SymID {
		if t, ok := symMap(s); ok {
			return t
		}
		if k := slices.Index(g.Locals, s); k >= 0 {
			return localMap[k]
		}
		return s
	}
	// The caller's argument and return variables become .local.
	for _, s := range slices.Concat(argSyms, retSyms) {
		m.Syms[s].Space = ir.SpaceLocal
	}
	toLocal := func(h *ir.Func, i ir.InstrID) {
		d := h.Form(i)
		d.Space = ir.SpaceLocal
		h.SetForm(i, d)
	}
	moved := slices.Concat(argSyms, retSyms)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if i != ci && (f.Op[i] == ir.OpLd || f.Op[i] == ir.OpSt) && f.Space[i] == ir.SpaceParam && paramSymOf(f, i) != ir.NoSym &&
				slices.Contains(moved, paramSymOf(f, i)) {
				toLocal(f, i)
			}
		}
	}

	// Registers.
	regBase := ir.RegID(f.NumRegs())
	for r := range g.NumRegs() {
		nr := f.AddReg(g.RegName[r], g.RegType[r])
		f.RegVec[nr] = g.RegVec[r]
	}
	// Blocks: split the caller's block after the call.
	home := f.Block[ci]
	cont := f.AddBlock(ir.NoSym)
	for i := f.Next[ci]; i != ir.NoInstr; {
		n := f.Next[i]
		f.Unlink(i)
		f.Append(cont, i)
		i = n
	}
	blockMap := make([]ir.BlockID, g.NumBlocks())
	for k := range blockMap {
		blockMap[k] = ir.NoBlock
	}
	var newBlocks []ir.BlockID
	for _, b := range g.Layout {
		blockMap[b] = f.AddBlock(ir.NoSym)
		newBlocks = append(newBlocks, blockMap[b])
	}
	var remap func(o ir.Operand) ir.Operand
	remap = func(o ir.Operand) ir.Operand {
		if o == ir.NoOperand {
			return o
		}
		switch o.Kind() {
		case ir.KReg:
			return o.WithIndex(uint32(regBase) + o.Index())
		case ir.KImm:
			f.Imms = append(f.Imms, g.Imms[o.Index()])
			return o.WithIndex(uint32(len(f.Imms) - 1))
		case ir.KSym:
			return o.WithIndex(uint32(mapSym(ir.SymID(o.Index()))))
		case ir.KLabel:
			return o.WithIndex(uint32(blockMap[o.Index()]))
		case ir.KList:
			el := slices.Clone(g.ListElems(o.Index()))
			for k := range el {
				el[k] = remap(el[k])
			}
			return o.WithIndex(f.AddList(el))
		case ir.KAddr:
			a := g.Addrs[o.Index()]
			el := slices.Clone(g.ListElems(a.Elems))
			for k := range el {
				el[k] = remap(el[k])
			}
			na := f.AddAddr(el, a.Off, a.HasOff)
			return o.WithIndex(na.Index())
		}
		return o
	}
	var ops []ir.Operand
	for _, b := range g.Layout {
		nb := blockMap[b]
		for i := g.BlockFirst[b]; i != ir.NoInstr; i = g.Next[i] {
			if slices.Contains(dead, i) {
				continue
			}
			ops = ops[:0]
			for _, o := range g.Ops(i) {
				ops = append(ops, remap(o))
			}
			var ni ir.InstrID
			if g.Op[i] == ir.OpRet {
				ni = f.NewInstr(ir.Form{Op: ir.OpBra}, []ir.Operand{ir.Pack(ir.KLabel, uint32(cont), 0, false)})
			} else {
				ni = f.NewInstrDecoded(g.Form(i), g.Mnemonic[i], ops)
			}
			f.Guard[ni] = remap(g.Guard[i])
			f.SetLoc(ni, g.InstrLoc(i))
			f.Append(nb, ni)
			if (g.Op[i] == ir.OpLd || g.Op[i] == ir.OpSt) && g.Space[i] == ir.SpaceParam {
				toLocal(f, ni)
			}
		}
	}
	f.Remove(ci)
	// Layout: home, the callee's blocks, the continuation, the rest.
	lay := f.Layout[:len(f.Layout)-len(newBlocks)-1]
	at := slices.Index(lay, home) + 1
	ins := append(slices.Clone(newBlocks), cont)
	f.Layout = slices.Insert(slices.Clone(lay), at, ins...)
	f.InvalidateCFG()
	return true
}

// deadParamAddrs lists g's unguarded "mov %r, p" of a parameter's
// address p whose register no instruction of g reads.
func deadParamAddrs(g *ir.Func) []ir.InstrID {
	var movs []ir.InstrID
	for _, b := range g.Layout {
		for i := g.BlockFirst[b]; i != ir.NoInstr; i = g.Next[i] {
			ops := g.Ops(i)
			if g.Op[i] == ir.OpMov && len(ops) == 2 && g.Guard[i] == ir.NoOperand && ops[0].Kind() == ir.KReg && ops[0].IsDef() &&
				ops[1].Kind() == ir.KSym && (slices.Contains(g.Params, ir.SymID(ops[1].Index())) || slices.Contains(g.RetParams, ir.SymID(ops[1].Index()))) {
				movs = append(movs, i)
			}
		}
	}
	if len(movs) == 0 {
		return nil
	}
	used := make([]bool, g.NumRegs())
	var visit func(o ir.Operand)
	visit = func(o ir.Operand) {
		switch o.Kind() {
		case ir.KReg:
			if o != ir.NoOperand && !o.IsDef() {
				used[o.Reg()] = true
			}
		case ir.KList:
			for _, e := range g.ListElems(o.Index()) {
				visit(e)
			}
		case ir.KAddr:
			for _, e := range g.ListElems(g.Addrs[o.Index()].Elems) {
				visit(e)
			}
		}
	}
	for _, b := range g.Layout {
		for i := g.BlockFirst[b]; i != ir.NoInstr; i = g.Next[i] {
			for _, o := range g.Ops(i) {
				visit(o)
			}
			visit(g.Guard[i])
		}
	}
	return slices.DeleteFunc(movs, func(i ir.InstrID) bool { return used[g.Ops(i)[0].Reg()] })
}

// paramSymOf returns the symbol a ld/st addresses directly ("[s+k]"),
// NoSym for any other address.
func paramSymOf(f *ir.Func, i ir.InstrID) ir.SymID {
	for _, o := range f.Ops(i) {
		if o.Kind() == ir.KAddr {
			el := f.ListElems(f.Addrs[o.Index()].Elems)
			if len(el) == 1 && el[0].Kind() == ir.KSym {
				return ir.SymID(el[0].Index())
			}
			return ir.NoSym
		}
	}
	return ir.NoSym
}

// ownSymsKnown reports whether every symbol owned by g that instruction i
// names is a parameter, a return parameter or a .local variable of g.
func ownSymsKnown(g *ir.Func, i ir.InstrID) bool {
	ok := true
	var visit func(o ir.Operand)
	visit = func(o ir.Operand) {
		switch o.Kind() {
		case ir.KSym:
			s := ir.SymID(o.Index())
			if g.Mod.Syms[s].Owner == g.ID && !slices.Contains(g.Params, s) && !slices.Contains(g.RetParams, s) && !slices.Contains(g.Locals, s) {
				ok = false
			}
		case ir.KList:
			for _, e := range g.ListElems(o.Index()) {
				visit(e)
			}
		case ir.KAddr:
			for _, e := range g.ListElems(g.Addrs[o.Index()].Elems) {
				visit(e)
			}
		}
	}
	for _, o := range g.Ops(i) {
		visit(o)
	}
	visit(g.Guard[i])
	return ok
}

// removeDeadFuncs drops from the output every .func with a body, without
// .visible or .extern linkage, that no instruction of the module names.
func removeDeadFuncs(m *ir.Module) int {
	named := make([]bool, len(m.Funcs))
	var visit func(f *ir.Func, o ir.Operand)
	visit = func(f *ir.Func, o ir.Operand) {
		switch o.Kind() {
		case ir.KSym:
			if s := &m.Syms[o.Index()]; s.Kind == ir.SymFunc && int(s.Func) < len(named) {
				named[s.Func] = true
			}
		case ir.KList:
			for _, e := range f.ListElems(o.Index()) {
				visit(f, e)
			}
		case ir.KAddr:
			for _, e := range f.ListElems(f.Addrs[o.Index()].Elems) {
				visit(f, e)
			}
		}
	}
	for _, f := range m.Funcs {
		if !f.HasBody {
			continue
		}
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				for _, o := range f.Ops(i) {
					visit(f, o)
				}
			}
		}
	}
	// Initializers of module variables may hold function addresses as
	// text: a function whose name appears in one is kept.
	dead := make([]bool, len(m.Syms)) // symbols of the functions removed
	n := 0
	for _, it := range m.Items {
		if it.Kind != ir.ItemFunc {
			continue
		}
		f := m.Funcs[it.Func]
		if !f.HasBody || f.Kind != ir.KindFunc || named[f.ID] || f.Linkage&(ir.LinkVisible|ir.LinkExtern|ir.LinkWeak|ir.LinkCommon) != 0 || nameInInit(m, f) {
			continue
		}
		f.HasBody = false
		dead[f.Sym] = true
		n++
	}
	// The definitions go, and so do their forward declarations (a
	// prototype left without its definition is an unresolved function
	// to ptxas, even with no call to it).
	m.Items = slices.DeleteFunc(m.Items, func(it ir.Item) bool {
		return it.Kind == ir.ItemFunc && !m.Funcs[it.Func].HasBody && m.Funcs[it.Func].Kind == ir.KindFunc && dead[m.Funcs[it.Func].Sym]
	})
	return n
}

// nameInInit reports whether f's name appears in a module variable's
// initializer text.
func nameInInit(m *ir.Module, f *ir.Func) bool {
	name := f.Name
	for k := range m.Syms {
		s := &m.Syms[k]
		if s.Init != 0 && s.Kind == ir.SymVar && containsWord(m.Strings.Get(s.Init), name) {
			return true
		}
	}
	return false
}

func containsWord(text, w string) bool {
	for k := 0; k+len(w) <= len(text); k++ {
		if text[k:k+len(w)] == w {
			return true
		}
	}
	return false
}
