package phases

import (
	"context"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

type gvnCase struct {
	name    string
	decls   string   // module-scope declarations before the kernel
	body    string   // kernel body (genOptKernel: result in %r30)
	knobs   []string // knob settings
	want    []string // instructions (exact text) that must be in the result
	notWant []string // substrings that must not be
	n       int64    // expected "expressions commoned"
}

// runGvn runs GvnCse alone on kernel "k" of src with knob settings.
func runGvn(t *testing.T, src string, knobs ...string) (before, after *ir.Func, body string, stats []PhaseStat) {
	t.Helper()
	return runPass(t, src, "k", "GvnCse", knobs...)
}

func runGvnCases(t *testing.T, cases []gvnCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, stats := runGvn(t, tc.decls+genOptKernel(tc.body), tc.knobs...)
			lines := map[string]bool{}
			for _, l := range strings.Split(body, "\n") {
				lines[l] = true
			}
			for _, w := range tc.want {
				if !lines[w] {
					t.Errorf("want %q in:\n%s", w, body)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(body, w) {
					t.Errorf("%q should not be there:\n%s", w, body)
				}
			}
			if n := counter(stats, "expressions commoned"); n != tc.n {
				t.Errorf("commoned %d, want %d:\n%s", n, tc.n, body)
			}
			simtest.CheckEquivalent(t, before, after, 4)
		})
	}
}

func TestGvnCseCommons(t *testing.T) {
	runGvnCases(t, []gvnCase{
		{name: "local", body: `
	mul.lo.s32 %r3, %r2, 4;
	mul.lo.s32 %r4, %r2, 4;
	add.s32 %r30, %r3, %r4;`,
			want: []string{"mul.lo.s32 %r3, %r2, 4;", "mov.b32 %r4, %r3;"}, n: 1},
		{name: "commutative operands", body: `
	add.s32 %r3, %r2, %r1;
	add.s32 %r4, %r1, %r2;
	setp.eq.s32 %p1, %r3, %r2;
	setp.eq.s32 %p2, %r2, %r3;
	selp.b32 %r5, %r4, 7, %p1;
	selp.b32 %r30, %r5, 9, %p2;`,
			want: []string{"mov.b32 %r4, %r3;", "mov.pred %p2, %p1;"}, n: 2},
		{name: "three in a row", body: `
	shl.b32 %r3, %r2, 2;
	shl.b32 %r4, %r2, 2;
	shl.b32 %r5, %r2, 2;
	add.s32 %r6, %r3, %r4;
	add.s32 %r30, %r6, %r5;`,
			want: []string{"mov.b32 %r4, %r3;", "mov.b32 %r5, %r3;"}, n: 2},
		{name: "chain through a commoned value", body: `
	mul.lo.s32 %r3, %r2, 4;
	add.s32 %r5, %r3, %r1;
	mul.lo.s32 %r4, %r2, 4;
	add.s32 %r6, %r3, %r1;
	add.s32 %r30, %r5, %r6;
	add.s32 %r30, %r30, %r4;`,
			want: []string{"mov.b32 %r4, %r3;", "mov.b32 %r6, %r5;"}, n: 2},
		{name: "dominating block", body: `
	mul.lo.s32 %r3, %r2, %r1;
	setp.lt.u32 %p1, %r2, 3;
	mov.u32 %r30, 0;
	@%p1 bra $L__join;
	mul.lo.s32 %r30, %r2, %r1;
$L__join:
	mul.lo.s32 %r5, %r2, %r1;
	add.s32 %r30, %r30, %r5;`,
			knobs: []string{"EnableGvnCseMode=3"},
			want:  []string{"mov.b32 %r30, %r3;", "mov.b32 %r5, %r3;"}, n: 2},
		{name: "kernel parameter load", body: `
	ld.param.u32 %r3, [n];
	add.s32 %r30, %r3, %r2;`,
			want: []string{"mov.b32 %r3, %r1;"}, n: 1},
		{name: "const load", decls: ".const .align 4 .b32 ctab[4] = {3, 5, 7, 11};\n", body: `
	ld.const.u32 %r3, [ctab+4];
	ld.const.u32 %r4, [ctab+4];
	ld.const.u32 %r5, [ctab+8];
	add.s32 %r6, %r3, %r4;
	add.s32 %r30, %r6, %r5;`,
			want: []string{"mov.b32 %r4, %r3;", "ld.const.u32 %r5, [ctab+8];"}, n: 1},
		{name: "conversion and float", body: `
	cvt.rn.f32.u32 %f1, %r2;
	cvt.rn.f32.u32 %f2, %r2;
	mul.rn.f32 %f3, %f1, 0f40000000;
	mul.rn.f32 %f4, %f2, 0f40000000;
	add.rn.f32 %f5, %f3, %f4;
	cvt.rzi.u32.f32 %r30, %f5;`,
			// %f4's key sees through the copy GvnCse made of %f2.
			want: []string{"mov.f32 %f2, %f1;", "mov.f32 %f4, %f3;"}, n: 2},
	})
}

