package core

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// interp runs f on one lane: registers start at a hash of their number
// (registers added by a transformation start at zero, and must never be
// read before written), loads return a hash of the address, stores are
// recorded. PHIs are evaluated in parallel on block entry.
func interp(f *ir.Func, nOrig int, maxStores, maxSteps int) (trace []uint64, done bool) {
	regs := make([]uint64, f.NumRegs())
	for r := range nOrig {
		regs[r] = uint64(r)*0x9E3779B97F4A7C15 + 1
	}
	next := layoutNextMap(f)
	val := func(o ir.Operand) uint64 {
		switch o.Kind() {
		case ir.KReg:
			return regs[o.Reg()]
		case ir.KImm:
			return f.Imms[o.Index()].Bits
		}
		return 0
	}
	addr := func(o ir.Operand) uint64 {
		a := f.Addrs[o.Index()]
		var s uint64
		for _, e := range f.ListElems(a.Elems) {
			s += val(e)
		}
		return s + uint64(a.Off)
	}
	b, prev := f.Entry(), ir.NoBlock
	steps := 0
	var tmp []uint64
	for b != ir.NoBlock {
		i := f.BlockFirst[b]
		tmp = tmp[:0]
		for j := i; j != ir.NoInstr && IsPhi(f, j); j = f.Next[j] {
			ops := f.Ops(j)
			for k := 1; k+1 < len(ops); k += 2 {
				if ir.BlockID(ops[k+1].Index()) == prev {
					tmp = append(tmp, val(ops[k]))
				}
			}
		}
		for k := 0; i != ir.NoInstr && IsPhi(f, i); i, k = f.Next[i], k+1 {
			regs[f.Ops(i)[0].Reg()] = tmp[k]
		}
		target := next[b]
		for ; i != ir.NoInstr; i = f.Next[i] {
			if steps++; steps > maxSteps {
				return trace, false
			}
			if g := f.Guard[i]; g != ir.NoOperand {
				on := regs[g.Reg()]&1 == 1
				if g.Has(ir.FlagNot) {
					on = !on
				}
				if !on {
					continue
				}
			}
			ops := f.Ops(i)
			switch f.Op[i] {
			case ir.OpAdd:
				regs[ops[0].Reg()] = val(ops[1]) + val(ops[2])
			case ir.OpMov:
				regs[ops[0].Reg()] = val(ops[1])
			case ir.OpLd:
				a := addr(ops[1])
				if ops[0].Kind() == ir.KList {
					for k, e := range f.ListElems(ops[0].Index()) {
						regs[e.Reg()] = (a+uint64(k))*0xBF58476D1CE4E5B9 ^ 7
					}
				} else {
					regs[ops[0].Reg()] = a*0xBF58476D1CE4E5B9 ^ 7
				}
			case ir.OpSt:
				trace = append(trace, addr(ops[0]), val(ops[1]))
				if len(trace) >= 2*maxStores {
					return trace, true
				}
			case ir.OpBra:
				target = ir.BlockID(ops[0].Index())
				i = f.BlockLast[b]
			case ir.OpRet:
				return trace, true
			}
		}
		prev, b = b, target
	}
	return trace, true
}

func sameRun(t *testing.T, what string, a []uint64, aok bool, b []uint64, bok bool) {
	t.Helper()
	if aok && bok {
		if !slices.Equal(a, b) {
			t.Fatalf("%s: traces differ:\n%v\n%v", what, a, b)
		}
		return
	}
	n := min(len(a), len(b))
	if !slices.Equal(a[:n], b[:n]) {
		t.Fatalf("%s: trace prefixes differ", what)
	}
}

// checkSSA checks the single-definition and dominance properties of the
// renamed registers.
func checkSSA(t *testing.T, f *ir.Func, info *SSAInfo, nOrig int) {
	t.Helper()
	f.ComputeCFG()
	dom := Dominators(f)
	du := ComputeDefUse(f)
	pos := make([]int, f.NumInstrs())
	for _, b := range f.Layout {
		k := 0
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			pos[i] = k
			k++
		}
	}
	for r := nOrig; r < f.NumRegs(); r++ {
		defs := du.Defs(ir.RegID(r))
		if len(defs) != 1 {
			t.Fatalf("version %d has %d definitions", r, len(defs))
		}
		d := defs[0].Instr
		db := f.Block[d]
		for _, u := range du.Uses(ir.RegID(r)) {
			ub := f.Block[u.Instr]
			if !dom.Contains(ub) {
				continue
			}
			if IsPhi(f, u.Instr) {
				// the use is at the end of the predecessor
				ops := f.Ops(u.Instr)
				k := OperandIndex(f, u.Instr, u.Loc)
				ub = ir.BlockID(ops[k+1].Index())
				if !dom.Dominates(db, ub) {
					t.Fatalf("phi use of %d not dominated", r)
				}
				continue
			}
			if !dom.Dominates(db, ub) || (db == ub && pos[d] >= pos[u.Instr]) {
				t.Fatalf("use of version %d (instr %d) not dominated by its definition (instr %d)", r, u.Instr, d)
			}
		}
	}
}

func TestSSARoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	n := 1500
	if testing.Short() {
		n = 300
	}
	phis := 0
	for k := range n {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 1 + rng.IntN(14), Regs: 1 + rng.IntN(6), MaxInstrs: rng.IntN(6)})
		nOrig := f.NumRegs()
		tr0, ok0 := interp(f, nOrig, 60, 5000)
		info, err := BuildSSA(f)
		if err != nil {
			t.Fatal(err)
		}
		phis += info.Phis
		checkSSA(t, f, info, nOrig)
		tr1, ok1 := interp(f, nOrig, 60, 5000)
		sameRun(t, "after BuildSSA", tr0, ok0, tr1, ok1)
		DestroySSA(f)
		for i := range f.NumInstrs() {
			if !f.IsDead(ir.InstrID(i)) && IsPhi(f, ir.InstrID(i)) && f.Block[i] != ir.NoBlock {
				t.Fatalf("phi left")
			}
		}
		tr2, ok2 := interp(f, nOrig, 60, 10000)
		sameRun(t, "after DestroySSA", tr0, ok0, tr2, ok2)
		_ = k
	}
	if phis == 0 {
		t.Fatalf("no PHI placed in %d functions", n)
	}
}

// TestSwapAndLostCopy destroys hand-made SSA with the swap problem
// (a1 = φ(a0, b1); b1 = φ(b0, a1)) and the lost-copy problem (a use of
// x1 after a loop whose latch is a critical edge source).
func TestSwapAndLostCopy(t *testing.T) {
	b := testgen.New("swap")
	f := b.F
	bl := b.Blocks(3) // 0: entry, 1: loop header & latch, 2: exit
	a0, b0, a1, b1, x1, x2, p, base := b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TU32), b.Reg(ir.TPred), b.Reg(ir.TU64)
	f = b.F
	b.MovImm(bl[0], a0, 1)
	b.MovImm(bl[0], b0, 2)
	b.Op(bl[0], ir.OpMov, "mov.pred", ir.RegDef(p), f.AddImm(ir.Imm{}))
	phi := func(blk ir.BlockID, d ir.RegID, ins ...any) {
		ops := []ir.Operand{ir.RegDef(d)}
		for k := 0; k < len(ins); k += 2 {
			ops = append(ops, ir.RegOp(ins[k].(ir.RegID)), ir.Pack(ir.KLabel, uint32(ins[k+1].(ir.BlockID)), 0, false))
		}
		i := f.NewInstr(ir.Form{Op: ir.OpPhi}, ops)
		f.Append(blk, i)
	}
	phi(bl[1], a1, a0, bl[0], b1, bl[1])
	phi(bl[1], b1, b0, bl[0], a1, bl[1])
	phi(bl[1], x1, a0, bl[0], x2, bl[1])
	b.Add(bl[1], x2, x1, a1)
	b.Use(bl[1], base, a1)
	b.Use(bl[1], base, b1)
	b.Op(bl[1], ir.OpAdd, "add.u32", ir.RegDef(p), ir.RegOp(p), ir.RegOp(a1)) // p flips with a1's parity
	b.CondBra(bl[1], p, bl[1])
	b.Use(bl[2], base, x1) // x1 after the loop: lost copy if not split
	b.Ret(bl[2])
	f.ComputeCFG()
	nOrig := f.NumRegs()
	tr0, ok0 := interp(f, nOrig, 40, 5000)
	if len(tr0) < 8 {
		t.Fatalf("test program too short: %v", tr0)
	}
	DestroySSA(f)
	tr1, ok1 := interp(f, nOrig, 40, 5000)
	sameRun(t, "swap", tr0, ok0, tr1, ok1)
}

// TestBuildSSAAlreadySSA: a function whose registers each have one
// unguarded definition, none live into the entry, is in SSA form as it
// is: BuildSSA leaves it unchanged (no PHI, no version, no register
// added), maps every register to itself, and marks each renamable.
func TestBuildSSAAlreadySSA(t *testing.T) {
	src := `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 1;
	setp.lt.s32 %p1, %r2, 7;
	@%p1 bra L1;
	mul.lo.s32 %r3, %r2, 3;
	st.global.u32 [%rd1], %r3;
L1:
	add.s32 %r4, %r2, %r1;
	st.global.u32 [%rd1+4], %r4;
	ret;
}
`
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	f.ComputeCFG()
	before, nr := ptx.Format(m), f.NumRegs()
	info, err := BuildSSA(f)
	if err != nil {
		t.Fatal(err)
	}
	if info.Phis != 0 || info.Versions != 0 || info.NewEntry || f.NumRegs() != nr {
		t.Fatalf("BuildSSA changed an SSA function: %d PHIs, %d versions, new entry %v, %d -> %d registers", info.Phis, info.Versions, info.NewEntry, nr, f.NumRegs())
	}
	if after := ptx.Format(m); !slices.Equal(before, after) {
		t.Fatalf("BuildSSA changed the code:\n%s\nbecame\n%s", before, after)
	}
	if len(info.Orig) != nr || len(info.Renamed) != nr {
		t.Fatalf("Orig %d, Renamed %d entries; want %d", len(info.Orig), len(info.Renamed), nr)
	}
	for r := range nr {
		if info.Orig[r] != ir.RegID(r) {
			t.Fatalf("Orig[%d] = %d", r, info.Orig[r])
		}
		if !info.Renamed[r] {
			t.Fatalf("register %d (%s) not renamable", r, f.Str(f.RegName[r]))
		}
	}
}
