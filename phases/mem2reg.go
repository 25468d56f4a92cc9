package phases

import (
	"slices"
	"strconv"

	"github.com/ptxopt/ptxopt/ir"
)

// ConvertMemoryToRegister: promotion of .local frame slots to registers
// (ptxas runs it inside GeneralOptimizeMid under the name
// ConvertMemoryToRegisterOrUniform; here it is a sub-pass of the
// GeneralOptimize family, addressable by name).
//
// Purpose: PTX from -O0 compilers keeps every variable in a .local frame
// (clang: "__local_depot"), reached directly ("[%SPL+k]", or
// "[__local_depot0+k]") or through the generic frame pointer ("cvta.local
// %SP, %SPL" then "st.u32 [%SP+48]"). Each slot whose address does not
// escape becomes a register; the loads and stores become moves, and a
// frame all of whose slots went away disappears with its set-up.
//
// Frame pointers. A register is a frame pointer of a .local variable S of
// the function, at byte offset k, local or generic, when it has exactly
// one definition, unguarded, which is one of: "mov r, S" (local, 0);
// "cvta.local r, p" (generic, p's offset); "cvta.to.local r, p" (local);
// "mov r, p"; "add r, p, c" or "add r, c, p" or "sub r, p, c" with c an
// integer immediate or a register whose one unguarded definition is "mov
// c, imm" (an index that folded to a constant: the "indexed" case);
// "or r, p, c" with c an immediate below S's alignment A whose bits are
// clear in k mod A (then the or is an add: S and the generic local window
// are A-aligned, which is what the compilers that emit this rely on).
//
// Escape. Every use of a frame pointer of S, and every other appearance
// of S itself, must be one of: the base of a plain ld or st (no ordering
// qualifier; a .v2/.v4 access counts as one access per element) in the
// matching state space (ld.local/st.local
// for a local pointer or S itself, generic ld/st for a generic one) whose
// bytes lie inside S; or the source of a definition above. Anything else
// (the pointer stored, passed to a call, compared, indexed by a value not
// known, an access out of S's bounds) makes S escape: none of it is
// touched.
//
// Slots. The accesses of a non-escaping S are grouped into clusters of
// overlapping byte ranges. A cluster whose accesses all have one offset
// and size becomes one register of that width (16 bits for one byte). A
// cluster of mixed sizes is split exactly when one piece size p (2 or 4
// bytes, the smallest access) tiles it: every access starts on a piece
// and covers 1, 2 or 4 whole pieces (8 bytes at most); a wide access then
// packs or unpacks the pieces ("mov.b64 %rd, {%a, %b}", "mov.b64 {%a,
// %b}, %rd"). A cluster that pieces do not tile, whose stores all write
// one whole 4- or 8-byte word and whose other loads read bytes inside it
// into a register of the word's width, becomes one register, the narrow
// loads bit-field extracts (planSubword), or, for the low bytes into a
// narrower register, conversions. Any other cluster stays in
// memory, and so does S's frame;
// when S has vector accesses, nothing of S is promoted then (a vector
// instruction moves all its elements or none).
//
// Rewrites, per lane exact: a store "st.t [a], v" becomes "mov.bW %s, v"
// (W the slot width; an integer store of a wider register truncates with
// cvt). A load "ld.t %d, [a]" becomes "mov.bW %d, %s" when %d has the
// slot's width, else (integer loads into a wider register) the extension
// the load made: "cvt.uD.uW" for unsigned and bit types, "cvt.sD.sW" for
// signed ones. A guarded access keeps its guard: a lane whose guard is
// false neither stored nor loaded, and neither moves. A vector access
// becomes one move per element, in element order, under its guard. A load of a slot
// never stored reads an undefined register where it read undefined memory.
//
// Cost model (the seed's, for phase 37): removing a memory access is
// worth 1.0; a move put in its place costs MovWeightForConvertMemToReg
// (default 0.25), a conversion, pack or unpack costs 1.0. A cluster is
// promoted when what it saves is positive. Clusters reached through an
// indexed pointer are promoted only while their bytes in all stay within
// ConvertMemoryToRegIndexedSizeLimit.
//
// When every access of S was rewritten, the frame-pointer definitions of S
// (now unused) are deleted and S leaves the function's locals: the frame
// disappears from the output and from the .local bytes of the report.
//
// What it does not do: promote slots of a frame that escapes in part
// (a pointer passed to a call makes the whole variable escape: inlining
// first is what helps: OriInline), or arrays indexed by values that are
// not constants; bytes other than the low ones read out of a wider slot
// into a narrower register (ld.u8 of byte 1 of a 32-bit word into a
// 16-bit register), or out of a slot also written in parts, are left in
// memory.
//
//	before: mov.u64 %SPL, __local_depot0;  cvta.local.u64 %SP, %SPL;
//	        st.u32 [%SP+4], %r1;  ld.u32 %r2, [%SP+4];
//	after:  mov.b32 %m, %r1;  mov.b32 %r2, %m;   (no depot, no %SP)

