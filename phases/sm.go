package phases

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Target is an SM target with its encoding from the seeds' table (seed
// 001, "SM Version Encoding"): Encoding = (Gen << 12) | Variant, where
// Gen is ptxas's internal generation, not the first digit of sm_XX:
//
//	sm_30  0x3000   sm_50 0x4001   sm_60 0x6000   sm_70 0x7000
//	sm_80  0x7001   sm_90 0x8000   sm_100 0x9000
//
// The table lists only those. The others are placed by family, keeping
// the order of the numbers and each listed value exact (see smPlace):
// sm_2x gen 2 (variant = minor); sm_3x gen 3 (variant = minor); sm_5x gen
// 4 (variant = minor+1, as sm_50 = 0x4001); sm_6x gen 6 (variant =
// minor); sm_7x gen 7 variant 0 (sm_72 and sm_75 share 0x7000 with sm_70:
// nothing fits between sm_70 = 0x7000 and sm_80 = 0x7001); sm_8x gen 7
// (variant = minor+1: sm_86 0x7007, sm_87 0x7008, sm_89 0x700a); sm_9x
// gen 8 (variant = minor); sm_100 and above gen 9 (variant = number-100:
// sm_120 0x9014). The "a" and "f" suffixes keep their base's encoding.
type Target struct {
	Name     string // as normalized: "sm_86", "sm_90a"
	SM       int    // the number: 86 for sm_86
	Gen      int    // the table's generation (Encoding >> 12)
	Variant  int    // Encoding & 0xfff
	Suffix   string // "", "a" or "f"
	Encoding uint32
}

// Generation thresholds of the seeds, in the table's encoding.
const (
	// FoldEligibleBoundary: targets at or below it (generation 4 and
	// older: Kepler, Maxwell) fold floating point only exactly
	// (limit-fold-fp).
	FoldEligibleBoundary = 20479 // 0x4FFF
	// EbbPrePassBoundary: GvnCse mode 2 runs its extended-basic-block
	// pre-pass on targets at or below it (generation 7: Volta to Ada);
	// above it only under GvnCseEbbPrePass.
	EbbPrePassBoundary = 32767 // 0x7FFF
)

// smPlace returns the seeds' generation and variant of sm_<v>.
func smPlace(v int) (gen, variant int) {
	major, minor := v/10, v%10
	switch {
	case major <= 3:
		return major, minor
	case major <= 5:
		return 4, minor + 1
	case major == 6:
		return 6, minor
	case major == 7:
		return 7, 0
	case major == 8:
		return 7, minor + 1
	case major == 9:
		return 8, minor
	}
	return 9, v - 100
}

// ParseTarget parses "sm_XX" (also "compute_XX", with an optional "a"/"f"
// suffix).
func ParseTarget(s string) (Target, error) {
	s = strings.TrimSpace(s)
	num, ok := strings.CutPrefix(s, "sm_")
	if !ok {
		num, ok = strings.CutPrefix(s, "compute_")
	}
	if !ok {
		return Target{}, fmt.Errorf("bad SM target %q: want sm_XX (for example sm_80, sm_90a)", s)
	}
	suffix := ""
	if n := len(num); n > 0 && (num[n-1] == 'a' || num[n-1] == 'f') {
		suffix, num = num[n-1:], num[:n-1]
	}
	v, err := strconv.Atoi(num)
	if err != nil || len(num) < 2 || v < 10 || v > 999 {
		return Target{}, fmt.Errorf("bad SM target %q: want sm_XX (for example sm_80, sm_90a)", s)
	}
	gen, variant := smPlace(v)
	name := s // "sm_" + num + suffix already: no new string per module
	if !strings.HasPrefix(s, "sm_") {
		name = "sm_" + num + suffix
	}
	t := Target{Name: name, SM: v, Gen: gen, Variant: variant, Suffix: suffix}
	t.Encoding = uint32(gen)<<12 | uint32(variant)
	return t, nil
}

// TargetOfModule picks the SM target from a module's .target text
// ("sm_89" or "sm_90a, texmode_independent"); sm_52 when it names none
// (as ptxas does for a missing .target).
func TargetOfModule(targetText string) (Target, error) {
	for part := range strings.SplitSeq(targetText, ",") { // (no slice: a call per module)
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "sm_") || strings.HasPrefix(part, "compute_") {
			return ParseTarget(part)
		}
	}
	return ParseTarget("sm_52")
}

