package phases

import (
	"strconv"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// LoadStoreForwarding: a load whose bytes an earlier store wrote, or an
// earlier load read, with nothing in between that may write them,
// becomes a move of the value already in a register.
//
// Purpose: -O0 code reloads what it just stored (frames that escape stay
// in memory, and every access of a struct or array re-reads its element),
// reloads kernel parameters and the same global elements, and calls
// marshal values through .param variables; promotion (mem2reg.go) only
// covers frame slots that do not escape.
//
// Where: in SSA form (Form NeedsSSA), after the first SSA bundle
// (copy propagation and folding have made addresses canonical: equal
// addresses are the same register or symbol plus the same offset). In SSA
// a register has one value, so "the same base register" means the same
// address on every path, and a forwarded value register still holds the
// stored value at the load. Registers IntoSSA leaves alone (guarded
// definitions) are never used as bases or values. The next bundle's copy
// propagation removes the moves this pass leaves.
//
// Scope: the blocks are walked in reverse post-order; a block with one
// predecessor starts with what was available at the end of that
// predecessor (an extended basic block), any other block with nothing.
// Nothing flows across a join or a back edge.
//
// Addresses: [base+k] with base a register or a variable; a register
// defined once by "add p, imm", "sub p, imm" or "mov p" is replaced by p
// (the offset adjusted), and one defined by "mov r, var" by the variable,
// so [%rd+4] with %rd = %SPL + 8 and [__local_depot0+12] are one address.
// Two accesses certainly do not overlap when they are in different state
// spaces neither of which is generic, or have the same base and disjoint
// byte ranges, or name two different variables. Anything else may alias.
//
// What is available: after "st.T [a], v" (v a register of T's width, or
// an immediate that fits), the value v at a; after "ld.T d, [a]", d.
// What a later access does:
//   - ld.T d, [a] with the same space, base, offset and size available:
//     from a store, "mov d, v" (when d is wider than T, an integer load
//     extends: "cvt.uD.uT" or "cvt.sD.sT", as the load would have); from
//     a load of the same type and register width, "mov d, d0".
//   - st, atom, red: everything that may overlap the bytes written is
//     forgotten (an atom's or red's address that does not decode, all of
//     its space and of the generic space).
//   - a call forgets all, a barrier or fence (bar, barrier, membar,
//     fence) forgets .shared, .global and generic memory (.shared across
//     bar.sync never survives), any other instruction that may write
//     memory or order it (volatile accesses, opaque instructions, surface
//     stores, asynchronous copies) forgets all.
//
// Never forgotten: loads of memory no instruction of the kernel writes
// (ld.const, ld.global.nc, ldu, and a kernel's own ld.param): PTX makes
// .nc and .const read-only for the kernel's lifetime. Volatile, strong
// (ordering qualifier), guarded and vector accesses are never replaced;
// guarded and vector stores still make their bytes forgotten.
//
// After the walk, the halves of a 64-bit value assembled and split again
// are forwarded to the split (splits, below).
//
//	before: st.local.u32 [%rd3+4], %r1;  ld.param.u64 %rd9, [p];
//	        ld.local.u32 %r2, [%rd3+4];  ld.param.u64 %rd10, [p];
//	after:  st.local.u32 [%rd3+4], %r1;  ld.param.u64 %rd9, [p];
//	        mov.b32 %r2, %r1;            mov.b64 %rd10, %rd9;
func loadStoreForwarding(p *Pass) bool {
	f := p.F
	if !p.SSA() {
		return false
	}
	l := lfState{p: p, f: f}
	l.defs = lfDefTable(f, p.Scratch)
	order := p.A.Order()
	// The entries available at the end of a block that some later block
	// (in the order) starts with: ends[endAt[b]:endAt[b]+endLen[b]].
	extends := func(b, pred ir.BlockID) bool {
		preds := f.PredsOf(b)
		return len(preds) == 1 && preds[0] == pred && order.Reachable(pred) && order.Num[pred] < order.Num[b]
	}
	endAt := take[int32](p.Scratch, f.NumBlocks())
	endLen := take[int32](p.Scratch, f.NumBlocks())
	var ends []lfEntry
	for _, b := range order.RPO {
		l.avail = l.avail[:0]
		if preds := f.PredsOf(b); len(preds) == 1 && extends(b, preds[0]) {
			e := endAt[preds[0]]
			l.avail = append(l.avail, ends[e:e+endLen[preds[0]]]...)
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			l.instr(i)
		}
		for _, s := range f.SuccsOf(b) {
			if extends(s, b) {
				endAt[b], endLen[b] = int32(len(ends)), int32(len(l.avail))
				ends = append(ends, l.avail...)
				break
			}
		}
	}
	// Splits read def-use chains, asked for at the first split that
	// could apply (most kernels have none): fresh ones after forwarding
	// added uses.
	l.duStale = l.fromStore+l.fromLoad > 0
	l.splits()
	if l.fromStore+l.fromLoad+l.split == 0 {
		return false
	}
	p.A.Invalidate(instrAnalyses)
	if l.fromStore > 0 {
		p.Count("loads forwarded from stores", int64(l.fromStore))
	}
	if l.fromLoad > 0 {
		p.Count("redundant loads replaced", int64(l.fromLoad))
	}
	if l.split > 0 {
		p.Count("64-bit values split into their halves", int64(l.split))
	}
	return true
}

// lfMaxAvail bounds the entries kept (the oldest go first): a long block
// of distinct accesses would otherwise make every lookup linear in it.
const lfMaxAvail = 64

// An address: a base (register or variable operand, flags cleared) plus
// a byte offset, in a state space.
type lfAddr struct {
	space ir.Space
	base  ir.Operand
	off   int64
	size  int64
}

// An available value: the bytes at addr are in val.
type lfEntry struct {
	lfAddr
	inv     bool       // memory the kernel never writes
	nc      bool       // read through the non-coherent path
	val     ir.Operand // register or immediate
	valBits int        // width of the value register (immediates: size*8)
	load    bool       // from a load (ldType is its type)
	ldType  ir.Type
}

type lfState struct {
	p *Pass
	f *ir.Func
	// defs[r]: r's definitions (lfDefTable), what stable and address ask
	defs []uint32
	// du: the def-use chains splits read (nil until the first split that
	// could apply asks; chains cached before forwarding are stale when
	// duStale)
	du      *core.DefUse
	duStale bool
	// splitAt: the instructions splits looks at ("mov {a, b}, X" in the
	// reachable blocks, in reverse post-order), which the forwarding walk
	// collects
	splitAt []ir.InstrID
	avail   []lfEntry
	name    []byte // scratch for register names
	// counters
	fromStore, fromLoad, split int
}

// lfNoDef and lfManyDefs are the entries of a register defined nowhere
// and of one defined more than once in a definition table; any other
// entry is the one defining instruction plus one.
const (
	lfNoDef    = 0
	lfManyDefs = ^uint32(0)
)

// lfDefTable returns, per register of f, its definitions as the def-use
// chains count them (the instructions linked into the layout's blocks;
// a guarded definition is one): lfNoDef, lfManyDefs, or the one defining
// instruction plus one. The forwarding walk asks only this of the chains,
// and no pass edits a definition before the splits: a table of one word
// per register rather than the whole chains, whose rows (every use too)
// cost several times more to build and grow slower than linearly with
// the function (the scatter into per-register rows). The walk is in
// instruction order, which a table that counts does not mind and which
// reads the instruction arrays front to back (the layout's order jumps
// to the PHIs IntoSSA appended, per block).
func lfDefTable(f *ir.Func, sc *Scratch) []uint32 {
	defs := take[uint32](sc, f.NumRegs())
	placed := take[bool](sc, f.NumBlocks())
	for _, b := range f.Layout {
		placed[b] = true
	}
	var buf []ir.RegID
	for i := range ir.InstrID(f.NumInstrs()) {
		if b := f.Block[i]; b == ir.NoBlock || !placed[b] {
			continue
		}
		buf = core.AppendRegDefs(f, i, buf[:0])
		for _, r := range buf {
			if defs[r] == lfNoDef {
				defs[r] = uint32(i) + 1
			} else {
				defs[r] = lfManyDefs
			}
		}
	}
	return defs
}

// oneDef returns the one instruction defining r, false when r has none
// or several.
func (l *lfState) oneDef(r ir.RegID) (ir.InstrID, bool) {
	d := l.defs[r]
	if d == lfNoDef || d == lfManyDefs {
		return 0, false
	}
	return ir.InstrID(d - 1), true
}

// stable reports whether r holds one value wherever it is read.
func (l *lfState) stable(r ir.RegID) bool {
	d, ok := l.oneDef(r)
	return l.defs[r] == lfNoDef || ok && l.f.Guard[d] == ir.NoOperand
}

// address decodes the address operand of access i, canonicalizing its
// base, or reports false.
func (l *lfState) address(i ir.InstrID, size int64) (lfAddr, bool) {
	f := l.f
	var a lfAddr
	found := false
	for _, o := range f.Ops(i) {
		if o.Kind() != ir.KAddr {
			continue
		}
		if found {
			return a, false
		}
		found = true
		ad := f.Addrs[o.Index()]
		elems := f.ListElems(ad.Elems)
		if len(elems) != 1 || elems[0].Flags() != 0 {
			return a, false
		}
		a.base, a.off = elems[0], ad.Off
	}
	if !found {
		return a, false
	}
	a.space, a.size = f.Space[i], size
	switch a.base.Kind() {
	case ir.KSym:
		return a, true
	case ir.KReg:
	default:
		return a, false
	}
	if !l.stable(a.base.Reg()) {
		return a, false
	}
	for range 8 {
		d, ok := l.oneDef(a.base.Reg())
		if !ok {
			break
		}
		ops := f.Ops(d)
		if f.Guard[d] != ir.NoOperand || len(ops) < 2 {
			break
		}
		next := ops[1]
		switch {
		case f.Op[d] == ir.OpMov && len(ops) == 2 && next.Flags() == 0 && (next.Kind() == ir.KSym && l.varSym(next) || next.Kind() == ir.KReg && l.stable(next.Reg())):
		case (f.Op[d] == ir.OpAdd || f.Op[d] == ir.OpSub) && len(ops) == 3 && f.Mods[d] == 0 && !f.Type[d].IsFloat() &&
			next.Kind() == ir.KReg && next.Flags() == 0 && l.stable(next.Reg()) && ops[2].Kind() == ir.KImm && ops[2].Flags() == 0:
			k := int64(f.Imms[ops[2].Index()].Bits)
			if f.Type[d].Bits() == 32 {
				k = int64(int32(k))
			}
			if f.Op[d] == ir.OpSub {
				k = -k
			}
			a.off += k
		default:
			return a, true
		}
		a.base = next
		if next.Kind() == ir.KSym {
			break
		}
	}
	return a, true
}

// varSym reports whether symbol operand o names a variable (its address
// is a constant of the launch).
func (l *lfState) varSym(o ir.Operand) bool {
	return l.f.Mod.Syms[o.Index()].Kind == ir.SymVar
}

// mayAlias reports whether the bytes of a and b may overlap.
func mayAlias(a, b lfAddr) bool {
	if a.space != b.space && a.space != ir.SpaceGeneric && b.space != ir.SpaceGeneric {
		return false
	}
	if a.base == b.base && (a.space == b.space) {
		return a.off < b.off+b.size && b.off < a.off+a.size
	}
	if a.base.Kind() == ir.KSym && b.base.Kind() == ir.KSym && a.base != b.base {
		return false
	}
	return true
}

func (l *lfState) add(e lfEntry) {
	if len(l.avail) == lfMaxAvail {
		copy(l.avail, l.avail[1:])
		l.avail = l.avail[:lfMaxAvail-1]
	}
	l.avail = append(l.avail, e)
}

// forget drops the entries keep rejects; read-only memory stays.
func (l *lfState) forget(keep func(e *lfEntry) bool) {
	n := 0
	for k := range l.avail {
		if e := &l.avail[k]; e.inv || keep(e) {
			l.avail[n] = *e
			n++
		}
	}
	l.avail = l.avail[:n]
}

func (l *lfState) forgetOverlapping(a lfAddr) {
	l.forget(func(e *lfEntry) bool { return !mayAlias(e.lfAddr, a) })
}

func (l *lfState) forgetAll() { l.forget(func(*lfEntry) bool { return false }) }

// forgetSpace drops the entries of space sp and of generic accesses.
func (l *lfState) forgetSpace(sp ir.Space) {
	l.forget(func(e *lfEntry) bool {
		return e.space != sp && e.space != ir.SpaceGeneric && sp != ir.SpaceGeneric
	})
}

// instr updates the available values across i, rewriting i when it is a
// load whose value is available.
func (l *lfState) instr(i ir.InstrID) {
	f := l.f
	props := f.InstrProps(i)
	switch op := f.Op[i]; {
	case op == ir.OpPhi:
		return
	case op == ir.OpMov:
		// a split's candidates (splits): the walk visits the
		// instructions splits would, in the same order, and neither
		// forwarding nor a split makes or unmakes another
		if ops := f.Ops(i); len(ops) == 2 && ops[0].Kind() == ir.KList && ops[0].IsDef() {
			l.splitAt = append(l.splitAt, i)
		}
	case op == ir.OpLd || op == ir.OpLdu:
		l.load(i, props)
		return
	case op == ir.OpSt:
		l.store(i, props)
		return
	case op == ir.OpAtom || op == ir.OpRed:
		size := int64(f.Type[i].Bits() / 8)
		if a, ok := l.address(i, size); ok && size > 0 {
			l.forgetOverlapping(a)
		} else {
			l.forgetSpace(f.Space[i])
		}
		return
	case props&ir.PCall != 0:
		l.forgetAll()
		return
	case props&ir.PBarrier != 0 && props&(ir.POpaque|ir.PAsync) == 0:
		// bar.sync and fences order .shared and .global memory between
		// threads: what another thread stored becomes visible
		l.forget(func(e *lfEntry) bool { return e.space == ir.SpaceLocal || e.space == ir.SpaceParam })
		return
	}
	if props&(ir.PWritesMem|ir.PSideEffect|ir.POpaque|ir.PVolatile|ir.PAsync|ir.PBarrier) != 0 && props&ir.PBranch == 0 {
		l.forgetAll()
	}
}

// plain reports whether access i may be forwarded to or from: unguarded,
// scalar, not volatile or strong.
func (l *lfState) plain(i ir.InstrID, props ir.Prop) bool {
	f := l.f
	return f.Guard[i] == ir.NoOperand && f.Mods[i].Vec() == 0 && props&(ir.PVolatile|ir.POpaque|ir.PAsync) == 0 &&
		f.Mods[i].Order() == ir.OrderNone
}

func (l *lfState) store(i ir.InstrID, props ir.Prop) {
	f := l.f
	ops := f.Ops(i)
	size := int64(f.Type[i].Bits() / 8)
	if v := f.Mods[i].Vec(); v > 0 {
		size *= int64(v)
	}
	a, ok := l.address(i, size)
	if !ok || size == 0 {
		if f.Space[i] == ir.SpaceGeneric || !ok {
			l.forgetAll()
		} else {
			l.forgetSpace(f.Space[i])
		}
		return
	}
	l.forgetOverlapping(a)
	if !l.plain(i, props) || len(ops) != 2 {
		return
	}
	v := ops[1]
	bits := int(size * 8)
	switch v.Kind() {
	case ir.KReg:
		if v.Flags() != 0 || !l.stable(v.Reg()) || l.f.RegType[v.Reg()].Bits() != bits {
			return
		}
	case ir.KImm:
		if v.Flags() != 0 || bits < 64 && f.Imms[v.Index()].Bits>>uint(bits) != 0 {
			return
		}
	default:
		return
	}
	l.add(lfEntry{lfAddr: a, val: v, valBits: bits})
}

func (l *lfState) load(i ir.InstrID, props ir.Prop) {
	f := l.f
	ops := f.Ops(i)
	if !l.plain(i, props) || len(ops) != 2 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() {
		return
	}
	t := f.Type[i]
	size := int64(t.Bits() / 8)
	d := ops[0].Reg()
	db := f.RegType[d].Bits()
	a, ok := l.address(i, size)
	if !ok || size == 0 || db < int(size*8) {
		return
	}
	inv := props&ir.PInvariant != 0
	nc := f.Mods[i].Has(ir.ModNC)
	for k := len(l.avail) - 1; k >= 0; k-- {
		e := &l.avail[k]
		if e.lfAddr != a || e.nc != nc {
			continue
		}
		if l.forward(i, d, db, t, e) {
			return
		}
		break
	}
	if l.stable(d) {
		l.add(lfEntry{lfAddr: a, inv: inv, nc: nc, val: ir.RegOp(d), valBits: db, load: true, ldType: t})
	}
}

// forward rewrites load i (into d, db bits wide, of type t) to take the
// value of e; false when the widths or types do not allow it.
func (l *lfState) forward(i ir.InstrID, d ir.RegID, db int, t ir.Type, e *lfEntry) bool {
	f := l.f
	bits := t.Bits()
	var form ir.Form
	switch {
	case e.load && e.ldType == t && e.valBits == db:
		form = ir.Form{Op: ir.OpMov, Type: bitType(db)}
	case e.load:
		if e.valBits != bits || db != bits {
			return false
		}
		form = ir.Form{Op: ir.OpMov, Type: bitType(db)}
	case db == bits:
		form = ir.Form{Op: ir.OpMov, Type: bitType(db)}
		if e.val.Kind() == ir.KImm {
			form.Type = t // the load's own type reads the immediate as the store wrote it
		}
	case !t.IsFloat() && e.val.Kind() == ir.KReg:
		// the conversion reads the value as an integer of the load's
		// width: a float register there is an operand ptxas rejects
		// ("cvt.u64.u32 %rd, %f"), so a float stored and reloaded as an
		// integer into a wider register is not forwarded
		if !regsInterchangeable(intType(bits, t.IsSigned()), f.RegType[e.val.Reg()]) {
			return false
		}
		signed := t.IsSigned()
		form = ir.Form{Op: ir.OpCvt, Type: intType(db, signed), Type2: intType(bits, signed)}
	default:
		return false
	}
	if form.Type == ir.TNone || form.Op == ir.OpCvt && form.Type2 == ir.TNone || !l.p.Allow() {
		return false
	}
	f.SetForm(i, form)
	f.SetOps(i, []ir.Operand{ir.RegDef(d), e.val})
	if e.load {
		l.fromLoad++
	} else {
		l.fromStore++
	}
	return true
}

// Split forwarding. clang -O0 copies an 8-byte struct as one 64-bit value
// that promotion (mem2reg.go) then splits into its two 32-bit halves
// again: "mov.b64 {%a, %b}, %X". When %X was just assembled from the two
// halves, the halves are forwarded and the 64-bit value disappears:
//   - %X = "mov.b64 %X, {%x, %y}": the split becomes "mov.b32 %a, %x;
//     mov.b32 %b, %y";
//   - %X = "or.b64 %X, (shl.b64 %H, 32), %L" (either order), with %L a
//     zero-extended 32-bit value ("ld.u32"/"ld.b32" into a 64-bit
//     register, or "cvt.u64.u32 %L, %l") and %H any 32-bit value widened
//     the same ways (or "ld.s32", "cvt.s64.s32": the shift drops the
//     upper half): a load then writes a 32-bit register of its own, a
//     conversion's source is used, and the or and shl go.
//
// Each intermediate (X, the shifted half, the widened halves) must have
// the split, or the one instruction of the chain, as its only use, and
// one unguarded definition: then nothing else sees the rewrite.
func (l *lfState) splits() {
	f := l.f
	for _, u := range l.splitAt {
		if f.Op[u] != ir.OpMov || f.Guard[u] != ir.NoOperand || f.Mods[u] != 0 {
			continue
		}
		ops := f.Ops(u)
		if len(ops) != 2 || ops[0].Kind() != ir.KList || !ops[0].IsDef() || ops[1].Kind() != ir.KReg || ops[1].Flags() != 0 {
			continue
		}
		halves := f.ListElems(ops[0].Index())
		if len(halves) != 2 || halves[0].Kind() != ir.KReg || halves[1].Kind() != ir.KReg ||
			f.RegType[halves[0].Reg()].Bits() != 32 || f.RegType[halves[1].Reg()].Bits() != 32 {
			continue
		}
		if l.du == nil {
			if l.duStale {
				l.p.A.Invalidate(instrAnalyses)
			}
			l.du = l.p.A.DefUse()
		}
		d, ok := l.onlyFeeds(ops[1].Reg(), u)
		if !ok {
			continue
		}
		var src [2]ir.Operand
		var kill [3]ir.InstrID
		if !l.splitSources(d, &src, &kill) {
			continue
		}
		a, bb := halves[0].Reg(), halves[1].Reg()
		for _, k := range kill {
			if k != ir.NoInstr {
				f.Remove(k)
			}
		}
		f.SetForm(u, ir.Form{Op: ir.OpMov, Type: ir.TB32})
		f.SetOps(u, []ir.Operand{ir.RegDef(a), src[0]})
		nb := f.NewInstr(ir.Form{Op: ir.OpMov, Type: ir.TB32}, []ir.Operand{ir.RegDef(bb), src[1]})
		f.SetLoc(nb, f.InstrLoc(u))
		f.InsertAfter(u, nb)
		l.split++
	}
}

// onlyFeeds returns the one unguarded definition of r when r is read by
// instruction u alone.
func (l *lfState) onlyFeeds(r ir.RegID, u ir.InstrID) (ir.InstrID, bool) {
	defs, uses := l.du.Defs(r), l.du.Uses(r)
	if len(defs) != 1 || len(uses) != 1 || uses[0].Instr != u || uses[0].Loc.IsGuard() || l.f.Guard[defs[0].Instr] != ir.NoOperand {
		return 0, false
	}
	return defs[0].Instr, true
}

// splitSources finds the 32-bit halves of the 64-bit value d defines:
// src[0] the low, src[1] the high; kill lists the instructions that go
// once the split reads the halves (NoInstr where none).
func (l *lfState) splitSources(d ir.InstrID, src *[2]ir.Operand, kill *[3]ir.InstrID) bool {
	f := l.f
	ops := f.Ops(d)
	*kill = [3]ir.InstrID{ir.NoInstr, ir.NoInstr, ir.NoInstr}
	if f.Op[d] == ir.OpMov && len(ops) == 2 && ops[1].Kind() == ir.KList && !ops[1].IsDef() {
		el := f.ListElems(ops[1].Index())
		if len(el) != 2 {
			return false
		}
		for k, e := range el {
			if e.Kind() != ir.KReg || e.Flags() != 0 || f.RegType[e.Reg()].Bits() != 32 || !l.stable(e.Reg()) {
				return false
			}
			src[k] = e
		}
		kill[0] = d
		return true
	}
	if f.Op[d] != ir.OpOr || f.Type[d].Bits() != 64 || len(ops) != 3 || ops[1].Kind() != ir.KReg || ops[2].Kind() != ir.KReg {
		return false
	}
	for _, sh := range [2]int{1, 2} {
		lo := ops[3-sh]
		s, ok := l.onlyFeeds(ops[sh].Reg(), d)
		if !ok || f.Op[s] != ir.OpShl || f.Type[s].Bits() != 64 {
			continue
		}
		sops := f.Ops(s)
		if len(sops) != 3 || sops[1].Kind() != ir.KReg || sops[2].Kind() != ir.KImm || f.Imms[sops[2].Index()].Bits != 32 {
			continue
		}
		hi, ok1 := l.half(sops[1].Reg(), s, false)
		low, ok2 := l.half(lo.Reg(), d, true)
		if !ok1 || !ok2 {
			continue
		}
		src[0], src[1] = low, hi
		kill[0], kill[1] = d, s
		return true
	}
	return false
}

// half returns a 32-bit register holding the low half of the 64-bit
// register r, read by instruction u alone; zext asks that r's upper half
// be zero. A 32-bit load into r is changed to write a new 32-bit
// register instead.
func (l *lfState) half(r ir.RegID, u ir.InstrID, zext bool) (ir.Operand, bool) {
	f := l.f
	d, ok := l.onlyFeeds(r, u)
	if !ok {
		return 0, false
	}
	ops := f.Ops(d)
	t := f.Type[d]
	switch {
	case f.Op[d] == ir.OpCvt && len(ops) == 2 && t.Bits() == 64 && f.Type2[d].Bits() == 32 && ops[1].Kind() == ir.KReg &&
		ops[1].Flags() == 0 && f.RegType[ops[1].Reg()].Bits() == 32 && l.stable(ops[1].Reg()) && (!zext || !f.Type2[d].IsSigned()) && !t.IsFloat():
		return ops[1], true
	case f.Op[d] == ir.OpLd && len(ops) == 2 && ops[0].Kind() == ir.KReg && t.Bits() == 32 && !t.IsFloat() && (!zext || !t.IsSigned()) && f.Mods[d].Vec() == 0:
		// named after its register number ("%lf17"), like promotion's
		l.name = strconv.AppendUint(append(l.name[:0], "%lf"...), uint64(f.NumRegs()), 10)
		nr := f.AddReg(f.Mod.Strings.InternBytes(l.name), ir.TB32)
		ops[0] = ir.RegDef(nr)
		f.SetOps(d, ops)
		return ir.RegOp(nr), true
	}
	return 0, false
}