// convertMemoryToRegister runs the promotion on p's function and reports
// whether it changed anything. It is the sub-pass the GeneralOptimize
// bundle calls; the pipeline slot ConvertMemoryToRegister runs it alone.
//
// Rounds: a frame pointer kept in another frame slot (a pointer argument
// of an inlined call lands in a .local argument variable) makes its frame
// escape until that slot is promoted; the pointer then moves through
// registers, and the next round promotes the frame it points into. The
// pass runs rounds while a round promoted a slot and some variable
// escaped, at most m2rRounds.
func convertMemoryToRegister(p *Pass) bool {
	f := p.F
	var m *mem2reg
	changed := false
	var slots, rewritten, frames, bytes int64
	for range m2rRounds {
		m = &mem2reg{f: f, p: p}
		if !m.findCandidates() {
			break
		}
		m.movWeight = p.Knobs.Double(MovWeightForConvertMemToReg)
		m.indexedLimit = p.Knobs.Int(ConvertMemoryToRegIndexedSizeLimit)
		m.findPointers()
		m.classify()
		escaped := false
		for c := range m.cands {
			if m.promote(int32(c + 1)) {
				changed = true
			}
			escaped = escaped || m.cands[c].escaped
		}
		slots, rewritten, frames, bytes = slots+m.slots, rewritten+m.rewritten, frames+m.frames, bytes+m.bytes
		if m.slots == 0 || !escaped {
			break
		}
	}
	m.slots, m.rewritten, m.frames, m.bytes = slots, rewritten, frames, bytes
	if changed {
		p.A.Invalidate(instrAnalyses)
	}
	if m.slots > 0 {
		p.Count("slots promoted", m.slots)
		p.Count("accesses rewritten", m.rewritten)
	}
	if m.frames > 0 {
		p.Count("frames removed", m.frames)
		p.Count("local bytes removed", m.bytes)
	}
	return changed
}

// m2rRounds bounds the rounds of convertMemoryToRegister.
const m2rRounds = 3

// A frame variable the pass may promote.
type m2rCand struct {
	sym     ir.SymID
	size    int64
	align   int64
	escaped bool
	indexed bool // some access reaches it through an indexed pointer
}

// A frame pointer: register r points at cands[cand] + off.
type m2rPtr struct {
	cand    int32 // index+1 into cands; 0: not a frame pointer
	off     int64
	generic bool
	indexed bool
}

// An access of a candidate.
type m2rAccess struct {
	instr   ir.InstrID
	cand    int32
	off     int64
	size    int64
	store   bool
	indexed bool
	vec     uint8 // element count of a vector access (0: scalar)
	elem    uint8 // which element this is
}

// A planned rewrite: access instr (element elem) becomes form with ops.
type m2rEdit struct {
	instr ir.InstrID
	elem  uint8
	form  ir.Form
	ops   [4]ir.Operand
	nops  uint8 // operands used in ops (0: 2)
}

// operands returns the operands of the planned instruction.
func (e *m2rEdit) operands() []ir.Operand {
	if e.nops == 0 {
		return e.ops[:2]
	}
	return e.ops[:e.nops]
}

type mem2reg struct {
	f            *ir.Func
	p            *Pass
	movWeight    float64
	indexedLimit int64
	cands        []m2rCand
	ptr          []m2rPtr     // by register
	defCount     []uint8      // by register: 0, 1, 2 (= many)
	defOf        []ir.InstrID // by register: the one definition
	acc          []m2rAccess
	derive       []ir.InstrID // frame-pointer definitions
	slots        int64
	rewritten    int64
	frames       int64
	bytes        int64
	name         []byte
	edits        []m2rEdit
}

