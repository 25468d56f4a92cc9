package phases

import (
	"cmp"
	"fmt"
	"os"
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// SSA in and out.
//
// IntoSSA builds pruned SSA with PHI instructions (core.BuildSSA: PHIs
// only where the register is live, versions renamed along the dominator
// tree). Registers with a guarded definition, .reg parameters and
// everything in unreachable blocks stay as written: a guarded write
// merges with the old value lane by lane, which a single-definition name
// cannot say without a select, so those registers keep their several
// definitions and every pass treats them as it treats non-SSA code.
//
// CSSA (seed 004) makes the SSA conventional: for every PHI and incoming
// edge a copy ("pcp") is placed before the predecessor's terminator and
// the PHI reads it; the PHI's result goes to a fresh value copied to the
// old name right after the block's PHIs. Each PHI web (the PHI's result
// and its operand copies) then has live ranges that cannot overlap, under
// scalar and under SIMT execution alike: the copies are written at the end
// of the paths lanes take, before the warp reconverges.
//
// OutOfSSA turns each web into one register and removes the PHIs, then
// gives every value back a register: its original one (the register it
// is a version of; a web takes its PHI's), unless it interferes there
// with another value of the same original register, in which case its
// class keeps a register of its own. Interference is Chaitin's rule
// (a value interferes with whatever is live after one of its
// definitions, a copy's source excepted) on PHI-aware liveness, and, with
// cssa-coalesce at 2, the SIMT rule at divergent joins (a PHI the
// uniformity analysis calls varying): the web also interferes with every
// other value of its register that lanes carry into the join (live into
// it, or read by another of its PHIs), because lanes arriving from one
// side hold those values while lanes from the other side wrote the web's
// copies. At level 1 webs at divergent joins are never coalesced; at 0 no
// CSSA copy is. At every level, a value live on one side of a divergent
// branch and a value defined on the other side never share a register
// when either is uniform (simtregion.go: the hazard with no PHI between
// the two). Copies whose two sides end in one register disappear.
// (With PTX's per-thread registers the rule decides which of two values
// moves, not whether they share: Chaitin's rule already pairs the web
// with every such value, live where the PHI defines the web, and a
// divergent warp's lanes each see only their own path. Where registers
// are warp-wide, a varying web is not among them. TestCSSADivergenceHazard
// shows both in the simulator.)

// ssaState is the pipeline's record of a function in SSA form, kept
// between IntoSSA and OutOfSSA.
type ssaState struct {
	// orig maps each register made up to IntoSSA's end to the register it
	// is a version of; later registers are their own.
	orig []ir.RegID
	// renamed is true for the original registers IntoSSA renamed (all
	// their definitions in reachable code are single-definition values).
	renamed  []bool
	nr0      int  // registers before IntoSSA
	versions int  // versions IntoSSA made
	cssa     bool // CSSA ran: PHI operands and results are isolated copies
	copies   int  // copies CSSA inserted
	// CSSA's copy registers are [copyFrom, copyTo).
	copyFrom, copyTo int
	// multi[o]: original register o has versions (computed on first use).
	multi []bool
}

// clone copies s (nil stays nil): the register retry restarts a run
// from a saved point with the state IntoSSA left there.
func (s *ssaState) clone() *ssaState {
	if s == nil {
		return nil
	}
	t := *s
	t.orig, t.renamed, t.multi = slices.Clone(s.orig), slices.Clone(s.renamed), slices.Clone(s.multi)
	return &t
}

func (s *ssaState) origOf(r ir.RegID) ir.RegID {
	if int(r) < len(s.orig) {
		return s.orig[r]
	}
	return r
}

// multiVersion reports whether r is one of several versions IntoSSA made
// of a register written more than once.
func (s *ssaState) multiVersion(r ir.RegID) bool {
	if s.multi == nil {
		s.multi = make([]bool, len(s.orig))
		for v, o := range s.orig {
			if o != ir.RegID(v) && int(o) < len(s.multi) {
				s.multi[o] = true
			}
		}
	}
	o := s.origOf(r)
	return int(o) < len(s.multi) && s.multi[o]
}

// setOrig records that r (made after IntoSSA) stands for original o.
func (s *ssaState) setOrig(r, o ir.RegID) {
	for int(r) >= len(s.orig) {
		s.orig = append(s.orig, ir.RegID(len(s.orig)))
	}
	s.orig[r] = o
}

// isValue reports whether r must have at most one definition while SSA
// holds: every register but the original ones IntoSSA left alone.
func (s *ssaState) isValue(r ir.RegID) bool {
	return int(r) >= s.nr0 || s.renamed[r]
}

// intoSSA: IntoSSA.
func intoSSA(p *Pass) bool {
	f := p.F
	nr0 := f.NumRegs()
	info, err := core.BuildSSAWith(f, core.SSAInputs{Dom: p.A.Dom(), Live: p.A.CachedLiveness(), DU: p.A.DefUse()})
	if err != nil {
		p.Count("not built: "+err.Error(), 1)
		return false
	}
	p.ssa = &ssaState{orig: info.Orig, renamed: info.Renamed, nr0: nr0, versions: info.Versions}
	if info.Phis > 0 {
		p.Count("PHIs placed", int64(info.Phis))
	}
	if info.Versions > 0 {
		p.Count("definitions renamed", int64(info.Versions))
	}
	return info.Versions > 0 || info.Phis > 0 || info.NewEntry
}

// outOfSSA: OutOfSSA, PHIs become moves (usedessa).
func outOfSSA(p *Pass) bool { return leaveSSA(p, true) }

// outOfSSAScalar is OutOfSSA with the SIMT rule left out: coalescing by
// the scalar CFG's interference alone, at every join. It is no phase of
// the pipeline; tests put it in OutOfSSA's slot (Config.Override) to
// compare the two rules.
func outOfSSAScalar(p *Pass) bool { return leaveSSA(p, false) }

// leaveSSA is OutOfSSA; simt false leaves out what cssa-coalesce 1 and
// 2 do at divergent joins and the rule across divergent branches (the
// pipeline always passes true).
func leaveSSA(p *Pass, simt bool) bool {
	f, st := p.F, p.ssa
	p.ssa = nil
	changed := false
	if !st.cssa {
		// Without CSSA's copies, core places a parallel copy per edge
		// (splitting critical edges, ordering swaps and cycles).
		if n := core.DestroySSA(f); n > 0 {
			p.Count("edge copies", int64(n))
		}
		changed = true
	}
	if st.versions == 0 && st.copies == 0 && !hasPhi(f) {
		// Nothing was renamed and no PHI stands: every register is its
		// own (original or made by a pass) and already in place.
		if dropUnnamedRegs(f) {
			p.A.Invalidate(PreserveAll)
			changed = true
		}
		return changed
	}
	coalesce := p.Knobs.Int(CSSACoalesce)
	if p.Knobs.Int(UseDeSSA) == 1 {
		coalesce = 0
	}
	n := assignRegisters(p, st, coalesce, simt)
	if n.canceled {
		// Stopped before the rewrite: the function is as it came (with
		// CSSA's copies, its PHIs and versions: still in SSA form), or
		// DestroySSA's copies replaced the PHIs (ordinary registers).
		if st.cssa {
			p.ssa = st
		}
		return changed
	}
	if n.removed > 0 {
		p.Count("copies coalesced", int64(n.removed))
	}
	if st.copies > 0 {
		p.Count("CSSA copies left", int64(n.cssaLeft))
		if p.Knobs.Int(CSSAVerbosity) >= 2 {
			fmt.Fprintf(os.Stderr, "ptxopt: OutOfSSA %s: %d of %d CSSA copies left\n", f.Name, n.cssaLeft, st.copies)
		}
	}
	if n.split > 0 {
		p.Count("values kept apart from their register", int64(n.split))
	}
	if n.simt > 0 {
		p.Count("PHI webs kept apart at divergent joins", int64(n.simt))
	}
	if n.region > 0 {
		p.Count("value pairs kept apart across divergent branches", int64(n.region))
	}
	if n.reused > 0 {
		p.Count("values kept apart in a free register", int64(n.reused))
	}
	if dropUnnamedRegs(f) {
		p.A.Invalidate(PreserveAll)
		n.changed = true
	}
	return changed || n.changed
}

type assignResult struct {
	canceled       bool // the run was canceled before the rewrite: nothing changed
	changed        bool
	removed, split int
	reused         int // classes kept apart in another register that was free
	simt           int // PHI webs the SIMT rule kept apart
	region         int // pairs of values across divergent branches kept apart
	cssaLeft       int
}

// assignRegisters ends SSA: PHI webs are merged into classes, classes
// that interfere with another class of the same original register are
// kept apart, every register is rewritten to its class's register, the
// PHIs and the copies made self-copies are removed, and the register
// table drops the versions nothing names any more.
func assignRegisters(p *Pass, st *ssaState, coalesce int64, simt bool) assignResult {
	f, sc := p.F, p.Scratch
	var res assignResult
	// The walks poll the run's context (per block, per class); the
	// rewrite at the end, the only edit, runs whole or not at all.
	pl := newPoller(p)
	if p.Canceled() {
		return assignResult{canceled: true}
	}
	nr := f.NumRegs()
	// Union-find over registers.
	parent := takeFit[ir.RegID](sc, nr)
	for r := range parent {
		parent[r] = ir.RegID(r)
	}
	var find func(r ir.RegID) ir.RegID
	find = func(r ir.RegID) ir.RegID {
		for parent[r] != r {
			parent[r] = parent[parent[r]]
			r = parent[r]
		}
		return r
	}
	pref := takeFit[ir.RegID](sc, nr) // a class root's preferred register
	for r := range nr {
		pref[r] = st.origOf(ir.RegID(r))
	}
	// PHI webs are one class each, preferring the PHI's original register.
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			d := find(f.Ops(i)[0].Reg())
			core.PhiIncoming(f, i, func(_ int, v ir.Operand, _ ir.BlockID) {
				if v.IsReg() {
					if x := find(v.Reg()); x != d {
						parent[x] = d
					}
				}
			})
		}
	}
	cls := takeFit[ir.RegID](sc, nr)
	for r := range nr {
		cls[r] = find(ir.RegID(r))
	}
	// fixed registers keep their names: .reg parameters.
	fixed := takeFit[bool](sc, nr)
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if r, ok := f.ParamReg(id); ok {
				fixed[cls[r]] = true
			}
		}
	}
	apart := takeFit[bool](sc, nr) // class roots kept in a register of their own
	if coalesce == 0 {
		// Every CSSA web and copy keeps its own register.
		for r := st.copyFrom; r < st.copyTo; r++ {
			apart[cls[r]] = !fixed[cls[r]]
		}
	}
	// Chaitin's rule, per register group: walk each block backwards with
	// counts of the live values per preferred register and per class.
	live := p.A.Liveness()
	// The uniformity of the values: the SIMT rules ask for it, and so
	// does reuseFree, per class (kind: kindVarying when one of its values
	// is varying, else kindUniform; 0 for a class no instruction names).
	uni := p.A.Uniformity()
	kind := takeFit[uint8](sc, nr)
	isLive := takeFit[bool](sc, nr)
	// The live values of each preferred register, as a doubly linked
	// list (head per register, links per value): a definition meets only
	// the values of its own register, not every value live in the block
	// (on a kernel where many values are kept apart, what made
	// OutOfSSA's time grow with the live set).
	prefHead := takeFit[ir.RegID](sc, nr)
	prefNext := takeFit[ir.RegID](sc, nr)
	prefPrev := takeFit[ir.RegID](sc, nr)
	for r := range prefHead {
		prefHead[r] = ir.NoReg
	}
	var touched, outs []ir.RegID
	var refs []core.RegRef
	setLive := func(r ir.RegID, on bool) {
		if isLive[r] == on {
			return
		}
		isLive[r] = on
		pr := pref[cls[r]]
		if on {
			touched = append(touched, r)
			h := prefHead[pr]
			prefNext[r], prefPrev[r] = h, ir.NoReg
			if h != ir.NoReg {
				prefPrev[h] = r
			}
			prefHead[pr] = r
			return
		}
		nx, pv := prefNext[r], prefPrev[r]
		if pv != ir.NoReg {
			prefNext[pv] = nx
		} else {
			prefHead[pr] = nx
		}
		if nx != ir.NoReg {
			prefPrev[nx] = pv
		}
	}
	// Values: a register whose one definition is a plain copy holds its
	// source's value (chains followed), so two copies of one value
	// never interfere (value-based interference): CSSA's copies of one
	// value into two webs, a copy and its source.
	val := copyValues(f, sc, nr)
	// Conflicting class pairs; which side moves is decided after the
	// walk (a greedy vertex cover: the class in most conflicts moves).
	type pair struct{ a, b ir.RegID }
	var pairs []pair
	var visits int64 // live values the walks below met (testHooks)
	conflict := func(w ir.RegID, src ir.RegID) {
		c := cls[w]
		pr := pref[c]
		n := 0
		for u := prefHead[pr]; u != ir.NoReg; u = prefNext[u] {
			if cls[u] != c {
				n++
			}
		}
		if src != ir.NoReg && isLive[src] && pref[cls[src]] == pr && cls[src] != c {
			n-- // a copy's source holds the same value
		}
		if n <= 0 {
			return
		}
		for u := prefHead[pr]; u != ir.NoReg; u = prefNext[u] {
			visits++
			if cls[u] != c && val[u] != val[w] {
				pairs = append(pairs, pair{min(c, cls[u]), max(c, cls[u])})
			}
		}
	}
	for _, b := range f.Layout {
		if pl.stop() {
			return assignResult{canceled: true}
		}
		// Every value dead again, the lists emptied at their heads.
		for _, r := range touched {
			isLive[r] = false
			prefHead[pref[cls[r]]] = ir.NoReg
		}
		touched = touched[:0]
		outs = live.LiveOutRegs(b, outs[:0])
		for _, r := range outs {
			setLive(r, true)
		}
		for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
			refs = core.AppendRegRefs(f, i, refs[:0])
			src := ir.NoReg
			if f.Op[i] == ir.OpMov && f.Guard[i] == ir.NoOperand {
				if ops := f.Ops(i); len(ops) == 2 && ops[1].IsReg() {
					src = ops[1].Reg()
				}
			}
			for _, x := range refs {
				k := kindUniform
				if uni.Varying[x.Reg] {
					k = kindVarying
				}
				kind[cls[x.Reg]] |= k
				if x.Def {
					conflict(x.Reg, src)
				}
			}
			if f.Guard[i] == ir.NoOperand {
				for _, x := range refs {
					if x.Def {
						setLive(x.Reg, false)
					}
				}
			}
			if f.Op[i] != ir.OpPhi {
				for _, x := range refs {
					if !x.Def {
						setLive(x.Reg, true)
					}
				}
			}
		}
	}
	if p.Canceled() {
		return assignResult{canceled: true}
	}
	// The SIMT rule across divergent branches (simtregion.go): values of
	// uniform classes (a class with a varying value makes its register
	// per lane) on the two sides of a divergent branch.
	for c, k := range kind {
		if k&kindVarying != 0 {
			kind[c] = kindVarying
		}
	}
	var sides *simtSides
	simtOK := func(r, w ir.RegID) bool {
		return cls[r] != cls[w] && val[r] != val[w] && f.RegType[r] == f.RegType[w] && kind[cls[r]] == kindUniform && kind[cls[w]] == kindUniform
	}
	// A pair whose register also holds a varying class is no hazard
	// while that class stays there (the register is per lane): such
	// pairs are held until the cover has decided (below).
	var regionPairs, held []pair
	groupVar := takeFit[bool](sc, nr)
	for c, k := range kind {
		if k == kindVarying && ir.RegID(c) == cls[c] {
			groupVar[pref[c]] = true
		}
	}
	if simt {
		sides = newSIMTSides(f, live, uni, p.A.PostDom())
	}
	if sides != nil {
		// The values of side i by preferred register (a list per
		// register through head and nxt), so each definition of side j
		// meets only the values of its own register.
		head := takeFit[int32](sc, nr)
		for k := range head {
			head[k] = -1
		}
		var nxt []int32
		sides.each(func(x, d []ir.RegID) {
			nxt = nxt[:0]
			for k, r := range x {
				pr := pref[cls[r]]
				nxt = append(nxt, head[pr])
				head[pr] = int32(k)
			}
			for _, w := range d {
				pr := pref[cls[w]]
				for k := head[pr]; k >= 0; k = nxt[k] {
					if r := x[k]; simtOK(r, w) {
						e := pair{min(cls[r], cls[w]), max(cls[r], cls[w])}
						if groupVar[pr] {
							held = append(held, e)
						} else {
							regionPairs = append(regionPairs, e)
						}
					}
				}
			}
			for _, r := range x {
				head[pref[cls[r]]] = -1
			}
		})
		pairs = append(pairs, regionPairs...)
	}
	if pl.now() {
		return assignResult{canceled: true}
	}
	if len(pairs) > 0 {
		slices.SortFunc(pairs, func(x, y pair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
		pairs = slices.Compact(pairs)
		deg := takeFit[int32](sc, nr)
		for _, e := range pairs {
			deg[e.a]++
			deg[e.b]++
		}
		var order []ir.RegID
		for c := range nr {
			if deg[c] > 0 && !fixed[c] {
				order = append(order, ir.RegID(c))
			}
		}
		slices.SortStableFunc(order, func(x, y ir.RegID) int { return cmp.Compare(deg[y], deg[x]) })
		// Each class's edges, for the cover.
		start := takeFit[int32](sc, nr+1)
		for _, e := range pairs {
			start[e.a+1]++
			start[e.b+1]++
		}
		for c := range nr {
			start[c+1] += start[c]
		}
		adj := takeFit[ir.RegID](sc, 2*len(pairs))
		fill := slices.Clone(start[:nr])
		for _, e := range pairs {
			adj[fill[e.a]] = e.b
			fill[e.a]++
			adj[fill[e.b]] = e.a
			fill[e.b]++
		}
		for _, c := range order {
			for _, u := range adj[start[c]:start[c+1]] {
				if !apart[u] && !apart[c] {
					apart[c] = true
				}
			}
		}
	}
	if len(held) > 0 {
		// The held pairs of registers no varying class stays in: one
		// side moves.
		stayVar := takeFit[bool](sc, nr)
		for c, k := range kind {
			if k == kindVarying && ir.RegID(c) == cls[c] && (!apart[c] || fixed[c]) {
				stayVar[pref[c]] = true
			}
		}
		for _, e := range held {
			if stayVar[pref[e.a]] || apart[e.a] && !fixed[e.a] || apart[e.b] && !fixed[e.b] {
				continue
			}
			if !fixed[e.b] {
				apart[e.b] = true
			} else if !fixed[e.a] {
				apart[e.a] = true
			}
			regionPairs = append(regionPairs, e)
		}
	}
	// Classes apart by Chaitin's rule alone may take another free
	// register below (reuseFree); those the SIMT rule or level 0 keep
	// apart keep a register of their own.
	reusable := slices.Clone(apart)
	var simtPairs []classPair
	if coalesce == 0 {
		for r := st.copyFrom; r < st.copyTo; r++ {
			reusable[cls[r]] = false
		}
	}
	// The SIMT rule (cssa-coalesce 2) and the uniform-only level (1).
	if coalesce >= 1 && simt && hasPhi(f) {
		var tmp []ir.RegID
		for _, b := range f.Layout {
			if pl.stop() {
				return assignResult{canceled: true}
			}
			i := f.BlockFirst[b]
			if i == ir.NoInstr || f.Op[i] != ir.OpPhi {
				continue
			}
			if coalesce == 2 && !simtCandidate(f, live, b, cls, pref, fixed, apart, &tmp) {
				continue
			}
			u := uni
			divergent := false
			for ; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
				if u.Varying[f.Ops(i)[0].Reg()] {
					divergent = true
				}
			}
			if !divergent {
				continue
			}
			for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
				c := cls[f.Ops(i)[0].Reg()]
				if coalesce == 1 {
					apart[c] = !fixed[c]
					continue
				}
				// Lanes reach the join from every predecessor at once:
				// a value of the web's register that some of them carry
				// into the join (live into it, or read by another PHI)
				// would share the register with the copies the other
				// lanes wrote. simtCandidate left those values in tmp
				// (the same for every PHI of the join).
				for _, r := range tmp {
					if cls[r] != c && pref[cls[r]] == pref[c] && !fixed[c] && !apart[c] {
						apart[c] = true
						res.simt++
						// It may still take a free register that no
						// value entering the join is in.
						reusable[c] = true
						for _, q := range tmp {
							if cls[q] != c {
								simtPairs = append(simtPairs, classPair{c, cls[q]})
							}
						}
					}
				}
			}
		}
	}
	for c := range nr {
		if reusable[c] && (!apart[c] || fixed[c] || ir.RegID(c) != cls[c]) {
			reusable[c] = false
		}
	}
	if sides != nil {
		// A class that may take a free register must not take one that
		// a value on the other side of a divergent branch ends in.
		sides.each(func(x, d []ir.RegID) {
			for _, w := range d {
				if c := cls[w]; reusable[c] {
					for _, r := range x {
						if simtOK(r, w) {
							simtPairs = append(simtPairs, classPair{c, cls[r]})
						}
					}
				}
			}
			for _, r := range x {
				if c := cls[r]; reusable[c] {
					for _, w := range d {
						if simtOK(r, w) {
							simtPairs = append(simtPairs, classPair{c, cls[w]})
						}
					}
				}
			}
		})
		slices.SortFunc(regionPairs, func(x, y pair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
		for _, e := range slices.Compact(regionPairs) {
			if apart[e.a] && !fixed[e.a] || apart[e.b] && !fixed[e.b] {
				res.region++
			}
		}
	}
	reg, kept := reuseFree(f, sc, st, live, cls, pref, apart, fixed, reusable, val, simtPairs, kind, pl)
	if reg == nil || p.Canceled() {
		return assignResult{canceled: true}
	}
	if h := p.hooks(); h != nil {
		h.ossaConflictVisits.Add(visits)
		h.ossaPairs.Add(int64(kept))
	}
	// The register of each class; versions nothing maps to are dropped
	// and the registers above nr0 renumbered densely.
	final := takeFit[ir.RegID](sc, nr)
	for r := range nr {
		c := cls[r]
		if apart[c] || fixed[c] {
			final[r] = c
			if fixed[c] {
				final[r] = pref[c]
			} else if reg[c] != ir.NoReg {
				final[r] = reg[c]
			}
		} else {
			final[r] = pref[c]
		}
		if final[r] != ir.RegID(r) {
			res.changed = true
		}
	}
	for c := range nr {
		if ir.RegID(c) == cls[c] && apart[c] && pref[c] != ir.RegID(c) {
			if reg[c] != ir.NoReg {
				res.reused++
			} else {
				res.split++
			}
		}
	}
	// Rewrite every operand (deleted instructions too, so nothing names
	// a register past the table) through final and the compaction.
	newID := compactRegs(f, sc, final, st.nr0)
	mapOp := func(o ir.Operand) ir.Operand {
		if o.IsReg() {
			return o.WithIndex(uint32(newID[final[o.Reg()]]))
		}
		return o
	}
	for i := range f.NumInstrs() {
		i := ir.InstrID(i)
		if g := f.Guard[i]; g.IsReg() {
			f.Guard[i] = mapOp(g)
		}
		ops := f.Ops(i)
		isCSSA := false
		if !f.IsDead(i) && f.Op[i] == ir.OpMov && len(ops) == 2 {
			isCSSA = ops[0].IsReg() && st.isCopyReg(ops[0].Reg()) || ops[1].IsReg() && st.isCopyReg(ops[1].Reg())
		}
		for k, o := range ops {
			switch o.Kind() {
			case ir.KReg:
				ops[k] = mapOp(o)
			case ir.KList:
				mapList(f, o.Index(), mapOp)
			case ir.KAddr:
				mapList(f, f.Addrs[o.Index()].Elems, mapOp)
			}
		}
		if f.IsDead(i) || f.Block[i] == ir.NoBlock {
			continue
		}
		switch {
		case f.Op[i] == ir.OpPhi:
			f.Remove(i)
			res.changed = true
		case f.Op[i] == ir.OpMov && len(ops) == 2 && ops[0].IsReg() && ops[1].IsReg() && ops[0].Reg() == ops[1].Reg() && f.Mods[i] == 0:
			f.Remove(i)
			res.removed++
			res.changed = true
		case isCSSA:
			res.cssaLeft++
		}
	}
	p.A.Invalidate(PreserveAll)
	return res
}

// copyValues returns, per register, the register whose value it holds:
// itself, or for a register with exactly one definition, an unguarded
// mov from a register of the same type, that register's value.
func copyValues(f *ir.Func, sc *Scratch, nr int) []ir.RegID {
	val := takeFit[ir.RegID](sc, nr)
	defs := takeFit[int32](sc, nr)
	from := takeFit[ir.RegID](sc, nr)
	for r := range val {
		val[r] = ir.RegID(r)
		from[r] = ir.NoReg
	}
	var refs []core.RegRef
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			refs = core.AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if x.Def {
					defs[x.Reg]++
				}
			}
			if f.Op[i] != ir.OpMov || f.Guard[i] != ir.NoOperand || f.Mods[i] != 0 {
				continue
			}
			if ops := f.Ops(i); len(ops) == 2 && ops[0].IsReg() && ops[1].IsReg() && f.RegType[ops[0].Reg()] == f.RegType[ops[1].Reg()] {
				from[ops[0].Reg()] = ops[1].Reg()
			}
		}
	}
	// Resolve chains; a register with several definitions holds no one
	// value, and a copy of one holds the value it had at the copy only
	// (the source may change after it), so it is a value of its own.
	// (Depth is bounded by nr: SSA copies form no cycle, and a register
	// on a cycle has a PHI or several definitions on it.)
	var resolve func(r ir.RegID, depth int) ir.RegID
	resolve = func(r ir.RegID, depth int) ir.RegID {
		if defs[r] != 1 || from[r] == ir.NoReg || defs[from[r]] > 1 || depth > 64 {
			return r
		}
		v := resolve(from[r], depth+1)
		return v
	}
	for r := range nr {
		val[r] = resolve(ir.RegID(r), 0)
	}
	return val
}

