package core

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

func TestUniformity(t *testing.T) {
	// 0: t = %tid.x; u = 5; a = c; p = t; @p bra 2
	// 1: x = u; bra 3        2: x = 2
	// 3: st [a], x; y = u + a; ret
	b := testgen.New("uni")
	f := b.F
	bl := b.Blocks(4)
	tr, u, a, c, x, y := b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TU64), b.Reg(ir.TU64), b.Reg(ir.TU32), b.Reg(ir.TU32)
	p := b.Reg(ir.TPred)
	b.Op(bl[0], ir.OpMov, "mov.u32", ir.RegDef(tr), b.Special("%tid.x"))
	b.MovImm(bl[0], u, 5)
	b.Mov(bl[0], a, c)
	b.Op(bl[0], ir.OpMov, "mov.pred", ir.RegDef(p), ir.RegOp(tr))
	b.CondBra(bl[0], p, bl[2])
	b.Mov(bl[1], x, u)
	b.Bra(bl[1], bl[3])
	b.MovImm(bl[2], x, 2)
	b.Use(bl[3], a, x)
	b.Add(bl[3], y, u, a)
	b.Ret(bl[3])
	f.ComputeCFG()
	un := ComputeUniformity(f)
	for r, want := range map[ir.RegID]bool{tr: true, u: false, a: false, c: false, x: true, y: false, p: true} {
		if un.Varying[r] != want {
			t.Errorf("varying(%s) = %v, want %v", f.Str(f.RegName[r]), un.Varying[r], want)
		}
	}
	if !un.Divergent[0] || un.Divergent[1] {
		t.Errorf("divergent = %v", un.Divergent)
	}
	files := un.Files(f)
	if files[u] != ir.FileUR || files[tr] != ir.FileR || files[p] != ir.FileP {
		t.Errorf("files %v", files)
	}
	// A load from a varying address is varying; from a uniform one not.
	b2 := testgen.New("ld")
	f2 := b2.F
	k := b2.Block()
	tid, ad, v1, v2, w := b2.Reg(ir.TU64), b2.Reg(ir.TU64), b2.Reg(ir.TU32), b2.Reg(ir.TU32), b2.Reg(ir.TU32)
	b2.Op(k, ir.OpMov, "mov.u32", ir.RegDef(tid), b2.Special("%laneid"))
	b2.Load(k, v1, tid)
	b2.Load(k, v2, ad)
	b2.Op(k, ir.OpAtom, "atom.global.add.u32", ir.RegDef(w), f2.AddAddr([]ir.Operand{ir.RegOp(ad)}, 0, false), ir.RegOp(v2))
	b2.Ret(k)
	f2.ComputeCFG()
	un = ComputeUniformity(f2)
	if !un.Varying[v1] || un.Varying[v2] || !un.Varying[w] {
		t.Errorf("loads/atomics: %v", un.Varying)
	}
}

func TestUniformLoopDivergentExit(t *testing.T) {
	// 0: i = 0
	// 1: i = i + one; t = %tid.x; q = t + i; @q bra 1   (divergent exit)
	// 2: st [a], i
	b := testgen.New("loop")
	bl := b.Blocks(3)
	i, one, tr, a := b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TU64)
	q := b.Reg(ir.TPred)
	b.MovImm(bl[0], i, 0)
	b.Add(bl[1], i, i, one)
	b.Op(bl[1], ir.OpMov, "mov.u32", ir.RegDef(tr), b.Special("%tid.x"))
	b.Op(bl[1], ir.OpAdd, "add.u32", ir.RegDef(q), ir.RegOp(tr), ir.RegOp(i))
	b.CondBra(bl[1], q, bl[1])
	b.Use(bl[2], a, i)
	b.Ret(bl[2])
	b.F.ComputeCFG()
	un := ComputeUniformity(b.F)
	if !un.Varying[i] || un.Varying[one] || un.Varying[a] {
		t.Errorf("varying = %v", un.Varying)
	}
}

