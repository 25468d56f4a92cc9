package sim

import (
	"fmt"

	"github.com/ptxopt/ptxopt/ir"
)

// Calls.
//
// A call names its callee directly (a .func symbol, or a name the module
// never declares, such as the OptiX intrinsics) or through a register
// ("call (r), %rd, (a), proto"). Any number of arguments and return
// values is allowed. Three kinds of callee:
//
//   - a function with a body: the warp enters it with a new frame (frame,
//     call, popFrame); arguments are copied into its parameter space,
//     return values out of it when it returns.
//   - a function without a body: a model (malloc, free, vprintf,
//     __assertfail) or an uninterpreted function (extern.go); it runs in
//     the caller's frame, as one instruction.
//   - an indirect call: every function has a synthetic address (funcAddr)
//     that "mov.u64 %rd, f" and initializers ("{f, g}") give; the call
//     dispatches on the register's value, lane by lane, among the
//     functions whose address the module takes.

// callInfo is the decoded operand lists of a call.
type callInfo struct {
	args []callArg
	rets []callRet
	// indirect calls: fn holds the target address, targets maps the
	// address of each function the call may reach to its program
	indirect bool
	fn       opnd
	targets  map[uint64]*Program
	// ext is set for a callee without a body
	ext *extFunc
}

// callArg is one argument.
type callArg struct {
	v opnd
	// param: v.v is the address of a caller .param variable whose bytes
	// are the argument
	param bool
	size  int // extern calls: the argument's bytes
}

// callRet is one return operand.
type callRet struct {
	r     uint32 // the register, or (param) the offset of a caller .param variable
	param bool
	size  int   // extern calls: the result's bytes
	kind  uint8 // extern calls: how the result is drawn (retInt, ...)
}

// maxCallDepth bounds the frames of a warp (the kernel's included).
const maxCallDepth = 64

// frame is a suspended caller during a .func call.
type frame struct {
	p      *Program
	regs   []uint64
	stack  []entry
	lv     *space
	lstr   uint64
	pa     []byte
	pstr   int
	hit    []bool
	mask   uint32 // lanes that entered the callee (exits removed)
	in     *inst  // the call instruction
	params [32][]byte
}

// call enters the callee of in with the lanes of mask.
func (w *warp) call(in *inst, mask uint32) {
	if len(w.frames) >= maxCallDepth-1 {
		w.trap(in, -1, 0, "call depth limit exceeded")
		return
	}
	cl := in.cl
	q := in.callee
	if cl.indirect {
		if q, mask = w.dispatch(in, mask); q == nil {
			return
		}
	}
	fr := frame{p: w.p, regs: w.regs, stack: w.stack, lv: w.lv, lstr: w.lstr, pa: w.pa, pstr: w.pstr, mask: mask, in: in, hit: w.hit}
	for x := mask; x != 0; x &= x - 1 {
		l := trailing(x)
		buf := make([]byte, q.paramSize)
		// arguments: registers/immediates, or caller .param variables
		for k, pi := range q.argOff {
			if k >= len(cl.args) {
				break
			}
			sz := q.argSize[k]
			a := &cl.args[k]
			if a.param { // caller .param variable: copy bytes
				if w.mem(in, ir.SpaceParam, a.v.v, 1, l, false) == nil {
					return
				}
				off := a.v.v - paramLocalBase
				area := w.pa[l*w.pstr : (l+1)*w.pstr]
				if off+uint64(sz) > uint64(len(area)) {
					w.trap(in, l, a.v.v, "call argument out of bounds")
					return
				}
				copy(buf[pi:pi+sz], area[off:off+uint64(sz)])
			} else {
				putLEn(buf[pi:pi+sz], w.val(&a.v, l))
			}
		}
		fr.params[l] = buf
	}
	w.frames = append(w.frames, fr)
	w.p = q
	w.hit = w.m.cov.of(q)
	w.regs = make([]uint64, q.nregs*32)
	for k, r := range q.argReg {
		if r < 0 {
			continue
		}
		// a .reg parameter starts with the argument's value
		for x := mask; x != 0; x &= x - 1 {
			l := trailing(x)
			if b := fr.params[l]; b != nil {
				w.regs[int(r)<<5|l] = getLEn(b[q.argOff[k] : q.argOff[k]+min(q.argSize[k], 8)])
			}
		}
	}
	w.stack = []entry{{0, -1, mask}}
	w.lstr = uint64(q.localVars)
	w.lv = newSpace(32*w.lstr, &w.m.used)
	w.pstr = q.paramArea
	w.pa = make([]byte, 32*q.paramArea)
}

