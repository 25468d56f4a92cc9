package core

import (
	"slices"
	"unsafe"

	"github.com/ptxopt/ptxopt/ir"
)

// Uniformity analysis (the role of ptxas's OriPropagateVarying): which
// registers hold the same value in every active lane of a warp. Uniform
// registers go to the UR/UP files, varying ones to R/P.
//
// A register is varying when one of its definitions is:
//   - a source of divergence: an instruction reading a lane-dependent
//     special register (%tid, %laneid, %lanemask_*, and conservatively the
//     clocks), an atomic or any instruction that both reads and writes
//     memory, a call, an opaque instruction, a warp-collective
//     (convergent) instruction, or a load from .local memory (per-thread);
//   - data dependent on a varying register: any use, the guard included
//     (so a load from a varying address is varying);
//   - sync dependent on a divergent branch: a conditional branch (or
//     brx.idx) in block b whose condition or index is varying makes lanes
//     take different paths until they meet again at j = ipdom(b). A
//     register defined in the region R (blocks reachable from b without
//     passing j) that is live into a join of R ∪ {j} (a block with two or
//     more predecessors) may hold values from different paths there, so
//     it is varying everywhere. (Conservative: a register defined inside
//     a uniform inner loop of R and live around it is also marked.) In
//     SSA form the same holds of a PHI at such a join whose incoming
//     values differ. Not marked: a register that holds one value per
//     thread whichever of its definitions ran, and whenever (onceValued:
//     each definition the same pure instruction over such registers,
//     immediates, fixed special registers, the kernel's parameters or
//     .const memory), with a definition dominating the join: every lane
//     arriving there carries that one value (a constant set after the
//     branch, or rematerialized into its own register, is not a merge;
//     counting it in R made a pass that removed the join, or moved its
//     definitions, look as if it raised the uniform files).
//
// The analysis is optimistic: everything starts uniform, and sweeps in
// layout order, then a worklist over registers (def-use chains), add
// varying ones until nothing changes. Registers never defined are
// uniform (no definition varies). Cost: linear in the instructions and
// the def-use chains, plus, per divergent branch, its region's
// instructions and the live-in tests of its joins.

// Uniformity is the result of ComputeUniformity.
type Uniformity struct {
	// Varying is true for registers that may differ between lanes.
	Varying []bool
	// Divergent is true for blocks ending in a branch whose condition or
	// index is varying.
	Divergent []bool

	buf *uniBuf // working memory a later ComputeUniformityInto reuses
}

// startUniformity readies u (nil: a new result) for f: every register
// uniform and every block convergent, in u's working memory. empty: f
// has no blocks, so that is the answer.
func startUniformity(u *Uniformity, f *ir.Func) (_ *Uniformity, bf *uniBuf, empty bool) {
	ensureCFG(f)
	nr, nb := f.NumRegs(), f.NumBlocks()
	if u == nil {
		u = &Uniformity{buf: &uniBuf{}}
	} else if u.buf == nil {
		u.buf = &uniBuf{}
	}
	bf = u.buf
	bf.flags = grow(bf.flags, nr+nb)
	u.Varying, u.Divergent = bf.flags[:nr:nr], bf.flags[nr:]
	return u, bf, !f.HasBody || nb == 0
}

// uniBuf is the analysis's working memory, kept with its result so that
// recomputing into a dropped result allocates nothing once grown.
type uniBuf struct {
	flags   []bool
	work    []ir.RegID
	marks   []uint32
	region  []ir.BlockID
	joins   []ir.BlockID
	cand    []ir.RegID
	done    []bool
	pending []ir.BlockID
	tmp     []ir.RegID
	pos     []int32
	once    []uint8
	defsW   []ir.BlockID
	defsS   []uint32
	defBlk  []ir.BlockID // defsByBlock: the block of each definition, in row order
	files   []ir.File
	blkDefs []ir.RegID // the first sweep's definitions, block after block in layout order
	blkSpan []uint32   // per block, where its definitions start and end in blkDefs
	posDone []bool     // per block, whether posOf has numbered its instructions
}

