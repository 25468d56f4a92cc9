package sim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim"
)

// variantKernel has six optional buffers (each tested for null); its
// last block runs only when the first five are absent and the sixth is
// present, one input in 64 when each choice is a coin flip.
func variantKernel(tail string) string {
	var b strings.Builder
	b.WriteString(".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 out")
	for i := range 6 {
		fmt.Fprintf(&b, ", .param .u64 p%d", i)
	}
	b.WriteString(")\n{\n\t.reg .u64 %rd<10>;\n\t.reg .u32 %r<4>;\n\t.reg .pred %p<8>;\n\tld.param.u64 %rd0, [out];\n\tmov.u32 %r1, 7;\n")
	for i := range 5 {
		fmt.Fprintf(&b, "\tld.param.u64 %%rd%d, [p%d];\n\tsetp.ne.u64 %%p%d, %%rd%d, 0;\n\t@%%p%d bra $has%d;\n", i+1, i, i, i+1, i, i)
	}
	b.WriteString("\tld.param.u64 %rd6, [p5];\n\tsetp.eq.u64 %p5, %rd6, 0;\n\t@%p5 bra $done;\n\tld.global.u32 %r2, [%rd6];\n")
	b.WriteString(tail)
	b.WriteString("\tbra.uni $done;\n")
	// a present buffer is read: the facts see each as a pointer
	for i := range 5 {
		fmt.Fprintf(&b, "$has%d:\n\tld.global.u32 %%r3, [%%rd%d];\n\tadd.u32 %%r1, %%r1, %%r3;\n\tbra.uni $done;\n", i, i+1)
	}
	b.WriteString("$done:\n\tst.global.u32 [%rd0], %r1;\n\tret;\n}\n")
	return b.String()
}

// TestDiffVariantSearch: the variant search of UntilCovered runs the code
// behind a combination of null tests that none of the plain seeds'
// inputs reach, by flipping null choices of the inputs that ran new code.
func TestDiffVariantSearch(t *testing.T) {
	before := parseKernel(t, variantKernel("\tadd.u32 %r1, %r2, 3;\n"), "k")
	after := parseKernel(t, variantKernel("\tadd.u32 %r1, 3, %r2;\n"), "k")
	o := sim.DiffOptions{Seeds: 4, ExtraSeeds: 4, UntilCovered: true}
	// no plain seed the check may run has the combination
	for seed := range int64(o.Seeds + o.ExtraSeeds) {
		in := sim.MakeInput(before, seed, 1<<16)
		null := func(i int) bool { return slices.Equal(in.Launch.Params[1+i], make([]byte, 8)) }
		if null(0) && null(1) && null(2) && null(3) && null(4) && !null(5) {
			t.Fatalf("seed %d reaches the guarded block on its own: the test shows nothing", seed)
		}
	}
	if n := sim.NewInputMaker(before).Choices(); n != 6 {
		t.Fatalf("%d null choices, want 6", n)
	}
	res, err := sim.Diff(before, after, o)
	if err != nil || res.Mismatch != nil {
		t.Fatalf("%v %v", err, res.Mismatch)
	}
	if run, total := res.Executed(); run != total || total == 0 {
		t.Errorf("%d of %d changed instructions executed in %d runs, want all", run, total, res.Runs)
	}
	if res.Status != sim.StatusMatched {
		t.Errorf("status %v, want matched", res.Status)
	}
}

// TestDiffVariantMismatch: a miscompile on the guarded path is found by
// the variant search and named with the flips that reproduce it, and
// DiffOptions.Variant reproduces it on the seed alone.
func TestDiffVariantMismatch(t *testing.T) {
	before := parseKernel(t, variantKernel("\tadd.u32 %r1, %r2, 3;\n"), "k")
	after := parseKernel(t, variantKernel("\tadd.u32 %r1, %r2, 4;\n"), "k")
	res, err := sim.Diff(before, after, sim.DiffOptions{Seeds: 4, ExtraSeeds: 4, UntilCovered: true})
	if err != nil {
		t.Fatal(err)
	}
	mm := res.Mismatch
	if mm == nil || len(mm.Variant) == 0 {
		t.Fatalf("mismatch %v, want one found by the variant search", mm)
	}
	if !strings.Contains(mm.Error(), "flipped") {
		t.Errorf("%q does not name the flipped choices", mm.Error())
	}
	again, err := sim.Diff(before, after, sim.DiffOptions{Seed: mm.Seed, Seeds: 1, Variant: mm.Variant})
	if err != nil || again.Mismatch == nil {
		t.Fatalf("seed %d with variant %v does not reproduce: %v %v", mm.Seed, mm.Variant, err, again.Mismatch)
	}
	plain, err := sim.Diff(before, after, sim.DiffOptions{Seed: mm.Seed, Seeds: 1})
	if err != nil || plain.Mismatch != nil {
		t.Fatalf("seed %d alone: %v %v, want no mismatch (the variant is what finds it)", mm.Seed, err, plain.Mismatch)
	}
}
