package phases

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// KnobKind is the type of a knob's value.
type KnobKind uint8

const (
	KnobBool   KnobKind = iota // true/false (also 1/0, on/off)
	KnobInt                    // an integer in [Min, Max]
	KnobDouble                 // a float in [Min, Max]
	KnobBudget                 // a work budget: a non-negative integer, or "unlimited"
)

var knobKindNames = [...]string{"bool", "int", "double", "budget"}

func (k KnobKind) String() string { return knobKindNames[k] }

// Unlimited is the value of a budget knob set to "unlimited".
const Unlimited = math.MaxInt64

// KnobDef describes one knob of the registry.
type KnobDef struct {
	Name     string
	Kind     KnobKind
	Default  string  // in the knob's own syntax
	Min, Max float64 // range for int and double (budgets: 0..Unlimited)
	Phase    string  // the phase or family that reads it
	Help     string
	// Inert: registered (so ptxas-style knob files and command lines
	// stay valid) but read by no pass yet: setting it changes nothing.
	// --help-knobs marks it; a test checks the mark against the source.
	Inert bool
}

// Knob handles, one per type, index the registry. Phases read knobs
// through them: p.Knobs.Bool(EnableGvnCse).
type (
	BoolKnob   int
	IntKnob    int
	DoubleKnob int
	BudgetKnob int
)

// The registry. The names are ptxas's where ptxas has the knob; the
// meaning of each is what our passes do with it.
var knobDefs []KnobDef

func defKnob(d KnobDef) int {
	knobDefs = append(knobDefs, d)
	return len(knobDefs) - 1
}

func boolKnob(name, def, phase, help string) BoolKnob {
	return BoolKnob(defKnob(KnobDef{Name: name, Kind: KnobBool, Default: def, Phase: phase, Help: help}))
}
func intKnob(name, def string, lo, hi float64, phase, help string) IntKnob {
	return IntKnob(defKnob(KnobDef{Name: name, Kind: KnobInt, Default: def, Min: lo, Max: hi, Phase: phase, Help: help}))
}
func doubleKnob(name, def string, lo, hi float64, phase, help string) DoubleKnob {
	return DoubleKnob(defKnob(KnobDef{Name: name, Kind: KnobDouble, Default: def, Min: lo, Max: hi, Phase: phase, Help: help}))
}
func budgetKnob(name, def, phase, help string) BudgetKnob {
	return BudgetKnob(defKnob(KnobDef{Name: name, Kind: KnobBudget, Default: def, Min: 0, Max: Unlimited, Phase: phase, Help: help}))
}

// inert marks knob h as read by nothing yet (KnobDef.Inert).
func inert[H ~int](h H) H {
	knobDefs[h].Inert = true
	return h
}

