package phases

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Target is an SM target in ptxas's encoding: (generation << 12) | variant,
// where sm_86 is generation 8, variant 6 (0x8006) and sm_100a is
// generation 10, variant 0 with the arch-specific suffix "a".
type Target struct {
	Name     string // as normalized: "sm_86", "sm_90a"
	Gen      int
	Variant  int
	Suffix   string // "", "a" or "f"
	Encoding uint32
}

// FoldEligibleBoundary: targets whose encoding is at or below it (older
// than generation 5) fold floating point only exactly (limit-fold-fp).
const FoldEligibleBoundary = 20479 // 0x4FFF

// ParseTarget parses "sm_XX" (also "compute_XX", with an optional "a"/"f"
// suffix). The last digit is the variant, the digits before it the
// generation.
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
	t := Target{Name: "sm_" + num + suffix, Gen: v / 10, Variant: v % 10, Suffix: suffix}
	t.Encoding = uint32(t.Gen)<<12 | uint32(t.Variant)
	return t, nil
}

// TargetOfModule picks the SM target from a module's .target text
// ("sm_89" or "sm_90a, texmode_independent"); sm_52 when it names none
// (as ptxas does for a missing .target).
func TargetOfModule(targetText string) (Target, error) {
	for _, part := range strings.Split(targetText, ",") {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "sm_") || strings.HasPrefix(part, "compute_") {
			return ParseTarget(part)
		}
	}
	return ParseTarget("sm_52")
}

// Profile holds a generation's defaults. Knobs set by the user override
// them.
type Profile struct {
	Gen      int
	Arch     string            // marketing name of the generation
	Defaults map[string]string // knob name → value
	settings []KnobSetting
}

// ProfileFor returns the profile of t's generation:
//
//   - GVN-CSE mode: 1 (dominator-scoped) before Volta, 2 (with redundant
//     read-only loads) for Volta..Ada, 3 (uniform-register aware) from
//     Hopper on, where uniform datapaths matter most;
//   - limit-fold-fp: on at or below FoldEligibleBoundary (encoding 20479).
func ProfileFor(t Target) *Profile {
	p := &Profile{Gen: t.Gen, Arch: archName(t.Gen), Defaults: map[string]string{}}
	switch {
	case t.Gen < 7:
		p.Defaults["EnableGvnCseMode"] = "1"
	case t.Gen < 9:
		p.Defaults["EnableGvnCseMode"] = "2"
	default:
		p.Defaults["EnableGvnCseMode"] = "3"
	}
	p.Defaults["limit-fold-fp"] = strconv.FormatBool(t.Encoding <= FoldEligibleBoundary)
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

func archName(gen int) string {
	switch gen {
	case 2:
		return "Fermi"
	case 3:
		return "Kepler"
	case 5:
		return "Maxwell"
	case 6:
		return "Pascal"
	case 7:
		return "Volta/Turing"
	case 8:
		return "Ampere/Ada"
	case 9:
		return "Hopper"
	case 10, 11:
		return "Blackwell"
	case 12:
		return "Blackwell (consumer)"
	}
	return "unknown"
}
