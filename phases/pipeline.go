// Package phases is ptxopt's phase manager: the ordered pipeline table
// (modeled on Go's ssa/compile.go and on the mid-end of ptxas), named
// phases and phase families, the typed knob registry, opt levels, SM target
// profiles, IR dumps, the HTML view, per-phase timing and counters, and a
// per-worker scratch context that phases borrow memory from.
//
// The optimization passes themselves live in one file per phase family
// (livedead.go, generalopt.go, …). Those not written yet are registered
// no-ops that report changed=false and no counters, marked Impl: false,
// which --help-phases shows as "not yet implemented". Every phase, written
// or not, runs behind the semantic gate of equiv_test.go.
package phases

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// PassFunc runs one phase on one function. It reports whether it changed
// the function. Broken invariants panic; the driver recovers the panic and
// turns it into an error that names the phase and the function.
type PassFunc func(p *Pass) (changed bool)

// Phase is one slot of the pipeline.
type Phase struct {
	Num      int      // 1-based position in Pipeline (set at init)
	Name     string   // the ptxas name; unique
	Families []string // named-phase families this slot belongs to (see Families)
	Fn       PassFunc
	// Required phases keep the IR in the shape the next phases expect
	// (SSA in, SSA out); they cannot be disabled by name and run at every
	// level above -O0.
	Required bool
	MinOpt   int    // lowest -O level the phase runs at (1..3)
	Impl     bool   // false while the pass is a registered no-op
	Help     string // one line for --help-phases
	// Preserves is what the analysis cache keeps after the phase changed
	// the function (analysis.go); the rest is dropped.
	Preserves Analysis
	// Form is the register form the phase needs: either (AnyForm), SSA
	// (NeedsSSA: skipped where IntoSSA could not build it) or ordinary
	// registers without PHIs (NeedsNonSSA: the manager fails the run
	// if SSA still holds).
	Form Form
	// Pressure says how the manager holds the phase to the function's
	// register budget (pressure.go): Guarded phases may not raise the
	// maximum live registers of any file above the cap; RaisesCap phases
	// trade memory or calls for registers and move the cap up to where
	// they leave it.
	Pressure PressureRule

	fnKey int // the index of the first slot with the same Fn (set at init)
}

// Form is the register form a phase needs.
type Form uint8

const (
	AnyForm     Form = iota // SSA or not; the phase handles PHIs
	NeedsSSA                // runs only while the function is in SSA form
	NeedsNonSSA             // needs ordinary registers: no PHI
)

func (f Form) String() string {
	return [...]string{"either", "SSA", "non-SSA"}[f]
}

// maxPassFuncs bounds the distinct pass functions (fnKey values).
const maxPassFuncs = 64