var (
	EnableGvnCse = boolKnob("EnableGvnCse", "true", "GvnCse",
		"run global value numbering / CSE")
	EnableGvnCseMode = intKnob("EnableGvnCseMode", "3", 0, 6, "GvnCse",
		"GVN-CSE mode (seed 000): 0 off, 1 single-block, 2 extended basic blocks (the EBB pre-pass on encodings <= 0x7fff, else one dominator up), 3-6 full dominator scoping with the scope-tree drain, 5-6 also shfl.sync (default from the SM profile)")
	EnableGvnCsePerInstr = budgetKnob("EnableGvnCsePerInstr", "unlimited", "GvnCse",
		"per-instruction gate: only the first N instructions (in walk order) GvnCse would common are commoned (bisect a miscompile to one instruction)")
	AllowReassociateCSE = boolKnob("AllowReassociateCSE", "true", "OriReassociateAndCommon",
		"allow reassociation of integer chains to find common subexpressions")
	AllowFPReassociate = inert(boolKnob("AllowFPReassociate", "false", "OriReassociateAndCommon",
		"also reassociate floating-point chains (changes rounding; off by default)"))
	ReassociateCSEBudget = budgetKnob("ReassociateCSEBudget", "2000", "OriReassociateAndCommon",
		"maximum number of rewrites (chains rebuilt, subs turned into adds, products distributed, expressions commoned) per function")
	ReassociateCSEWindow = intKnob("ReassociateCSEWindow", "16", 1, 1024, "OriReassociateAndCommon",
		"how many instructions back the commoning after reassociation looks for an equal operation")
	ReassociateCSESkip = intKnob("ReassociateCSESkip", "0", 0, math.MaxInt32, "OriReassociateAndCommon",
		"skip the first N candidate rewrites (to bisect a miscompile)")
	ReassociateLargeImmInUIADD64 = boolKnob("ReassociateLargeImmInUIADD64", "false", "OriReassociateAndCommon",
		"let reassociation fold a 64-bit add's constants into an immediate that does not fit 32 signed bits")
	DistributeAndReassociateMulBudget = budgetKnob("DistributeAndReassociateMulBudget", "100", "OriReassociateAndCommon",
		"maximum number of multiplications distributed over additions per function")
	ForceLateCommoning = boolKnob("ForceLateCommoning", "true", "LateOriCommoning",
		"the LateOriCommoning gate (the seeds' knob 487): off, the phase does nothing")
	DisableMoveCommoning = boolKnob("DisableMoveCommoning", "false", "LateOriCommoning",
		"LateOriCommoning does not see through copies (keys compare registers as written)")
	BackPropVReg = boolKnob("AdvancedPhaseBackPropVReg", "false", "OriBackCopyPropagate",
		"the per-target gate of AdvancedPhaseBackPropVReg: OriBackCopyPropagate runs only when it is on (default from the SM profile: on from sm_70, off before; set it to force either way)")
	PressureGuard = boolKnob("PressureGuard", "false", "the manager",
		"hold the phases that can lengthen live ranges (LoadStoreForwarding, GvnCse, OriReassociateAndCommon, OriDoPredication, LateOriCommoning, OriHoistInvariantsLate and the four movements of the HoistInvariants family) to the register cap: a run that raises some file's maximum live registers above it keeps only the prefix of its transformations that stays within, on every function (off: PressureRetry, when on, reruns only the functions that end above the cap)")
	PressureRetry = boolKnob("PressureRetry", "true", "the manager",
		"with PressureGuard off: a function whose pipeline leaves a register class (data or predicates) above its cap (as PressureGuard's, from the function's maximum live on entry) is optimized again from its input with the guard on (measured on the report's R and P files and on the classes; a phase that raises them is undone), and the result nearer the cap kept; not after promotion of .local slots (memory became registers), nor when --named-phases restricts the pipeline; LICM holds itself to the budget under it (off: no check)")
	PressureBudgetR = intKnob("PressureBudgetR", "0", 0, 65536, "the manager",
		"32-bit registers per thread the guarded phases may use in R and in UR whatever the input used: the cap of a file is the larger of this and the function's own maximum live on entry (0: the input's maximum; promotion of .local slots raises it)")
	TargetOccupancy = intKnob("TargetOccupancy", "0", 0, 100, "the manager",
		"percent of the SM's warp slots a kernel should be able to fill: when PressureBudgetR is 0, the register budget is the 32-bit registers per thread that allow it (65,536 registers per SM over MaxWarpsPerSM times this share of warps of 32 threads, in units of 8, at most 255); the guarded phases may use up to the budget, and the splitting phases lower no function below it. 0: no occupancy budget")
	MaxWarpsPerSM = intKnob("MaxWarpsPerSM", "64", 1, 64, "the manager",
		"resident warps per SM of the target, for TargetOccupancy (default from the SM profile: 32 on sm_75, 48 on sm_86, sm_87, sm_89 and sm_120 and newer consumer parts, 64 elsewhere)")
	PressureBudgetP = intKnob("PressureBudgetP", "0", 0, 65536, "the manager",
		"predicates per thread the guarded phases may use in P and in UP whatever the input used (as PressureBudgetR)")
	BackCopyPropBudget = budgetKnob("BackCopyPropBudget", "1000", "OriBackCopyPropagate",
		"maximum number of copies removed by back copy propagation per function")
	CopyPropBudget = budgetKnob("CopyPropBudget", "10000", "GeneralOptimize",
		"maximum number of local copy propagations per bundle run (left at its default: the larger of 10000 and the function's instruction count)")
	CopyPropGlobalBudget = budgetKnob("CopyPropGlobalBudget", "2000", "GeneralOptimize",
		"maximum number of copy propagations across blocks per bundle run (left at its default: the larger of 2000 and the function's instruction count)")
	CopyPropForceGlobal = inert(boolKnob("CopyPropForceGlobal", "false", "GeneralOptimize",
		"propagate across blocks even outside SSA form"))
	CopyPropUseReachingDefs = inert(boolKnob("CopyPropUseReachingDefs", "false", "GeneralOptimize",
		"use reaching definitions (instead of SSA) to prove a copy safe to propagate"))
	CopyPropAddr = boolKnob("CopyPropAddr", "true", "GeneralOptimize",
		"copy propagation rewrites registers inside addresses ([%r+8]) too; off, address operands keep their registers as written")
	CopyPropNoWriteNonRR = boolKnob("CopyPropNoWriteNonRR", "false", "GeneralOptimize",
		"copy propagation writes only registers over registers: no constant replaces a register source (the instruction stays register-register)")
	LateCopyPropComplPred = boolKnob("LateCopyPropComplPred", "true", "GeneralOptimize",
		"in the late bundles (GeneralOptimizeLate, GeneralOptimizeLate2), a predicated copy into a register that held a known value in the other lanes (\"@%p mov d, a; @!%p mov d, b\", or an unguarded copy then a guarded one) is a select: instructions guarded by %p or !%p read the source of their side")
	CopyPropConstantBank = inert(boolKnob("CopyPropConstantBank", "true", "GeneralOptimize",
		"would propagate constant-bank operands (c[bank][offset], what ptxas makes of kernel parameters and .const data) into their uses; PTX has no such operand: ld.param and ld.const stay loads, and GvnCse commons repeated ones"))
	CopyPropPreAllocReg = inert(boolKnob("CopyPropPreAllocReg", "false", "GeneralOptimize",
		"would propagate copies to and from pre-allocated (fixed) registers; the PTX counterparts, .reg parameters of device functions and vector registers, are never propagated through"))
	CopyPropNonRegMultiDef = inert(boolKnob("CopyPropNonRegMultiDef", "false", "GeneralOptimize",
		"would propagate constant copies across blocks into registers defined several times (needs reaching definitions); the local walk already does within a block, the global rule only for single definitions"))
	CopyPropNoMmaCb = inert(boolKnob("CopyPropNoMmaCb", "false", "GeneralOptimize",
		"would keep copy propagation out of the constant-bank operands of MMA instructions; PTX mma/wmma take no such operand, and copy propagation never rewrites their operands (warp-synchronous instructions keep theirs as written)"))
	SpeculativeHoistCommonInsts = inert(boolKnob("SpeculativeHoistCommonInsts", "false", "OriHoistInvariantsLate",
		"would hoist an instruction both successors of a branch compute into the branch's block (ptxas phase 56); not built: OriDoPredication merges such pairs when it if-converts the branch, and LateOriCommoning commons what a dominating block already computes"))
	MergeEquivalentConditionalFlowBudget = budgetKnob("MergeEquivalentConditionalFlowBudget", "unlimited", "GeneralOptimizeEarly",
		"most rounds of GeneralOptimizeEarly's fixed-point loop of copy propagation and MergeEquivalentConditionalFlow (the seeds' phase 13 iteration cap; unlimited, the seeds' default: until a round changes nothing, within the bundles' own cap of 8 rounds)")
	DisableMergeEquivalentConditionalFlow = boolKnob("DisableMergeEquivalentConditionalFlow", "false", "GeneralOptimizeEarly",
		"skip GeneralOptimizeEarly (the seeds' phase 13: copy propagation and MergeEquivalentConditionalFlow) entirely")
	MovWeightForConvertMemToReg = doubleKnob("MovWeightForConvertMemToReg", "0.25", 0, 100, "ConvertMemoryToRegister",
		"cost of a move put in place of a .local load or store (each access removed is worth 1.0; conversions cost 1.0): a slot is promoted when what it saves is positive")
	LimitFoldFP = boolKnob("limit-fold-fp", "false", "GeneralOptimize",
		"the conservative path: no floating-point folding (float arithmetic, comparisons and conversions with a float side stay as written; integer folding is unaffected). Default from the SM profile: on for Kepler and Maxwell")
	HoistInvariantsBudget = budgetKnob("HoistInvariantsBudget", "5000", "HoistInvariants",
		"maximum number of instructions OriHoistInvariantsLate hoists per function")
	MovementMaxInstrs = budgetKnob("MovementMaxInstrs", "unlimited", "HoistInvariants",
		"per-function eligibility for the movement engine (the seeds' knob 381): DoKillMovement, DoKillMovementUp, DoTexMovement and DoTexMovementRaw skip a function with more instructions than this")
	MovementBudget = budgetKnob("MovementBudget", "unlimited", "HoistInvariants",
		"maximum number of instructions one movement phase (DoKillMovement, DoKillMovementUp, DoTexMovement, DoTexMovementRaw) moves per function")
	MovementWindow = intKnob("MovementWindow", "16", 1, 1<<16, "HoistInvariants",
		"instructions the movement engine looks across within a block: DoTexMovement spaces a fetch this far from its first reader, DoKillMovementUp raises a computation at most this far")
	SplitLiveRangesBudget = budgetKnob("SplitLiveRangesBudget", "8", "OriSplitLiveRanges",
		"most instructions OriSplitLiveRanges and OriSplitHighPressureLiveRanges each add per function by rematerializing values (a round whose cover costs more, or more than 6, is not made; each run also stops after 8 rounds, and once the maximum live data registers and predicates are at or below the register budget: PressureBudgetR or TargetOccupancy's, PressureBudgetP)")
	PredicationMaxInstrs = intKnob("PredicationMaxInstrs", "8", 0, 1024, "OriDoPredication",
		"most instructions OriDoPredication moves out of a triangle's or diamond's arms (0: the phase is off)")
	PredicateUniformBranches = boolKnob("PredicateUniformBranches", "false", "OriDoPredication",
		"also if-convert branches whose condition is the same in every lane of a warp (by default only divergent branches are)")
	GeneralOptimizeFullRounds = boolKnob("GeneralOptimizeFullRounds", "false", "GeneralOptimize",
		"every round of a GeneralOptimize bundle walks the whole function (by default a round after the first walks only what the last round's edits can reach; the output is the same either way, this checks it)")
	GeneralOptimizeRuleLimit = budgetKnob("GeneralOptimizeRuleLimit", "unlimited", "GeneralOptimize",
		"debug counter: each GeneralOptimize run applies at most N rewrite rules per function (bisect a miscompile to one rule application; the report names the first rule refused)")
	ConvertMemoryToRegIndexedSizeLimit = intKnob("ConvertMemoryToRegIndexedSizeLimit", "64", 0, 1<<20, "ConvertMemoryToRegister",
		"most bytes of a .local frame reached through constant-indexed pointers (small arrays) that are promoted to registers, per variable")
	UnrollMaxInstrs = intKnob("UnrollMaxInstrs", "208", 0, 1<<20, "OriUnrollLoops",
		"most instructions the fully unrolled copies of one loop nest may keep, counted after the copies' constants folded (constants, decided branches and loads of known frame slots do not count); a loop whose copies would keep more stays a loop; 0: OriUnrollLoops is off. The default is what the -O0 quality suite needs (small_matvec's 4x4 nest keeps 204): unrolled code raises register pressure")
	InlineMaxInstrs = intKnob("InlineMaxInstrs", "100", 0, 1<<30, "OriInline",
		"largest device function (in instructions) inlined at every call; a function called once is inlined whatever its size")
)

