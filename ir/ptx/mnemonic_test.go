package ptx

import (
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

var legacyOrder = map[string]bool{"rcp.approx.f32.ftz": true}

// Every mnemonic of the corpus that Decode models whole (no ModOther) is
// written back by FormText exactly as the producers wrote it: the order
// FormText uses is PTX's, so a form a pass rebuilds reads like the input.
// And every instruction's fields agree with its text (the verifier's
// Forms check).
func TestCorpusMnemonicsRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	modeled, total := 0, 0
	for _, cf := range corpusFiles(t) {
		m, err := Parse(cf.name, cf.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.Funcs {
			if !f.HasBody {
				continue
			}
			for _, e := range ir.VerifyWith(f, ir.VerifyOptions{Forms: true, MaxErrors: 5}) {
				if ve, ok := e.(*ir.VerifyError); ok && len(ve.Msg) > 6 && ve.Msg[:6] == "fields" {
					t.Errorf("%s: %v", cf.name, e)
				}
			}
			for i := range f.Op {
				mn := f.Str(f.Mnemonic[i])
				if seen[mn] {
					continue
				}
				seen[mn] = true
				total++
				d := ir.Decode(mn)
				if d.Mods.Has(ir.ModOther) || d.Op == ir.OpPragma || d.Op == ir.OpUnknown {
					continue
				}
				modeled++
				// Old producers put .ftz after the type of rcp; PTX
				// accepts both orders, FormText writes the current one.
				if got := ir.FormText(d); got != mn && !legacyOrder[mn] {
					t.Errorf("%s: FormText(Decode(%q)) = %q", cf.name, mn, got)
				}
			}
		}
	}
	t.Logf("%d distinct mnemonics, %d modeled whole", total, modeled)
}