func TestPressureMax(t *testing.T) {
	b := testgen.New("pressure")
	f := b.F
	k := b.Block()
	r := b.Regs(3, ir.TU32)
	d := b.Reg(ir.TU64)
	p := b.Reg(ir.TPred)
	for _, x := range r {
		b.MovImm(k, x, 1)
	}
	b.Mov(k, d, d) // d live on entry (used before defined)
	b.Op(k, ir.OpMov, "mov.pred", ir.RegDef(p), ir.RegOp(r[0]))
	peak := b.Add(k, r[0], r[1], r[2]) // r0 r1 r2 d live here
	b.Use(k, d, r[0])
	b.Ret(k)
	f.ComputeCFG()
	l := ComputeLiveness(f, LiveOptions{})
	pr := RegisterPressure(l)
	if pr.Max[ir.FileR] != 5 || pr.Max[ir.FileP] != 1 {
		t.Fatalf("max = %v", pr.Max)
	}
	if pr.At[ir.FileR] != peak && pr.At[ir.FileR] != f.Prev[peak] {
		t.Errorf("max at %d", pr.At[ir.FileR])
	}
}

func TestDefUse(t *testing.T) {
	b := testgen.New("du")
	f := b.F
	k := b.Block()
	r := b.Regs(3, ir.TU32)
	i0 := b.MovImm(k, r[0], 1)
	i1 := b.Add(k, r[1], r[0], r[0])
	i2 := b.Add(k, r[0], r[1], r[2])
	b.Ret(k)
	f.ComputeCFG()
	du := ComputeDefUse(f)
	if d := du.Defs(r[0]); len(d) != 2 || d[0].Instr != i0 || d[1].Instr != i2 {
		t.Errorf("defs r0 %v", d)
	}
	if u := du.Uses(r[0]); len(u) != 2 || u[0].Instr != i1 || OperandIndex(f, i1, u[1].Loc) != 2 {
		t.Errorf("uses r0 %v", u)
	}
	if len(du.Uses(r[2])) != 1 || len(du.Defs(r[2])) != 0 {
		t.Errorf("r2")
	}
}

// TestDefUseBlockedFill checks the chains (the direct fill of small
// functions; the blocked fill, with blocks of 256 registers and, above
// 65536 registers, larger ones) against a plain per-instruction reference,
// row by row and in order, each computed into the chains and working
// memory of the function before (larger and smaller ones).
func TestDefUseBlockedFill(t *testing.T) {
	fs := []*ir.Func{
		testgen.StraightLine(30_000, 4000),
		testgen.LoopNest(30_000, 2048),
		testgen.StraightLine(60_000, 30_000),
		testgen.StraightLine(200_000, 70_000),
		testgen.Random(rand.New(rand.NewPCG(7, 8)), testgen.RandomConfig{Blocks: 3000, Regs: 700, MaxInstrs: 12}),
		testgen.StraightLine(200, 100),
		testgen.Random(rand.New(rand.NewPCG(9, 8)), testgen.RandomConfig{Blocks: 6000, Regs: 9000, MaxInstrs: 12}),
	}
	var du *DefUse
	blocked := false
	for _, f := range fs {
		f.ComputeCFG()
		du = ComputeDefUseInto(du, f)
		blocked = blocked || f.NumRegs() > 1<<16
		checkDefUse(t, f, du)
		if f.NumRegs() > 1<<16 && f.NumInstrs() < directFillInstrs {
			t.Fatalf("%s: only %d instructions, blocked fill not exercised", f.Name, f.NumInstrs())
		}
	}
	if !blocked {
		t.Fatal("no function with blocks above 256 registers: the blocked fill not fully exercised")
	}
}

// checkDefUse compares du with chains built the plain way: per
// register, its references appended in layout order.
func checkDefUse(t *testing.T, f *ir.Func, du *DefUse) {
	t.Helper()
	nr := f.NumRegs()
	defs := make([][]Ref, nr)
	uses := make([][]Ref, nr)
	var refs []RegRef
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if x.Def {
					defs[x.Reg] = append(defs[x.Reg], Ref{i, x.Loc})
				} else {
					uses[x.Reg] = append(uses[x.Reg], Ref{i, x.Loc})
				}
			}
		}
	}
	if du.NumRegs() != nr {
		t.Fatalf("%s: chains cover %d registers, want %d", f.Name, du.NumRegs(), nr)
	}
	for r := range nr {
		if !slices.Equal(du.Defs(ir.RegID(r)), defs[r]) || !slices.Equal(du.Uses(ir.RegID(r)), uses[r]) {
			t.Fatalf("%s: register %d: defs %v uses %v, want %v %v", f.Name, r,
				du.Defs(ir.RegID(r)), du.Uses(ir.RegID(r)), defs[r], uses[r])
		}
	}
}
