package phases

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim/simtest"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/*/*.out from the phases' output")

// TestGoldenPhases: PTX in, PTX out after one named phase (or sub-pass). Each
// testdata/golden/<Phase>/<case>.ptx holds a function (the module header
// is added); <case>.out holds the instructions after <Phase> ran alone
// (with the required phases around it). The phase must fire (count
// something) on every case whose name does not start with "keep-", the
// output must match, and the simulator must find the result equivalent
// to the input. A line "// knobs: Name=Value ..." in the .ptx sets knobs
// for its case. Rewrite the .out files with -update-golden after an
// intended change, and read the diff.
func TestGoldenPhases(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if len(dirs) == 0 {
		t.Fatal("no golden cases")
	}
	for _, dir := range dirs {
		phase := filepath.Base(dir)
		cases, _ := filepath.Glob(filepath.Join(dir, "*.ptx"))
		for _, path := range cases {
			name := strings.TrimSuffix(filepath.Base(path), ".ptx")
			t.Run(phase+"/"+name, func(t *testing.T) {
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				before, after, body, stats := runPass(t, string(src), "", phase, goldenKnobs(string(src))...)
				// the slots the name runs: itself, or for a sub-pass
				// (OriCopyProp) the bundles that run it
				slots := map[string]bool{phase: true}
				if m, ok := lookupSubPass(phase); ok {
					for _, i := range bundleSlots(m) {
						slots[pipeline[i].Name] = true
					}
				}
				fired := false
				for _, s := range stats {
					if slots[s.Name] && len(s.Counters) > 0 {
						fired = true
					}
				}
				if keep := strings.HasPrefix(name, "keep-"); fired == keep {
					t.Errorf("%s fired: %v (a keep- case must not, any other must)", phase, fired)
				}
				out := strings.TrimSuffix(path, ".ptx") + ".out"
				if *updateGolden {
					if err := os.WriteFile(out, []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(out)
				if err != nil {
					t.Fatalf("%v (run with -update-golden to create it)", err)
				}
				if body != string(want) {
					t.Errorf("output after %s differs from %s:\n--- got\n%s--- want\n%s", phase, out, body, want)
				}
				simtest.CheckEquivalent(t, before, after, 4)
			})
		}
	}
}

// goldenKnobs returns the knob settings of a case's "// knobs:" lines.
func goldenKnobs(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if k, ok := strings.CutPrefix(strings.TrimSpace(l), "// knobs:"); ok {
			out = append(out, strings.Fields(k)...)
		}
	}
	return out
}