var knobIndex = map[string]int{} // lower-case name → index

func init() {
	for i, d := range knobDefs {
		k := strings.ToLower(d.Name)
		if _, dup := knobIndex[k]; dup {
			panic("phases: duplicate knob " + d.Name)
		}
		knobIndex[k] = i
		if _, err := parseKnobValue(d, d.Default); err != nil {
			panic("phases: bad default for knob " + d.Name + ": " + err.Error())
		}
	}
}

// KnobDefs returns the registry in declaration order.
func KnobDefs() []KnobDef { return append([]KnobDef(nil), knobDefs...) }

// knobValue holds any knob's value: ints and budgets in i, doubles in f,
// bools as 0/1 in i.
type knobValue struct {
	i int64
	f float64
}

func parseKnobValue(d KnobDef, s string) (knobValue, error) {
	s = strings.TrimSpace(s)
	switch d.Kind {
	case KnobBool:
		switch strings.ToLower(s) {
		case "true", "1", "on", "yes":
			return knobValue{i: 1}, nil
		case "false", "0", "off", "no":
			return knobValue{i: 0}, nil
		}
		return knobValue{}, fmt.Errorf("knob %s wants a bool (true/false, 1/0, on/off), not %q", d.Name, s)
	case KnobInt:
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return knobValue{}, fmt.Errorf("knob %s wants an integer, not %q", d.Name, s)
		}
		if float64(v) < d.Min || float64(v) > d.Max {
			return knobValue{}, fmt.Errorf("knob %s: %d is out of range [%g, %g]", d.Name, v, d.Min, d.Max)
		}
		return knobValue{i: v}, nil
	case KnobDouble:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) {
			return knobValue{}, fmt.Errorf("knob %s wants a number, not %q", d.Name, s)
		}
		if v < d.Min || v > d.Max {
			return knobValue{}, fmt.Errorf("knob %s: %g is out of range [%g, %g]", d.Name, v, d.Min, d.Max)
		}
		return knobValue{f: v}, nil
	case KnobBudget:
		switch strings.ToLower(s) {
		case "unlimited", "inf", "-1":
			return knobValue{i: Unlimited}, nil
		}
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil || v < 0 {
			return knobValue{}, fmt.Errorf("knob %s wants a budget (a non-negative integer or \"unlimited\"), not %q", d.Name, s)
		}
		return knobValue{i: v}, nil
	}
	return knobValue{}, fmt.Errorf("knob %s has an unknown kind", d.Name)
}