func (s *ssaState) isCopyReg(r ir.RegID) bool {
	return int(r) >= s.copyFrom && int(r) < s.copyTo
}

func mapList(f *ir.Func, l uint32, fn func(ir.Operand) ir.Operand) {
	for k, o := range f.ListElems(l) {
		switch o.Kind() {
		case ir.KReg:
			f.ListElems(l)[k] = fn(o)
		case ir.KList:
			mapList(f, o.Index(), fn)
		case ir.KAddr:
			mapList(f, f.Addrs[o.Index()].Elems, fn)
		}
	}
}

// compactRegs keeps registers below keep as they are and renumbers the
// registers at or above it that final maps something to, densely after
// keep; the rest of the table goes. It returns the renumbering (the
// caller rewrites the operands).
func compactRegs(f *ir.Func, sc *Scratch, final []ir.RegID, keep int) []ir.RegID {
	nr := f.NumRegs()
	used := takeFit[bool](sc, nr)
	for _, t := range final {
		used[t] = true
	}
	newID := takeFit[ir.RegID](sc, nr)
	next := ir.RegID(keep)
	for r := range nr {
		if r < keep {
			newID[r] = ir.RegID(r)
			continue
		}
		if used[r] {
			newID[r] = next
			f.RegName[next], f.RegType[next], f.RegVec[next] = f.RegName[r], f.RegType[r], f.RegVec[r]
			next++
		}
	}
	f.RegName, f.RegType, f.RegVec = f.RegName[:next], f.RegType[:next], f.RegVec[:next]
	return newID
}