// In SSA form (IntoSSA runs before GvnCse) each write of a register is a
// value of its own: an expression whose sources are versions of a
// register written several times is commoned when both read the same
// version (without SSA the key's registers must have one definition).
// The leader itself must not be a version of a register written several
// times: reading it later keeps it live across the register's other
// versions, and OutOfSSA would then need a register of its own and copies
// for it (measured on the corpus: more registers and higher max live).
func TestGvnCseInSSAForm(t *testing.T) {
	runGvnCases(t, []gvnCase{
		{name: "same version of a redefined source", body: `
	mov.u32 %r5, %r2;
	add.s32 %r5, %r5, 1;
	mul.lo.s32 %r3, %r5, 4;
	xor.b32 %r7, %r3, 9;
	mul.lo.s32 %r4, %r5, 4;
	add.s32 %r30, %r7, %r4;`,
			want: []string{"mov.b32 %r4, %r3;"}, n: 1},
		{name: "leader redefined between", body: `
	mul.lo.s32 %r3, %r2, 4;
	add.s32 %r3, %r3, 1;
	mul.lo.s32 %r4, %r2, 4;
	add.s32 %r30, %r3, %r4;`,
			notWant: []string{"mov.b32 %r4"}},
		{name: "loop-carried leader", body: `
	mov.u32 %r30, 0;
	mov.u32 %r6, 0;
$L__head:
	add.s32 %r30, %r30, %r6;
	add.s32 %r6, %r2, %r1;
	setp.ge.u32 %p1, %r30, 40;
	@!%p1 bra $L__head;
	add.s32 %r7, %r2, %r1;
	add.s32 %r30, %r30, %r7;`,
			notWant: []string{"mov.b32 %r7"}},
	})
}

