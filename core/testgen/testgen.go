// Package testgen builds ir.Func values for tests and benchmarks of the
// analyses: a tiny builder over the Func methods, a random CFG generator
// with random definitions and uses (guards, vectors, addresses), and two
// scalable workload families (straight-line with many registers, and
// many small blocks in nested loops).
package testgen

import (
	"fmt"
	"math/rand/v2"

	"github.com/ptxopt/ptxopt/ir"
)

// Builder appends instructions to a function under construction.
type Builder struct {
	F *ir.Func
	m map[string]ir.StrID
}

// New returns a builder for an empty kernel named name in a fresh module.
func New(name string) *Builder {
	mod := &ir.Module{}
	mod.Strings.Intern("")
	f := &ir.Func{Mod: mod, ID: 0, Name: name, Kind: ir.KindEntry, HasBody: true, Sym: ir.NoSym}
	mod.Funcs = append(mod.Funcs, f)
	return &Builder{F: f, m: map[string]ir.StrID{}}
}

func (b *Builder) str(s string) ir.StrID {
	if id, ok := b.m[s]; ok {
		return id
	}
	id := b.F.Mod.Strings.Intern(s)
	b.m[s] = id
	return id
}

// Block adds an empty block at the end of the layout.
func (b *Builder) Block() ir.BlockID { return b.F.AddBlock(ir.NoSym) }

// Blocks adds n blocks.
func (b *Builder) Blocks(n int) []ir.BlockID {
	r := make([]ir.BlockID, n)
	for i := range r {
		r[i] = b.Block()
	}
	return r
}

// Reg declares a register of type t.
func (b *Builder) Reg(t ir.Type) ir.RegID {
	n := b.F.NumRegs()
	prefix := "%r"
	switch {
	case t == ir.TPred:
		prefix = "%p"
	case t.Bits() == 64:
		prefix = "%rd"
	}
	return b.F.AddReg(b.str(fmt.Sprint(prefix, n)), t)
}

// Regs declares n registers of type t.
func (b *Builder) Regs(n int, t ir.Type) []ir.RegID {
	r := make([]ir.RegID, n)
	for i := range r {
		r[i] = b.Reg(t)
	}
	return r
}

// Op appends an instruction to block blk.
func (b *Builder) Op(blk ir.BlockID, op ir.Opcode, mnem string, ops ...ir.Operand) ir.InstrID {
	i := b.F.NewInstrText(mnem, ops)
	if b.F.Op[i] != op {
		panic("testgen: " + mnem + " is not " + op.String())
	}
	b.F.Append(blk, i)
	return i
}

// Guard sets the guard of i to the predicate p (negated when not).
func (b *Builder) Guard(i ir.InstrID, p ir.RegID, not bool) {
	var fl ir.OperandFlag
	if not {
		fl = ir.FlagNot
	}
	b.F.Guard[i] = ir.Pack(ir.KReg, uint32(p), fl, false)
}

// Add appends "add d, x, y".
func (b *Builder) Add(blk ir.BlockID, d, x, y ir.RegID) ir.InstrID {
	return b.Op(blk, ir.OpAdd, "add.u32", ir.RegDef(d), ir.RegOp(x), ir.RegOp(y))
}

// Mov appends "mov d, x".
func (b *Builder) Mov(blk ir.BlockID, d, x ir.RegID) ir.InstrID {
	return b.Op(blk, ir.OpMov, "mov.u32", ir.RegDef(d), ir.RegOp(x))
}

// MovImm appends "mov d, v".
func (b *Builder) MovImm(blk ir.BlockID, d ir.RegID, v int64) ir.InstrID {
	return b.Op(blk, ir.OpMov, "mov.u32", ir.RegDef(d), b.F.AddImm(ir.Imm{Bits: uint64(v)}))
}

// Use appends "st.global [a], x" (a use of both).
func (b *Builder) Use(blk ir.BlockID, a, x ir.RegID) ir.InstrID {
	return b.Op(blk, ir.OpSt, "st.global.u32", b.F.AddAddr([]ir.Operand{ir.RegOp(a)}, 0, false), ir.RegOp(x))
}

// Load appends "ld.global d, [a]".
func (b *Builder) Load(blk ir.BlockID, d, a ir.RegID) ir.InstrID {
	return b.Op(blk, ir.OpLd, "ld.global.u32", ir.RegDef(d), b.F.AddAddr([]ir.Operand{ir.RegOp(a)}, 0, false))
}

// Bra appends "bra target".
func (b *Builder) Bra(blk, target ir.BlockID) ir.InstrID {
	return b.Op(blk, ir.OpBra, "bra", ir.Pack(ir.KLabel, uint32(target), 0, false))
}

// CondBra appends "@p bra target".
func (b *Builder) CondBra(blk ir.BlockID, p ir.RegID, target ir.BlockID) ir.InstrID {
	i := b.Bra(blk, target)
	b.Guard(i, p, false)
	return i
}

// Ret appends "ret".
func (b *Builder) Ret(blk ir.BlockID) ir.InstrID { return b.Op(blk, ir.OpRet, "ret") }