// Backend names the seeds' SM backend a target uses (seed 000: seven
// backend vtables, SM30 SM50 SM60 SM70 SM80 SM89 SM90): sm_2x and sm_3x
// SM30, sm_5x SM50, sm_6x SM60, sm_7x SM70, sm_80..sm_88 SM80, sm_89 SM89,
// sm_90 and newer SM90.
func (t Target) Backend() string {
	switch {
	case t.SM < 50:
		return "SM30"
	case t.SM < 60:
		return "SM50"
	case t.SM < 70:
		return "SM60"
	case t.SM < 80:
		return "SM70"
	case t.SM == 89:
		return "SM89"
	case t.SM < 90:
		return "SM80"
	}
	return "SM90"
}

// Profile holds a target's defaults. Knobs set by the user override
// them.
type Profile struct {
	Gen      int
	Arch     string            // marketing name of the generation
	Defaults map[string]string // knob name → value
	settings []KnobSetting
}

// ProfileFor returns the profile of t (see ProfileRules).
func ProfileFor(t Target) *Profile {
	p := &Profile{Gen: t.Gen, Arch: archName(t), Defaults: map[string]string{}}
	p.Defaults["EnableGvnCseMode"] = strconv.Itoa(gvnDefaultMode(t))
	p.Defaults["AdvancedPhaseBackPropVReg"] = strconv.FormatBool(t.SM >= 70)
	p.Defaults["limit-fold-fp"] = strconv.FormatBool(t.Encoding <= FoldEligibleBoundary)
	p.Defaults["MaxWarpsPerSM"] = strconv.Itoa(maxWarpsPerSM(t))
	names := make([]string, 0, len(p.Defaults))
	for n := range p.Defaults {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		s, err := ParseKnob(n + "=" + p.Defaults[n])
		if err != nil {
			panic("phases: profile: " + err.Error())
		}
		p.settings = append(p.settings, s)
	}
	return p
}

// ProfileRules says, for --help-knobs, how the profiles choose defaults.
const ProfileRules = "EnableGvnCseMode " + gvnModeRule + "; AdvancedPhaseBackPropVReg (runs OriBackCopyPropagate) on from sm_70 (backends SM70 and newer), off before; limit-fold-fp on at encodings <= 20479 (0x4fff: Kepler, Maxwell); MaxWarpsPerSM 32 on sm_75, 48 on sm_86, sm_87, sm_89 and sm_120 and above, 64 elsewhere."

func archName(t Target) string {
	switch {
	case t.SM < 30:
		return "Fermi"
	case t.SM < 50:
		return "Kepler"
	case t.SM < 60:
		return "Maxwell"
	case t.SM < 70:
		return "Pascal"
	case t.SM < 75:
		return "Volta"
	case t.SM < 80:
		return "Turing"
	case t.SM < 89:
		return "Ampere"
	case t.SM == 89:
		return "Ada"
	case t.SM < 100:
		return "Hopper"
	}
	return "Blackwell"
}

// gvnModeRule describes gvnDefaultMode.
const gvnModeRule = "3 (full dominator scoping) on every target"

// gvnDefaultMode is the profile's EnableGvnCseMode. The seeds' backends
// make GvnCse a no-op on SM30, SM50, SM80 and SM89 (Kepler, Maxwell,
// Ampere, Ada), which rely on LateOriCommoning instead; here GvnCse stays
// on everywhere (mode 3), because the pipeline's tests and most of the
// corpus are sm_80 and LateOriCommoning does not (yet) replace it. The
// seeds do not give the mode number the others use; 3 is the full GVN.
func gvnDefaultMode(Target) int { return 3 }

// maxWarpsPerSM is the resident warps per SM of t (CUDA's occupancy
// tables: Turing 32; GA10x, Orin, Ada and consumer Blackwell 48; the
// rest 64).
func maxWarpsPerSM(t Target) int {
	switch {
	case t.SM == 75:
		return 32
	case t.SM == 86 || t.SM == 87 || t.SM == 89 || t.SM >= 120:
		return 48
	}
	return 64
}
