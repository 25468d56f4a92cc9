package core

import (
	"fmt"
	"slices"

	"github.com/ptxopt/ptxopt/ir"
)

// SSA construction and destruction.
//
// A PHI is an ir.OpPhi instruction at the top of its block with operands
//
//	dst(def), src0, label(pred0), src1, label(pred1), …
//
// one (value, KLabel of the predecessor block) pair per predecessor, so a
// PHI stays meaningful when the predecessor arrays are rebuilt. At most
// 127 predecessors fit in the 255 operand slots; BuildSSA refuses more.
//
// BuildSSA makes pruned SSA (Cytron et al. placement, pruned by
// liveness): for each register r with definitions in blocks D(r), PHIs
// go to the iterated dominance frontier DF+(D(r)) but only where r is
// live on entry; then a pre-order walk of the dominator tree renames
// every definition to a fresh register and every use to the reaching
// one (version stacks kept as one current-version array plus an undo
// log, walked iteratively). The original register stands for the value
// on entry (a parameter-like or undefined value).
//
// Not renamed, and so outside SSA: .reg-space parameters (the calling
// convention names them), registers with a guarded definition
// (a predicated write merges with the old value lane by lane, which a
// single-definition name cannot say without a select), and every
// register inside unreachable blocks (left as written; they never run).
// When the entry block has predecessors, an empty block is placed in
// front of it first, so no PHI sits in the entry.
//
// DestroySSA goes back to ordinary registers: critical edges are split
// (otherwise a copy placed at the end of a predecessor with several
// successors would clobber a value still live on its other edges: the
// lost-copy problem), then the PHIs of each block become one parallel
// copy per incoming edge, placed at the end of the predecessor (before
// its terminator) and sequentialized: a copy is emitted once no pending
// copy still reads its destination; when only cycles remain (the swap
// problem, a ← b, b ← a), one destination is saved into a fresh
// temporary and the pending reads of it are redirected there. When the
// terminator itself reads a copy destination, it reads a saved copy.

// SSAInfo describes a function in SSA form.
type SSAInfo struct {
	// Orig maps each register to the register it is a version of (itself
	// for original registers).
	Orig []ir.RegID
	// Renamed is true for the original registers that were renamed into
	// versions (their every definition in reachable code has one); the
	// others keep several definitions and stay outside SSA.
	Renamed  []bool
	Phis     int  // PHIs placed
	Versions int  // versions made (definitions renamed)
	NewEntry bool // an empty entry block was placed in front
}

// IsPhi reports whether i is a PHI.
func IsPhi(f *ir.Func, i ir.InstrID) bool { return f.Op[i] == ir.OpPhi }

// BuildSSA converts f into pruned SSA.
func BuildSSA(f *ir.Func) (*SSAInfo, error) { return BuildSSAWith(f, SSAInputs{}) }

// SSAInputs are analyses of f's current state a caller already holds
// (an analysis cache); nil fields are computed. BuildSSA recomputes them
// itself when it places a new entry block.
type SSAInputs struct {
	Dom  *DomTree
	Live *Liveness
	DU   *DefUse
}