// Files returns the register file of every register: UR/UP for uniform
// registers, R/P for varying ones.
func (u *Uniformity) Files(f *ir.Func) []ir.File {
	var fs []ir.File
	if u.buf != nil && cap(u.buf.files) >= f.NumRegs() {
		fs = u.buf.files[:f.NumRegs()] // every entry is set below
	} else {
		fs = make([]ir.File, f.NumRegs())
		if u.buf != nil {
			u.buf.files = fs
		}
	}
	for r, t := range f.RegType {
		fs[r] = ir.FileOf(t, !u.Varying[r])
	}
	return fs
}

// IsVaryingSpecial reports whether a special register (by name, with the
// "%") can differ between the lanes of a warp.
func IsVaryingSpecial(name string) bool { return ir.IsVaryingSpecial(name) }

// divergenceSource reports whether instruction i produces lane-varying
// results whatever its sources.
func divergenceSource(f *ir.Func, i ir.InstrID) bool {
	p := f.InstrProps(i)
	switch {
	case p&(ir.POpaque|ir.PCall|ir.PConvergent) != 0:
		return true
	case p.Has(ir.PReadsMem | ir.PWritesMem): // atomics
		return true
	case p&ir.PReadsMem != 0 && f.Space[i] == ir.SpaceLocal:
		return true
	case p&ir.PReadsMem != 0 && f.Space[i] == ir.SpaceParam && !kernelParamLoad(f, i):
		// A device function's .param arguments and the return values
		// read back after a call (retval0) are per lane.
		return true
	}
	for _, o := range f.Ops(i) {
		if o.Kind() == ir.KSpecial && !o.IsDef() && f.Mod.SpecialFacts(o.Index())&ir.SpecialVarying != 0 {
			return true
		}
	}
	return false
}

// kernelParamLoad reports whether load i reads a parameter of the kernel
// f itself: the same value for every thread of the launch.
func kernelParamLoad(f *ir.Func, i ir.InstrID) bool {
	if f.Kind != ir.KindEntry {
		return false
	}
	for _, o := range f.Ops(i) {
		if o.Kind() != ir.KAddr {
			continue
		}
		elems := f.ListElems(f.Addrs[o.Index()].Elems)
		if len(elems) != 1 || elems[0].Kind() != ir.KSym {
			return false
		}
		s := ir.SymID(elems[0].Index())
		return slices.Contains(f.Params, s)
	}
	return false
}

// ComputeUniformity runs the analysis on f, computing what it needs.
func ComputeUniformity(f *ir.Func) *Uniformity {
	ensureCFG(f)
	return ComputeUniformityWith(f, ComputeDefUse(f), func() DivergenceInputs {
		return DivergenceInputs{Live: ComputeLiveness(f, LiveOptions{}), PostDom: PostDominators(f), Dom: Dominators(f)}
	})
}

// DivergenceInputs are the analyses the uniformity analysis needs once
// some branch is divergent.
type DivergenceInputs struct {
	Live    *Liveness
	PostDom *DomTree
	Dom     *DomTree
}

// ComputeUniformityWith runs the analysis with f's def-use chains du and,
// asked for only when some branch is divergent, its liveness, dominator
// and post-dominator trees (an analysis cache hands over what it holds).
func ComputeUniformityWith(f *ir.Func, du *DefUse, divergence func() DivergenceInputs) *Uniformity {
	return ComputeUniformityInto(nil, f, du, divergence)
}