// findCandidates lists the function's .local variables of known size.
func (m *mem2reg) findCandidates() bool {
	f := m.f
	for _, s := range f.Locals {
		sym := &f.Mod.Syms[s]
		if sym.Space != ir.SpaceLocal || sym.Kind != ir.SymVar || sym.Owner != f.ID {
			continue
		}
		size := int64(symBytes(sym))
		if sym.Dims != 0 && sym.Elems <= 0 {
			continue
		}
		align := int64(sym.Align)
		if align == 0 {
			align = int64(max(1, sym.Type.Bits()/8))
		}
		m.cands = append(m.cands, m2rCand{sym: s, size: size, align: align})
	}
	return len(m.cands) > 0
}

// candOf returns the candidate index+1 of symbol s, 0 when none.
func (m *mem2reg) candOf(s uint32) int32 {
	for k := range m.cands {
		if uint32(m.cands[k].sym) == s {
			return int32(k + 1)
		}
	}
	return 0
}

// findPointers counts definitions and derives the frame pointers, to a
// fixed point (a derivation may come after its source in the layout).
func (m *mem2reg) findPointers() {
	f := m.f
	nr := f.NumRegs()
	m.ptr = make([]m2rPtr, nr)
	m.defCount = make([]uint8, nr)
	m.defOf = make([]ir.InstrID, nr)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			for _, o := range f.Ops(i) {
				m.countDef(o, i)
			}
		}
	}
	for range 8 {
		grew := false
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if m.derivePointer(i) {
					grew = true
				}
			}
		}
		if !grew {
			break
		}
	}
}

func (m *mem2reg) countDef(o ir.Operand, i ir.InstrID) {
	switch {
	case o.Kind() == ir.KReg && o.IsDef():
		r := o.Reg()
		if m.defCount[r] < 2 {
			m.defCount[r]++
		}
		m.defOf[r] = i
	case o.Kind() == ir.KList && o.IsDef():
		for _, e := range m.f.ListElems(o.Index()) {
			if e.Kind() == ir.KReg {
				m.countDef(e.AsDef(), i)
			}
		}
	}
}

// constReg returns the value of register r when its one definition is an
// unguarded "mov r, imm" of an integer immediate.
func (m *mem2reg) constReg(r ir.RegID) (int64, bool) {
	if m.defCount[r] != 1 {
		return 0, false
	}
	d := m.defOf[r]
	f := m.f
	if f.Op[d] != ir.OpMov || f.Guard[d] != ir.NoOperand || f.OpCount[d] != 2 {
		return 0, false
	}
	return m.immValue(f.Ops(d)[1])
}

func (m *mem2reg) immValue(o ir.Operand) (int64, bool) {
	if o.Kind() != ir.KImm {
		return 0, false
	}
	im := m.f.Imms[o.Index()]
	if im.Kind.IsFloat() {
		return 0, false
	}
	v := int64(im.Bits)
	if o.Has(ir.FlagNeg) {
		v = -v
	}
	return v, true
}