// dispatch resolves an indirect call. A lane whose address is not that
// of a function of the module (one with a body whose address the module
// takes) calls a function outside the module, say one whose address an
// uninterpreted function returned (OptiX's callable programs): it runs
// as an uninterpreted function named by the address, at once. Of the
// other lanes, those that hold the same address as the lowest one call
// that function now; the rest run the call instruction again once these
// return (an entry on the reconvergence stack that ends right after the
// call), so lanes calling different functions run one function at a
// time, lowest lane's first. It returns nil when no lane enters a
// function of the module now, or after a trap.
func (w *warp) dispatch(in *inst, mask uint32) (*Program, uint32) {
	cl := in.cl
	for x := mask; x != 0; x &= x - 1 {
		l := trailing(x)
		a := w.val(&cl.fn, l)
		if cl.targets[a] != nil {
			continue
		}
		e := &extFunc{name: fmt.Sprintf("function at %#x", a), h: mix(a, 0x66756e63, 0)}
		if !w.pure(in, e, l) {
			return nil, 0
		}
		mask &^= 1 << l
	}
	if mask == 0 {
		return nil, 0
	}
	first := trailing(mask)
	a := w.val(&cl.fn, first)
	q := cl.targets[a]
	var same uint32
	for x := mask; x != 0; x &= x - 1 {
		l := trailing(x)
		if w.val(&cl.fn, l) == a {
			same |= 1 << l
		}
	}
	if rest := mask &^ same; rest != 0 {
		pc := w.stack[len(w.stack)-1].pc - 1 // run() advanced past the call
		w.stack = append(w.stack, entry{pc, pc + 1, rest})
	}
	return q, same
}

// retFrame handles ret inside a callee: the lanes leave the callee.
func (w *warp) retFrame(m uint32) {
	for i := range w.stack {
		w.stack[i].mask &^= m
	}
}

// popFrame returns from the callee to the caller, copying return values.
func (w *warp) popFrame() {
	fr := &w.frames[len(w.frames)-1]
	q := w.p
	rets := fr.in.cl.rets
	for x := fr.mask & w.live; x != 0; x &= x - 1 {
		l := trailing(x)
		buf := fr.params[l]
		for k, r := range q.retReg {
			if r >= 0 { // a .reg return value: its register's final value
				putLEn(buf[q.retOff[k]:q.retOff[k]+q.retSize[k]], w.regs[int(r)<<5|l])
			}
		}
		for k, ro := range q.retOff {
			if k >= len(rets) {
				break
			}
			sz := q.retSize[k]
			if rets[k].param { // return into a caller .param variable
				off := uint64(rets[k].r)
				area := fr.pa[l*fr.pstr : (l+1)*fr.pstr]
				if off+uint64(sz) <= uint64(len(area)) {
					copy(area[off:off+uint64(sz)], buf[ro:ro+sz])
				}
			} else {
				fr.regs[int(rets[k].r)<<5|l] = getLEn(buf[ro : ro+min(sz, 8)])
			}
		}
	}
	w.lv.reset() // give the callee's pages back
	w.p, w.regs, w.stack, w.lv, w.lstr, w.pa, w.pstr, w.hit = fr.p, fr.regs, fr.stack, fr.lv, fr.lstr, fr.pa, fr.pstr, fr.hit
	w.frames = w.frames[:len(w.frames)-1]
}