// BuildSSAWith is BuildSSA with analyses the caller holds.
func BuildSSAWith(f *ir.Func, in SSAInputs) (*SSAInfo, error) {
	ensureCFG(f)
	if !f.HasBody || f.NumBlocks() == 0 {
		return &SSAInfo{}, nil
	}
	nr0 := f.NumRegs()
	newEntry := false
	var dom *DomTree
	var live *Liveness
	var du *DefUse
	for {
		dom, live, du = in.Dom, in.Live, in.DU
		in = SSAInputs{} // valid for the first round only
		if dom == nil {
			dom = Dominators(f)
		}
		for _, b := range dom.Order {
			if len(f.PredsOf(b)) > 127 {
				return nil, fmt.Errorf("core: block %d has %d predecessors; a PHI holds at most 127", b, len(f.PredsOf(b)))
			}
		}
		if du == nil {
			du = ComputeDefUse(f)
		}
		e := f.Entry()
		if newEntry || len(f.PredsOf(e)) == 0 {
			break
		}
		if live == nil {
			live = ComputeLiveness(f, LiveOptions{})
		}
		if !phiAtEntry(f, live, du, e) {
			break
		}
		// A register defined in a loop through the entry is live into the
		// entry: its PHI cannot stand there (the function start enters it
		// implicitly), so an empty block goes in front.
		newEntry = true
		n := f.AddBlock(ir.NoSym)
		copy(f.Layout[1:], f.Layout[:len(f.Layout)-1])
		f.Layout[0] = n
		f.InvalidateCFG()
		f.ComputeCFG()
	}
	// Which registers are renamed.
	rename := make([]bool, nr0)
	for r := range rename {
		rename[r] = true
	}
	// A .reg parameter is part of the calling convention: the caller
	// reads the return registers under their own names.
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if r, ok := f.ParamReg(id); ok && int(r) < nr0 {
				rename[r] = false
			}
		}
	}
	for r := range nr0 {
		if !rename[r] {
			continue
		}
		for _, d := range du.Defs(ir.RegID(r)) {
			if f.Guard[d.Instr] != ir.NoOperand {
				rename[r] = false
				break
			}
		}
	}

	// A register with one unguarded definition that is not live into the
	// entry is in SSA form already (every path to a use passes the
	// definition, which so dominates the use): it keeps its name.
	version := make([]bool, nr0)
	entry := f.Entry()
	// Without a whole-function liveness at hand, the registers that need
	// one are few: sl answers for one register at a time.
	var sl *ssaLive
	if live == nil && hasPhis(f) {
		live = ComputeLiveness(f, LiveOptions{}) // ssaLive reads no PHI operands
	}
	if live == nil {
		sl = newSSALive(f, du, dom)
	}
	for r := range nr0 {
		if !rename[r] {
			continue
		}
		if len(du.Defs(ir.RegID(r))) > 1 {
			version[r] = true
		} else if live != nil {
			version[r] = live.IsLiveIn(entry, ir.RegID(r))
		} else {
			version[r] = sl.liveAtEntry(ir.RegID(r))
		}
	}

	info := &SSAInfo{Renamed: rename, NewEntry: newEntry}
	if !slices.Contains(version, true) && !hasPhis(f) {
		// No register needs versions and no PHI stands: the function is
		// in SSA form as it is, every register its own.
		info.Orig = make([]ir.RegID, nr0)
		for r := range nr0 {
			info.Orig[r] = ir.RegID(r)
		}
		return info, nil
	}

	// PHI placement.
	df := DominanceFrontiers(f, dom)
	stamp := make([]uint32, f.NumBlocks())
	var defBlocks, work, idf []ir.BlockID
	var ops []ir.Operand
	for r := range nr0 {
		if !version[r] || len(du.Defs(ir.RegID(r))) == 0 {
			continue
		}
		if live != nil && live.Global[r] < 0 || live == nil && !sl.solve(ir.RegID(r)) {
			continue // block-local registers never need a PHI
		}
		defBlocks = defBlocks[:0]
		for _, d := range du.Defs(ir.RegID(r)) {
			if b := f.Block[d.Instr]; dom.Contains(b) {
				defBlocks = append(defBlocks, b)
			}
		}
		work, idf = df.IteratedFrontier(defBlocks, stamp, uint32(r)+1, work, idf)
		for _, y := range idf {
			if live != nil && !live.IsLiveIn(y, ir.RegID(r)) || live == nil && !sl.liveIn(y) {
				continue
			}
			ops = append(ops[:0], ir.RegDef(ir.RegID(r)))
			for _, p := range f.PredsOf(y) {
				ops = append(ops, ir.RegOp(ir.RegID(r)), ir.Pack(ir.KLabel, uint32(p), 0, false))
			}
			i := f.NewInstr(ir.Form{Op: ir.OpPhi, Type: f.RegType[r]}, ops)
			if first := f.BlockFirst[y]; first != ir.NoInstr {
				f.InsertBefore(first, i)
			} else {
				f.Append(y, i)
			}
			info.Phis++
		}
	}
	f.ComputeCFG() // instruction edits mark it stale; the edges are unchanged

	// Renaming.
	info.Orig = make([]ir.RegID, nr0)
	for r := range nr0 {
		info.Orig[r] = ir.RegID(r)
	}
	cur := make([]ir.RegID, nr0)
	copy(cur, info.Orig)
	type undo struct{ r, prev ir.RegID }
	var log []undo
	marks := make([]int, f.NumBlocks())
	count := make([]int, nr0)
	newVersion := func(r ir.RegID) ir.RegID {
		count[r]++
		info.Versions++
		// A version keeps its register's name (the printer suffixes
		// names that collide): no string is made per definition.
		v := f.AddReg(f.RegName[r], f.RegType[r])
		f.RegVec[v] = f.RegVec[r]
		info.Orig = append(info.Orig, r)
		log = append(log, undo{r, cur[r]})
		cur[r] = v
		return v
	}
	var refs []RegRef
	stack := []int64{int64(dom.Root)}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top < 0 { // leaving block ^top: undo its versions
			b := ir.BlockID(^top)
			for len(log) > marks[b] {
				u := log[len(log)-1]
				log = log[:len(log)-1]
				cur[u.r] = u.prev
			}
			continue
		}
		b := ir.BlockID(top)
		marks[b] = len(log)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if IsPhi(f, i) {
				o := f.Ops(i)[0]
				f.Ops(i)[0] = o.WithIndex(uint32(newVersion(o.Reg())))
				continue
			}
			refs = AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if !x.Def && int(x.Reg) < nr0 && version[x.Reg] {
					o := OperandAt(f, i, x.Loc)
					SetOperandAt(f, i, x.Loc, o.WithIndex(uint32(cur[x.Reg])))
				}
			}
			for _, x := range refs {
				if x.Def && int(x.Reg) < nr0 && version[x.Reg] {
					o := OperandAt(f, i, x.Loc)
					SetOperandAt(f, i, x.Loc, o.WithIndex(uint32(newVersion(x.Reg))))
				}
			}
		}
		for _, s := range f.SuccsOf(b) {
			for i := f.BlockFirst[s]; i != ir.NoInstr && IsPhi(f, i); i = f.Next[i] {
				ops := f.Ops(i)
				r := info.Orig[ops[0].Reg()]
				for k := 1; k+1 < len(ops); k += 2 {
					if ir.BlockID(ops[k+1].Index()) == b {
						ops[k] = ops[k].WithIndex(uint32(cur[r]))
					}
				}
			}
		}
		stack = append(stack, ^top)
		kids := dom.Children(b)
		for k := len(kids) - 1; k >= 0; k-- {
			stack = append(stack, int64(kids[k]))
		}
	}
	return info, nil
}

