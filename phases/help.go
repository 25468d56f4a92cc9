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
	fmt.Fprintln(w, "\nOpt levels: -O0 parses and prints only; -O1, -O2, -O3 run the phases whose opt column is at or below the level.")
}

// WriteHelpKnobs writes the knob registry for --help-knobs, with the
// values the given target's profile sets.
func WriteHelpKnobs(w io.Writer, t Target) {
	k := NewKnobs(ProfileFor(t), nil)
	fmt.Fprintf(w, "Knobs (set with --knob Name=Value, repeatable, or --knob-file F); defaults shown for %s (%s):\n", t.Name, archName(t.Gen))
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
	fmt.Fprintln(w, "their phase is not built yet (--help-phases) or does not use them.")
	fmt.Fprintf(w, "\nSM targets: --sm sm_XX (default: the module's .target); encoding (generation << 12) | variant, %s = %#x.\n", t.Name, t.Encoding)
	fmt.Fprintf(w, "Profiles: EnableGvnCseMode 1 before sm_70, 2 for sm_70..sm_89, 3 from sm_90; limit-fold-fp (inert) on at encodings <= %d.\n", FoldEligibleBoundary)
}
