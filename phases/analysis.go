package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The analysis cache (in the spirit of LLVM's AnalysisManager and of Go's
// cached f.Idom()): one Analyses per function holds the analyses of
// package core, computed on demand and kept until something invalidates
// them. Passes ask it instead of calling core directly, so an analysis is
// computed once for all the phases and reports that can share it.
//
// Validity. The CFG analyses (block order, dominators, post-dominators,
// loops) are tied to the CFG arrays: each records the ir.Func CFG version
// it was built from, and one built on an older CFG is rebuilt (so a pass
// that edits edges cannot be handed stale dominators). The others
// (def-use, uniformity, register files, liveness, pressure) describe
// instructions, whose edits the cache cannot see cheaply; they stay valid
// until dropped:
//   - after a phase that changed the function, the driver drops every
//     analysis the phase does not declare it preserves (Phase.Preserves);
//   - a pass that edits and then asks again calls Invalidate itself.
//
// In check mode (--verify) the driver recomputes every analysis still
// cached after each phase and compares: a phase that keeps an analysis it
// made stale fails there, as does one that changed the function while
// reporting no change (the cache and the settled-phase skip trust that
// flag).

// Analysis is a set of analyses.
type Analysis uint16

// Indices of the analyses.
const (
	iOrder = iota
	iDom
	iPostDom
	iLoops
	iDefUse
	iUniformity
	iLiveness
	iPressure
	numAnalyses
)

const (
	AOrder      Analysis = 1 << iOrder      // reverse post-order (core.Order)
	ADom        Analysis = 1 << iDom        // dominator tree
	APostDom    Analysis = 1 << iPostDom    // post-dominator tree
	ALoops      Analysis = 1 << iLoops      // natural loops
	ADefUse     Analysis = 1 << iDefUse     // def-use chains
	AUniformity Analysis = 1 << iUniformity // uniformity (varying registers, divergent branches) and register files
	ALiveness   Analysis = 1 << iLiveness   // liveness, registers in R and P by type
	APressure   Analysis = 1 << iPressure   // the per-instruction pressure trace, registers in their uniformity files
)

// Preservation sets phases declare.
const (
	PreserveNothing Analysis = 0
	// PreserveCFG: blocks, edges and layout are unchanged.
	PreserveCFG = AOrder | ADom | APostDom | ALoops
	// PreserveAll: the phase keeps every cached analysis valid itself (it
	// invalidates what its edits break, or changes nothing they see).
	PreserveAll Analysis = 1<<numAnalyses - 1
	// instrAnalyses are the analyses of instructions rather than edges:
	// what a pass editing instructions in place invalidates.
	instrAnalyses = PreserveAll &^ PreserveCFG
)

var analysisNames = [numAnalyses]string{"order", "dominators", "post-dominators", "loops", "def-use", "uniformity", "liveness", "pressure"}

// dependents lists, per analysis, the analyses computed from it: dropping
// one drops those too.
var dependents = [numAnalyses]Analysis{
	iOrder:      ADom | APostDom | ALoops | AUniformity | APressure,
	iDom:        ALoops,
	iPostDom:    AUniformity | APressure,
	iDefUse:     AUniformity | APressure,
	iUniformity: APressure,
	iLiveness:   AUniformity | APressure,
}

func (s Analysis) String() string {
	var b []byte
	for k := range numAnalyses {
		if s&(1<<k) != 0 {
			if len(b) > 0 {
				b = append(b, ',')
			}
			b = append(b, analysisNames[k]...)
		}
	}
	return string(b)
}

// Analyses is the cache of one function. Not safe for concurrent use:
// one goroutine runs one function's phases.
type Analyses struct {
	f     *ir.Func
	sc    *Scratch // where dropped results go for reuse across functions (nil: kept here only)
	valid Analysis
	cfgAt uint64 // the CFG version the CFG analyses were built from

	order *core.Order
	dom   *core.DomTree
	pdom  *core.DomTree
	loops *core.Loops
	du    *core.DefUse
	duOld *core.DefUse // dropped chains whose memory the next computation reuses
	uni   *core.Uniformity
	// uniOld is a uniformity result dropped between phases (Keep) or at
	// Release, whose memory the next computation reuses. A result
	// dropped by a pass's own Invalidate is not reused: the pass may
	// still hold it (its Files, say) until it returns.
	uniOld *core.Uniformity
	// Likewise for the CFG analyses.
	orderOld        *core.Order
	domOld, pdomOld *core.DomTree
	files           []ir.File
	live            *core.Liveness
	spare           *core.Liveness // a dropped liveness whose memory the next solve reuses
	// pendingLive, when set, brings live up to date with deletions made
	// since it was computed (liveDead's sweeps record the update rather
	// than make it: the phase that next asks for the liveness pays for
	// it, and none does when the liveness is dropped first). It reports
	// false when it could not, and live is then solved again.
	pendingLive func() bool
	press       Pressure // PerInstr nil when only the maximum was asked for
	// classes is LiveClasses' answer, computed with press by MaxLive's
	// walk (classesOK), valid while the pressure is
	classes   [ir.NumFiles]int
	classesOK bool

	// Computed counts, per analysis, how many times it was computed
	// (tests check that phases share them).
	Computed [numAnalyses]int
}

// NewAnalyses returns an empty cache for f.
func NewAnalyses(f *ir.Func) *Analyses { return &Analyses{f: f} }

// NewAnalysesIn returns an empty cache for f that takes the memory of its
// results from, and gives it back to, the worker's scratch sc: a worker
// optimizing function after function then computes every analysis into
// memory it already has. Call Release when done with the function.
func NewAnalysesIn(f *ir.Func, sc *Scratch) *Analyses {
	if sc != nil && !sc.cacheBusy {
		// The scratch's own cache, free again once Release is called (a
		// cache never released leaves the later ones to be allocated).
		sc.cacheBusy = true
		sc.cache = Analyses{f: f, sc: sc}
		return &sc.cache
	}
	return &Analyses{f: f, sc: sc}
}

// Release drops everything and hands the memory of the liveness and
// def-use results to the scratch (when the cache has one). The cache
// must not be used afterwards.
func (a *Analyses) Release() {
	a.Invalidate(PreserveAll)
	a.retire()
	if a.sc != nil {
		if a.uniOld != nil {
			a.sc.spareUni = a.uniOld
		}
		if a.orderOld != nil {
			a.sc.spareOrder = a.orderOld
		}
		if a.domOld != nil {
			a.sc.spareDom = a.domOld
		}
		if a.pdomOld != nil {
			a.sc.sparePdom = a.pdomOld
		}
		if a.spare != nil {
			a.sc.spareLive = a.spare
		}
		if a.duOld != nil {
			a.sc.spareDU = a.duOld
		}
	}
	a.spare, a.duOld, a.uniOld = nil, nil, nil
	a.orderOld, a.domOld, a.pdomOld = nil, nil, nil
	if a.sc != nil && a == &a.sc.cache {
		a.sc.cacheBusy = false
	}
}

// retire hands the memory of the analyses no longer valid to the next
// computations: called between phases, when no pass holds them.
func (a *Analyses) retire() {
	if a.valid&AUniformity == 0 && a.uni != nil {
		a.uniOld, a.uni = a.uni, nil
	}
	if a.valid&AOrder == 0 && a.order != nil {
		a.orderOld, a.order = a.order, nil
	}
	if a.valid&ADom == 0 && a.dom != nil {
		a.domOld, a.dom = a.dom, nil
	}
	if a.valid&APostDom == 0 && a.pdom != nil {
		a.pdomOld, a.pdom = a.pdom, nil
	}
}

// reuse returns the retired result *old (taking the worker's spare
// *spare when there is none) for a computation to fill, and clears both.
func reuse[T any](old, spare **T) *T {
	r := *old
	if r == nil && spare != nil {
		r, *spare = *spare, nil
	}
	*old = nil
	return r
}

// spareOf returns the address of a scratch's spare slot, nil without a
// scratch.
func spareOf[T any](sc *Scratch, slot func(*Scratch) **T) **T {
	if sc == nil {
		return nil
	}
	return slot(sc)
}

// Func returns the function the cache describes.
func (a *Analyses) Func() *ir.Func { return a.f }

// Invalidate drops the analyses in set and those computed from them.
func (a *Analyses) Invalidate(set Analysis) {
	for k := range numAnalyses {
		if set&(1<<k) != 0 {
			set |= dependents[k]
		}
	}
	if a.pendingLive != nil && set&(ALiveness|ADefUse) != 0 {
		// The pending update reads the chains it was recorded with.
		set |= ALiveness | dependents[iLiveness]
		a.pendingLive = nil
	}
	if set&ALiveness != 0 && a.live != nil {
		a.spare, a.live = a.live, nil
	}
	if set&ADefUse != 0 && a.valid&ADefUse != 0 {
		a.duOld, a.du = a.du, nil
	}
	a.valid &^= set
}

// Keep drops every analysis not in set (what a phase that changed the
// function does not preserve).
func (a *Analyses) Keep(set Analysis) {
	a.Invalidate(PreserveAll &^ set)
	a.retire()
}

// Valid returns the analyses currently cached.
func (a *Analyses) Valid() Analysis {
	a.syncCFG()
	return a.valid
}

// syncCFG brings the CFG arrays up to date and drops every analysis when
// the edges were rebuilt since they were computed (edges are rebuilt only
// after an edit of a branch, a terminator, a block or the layout, which
// no cached analysis survives).
func (a *Analyses) syncCFG() {
	a.f.ComputeCFG()
	if v := a.f.CFGVersion(); v != a.cfgAt {
		a.Invalidate(PreserveAll)
		a.cfgAt = v
	}
}

func (a *Analyses) have(k Analysis) bool {
	a.syncCFG()
	return a.valid&k != 0
}

func (a *Analyses) got(k Analysis) {
	a.valid |= k
	for i := range numAnalyses {
		if k == 1<<i {
			a.Computed[i]++
		}
	}
}

// Order returns the reverse post-order of the reachable blocks.
func (a *Analyses) Order() *core.Order {
	if !a.have(AOrder) {
		a.order = core.ComputeOrderInto(reuse(&a.orderOld, spareOf(a.sc, func(s *Scratch) **core.Order { return &s.spareOrder })), a.f)
		a.got(AOrder)
	}
	return a.order
}

// Dom returns the dominator tree.
func (a *Analyses) Dom() *core.DomTree {
	if !a.have(ADom) {
		a.dom = core.DominatorsInto(reuse(&a.domOld, spareOf(a.sc, func(s *Scratch) **core.DomTree { return &s.spareDom })), a.f, a.Order())
		a.got(ADom)
	}
	return a.dom
}

// PostDom returns the post-dominator tree.
func (a *Analyses) PostDom() *core.DomTree {
	if !a.have(APostDom) {
		a.pdom = core.PostDominatorsInto(reuse(&a.pdomOld, spareOf(a.sc, func(s *Scratch) **core.DomTree { return &s.sparePdom })), a.f, a.Order())
		a.got(APostDom)
	}
	return a.pdom
}

// Loops returns the loop nest.
func (a *Analyses) Loops() *core.Loops {
	if !a.have(ALoops) {
		a.loops = core.FindLoops(a.f, a.Dom())
		a.got(ALoops)
	}
	return a.loops
}

// DefUse returns the def-use chains. A pass must not keep them past an
// Invalidate of ADefUse: their memory goes to the next computation.
func (a *Analyses) DefUse() *core.DefUse {
	if !a.have(ADefUse) {
		if a.duOld == nil && a.sc != nil {
			a.duOld, a.sc.spareDU = a.sc.spareDU, nil
		}
		if a.sc != nil {
			// the worker's working memory: no set of chains keeps its own
			a.du = core.ComputeDefUseWith(a.duOld, a.f, &a.sc.duWork)
		} else {
			a.du = core.ComputeDefUseInto(a.duOld, a.f)
		}
		a.duOld = nil
		a.got(ADefUse)
	}
	return a.du
}

// adoptDefUse makes du the cached chains again: chains the cache dropped
// (their memory kept for the next computation, none made since) that
// the pass brought up to date itself.
func (a *Analyses) adoptDefUse(du *core.DefUse) {
	a.du, a.duOld = du, nil
	a.valid |= ADefUse
}

// Liveness returns the liveness of the registers (R and P by type). A
// pass must not keep the result past an Invalidate of ALiveness: its
// memory goes to the next solve.
func (a *Analyses) Liveness() *core.Liveness {
	if !a.have(ALiveness) {
		if a.spare == nil && a.sc != nil {
			a.spare, a.sc.spareLive = a.sc.spareLive, nil
		}
		a.live = core.ComputeLivenessInto(a.spare, a.f, core.LiveOptions{Order: a.Order()})
		a.spare = nil
		a.got(ALiveness)
	} else if fn := a.pendingLive; fn != nil {
		a.pendingLive = nil
		if !fn() {
			a.Invalidate(ALiveness)
			return a.Liveness()
		}
	}
	return a.live
}

// deferLiveness records fn as the update that brings the cached liveness
// up to date with deletions just made (see pendingLive); the cache must
// hold the liveness and the def-use chains fn reads.
func (a *Analyses) deferLiveness(fn func() bool) {
	a.pendingLive = fn
}

// CachedLiveness returns the liveness when the cache holds it, else nil
// (for a pass that has a cheaper way than a whole solve to answer what it
// asks).
func (a *Analyses) CachedLiveness() *core.Liveness {
	if a.have(ALiveness) {
		return a.Liveness()
	}
	return nil
}

// Uniformity returns the uniformity analysis.
func (a *Analyses) Uniformity() *core.Uniformity {
	if !a.have(AUniformity) {
		old := reuse(&a.uniOld, spareOf(a.sc, func(s *Scratch) **core.Uniformity { return &s.spareUni }))
		a.uni = core.ComputeUniformityInto(old, a.f, a.DefUse(), func() core.DivergenceInputs {
			return core.DivergenceInputs{Live: a.Liveness(), PostDom: a.PostDom(), Dom: a.Dom()}
		})
		a.files = a.uni.Files(a.f)
		a.got(AUniformity)
	}
	return a.uni
}

// Files returns the register file of every register: UR/UP where the
// uniformity analysis proves a register uniform, R/P otherwise.
func (a *Analyses) Files() []ir.File {
	a.Uniformity()
	return a.files
}

// Pressure returns the register pressure at every instruction (layout
// order) and its maximum per file, registers in their Files.
func (a *Analyses) Pressure() Pressure {
	if !a.have(APressure) || a.press.PerInstr == nil {
		if !a.have(APressure) {
			a.classesOK = false
		}
		a.press = tracePressure(a.f, a.Liveness(), a.Files())
		a.got(APressure)
	}
	return a.press
}

// LiveClasses returns the maximum register pressure per register class,
// uniform and per-lane registers together: data registers (32-bit slots)
// in FileR, predicates in FileP, the uniform files 0. It needs liveness
// only (no uniformity analysis): computed alone it is not kept, but
// MaxLive's walk computes it too, and it is then answered from there
// while the pressure is valid (the register cap asks for both).
func (a *Analyses) LiveClasses() [ir.NumFiles]int {
	if a.classesOK && a.have(APressure) {
		return a.classes
	}
	return core.PressureTrace(a.Liveness(), nil).Max
}

// MaxLive returns the maximum register pressure per file (registers in
// their Files), without keeping the per-instruction trace.
func (a *Analyses) MaxLive() [ir.NumFiles]int {
	if !a.have(APressure) {
		// The files split the liveness's R and P into their uniform
		// halves, so the walk's sums per class are LiveClasses' answer.
		t := core.PressureTraceFilesClasses(a.Liveness(), a.Files())
		a.press = Pressure{Max: t.Max}
		a.classes, a.classesOK = t.Classes, true
		a.got(APressure)
	}
	return a.press.Max
}