// KnobSetting is one "Name=Value" the user asked for, parsed and checked.
type KnobSetting struct {
	Index int
	Value string
	v     knobValue
}

// ParseKnob parses "Name=Value". Unknown names and bad values are errors;
// an unknown name lists the close matches.
func ParseKnob(s string) (KnobSetting, error) {
	name, val, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return KnobSetting{}, fmt.Errorf("knob setting %q is not Name=Value", s)
	}
	i, found := knobIndex[strings.ToLower(name)]
	if !found {
		names := make([]string, len(knobDefs))
		for j, d := range knobDefs {
			names[j] = d.Name
		}
		return KnobSetting{}, fmt.Errorf("unknown knob %q%s", name, suggest(name, names))
	}
	v, err := parseKnobValue(knobDefs[i], val)
	if err != nil {
		return KnobSetting{}, err
	}
	return KnobSetting{Index: i, Value: strings.TrimSpace(val), v: v}, nil
}

// ParseKnobFile reads knob settings from a file: one or more "Name=Value"
// per line separated by ';', '#' starts a comment. Errors carry
// file:line.
func ParseKnobFile(path string) ([]KnobSetting, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseKnobText(path, data)
}

// ParseKnobText is ParseKnobFile on text already read.
func ParseKnobText(path string, data []byte) ([]KnobSetting, error) {
	var out []KnobSetting
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		for _, item := range strings.Split(text, ";") {
			if strings.TrimSpace(item) == "" {
				continue
			}
			s, err := ParseKnob(item)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			out = append(out, s)
		}
	}
	return out, sc.Err()
}