// ComputeUniformityInto is ComputeUniformityWith computing into the
// memory of u, a result no longer in use (nil allocates): an analysis
// cache recomputing function after function allocates nothing once its
// arrays have grown. The result is u itself; Files of it reuses u's
// earlier Files slice too.
func ComputeUniformityInto(u *Uniformity, f *ir.Func, du *DefUse, divergence func() DivergenceInputs) *Uniformity {
	u, bf, empty := startUniformity(u, f)
	if empty {
		return u
	}
	nr, nb := f.NumRegs(), f.NumBlocks()
	work := bf.work[:0]
	defer func() { bf.work = work[:0] }()
	var defsBuf [32]ir.RegID
	// markDefs marks the registers in defs (those an instruction defines).
	markDefs := func(defs []ir.RegID) {
		for _, r := range defs {
			if !u.Varying[r] {
				u.Varying[r] = true
				work = append(work, r)
			}
		}
	}
	// A device function's arguments come from the caller's lanes, which
	// may differ: its .reg parameters start out varying.
	if f.Kind == ir.KindFunc {
		for _, id := range f.Params {
			if r, ok := f.ParamReg(id); ok && !u.Varying[r] {
				u.Varying[r] = true
				work = append(work, r)
			}
		}
	}
	swept := false // the first sweep ran and listed each block's definitions
	var (
		live    *Liveness
		pd      *DomTree
		region  []ir.BlockID
		joins   []ir.BlockID
		cand    []ir.RegID
		seen    []uint32
		defd    []uint32
		stamp   uint32
		tmp     []ir.RegID
		defsOf  csr // registers defined in each block (from du), when the first sweep did not list them
		nglobal int
		dom     *DomTree
		once    []uint8 // onceValued's answers: 0 not asked, 1 yes, 2 no, 3 being asked
	)
	region, joins, cand, tmp = bf.region[:0], bf.joins[:0], bf.cand[:0], bf.tmp[:0]
	defer func() {
		bf.region, bf.joins, bf.cand, bf.tmp = region[:0], joins[:0], cand[:0], tmp[:0]
	}()
	// onceValued reports whether r holds one value per thread whenever it
	// is read after a definition: every definition of r is unguarded, no
	// PHI, computes r alone from nothing that changes while the thread
	// runs (a pure instruction: immediates, symbols, special registers
	// that are not volatile; or a load of the kernel's own parameters or
	// of .const memory), and from registers that are onceValued
	// themselves (to maxOnceDepth), each defined at every definition of r
	// (definedAt); and the definitions are all the same instruction (a
	// value rematerialized into its own register). Whether
	// that value is the same in every lane is the rest of the analysis's
	// business (data dependence); what this settles is that lanes
	// reaching a join after one of its definitions all carry the value it
	// gave, whichever path they took and whenever they ran it (a loop
	// recomputes the same value), so the join merges nothing.
	// posOf is i's place in its block (numbered the first time it is
	// asked for).
	// (per block: a function of a million instructions asks about a few
	// blocks, and numbering them all read every instruction once more)
	var pos []int32
	var posDone []bool
	posOf := func(i ir.InstrID) int32 {
		if pos == nil {
			if cap(bf.pos) < f.NumInstrs() {
				bf.pos = make([]int32, f.NumInstrs())
			}
			pos = bf.pos[:f.NumInstrs()] // a block's entries are set before they are read
			bf.posDone = grow(bf.posDone, nb)
			posDone = bf.posDone
		}
		if b := f.Block[i]; !posDone[b] {
			posDone[b] = true
			n := int32(0)
			for j := f.BlockFirst[b]; j != ir.NoInstr; j = f.Next[j] {
				pos[j] = n
				n++
			}
		}
		return pos[i]
	}
	// definedAt reports whether a definition of x dominates instruction
	// i: x holds its value whenever i reads it (a read before any
	// definition, say in a loop's first iteration, would see another).
	definedAt := func(x ir.RegID, i ir.InstrID) bool {
		for _, d := range du.Defs(x) {
			j := d.Instr
			if bj, bi := f.Block[j], f.Block[i]; bj != bi && dom.Dominates(bj, bi) || bj == bi && posOf(j) < posOf(i) {
				return true
			}
		}
		return false
	}
	var onceValued func(r ir.RegID, depth int) bool
	onceValued = func(r ir.RegID, depth int) bool {
		if once == nil {
			bf.once = grow(bf.once, nr)
			once = bf.once
		}
		switch once[r] {
		case 1:
			return true
		case 2, 3:
			return false
		}
		if depth > maxOnceDepth {
			return false
		}
		once[r] = 3
		ds := du.Defs(r)
		ok := len(ds) > 0
		for k := 0; k < len(ds) && ok; k++ {
			i := ds[k].Instr
			ok = f.Block[i] != ir.NoBlock && timeInvariant(f, i) && (k == 0 || sameInstr(f, ds[0].Instr, i))
			var buf [16]RegRef
			for _, x := range AppendRegRefs(f, i, buf[:0]) {
				if !ok {
					break
				}
				if x.Def {
					ok = x.Reg == r
				} else {
					// (an equal instruction's operands are the first's)
					ok = (k > 0 || onceValued(x.Reg, depth+1)) && definedAt(x.Reg, i)
				}
			}
		}
		if ok {
			once[r] = 1
		} else {
			once[r] = 2
		}
		return ok
	}
	// merged reports whether r, defined in the region and live into the
	// join c, may carry values from different paths there: unless it is
	// onceValued and one of its definitions dominates c (every lane
	// arriving ran one; with no such definition a path may bring r
	// undefined).
	merged := func(r ir.RegID, c ir.BlockID) bool {
		if !onceValued(r, 0) {
			return true
		}
		for _, d := range du.Defs(r) {
			if dom.Dominates(f.Block[d.Instr], c) {
				return false
			}
		}
		return true
	}
	// blockDefs lists the registers block c defines, once per definition:
	// the first sweep's list (in the order of the instructions), or the
	// def-use chains' (in register order).
	blockDefs := func(c ir.BlockID) []ir.RegID {
		if !swept {
			return unsafeRegIDs(defsOf.of(c))
		}
		return bf.blkDefs[bf.blkSpan[2*c]:bf.blkSpan[2*c+1]]
	}
	diverge := func(b ir.BlockID) {
		if live == nil {
			in := divergence()
			live, pd, dom = in.Live, in.PostDom, in.Dom
			bf.marks = grow(bf.marks, nb+nr)
			marks := bf.marks
			seen, defd = marks[:nb:nb], marks[nb:]
			if !swept {
				defsOf = defsByBlock(f, du, bf)
			}
			nglobal = live.NumGlobals()
		}
		if !pd.Contains(b) {
			return // unreachable
		}
		stamp++
		j := pd.Idom[b]
		region = region[:0]
		for _, s := range f.SuccsOf(b) {
			if s != j && seen[s] != stamp {
				seen[s] = stamp
				region = append(region, s)
			}
		}
		for k := 0; k < len(region); k++ {
			for _, s := range f.SuccsOf(region[k]) {
				if s != j && seen[s] != stamp {
					seen[s] = stamp
					region = append(region, s)
				}
			}
		}
		// The candidates: registers defined in the region, still uniform,
		// and live across some block boundary (only those can be live into
		// a join).
		cand = cand[:0]
		joins = joins[:0]
		for _, c := range region {
			k := len(cand)
			for _, rr := range blockDefs(c) {
				// (Varying first: one byte per register, and most
				// registers of a divergent region are varying already)
				if !u.Varying[rr] && defd[rr] != stamp && live.Global[rr] >= 0 {
					defd[rr] = stamp
					cand = append(cand, rr)
				}
			}
			// Each block's candidates in register order, as the def-use
			// chains list them: the order they are tested in can matter
			// where onceValued's depth bound cuts a chain short.
			slices.Sort(cand[k:])
			if len(f.PredsOf(c)) >= 2 {
				joins = append(joins, c)
			}
		}
		if int(j) < nb && len(f.PredsOf(j)) >= 2 {
			joins = append(joins, j)
		}
		mark := func(r ir.RegID) {
			if !u.Varying[r] {
				u.Varying[r] = true
				work = append(work, r)
			}
		}
		// A PHI at a join picks its value by the edge each lane came in
		// on: lanes that went different ways get different values, unless
		// every incoming value is the same operand.
		for _, c := range joins {
			for i := f.BlockFirst[c]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
				ops := f.Ops(i)
				same := true
				for k := 3; k+1 < len(ops); k += 2 {
					if ops[k] != ops[1] {
						same = false
						break
					}
				}
				if !same {
					mark(ops[0].Reg())
				}
			}
		}
		if len(cand) == 0 || len(joins) == 0 {
			return
		}
		// Test each candidate at each join, or list each join's live-in
		// set: whichever reads less.
		if len(cand) <= nglobal/32+16 {
			for _, r := range cand {
				lv := liveIn{l: live, r: r, seg: -1}
				for _, c := range joins {
					if lv.at(c) && merged(r, c) {
						mark(r)
						break
					}
				}
			}
			return
		}
		for _, c := range joins {
			tmp = live.LiveInRegs(c, tmp[:0])
			for _, r := range tmp {
				if defd[r] == stamp && merged(r, c) {
					mark(r)
				}
			}
		}
	}
	// reached settles instruction i once a register it reads is varying:
	// its definitions become varying, and a branch with more than one
	// successor makes its block divergent. Each instruction is settled
	// once (done), however many of its operands turn varying. The
	// divergent blocks wait (pending) until the data dependence has
	// spread: a register by then varying is no candidate of the region's
	// liveness tests, the costly part (most registers defined in a
	// divergent region read what made its branch divergent).
	bf.done = grow(bf.done, f.NumInstrs())
	done := bf.done
	pending := bf.pending[:0]
	defer func() { bf.pending = pending[:0] }()
	// (defs holds the registers i defines)
	reached := func(i ir.InstrID, defs []ir.RegID) {
		done[i] = true
		markDefs(defs)
		// (the opcode first: most instructions are no branch, and the
		// block table is the larger read)
		if f.Op[i].Props().Has(ir.PBranch) {
			if b := f.Block[i]; !u.Divergent[b] && len(f.SuccsOf(b)) > 1 {
				u.Divergent[b] = true
				pending = append(pending, b)
			}
		}
	}
	// The result is the least fixed point of the marking (every rule only
	// adds varying registers, and which ones does not depend on the order
	// they are found in), so any order of visits computes it. (One
	// exception: onceValued caches answers its depth bound cut short, so
	// where a chain of operands passes maxOnceDepth its answer can depend
	// on which register was asked first, as it did in the worklist's
	// order; TestUniformitySweepsMatchWorklist finds no function where
	// the two orders differ.) Sweeps in
	// layout order read the instructions in the order they are stored
	// and carry data dependence forward within one sweep; the worklist
	// over def-use chains then finishes what loops' back edges and
	// divergent regions left (on a function of a million instructions a
	// worklist from the start reads the chains and operands at random,
	// twice the time per instruction of a small function). A sweep
	// settles every instruction that reads a register marked before the
	// sweep began, so after it only the registers marked during it (work)
	// may have unsettled readers. Sweeps stop once one marks few
	// registers (the worklist is cheaper then) and after maxSweeps, which
	// keeps the cost linear.
	for sweep := 0; ; sweep++ {
		if sweep == maxSweeps || sweep > 0 && len(work) <= nr/sweepFew {
			break
		}
		work = work[:0]
		if sweep == 0 {
			// The first sweep visits every instruction: it lists each
			// block's definitions as it goes (in layout order, so block by
			// block), which the divergent regions read (diverge) instead of
			// gathering them from the def-use chains at random.
			all := bf.blkDefs[:0]
			bf.blkSpan = grow(bf.blkSpan, 2*nb)
			span := bf.blkSpan
			for _, b := range f.Layout {
				span[2*b] = uint32(len(all))
				for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
					k := len(all)
					var in bool
					all, in = scanInstr(f, i, u.Varying, all)
					if in {
						reached(i, all[k:])
					} else if divergenceSource(f, i) {
						markDefs(all[k:])
					}
				}
				span[2*b+1] = uint32(len(all))
			}
			bf.blkDefs = all
			swept = true
			continue
		}
		for _, b := range f.Layout {
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if done[i] {
					continue
				}
				if defs, in := scanInstr(f, i, u.Varying, defsBuf[:0]); in {
					reached(i, defs)
				}
			}
		}
	}
	for {
		for len(work) > 0 {
			r := work[len(work)-1]
			work = work[:len(work)-1]
			for _, use := range du.Uses(r) {
				if i := use.Instr; !done[i] {
					defs, _ := scanInstr(f, i, u.Varying, defsBuf[:0])
					reached(i, defs)
				}
			}
		}
		if len(pending) == 0 {
			return u
		}
		for _, b := range pending {
			diverge(b)
		}
		pending = pending[:0]
	}
}

