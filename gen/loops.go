package gen

import (
	"fmt"

	"github.com/ptxopt/ptxopt/ir"
)

// Constant loops (Config.ConstLoops): loops whose trip count is a
// constant, walking a small .local array by their counter — the shape
// full unrolling (OriUnrollLoops) and then ConvertMemoryToRegister turn
// into straight-line code on registers.
//
// Each loop gets a .local variable of its own, "gen_cl<N>": the counter's
// word at 0 and an array of clArr words after it, all stored before the
// loop (no load reads memory the kernel never wrote). The loop runs 1 to
// clArr times, in one of two shapes:
//
//   - clang -O0's: the counter in its frame slot, stored 0, loaded and
//     compared at the top ("setp.ge.s32; @p bra exit"), loaded again for
//     the index ("ld.s32; shl.b64 2; add.u64 base; add.s64"), incremented
//     through the slot at the bottom ("bra.uni top");
//   - LLVM's: the counter in a register, tested at the bottom, the index
//     "mul.wide.u32 4" through the generic or the local window.
//
// The body reads and writes the counter's element, and runs a few simple
// statements (no branch: the loop unrolls) or, now and then, any
// statements (a thread-dependent branch or a barrier inside keeps it a
// loop, and then its array stays indexed). After the loop the elements
// are read back at constant indices: all of them mixed into one value,
// and one alone, both into the pool.
//
// Constant loops go only where the code is converged (no divergent branch
// around them), so that some thread runs them whatever the input: a loop
// no thread reaches would leave its unrolling unchecked.
//
// None of it consumes the generator's random stream unless ConstLoops is
// set: kernels without it are the ones earlier versions made.

const clArr = 8 // words of a constant loop's array

