// Package gen is a seeded, reproducible random kernel generator. It builds
// ir.Modules holding one .entry kernel with pointer parameters: nested
// bounded loops, divergent (thread-dependent) and uniform branches,
// predication, selp, many registers of mixed types, shared-memory
// exchange with bar.sync (only in uniform control flow), warp shuffles and
// votes (only in converged code), global loads and stores on
// thread-dependent addresses inside generous bounds, and redundancy on
// purpose (copies, common subexpressions, dead code, loop-invariant code,
// long live ranges). Branch conditions and trip counts mix the thread
// index and words of the input, so one input runs both sides of many
// branches and the differential check sees changed code run. Every
// kernel runs to completion in package sim.
//
// The kernel signature is
//
//	.entry gen_kernel(.param .u64 in, .param .u64 out, .param .u32 n)
//
// It reads in[0, InBytes) and writes out[gtid*Slots*4, (gtid+1)*Slots*4)
// for its global thread index gtid, so launches of up to MaxThreads
// threads stay within OutBytes.
package gen

import (
	"fmt"
	"math"
	"math/rand"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Layout contract of generated kernels.
const (
	Slots       = 32   // 32-bit output words per thread
	InWords     = 4096 // 32-bit input words read
	InBytes     = InWords * 4
	MaxThreads  = 1024 // threads in the whole grid
	OutBytes    = MaxThreads * Slots * 4
	SharedWords = 1024
)

// Config controls one generated kernel.
type Config struct {
	Seed int64
	// Size is the target number of instructions (at least ~40).
	Size int
	// MaxDepth bounds the nesting of loops and branches (default 3).
	MaxDepth int
	// Pool, when positive, bounds each pool of values the generator reads
	// from: past it, the oldest value is folded into a running checksum
	// (read once more, then never again) that the epilogue stores. Real
	// kernels keep a bounded number of values live (a thread has at most
	// 255 registers); with Pool 0 every value stays readable to the end,
	// so the number of live values grows with the kernel's size.
	Pool int
	// Frames gives the kernel a .local frame reached through generic
	// pointers, pointer pairs that alias or do not, and store-then-load
	// pairs on global memory (see frames.go).
	Frames bool
	// ConstLoops adds loops of a constant trip count over small .local
	// arrays indexed by their counter, in clang -O0's shape and in LLVM's
	// (see loops.go).
	ConstLoops bool
	// Inject selects kinds of redundancy to inject on purpose and record
	// (inject.go): what each redundancy phase removes. Zero injects
	// nothing and draws nothing for it.
	Inject Kind
	// Fold adds what GeneralOptimize's folding rules act on (fold.go):
	// float arithmetic and conversions on constants, comparisons of
	// constants (constant predicates) read by selects, and
	// compare-and-pick selects that are a min, a max or a clamp. Off,
	// nothing is drawn for it (the default kernels stay as they were).
	Fold bool
	// LongRanges adds regions where cheap values (special registers,
	// parameters, a shared address) and loaded ones are read before a
	// loop and used after it, the cheap ones read again there (see
	// longranges.go). Off, nothing is drawn for it.
	LongRanges bool
}

type pool struct {
	r32, r64, f32, pred []ir.RegID
}

type gen struct {
	rnd    *rand.Rand
	mod    *ir.Module
	f      *ir.Func
	cur    ir.BlockID
	budget int
	count  int
	depth  int
	max    int
	p      pool
	uni    map[ir.RegID]bool // CTA-uniform registers
	prot   map[ir.RegID]bool // never redefined (loop counters, bounds, bases)
	order  []ir.BlockID      // layout order, blocks placed as they are entered
	conv   bool              // current code is converged (no divergent branch around it)
	unif   bool              // current control flow is CTA-uniform
	loops  int               // loop nesting: injections stay outside loops
	nreg   int
	nlabel int
	pool   int
	acc    ir.RegID // the checksum retired values are folded into (Pool > 0)
	// fixed registers
	gIn, gOut, outBase, shBase, tid, ntid, gtid, rN, lane ir.RegID
	uw                                                    ir.RegID // a CTA-uniform input word
	sh                                                    ir.SymID
	fr                                                    *frame    // Frames: the frame, nil without
	dev                                                   *devFuncs // Frames: the device functions
	cl                                                    bool      // ConstLoops
	fold                                                  bool      // Fold
	long                                                  bool      // LongRanges
	ncl                                                   int       // constant loops made
	// Inject: the kinds to inject, the injections made, markers drawn
	injectKinds Kind
	injs        []Injection
	nmark       uint32
}

// Kernel generates a module with one kernel from cfg.
func Kernel(cfg Config) *ir.Module {
	m, _ := Generate(cfg)
	return m
}

// Generate generates a module with one kernel from cfg and returns the
// redundancy it injected (Config.Inject; none when zero).
func Generate(cfg Config) (*ir.Module, []Injection) {
	g := &gen{rnd: rand.New(rand.NewSource(cfg.Seed)), budget: max(cfg.Size, 40), max: cfg.MaxDepth, uni: map[ir.RegID]bool{}, prot: map[ir.RegID]bool{}, pool: cfg.Pool,
		injectKinds: cfg.Inject & AllKinds, cl: cfg.ConstLoops, fold: cfg.Fold, long: cfg.LongRanges}
	if g.max == 0 {
		g.max = 3
	}
	g.mod = &ir.Module{Version: "7.8", Target: "sm_80", AddressSize: 64}
	g.mod.Strings.Intern("")
	// the header the printer writes (ptxas wants .version first)
	for _, d := range []string{".version 7.8", ".target sm_80", ".address_size 64"} {
		g.mod.Items = append(g.mod.Items, ir.Item{Kind: ir.ItemDirective, Text: g.str(d)})
	}
	f := &ir.Func{Mod: g.mod, ID: 0, Name: "gen_kernel", Kind: ir.KindEntry, HasBody: true, Linkage: ir.LinkVisible}
	g.f = f
	g.mod.Funcs = append(g.mod.Funcs, f)
	f.Sym = g.sym(ir.Symbol{Name: g.str("gen_kernel"), Kind: ir.SymFunc, Owner: ir.NoFunc, Func: 0, Linkage: ir.LinkVisible})
	g.mod.Items = append(g.mod.Items, ir.Item{Kind: ir.ItemFunc, Func: 0})
	pin := g.sym(ir.Symbol{Name: g.str("gen_kernel_param_0"), Kind: ir.SymParam, Space: ir.SpaceParam, Type: ir.TU64, Owner: 0})
	pout := g.sym(ir.Symbol{Name: g.str("gen_kernel_param_1"), Kind: ir.SymParam, Space: ir.SpaceParam, Type: ir.TU64, Owner: 0})
	pn := g.sym(ir.Symbol{Name: g.str("gen_kernel_param_2"), Kind: ir.SymParam, Space: ir.SpaceParam, Type: ir.TU32, Owner: 0})
	f.Params = []ir.SymID{pin, pout, pn}
	g.sh = g.sym(ir.Symbol{Name: g.str("gen_sh"), Kind: ir.SymVar, Space: ir.SpaceShared, Type: ir.TB32, Align: 4,
		Dims: g.str(fmt.Sprintf("[%d]", SharedWords)), Elems: SharedWords, Owner: 0})
	f.Locals = append(f.Locals, g.sh)
	g.enter(f.AddBlock(ir.NoSym))
	g.conv, g.unif = true, true
	g.prologue(pin, pout, pn)
	if cfg.Frames {
		g.frameInit()
	}
	g.stmts(g.budget)
	g.epilogue()
	f.Layout = g.order
	return g.mod, g.injs
}

// Func returns the kernel of a generated module.
func Func(m *ir.Module) *ir.Func { return m.Funcs[0] }

func (g *gen) enter(b ir.BlockID) {
	g.cur = b
	g.order = append(g.order, b)
}

func (g *gen) str(s string) ir.StrID { return g.mod.Strings.Intern(s) }

func (g *gen) sym(s ir.Symbol) ir.SymID {
	g.mod.Syms = append(g.mod.Syms, s)
	return ir.SymID(len(g.mod.Syms) - 1)
}

func (g *gen) reg(t ir.Type) ir.RegID {
	prefix := map[ir.Type]string{ir.TB32: "%r", ir.TB64: "%rd", ir.TF32: "%f", ir.TPred: "%p"}[t]
	g.nreg++
	return g.f.AddReg(g.str(fmt.Sprintf("%s%d", prefix, g.nreg)), t)
}

func (g *gen) special(name string) ir.Operand {
	for i, s := range g.mod.Specials {
		if g.mod.Strings.Get(s) == name {
			return ir.Pack(ir.KSpecial, uint32(i), 0, false)
		}
	}
	g.mod.Specials = append(g.mod.Specials, g.str(name))
	return ir.Pack(ir.KSpecial, uint32(len(g.mod.Specials)-1), 0, false)
}

func (g *gen) imm(v int64) ir.Operand {
	return g.f.AddImm(ir.Imm{Bits: uint64(v), Kind: ir.ImmInt})
}

func (g *gen) fimm(v float32) ir.Operand {
	return g.f.AddImm(ir.Imm{Bits: uint64(math.Float32bits(v)), Kind: ir.ImmF32})
}

func use(r ir.RegID) ir.Operand { return ir.RegOp(r) }
func def(r ir.RegID) ir.Operand { return ir.RegDef(r) }

// emit appends an instruction to the current block.
func (g *gen) emit(mn string, ops ...ir.Operand) ir.InstrID {
	return g.emitG(ir.NoOperand, mn, ops...)
}

func (g *gen) emitG(guard ir.Operand, mn string, ops ...ir.Operand) ir.InstrID {
	f := g.f
	id := f.NewInstrText(mn, ops)
	f.Guard[id] = guard
	f.Append(g.cur, id)
	g.count++
	return id
}

func (g *gen) addr(base ir.RegID, off int64) ir.Operand {
	return g.f.AddAddr([]ir.Operand{use(base)}, off, off != 0)
}

func (g *gen) newBlock() ir.BlockID {
	g.nlabel++
	lab := g.sym(ir.Symbol{Name: g.str(fmt.Sprintf("$L__BB0_%d", g.nlabel)), Kind: ir.SymLabel, Owner: 0})
	b := g.f.AddBlock(lab)
	g.mod.Syms[lab].Block = b
	return b
}

func label(b ir.BlockID) ir.Operand { return ir.Pack(ir.KLabel, uint32(b), 0, false) }

func (g *gen) prologue(pin, pout, pn ir.SymID) {
	rin, rout := g.reg(ir.TB64), g.reg(ir.TB64)
	g.emit("ld.param.u64", def(rin), g.f.AddAddr([]ir.Operand{ir.Pack(ir.KSym, uint32(pin), 0, false)}, 0, false))
	g.emit("ld.param.u64", def(rout), g.f.AddAddr([]ir.Operand{ir.Pack(ir.KSym, uint32(pout), 0, false)}, 0, false))
	g.rN = g.reg(ir.TB32)
	g.emit("ld.param.u32", def(g.rN), g.f.AddAddr([]ir.Operand{ir.Pack(ir.KSym, uint32(pn), 0, false)}, 0, false))
	g.gIn, g.gOut = g.reg(ir.TB64), g.reg(ir.TB64)
	g.emit("cvta.to.global.u64", def(g.gIn), use(rin))
	g.emit("cvta.to.global.u64", def(g.gOut), use(rout))
	g.tid, g.ntid = g.reg(ir.TB32), g.reg(ir.TB32)
	ctaid := g.reg(ir.TB32)
	g.emit("mov.u32", def(g.tid), g.special("%tid.x"))
	g.emit("mov.u32", def(g.ntid), g.special("%ntid.x"))
	g.emit("mov.u32", def(ctaid), g.special("%ctaid.x"))
	g.gtid = g.reg(ir.TB32)
	g.emit("mad.lo.s32", def(g.gtid), use(ctaid), use(g.ntid), use(g.tid))
	off := g.reg(ir.TB64)
	g.emit("mul.wide.u32", def(off), use(g.gtid), g.imm(Slots*4))
	g.outBase = g.reg(ir.TB64)
	g.emit("add.s64", def(g.outBase), use(g.gOut), use(off))
	g.lane = g.reg(ir.TB32)
	g.emit("mov.u32", def(g.lane), g.special("%laneid"))
	shb := g.reg(ir.TB32)
	g.emit("mov.u32", def(shb), ir.Pack(ir.KSym, uint32(g.sh), 0, false))
	g.shBase = g.reg(ir.TB32)
	g.emit("mad.lo.s32", def(g.shBase), use(g.tid), g.imm(4), use(shb))
	// a word of the input at a fixed index: uniform, but different per
	// input, so uniform branches and trip counts vary with the input
	g.uw = g.reg(ir.TB32)
	g.emit("ld.global.u32", def(g.uw), g.addr(g.gIn, int64(4*g.rnd.Intn(InWords))))
	g.uni[g.rN], g.uni[g.ntid], g.uni[ctaid], g.uni[g.uw] = true, true, true, true
	g.prot[g.uw] = true
	// seed the pools
	g.p.r32 = append(g.p.r32, g.tid, g.gtid, g.lane, g.rN, ctaid)
	for range 3 {
		g.loadIn()
	}
	f := g.reg(ir.TF32)
	g.emit("cvt.rn.f32.u32", def(f), use(g.gtid))
	g.p.f32 = append(g.p.f32, f)
	g.loadInF()
	p := g.reg(ir.TPred)
	g.emit("setp.lt.u32", def(p), use(g.tid), g.imm(int64(g.rnd.Intn(64))))
	g.p.pred = append(g.p.pred, p)
	r64 := g.reg(ir.TB64)
	g.emit("cvt.u64.u32", def(r64), use(g.gtid))
	g.p.r64 = append(g.p.r64, r64)
	if g.pool > 0 {
		g.acc = g.reg(ir.TB32)
		g.emit("mov.b32", def(g.acc), g.imm(0))
	}
}

// fixedR32 is how many registers at the front of the 32-bit pool are the
// prologue's (thread index and friends): never retired.
const fixedR32 = 5

// retire folds the oldest values of every pool past g.pool into the
// checksum and drops them from the pool (a new array: saved pools keep
// theirs).
func (g *gen) retire() {
	for len(g.p.r32) > fixedR32+g.pool {
		g.emit("xor.b32", def(g.acc), use(g.acc), use(g.p.r32[fixedR32]))
		g.p.r32 = append(g.p.r32[:fixedR32:fixedR32], g.p.r32[fixedR32+1:]...)
	}
	for len(g.p.f32) > g.pool {
		g.emit("xor.b32", def(g.acc), use(g.acc), use(g.p.f32[0]))
		g.p.f32 = append([]ir.RegID(nil), g.p.f32[1:]...)
	}
	for len(g.p.r64) > g.pool {
		t := g.reg(ir.TB32)
		g.emit("cvt.u32.u64", def(t), use(g.p.r64[0]))
		g.emit("add.s32", def(g.acc), use(g.acc), use(t))
		g.p.r64 = append([]ir.RegID(nil), g.p.r64[1:]...)
	}
	for len(g.p.pred) > g.pool {
		t := g.reg(ir.TB32)
		g.emit("selp.b32", def(t), g.imm(3), g.imm(7), use(g.p.pred[0]))
		g.emit("mad.lo.s32", def(g.acc), use(g.acc), g.imm(31), use(t))
		g.p.pred = append([]ir.RegID(nil), g.p.pred[1:]...)
	}
}

func (g *gen) pick(l []ir.RegID) ir.RegID { return l[g.rnd.Intn(len(l))] }

// pick32 prefers recent registers (long live ranges still happen).
func (g *gen) pick32() ir.RegID {
	l := g.p.r32
	if g.rnd.Intn(3) == 0 {
		return l[g.rnd.Intn(len(l))]
	}
	return l[max(0, len(l)-1-g.rnd.Intn(min(len(l), 6)))]
}

// dst32 returns a destination: usually a new register, sometimes an
// existing one (registers are redefined, as in real PTX).
func (g *gen) dst32() (ir.RegID, bool) {
	if len(g.p.r32) > 8 && g.rnd.Intn(4) == 0 {
		r := g.p.r32[5+g.rnd.Intn(len(g.p.r32)-5)] // never the fixed ones
		if !g.uni[r] && !g.prot[r] {
			return r, false
		}
	}
	return g.reg(ir.TB32), true
}

func (g *gen) def32(r ir.RegID, fresh bool) {
	if fresh {
		g.p.r32 = append(g.p.r32, r)
	}
}

func (g *gen) loadIn() {
	idx := g.reg(ir.TB32)
	g.emit("and.b32", def(idx), use(g.pick32()), g.imm(InWords-1))
	off := g.reg(ir.TB64)
	g.emit("mul.wide.u32", def(off), use(idx), g.imm(4))
	a := g.reg(ir.TB64)
	g.emit("add.s64", def(a), use(g.gIn), use(off))
	r := g.reg(ir.TB32)
	g.emit("ld.global.u32", def(r), g.addr(a, 0))
	g.p.r32 = append(g.p.r32, r)
}

func (g *gen) loadInF() {
	idx := g.reg(ir.TB32)
	g.emit("and.b32", def(idx), use(g.pick32()), g.imm(InWords-4))
	off := g.reg(ir.TB64)
	g.emit("mul.wide.u32", def(off), use(idx), g.imm(4))
	a := g.reg(ir.TB64)
	g.emit("add.s64", def(a), use(g.gIn), use(off))
	if g.rnd.Intn(2) == 0 {
		r := g.reg(ir.TF32)
		g.emit("ld.global.nc.f32", def(r), g.addr(a, 4))
		g.p.f32 = append(g.p.f32, r)
		return
	}
	r1, r2 := g.reg(ir.TF32), g.reg(ir.TF32)
	lst := g.f.AddList([]ir.Operand{def(r1), def(r2)})
	g.emit("ld.global.v2.f32", ir.Pack(ir.KList, lst, 0, true), g.addr(a, 8))
	g.p.f32 = append(g.p.f32, r1, r2)
}

func (g *gen) store32(v ir.RegID, mn string) {
	slot := int64(g.rnd.Intn(Slots))
	g.emit(mn, g.addr(g.outBase, slot*4), use(v))
}

// stmts emits statements until n instructions have been added.
func (g *gen) stmts(n int) {
	end := g.count + n
	for g.count < end {
		if g.pool > 0 {
			g.retire()
		}
		left := end - g.count
		if g.fr != nil && g.rnd.Intn(100) < 15 {
			g.frameOp()
			continue
		}
		if g.cl && g.conv && g.depth < g.max && left > 24 && g.rnd.Intn(100) < 8 {
			g.constLoop(left)
			continue
		}
		if g.long && g.conv && g.depth < g.max && left > 40 && g.rnd.Intn(100) < 20 {
			g.longRanges(left)
			continue
		}
		if g.fold && g.rnd.Intn(100) < foldPercent {
			g.foldOp()
			continue
		}
		if g.injectKinds != 0 && g.loops == 0 && g.rnd.Intn(100) < injectPercent {
			g.inject(left)
			continue
		}
		k := g.rnd.Intn(100)
		switch {
		case k < 6 && g.depth < g.max && left > 12:
			g.ifStmt(left)
		case k < 10 && g.depth < g.max && left > 12:
			g.loop(left)
		case k < 13 && g.unif && g.conv:
			g.sharedExchange()
		case k < 17 && g.conv:
			g.warpOp()
		case k < 22:
			g.loadIn()
		case k < 26:
			g.store32(g.pick32(), "st.global.u32")
		case k < 28:
			g.loadInF()
		case k < 40:
			g.floatOp()
		case k < 46:
			g.predOp()
		case k < 50:
			g.redundancy()
		case k < 53:
			g.op64()
		default:
			g.intOp()
		}
	}
}

var intBin = []string{"add.s32", "sub.s32", "mul.lo.s32", "and.b32", "or.b32", "xor.b32", "min.s32", "max.u32",
	"mul.hi.u32", "mul.hi.s32", "shl.b32", "shr.u32", "shr.s32", "min.u32", "max.s32", "add.u32", "rem.u32", "div.u32"}

func (g *gen) intOp() {
	d, fresh := g.dst32()
	var guard = ir.NoOperand
	if !fresh && len(g.p.pred) > 0 && g.rnd.Intn(3) == 0 {
		guard = use(g.pick(g.p.pred))
		if g.rnd.Intn(2) == 0 {
			guard = guard.WithFlags(ir.FlagNot)
		}
	}
	a, b := g.pick32(), g.pick32()
	switch k := g.rnd.Intn(20); {
	case k < 11:
		op := intBin[g.rnd.Intn(len(intBin))]
		var bo ir.Operand
		if g.rnd.Intn(3) == 0 {
			bo = g.imm(int64(g.rnd.Intn(70)) - 3)
		} else {
			bo = use(b)
		}
		if strings.HasPrefix(op, "rem") || strings.HasPrefix(op, "div") {
			t := g.reg(ir.TB32)
			g.emit("or.b32", def(t), use(b), g.imm(1))
			bo = use(t)
		}
		g.emitG(guard, op, def(d), use(a), bo)
	case k < 13:
		g.emitG(guard, "mad.lo.s32", def(d), use(a), use(b), use(g.pick32()))
	case k < 14:
		g.emitG(guard, "selp.b32", def(d), use(a), use(b), use(g.pick(g.p.pred)))
	case k < 15:
		g.emitG(guard, "bfe.u32", def(d), use(a), g.imm(int64(g.rnd.Intn(40))), g.imm(int64(g.rnd.Intn(40))))
	case k < 16:
		g.emitG(guard, "prmt.b32", def(d), use(a), use(b), g.imm(int64(g.rnd.Intn(0x10000))))
	case k < 17:
		g.emitG(guard, []string{"popc.b32", "clz.b32", "not.b32", "neg.s32", "brev.b32", "abs.s32"}[g.rnd.Intn(6)], def(d), use(a))
	case k < 18:
		g.emitG(guard, "lop3.b32", def(d), use(a), use(b), use(g.pick32()), g.imm(int64(g.rnd.Intn(256))))
	case k < 19:
		g.emitG(guard, "shf.l.wrap.b32", def(d), use(a), use(b), use(g.pick32()))
	default:
		g.emitG(guard, "bfi.b32", def(d), use(a), use(b), g.imm(int64(g.rnd.Intn(34))), g.imm(int64(g.rnd.Intn(34))))
	}
	g.def32(d, fresh)
}

func (g *gen) floatOp() {
	fs := g.p.f32
	a, b := g.pick(fs), g.pick(fs)
	d := g.reg(ir.TF32)
	switch k := g.rnd.Intn(14); {
	case k < 3:
		g.emit([]string{"add.f32", "sub.f32", "mul.f32"}[k], def(d), use(a), use(b))
	case k < 5:
		g.emit("fma.rn.f32", def(d), use(a), use(b), use(g.pick(fs)))
	case k < 6:
		g.emit([]string{"min.f32", "max.f32"}[g.rnd.Intn(2)], def(d), use(a), use(b))
	case k < 7:
		g.emit([]string{"abs.f32", "neg.f32"}[g.rnd.Intn(2)], def(d), use(a))
	case k < 8:
		g.emit("cvt.rn.f32.s32", def(d), use(g.pick32()))
	case k < 9:
		r, fresh := g.dst32()
		g.emit([]string{"cvt.rzi.s32.f32", "cvt.rni.u32.f32", "cvt.rmi.s32.f32"}[g.rnd.Intn(3)], def(r), use(a))
		g.def32(r, fresh)
		return
	case k < 10:
		g.emit("mul.f32", def(d), use(a), g.fimm(float32(g.rnd.Intn(9))-4.5))
	case k < 11:
		g.emit([]string{"add.rz.f32", "mul.rp.f32", "div.rn.f32", "sqrt.rn.f32", "add.sat.f32"}[g.rnd.Intn(5)], def(d), use(a), use(b))
		if strings.HasPrefix(g.f.Str(g.f.Mnemonic[len(g.f.Op)-1]), "sqrt") {
			g.f.SetOps(ir.InstrID(len(g.f.Op)-1), []ir.Operand{def(d), use(a)})
		}
	case k < 12:
		g.emit([]string{"ex2.approx.f32", "rcp.approx.f32", "sin.approx.f32", "lg2.approx.ftz.f32"}[g.rnd.Intn(4)], def(d), use(a))
	default:
		r, fresh := g.dst32()
		g.emit("mov.b32", def(r), use(a))
		g.def32(r, fresh)
		return
	}
	g.p.f32 = append(g.p.f32, d)
}

func (g *gen) predOp() {
	p := g.reg(ir.TPred)
	switch k := g.rnd.Intn(6); {
	case k < 3:
		cmp := []string{"lt", "le", "gt", "ge", "eq", "ne"}[g.rnd.Intn(6)]
		ty := []string{"s32", "u32"}[g.rnd.Intn(2)]
		var bo ir.Operand = use(g.pick32())
		if g.rnd.Intn(2) == 0 {
			bo = g.imm(int64(g.rnd.Intn(100)))
		}
		g.emit("setp."+cmp+"."+ty, def(p), use(g.pick32()), bo)
	case k < 4:
		cmp := []string{"lt", "gtu", "equ", "num", "ge"}[g.rnd.Intn(5)]
		g.emit("setp."+cmp+".f32", def(p), use(g.pick(g.p.f32)), use(g.pick(g.p.f32)))
	case k < 5:
		q := g.pick(g.p.pred)
		qo := use(q)
		if g.rnd.Intn(2) == 0 {
			qo = qo.WithFlags(ir.FlagNot)
		}
		g.emit("setp.ne.and.s32", def(p), use(g.pick32()), g.imm(0), qo)
	default:
		g.emit([]string{"and.pred", "or.pred", "xor.pred"}[g.rnd.Intn(3)], def(p), use(g.pick(g.p.pred)), use(g.pick(g.p.pred)))
	}
	g.p.pred = append(g.p.pred, p)
}

func (g *gen) op64() {
	d := g.reg(ir.TB64)
	switch g.rnd.Intn(4) {
	case 0:
		g.emit("mul.wide.s32", def(d), use(g.pick32()), use(g.pick32()))
	case 1:
		g.emit("add.s64", def(d), use(g.pick(g.p.r64)), use(g.pick(g.p.r64)))
	case 2:
		g.emit("shr.u64", def(d), use(g.pick(g.p.r64)), use(g.pick32()))
	default:
		r, fresh := g.dst32()
		g.emit("cvt.u32.u64", def(r), use(g.pick(g.p.r64)))
		g.def32(r, fresh)
		return
	}
	g.p.r64 = append(g.p.r64, d)
}

// redundancy: copies, common subexpressions, dead code.
func (g *gen) redundancy() {
	a, b := g.pick32(), g.pick32()
	switch g.rnd.Intn(4) {
	case 0: // copy chain
		c1, c2 := g.reg(ir.TB32), g.reg(ir.TB32)
		g.emit("mov.b32", def(c1), use(a))
		g.emit("mov.b32", def(c2), use(c1))
		g.p.r32 = append(g.p.r32, c2)
	case 1: // common subexpression
		x, y := g.reg(ir.TB32), g.reg(ir.TB32)
		g.emit("add.s32", def(x), use(a), use(b))
		g.intOp()
		g.emit("add.s32", def(y), use(a), use(b))
		g.p.r32 = append(g.p.r32, x, y)
	case 2: // dead code
		x := g.reg(ir.TB32)
		g.emit("mul.lo.s32", def(x), use(a), use(b))
		y := g.reg(ir.TB32)
		g.emit("xor.b32", def(y), use(x), g.imm(0x55))
	default: // invariant-looking arithmetic on uniform values
		x := g.reg(ir.TB32)
		g.emit("shl.b32", def(x), use(g.ntid), g.imm(2))
		y := g.reg(ir.TB32)
		g.emit("add.s32", def(y), use(x), use(g.rN))
		g.p.r32 = append(g.p.r32, y)
	}
}

func (g *gen) sharedExchange() {
	g.emit("st.shared.u32", g.addr(g.shBase, 0), use(g.pick32()))
	g.emit("bar.sync", g.imm(0))
	t := g.reg(ir.TB32)
	g.emit("add.s32", def(t), use(g.tid), g.imm(int64(1+g.rnd.Intn(40))))
	i := g.reg(ir.TB32)
	g.emit("rem.u32", def(i), use(t), use(g.ntid))
	a := g.reg(ir.TB32)
	shb := g.reg(ir.TB32)
	g.emit("mov.u32", def(shb), ir.Pack(ir.KSym, uint32(g.sh), 0, false))
	g.emit("mad.lo.s32", def(a), use(i), g.imm(4), use(shb))
	r := g.reg(ir.TB32)
	g.emit("ld.shared.u32", def(r), g.addr(a, 0))
	g.emit("bar.sync", g.imm(0))
	g.p.r32 = append(g.p.r32, r)
}

func (g *gen) warpOp() {
	m := g.reg(ir.TB32)
	g.emit("activemask.b32", def(m))
	d := g.reg(ir.TB32)
	switch g.rnd.Intn(5) {
	case 0:
		g.emit("shfl.sync.bfly.b32", def(d), use(g.pick32()), g.imm(int64(1<<g.rnd.Intn(5))), g.imm(31), use(m))
	case 1:
		g.emit("shfl.sync.down.b32", def(d), use(g.pick32()), g.imm(int64(g.rnd.Intn(33))), g.imm(31), use(m))
	case 2:
		g.emit("shfl.sync.idx.b32", def(d), use(g.pick32()), use(g.pick32()), g.imm(31), use(m))
	case 3:
		g.emit("vote.sync.ballot.b32", def(d), use(g.pick(g.p.pred)), use(m))
	default:
		p := g.reg(ir.TPred)
		g.emit("vote.sync.any.pred", def(p), use(g.pick(g.p.pred)), use(m))
		g.p.pred = append(g.p.pred, p)
		return
	}
	g.p.r32 = append(g.p.r32, d)
}

func (g *gen) save() (pool, bool, bool) {
	return pool{g.p.r32[:len(g.p.r32):len(g.p.r32)], g.p.r64[:len(g.p.r64):len(g.p.r64)],
		g.p.f32[:len(g.p.f32):len(g.p.f32)], g.p.pred[:len(g.p.pred):len(g.p.pred)]}, g.conv, g.unif
}

func (g *gen) restore(p pool, conv, unif bool) { g.p, g.conv, g.unif = p, conv, unif }

// ifStmt: if/else, divergent (thread-dependent) or uniform.
func (g *gen) ifStmt(left int) { g.ifStmtWith(left, nil) }

// ifStmtWith is ifStmt that calls thenTail (when not nil) at the end of
// the then-arm, before its branch to the join.
func (g *gen) ifStmtWith(left int, thenTail func()) {
	div := g.rnd.Intn(3) != 0
	p := g.reg(ir.TPred)
	switch {
	case div:
		// the thread index mixed with an input value: some threads of
		// every warp take each side, whatever the input
		t, u := g.reg(ir.TB32), g.reg(ir.TB32)
		g.emit("xor.b32", def(t), use(g.tid), use(g.pick32()))
		g.emit("and.b32", def(u), use(t), g.imm(3))
		g.emit("setp.lt.u32", def(p), use(u), g.imm(int64(1+g.rnd.Intn(3))))
	default:
		// n mixed with an input word: uniform, and either side depending
		// on the input
		t, u := g.reg(ir.TB32), g.reg(ir.TB32)
		g.emit("add.s32", def(t), use(g.rN), use(g.uw))
		g.emit("and.b32", def(u), use(t), g.imm(15))
		g.emit("setp.gt.u32", def(p), use(u), g.imm(int64(g.rnd.Intn(15))))
	}
	thenB, elseB, join := g.newBlock(), g.newBlock(), g.newBlock()
	// layout: cur -> then -> else -> join (fix the layout order)
	g.emitG(use(p).WithFlags(ir.FlagNot), "bra.uni", label(elseB))
	if div {
		g.f.SetForm(ir.InstrID(len(g.f.Op)-1), ir.Form{Op: ir.OpBra})
	}
	saved, conv, unif := g.save()
	g.depth++
	if div {
		g.conv, g.unif = false, false
	}
	body := min(left/3, 400)
	g.enter(thenB)
	g.stmts(1 + g.rnd.Intn(body))
	if thenTail != nil {
		thenTail()
	}
	g.emit("bra.uni", label(join))
	g.restore(saved, conv, unif)
	if div {
		g.conv, g.unif = false, false
	}
	g.enter(elseB)
	if g.rnd.Intn(3) != 0 {
		g.stmts(1 + g.rnd.Intn(body))
	}
	g.restore(saved, conv, unif)
	g.depth--
	g.enter(join)
}

// loop: a counted loop, uniform or divergent trip count (1..4).
func (g *gen) loop(left int) {
	div := g.rnd.Intn(2) == 0
	bound := g.reg(ir.TB32)
	t := g.reg(ir.TB32)
	if div {
		// an input value plus the thread index: trip counts differ
		// between threads of a warp
		g.emit("add.s32", def(t), use(g.pick32()), use(g.tid))
		g.emit("and.b32", def(bound), use(t), g.imm(3))
	} else {
		g.emit("add.s32", def(t), use(g.rN), use(g.uw))
		g.emit("and.b32", def(bound), use(t), g.imm(3))
		g.uni[bound] = true
	}
	i := g.reg(ir.TB32)
	g.emit("mov.u32", def(i), g.imm(0))
	g.prot[i], g.prot[bound] = true, true
	if !div {
		g.uni[i] = true
	}
	body := g.newBlock()
	saved, conv, unif := g.save()
	g.depth++
	g.enter(body)
	if div {
		g.conv, g.unif = false, false
	}
	// the loop counter is readable but never redefined by the body
	g.p.r32 = append(g.p.r32[:len(g.p.r32):len(g.p.r32)], i)
	g.loops++
	g.stmts(1 + g.rnd.Intn(min(left/4, 150)))
	g.loops--
	g.emit("add.s32", def(i), use(i), g.imm(1))
	p := g.reg(ir.TPred)
	g.emit("setp.le.u32", def(p), use(i), use(bound))
	br := "bra.uni"
	if div {
		br = "bra"
	}
	g.emitG(use(p), br, label(body))
	g.restore(saved, conv, unif)
	g.depth--
	g.enter(g.newBlock())
}

func (g *gen) epilogue() {
	h := g.reg(ir.TB32)
	g.emit("mov.u32", def(h), g.imm(0x9e3779b9))
	if g.pool > 0 {
		g.emit("xor.b32", def(h), use(h), use(g.acc))
	}
	for _, r := range g.p.r32 {
		g.emit("xor.b32", def(h), use(h), use(r))
		g.emit("mul.lo.s32", def(h), use(h), g.imm(16777619))
	}
	for _, r := range g.p.f32 {
		g.emit("xor.b32", def(h), use(h), use(r))
		g.emit("shf.l.wrap.b32", def(h), use(h), use(h), g.imm(5))
	}
	for _, r := range g.p.r64 {
		t := g.reg(ir.TB32)
		g.emit("cvt.u32.u64", def(t), use(r))
		g.emit("add.s32", def(h), use(h), use(t))
	}
	for _, p := range g.p.pred {
		t := g.reg(ir.TB32)
		g.emit("selp.b32", def(t), g.imm(3), g.imm(7), use(p))
		g.emit("mad.lo.s32", def(h), use(h), g.imm(31), use(t))
	}
	g.emit("st.global.u32", g.addr(g.outBase, (Slots-1)*4), use(h))
	g.emit("ret")
}