func TestGvnCseLeavesAlone(t *testing.T) {
	runGvnCases(t, []gvnCase{
		{name: "source redefined between", body: `
	mov.u32 %r5, %r2;
	mul.lo.s32 %r3, %r5, 4;
	add.s32 %r5, %r5, 1;
	mul.lo.s32 %r4, %r5, 4;
	add.s32 %r30, %r3, %r4;`,
			notWant: []string{"mov.b32 %r4"}},
		{name: "source redefined by a guarded write", body: `
	mov.u32 %r5, %r2;
	setp.lt.u32 %p1, %r2, 7;
	mul.lo.s32 %r3, %r5, 4;
	@%p1 add.s32 %r5, %r5, 1;
	mul.lo.s32 %r4, %r5, 4;
	add.s32 %r30, %r3, %r4;`,
			notWant: []string{"mov.b32 %r4"}},
		{name: "self-referencing earlier", body: `
	mov.u32 %r5, %r2;
	add.s32 %r5, %r5, 1;
	add.s32 %r4, %r5, 1;
	add.s32 %r30, %r5, %r4;`,
			notWant: []string{"mov.b32 %r4"}},
		{name: "guarded instructions", body: `
	setp.lt.u32 %p1, %r2, 7;
	mov.u32 %r4, 1;
	mov.u32 %r6, 2;
	@%p1 mul.lo.s32 %r3, %r2, 4;
	mul.lo.s32 %r5, %r2, 4;
	@%p1 mul.lo.s32 %r4, %r2, 4;
	@%p1 mul.lo.s32 %r6, %r2, 4;
	add.s32 %r30, %r4, %r5;
	add.s32 %r30, %r30, %r6;`,
			want:    []string{"@%p1 mov.b32 %r4, %r3;", "@%p1 mov.b32 %r6, %r3;"},
			notWant: []string{"mov.b32 %r5"}, n: 2},
		{name: "guarded: other polarity or redefined guard", body: `
	setp.lt.u32 %p1, %r2, 7;
	mov.u32 %r4, 1;
	mov.u32 %r6, 2;
	@%p1 mul.lo.s32 %r3, %r2, 4;
	@!%p1 mul.lo.s32 %r4, %r2, 4;
	setp.lt.u32 %p1, %r2, 9;
	@%p1 mul.lo.s32 %r6, %r2, 4;
	add.s32 %r30, %r4, %r3;
	add.s32 %r30, %r30, %r6;`,
			notWant: []string{"mov.b32 %r4, %r", "mov.b32 %r6, %r"}},
		{name: "loop-carried source", body: `
	mov.u32 %r5, 0;
	mov.u32 %r30, 0;
$L__head:
	add.s32 %r6, %r5, %r1;
	setp.ge.u32 %p1, %r5, 4;
	@%p1 bra $L__done;
	add.s32 %r5, %r5, 1;
	add.s32 %r7, %r5, %r1;
	add.s32 %r30, %r30, %r7;
	bra.uni $L__head;
$L__done:
	add.s32 %r30, %r30, %r6;`,
			notWant: []string{"mov.b32 %r7"}},
		{name: "non-dominating occurrence", body: `
	setp.lt.u32 %p1, %r2, 3;
	mov.u32 %r3, 0;
	@%p1 bra $L__join;
	mul.lo.s32 %r3, %r2, %r1;
$L__join:
	mul.lo.s32 %r5, %r2, %r1;
	add.s32 %r30, %r3, %r5;`,
			notWant: []string{"mov.b32 %r5"}},
		{name: "volatile and plain global loads", body: `
	ld.volatile.global.u32 %r3, [%rd4];
	ld.volatile.global.u32 %r4, [%rd4];
	ld.global.u32 %r5, [%rd4];
	ld.global.u32 %r6, [%rd4];
	add.s32 %r30, %r3, %r4;
	add.s32 %r30, %r30, %r5;
	add.s32 %r30, %r30, %r6;`,
			notWant: []string{"mov.b32"}},
		{name: "convergent", body: `
	shfl.sync.idx.b32 %r3, %r2, 0, 31, -1;
	shfl.sync.idx.b32 %r4, %r2, 0, 31, -1;
	setp.lt.u32 %p1, %r2, 5;
	vote.sync.ballot.b32 %r5, %p1, -1;
	vote.sync.ballot.b32 %r6, %p1, -1;
	add.s32 %r30, %r3, %r4;
	add.s32 %r30, %r30, %r5;
	add.s32 %r30, %r30, %r6;`,
			knobs: []string{"EnableGvnCseMode=4"},
			want:  []string{"mov.b32 %r6, %r5;", "shfl.sync.idx.b32 %r4, %r2, 0, 31, -1;"}, n: 1},
		{name: "convergent: shfl in mode 5", body: `
	shfl.sync.idx.b32 %r3, %r2, 0, 31, -1;
	shfl.sync.idx.b32 %r4, %r2, 0, 31, -1;
	add.s32 %r30, %r3, %r4;`,
			knobs: []string{"EnableGvnCseMode=5"},
			want:  []string{"mov.b32 %r4, %r3;"}, n: 1},
		{name: "convergent: never across blocks", body: `
	setp.lt.u32 %p1, %r2, 5;
	vote.sync.ballot.b32 %r5, %p1, -1;
	mov.u32 %r6, 0;
	@%p1 bra $L__join;
	vote.sync.ballot.b32 %r6, %p1, -1;
$L__join:
	add.s32 %r30, %r5, %r6;`,
			knobs:   []string{"EnableGvnCseMode=6"},
			notWant: []string{"mov.b32 %r6, %r5;"}},
		{name: "carry chain", body: `
	add.cc.u32 %r3, %r2, %r1;
	addc.u32 %r4, 0, 0;
	add.cc.u32 %r5, %r2, %r1;
	addc.u32 %r6, 0, 0;
	add.s32 %r30, %r3, %r4;
	add.s32 %r30, %r30, %r5;
	add.s32 %r30, %r30, %r6;`,
			notWant: []string{"mov.b32"}},
		{name: "different types and modifiers", body: `
	add.u32 %r3, %r2, %r1;
	add.s32 %r4, %r2, %r1;
	mul.lo.u32 %r5, %r2, %r1;
	mul.hi.u32 %r6, %r2, %r1;
	sub.s32 %r7, %r2, %r1;
	sub.s32 %r8, %r1, %r2;
	add.s32 %r30, %r3, %r4;
	add.s32 %r30, %r30, %r5;
	add.s32 %r30, %r30, %r6;
	add.s32 %r30, %r30, %r7;
	add.s32 %r30, %r30, %r8;`,
			notWant: []string{"mov.b32"}},
		{name: "different immediates", body: `
	add.s32 %r3, %r2, 1;
	add.s32 %r4, %r2, 2;
	add.s32 %r30, %r3, %r4;`,
			notWant: []string{"mov.b32"}},
		{name: "non-commutative float", body: `
	cvt.rn.f32.u32 %f1, %r2;
	cvt.rn.f32.u32 %f2, %r1;
	add.rn.f32 %f3, %f1, %f2;
	add.rn.f32 %f4, %f2, %f1;
	add.rn.f32 %f5, %f3, %f4;
	cvt.rzi.u32.f32 %r30, %f5;`,
			notWant: []string{"mov.f32"}},
		{name: "volatile special", body: `
	mov.u32 %r3, %clock;
	mov.u32 %r4, %clock;
	sub.s32 %r30, %r4, %r3;
	and.b32 %r30, %r30, 0;`,
			notWant: []string{"mov.b32"}},
	})
}