// phiAtEntry reports whether some register with a definition is live
// into the entry block e (which then, having predecessors, would need a
// PHI).
func phiAtEntry(f *ir.Func, live *Liveness, du *DefUse, e ir.BlockID) bool {
	found := false
	live.eachLiveIn(e, func(r ir.RegID) {
		if !found && len(du.Defs(r)) > 0 && f.RegParam(r) == ir.NoSym {
			found = true
		}
	})
	return found
}

type pcopy struct{ dst, src ir.RegID }

// DestroySSA replaces the PHIs of f by copies and returns how many copies
// it inserted.
func DestroySSA(f *ir.Func) int {
	ensureCFG(f)
	SplitCriticalEdges(f)
	nb := f.NumBlocks()
	perPred := make([][]pcopy, nb)
	for b := range nb {
		for i := f.BlockFirst[b]; i != ir.NoInstr && IsPhi(f, i); {
			next := f.Next[i]
			ops := f.Ops(i)
			dst := ops[0].Reg()
			for k := 1; k+1 < len(ops); k += 2 {
				p := ir.BlockID(ops[k+1].Index())
				perPred[p] = append(perPred[p], pcopy{dst, ops[k].Reg()})
			}
			f.Remove(i)
			i = next
		}
	}
	n := 0
	for p := range nb {
		if len(perPred[p]) > 0 {
			n += sequentialize(f, ir.BlockID(p), perPred[p])
		}
	}
	f.ComputeCFG()
	return n
}