// simplifyPhis turns each trivial PHI — one whose incoming values are all
// one operand (a register or a constant), ignoring the PHI's own result —
// into a mov of that operand placed after the block's PHIs, where copy
// and constant propagation take it further (the GeneralOptimize bundles
// call it in SSA form). A register operand must be defined outside the
// block, in a block that dominates it: a PHI reading a value of its own
// block reads the previous iteration's.
func simplifyPhis(p *Pass) int {
	f := p.F
	var du *core.DefUse
	var dom *core.DomTree
	var movs []ir.InstrID
	n := 0
	for _, b := range f.Layout {
		i := f.BlockFirst[b]
		if i == ir.NoInstr || f.Op[i] != ir.OpPhi {
			continue
		}
		movs = movs[:0]
		for ; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			ops := f.Ops(i)
			d := ops[0]
			var v ir.Operand
			found, same := false, true
			for k := 1; k+1 < len(ops); k += 2 {
				o := ops[k]
				if o.IsReg() && o.Reg() == d.Reg() {
					continue
				}
				if !found {
					v, found = o, true
				} else if o != v {
					same = false
					break
				}
			}
			if !found || !same {
				continue
			}
			if v.IsReg() {
				if du == nil {
					du, dom = p.A.DefUse(), p.A.Dom()
				}
				ok := true
				for _, x := range du.Defs(v.Reg()) {
					db := f.Block[x.Instr]
					if f.IsDead(x.Instr) || db == ir.NoBlock {
						continue
					}
					if db == b || !dom.Dominates(db, b) {
						ok = false
					}
				}
				if !ok {
					continue
				}
			}
			movs = append(movs, i)
		}
		if len(movs) == 0 {
			continue
		}
		// After the last PHI that stays (or at the block's head).
		var at ir.InstrID = ir.NoInstr
		for j := f.BlockFirst[b]; j != ir.NoInstr && f.Op[j] == ir.OpPhi; j = f.Next[j] {
			at = j
		}
		for _, i := range movs {
			ops := f.Ops(i)
			d := ops[0]
			var v ir.Operand
			for k := 1; k+1 < len(ops); k += 2 {
				if !(ops[k].IsReg() && ops[k].Reg() == d.Reg()) {
					v = ops[k]
					break
				}
			}
			mv := f.NewInstr(ir.Form{Op: ir.OpMov, Type: cssaMovType(f.RegType[d.Reg()])}, []ir.Operand{d, v})
			f.InsertAfter(at, mv)
			at = mv
			n++
		}
		for _, i := range movs {
			f.Remove(i)
		}
	}
	if n > 0 {
		p.A.Invalidate(ADefUse)
	}
	return n
}