// Keys see through copies only while the copy still holds.
func TestGvnCseThroughCopies(t *testing.T) {
	runGvnCases(t, []gvnCase{
		{name: "local copy", body: `
	mov.u32 %r5, %r2;
	mul.lo.s32 %r3, %r2, 4;
	mul.lo.s32 %r4, %r5, 4;
	add.s32 %r30, %r3, %r4;`,
			want: []string{"mov.b32 %r4, %r3;"}, n: 1},
		{name: "dominating single-definition copy", body: `
	mul.lo.s32 %r3, %r2, %r1;
	mov.u32 %r5, %r2;
	setp.lt.u32 %p1, %r2, 3;
	mov.u32 %r30, 0;
	@%p1 bra $L__join;
	mul.lo.s32 %r30, %r5, %r1;
$L__join:
	add.s32 %r30, %r30, %r3;`,
			want: []string{"mov.b32 %r30, %r3;"}, n: 1},
		{name: "copy source written after the copy", body: `
	add.s32 %r6, %r2, 1;
	mov.u32 %r5, %r6;
	add.s32 %r6, %r6, 1;
	mul.lo.s32 %r3, %r6, 4;
	mul.lo.s32 %r4, %r5, 4;
	add.s32 %r30, %r3, %r4;`,
			notWant: []string{"mov.b32 %r4"}},
		{name: "copy target written after the copy", body: `
	mov.u32 %r5, %r2;
	mul.lo.s32 %r3, %r2, 4;
	add.s32 %r5, %r5, 1;
	mul.lo.s32 %r4, %r5, 4;
	add.s32 %r30, %r3, %r4;`,
			notWant: []string{"mov.b32 %r4"}},
		{name: "copy in a loop", body: `
	mov.u32 %r6, %r2;
	mov.u32 %r30, 0;
$L__head:
	mov.u32 %r5, %r6;
	add.s32 %r6, %r6, 1;
	mul.lo.s32 %r3, %r6, 4;
	mul.lo.s32 %r4, %r5, 4;
	add.s32 %r30, %r30, %r3;
	add.s32 %r30, %r30, %r4;
	setp.lt.u32 %p1, %r6, 40;
	@%p1 bra $L__head;`,
			notWant: []string{"mov.b32 %r4"}},
	})
}

