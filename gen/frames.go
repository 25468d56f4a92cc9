package gen

import (
	"fmt"
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// Frames (Config.Frames): the memory habits of PTX from -O0 compilers.
//
// The kernel gets a .local depot, "__local_depot0", and reaches it the way
// clang -O0 does: "mov.u64 %SPL, __local_depot0; cvta.local.u64 %SP,
// %SPL", then generic "st.u32 [%SP+k]" and "ld.u32 [%SP+k]". The depot
// holds word slots (u32 and f32 accesses, either type on either slot),
// double-word slots (u64 accesses, sometimes read back as two u32
// halves: mixed sizes), and a small array of four words. Every slot is
// stored in the prologue, so no load reads memory the kernel never wrote.
//
// Besides [%SP+k] the slots are reached through derived pointers: "add.u64
// %rd, %SP, k" (and clang's "or.b64 %rd2, %rd, 4" for a field of an
// aligned struct), through the local window ("[%SPL+k]", "ld.local"), and
// in pointer pairs: two pointers built separately that name the same slot
// (aliasing) or two different slots (not aliasing), a store through one
// then a load through the other. Some accesses are guarded, some are
// .v2 vectors (only in kernels that opt into them, since a vector access
// keeps its whole variable in memory in ptxopt's promotion).
//
// The array is indexed by constants in most kernels; in some it is indexed
// by a thread-dependent value (masked to its bounds), which keeps its
// variable in memory: either the depot itself (then nothing of the frame
// can be promoted, and forwarding between its loads and stores is what
// remains) or a second .local variable beside it.
//
// Global memory gets the same treatment: store-then-load pairs on the
// thread's own output words through one base or through a generic pointer
// ("cvta.global" of the output base, as -O0 code reaches global memory),
// and loads of the input repeated with stores in between that may alias.
//
// None of it consumes the generator's random stream unless Frames is set:
// kernels without frames are the ones earlier versions made.

// Frame layout (bytes from the depot's start).
const (
	frameWords  = 8                         // u32/f32 slots at 0, 4, …
	frameDwords = 4                         // u64 slots after them
	frameArr    = 4                         // words of the small array
	frameDOff   = frameWords * 4            // first u64 slot
	frameAOff   = frameDOff + frameDwords*8 // the array
	frameBytes  = frameAOff + frameArr*4
)

type frame struct {
	sp, spl ir.RegID
	depot   ir.SymID
	// arr is the variable holding the array (the depot, or a second
	// variable when sep), arrOff its offset there, arrBase a generic
	// pointer to its start.
	arr     ir.SymID
	arrOff  int64
	arrBase ir.RegID
	dyn     bool     // the array is indexed by thread-dependent values
	vec     bool     // .v2 accesses allowed
	gOutG   ir.RegID // a generic pointer to the thread's output words
	calls   bool     // the kernel calls device functions
}

func (g *gen) symOp(s ir.SymID) ir.Operand { return ir.Pack(ir.KSym, uint32(s), 0, false) }

// frameInit declares the frame, sets up %SPL/%SP and stores every slot.
func (g *gen) frameInit() {
	fr := &frame{}
	g.fr = fr
	kind := g.rnd.Intn(6)
	fr.dyn = kind < 2
	sep := kind == 1
	fr.vec = g.rnd.Intn(4) == 0
	fr.calls = g.rnd.Intn(3) != 0
	if fr.calls {
		g.makeDevFuncs()
	}
	size := int64(frameBytes)
	if sep {
		size = frameAOff
	}
	fr.depot = g.sym(ir.Symbol{Name: g.str("__local_depot0"), Kind: ir.SymVar, Space: ir.SpaceLocal, Type: ir.TB8, Align: 8,
		Dims: g.str(fmt.Sprintf("[%d]", size)), Elems: size, Owner: 0})
	g.f.Locals = append(g.f.Locals, fr.depot)
	fr.spl = g.f.AddReg(g.str("%SPL"), ir.TB64)
	fr.sp = g.f.AddReg(g.str("%SP"), ir.TB64)
	g.emit("mov.u64", def(fr.spl), g.symOp(fr.depot))
	g.emit("cvta.local.u64", def(fr.sp), use(fr.spl))
	fr.arr, fr.arrOff = fr.depot, frameAOff
	fr.arrBase = g.reg(ir.TB64)
	if sep {
		fr.arr, fr.arrOff = g.sym(ir.Symbol{Name: g.str("gen_arr"), Kind: ir.SymVar, Space: ir.SpaceLocal, Type: ir.TB32, Align: 4,
			Dims: g.str(fmt.Sprintf("[%d]", frameArr)), Elems: frameArr, Owner: 0}), 0
		g.f.Locals = append(g.f.Locals, fr.arr)
		l := g.reg(ir.TB64)
		g.emit("mov.u64", def(l), g.symOp(fr.arr))
		g.emit("cvta.local.u64", def(fr.arrBase), use(l))
	} else {
		g.emit("add.u64", def(fr.arrBase), use(fr.sp), g.imm(frameAOff))
	}
	fr.gOutG = g.reg(ir.TB64)
	g.emit("cvta.global.u64", def(fr.gOutG), use(g.outBase))
	for k := range frameWords {
		if g.rnd.Intn(3) == 0 {
			g.emit("st.f32", g.addr(fr.sp, int64(4*k)), use(g.pick(g.p.f32)))
		} else {
			g.emit("st.u32", g.addr(fr.sp, int64(4*k)), use(g.pick32()))
		}
	}
	for k := range frameDwords {
		g.emit("st.u64", g.addr(fr.sp, int64(frameDOff+8*k)), use(g.pick(g.p.r64)))
	}
	for k := range frameArr {
		g.emit("st.u32", g.addr(fr.arrBase, int64(4*k)), use(g.pick32()))
	}
}

// framePtr returns a generic pointer to depot byte off: %SP itself with
// the offset in the address, or a derived register.
func (g *gen) framePtr(off int64) (ir.RegID, int64) {
	fr := g.fr
	switch g.rnd.Intn(4) {
	case 0, 1:
		return fr.sp, off
	case 2:
		r := g.reg(ir.TB64)
		g.emit("add.u64", def(r), use(fr.sp), g.imm(off))
		return r, 0
	default:
		// clang's field access in an 8-aligned struct: base, then or
		base := off &^ 7
		r := g.reg(ir.TB64)
		g.emit("add.u64", def(r), use(fr.sp), g.imm(base))
		if off == base {
			return r, 0
		}
		r2 := g.reg(ir.TB64)
		g.emit("or.b64", def(r2), use(r), g.imm(off-base))
		return r2, 0
	}
}

// frameGuard returns a guard for an access now and then.
func (g *gen) frameGuard() ir.Operand {
	if g.rnd.Intn(8) != 0 || len(g.p.pred) == 0 {
		return ir.NoOperand
	}
	p := use(g.pick(g.p.pred))
	if g.rnd.Intn(2) == 0 {
		p = p.WithFlags(ir.FlagNot)
	}
	return p
}

// frameOp emits one access pattern on the frame or on global memory.
func (g *gen) frameOp() {
	fr := g.fr
	switch k := g.rnd.Intn(20); {
	case k < 4: // word store
		off := int64(4 * g.rnd.Intn(frameWords))
		r, o := g.framePtr(off)
		if g.rnd.Intn(3) == 0 {
			g.emitG(g.frameGuard(), "st.f32", g.addr(r, o), use(g.pick(g.p.f32)))
		} else {
			g.emitG(g.frameGuard(), "st.u32", g.addr(r, o), use(g.pick32()))
		}
	case k < 8: // word load
		off := int64(4 * g.rnd.Intn(frameWords))
		r, o := g.framePtr(off)
		if g.rnd.Intn(3) == 0 {
			d := g.reg(ir.TF32)
			g.emit("ld.f32", def(d), g.addr(r, o))
			g.p.f32 = append(g.p.f32, d)
		} else {
			d := g.reg(ir.TB32)
			g.emit("ld.u32", def(d), g.addr(r, o))
			g.p.r32 = append(g.p.r32, d)
		}
	case k < 10: // double word: store, load, or a half
		off := int64(frameDOff + 8*g.rnd.Intn(frameDwords))
		switch g.rnd.Intn(3) {
		case 0:
			r, o := g.framePtr(off)
			g.emitG(g.frameGuard(), "st.u64", g.addr(r, o), use(g.pick(g.p.r64)))
		case 1:
			r, o := g.framePtr(off)
			d := g.reg(ir.TB64)
			g.emit("ld.u64", def(d), g.addr(r, o))
			g.p.r64 = append(g.p.r64, d)
		default:
			r, o := g.framePtr(off + int64(4*g.rnd.Intn(2)))
			d := g.reg(ir.TB32)
			g.emit("ld.u32", def(d), g.addr(r, o))
			g.p.r32 = append(g.p.r32, d)
		}
	case k < 12: // a pointer pair: store through one, load through the other
		a := int64(4 * g.rnd.Intn(frameWords))
		b := a
		if g.rnd.Intn(2) == 0 {
			b = int64(4 * g.rnd.Intn(frameWords))
		}
		p, po := g.framePtr(a)
		q, qo := g.framePtr(b)
		g.emit("st.u32", g.addr(p, po), use(g.pick32()))
		if g.rnd.Intn(2) == 0 {
			g.intOp()
		}
		d := g.reg(ir.TB32)
		g.emit("ld.u32", def(d), g.addr(q, qo))
		g.p.r32 = append(g.p.r32, d)
	case k < 13: // through the local window
		off := int64(4 * g.rnd.Intn(frameWords))
		if g.rnd.Intn(2) == 0 {
			g.emit("st.local.u32", g.addr(fr.spl, off), use(g.pick32()))
		} else {
			d := g.reg(ir.TB32)
			g.emit("ld.local.u32", def(d), g.addr(fr.spl, off))
			g.p.r32 = append(g.p.r32, d)
		}
	case k < 15: // the array
		g.frameArray()
	case k < 16 && fr.calls:
		g.frameCall()
	case k < 16 && fr.vec: // a .v2 access of two word slots
		off := int64(8 * g.rnd.Intn(frameWords/2))
		if g.rnd.Intn(2) == 0 {
			lst := g.f.AddList([]ir.Operand{use(g.pick32()), use(g.pick32())})
			g.emit("st.v2.u32", g.addr(fr.sp, off), ir.Pack(ir.KList, lst, 0, false))
		} else {
			r1, r2 := g.reg(ir.TB32), g.reg(ir.TB32)
			lst := g.f.AddList([]ir.Operand{def(r1), def(r2)})
			g.emit("ld.v2.u32", ir.Pack(ir.KList, lst, 0, true), g.addr(fr.sp, off))
			g.p.r32 = append(g.p.r32, r1, r2)
		}
	case k < 18: // store then load of this thread's output words
		s := int64(4 * g.rnd.Intn(Slots-1))
		t := s
		if g.rnd.Intn(2) == 0 {
			t = int64(4 * g.rnd.Intn(Slots-1))
		}
		base, st, ld := g.outBase, "st.global.u32", "ld.global.u32"
		if g.rnd.Intn(2) == 0 {
			base, st, ld = fr.gOutG, "st.u32", "ld.u32"
		}
		g.emit(st, g.addr(base, s), use(g.pick32()))
		if g.rnd.Intn(2) == 0 {
			g.intOp()
		}
		d := g.reg(ir.TB32)
		g.emit(ld, def(d), g.addr(base, t))
		g.p.r32 = append(g.p.r32, d)
	default: // the same input word twice, maybe a store in between
		off := int64(4 * g.rnd.Intn(InWords))
		d1, d2 := g.reg(ir.TB32), g.reg(ir.TB32)
		g.emit("ld.global.u32", def(d1), g.addr(g.gIn, off))
		if g.rnd.Intn(2) == 0 {
			g.store32(g.pick32(), "st.global.u32")
		}
		g.emit("ld.global.u32", def(d2), g.addr(g.gIn, off))
		g.p.r32 = append(g.p.r32, d1, d2)
	}
}

// frameArray: an access of the small array, by a constant index or (in
// kernels with a dynamic array) by a thread-dependent one.
func (g *gen) frameArray() {
	fr := g.fr
	var a ir.RegID
	var off int64
	if fr.dyn && g.rnd.Intn(2) == 0 {
		i := g.reg(ir.TB32)
		g.emit("and.b32", def(i), use(g.pick32()), g.imm(frameArr-1))
		o := g.reg(ir.TB64)
		g.emit("mul.wide.u32", def(o), use(i), g.imm(4))
		a = g.reg(ir.TB64)
		g.emit("add.s64", def(a), use(fr.arrBase), use(o))
	} else {
		i := int64(g.rnd.Intn(frameArr))
		if g.rnd.Intn(2) == 0 {
			a, off = fr.arrBase, 4*i
		} else {
			// the index materialized in a register first, as -O0 does
			c := g.reg(ir.TB64)
			g.emit("mov.u64", def(c), g.imm(4*i))
			a = g.reg(ir.TB64)
			g.emit("add.s64", def(a), use(fr.arrBase), use(c))
		}
	}
	if g.rnd.Intn(2) == 0 {
		g.emitG(g.frameGuard(), "st.u32", g.addr(a, off), use(g.pick32()))
		return
	}
	d := g.reg(ir.TB32)
	g.emit("ld.u32", def(d), g.addr(a, off))
	g.p.r32 = append(g.p.r32, d)
}

// Device functions (with Frames): two small .funcs the kernel calls with
// clang's -O0 call sequence ("st.param" of each argument into a .param
// variable of the caller, "call.uni (retval), f, (args)", "ld.param" of
// the result):
//
//	gen_fval(a, b) -> r   spills its arguments to a frame of its own,
//	                      reads them back and returns an integer mix
//	gen_fptr(p, v)        *p = *p op v through a generic pointer the
//	                      caller passes (to its output words)
//
// Both are called from anywhere in the kernel (divergent code included).
type devFuncs struct {
	fval, fptr ir.SymID
	nparam     int
}

// devFunc starts a non-visible .func with the given parameters and
// switches the generator to it; the caller restores g.f and friends.
func (g *gen) devFunc(name string, ret ir.Type, params ...ir.Type) (ir.SymID, []ir.SymID, ir.SymID) {
	id := ir.FuncID(len(g.mod.Funcs))
	f := &ir.Func{Mod: g.mod, ID: id, Name: name, Kind: ir.KindFunc, HasBody: true}
	g.mod.Funcs = append(g.mod.Funcs, f)
	f.Sym = g.sym(ir.Symbol{Name: g.str(name), Kind: ir.SymFunc, Owner: ir.NoFunc, Func: id})
	var rp ir.SymID = ir.NoSym
	if ret != ir.TNone {
		rp = g.sym(ir.Symbol{Name: g.str("func_retval0"), Kind: ir.SymRetParam, Space: ir.SpaceParam, Type: ret, Owner: id, Elems: 1})
		f.RetParams = []ir.SymID{rp}
	}
	var ps []ir.SymID
	for k, t := range params {
		s := g.sym(ir.Symbol{Name: g.str(fmt.Sprintf("%s_param_%d", name, k)), Kind: ir.SymParam, Space: ir.SpaceParam, Type: t, Owner: id, Elems: 1})
		ps = append(ps, s)
	}
	f.Params = ps
	// the function's item goes before the kernel's (defined before use)
	// (after the header directives)
	at := 0
	for at < len(g.mod.Items) && g.mod.Items[at].Kind == ir.ItemDirective {
		at++
	}
	g.mod.Items = slices.Insert(g.mod.Items, at, ir.Item{Kind: ir.ItemFunc, Func: id})
	g.f = f
	g.order = nil
	g.enter(f.AddBlock(ir.NoSym))
	return f.Sym, ps, rp
}

func (g *gen) paramAddr(s ir.SymID) ir.Operand {
	return g.f.AddAddr([]ir.Operand{g.symOp(s)}, 0, false)
}

// makeDevFuncs builds gen_fval and gen_fptr; the generator is back on the
// kernel afterwards.
func (g *gen) makeDevFuncs() {
	kf, kcur, korder, kcount := g.f, g.cur, g.order, g.count
	d := &devFuncs{}

	// gen_fval
	sym, ps, rp := g.devFunc("gen_fval", ir.TB32, ir.TB32, ir.TB32)
	d.fval = sym
	f := g.f
	depot := g.sym(ir.Symbol{Name: g.str("__local_depot1"), Kind: ir.SymVar, Space: ir.SpaceLocal, Type: ir.TB8, Align: 4,
		Dims: g.str("[8]"), Elems: 8, Owner: f.ID})
	f.Locals = append(f.Locals, depot)
	spl, sp := f.AddReg(g.str("%SPL"), ir.TB64), f.AddReg(g.str("%SP"), ir.TB64)
	g.emit("mov.u64", def(spl), g.symOp(depot))
	g.emit("cvta.local.u64", def(sp), use(spl))
	a, b := g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit("ld.param.u32", def(a), g.paramAddr(ps[0]))
	g.emit("ld.param.u32", def(b), g.paramAddr(ps[1]))
	g.emit("st.u32", g.addr(sp, 0), use(a))
	g.emit("st.u32", g.addr(sp, 4), use(b))
	a2, b2 := g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit("ld.u32", def(a2), g.addr(sp, 0))
	g.emit("ld.u32", def(b2), g.addr(sp, 4))
	x, y, r := g.reg(ir.TB32), g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit([]string{"add.s32", "xor.b32", "mul.lo.s32"}[g.rnd.Intn(3)], def(x), use(a2), use(b2))
	g.emit("shl.b32", def(y), use(a2), g.imm(int64(1+g.rnd.Intn(7))))
	g.emit("sub.s32", def(r), use(x), use(y))
	g.emit("st.param.b32", g.paramAddr(rp), use(r))
	g.emit("ret")
	f.Layout = g.order

	// gen_fptr
	sym, ps, _ = g.devFunc("gen_fptr", ir.TNone, ir.TB64, ir.TB32)
	d.fptr = sym
	f = g.f
	p, v, o, n := g.reg(ir.TB64), g.reg(ir.TB32), g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit("ld.param.u64", def(p), g.paramAddr(ps[0]))
	g.emit("ld.param.u32", def(v), g.paramAddr(ps[1]))
	g.emit("ld.u32", def(o), g.addr(p, 0))
	g.emit([]string{"add.s32", "xor.b32", "max.u32"}[g.rnd.Intn(3)], def(n), use(o), use(v))
	g.emit("st.u32", g.addr(p, 0), use(n))
	g.emit("ret")
	f.Layout = g.order

	g.f, g.cur, g.order, g.count = kf, kcur, korder, kcount
	g.dev = d
}

// argVar declares a call argument (or return) .param variable of the
// kernel.
func (g *gen) argVar(t ir.Type) ir.SymID {
	g.dev.nparam++
	s := g.sym(ir.Symbol{Name: g.str(fmt.Sprintf("gen_arg%d", g.dev.nparam)), Kind: ir.SymVar, Space: ir.SpaceParam, Type: t, Owner: g.f.ID, Elems: 1})
	g.f.Locals = append(g.f.Locals, s)
	return s
}

func (g *gen) callList(def bool, syms ...ir.SymID) ir.Operand {
	ops := make([]ir.Operand, len(syms))
	for k, s := range syms {
		ops[k] = g.symOp(s)
	}
	return ir.Pack(ir.KList, g.f.AddList(ops), ir.FlagParen, def)
}

// frameCall emits a call of one of the device functions.
func (g *gen) frameCall() {
	d := g.dev
	if g.rnd.Intn(2) == 0 {
		a0, a1, rv := g.argVar(ir.TB32), g.argVar(ir.TB32), g.argVar(ir.TB32)
		g.emit("st.param.b32", g.paramAddr(a0), use(g.pick32()))
		g.emit("st.param.b32", g.paramAddr(a1), use(g.pick32()))
		g.emit("call.uni", g.callList(true, rv), g.symOp(d.fval), g.callList(false, a0, a1))
		r := g.reg(ir.TB32)
		g.emit("ld.param.b32", def(r), g.paramAddr(rv))
		g.p.r32 = append(g.p.r32, r)
		return
	}
	// the thread's output word, through a generic pointer. (Not a slot of
	// the caller's frame: package sim used to give each call a local
	// window of its own, where a caller's generic local address did not
	// reach the caller's frame from inside the callee; it does now, and
	// the generated kernels stay as they were.)
	ptr := g.reg(ir.TB64)
	g.emit("add.u64", def(ptr), use(g.fr.gOutG), g.imm(int64(4*g.rnd.Intn(Slots-1))))
	a0, a1 := g.argVar(ir.TB64), g.argVar(ir.TB32)
	g.emit("st.param.b64", g.paramAddr(a0), use(ptr))
	g.emit("st.param.b32", g.paramAddr(a1), use(g.pick32()))
	g.emit("call.uni", g.symOp(d.fptr), g.callList(false, a0, a1))
}
