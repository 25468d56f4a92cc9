package core

import "github.com/ptxopt/ptxopt/ir"

// referenceUniformity is the uniformity analysis as it was before the
// layout-order sweeps (a worklist over def-use chains from the start):
// the straightforward fixed point the faster one must equal.
func referenceUniformity(u *Uniformity, f *ir.Func, du *DefUse, divergence func() DivergenceInputs) *Uniformity {
	u, bf, empty := startUniformity(u, f)
	if empty {
		return u
	}
	nr, nb := f.NumRegs(), f.NumBlocks()
	work := bf.work[:0]
	defer func() { bf.work = work[:0] }()
	var refsBuf [32]RegRef
	refs := refsBuf[:0]
	markDefs := func(i ir.InstrID) {
		refs = AppendRegRefs(f, i, refs[:0])
		for _, x := range refs {
			if x.Def && !u.Varying[x.Reg] {
				u.Varying[x.Reg] = true
				work = append(work, x.Reg)
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
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if divergenceSource(f, i) {
				markDefs(i)
			}
		}
	}
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
		defsOf  csr // registers defined in each block (from du)
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
	var pos []int32
	posOf := func(i ir.InstrID) int32 {
		if pos == nil {
			bf.pos = grow(bf.pos, f.NumInstrs())
			pos = bf.pos
			for _, b := range f.Layout {
				n := int32(0)
				for j := f.BlockFirst[b]; j != ir.NoInstr; j = f.Next[j] {
					pos[j] = n
					n++
				}
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
	diverge := func(b ir.BlockID) {
		if live == nil {
			in := divergence()
			live, pd, dom = in.Live, in.PostDom, in.Dom
			bf.marks = grow(bf.marks, nb+nr)
			marks := bf.marks
			seen, defd = marks[:nb:nb], marks[nb:]
			defsOf = defsByBlock(f, du, bf)
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
			for _, r := range defsOf.of(c) {
				if rr := ir.RegID(r); defd[rr] != stamp && !u.Varying[rr] && live.Global[rr] >= 0 {
					defd[rr] = stamp
					cand = append(cand, rr)
				}
			}
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
				for _, c := range joins {
					if live.IsLiveIn(c, r) && merged(r, c) {
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
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, use := range du.Uses(r) {
			i := use.Instr
			markDefs(i)
			b := f.Block[i]
			if !u.Divergent[b] && f.Op[i].Props().Has(ir.PBranch) && len(f.SuccsOf(b)) > 1 {
				u.Divergent[b] = true
				diverge(b)
			}
		}
	}
	return u
}