// liveIn answers l.IsLiveIn(c, r) for one register r, numbered
// globally, at block after block: on dense liveness it finds r in a
// segment's register list once for all the blocks of that segment (the
// joins of a divergent region mostly share one), where IsLiveIn searches
// per block.
type liveIn struct {
	l   *Liveness
	r   ir.RegID
	seg int32 // the segment x and ok answer for (-1: none yet)
	x   int
	ok  bool
}

func (q *liveIn) at(c ir.BlockID) bool {
	l := q.l
	if l.Method != Dense {
		return l.IsLiveIn(c, q.r)
	}
	if sg := l.segOf[c]; sg != q.seg {
		q.seg = sg
		q.x, q.ok = searchRegs(l.segs[sg].regs, q.r)
	}
	return q.ok && l.inBits[int(l.inOff[c])+q.x>>5]&(1<<(q.x&31)) != 0
}

// scanInstr appends to defs the registers instruction i defines (once
// per reference, as AppendRegRefs lists them) and reports whether it
// reads a register varying says is varying, its guard included: one walk
// over i's operands where they are stored.
func scanInstr(f *ir.Func, i ir.InstrID, varying []bool, defs []ir.RegID) ([]ir.RegID, bool) {
	in := false
	if g := f.Guard[i]; g.IsReg() && varying[g.Reg()] {
		in = true
	}
	s := f.OpStart[i]
	for _, o := range f.Operands[s : s+uint32(f.OpCount[i])] {
		switch o.Kind() {
		case ir.KReg:
			if o.IsDef() {
				defs = append(defs, o.Reg())
			} else if varying[o.Reg()] {
				in = true
			}
		case ir.KList:
			defs, in = scanList(f, f.Lists[o.Index()], varying, defs, true, in)
		case ir.KAddr:
			defs, in = scanList(f, f.Lists[f.Addrs[o.Index()].Elems], varying, defs, false, in)
		}
	}
	return defs, in
}