// sequentialize inserts the parallel copy cs at the end of block p.
func sequentialize(f *ir.Func, p ir.BlockID, cs []pcopy) int {
	at := ir.NoInstr // insert before this (the terminator), or append
	if last := f.BlockLast[p]; last != ir.NoInstr && f.Op[last].Props().Has(ir.PTerminator) {
		at = last
	}
	n := 0
	emit := func(dst, src ir.RegID) {
		t := f.RegType[dst]
		i := f.NewInstr(ir.Form{Op: ir.OpMov, Type: t}, []ir.Operand{ir.RegDef(dst), ir.RegOp(src)})
		if at != ir.NoInstr {
			f.InsertBefore(at, i)
		} else {
			f.Append(p, i)
		}
		n++
	}
	temp := func(r ir.RegID) ir.RegID {
		v := f.AddReg(f.Mod.Strings.Intern(fmt.Sprintf("%s_t%d", f.Str(f.RegName[r]), f.NumRegs())), f.RegType[r])
		f.RegVec[v] = f.RegVec[r]
		return v
	}
	// Drop self-copies.
	k := 0
	for _, c := range cs {
		if c.dst != c.src {
			cs[k] = c
			k++
		}
	}
	cs = cs[:k]
	// A terminator reading a destination reads a saved value instead.
	if at != ir.NoInstr {
		var refs []RegRef
		refs = AppendRegRefs(f, at, refs)
		for _, x := range refs {
			if x.Def {
				continue
			}
			for _, c := range cs {
				if c.dst == x.Reg {
					t := temp(x.Reg)
					emit(t, x.Reg)
					SetOperandAt(f, at, x.Loc, OperandAt(f, at, x.Loc).WithIndex(uint32(t)))
					break
				}
			}
		}
	}
	read := func(r ir.RegID) bool {
		for _, c := range cs {
			if c.src == r {
				return true
			}
		}
		return false
	}
	for len(cs) > 0 {
		progress := false
		for k := 0; k < len(cs); {
			c := cs[k]
			cs = append(cs[:k], cs[k+1:]...)
			if read(c.dst) {
				cs = append(cs[:k], append([]pcopy{c}, cs[k:]...)...)
				k++
				continue
			}
			emit(c.dst, c.src)
			progress = true
		}
		if !progress {
			// Only cycles left: save one destination in a temporary.
			d := cs[0].dst
			t := temp(d)
			emit(t, d)
			for k := range cs {
				if cs[k].src == d {
					cs[k].src = t
				}
			}
		}
	}
	return n
}

// ssaLive is the liveness BuildSSA needs when the caller holds none,
// computed register by register: pruned SSA asks where the registers
// with several definitions (or live into the entry) are live in, and,
// for the others, only whether they are live into the entry. A
// whole-function liveness answers for every register at every block; on
// a large function most registers have one definition, and the few
// others cost a backward search each over their live range (the sparse
// method of liveness.go), which is far less than the whole solve.
type ssaLive struct {
	f   *ir.Func
	du  *DefUse
	dom *DomTree
	pos []int32 // each instruction's position in its block
	// per block, under stamp: live in (mark); the first killing
	// definition (kpos, under kst) and the first read (upos, under ust)
	// of the register being solved
	mark, kst, ust []uint32
	kpos, upos     []int32
	stamp          uint32
	stack          []ir.BlockID
}