// hasPhi reports whether some block of f starts with a PHI.
func hasPhi(f *ir.Func) bool {
	for _, b := range f.Layout {
		if i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi {
			return true
		}
	}
	return false
}

// classPair is a pair of interfering classes (class roots).
type classPair struct{ a, b ir.RegID }

// classPairs collects pairs in chunks from the arena (takeFit), of 256
// pairs doubling to 64K: on a huge function reuseFree gathers millions,
// and one slice grown by append would allocate several times their size,
// every copy garbage at OutOfSSA, the run's peak of memory.
type classPairs struct {
	chunks [][]classPair
	n      int
}

func (l *classPairs) add(sc *Scratch, e classPair) {
	k := len(l.chunks)
	if k == 0 || len(l.chunks[k-1]) == cap(l.chunks[k-1]) {
		l.chunks = append(l.chunks, takeFit[classPair](sc, 256<<min(k, 8))[:0])
		k++
	}
	l.chunks[k-1] = append(l.chunks[k-1], e)
	l.n++
}

// reuseFree gives each class in reusable (kept apart from its preferred
// register by Chaitin's rule or by the SIMT rule, whose pairs come in
// extra) another register of the function's own
// instead of a new one: a register of the same type, present before
// IntoSSA, that no class interfering with it ends in. Interference is the
// same rule as assignRegisters' (a value live where another is defined,
// copies of one value excepted), gathered in one backward walk for the
// reusable classes only. It returns, per class root, the register chosen
// (NoReg: none free; the class gets a register of its own), or nil when
// pl says the run was canceled, and the number of pairs it kept.
//
// A class takes no register that a class of the other kind (kind: uniform
// or varying) ends in: a register holding a varying value is varying,
// and the uniform values in it would count in the per-lane file R (what
// left three corpus functions above their input's maximum live R, the
// register retry unable to undo it: OutOfSSA is required). It skips at
// most maxKindSkips such registers, then keeps a register of its own.
func reuseFree(f *ir.Func, sc *Scratch, st *ssaState, live *core.Liveness, cls, pref []ir.RegID, apart, fixed, reusable []bool, val []ir.RegID, extra []classPair, kind []uint8, pl *poller) ([]ir.RegID, int) {
	nr := len(cls)
	reg := takeFit[ir.RegID](sc, nr)
	for c := range reg {
		reg[c] = ir.NoReg
	}
	any := false
	for c := range nr {
		if reusable[c] {
			any = true
			break
		}
	}
	if !any {
		return reg, 0
	}
	// The register of a class as decided so far.
	finalOf := func(c ir.RegID) ir.RegID {
		switch {
		case fixed[c]:
			return pref[c]
		case reg[c] != ir.NoReg:
			return reg[c]
		case apart[c]:
			return c
		}
		return pref[c]
	}
	// What a class's register can take from a reusable class of type t
	// it interferes with: a register of type t below nr0 (the only ones
	// the choice below looks at) when slot[class] is t. A reusable class
	// ends in a register of its own type; every other class's register
	// is already decided (noSlot: one of its own, above nr0). A pair
	// that cannot take a candidate is not kept: most interfering values
	// are of another type, and the pairs were most of OutOfSSA's time
	// and memory where many classes are kept apart.
	slot := takeFit[uint16](sc, nr)
	for c := range nr {
		slot[c] = noSlot
		if reusable[c] {
			slot[c] = uint16(f.RegType[c])
		} else if r := finalOf(ir.RegID(c)); int(r) < st.nr0 {
			slot[c] = uint16(f.RegType[r])
		}
	}
	// Interfering (reusable class, other class) pairs; extra are the
	// SIMT rule's (a web and the values entering its divergent join).
	type pair = classPair
	var pairs classPairs
	for _, e := range extra {
		if reusable[e.a] && slot[e.b] == slot[e.a] {
			pairs.add(sc, e)
		}
	}
	isLive := takeFit[bool](sc, nr)
	named := takeFit[bool](sc, nr) // classes an instruction names
	var outs []ir.RegID
	var refs []core.RegRef
	// The live values as dense lists, all of them and those of reusable
	// classes, with each member's position for removal: a definition
	// visits only what is live (of a reusable class, for the others'),
	// not every value that was live somewhere in the block.
	var liveAll, liveReus []ir.RegID
	posAll := takeFit[int32](sc, nr)
	posReus := takeFit[int32](sc, nr)
	drop := func(list []ir.RegID, pos []int32, r ir.RegID) []ir.RegID {
		k, last := pos[r], list[len(list)-1]
		list[k], pos[last] = last, k
		return list[:len(list)-1]
	}
	setLive := func(r ir.RegID, on bool) {
		if isLive[r] == on {
			return
		}
		isLive[r] = on
		reus := reusable[cls[r]]
		if on {
			posAll[r] = int32(len(liveAll))
			liveAll = append(liveAll, r)
			if reus {
				posReus[r] = int32(len(liveReus))
				liveReus = append(liveReus, r)
			}
			return
		}
		liveAll = drop(liveAll, posAll, r)
		if reus {
			liveReus = drop(liveReus, posReus, r)
		}
	}
	def := func(w, src ir.RegID) {
		c := cls[w]
		t := slot[c]
		if reusable[c] {
			for _, u := range liveAll {
				if b := cls[u]; b != c && slot[b] == t && u != src && val[u] != val[w] {
					pairs.add(sc, pair{c, b})
					if reusable[b] {
						pairs.add(sc, pair{b, c}) // both choose
					}
				}
			}
			return
		}
		if t == noSlot {
			return
		}
		for _, u := range liveReus {
			if b := cls[u]; b != c && slot[b] == t && u != src && val[u] != val[w] {
				pairs.add(sc, pair{b, c})
			}
		}
	}
	for _, b := range f.Layout {
		if pl.stop() {
			return nil, 0
		}
		for _, r := range liveAll {
			isLive[r] = false
		}
		liveAll, liveReus = liveAll[:0], liveReus[:0]
		outs = live.LiveOutRegs(b, outs[:0])
		for _, r := range outs {
			setLive(r, true)
		}
		for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
			refs = core.AppendRegRefs(f, i, refs[:0])
			src := ir.NoReg
			if f.Op[i] == ir.OpMov && f.Guard[i] == ir.NoOperand {
				if ops := f.Ops(i); len(ops) == 2 && ops[1].IsReg() {
					src = ops[1].Reg()
				}
			}
			for _, x := range refs {
				named[cls[x.Reg]] = true
				if x.Def {
					def(x.Reg, src)
				}
			}
			if f.Guard[i] == ir.NoOperand {
				for _, x := range refs {
					if x.Def {
						setLive(x.Reg, false)
					}
				}
			}
			if f.Op[i] != ir.OpPhi {
				for _, x := range refs {
					if !x.Def {
						setLive(x.Reg, true)
					}
				}
			}
		}
	}
	for _, e := range extra {
		if reusable[e.b] && slot[e.a] == slot[e.b] {
			pairs.add(sc, pair{e.b, e.a})
		}
	}
	if pl.now() {
		return nil, 0
	}
	// Each class's interfering classes together, in class order: a
	// counting sort on the class (linear, where sorting the pairs cost
	// n log n). Their order within a class and duplicates do not matter
	// to what reads them: a set of taken registers.
	end := takeFit[int32](sc, nr+1)
	for _, ch := range pairs.chunks {
		for _, e := range ch {
			end[e.a+1]++
		}
	}
	for c := range nr {
		end[c+1] += end[c]
	}
	with := takeFit[ir.RegID](sc, pairs.n)
	for _, ch := range pairs.chunks {
		for _, e := range ch {
			with[end[e.a]] = e.b
			end[e.a]++
		}
	}
	kept := pairs.n
	pairs = classPairs{}
	// (end[c] is now where class c's run ends, the next one's start.)
	// Candidate registers per type: the function's own, not .reg
	// parameters.
	param := takeFit[bool](sc, st.nr0)
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if r, ok := f.ParamReg(id); ok && int(r) < len(param) {
				param[r] = true
			}
		}
	}
	taken := takeFit[bool](sc, st.nr0)
	inUse := takeFit[bool](sc, st.nr0)    // some class ends in the register
	regKind := takeFit[uint8](sc, st.nr0) // the kinds of the classes in each register
	for c := range nr {
		if named[c] && !reusable[c] {
			if r := finalOf(ir.RegID(c)); int(r) < len(inUse) {
				inUse[r] = true
				regKind[r] |= kind[c]
			}
		}
	}
	free := newFreeRegs(f, st.nr0, param)
	for r, on := range inUse {
		if on {
			free.markUsed(f, ir.RegID(r))
		}
	}
	var marked []ir.RegID
	for c := range nr {
		if !reusable[c] {
			continue
		}
		if pl.stop() {
			return nil, 0
		}
		from := int32(0)
		if c > 0 {
			from = end[c-1]
		}
		marked = marked[:0]
		for _, b := range with[from:end[c]] {
			if r := finalOf(b); int(r) < len(taken) {
				taken[r] = true
				marked = append(marked, r)
			}
		}
		// A register other values end in first (it is named anyway),
		// else one declared and unused.
		t := f.RegType[c]
		skips := 0
		for pass := 0; pass < 2 && reg[c] == ir.NoReg; pass++ {
			for {
				r := free.first(t, pass == 0, taken, pref[c])
				if r == ir.NoReg || regKind[r]&^kind[c] == 0 {
					reg[c] = r
					break
				}
				// a register of the other kind: skip it, a few times
				taken[r] = true
				marked = append(marked, r)
				if skips++; skips > maxKindSkips {
					pass = 2
					break
				}
			}
		}
		if r := reg[c]; r != ir.NoReg {
			inUse[r] = true
			free.markUsed(f, r)
			regKind[r] |= kind[c]
		}
		for _, r := range marked {
			taken[r] = false
		}
	}
	return reg, kept
}