// pipeline is the ordered phase table, fixed at init: nothing writes it
// afterwards (tests put their own pass into one Config with
// Config.Override; Phases hands out a copy). The same function stands
// under several names: liveDead runs four times as OriPerformLiveDead*,
// the GeneralOptimize bundle six times. The comment beside each slot says
// why the slot is where it is.
var pipeline = []Phase{
	// Inline small device functions and drop the unused ones (module-wide:
	// InlineModule does the work before the per-function phases; the slot
	// names it and gives its level).
	{Name: "OriInline", Form: NeedsNonSSA, Fn: oriInline, Preserves: PreserveAll, MinOpt: 2, Impl: true,
		Help: "inline small or once-called device functions, remove non-visible functions nothing calls (module-wide, before the other phases)"},
	// Cheap dead-code sweep over straight-line code before anything else,
	// so the first bundle sees less.
	{Name: "EarlyOriSimpleLiveDead", Form: NeedsNonSSA, Fn: simpleLiveDead, Preserves: PreserveCFG, MinOpt: 1, Impl: true,
		Help: "early dead-code removal of unused results, no global liveness"},
	// First copy propagation and constant folding on the input as written:
	// -O0-style PTX is full of moves through temporaries.
	{Name: "GeneralOptimizeEarly", Pressure: Guarded, Form: NeedsNonSSA, Families: []string{"GeneralOptimize"}, Fn: generalOptimizeEarly, Preserves: PreserveCFG, MinOpt: 1, Impl: true,
		Help: "GeneralOptimize bundle, early instance: CopyProp, MergeEquivalentConditionalFlow"},
	// Global liveness-based DCE after the first bundle made values dead.
	{Name: "OriPerformLiveDeadFirst", Form: NeedsNonSSA, Families: []string{"OriPerformLiveDead"}, Fn: liveDead, Preserves: PreserveAll, MinOpt: 1, Impl: true,
		Help: "global liveness and dead-code elimination, first instance"},
	// Fully unroll small loops of a constant trip count (unroll.go):
	// -O0 code indexes small frame arrays by a loop counter kept in the
	// frame; unrolled, every index is a constant and the promotion next
	// removes the frame. Before promotion because the walk that finds the
	// trip count follows the counter through its frame slot; non-SSA,
	// renaming the copies' registers itself.
	{Name: "OriUnrollLoops", Form: NeedsNonSSA, Fn: unrollLoops, Preserves: PreserveNothing, MinOpt: 2, Impl: true,
		Help: "fully unroll loops whose trip count is a constant (found by walking the loop on known values, counters in registers or frame slots) where that leaves a frame array only constant offsets for ConvertMemoryToRegister, or the copies are no bigger than the loop; within UnrollMaxInstrs instructions kept; no loop under .pragma \"nounroll\"; the copies' constants folded, their registers renamed"},
	// Promote .local frame slots to registers (ptxas's
	// ConvertMemoryToRegisterOrUniform, a sub-pass of GeneralOptimizeMid
	// there): after the first bundle folded constant indices, and before
	// IntoSSA, because the registers it makes are written once per store.
	{Name: "ConvertMemoryToRegister", Pressure: RaisesCap, Form: NeedsNonSSA, Families: []string{"GeneralOptimize"}, Fn: convertMemoryToRegister, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "promote non-escaping .local frame slots to registers; an emptied frame disappears"},
	// Split virtual registers reused for unrelated values, so SSA
	// construction and register pressure see independent live ranges.
	// PreserveAll: runSplit drops the instruction analyses after each
	// round's edits and its last act is a measure, whose liveness then
	// describes the result (IntoSSA reuses it; check mode verifies).
	{Name: "OriSplitLiveRanges", Form: NeedsNonSSA, Fn: splitLiveRanges, Preserves: PreserveAll, MinOpt: 2, Impl: true,
		Help: "live-range splitting, loop-only form of OriSplitHighPressureLiveRanges (splitlive.go): where every point at a register class's maximum lies in a loop, cheap values live through those points are computed again right before their uses in other blocks; GvnCse mostly commons them back later (the late phase is the one that lasts)"},
	// Into pruned SSA: every phase from here to CSSA relies on it.
	// PreserveCFG (here, in CSSA and in OutOfSSA): PHIs, copies and
	// renamed registers leave the edges as they are, and an edit that
	// does change them (a new entry block, a split edge) rebuilds the
	// edges, whose new version drops every analysis (Analyses.syncCFG);
	// the phases after them would otherwise compute the block order and
	// the dominator trees again for the same CFG.
	{Name: "IntoSSA", Form: NeedsNonSSA, Fn: intoSSA, Preserves: PreserveCFG, Required: true, MinOpt: 1, Impl: true,
		Help: "build pruned SSA (PHI instructions) for the mid-end"},
	// Name the state space of generic accesses whose pointer comes from a
	// cvta.X (addrspace.go): in SSA form, where a pointer's one definition
	// chain is its origin on every path; the next bundle deletes the
	// conversions nothing reads any more.
	{Name: "InferAddressSpaces", Form: NeedsSSA, Fn: inferAddressSpaces, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "generic ld/st/atom through a pointer made by cvta.X become ld.X/st.X/atom.X; cvta.to.X of such a pointer folds"},
	// Main bundle on SSA form, where copy propagation is exact.
	{Name: "GeneralOptimize", Pressure: Guarded, Families: []string{"GeneralOptimize"}, Fn: generalOptimizeMain, Preserves: PreserveCFG, MinOpt: 1, Impl: true,
		Help: "GeneralOptimize bundle on SSA form: CopyProp, ConstantFold, PredicateSimplify, DeadCode"},
	// Forward stored and loaded values to later loads of the same bytes
	// (loadfwd.go): in SSA form, where one base register is one address
	// on every path, after the first SSA bundle made addresses canonical;
	// the next bundle propagates the moves it leaves.
	{Name: "LoadStoreForwarding", Pressure: Guarded, Form: NeedsSSA, Fn: loadStoreForwarding, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "store-to-load forwarding and redundant-load elimination where nothing in between may write the bytes (state space, base and offset disambiguation; .shared and .global forgotten at barriers); the halves of a 64-bit value assembled and split again forwarded to the split"},
	// Again after the first SSA bundle exposed more constants.
	{Name: "GeneralOptimizeMid", Pressure: Guarded, Families: []string{"GeneralOptimize"}, Fn: generalOptimizeMid, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "GeneralOptimize bundle, middle instance: CopyProp, ConstantFold, PredicateSimplify, DeadCode"},
	// Sweep the values the bundles left dead before value numbering.
	{Name: "OriPerformLiveDeadSecond", Families: []string{"OriPerformLiveDead"}, Fn: liveDead, Preserves: PreserveAll, MinOpt: 1, Impl: true,
		Help: "global liveness and dead-code elimination, second instance"},
	// Canonicalize operands so GvnCse finds equal expressions.
	{Name: "GeneralOptimizeMid2", Pressure: Guarded, Families: []string{"GeneralOptimize"}, Fn: generalOptimizeMid2, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "GeneralOptimize bundle, canonicalization before value numbering: CopyProp, ConstantFold"},
	// Global value numbering and CSE on SSA (mode chosen by the SM
	// profile or EnableGvnCseMode).
	{Name: "GvnCse", Pressure: Guarded, Fn: gvnCse, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "global value numbering and common-subexpression elimination; under a register cap, no commoning that would raise the maximum live registers (an estimate)"},
	// Reassociate integer chains so that GvnCse leftovers become common.
	{Name: "OriReassociateAndCommon", Pressure: Guarded, Form: NeedsSSA, Fn: reassociateAndCommon, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "reassociate integer expression chains and common the results"},
	// Fold what value numbering and reassociation exposed.
	{Name: "GeneralOptimizeLate", Pressure: Guarded, Families: []string{"GeneralOptimize"}, Fn: generalOptimizeLate, Preserves: PreserveCFG, MinOpt: 1, Impl: true,
		Help: "GeneralOptimize bundle, late instance: MovWindow, ConstantFold; one pass"},
	// Remove what CSE and reassociation made dead before predication
	// measures block sizes.
	{Name: "OriPerformLiveDeadThird", Families: []string{"OriPerformLiveDead"}, Fn: liveDead, Preserves: PreserveAll, MinOpt: 1, Impl: true,
		Help: "global liveness and dead-code elimination, third instance"},
	// If-convert short branches into predicated code.
	{Name: "OriDoPredication", Pressure: Guarded, Form: NeedsSSA, Fn: predication, Preserves: PreserveNothing, MinOpt: 2, Impl: true,
		Help: "if-conversion of small triangles and diamonds: arms run unguarded (speculated), PHIs become selp, duplicates of the two arms merge"},
	// Predication put formerly exclusive paths side by side: common them.
	{Name: "LateOriCommoning", Pressure: Guarded, Fn: lateCommoning, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "late commoning: an instruction equal to one in a dominating block becomes a copy of it (through copies unless DisableMoveCommoning); under a register cap, not where that would raise the maximum live registers (an estimate)"},
	// Clean up after predication and commoning.
	{Name: "GeneralOptimizeLate2", Pressure: Guarded, Families: []string{"GeneralOptimize"}, Fn: generalOptimizeLate2, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "GeneralOptimize bundle, last instance: CopyProp, ConstantFold, PredicateSimplify, DeadCode"},
	// Loop-invariant code motion once the loop bodies are final.
	{Name: "OriHoistInvariantsLate", Pressure: Guarded, Families: []string{"HoistInvariants"}, Fn: hoistInvariants, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "loop-invariant code motion (LICM): pure computations, the kernel's own ld.param, and ld.const, ld.global.nc, ldu and weak ld.global out of loops that hold no store, atomic, barrier, call or exit (from a block that runs whenever the loop is left), within the register budget; equal instructions brought together in a preheader commoned"},
	// The movement engine's four phases (movement.go) follow LICM, whose
	// family name they share, in the seed's order: the kill class down,
	// then up, then the texture class with and without the clean-up.
	{Name: "DoKillMovement", Pressure: Guarded, Form: NeedsSSA, Families: []string{"HoistInvariants"}, Fn: killMovement, Preserves: PreserveCFG | ADefUse, MinOpt: 3, Impl: true,
		Help: "movement engine, kind 0: sink pure definitions and invariant loads toward their readers (into the only successor path that reads them, never into or out of a loop) where that shortens live ranges; use-def clean-up and a second sweep; equal instructions it brings together commoned"},
	{Name: "DoKillMovementUp", Pressure: Guarded, Form: NeedsSSA, Families: []string{"HoistInvariants"}, Fn: killMovementUp, Preserves: PreserveCFG | ADefUse | AUniformity | ALiveness, MinOpt: 3, Impl: true,
		Help: "movement engine, kind 1 (an unnamed sibling in ptxas): raise a pure computation within its block toward its operands' definitions when the operands ending at it free more registers, in every file, than its result takes; clean-up and a second sweep"},
	{Name: "DoTexMovement", Pressure: Guarded, Families: []string{"HoistInvariants"}, Fn: texMovement, Preserves: PreserveCFG | ADefUse | AUniformity | ALiveness, MinOpt: 3, Impl: true,
		Help: "movement engine, kind 2: move texture-class fetches (tex, tld4, suld, ld.global.nc) up within their block, away from their first reader (MovementWindow), past no memory write and without raising any register file's maximum live; clean-up and a second sweep"},
	{Name: "DoTexMovementRaw", Pressure: Guarded, Families: []string{"HoistInvariants"}, Fn: texMovementRaw, Preserves: PreserveCFG | ADefUse | AUniformity | ALiveness, MinOpt: 3, Impl: true,
		Help: "movement engine, kind 3 (an unnamed sibling in ptxas): DoTexMovement's sweep once, without the use-def clean-up and second sweep"},
	// Conventional SSA: split PHI operands' live ranges so leaving SSA is
	// a plain renaming (the reason ACO lowers to CSSA too).
	{Name: "CSSA", Form: NeedsSSA, Fn: cssa, Preserves: PreserveCFG, Required: true, MinOpt: 1, Impl: true,
		Help: "convert to conventional SSA: a copy per PHI operand at the end of its predecessor and one for the result (seed 004)"},
	// Out of SSA before the late, non-SSA phases and printing.
	{Name: "OutOfSSA", Form: NeedsSSA, Fn: outOfSSA, Preserves: PreserveCFG, Required: true, MinOpt: 1, Impl: true,
		Help: "leave SSA: PHI webs become one register, values return to their registers where they do not interfere (SIMT-aware), copies coalesced"},
	// ptxas's per-architecture hook before back copy propagation; a
	// gate that does nothing unless a target overrides it.
	{Name: "AdvancedPhaseBackPropVReg", Form: NeedsNonSSA, Fn: advancedBackPropVReg, Preserves: PreserveNothing, MinOpt: 2,
		Help: "per-target gate of back copy propagation: OriBackCopyPropagate runs only where the knob AdvancedPhaseBackPropVReg is on (SM profile: from sm_70)"},
	// Remove the moves out-of-SSA inserted by renaming definitions
	// backwards into their copies.
	{Name: "OriBackCopyPropagate", Form: NeedsNonSSA, Fn: backCopyPropagate, Preserves: PreserveCFG, MinOpt: 2, Impl: true,
		Help: "back copy propagation: rename a definition into the copy that consumes it"},
	// Split what still peaks (seed 002's phase 138): after the last
	// phase that commons values, so the recomputed values stay apart;
	// before the last DCE, which removes definitions no block reads any
	// more.
	{Name: "OriSplitHighPressureLiveRanges", Form: NeedsNonSSA, Fn: splitHighPressure, Preserves: PreserveAll, MinOpt: 2, Impl: true,
		Help: "rematerialization where a register class peaks (splitlive.go): cheap values live through every point at a class's maximum (special registers fixed for the thread, immediates, symbol addresses, the kernel's own parameters, integer ALU over such or over registers live there anyway, chains of two such as ld.param then cvta) are computed again right before their uses in other blocks, round by round while each round lowers the maximum (SplitLiveRangesBudget)"},
	// Last DCE before printing.
	{Name: "OriPerformLiveDeadFourth", Form: NeedsNonSSA, Families: []string{"OriPerformLiveDead"}, Fn: liveDead, Preserves: PreserveAll, MinOpt: 1, Impl: true,
		Help: "global liveness and dead-code elimination, last instance"},
}