// pointerDef returns the frame pointer instruction i defines, from its
// sources' facts, and the register it defines; ok false when i is not a
// frame-pointer definition.
func (m *mem2reg) pointerDef(i ir.InstrID) (r ir.RegID, pt m2rPtr, ok bool) {
	f := m.f
	ops := f.Ops(i)
	if len(ops) < 2 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() || f.Guard[i] != ir.NoOperand {
		return 0, pt, false
	}
	r = ops[0].Reg()
	if m.defCount[r] != 1 || f.RegType[r].Bits() != 64 || f.Mods[i].Flags()&^ir.ModOther != 0 || f.Mods[i].Vec() != 0 {
		return 0, pt, false
	}
	src := func(o ir.Operand) (m2rPtr, bool) {
		if o.Kind() == ir.KReg && o.Flags() == 0 && m.ptr[o.Reg()].cand != 0 {
			return m.ptr[o.Reg()], true
		}
		return m2rPtr{}, false
	}
	offset := func(o ir.Operand) (int64, bool, bool) { // value, indexed, ok
		if v, ok := m.immValue(o); ok {
			return v, false, true
		}
		if o.Kind() == ir.KReg && o.Flags() == 0 {
			if v, ok := m.constReg(o.Reg()); ok {
				return v, true, true
			}
		}
		return 0, false, false
	}
	switch f.Op[i] {
	case ir.OpMov:
		if len(ops) != 2 || f.Mods[i] != 0 {
			return 0, pt, false
		}
		if ops[1].Kind() == ir.KSym {
			if c := m.candOf(ops[1].Index()); c != 0 && ops[1].Flags() == 0 {
				return r, m2rPtr{cand: c}, true
			}
			return 0, pt, false
		}
		if s, ok := src(ops[1]); ok {
			return r, s, true
		}
	case ir.OpCvta:
		if len(ops) != 2 || f.Space[i] != ir.SpaceLocal {
			return 0, pt, false
		}
		s, ok := src(ops[1])
		to := f.Mods[i].Has(ir.ModOther) // cvta.to.local: the only component Decode leaves to the text
		if !ok || s.generic != to {
			return 0, pt, false
		}
		s.generic = !to
		return r, s, true
	case ir.OpAdd, ir.OpSub:
		if len(ops) != 3 || f.Mods[i] != 0 {
			return 0, pt, false
		}
		a, b := ops[1], ops[2]
		s, ok := src(a)
		if !ok && f.Op[i] == ir.OpAdd {
			a, b = b, a
			s, ok = src(a)
		}
		if !ok {
			return 0, pt, false
		}
		v, idx, ok := offset(b)
		if !ok {
			return 0, pt, false
		}
		if f.Op[i] == ir.OpSub {
			v = -v
		}
		s.off += v
		s.indexed = s.indexed || idx
		return r, s, true
	case ir.OpOr:
		if len(ops) != 3 || f.Mods[i] != 0 {
			return 0, pt, false
		}
		s, ok := src(ops[1])
		if !ok {
			return 0, pt, false
		}
		v, ok := m.immValue(ops[2])
		al := m.cands[s.cand-1].align
		if !ok || v < 0 || v >= al || (s.off%al+al)%al&v != 0 {
			return 0, pt, false
		}
		s.off += v
		return r, s, true
	}
	return 0, pt, false
}

func (m *mem2reg) derivePointer(i ir.InstrID) bool {
	r, pt, ok := m.pointerDef(i)
	if !ok || m.ptr[r] == pt {
		return false
	}
	if m.ptr[r].cand != 0 {
		return false // facts only grow; a second opinion is not possible with one definition
	}
	m.ptr[r] = pt
	m.derive = append(m.derive, i)
	return true
}

// classify walks every instruction once: each appearance of a candidate
// or of a frame pointer is an access, a derivation, or an escape.
func (m *mem2reg) classify() {
	f := m.f
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			m.classifyInstr(i)
		}
	}
}

func (m *mem2reg) escape(c int32) {
	if c > 0 {
		m.cands[c-1].escaped = true
	}
}

// refOf returns the candidate an operand word refers to (a frame pointer
// register or the symbol itself), and the pointer facts.
func (m *mem2reg) refOf(o ir.Operand) (int32, m2rPtr) {
	switch o.Kind() {
	case ir.KReg:
		if o == ir.NoOperand {
			return 0, m2rPtr{}
		}
		pt := m.ptr[o.Reg()]
		return pt.cand, pt
	case ir.KSym:
		c := m.candOf(o.Index())
		return c, m2rPtr{cand: c}
	}
	return 0, m2rPtr{}
}

// escapeAll marks every candidate an operand refers to, lists and
// addresses included, as escaped.
func (m *mem2reg) escapeAll(o ir.Operand) {
	switch o.Kind() {
	case ir.KList:
		for _, e := range m.f.ListElems(o.Index()) {
			m.escapeAll(e)
		}
	case ir.KAddr:
		for _, e := range m.f.ListElems(m.f.Addrs[o.Index()].Elems) {
			m.escapeAll(e)
		}
	default:
		if !o.IsDef() {
			c, _ := m.refOf(o)
			m.escape(c)
		}
	}
}