// noSlot is reuseFree's slot of a class whose register no reusable class
// can take.
const noSlot = 0xffff

// maxKindSkips bounds the registers of the other kind one class skips in
// reuseFree, so that a query stays a few word
// operations (OutOfSSA linear) however the kinds are spread.
const maxKindSkips = 16

// The kinds of assignRegisters' classes and reuseFree's registers.
const (
	kindUniform uint8 = 1
	kindVarying uint8 = 2
)

// simtCandidate reports whether the SIMT rule could keep a PHI web of
// join b apart: some value of a web's preferred register, other than the
// web, enters the join (live into it, or read by one of its PHIs), and
// the web is not kept apart already. It leaves in *tmp the values that
// enter the join, which the rule then reads.
func simtCandidate(f *ir.Func, live *core.Liveness, b ir.BlockID, cls, pref []ir.RegID, fixed, apart []bool, tmp *[]ir.RegID) bool {
	t := live.LiveInRegs(b, (*tmp)[:0])
	for j := f.BlockFirst[b]; j != ir.NoInstr && f.Op[j] == ir.OpPhi; j = f.Next[j] {
		core.PhiIncoming(f, j, func(_ int, v ir.Operand, _ ir.BlockID) {
			if v.IsReg() {
				t = append(t, v.Reg())
			}
		})
	}
	*tmp = t
	for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
		c := cls[f.Ops(i)[0].Reg()]
		if fixed[c] || apart[c] {
			continue
		}
		for _, r := range t {
			if cls[r] != c && pref[cls[r]] == pref[c] {
				return true
			}
		}
	}
	return false
}