// scanList is scanInstr's walk of an operand list (defsAllowed: a
// vector's, whose elements may be definitions; an address's are uses).
func scanList(f *ir.Func, x ir.List, varying []bool, defs []ir.RegID, defsAllowed, in bool) ([]ir.RegID, bool) {
	for e := x.Start; e < x.Start+x.Count; e++ {
		o := f.ListOps[e]
		switch o.Kind() {
		case ir.KReg:
			if defsAllowed && o.IsDef() {
				defs = append(defs, o.Reg())
			} else if varying[o.Reg()] {
				in = true
			}
		case ir.KList:
			defs, in = scanList(f, f.Lists[o.Index()], varying, defs, defsAllowed, in)
		case ir.KAddr:
			defs, in = scanList(f, f.Lists[f.Addrs[o.Index()].Elems], varying, defs, false, in)
		}
	}
	return defs, in
}

// maxSweeps bounds the layout-order sweeps of the uniformity analysis
// (a variable for the test that runs it with fewer); sweeps stop early
// once one marks at most 1/sweepFew of the registers.
var maxSweeps = 4

const sweepFew = 64

// maxOnceDepth bounds the chain of operands onceValued follows.
const maxOnceDepth = 16

// timeInvariant reports whether instruction i computes the same result
// from the same operands whenever the thread runs it: a pure instruction
// (volatile special registers make an instruction impure), or a load,
// with no other effect, of .const memory or of the kernel's own
// parameters, which nothing writes while the kernel runs. Guarded
// instructions and PHIs are not.
func timeInvariant(f *ir.Func, i ir.InstrID) bool {
	if f.Guard[i] != ir.NoOperand || f.Op[i] == ir.OpPhi {
		return false
	}
	p := f.InstrProps(i)
	if p&(ir.PSideEffect|ir.PVolatile|ir.PCall|ir.POpaque|ir.PConvergent|ir.PWritesMem) != 0 {
		return false
	}
	if p&ir.PReadsMem != 0 {
		return f.Space[i] == ir.SpaceConst || kernelParamLoad(f, i)
	}
	return p&ir.PPure != 0
}