func (m *mem2reg) classifyInstr(i ir.InstrID) {
	f := m.f
	ops := f.Ops(i)
	m.escapeAll(f.Guard[i])
	// A frame-pointer definition: its sources are accounted for.
	if r, _, ok := m.pointerDef(i); ok && m.ptr[r].cand != 0 {
		return
	}
	op := f.Op[i]
	if (op == ir.OpLd || op == ir.OpSt) && len(ops) == 2 {
		ai, vi := 1, 0
		if op == ir.OpSt {
			ai, vi = 0, 1
		}
		if ops[ai].Kind() == ir.KAddr {
			a := f.Addrs[ops[ai].Index()]
			el := f.ListElems(a.Elems)
			if len(el) == 1 {
				if c, pt := m.refOf(el[0]); c != 0 {
					m.escapeAll(ops[vi])
					m.access(i, c, pt, a.Off, op == ir.OpSt, el[0].Kind() == ir.KSym)
					return
				}
			}
		}
	}
	for _, o := range ops {
		m.escapeAll(o)
	}
}

// access records (or refuses) an access of candidate c through pointer pt
// at byte offset off of the address.
func (m *mem2reg) access(i ir.InstrID, c int32, pt m2rPtr, off int64, store, direct bool) {
	f := m.f
	cd := &m.cands[c-1]
	sp := f.Space[i]
	okSpace := (pt.generic && sp == ir.SpaceGeneric) || (!pt.generic && sp == ir.SpaceLocal)
	size := int64(f.Type[i].Bits() / 8)
	mods := f.Mods[i]
	n := mods.Vec()
	if !okSpace || size == 0 || mods.WithVec(0) != 0 || f.InstrProps(i)&(ir.PVolatile|ir.POpaque) != 0 {
		m.escape(c)
		return
	}
	if n > 0 {
		// the value is a list of n elements
		k := 0
		if store {
			k = 1
		}
		v := f.Ops(i)[k]
		if v.Kind() != ir.KList || len(f.ListElems(v.Index())) != n {
			m.escape(c)
			return
		}
	}
	o := pt.off + off
	if o < 0 || o+size*int64(max(n, 1)) > cd.size {
		m.escape(c)
		return
	}
	if pt.indexed {
		cd.indexed = true
	}
	for e := range max(n, 1) {
		m.acc = append(m.acc, m2rAccess{instr: i, cand: c, off: o + int64(e)*size, size: size, store: store,
			indexed: pt.indexed, vec: uint8(n), elem: uint8(e)})
	}
}

// promote rewrites the clusters of candidate c and removes its frame when
// nothing else refers to it.
func (m *mem2reg) promote(c int32) bool {
	cd := &m.cands[c-1]
	if cd.escaped {
		return false
	}
	var acc []m2rAccess
	for _, a := range m.acc {
		if a.cand == c {
			acc = append(acc, a)
		}
	}
	slices.SortStableFunc(acc, func(x, y m2rAccess) int {
		if x.off != y.off {
			return int(x.off - y.off)
		}
		return 0
	})
	left := 0 // accesses left in memory
	f := m.f
	nregs := f.NumRegs()
	vectors := false
	indexedBytes := int64(0)
	m.edits = m.edits[:0]
	for _, a := range acc {
		vectors = vectors || a.vec > 0
	}
	for lo := 0; lo < len(acc); {
		hi, end := lo+1, acc[lo].off+acc[lo].size
		for hi < len(acc) && acc[hi].off < end {
			end = max(end, acc[hi].off+acc[hi].size)
			hi++
		}
		cl := acc[lo:hi]
		idx := false
		for _, a := range cl {
			idx = idx || a.indexed
		}
		ok := true
		if idx {
			if indexedBytes+end-acc[lo].off > m.indexedLimit {
				ok = false
			} else {
				indexedBytes += end - acc[lo].off
			}
		}
		if ok && m.planCluster(cl, acc[lo].off, end) {
			m.slots++
		} else {
			left += len(cl)
		}
		lo = hi
	}
	if left > 0 && vectors {
		// An element of a vector access would stay in memory while
		// another moves: keep the whole variable (the registers made for
		// the plans stay unused).
		m.edits = m.edits[:0]
		f.RegName, f.RegType, f.RegVec = f.RegName[:nregs], f.RegType[:nregs], f.RegVec[:nregs]
		return false
	}
	m.applyEdits()
	if left > 0 {
		return len(acc) > left
	}
	// Nothing reads or writes the frame any more: its pointers go, then
	// the variable.
	for _, d := range m.derive {
		if !f.IsDead(d) && f.Block[d] != ir.NoBlock {
			if r, _, ok := m.pointerDef(d); ok && m.ptr[r].cand == c {
				f.Remove(d)
			}
		}
	}
	f.Locals = slices.DeleteFunc(f.Locals, func(s ir.SymID) bool { return s == cd.sym })
	m.frames++
	m.bytes += cd.size
	return true
}