func TestGvnCseKnobs(t *testing.T) {
	dominating := `
	mul.lo.s32 %r3, %r2, %r1;
	ld.param.u32 %r8, [n];
	setp.lt.u32 %p1, %r2, 3;
	mov.u32 %r30, %r8;
	@%p1 bra $L__join;
	mul.lo.s32 %r4, %r2, %r1;
	mul.lo.s32 %r6, %r2, %r1;
	add.s32 %r30, %r4, %r6;
$L__join:
	mul.lo.s32 %r5, %r2, %r1;
	add.s32 %r30, %r30, %r5;`
	runGvnCases(t, []gvnCase{
		{name: "off", body: dominating, knobs: []string{"EnableGvnCse=false"},
			notWant: []string{"mov.b32 %r"}},
		{name: "mode 0 off", body: dominating, knobs: []string{"EnableGvnCseMode=0"},
			notWant: []string{"mov.b32 %r"}},
		{name: "mode 1 single-block", body: dominating, knobs: []string{"EnableGvnCseMode=1"},
			want: []string{"mov.b32 %r6, %r4;", "mul.lo.s32 %r5, %r2, %r1;", "mov.b32 %r8, %r1;"}, n: 2},
		{name: "mode 2 extended basic block", body: dominating, knobs: []string{"EnableGvnCseMode=2"},
			want: []string{"mov.b32 %r4, %r3;", "mov.b32 %r6, %r3;", "mul.lo.s32 %r5, %r2, %r1;", "mov.b32 %r8, %r1;"}, n: 3},
		{name: "mode 3 dominator-scoped", body: dominating, knobs: []string{"EnableGvnCseMode=3"},
			want: []string{"mov.b32 %r4, %r3;", "mov.b32 %r6, %r3;", "mov.b32 %r5, %r3;", "mov.b32 %r8, %r1;"}, n: 4},
		{name: "mode 4 as 3", body: dominating, knobs: []string{"EnableGvnCseMode=4"},
			want: []string{"mov.b32 %r5, %r3;", "mov.b32 %r8, %r1;"}, n: 4},
		{name: "mode 6 as 3 here", body: dominating, knobs: []string{"EnableGvnCseMode=6"},
			want: []string{"mov.b32 %r5, %r3;", "mov.b32 %r8, %r1;"}, n: 4},
		{name: "per-instruction gate: the first two only", body: dominating, knobs: []string{"EnableGvnCseMode=3", "EnableGvnCsePerInstr=2"},
			want: []string{"mov.b32 %r8, %r1;", "mov.b32 %r4, %r3;", "mul.lo.s32 %r6, %r2, %r1;", "mul.lo.s32 %r5, %r2, %r1;"}, n: 2},
		{name: "per-instruction gate 0", body: dominating, knobs: []string{"EnableGvnCsePerInstr=0"},
			notWant: []string{"mov.b32 %r"}},
	})
}

// TestGvnCseGenerated runs GvnCse alone, and the whole pipeline, on
// generated kernels and checks each in the simulator.
func TestGvnCseGenerated(t *testing.T) {
	checkGenerated(t, "GvnCse", "expressions commoned", 1000, func(seed int64) int { return 200 + int(seed%5)*60 })
}

// TestScopeTree: blocks come out of the drain once each, in ascending
// order, across nodes and words, and the drained tree is empty.
func TestScopeTree(t *testing.T) {
	var st scopeTree
	in := []uint32{700, 3, 64, 63, 256, 3, 511, 1000, 0, 255}
	for _, b := range in {
		st.insert(b)
	}
	var got []ir.BlockID
	st.drain(func(b ir.BlockID) { got = append(got, b) })
	want := []ir.BlockID{0, 3, 63, 64, 255, 256, 511, 700, 1000}
	if len(got) != len(want) {
		t.Fatalf("drained %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("drained %v, want %v", got, want)
		}
	}
	st.drain(func(b ir.BlockID) { t.Errorf("drained %d from an empty tree", b) })
	st.insert(5)
	got = got[:0]
	st.drain(func(b ir.BlockID) { got = append(got, b) })
	if len(got) != 1 || got[0] != 5 {
		t.Errorf("reuse: drained %v", got)
	}
}