// Knobs is a resolved set of knob values: the registry defaults, then the
// SM profile's defaults, then the user's settings, each overriding the
// one before. A Knobs is read-only once built and may be shared.
type Knobs struct {
	vals []knobValue
	src  []uint8 // 0 registry default, 1 SM profile, 2 user
}

// NewKnobs resolves the knob values for a target profile and settings.
func NewKnobs(prof *Profile, settings []KnobSetting) *Knobs {
	k := &Knobs{vals: make([]knobValue, len(knobDefs)), src: make([]uint8, len(knobDefs))}
	for i, d := range knobDefs {
		k.vals[i], _ = parseKnobValue(d, d.Default)
	}
	if prof != nil {
		for _, s := range prof.settings {
			k.vals[s.Index], k.src[s.Index] = s.v, 1
		}
	}
	for _, s := range settings {
		k.vals[s.Index], k.src[s.Index] = s.v, 2
	}
	return k
}

func (k *Knobs) Bool(h BoolKnob) bool        { return k.vals[h].i != 0 }
func (k *Knobs) Int(h IntKnob) int64         { return k.vals[h].i }
func (k *Knobs) Double(h DoubleKnob) float64 { return k.vals[h].f }
func (k *Knobs) Budget(h BudgetKnob) int64   { return k.vals[h].i }