// call [.uni] (ret...), func, (args...);
// call [.uni] (ret...), %fptr, (args...), proto;
func (d *decoder) call(in *inst, dst, src []ir.Operand) error {
	f := d.f
	mod := f.Mod
	fnOp, fptr := ir.NoOperand, ir.NoOperand
	var args, rets []ir.Operand
	all := append(append([]ir.Operand(nil), dst...), src...)
	seenFn := false
	for _, o := range all {
		isSym := o.Kind() == ir.KSym
		var sk ir.SymKind
		if isSym {
			sk = mod.Syms[o.Index()].Kind
		}
		switch {
		case !seenFn && isSym && (sk == ir.SymFunc || sk == ir.SymImplicit):
			fnOp, seenFn = o, true
		case !seenFn && (o.Kind() == ir.KReg || o.Kind() == ir.KImm) && !o.IsDef():
			fptr, seenFn = o, true
		case isSym && (sk == ir.SymProto || sk == ir.SymBranchTargets) && seenFn:
			// the prototype of an indirect call: the targets' own
			// signatures lay out the arguments
		case o.Kind() == ir.KList:
			if seenFn {
				args = append(args, f.ListElems(o.Index())...)
			} else {
				rets = append(rets, f.ListElems(o.Index())...)
			}
		default:
			if seenFn {
				args = append(args, o)
			} else {
				rets = append(rets, o)
			}
		}
	}
	cl := &callInfo{}
	in.cl = cl
	if fptr != ir.NoOperand {
		return d.indirectCall(in, fptr, args, rets)
	}
	if fnOp == ir.NoOperand {
		return unsup(in, "call without a target")
	}
	s := &mod.Syms[fnOp.Index()]
	var callee *ir.Func
	if s.Kind == ir.SymFunc {
		if int(s.Func) >= len(mod.Funcs) {
			return unsup(in, "call target")
		}
		callee = bodyOf(mod, mod.Funcs[s.Func])
	}
	if callee == nil || !callee.HasBody {
		return d.externCall(in, callee, f.Str(s.Name), args, rets)
	}
	q, err := d.ml.compile(callee)
	if err != nil {
		return err
	}
	in.callee = q
	if err := d.callArgs(in, callee.Params, args); err != nil {
		return err
	}
	if err := d.callRets(in, rets); err != nil {
		return err
	}
	in.ctl = ctlCall
	return nil
}

// bodyOf returns the definition of g's name when g is a declaration and
// the module defines the function too.
func bodyOf(mod *ir.Module, g *ir.Func) *ir.Func {
	if g.HasBody {
		return g
	}
	for _, h := range mod.Funcs {
		if h.Name == g.Name && h.HasBody {
			return h
		}
	}
	return g
}

// callArgs decodes the arguments of a call of a function with a body
// (params: its parameters, for the type of an immediate argument).
func (d *decoder) callArgs(in *inst, params []ir.SymID, args []ir.Operand) error {
	cl := in.cl
	cl.args = make([]callArg, len(args))
	for k, a := range args {
		t := ir.TU64
		if k < len(params) {
			t = d.f.Mod.Syms[params[k]].Type
		}
		v, err := d.src(a, t)
		if err != nil {
			return err
		}
		cl.args[k] = callArg{v: v, param: d.isParamVar(a, v)}
	}
	return nil
}

// isParamVar: the operand names a .param variable of the caller (whose
// bytes are the argument or receive the result).
func (d *decoder) isParamVar(o ir.Operand, v opnd) bool {
	return o.Kind() == ir.KSym && d.f.Mod.Syms[o.Index()].Space == ir.SpaceParam && v.k == oImm && v.v >= paramLocalBase
}

// callRets decodes the return operands: registers or caller .param
// variables.
func (d *decoder) callRets(in *inst, rets []ir.Operand) error {
	cl := in.cl
	cl.rets = make([]callRet, len(rets))
	for k, r := range rets {
		switch r.Kind() {
		case ir.KSym:
			a, ok := d.ml.symAddr(ir.SymID(r.Index()))
			if !ok || a < paramLocalBase || d.f.Mod.Syms[r.Index()].Space != ir.SpaceParam {
				return unsup(in, "return parameter")
			}
			cl.rets[k] = callRet{r: uint32(a - paramLocalBase), param: true}
		case ir.KReg:
			cl.rets[k] = callRet{r: uint32(r.Reg())}
		case ir.KSink:
			cl.rets[k] = callRet{r: d.p.sink}
		default:
			return unsup(in, "return operand")
		}
	}
	return nil
}

// indirectCall decodes a call through a register: its targets are the
// functions with a body whose address the module takes.
func (d *decoder) indirectCall(in *inst, fptr ir.Operand, args, rets []ir.Operand) error {
	cl := in.cl
	v, err := d.src(fptr, ir.TU64)
	if err != nil {
		return err
	}
	cl.indirect, cl.fn = true, v
	cl.targets = map[uint64]*Program{}
	var params []ir.SymID
	for _, g := range d.ml.addressTaken() {
		q, err := d.ml.compile(g)
		if err != nil {
			return err
		}
		cl.targets[funcAddr(g.Name)] = q
		if params == nil {
			params = g.Params
		}
	}
	if err := d.callArgs(in, params, args); err != nil {
		return err
	}
	if err := d.callRets(in, rets); err != nil {
		return err
	}
	// the shapes of a call of a function outside the module
	d.externShapes(in, nil, nil, args, rets)
	in.ctl = ctlCall
	return nil
}

