package gen

import "github.com/ptxopt/ptxopt/ir"

// Long live ranges across loops (Config.LongRanges): what makes a kernel's
// register pressure peak in a loop that does not need the values holding
// the registers. Before a counted loop the kernel reads cheap values —
// special registers fixed for the thread (%ctaid, %nctaid, %ntid.y),
// the kernel's own parameters, a shared array's address — and uses them
// once; after the loop it reads the same values again, as -O0 code does,
// and folds them into the output. Common-subexpression elimination then
// merges the second reads into the first, and the values live across the
// loop; the splitting phases give them back their short ranges. A few
// values loaded from global memory (not cheap to recompute) and a few of
// the cheap ones are used after the loop without a second read, so the
// input itself has long ranges too. The loop body is ordinary generated
// code (its own pressure). Nothing of it is drawn unless LongRanges is
// set.

// longRanges emits one such region at the current point.
func (g *gen) longRanges(left int) {
	specials := []string{"%ctaid.x", "%ctaid.y", "%nctaid.x", "%ntid.y", "%ntid.x", "%nctaid.y", "%ctaid.z", "%ntid.z", "%nctaid.z"}
	type cheap struct {
		mn  string
		src func() ir.Operand
	}
	var reads []cheap
	for _, s := range specials[:5+g.rnd.Intn(len(specials)-4)] {
		reads = append(reads, cheap{"mov.u32", func() ir.Operand { return g.special(s) }})
	}
	pn := g.f.Params[2]
	reads = append(reads,
		cheap{"ld.param.u32", func() ir.Operand {
			return g.f.AddAddr([]ir.Operand{ir.Pack(ir.KSym, uint32(pn), 0, false)}, 0, false)
		}},
		cheap{"mov.u32", func() ir.Operand { return ir.Pack(ir.KSym, uint32(g.sh), 0, false) }})
	acc := g.reg(ir.TB32)
	g.emit("mov.u32", def(acc), g.imm(0x2545f491))
	first := make([]ir.RegID, len(reads))
	for k, c := range reads {
		first[k] = g.reg(ir.TB32)
		g.emit(c.mn, def(first[k]), c.src())
		g.emit("add.s32", def(acc), use(acc), use(first[k]))
	}
	// loaded values and a few cheap ones kept across the loop as written
	var kept []ir.RegID
	for range 1 + g.rnd.Intn(3) {
		r := g.reg(ir.TB32)
		g.emit("ld.global.u32", def(r), g.addr(g.gIn, int64(4*g.rnd.Intn(InWords))))
		kept = append(kept, r)
	}
	kept = append(kept, first[:1+g.rnd.Intn(2)]...)
	g.emit("st.global.u32", g.addr(g.outBase, 4*int64(g.rnd.Intn(Slots-1))), use(acc))
	// the loop: a uniform trip count of 1..4
	bound, t, i := g.reg(ir.TB32), g.reg(ir.TB32), g.reg(ir.TB32)
	g.emit("add.s32", def(t), use(g.rN), use(g.uw))
	g.emit("and.b32", def(bound), use(t), g.imm(3))
	g.emit("mov.u32", def(i), g.imm(0))
	g.prot[i], g.prot[bound] = true, true
	g.uni[bound], g.uni[i] = true, true
	body := g.newBlock()
	saved, conv, unif := g.save()
	g.depth++
	g.enter(body)
	g.p.r32 = append(g.p.r32[:len(g.p.r32):len(g.p.r32)], i)
	g.loops++
	g.stmts(1 + g.rnd.Intn(max(1, min(left/2, 150))))
	g.loops--
	g.emit("add.s32", def(i), use(i), g.imm(1))
	p := g.reg(ir.TPred)
	g.emit("setp.le.u32", def(p), use(i), use(bound))
	g.emitG(use(p), "bra.uni", label(body))
	g.restore(saved, conv, unif)
	g.depth--
	g.enter(g.newBlock())
	// after the loop: the same reads again, and the kept values
	h := g.reg(ir.TB32)
	g.emit("mov.u32", def(h), g.imm(0x61c88647))
	for _, c := range reads {
		r := g.reg(ir.TB32)
		g.emit(c.mn, def(r), c.src())
		g.emit("xor.b32", def(h), use(h), use(r))
		g.emit("mul.lo.s32", def(h), use(h), g.imm(16777619))
	}
	for _, r := range kept {
		g.emit("add.s32", def(h), use(h), use(r))
	}
	g.emit("st.global.u32", g.addr(g.outBase, 4*int64(g.rnd.Intn(Slots-1))), use(h))
}
