package phases

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteHelpPhases writes the pipeline table for --help-phases.
func WriteHelpPhases(w io.Writer) {
	fmt.Fprintln(w, "Phases, in pipeline order (disable with --disable-phase NAME, select with --named-phases NAME,...):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  #\tname\topt\tfamily\tneeds\tstatus\tdescription")
	for _, p := range pipeline {
		status := "no-op (not yet implemented)"
		if p.Impl {
			status = "implemented"
		}
		req := ""
		if p.Required {
			req = " [required]"
		}
		fam := strings.Join(p.Families, ",")
		if fam == "" {
			fam = "-"
		}
		fmt.Fprintf(tw, "  %d\t%s\t-O%d\t%s\t%s\t%s\t%s%s\n", p.Num, p.Name, p.MinOpt, fam, p.Form, status, p.Help, req)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nFamilies (a family name stands for all its members):")
	fams := make([]string, 0, len(Families))
	for f := range Families {
		fams = append(fams, f)
	}
	slices.Sort(fams)
	for _, f := range fams {
		fmt.Fprintf(w, "  %-20s %s\n", f, Families[f])
	}
	fmt.Fprintln(w, "\nSub-passes (named or disabled like a phase; they run inside the bundles):")
	for _, n := range namedSubPasses {
		fmt.Fprintf(w, "  %-20s %s\n", n.name, n.help)
	}
	fmt.Fprintln(w, "\nOpt levels: -O0 parses and prints only; -O1, -O2, -O3 run the phases whose opt column is at or below the level.")
}

// WriteHelpKnobs writes the knob registry for --help-knobs, with the
// values the given target's profile sets.
func WriteHelpKnobs(w io.Writer, t Target) {
	k := NewKnobs(ProfileFor(t), nil)
	fmt.Fprintf(w, "Knobs (set with --knob Name=Value, repeatable, or --knob-file F); defaults shown for %s (%s):\n", t.Name, archName(t))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  name\ttype\tdefault\trange\tphase\tdescription")
	for i, d := range knobDefs {
		rng := "-"
		switch d.Kind {
		case KnobInt, KnobDouble:
			rng = fmt.Sprintf("[%g, %g]", d.Min, d.Max)
		case KnobBudget:
			rng = "0.., unlimited"
		}
		def := k.String(i)
		if k.Source(i) == "sm" {
			def += " (sm)"
		}
		help := d.Help
		if d.Inert {
			help = "[inert: no pass reads it yet] " + help
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", d.Name, d.Kind, def, rng, d.Phase, help)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nKnobs marked [inert] are accepted (ptxas-style settings stay valid) but change nothing:")
	fmt.Fprintf(w, "\nSM targets: --sm sm_XX (default: the module's .target); encoding (generation << 12) | variant as in the seeds' table\n"+
		"(sm_30 0x3000, sm_50 0x4001, sm_60 0x6000, sm_70 0x7000, sm_80 0x7001, sm_90 0x8000, sm_100 0x9000); %s = %#x, backend %s.\n", t.Name, t.Encoding, t.Backend())
	fmt.Fprintln(w, "Targets the table omits: sm_2x/sm_3x gen 2/3 variant = minor; sm_5x gen 4 variant = minor+1; sm_6x gen 6 variant = minor;\n"+
		"sm_72/sm_75 share sm_70's 0x7000; sm_8x gen 7 variant = minor+1 (sm_86 0x7007, sm_89 0x700a); sm_9x gen 8 variant = minor;\n"+
		"sm_100 and newer gen 9 variant = number-100 (sm_120 0x9014); an a/f suffix keeps its base's encoding.")
	fmt.Fprintln(w, "Profiles: "+ProfileRules)
}