// Special returns an operand for the special register name (%tid.x, …).
func (b *Builder) Special(name string) ir.Operand {
	m := b.F.Mod
	id := b.str(name)
	for k, s := range m.Specials {
		if s == id {
			return ir.Pack(ir.KSpecial, uint32(k), 0, false)
		}
	}
	m.Specials = append(m.Specials, id)
	return ir.Pack(ir.KSpecial, uint32(len(m.Specials)-1), 0, false)
}

// Edges builds a CFG from an edge list over n blocks: each block gets
// "@p bra" to all but its last listed target, and ends with "bra last"
// (or "ret" when it has no successor). p is a predicate register the
// builder declares. Blocks hold no other instructions.
func Edges(n int, edges [][2]int) (*Builder, ir.RegID) {
	b := New("edges")
	bl := b.Blocks(n)
	p := b.Reg(ir.TPred)
	succ := make([][]int, n)
	for _, e := range edges {
		succ[e[0]] = append(succ[e[0]], e[1])
	}
	for i, ss := range succ {
		if len(ss) == 0 {
			b.Ret(bl[i])
			continue
		}
		for _, s := range ss[:len(ss)-1] {
			b.CondBra(bl[i], p, bl[s])
		}
		b.Bra(bl[i], bl[ss[len(ss)-1]])
	}
	b.F.ComputeCFG()
	return b, p
}

// RandomConfig shapes Random.
type RandomConfig struct {
	Blocks    int // number of blocks (≥ 1)
	Regs      int // registers per kind (u32, u64, pred)
	MaxInstrs int // instructions per block: 0..MaxInstrs plus a terminator
}

// Random builds a random function: random blocks with random
// definitions and uses of u32, u64 and predicate registers, some guarded,
// some through vectors ("{a, b}") and addresses, and random terminators
// (fall through, bra, @p bra, ret), so CFGs with loops, irreducible
// cycles, unreachable blocks and infinite loops all occur.
func Random(rng *rand.Rand, c RandomConfig) *ir.Func {
	b := New("random")
	f := b.F
	bl := b.Blocks(c.Blocks)
	r32 := b.Regs(c.Regs, ir.TU32)
	r64 := b.Regs(c.Regs, ir.TU64)
	pr := b.Regs(max(1, c.Regs/2), ir.TPred)
	pick := func(rs []ir.RegID) ir.RegID { return rs[rng.IntN(len(rs))] }
	for k, blk := range bl {
		n := rng.IntN(c.MaxInstrs + 1)
		for range n {
			var i ir.InstrID
			switch rng.IntN(7) {
			case 0, 1:
				i = b.Add(blk, pick(r32), pick(r32), pick(r32))
			case 2:
				i = b.Mov(blk, pick(r64), pick(r64))
			case 3:
				i = b.Op(blk, ir.OpMov, "mov.pred", ir.RegDef(pick(pr)), ir.RegOp(pick(pr)))
			case 4:
				i = b.Load(blk, pick(r32), pick(r64))
			case 5:
				i = b.Use(blk, pick(r64), pick(r32))
			case 6:
				// ld.v2 {d1, d2}, [a+8]
				l := f.AddList([]ir.Operand{ir.RegDef(pick(r32)), ir.RegDef(pick(r32))})
				i = b.Op(blk, ir.OpLd, "ld.global.v2.u32", ir.Pack(ir.KList, l, 0, true),
					f.AddAddr([]ir.Operand{ir.RegOp(pick(r64))}, 8, true))
			}
			if rng.IntN(5) == 0 {
				b.Guard(i, pick(pr), rng.IntN(2) == 0)
			}
		}
		switch rng.IntN(8) {
		case 0, 1, 2:
			// fall through
		case 3, 4:
			b.Bra(blk, bl[rng.IntN(len(bl))])
		case 5, 6:
			b.CondBra(blk, pick(pr), bl[rng.IntN(len(bl))])
		case 7:
			if k == 0 && rng.IntN(2) == 0 {
				break
			}
			b.Ret(blk)
		}
	}
	f.ComputeCFG()
	return f
}

// StraightLine builds a function of about n instructions in blocks of 64
// that fall through into each other (as labels split real PTX), over a
// pool of regs u32 registers: each instruction defines the next register
// of the pool from two registers defined a few dozen to a few hundred
// instructions earlier, so live ranges cross many block boundaries.
func StraightLine(n, regs int) *ir.Func {
	b := New("straight")
	rs := b.Regs(regs, ir.TU32)
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	const per = 64
	blk := b.Block()
	for k := range regs {
		if k%per == 0 && k > 0 {
			blk = b.Block()
		}
		b.MovImm(blk, rs[k], int64(k))
	}
	for k := regs; k < n; k++ {
		if k%per == 0 {
			blk = b.Block()
		}
		d := rs[k%regs]
		x := rs[(k-1-rng.IntN(min(regs-1, 300)))%regs]
		y := rs[(k-1-rng.IntN(min(regs-1, 40)))%regs]
		b.Add(blk, d, x, y)
	}
	b.Ret(blk)
	b.F.ComputeCFG()
	return b.F
}

