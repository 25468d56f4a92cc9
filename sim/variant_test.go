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
	if n := sim.NewInputMaker(before).NullChoices(); n != 6 {
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

// switchKernel selects an operation with op (compared with 0 to 15) in
// the mode mode == 0 selects; its last case runs in that mode only.
func switchKernel(tail string) string {
	var b strings.Builder
	b.WriteString(".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u32 op, .param .u32 mode)\n{\n")
	b.WriteString("\t.reg .u64 %rd<4>;\n\t.reg .u32 %r<8>;\n\t.reg .pred %p<20>;\n\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [op];\n\tld.param.u32 %r2, [mode];\n\tmov.u32 %r3, 1;\n")
	b.WriteString("\tsetp.ne.u32 %p19, %r2, 0;\n\t@%p19 bra $done;\n")
	for i := range 15 {
		fmt.Fprintf(&b, "\tsetp.eq.u32 %%p%d, %%r1, %d;\n\t@%%p%d bra $c%d;\n", i, i, i, i)
	}
	b.WriteString("\tsetp.ne.u32 %p15, %r1, 15;\n\t@%p15 bra $done;\n")
	b.WriteString(tail)
	b.WriteString("\tbra.uni $done;\n")
	for i := range 15 {
		fmt.Fprintf(&b, "$c%d:\n\tadd.u32 %%r3, %%r3, %d;\n\tbra.uni $done;\n", i, i+2)
	}
	b.WriteString("$done:\n\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n")
	return b.String()
}

// TestDiffValueVariants: the case of a switch that runs only for one
// value of op and one of mode, which no plain seed's input has, runs on
// a variant that pins op to a compared immediate in an input that had
// the mode.
func TestDiffValueVariants(t *testing.T) {
	before := parseKernel(t, switchKernel("\tadd.u32 %r3, %r1, 100;\n"), "k")
	after := parseKernel(t, switchKernel("\tadd.u32 %r3, 100, %r1;\n"), "k")
	o := sim.DiffOptions{Seeds: 4, ExtraSeeds: 4, UntilCovered: true}
	maker := sim.NewInputMaker(before)
	for seed := range int64(o.Seeds + o.ExtraSeeds) {
		in := maker.Make(seed, 1<<16)
		op, mode := in.Launch.Params[1], in.Launch.Params[2]
		if op[0] == 15 && slices.Equal(mode, make([]byte, 4)) {
			t.Fatalf("seed %d reaches the case on its own: the test shows nothing", seed)
		}
	}
	if maker.Choices() == maker.NullChoices() {
		t.Fatal("no value choices")
	}
	res, err := sim.Diff(before, after, o)
	if err != nil || res.Mismatch != nil {
		t.Fatalf("%v %v", err, res.Mismatch)
	}
	if run, total := res.Executed(); run != total || total == 0 {
		t.Errorf("%d of %d changed instructions executed in %d runs, want all", run, total, res.Runs)
	}
	// a miscompile there is found and reproduced from its flips
	bad := parseKernel(t, switchKernel("\tadd.u32 %r3, %r1, 101;\n"), "k")
	res, err = sim.Diff(before, bad, o)
	if err != nil || res.Mismatch == nil || len(res.Mismatch.Variant) == 0 {
		t.Fatalf("%v %v, want a mismatch found by a variant", err, res.Mismatch)
	}
	again, err := sim.Diff(before, bad, sim.DiffOptions{Seed: res.Mismatch.Seed, Seeds: 1, Variant: res.Mismatch.Variant})
	if err != nil || again.Mismatch == nil {
		t.Fatalf("the variant does not reproduce: %v %v", err, again.Mismatch)
	}
}

// modeKernel runs X when mode == 0 and op != 15, Y when mode != 0 and
// op == 15, Z otherwise, and tail when mode == 0 and op == 15; first, a
// switch on k (compared with 0 to 15) gives every seed new code to run,
// and the variant search many single pins to spend its runs on.
func modeKernel(tail string) string {
	var b strings.Builder
	b.WriteString(`.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 op, .param .u32 mode, .param .u32 k)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<8>;
	.reg .pred %p<24>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [op];
	ld.param.u32 %r2, [mode];
	ld.param.u32 %r4, [k];
	mov.u32 %r3, 1;
	mov.u32 %r5, 0;
`)
	for i := range 16 {
		fmt.Fprintf(&b, "\tsetp.eq.u32 %%p%d, %%r4, %d;\n\t@%%p%d bra $k%d;\n", i+4, i, i+4, i)
	}
	b.WriteString("\tbra.uni $kdone;\n")
	for i := range 16 {
		fmt.Fprintf(&b, "$k%d:\n\tadd.u32 %%r5, %%r5, %d;\n\tbra.uni $kdone;\n", i, 3*i+1)
	}
	b.WriteString(`$kdone:
	setp.eq.u32 %p1, %r1, 15;
	setp.ne.u32 %p2, %r2, 0;
	@%p2 bra $other;
	@%p1 bra $case;
	add.u32 %r3, %r3, 2;
	bra.uni $done;
$case:
` + tail + `	bra.uni $done;
$other:
	@!%p1 bra $z;
	add.u32 %r3, %r3, 3;
	bra.uni $done;
$z:
	add.u32 %r3, %r3, 4;
$done:
	add.u32 %r3, %r3, %r5;
	st.global.u32 [%rd1], %r3;
	ret;
}
`)
	return b.String()
}

// TestDiffValuePairs: the single pins spend the search's runs on the
// newest inputs that ran new code (the switch on k gives every seed
// some), and none of those has the mode; a pair of pins (the case in
// the mode) on the first input reaches the change.
func TestDiffValuePairs(t *testing.T) {
	before := parseKernel(t, modeKernel("\tadd.u32 %r3, %r1, 100;\n"), "k")
	after := parseKernel(t, modeKernel("\tadd.u32 %r3, 100, %r1;\n"), "k")
	o := sim.DiffOptions{Seed: 53, Seeds: 6, ExtraSeeds: 2, UntilCovered: true}
	maker := sim.NewInputMaker(before)
	for seed := o.Seed; seed < o.Seed+int64(o.Seeds+o.ExtraSeeds); seed++ {
		in := maker.Make(seed, 1<<16)
		op15 := in.Launch.Params[1][0] == 15 && slices.Equal(in.Launch.Params[1][1:], make([]byte, 3))
		mode0 := slices.Equal(in.Launch.Params[2], make([]byte, 4))
		if op15 && mode0 {
			t.Fatalf("seed %d reaches the case on its own: the test shows nothing", seed)
		}
	}
	res, err := sim.Diff(before, after, o)
	if err != nil || res.Mismatch != nil {
		t.Fatalf("%v %v", err, res.Mismatch)
	}
	if run, total := res.Executed(); run != total || total == 0 {
		t.Errorf("%d of %d changed instructions executed in %d runs, want all", run, total, res.Runs)
	}
}