// Families are the named-phase tokens that stand for several slots, as
// ptxas's NamedPhases does: naming a family names all its members.
var Families = map[string]string{
	"OriPerformLiveDead": "the four OriPerformLiveDead* instances",
	"GeneralOptimize":    "the six GeneralOptimize* bundles and their sub-pass ConvertMemoryToRegister",
	"HoistInvariants":    "OriHoistInvariantsLate (LICM) and the movement engine's four phases (DoKillMovement, DoKillMovementUp, DoTexMovement, DoTexMovementRaw)",
}

// An ordering rule: phase Before must run before phase After whenever
// both are in the pipeline. Checked at init and by a test.
type orderRule struct{ Before, After, Why string }

var orderRules = []orderRule{
	{"OriInline", "EarlyOriSimpleLiveDead", "inlining comes before the mid-end (InlineModule runs first)"},
	{"EarlyOriSimpleLiveDead", "GeneralOptimizeEarly", "the early sweep shrinks the first bundle's input"},
	{"OriSplitLiveRanges", "IntoSSA", "SSA construction wants independent live ranges"},
	{"ConvertMemoryToRegister", "IntoSSA", "promotion writes a register once per store (not SSA)"},
	{"OriPerformLiveDeadFirst", "OriUnrollLoops", "the unrolling budget counts instructions that live"},
	{"OriUnrollLoops", "ConvertMemoryToRegister", "unrolled copies index frame arrays by constants, which promotion needs"},
	{"IntoSSA", "GeneralOptimize", "the main bundles run on SSA"},
	{"IntoSSA", "InferAddressSpaces", "a pointer's origin is its one definition chain in SSA"},
	{"GeneralOptimize", "LoadStoreForwarding", "forwarding compares canonical addresses"},
	{"IntoSSA", "GvnCse", "value numbering needs SSA"},
	{"GeneralOptimizeMid2", "GvnCse", "GvnCse wants canonical operands"},
	{"GvnCse", "OriReassociateAndCommon", "reassociation commons what GvnCse left"},
	{"OriPerformLiveDeadThird", "OriDoPredication", "predication measures blocks after DCE"},
	{"OriDoPredication", "LateOriCommoning", "commoning across formerly exclusive paths"},
	{"OriHoistInvariantsLate", "DoKillMovement", "the movements follow LICM (seed 003)"},
	{"DoKillMovement", "DoKillMovementUp", "the engine's kinds run in order 0, 1, 2, 3"},
	{"DoKillMovementUp", "DoTexMovement", "the engine's kinds run in order 0, 1, 2, 3"},
	{"DoTexMovement", "DoTexMovementRaw", "the engine's kinds run in order 0, 1, 2, 3"},
	{"DoTexMovementRaw", "CSSA", "every SSA phase runs before CSSA"},
	{"CSSA", "OutOfSSA", "out-of-SSA needs conventional SSA"},
	{"OutOfSSA", "OriBackCopyPropagate", "back copy propagation removes out-of-SSA moves"},
	{"AdvancedPhaseBackPropVReg", "OriBackCopyPropagate", "the hook precedes the pass it gates"},
	{"OriBackCopyPropagate", "OriPerformLiveDeadFourth", "the last DCE sweeps dead copies"},
	{"OriBackCopyPropagate", "OriSplitHighPressureLiveRanges", "splitting measures the pressure of the final registers"},
	{"OriSplitHighPressureLiveRanges", "OriPerformLiveDeadFourth", "the last DCE removes definitions whose uses were all rematerialized"},
}