// runGvnHeld runs -O3 (sm_80) on the kernel kc describes with GvnCse and
// LateOriCommoning under the holds gt and lt, and returns the result's
// text and the phases' counters: GvnCse's commoned, commoned in the drain
// and declined by the pressure estimate, LateOriCommoning's commoned and
// declined.
func runGvnHeld(t *testing.T, kc gen.Config, gt, lt *gvnTest) (string, [5]int64) {
	t.Helper()
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Override("GvnCse", func(p *Pass) bool { return gvnCseWith(p, gt) }); err != nil {
		t.Fatal(err)
	}
	if err := c.Override("LateOriCommoning", func(p *Pass) bool { return lateCommoningWith(p, nil, lt) }); err != nil {
		t.Fatal(err)
	}
	f := gen.Func(gen.Kernel(kc))
	stats, err := Run(context.Background(), c, nil, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	const declined = "not commoned: would raise the maximum live registers"
	return funcText(f), [5]int64{
		phaseCounter(stats, "GvnCse", "expressions commoned"),
		phaseCounter(stats, "GvnCse", "commoned in the scope drain"),
		phaseCounter(stats, "GvnCse", declined),
		phaseCounter(stats, "LateOriCommoning", "expressions commoned"),
		phaseCounter(stats, "LateOriCommoning", declined),
	}
}

// gvnHeldKernels: generated kernels for the tests comparing holds, the
// 30K pressure kernel (TestGvnCsePressureEstimate) among them unless
// -short.
// gvnKernelsWithFrames is gvnHeldKernels and four generated kernels with
// frames and injected redundancy, seeds seed to seed+3.
func gvnKernelsWithFrames(seed int64) []gen.Config {
	kernels := gvnHeldKernels()
	for s := range int64(4) {
		kernels = append(kernels, gen.Config{Seed: seed + s, Size: 2500, Pool: 32, Frames: true, Inject: gen.AllKinds})
	}
	return kernels
}

func gvnHeldKernels() []gen.Config {
	kernels := []gen.Config{{Seed: 1, Size: 30000, Pool: 64}}
	if testing.Short() {
		kernels = kernels[:0]
	}
	for s := range int64(12) {
		kernels = append(kernels, gen.Config{Seed: 40 + s, Size: 1500 + int(s)*500, Pool: 16 + int(s%4)*16})
	}
	return kernels
}

// TestGvnCseDrainSkip: the scope drain numbers again only the blocks whose
// walk declined a block-local commoning; on generated kernels under -O3
// (the pressure estimate on, so commonings are declined) the result and
// GvnCse's counters are those of draining every recorded block, and the
// skip leaves out most of them.
func TestGvnCseDrainSkip(t *testing.T) {
	skipUnderRace(t)
	var total [2]gvnTest
	declined, drained := int64(0), int64(0)
	for _, kc := range gvnHeldKernels() {
		var text [2]string
		var counts [2][5]int64
		for k, all := range []bool{true, false} {
			total[k].all = all
			text[k], counts[k] = runGvnHeld(t, kc, &total[k], nil)
		}
		if text[0] != text[1] {
			t.Fatalf("kernel %+v: the result differs with the skip", kc)
		}
		if counts[0] != counts[1] {
			t.Fatalf("kernel %+v: counters %v draining every block, %v with the skip", kc, counts[0], counts[1])
		}
		declined += counts[1][2]
		drained += counts[1][1]
	}
	t.Logf("blocks recorded %d, numbered again %d; commoned in the drain %d; declined %d", total[1].recorded, total[1].redone, drained, declined)
	if declined == 0 && !testing.Short() {
		t.Errorf("no commoning declined: the kernels do not test the drain's retries")
	}
	if total[1].recorded == 0 || total[1].redone == total[1].recorded {
		t.Errorf("recorded %d blocks, numbered again %d: the skip did not fire", total[1].recorded, total[1].redone)
	}
}

// TestGvnDefTables: GvnCse and LateOriCommoning give the same results and
// counters reading the def-use chains and reading the layout scan's
// tables (defTables), on generated kernels under -O3 (the pressure
// estimate on, its interval ends from either).
func TestGvnDefTables(t *testing.T) {
	skipUnderRace(t)
	declined := int64(0)
	for _, kc := range gvnHeldKernels() {
		var text [2]string
		var counts [2][5]int64
		for k, chains := range []int8{1, -1} {
			text[k], counts[k] = runGvnHeld(t, kc, &gvnTest{chains: chains}, &gvnTest{chains: chains})
		}
		if text[0] != text[1] {
			t.Fatalf("kernel %+v: the result differs with the tables", kc)
		}
		if counts[0] != counts[1] {
			t.Fatalf("kernel %+v: counters %v with the chains, %v with the tables", kc, counts[0], counts[1])
		}
		if counts[0][0] == 0 || counts[0][3] == 0 {
			t.Errorf("kernel %+v: counters %v: a phase commoned nothing", kc, counts[0])
		}
		declined += counts[0][2] + counts[0][4]
	}
	if declined == 0 && !testing.Short() {
		t.Errorf("no commoning declined: the kernels do not test the interval ends")
	}
}

// TestGvnFacts: GvnCse and LateOriCommoning give the same results and
// counters reading the registers' facts from the column buildFacts fills
// and from where they are kept (RegVec, RegType, the parameters, the SSA
// versions, the opaque marks, the chains or the layout scan's tables), on
// generated kernels under -O3, with frames and injected redundancy among
// them; the kernels hold multi-version registers and registers with
// several definitions (no vector or parameter register, which
// TestGvnFactsRegisters covers).
func TestGvnFacts(t *testing.T) {
	skipUnderRace(t)
	kernels := gvnKernelsWithFrames(70)
	var seen [4]int64
	for _, kc := range kernels {
		for _, chains := range []int8{1, -1} {
			var text [2]string
			var counts [2][5]int64
			for k, off := range []bool{false, true} {
				gt, lt := &gvnTest{chains: chains, noFacts: off}, &gvnTest{chains: chains, noFacts: off}
				text[k], counts[k] = runGvnHeld(t, kc, gt, lt)
				for j := range seen {
					seen[j] += gt.facts[j] + lt.facts[j]
				}
			}
			if text[0] != text[1] {
				t.Fatalf("kernel %+v (chains %d): the result differs with the facts column", kc, chains)
			}
			if counts[0] != counts[1] {
				t.Fatalf("kernel %+v (chains %d): counters %v with the facts, %v without", kc, chains, counts[0], counts[1])
			}
			if counts[0][0] == 0 || counts[0][3] == 0 {
				t.Errorf("kernel %+v: counters %v: a phase commoned nothing", kc, counts[0])
			}
		}
	}
	t.Logf("registers opaque %d, multi-version %d, not plain %d, several definitions %d", seen[0], seen[1], seen[2], seen[3])
	if seen[1] == 0 || seen[3] == 0 {
		t.Errorf("facts %v: the kernels do not exercise every fact", seen)
	}
}

// TestGvnFactsRegisters: every fact of the column buildFacts fills
// matches the register's own records, register by register, on a module
// with .reg parameters (not plain), a vector register (declared: not
// plain), a predicate and a register written twice, with opaque marks set
// on every third register.
func TestGvnFactsRegisters(t *testing.T) {
	src := `.version 7.8
.target sm_80
.address_size 64

.func (.reg .b32 ret) addmul (.reg .b32 x, .reg .b32 y)
{
	.reg .b32 %r<4>;
	.reg .v2 .b32 %v;
	.reg .pred %p;
	add.s32 %r1, x, y;
	sub.s32 %r2, x, y;
	xor.b32 %r3, %r2, x;
	setp.lt.s32 %p, %r2, 4;
	@%p add.s32 %r1, %r1, 1;
	mul.lo.s32 ret, %r1, %r3;
	ret;
}
`
	m, err := ptx.Parse("facts.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	du := core.ComputeDefUse(f)
	g := &gvn{f: f, sc: NewScratch(), du: du, opaque: make([]bool, f.NumRegs())}
	for r := range g.opaque {
		g.opaque[r] = r%3 == 0
	}
	g.buildFacts()
	facts := g.facts
	notPlain, several := 0, 0
	for r := range ir.RegID(f.NumRegs()) {
		g.facts = facts
		got := [4]any{g.isPlain(r), g.plainDest(r), g.isOpaque(r), g.defCount(r)}
		g.facts = nil
		want := [4]any{g.isPlain(r), g.plainDest(r), g.isOpaque(r), g.defCount(r)}
		if got != want {
			t.Errorf("register %d: facts %v, records %v", r, got, want)
		}
		if !g.isPlain(r) {
			notPlain++
		}
		if g.defCount(r) > 1 {
			several++
		}
	}
	if notPlain < 4 || several == 0 {
		t.Errorf("%d registers not plain (want the parameters and the vector), %d with several definitions", notPlain, several)
	}
}

// TestGvnOpenDef: the dominator-scoped rule's check that a key
// register's only definition dominates the candidate, answered from the
// walk's path (openDef), gives before's answer every time it is asked,
// and the phases' results and counters are the same with either, on
// generated kernels, with and without cached chains.
func TestGvnOpenDef(t *testing.T) {
	skipUnderRace(t)
	kernels := gvnKernelsWithFrames(90)
	var checked int64
	for _, kc := range kernels {
		for _, chains := range []int8{1, -1} {
			gt, lt := &gvnTest{chains: chains, checkPath: true}, &gvnTest{chains: chains, checkPath: true}
			text0, counts0 := runGvnHeld(t, kc, gt, lt)
			if gt.pathDiffer+lt.pathDiffer != 0 {
				t.Fatalf("kernel %+v (chains %d): openDef differs from before %d times of %d", kc, chains,
					gt.pathDiffer+lt.pathDiffer, gt.pathChecked+lt.pathChecked)
			}
			checked += gt.pathChecked + lt.pathChecked
			text1, counts1 := runGvnHeld(t, kc, &gvnTest{chains: chains}, &gvnTest{chains: chains})
			text2, counts2 := runGvnHeld(t, kc, &gvnTest{chains: chains, noPath: true}, &gvnTest{chains: chains, noPath: true})
			if text1 != text2 || text0 != text1 {
				t.Fatalf("kernel %+v (chains %d): the result differs with the path check", kc, chains)
			}
			if counts1 != counts2 || counts0 != counts1 {
				t.Fatalf("kernel %+v (chains %d): counters %v with the path, %v with before", kc, chains, counts1, counts2)
			}
			if counts1[0] == 0 || counts1[3] == 0 {
				t.Errorf("kernel %+v: counters %v: a phase commoned nothing", kc, counts1)
			}
		}
	}
	t.Logf("%d dominance answers compared", checked)
	if checked == 0 {
		t.Error("the kernels never asked the rule's dominance check")
	}
}

// TestGvnKeyHeaders: sameKey from the keys' headers gives the results
// and counters of sameKey from the instructions' columns, on the held
// kernels and generated ones, with and without chains.
func TestGvnKeyHeaders(t *testing.T) {
	skipUnderRace(t)
	kernels := gvnKernelsWithFrames(110)
	for _, kc := range kernels {
		for _, chains := range []int8{1, -1} {
			text0, counts0 := runGvnHeld(t, kc, &gvnTest{chains: chains}, &gvnTest{chains: chains})
			text1, counts1 := runGvnHeld(t, kc, &gvnTest{chains: chains, fieldKeys: true}, &gvnTest{chains: chains, fieldKeys: true})
			if text0 != text1 {
				t.Fatalf("kernel %+v (chains %d): the result differs with the keys' headers", kc, chains)
			}
			if counts0 != counts1 {
				t.Fatalf("kernel %+v (chains %d): counters %v with the headers, %v with the columns", kc, chains, counts0, counts1)
			}
			if counts0[0] == 0 || counts0[3] == 0 {
				t.Errorf("kernel %+v: counters %v: a phase commoned nothing", kc, counts0)
			}
		}
	}
}