// LoopNest builds a function of about n instructions shaped like a long
// unrolled GPU kernel: a sequence of loop nests three deep (an outer
// loop, a middle loop, and four inner loops in a row, each inner body a
// diamond), in blocks of about 6-10 instructions. Registers are scoped
// the way compiled kernels scope them:
//
//   - 16 u64 parameters (base pointers) are loaded in the entry and read
//     throughout, so they are live everywhere;
//   - each nest works on a window of 128 registers of a pool of regs u32
//     registers (the window moves on by 128 per nest and wraps, so the
//     pool is reused; thousands of registers overall): 24 accumulators
//     set in the nest's preheader, updated in the loop bodies (live
//     around the back edges) and stored after the nest, and 104
//     temporaries recycled round-robin;
//   - every read is of a register defined earlier on every path from the
//     nest's entry (in a dominating block or earlier in the same block),
//     so no value is live from one use of a window to the next;
//   - four values computed after a nest are read by the next nest's
//     preheader, and each loop's predicate is set in its latch.
//
// So about 50-100 registers are live at block boundaries (as in real
// register-hungry kernels), globals number in the thousands, and the
// live ranges stay inside a nest or two however long the function is.
func LoopNest(n, regs int) *ir.Func {
	b := New("loops")
	params := b.Regs(16, ir.TU64)
	rs := b.Regs(max(regs, 160), ir.TU32)
	p := b.Regs(4, ir.TPred)
	rng := rand.New(rand.NewPCG(2, uint64(n)))
	count := 0
	op := func(i ir.InstrID) { count++ }
	entry := b.Block()
	for k, r := range params {
		op(b.MovImm(entry, r, int64(4096*k)))
	}
	carry := params[:4] // values the previous nest hands on
	const win, nacc = 128, 24
	nest := 0
	for count < n {
		w := make([]ir.RegID, win)
		for k := range w {
			w[k] = rs[(nest*win+k)%len(rs)]
		}
		nest++
		accs, temps := w[:nacc], w[nacc:]
		tnext := 0
		// avail: registers readable here (defined on every path from the
		// nest's entry); scopes are prefixes of it.
		avail := append([]ir.RegID{}, params...)
		pick := func() ir.RegID {
			if rng.IntN(4) == 0 {
				return avail[rng.IntN(len(avail))]
			}
			return avail[len(avail)-1-rng.IntN(min(len(avail), 12))]
		}
		body := func(blk ir.BlockID, m int) {
			for range m {
				switch rng.IntN(3) {
				case 0: // acc += x
					a := accs[rng.IntN(nacc)]
					op(b.Add(blk, a, a, pick()))
				case 1: // t = ld [param + x]
					t := temps[tnext%len(temps)]
					tnext++
					op(b.Load(blk, t, params[rng.IntN(len(params))]))
					avail = append(avail, t)
				default: // t = x + y
					t := temps[tnext%len(temps)]
					tnext++
					op(b.Add(blk, t, pick(), pick()))
					avail = append(avail, t)
				}
			}
		}
		pre := b.Block()
		for k, a := range accs {
			op(b.Add(pre, a, carry[k%len(carry)], params[k%len(params)]))
		}
		avail = append(avail, accs...)
		h1 := b.Block()
		body(h1, 4)
		s1 := len(avail)
		h2 := b.Block()
		body(h2, 4)
		s2 := len(avail)
		for range 4 {
			h3 := b.Block()
			body(h3, 5)
			s3 := len(avail)
			c := ir.BlockID(b.F.NumBlocks() + 1)
			op(b.Op(h3, ir.OpMov, "mov.pred", ir.RegDef(p[0]), ir.RegOp(pick())))
			op(b.CondBra(h3, p[0], c))
			bb := b.Block()
			body(bb, 8)
			avail = avail[:s3]
			b.Block() // c
			body(c, 5)
			op(b.Op(c, ir.OpMov, "mov.pred", ir.RegDef(p[1]), ir.RegOp(pick())))
			op(b.CondBra(c, p[1], h3))
			avail = avail[:s2]
		}
		l2 := b.Block()
		body(l2, 2)
		op(b.Op(l2, ir.OpMov, "mov.pred", ir.RegDef(p[2]), ir.RegOp(pick())))
		op(b.CondBra(l2, p[2], h2))
		avail = avail[:s1]
		l1 := b.Block()
		body(l1, 2)
		op(b.Op(l1, ir.OpMov, "mov.pred", ir.RegDef(p[3]), ir.RegOp(pick())))
		op(b.CondBra(l1, p[3], h1))
		post := b.Block()
		for _, a := range accs {
			op(b.Use(post, params[rng.IntN(len(params))], a))
		}
		next := make([]ir.RegID, 4)
		for k := range next {
			next[k] = temps[tnext%len(temps)]
			tnext++
			op(b.Add(post, next[k], accs[k], accs[nacc-1-k]))
		}
		carry = next
	}
	b.Ret(b.Block())
	b.F.ComputeCFG()
	return b.F
}