func newSSALive(f *ir.Func, du *DefUse, dom *DomTree) *ssaLive {
	nb := f.NumBlocks()
	s := &ssaLive{f: f, du: du, dom: dom, pos: make([]int32, f.NumInstrs())}
	marks := make([]uint32, 3*nb)
	s.mark, s.kst, s.ust = marks[:nb:nb], marks[nb:2*nb:2*nb], marks[2*nb:]
	ps := make([]int32, 2*nb)
	s.kpos, s.upos = ps[:nb:nb], ps[nb:]
	for b := range nb {
		k := int32(0)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			s.pos[i] = k
			k++
		}
	}
	return s
}

// liveAtEntry reports whether r, with at most one definition, is live
// into the entry: whether some reachable read of r is not preceded on
// every path by the definition D — a read in a block D's block does not
// dominate (a path from the entry avoids D), or one in D's block at or
// before D (the path to the block's first visit avoids D).
func (s *ssaLive) liveAtEntry(r ir.RegID) bool {
	f := s.f
	defs := s.du.Defs(r)
	d, bd := ir.NoInstr, ir.NoBlock
	if len(defs) == 1 {
		d = defs[0].Instr
		bd = f.Block[d]
		if f.Guard[d] != ir.NoOperand {
			d, bd = ir.NoInstr, ir.NoBlock // kills nothing
		}
	}
	for _, u := range s.du.Uses(r) {
		bu := f.Block[u.Instr]
		if !s.dom.Contains(bu) {
			continue
		}
		if d == ir.NoInstr {
			return true
		}
		if bu == bd {
			if s.pos[u.Instr] <= s.pos[d] {
				return true
			}
			continue
		}
		if !s.dom.Dominates(bd, bu) {
			return true
		}
	}
	return false
}

// solve computes the blocks r is live into (liveIn answers until the
// next solve) and reports whether there is any: a backward search from
// the blocks whose first reference to r reads it, through predecessors,
// stopping at blocks with a killing definition of r.
func (s *ssaLive) solve(r ir.RegID) bool {
	f := s.f
	s.stamp++
	st := s.stamp
	for _, x := range s.du.Defs(r) {
		i := x.Instr
		if f.Guard[i] != ir.NoOperand {
			continue // a guarded write kills nothing
		}
		b, p := f.Block[i], s.pos[i]
		if s.kst[b] != st || p < s.kpos[b] {
			s.kst[b], s.kpos[b] = st, p
		}
	}
	uses := s.du.Uses(r)
	for _, x := range uses {
		b, p := f.Block[x.Instr], s.pos[x.Instr]
		if s.ust[b] != st || p < s.upos[b] {
			s.ust[b], s.upos[b] = st, p
		}
	}
	s.stack = s.stack[:0]
	for _, x := range uses {
		b := f.Block[x.Instr]
		// an instruction reads before it writes: a read at the position
		// of the first kill comes first
		if s.mark[b] != st && (s.kst[b] != st || s.upos[b] <= s.kpos[b]) {
			s.mark[b] = st
			s.stack = append(s.stack, b)
		}
	}
	found := len(s.stack) > 0
	for len(s.stack) > 0 {
		c := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		for _, q := range f.PredsOf(c) {
			if s.mark[q] != st && s.kst[q] != st {
				s.mark[q] = st
				s.stack = append(s.stack, q)
			}
		}
	}
	return found
}

// liveIn reports whether the register of the last solve is live into b.
func (s *ssaLive) liveIn(b ir.BlockID) bool { return s.mark[b] == s.stamp }

// hasPhis reports whether some block of f starts with a PHI.
func hasPhis(f *ir.Func) bool {
	for b := range f.NumBlocks() {
		if i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi {
			return true
		}
	}
	return false
}