// sameInstr reports whether x and y are the same instruction written
// twice: opcode, types, modifiers and operands (addresses by content).
func sameInstr(f *ir.Func, x, y ir.InstrID) bool {
	if f.Op[x] != f.Op[y] || f.Type[x] != f.Type[y] || f.Type2[x] != f.Type2[y] || f.Space[x] != f.Space[y] ||
		f.Mods[x] != f.Mods[y] || f.Guard[x] != f.Guard[y] {
		return false
	}
	ox, oy := f.Ops(x), f.Ops(y)
	if len(ox) != len(oy) {
		return false
	}
	for k := range ox {
		a, b := ox[k], oy[k]
		if a.Kind() == ir.KAddr && b.Kind() == ir.KAddr {
			ax, ay := f.Addrs[a.Index()], f.Addrs[b.Index()]
			if ax.Off != ay.Off || ax.HasOff != ay.HasOff || !slices.Equal(f.ListElems(ax.Elems), f.ListElems(ay.Elems)) {
				return false
			}
			continue
		}
		if a != b {
			return false
		}
	}
	return true
}

// defsByBlock lists, per block, the registers defined there (a register
// once per definition), from def-use chains.
func defsByBlock(f *ir.Func, du *DefUse, bf *uniBuf) csr {
	nb := f.NumBlocks()
	bf.defsS = grow(bf.defsS, nb+1)
	g := csr{start: bf.defsS}
	// The block of every definition, read once (at random over the
	// instructions: on a large function the costly part) into defBlk,
	// in the order of the chains' rows, which both passes walk.
	nr := min(f.NumRegs(), du.NumRegs())
	bf.defBlk = grow(bf.defBlk, len(du.defs))
	blk := bf.defBlk
	k := 0
	for r := range nr {
		for _, d := range du.Defs(ir.RegID(r)) {
			b := f.Block[d.Instr]
			blk[k] = b
			k++
			if b != ir.NoBlock {
				g.start[b+1]++
			}
		}
	}
	for b := range nb {
		g.start[b+1] += g.start[b]
	}
	bf.defsW = grow(bf.defsW, int(g.start[nb])+nb)
	w := bf.defsW
	g.adj = w[:g.start[nb]:g.start[nb]]
	fill := unsafeUint32s(w[g.start[nb]:])
	copy(fill, g.start[:nb])
	k = 0
	for r := range nr {
		for range du.Defs(ir.RegID(r)) {
			if b := blk[k]; b != ir.NoBlock {
				g.adj[fill[b]] = ir.BlockID(r)
				fill[b]++
			}
			k++
		}
	}
	return g
}

// unsafeRegIDs views defsByBlock's lists (registers stored as block IDs,
// both uint32) as registers.
func unsafeRegIDs(w []ir.BlockID) []ir.RegID {
	return unsafe.Slice((*ir.RegID)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
}