// bitType returns the bit-size type of n bits (16, 32 or 64).
func bitType(n int) ir.Type {
	switch n {
	case 16:
		return ir.TB16
	case 32:
		return ir.TB32
	case 64:
		return ir.TB64
	}
	return ir.TNone
}

// intType returns the integer type of n bits, signed or unsigned.
func intType(n int, signed bool) ir.Type {
	switch n {
	case 8:
		return ir.TU8 + ir.Type(btoi(signed))*(ir.TS8-ir.TU8)
	case 16:
		return ir.TU16 + ir.Type(btoi(signed))*(ir.TS16-ir.TU16)
	case 32:
		return ir.TU32 + ir.Type(btoi(signed))*(ir.TS32-ir.TU32)
	case 64:
		return ir.TU64 + ir.Type(btoi(signed))*(ir.TS64-ir.TU64)
	}
	return ir.TNone
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// planCluster plans the rewrite of the accesses of one cluster [lo, hi)
// into register moves (m.edits), or plans nothing and returns false.
func (m *mem2reg) planCluster(cl []m2rAccess, lo, hi int64) bool {
	f := m.f
	piece := cl[0].size
	same := true
	for _, a := range cl {
		piece = min(piece, a.size)
		if a.off != cl[0].off || a.size != cl[0].size {
			same = false
		}
	}
	if !same {
		tiles := piece == 2 || piece == 4
		for _, a := range cl {
			n := a.size / piece
			if (a.off-lo)%piece != 0 || a.size%piece != 0 || (n != 1 && n != 2 && n != 4) || a.size > 8 {
				tiles = false
			}
		}
		if !tiles {
			return m.planSubword(cl, lo, hi)
		}
	} else {
		piece = hi - lo
	}
	pw := int(max(piece*8, 16)) // register width of a piece
	// Plan every access first: all or nothing.
	saved := 0.0
	for _, a := range cl {
		cost, ok := m.planCost(a, piece, pw)
		if !ok {
			return false
		}
		saved += 1.0 - cost
	}
	if saved <= 0 {
		return false
	}
	npieces := (hi - lo) / piece
	base := ir.RegID(f.NumRegs())
	// A slot all of whose accesses move registers of one type gets that
	// type (an .f32 slot for .f32 values): its moves are then plain
	// copies between registers of one type, which copy propagation
	// removes whatever its rules on mixed types.
	rt := bitType(pw)
	if npieces == 1 {
		rt = m.uniformType(cl, pw)
	}
	for range npieces {
		// named after their register number ("%m2r17"), so dumps and
		// tests can tell the pieces apart
		m.name = strconv.AppendUint(append(m.name[:0], "%m2r"...), uint64(f.NumRegs()), 10)
		f.AddReg(f.Mod.Strings.InternBytes(m.name), rt)
	}
	for _, a := range cl {
		m.edits = append(m.edits, m.rewrite(a, base+ir.RegID((a.off-lo)/piece), piece, pw))
	}
	return true
}

// applyEdits carries out the planned rewrites: a scalar access, or the
// first element of a vector one, becomes its move in place; the other
// elements become moves inserted after it, under the same guard.
func (m *mem2reg) applyEdits() {
	f := m.f
	slices.SortFunc(m.edits, func(x, y m2rEdit) int {
		if x.instr != y.instr {
			return int(x.instr) - int(y.instr)
		}
		return int(x.elem) - int(y.elem)
	})
	last := ir.NoInstr
	for _, e := range m.edits {
		if e.elem == 0 {
			f.SetForm(e.instr, e.form)
			f.SetOps(e.instr, e.operands())
			last = e.instr
		} else {
			ni := f.NewInstr(e.form, e.operands())
			f.Guard[ni] = f.Guard[e.instr]
			f.SetLoc(ni, f.InstrLoc(e.instr))
			f.InsertAfter(last, ni)
			last = ni
		}
		m.rewritten++
	}
	m.edits = m.edits[:0]
}

// valueOp returns the register or immediate operand an access moves:
// the loaded register or the stored value.
func (m *mem2reg) valueOp(a m2rAccess) ir.Operand {
	ops := m.f.Ops(a.instr)
	v := ops[0]
	if a.store {
		v = ops[1]
	}
	if a.vec > 0 {
		v = m.f.ListElems(v.Index())[a.elem]
	}
	return v
}

// planCost checks that access a can be rewritten against pieces of
// piece bytes held in registers of pw bits, and returns its cost.
func (m *mem2reg) planCost(a m2rAccess, piece int64, pw int) (float64, bool) {
	f := m.f
	t := f.Type[a.instr]
	v := m.valueOp(a)
	n := a.size / piece
	w := int(a.size * 8)
	if v.Kind() == ir.KImm {
		k := f.Imms[v.Index()].Kind
		if !a.store || n != 1 || k == ir.ImmDecimal || k.IsFloat() && t.Bits() != pw {
			return 0, false
		}
		return m.movWeight, true
	}
	if v.Kind() != ir.KReg || v.Flags() != 0 || f.RegVec[v.Reg()] != 0 {
		return 0, false
	}
	rw := f.RegType[v.Reg()].Bits()
	if n > 1 {
		// pack or unpack: the value must be exactly the access's width
		if rw != w || pw*int(n) != w {
			return 0, false
		}
		return 1.0, true
	}
	switch {
	case rw == pw && (a.store || a.size > 1):
		return m.movWeight, true
	case rw >= pw && !t.IsFloat() && t != ir.TPred:
		return 1.0, true // a store truncates, a load extends (a byte always)
	}
	return 0, false
}

// rewrite turns access a into a move (or conversion) against the piece
// registers starting at reg.
func (m *mem2reg) rewrite(a m2rAccess, reg ir.RegID, piece int64, pw int) m2rEdit {
	f := m.f
	i := a.instr
	t := f.Type[i]
	v := m.valueOp(a)
	n := a.size / piece
	var ops [2]ir.Operand
	var form ir.Form
	if n > 1 {
		var el [4]ir.Operand
		for k := range n {
			el[k] = ir.RegOp(reg + ir.RegID(k))
			if a.store {
				el[k] = el[k].AsDef()
			}
		}
		lst := f.AddList(el[:n])
		form = ir.Form{Op: ir.OpMov, Type: bitType(int(a.size * 8))}
		if a.store {
			ops = [2]ir.Operand{ir.Pack(ir.KList, lst, 0, true), v}
		} else {
			ops = [2]ir.Operand{v, ir.Pack(ir.KList, lst, 0, false)}
		}
		return m2rEdit{instr: i, elem: a.elem, form: form, ops: [4]ir.Operand{ops[0], ops[1]}}
	}
	slot := ir.RegOp(reg)
	signed := t.IsSigned()
	conv := func(dst, src int) ir.Form {
		return ir.Form{Op: ir.OpCvt, Type: intType(dst, signed), Type2: intType(src, signed)}
	}
	if a.store {
		form = ir.Form{Op: ir.OpMov, Type: bitType(pw)}
		if v.Kind() == ir.KReg {
			if rw := f.RegType[v.Reg()].Bits(); rw > pw {
				signed = false
				form = conv(pw, rw)
			}
		}
		ops = [2]ir.Operand{slot.AsDef(), v}
	} else {
		rw := f.RegType[v.Reg()].Bits()
		form = ir.Form{Op: ir.OpMov, Type: bitType(pw)}
		switch {
		case a.size == 1 && rw >= 16:
			// the slot holds the byte in its low 8 bits: extend it
			form = conv(rw, 8)
		case rw > pw:
			form = conv(rw, pw)
		}
		ops = [2]ir.Operand{v, slot}
	}
	return m2rEdit{instr: i, elem: a.elem, form: form, ops: [4]ir.Operand{ops[0], ops[1]}}
}

// planSubword plans a cluster that pieces do not tile but one word does:
// every store writes the whole cluster [lo, hi) (4 or 8 bytes) and the
// loads read it whole or read bytes inside it (clang -O0 reads the bytes
// of a packed word back one at a time). The word becomes one register; a
// narrower load becomes a bit-field extract of its bytes, "bfe.uW d, %s,
// 8k, 8n" (bfe.sW for a signed load: the sign extension the load made),
// when its register has the word's width; a load of the word's low bytes
// into a narrower register becomes "cvt.uR.uN d, %s" (cvt.sR.sN when
// signed). Each costs 1.0 like a conversion. Anything else stays in
// memory.
func (m *mem2reg) planSubword(cl []m2rAccess, lo, hi int64) bool {
	f := m.f
	w := hi - lo
	if w != 4 && w != 8 {
		return false
	}
	pw := int(w * 8)
	saved := 0.0
	for _, a := range cl {
		if a.vec > 0 {
			return false
		}
		if a.store || a.size == w {
			if a.off != lo || a.size != w {
				return false
			}
			cost, ok := m.planCost(a, w, pw)
			if !ok {
				return false
			}
			saved += 1.0 - cost
			continue
		}
		v := m.valueOp(a)
		if v.Kind() != ir.KReg || v.Flags() != 0 || f.RegVec[v.Reg()] != 0 || f.Type[a.instr].IsFloat() {
			return false
		}
		if rw := f.RegType[v.Reg()].Bits(); rw != pw && (a.off != lo || rw < int(8*a.size) || rw > pw) {
			return false
		}
	}
	if saved <= 0 {
		return false
	}
	reg := ir.RegID(f.NumRegs())
	m.name = strconv.AppendUint(append(m.name[:0], "%m2r"...), uint64(f.NumRegs()), 10)
	f.AddReg(f.Mod.Strings.InternBytes(m.name), bitType(pw))
	for _, a := range cl {
		if a.store || a.size == w {
			m.edits = append(m.edits, m.rewrite(a, reg, w, pw))
			continue
		}
		t := f.Type[a.instr]
		if rw := f.RegType[m.valueOp(a).Reg()].Bits(); rw < pw {
			// the low bytes into a narrower register: the conversion
			// reads the low 8n bits of the word and extends them as the
			// load did (cvt accepts a source register wider than its type)
			signed := t.IsSigned()
			m.edits = append(m.edits, m2rEdit{instr: a.instr, form: ir.Form{Op: ir.OpCvt, Type: intType(rw, signed), Type2: intType(int(8*a.size), signed)},
				ops: [4]ir.Operand{m.valueOp(a), ir.RegOp(reg)}})
			continue
		}
		form := ir.Form{Op: ir.OpBfe, Type: intType(pw, t.IsSigned())}
		pos := f.AddImm(ir.Imm{Bits: uint64(8 * (a.off - lo)), Kind: ir.ImmInt})
		n := f.AddImm(ir.Imm{Bits: uint64(8 * a.size), Kind: ir.ImmInt})
		m.edits = append(m.edits, m2rEdit{instr: a.instr, form: form, nops: 4,
			ops: [4]ir.Operand{m.valueOp(a), ir.RegOp(reg), pos, n}})
	}
	return true
}

// uniformType returns the register type every register access of cl
// moves (immediates stored, and integer registers whose one definition
// moves an immediate, do not count), when there is one of pw bits, else
// the bit type of pw bits.
func (m *mem2reg) uniformType(cl []m2rAccess, pw int) ir.Type {
	f := m.f
	t := ir.TNone
	for _, a := range cl {
		v := m.valueOp(a)
		if v.Kind() == ir.KImm {
			continue // "mov.bW" writes an immediate's bits into any type
		}
		if v.Kind() != ir.KReg {
			return bitType(pw)
		}
		rt := f.RegType[v.Reg()]
		if _, ok := m.constReg(v.Reg()); ok && a.store && rt.Bits() == pw && isIntType(rt) {
			// An integer register holding an immediate is an immediate
			// too ("mov.u32 %r1, 0; st.u32 [%SP+8], %r1" for a float
			// variable set to 0: -O0 stores one zero register to several
			// slots whatever their types).
			continue
		}
		if rt.Bits() != pw || t != ir.TNone && rt != t {
			return bitType(pw)
		}
		t = rt
	}
	if t == ir.TNone {
		return bitType(pw)
	}
	return t
}