// SizedBudget is budget h for a function of n instructions: as set when
// the user or the SM profile set it; left at its default, the larger of
// the default and n. For the copy-propagation budgets: a fixed default
// ran out on big functions (GeneralOptimize used up 2,000 cross-block
// propagations on a 1M-instruction kernel and left the rest to the later
// bundles, so the split of the work between the six slots, and the
// output, depended on the function's size). One rewrite per instruction
// per run is far more than real code asks for, and still bounds a run's
// work (a chain of copies met in the worst order) by the function's size.
func (k *Knobs) SizedBudget(h BudgetKnob, n int) int64 {
	if k.src[h] != 0 {
		return k.vals[h].i
	}
	return max(k.vals[h].i, int64(n))
}

// Source says where knob i's value came from: "default", "sm", or "user".
func (k *Knobs) Source(i int) string {
	return [...]string{"default", "sm", "user"}[k.src[i]]
}

// String returns knob i's value in its own syntax.
func (k *Knobs) String(i int) string {
	v := k.vals[i]
	switch knobDefs[i].Kind {
	case KnobBool:
		return strconv.FormatBool(v.i != 0)
	case KnobDouble:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case KnobBudget:
		if v.i == Unlimited {
			return "unlimited"
		}
	}
	return strconv.FormatInt(v.i, 10)
}

// suggest returns ", did you mean A, B?" for the candidates closest to
// name by edit distance (case-insensitive), or "" when none is close.
func suggest(name string, cands []string) string {
	type scored struct {
		s string
		d int
	}
	var best []scored
	ln := strings.ToLower(name)
	limit := max(2, len(name)/3)
	for _, c := range cands {
		lc := strings.ToLower(c)
		d := editDistance(ln, lc)
		if d <= limit || (len(ln) >= 4 && strings.Contains(lc, ln)) {
			best = append(best, scored{c, d})
		}
	}
	if len(best) == 0 {
		return ""
	}
	sort.SliceStable(best, func(i, j int) bool {
		if best[i].d != best[j].d {
			return best[i].d < best[j].d
		}
		return best[i].s < best[j].s
	})
	// Keep the closest ones: within one edit of the best.
	n := 0
	for n < len(best) && n < 4 && best[n].d <= best[0].d+1 {
		n++
	}
	best = best[:n]
	names := make([]string, len(best))
	for i, b := range best {
		names[i] = b.s
	}
	return "; did you mean " + strings.Join(names, ", ") + "?"
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