// constLoop emits one constant loop (left: the statement budget).
func (g *gen) constLoop(left int) {
	g.ncl++
	size := int64(4 + 4*clArr)
	v := g.sym(ir.Symbol{Name: g.str(fmt.Sprintf("gen_cl%d", g.ncl)), Kind: ir.SymVar, Space: ir.SpaceLocal, Type: ir.TB8, Align: 4,
		Dims: g.str(fmt.Sprintf("[%d]", size)), Elems: size, Owner: g.f.ID})
	g.f.Locals = append(g.f.Locals, v)
	l, p := g.reg(ir.TB64), g.reg(ir.TB64)
	g.emit("mov.u64", def(l), g.symOp(v))
	g.emit("cvta.local.u64", def(p), use(l))
	for k := range clArr {
		g.emit("st.u32", g.addr(p, int64(4+4*k)), use(g.pick32()))
	}
	trip := int64(1 + g.rnd.Intn(clArr))
	frameShape := g.rnd.Intn(2) == 0
	saved, conv, unif := g.save()
	g.depth++
	var i ir.RegID // the register counter (LLVM's shape)
	var top, exit ir.BlockID
	if frameShape {
		z := g.reg(ir.TB32)
		g.emit("mov.u32", def(z), g.imm(0))
		g.emit("st.u32", g.addr(p, 0), use(z))
		top, exit = g.newBlock(), g.newBlock()
		g.emit("bra.uni", label(top))
		g.enter(top)
		c, q := g.reg(ir.TB32), g.reg(ir.TPred)
		g.emit("ld.u32", def(c), g.addr(p, 0))
		g.emit("setp.ge.s32", def(q), use(c), g.imm(trip))
		g.emitG(use(q), "bra", label(exit))
		g.enter(g.newBlock())
	} else {
		i = g.reg(ir.TB32)
		g.emit("mov.u32", def(i), g.imm(0))
		g.prot[i] = true
		top = g.newBlock()
		g.enter(top)
		g.p.r32 = append(g.p.r32, i)
	}
	// the counter's element: a[k] += pool value
	var a ir.RegID
	var off int64
	ld, st := "ld.u32", "st.u32"
	if frameShape {
		x, s, b := g.reg(ir.TB64), g.reg(ir.TB64), g.reg(ir.TB64)
		a = g.reg(ir.TB64)
		g.emit("ld.s32", def(x), g.addr(p, 0))
		g.emit("shl.b64", def(s), use(x), g.imm(2))
		g.emit("add.u64", def(b), use(p), g.imm(4))
		g.emit("add.s64", def(a), use(b), use(s))
	} else {
		o := g.reg(ir.TB64)
		a = g.reg(ir.TB64)
		base := p
		if g.rnd.Intn(2) == 0 {
			base, ld, st = l, "ld.local.u32", "st.local.u32"
		}
		g.emit("mul.wide.u32", def(o), use(i), g.imm(4))
		g.emit("add.s64", def(a), use(base), use(o))
		off = 4
	}
	// the value added: a word of the input, at a row of 8 words indexed
	// by the counter in clang's shape ("in[row*8 + k]": the sign
	// extension of a sum, which unrolled copies share through reuse), or
	// a pool value
	w := g.pick32()
	if frameShape && g.rnd.Intn(2) == 0 {
		m, r8, k, x := g.reg(ir.TB32), g.reg(ir.TB32), g.reg(ir.TB32), g.reg(ir.TB32)
		xw, o, ad := g.reg(ir.TB64), g.reg(ir.TB64), g.reg(ir.TB64)
		w = g.reg(ir.TB32)
		g.emit("and.b32", def(m), use(g.pick32()), g.imm(InWords/8-1))
		g.emit("shl.b32", def(r8), use(m), g.imm(3))
		g.emit("ld.u32", def(k), g.addr(p, 0))
		g.emit("add.s32", def(x), use(r8), use(k))
		g.emit("cvt.s64.s32", def(xw), use(x))
		g.emit("shl.b64", def(o), use(xw), g.imm(2))
		g.emit("add.s64", def(ad), use(g.gIn), use(o))
		g.emit("ld.global.u32", def(w), g.addr(ad, 0))
	}
	e, s := g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit(ld, def(e), g.addr(a, off))
	g.emit("add.s32", def(s), use(e), use(w))
	g.emit(st, g.addr(a, off), use(s))
	g.p.r32 = append(g.p.r32, e, s)
	if g.rnd.Intn(4) == 0 {
		g.stmts(1 + g.rnd.Intn(min(left/4, 12)))
	} else {
		for range 1 + g.rnd.Intn(4) {
			switch g.rnd.Intn(5) {
			case 0:
				g.loadIn()
			case 1:
				g.floatOp()
			case 2:
				g.predOp()
			case 3:
				g.op64()
			default:
				g.intOp()
			}
		}
	}
	if frameShape {
		c, n := g.reg(ir.TB32), g.reg(ir.TB32)
		g.emit("ld.u32", def(c), g.addr(p, 0))
		g.emit("add.s32", def(n), use(c), g.imm(1))
		g.emit("st.u32", g.addr(p, 0), use(n))
		g.emit("bra.uni", label(top))
		g.enter(exit)
	} else {
		q := g.reg(ir.TPred)
		g.emit("add.s32", def(i), use(i), g.imm(1))
		g.emit("setp.lt.u32", def(q), use(i), g.imm(trip))
		g.emitG(use(q), "bra.uni", label(top))
		g.enter(g.newBlock())
	}
	g.depth--
	g.restore(saved, conv, unif)
	// every element read back and mixed into one value (so every copy's
	// work is live), and one element alone
	h := g.reg(ir.TB32)
	g.emit("ld.u32", def(h), g.addr(p, 4))
	for k := 1; k < clArr; k++ {
		r, x := g.reg(ir.TB32), g.reg(ir.TB32)
		g.emit("ld.u32", def(r), g.addr(p, int64(4+4*k)))
		g.emit("xor.b32", def(x), use(h), use(r))
		h = x
	}
	r := g.reg(ir.TB32)
	g.emit("ld.u32", def(r), g.addr(p, int64(4+4*g.rnd.Intn(clArr))))
	g.p.r32 = append(g.p.r32, h, r)
}
