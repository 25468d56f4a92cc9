package ptxopt

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/phases"
)

// The README's "What it does today" names every phase the pipeline
// implements in its built list and every no-op slot (Impl false) in its
// "Not built yet" list, and nothing else; the opening says that some
// slots are not built.
func TestReadmeMatchesPipeline(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	opening, _, _ := strings.Cut(text, "\n## ")
	if !strings.Contains(opening, "not built yet") {
		t.Errorf("the README's opening does not say which phases are not built yet")
	}
	_, today, ok := strings.Cut(text, "\n## What it does today\n")
	if !ok {
		t.Fatal(`README has no "## What it does today" section`)
	}
	today, _, _ = strings.Cut(today, "\n## ")
	built, notBuilt, ok := strings.Cut(today, "Not built yet")
	if !ok {
		t.Fatal(`"What it does today" has no "Not built yet" list`)
	}
	names := func(s string) []string {
		var out []string
		for _, m := range regexp.MustCompile("`([A-Za-z0-9]+\\*?)`").FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}
	// A name ending in * stands for every phase with that prefix.
	covers := func(list []string, phase string) bool {
		for _, n := range list {
			if n == phase || strings.HasSuffix(n, "*") && strings.HasPrefix(phase, strings.TrimSuffix(n, "*")) {
				return true
			}
		}
		return false
	}
	builtNames, notBuiltNames := names(built), names(notBuilt)
	var impl, noop []string
	for _, p := range phases.Phases() {
		if p.Impl {
			impl = append(impl, p.Name)
			if !covers(builtNames, p.Name) {
				t.Errorf("README: implemented phase %s is not in the built list", p.Name)
			}
			if covers(notBuiltNames, p.Name) {
				t.Errorf("README: implemented phase %s is listed as not built", p.Name)
			}
		} else {
			noop = append(noop, p.Name)
			if !covers(notBuiltNames, p.Name) {
				t.Errorf("README: no-op phase %s is not in the \"Not built yet\" list", p.Name)
			}
			if covers(builtNames, p.Name) {
				t.Errorf("README: no-op phase %s is listed as built", p.Name)
			}
		}
	}
	// Names in the lists must be phases (a renamed phase must not linger).
	isPhase := func(n string) bool {
		return slices.ContainsFunc(append(impl, noop...), func(p string) bool { return covers([]string{n}, p) })
	}
	for _, n := range notBuiltNames {
		if !isPhase(n) {
			t.Errorf("README: %q in the \"Not built yet\" list is no phase", n)
		}
	}
	if len(noop) == 0 && strings.TrimSpace(notBuilt) != "" {
		t.Errorf("every phase is built: drop the README's \"Not built yet\" list")
	}
}