// Synthetic code addresses: every function's address is a hash of its
// name in a window no data lives in (so loads from it trap), the same in
// the original and the optimized module whatever other functions they
// hold.
const (
	funcWindow   uint64 = 0x7c00_0000_0000
	funcAddrMask uint64 = 1<<40 - 16
)

func funcAddr(name string) uint64 { return funcWindow + fnv64(name)&funcAddrMask }

// fnv64 is the FNV-1a hash of s.
func fnv64(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

// addressTaken returns the functions with a body whose address the
// module takes (cached; see addressTakenFuncs).
func (ml *modLayout) addressTaken() []*ir.Func {
	if ml.taken == nil {
		t := addressTakenFuncs(ml.mod)
		ml.taken = &t
	}
	return *ml.taken
}

// addressTakenFuncs returns the functions with a body whose address mod
// takes: a function symbol as an operand of an instruction other than
// the callee of a call, or in a variable's initializer.
func addressTakenFuncs(mod *ir.Module) []*ir.Func {
	names := map[string]bool{}
	var order []string
	note := func(name string) {
		if !names[name] {
			names[name] = true
			order = append(order, name)
		}
	}
	isFunc := func(o ir.Operand) bool { return o.Kind() == ir.KSym && mod.Syms[o.Index()].Kind == ir.SymFunc }
	for _, f := range mod.Funcs {
		if !f.HasBody {
			continue
		}
		for i := range f.Op {
			id := ir.InstrID(i)
			if f.IsDead(id) || f.Block[id] == ir.NoBlock {
				continue
			}
			isCall := f.Op[id] == ir.OpCall
			callee := isCall
			for _, o := range f.Ops(id) {
				if o.Kind() == ir.KList && isCall {
					for _, e := range f.ListElems(o.Index()) {
						if isFunc(e) {
							note(f.Str(mod.Syms[e.Index()].Name))
						}
					}
					continue
				}
				if !isFunc(o) {
					continue
				}
				if callee {
					callee = false
					continue
				}
				note(f.Str(mod.Syms[o.Index()].Name))
			}
		}
	}
	funcNames := map[string]bool{}
	for i := range mod.Syms {
		if s := &mod.Syms[i]; s.Kind == ir.SymFunc {
			funcNames[mod.Strings.Get(s.Name)] = true
		}
	}
	for i := range mod.Syms {
		s := &mod.Syms[i]
		if s.Kind != ir.SymVar || s.Init == 0 {
			continue
		}
		for _, tok := range initTokens(mod.Strings.Get(s.Init)) {
			if funcNames[tok] {
				note(tok)
			}
		}
	}
	var out []*ir.Func
	for _, name := range order {
		for _, g := range mod.Funcs {
			if g.Name == name && g.HasBody && g.Kind == ir.KindFunc {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// reachableFuncs returns kernel f and the functions with a body it may
// call, directly or not, in the order the decoder compiles them (depth
// first, in code order; the targets of an indirect call where it is).
func reachableFuncs(f *ir.Func) []*ir.Func {
	mod := f.Mod
	seen := map[*ir.Func]bool{}
	var out []*ir.Func
	var taken []*ir.Func
	var visit func(g *ir.Func)
	visit = func(g *ir.Func) {
		if seen[g] {
			return
		}
		seen[g] = true
		out = append(out, g)
		for _, b := range g.Layout {
			for i := g.BlockFirst[b]; i != ir.NoInstr; i = g.Next[i] {
				if g.IsDead(i) || g.Op[i] != ir.OpCall {
					continue
				}
				direct := false
				for _, o := range g.Ops(i) {
					if o.Kind() == ir.KSym && mod.Syms[o.Index()].Kind == ir.SymFunc {
						if s := &mod.Syms[o.Index()]; int(s.Func) < len(mod.Funcs) {
							if h := bodyOf(mod, mod.Funcs[s.Func]); h.HasBody {
								visit(h)
							}
						}
						direct = true
						break
					}
					if o.Kind() == ir.KSym && mod.Syms[o.Index()].Kind == ir.SymImplicit {
						direct = true
						break
					}
				}
				if !direct {
					if taken == nil {
						taken = addressTakenFuncs(mod)
					}
					for _, h := range taken {
						visit(h)
					}
				}
			}
		}
	}
	visit(f)
	return out
}