var phaseIndex = map[string]int{} // lower-case name → index in Pipeline

// Phases returns a copy of the pipeline table, in order.
func Phases() []Phase { return slices.Clone(pipeline) }

// samePass reports whether two pass functions are the same function.
func samePass(a, b PassFunc) bool {
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

func init() {
	firstOf := map[uintptr]int{}
	for i := range pipeline {
		p := &pipeline[i]
		p.Num = i + 1
		fn := reflect.ValueOf(p.Fn).Pointer()
		if k, ok := firstOf[fn]; ok {
			p.fnKey = k
		} else {
			firstOf[fn] = i
			p.fnKey = i
		}
		if p.fnKey >= maxPassFuncs {
			panic("phases: raise maxPassFuncs")
		}
		key := strings.ToLower(p.Name)
		if _, dup := phaseIndex[key]; dup {
			panic("phases: duplicate phase name " + p.Name)
		}
		phaseIndex[key] = i
	}
	if err := checkOrder(phaseIndex); err != nil {
		panic(err)
	}
}

// checkOrder verifies the ordering rules against the pipeline positions
// index gives by lower-case phase name (phaseIndex; a test passes a
// copy with two swapped).
func checkOrder(index map[string]int) error {
	for _, r := range orderRules {
		a, ok1 := index[strings.ToLower(r.Before)]
		b, ok2 := index[strings.ToLower(r.After)]
		if !ok1 || !ok2 {
			return fmt.Errorf("phases: ordering rule names an unknown phase: %s < %s", r.Before, r.After)
		}
		if a >= b {
			return fmt.Errorf("phases: %s must run before %s (%s)", r.Before, r.After, r.Why)
		}
	}
	return nil
}

// Lookup returns the pipeline index of a phase name (case-insensitive).
func Lookup(name string) (int, bool) {
	i, ok := phaseIndex[strings.ToLower(name)]
	return i, ok
}

// Resolve maps a phase or family name (case-insensitive) to the pipeline
// indices it stands for. Unknown names give an error listing close
// matches.
func Resolve(name string) ([]int, error) {
	// A family name wins over the slot of the same name: GeneralOptimize
	// stands for all six bundles.
	for fam := range Families {
		if strings.EqualFold(fam, name) {
			var out []int
			for i := range pipeline {
				for _, f := range pipeline[i].Families {
					if f == fam {
						out = append(out, i)
					}
				}
			}
			return out, nil
		}
	}
	if i, ok := Lookup(name); ok {
		return []int{i}, nil
	}
	cands := make([]string, 0, len(pipeline)+len(Families))
	for i := range pipeline {
		cands = append(cands, pipeline[i].Name)
	}
	for fam := range Families {
		cands = append(cands, fam)
	}
	return nil, fmt.Errorf("unknown phase %q%s", name, suggest(name, cands))
}
