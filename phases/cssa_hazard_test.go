package phases

import (
	"context"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// hazardLoopKernel: a loop whose exit is divergent (lanes run
// ceil((n - tid) / ntid) iterations), whose counter %r1 starts at %tid.x,
// and whose first value the store after the loop still reads (through
// the copy %r6, which copy propagation removes): at the loop header, the
// counter's PHI web and that first value of %r1 enter together, which is
// where OutOfSSA's SIMT rule keeps the web apart (the shape of the
// corpus's reduce_row_* kernels).
const hazardLoopKernel = `
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .b32 %r<8>;
	.reg .pred %p<3>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r4, [n];
	and.b32 %r4, %r4, 127;
	add.u32 %r4, %r4, 40;
	mov.u32 %r1, %tid.x;
	mov.u32 %r6, %r1;
	mov.u32 %r2, 0;
	setp.ge.u32 %p1, %r1, %r4;
	@%p1 bra $L_done;
$L_loop:
	mad.lo.u32 %r2, %r2, 3, %r1;
	mov.u32 %r3, %ntid.x;
	add.u32 %r1, %r1, %r3;
	setp.lt.u32 %p2, %r1, %r4;
	@%p2 bra $L_loop;
$L_done:
	mul.wide.u32 %rd2, %r6, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
`

// hazardUniformKernel: the parameter a, copied to %r2, is read by the
// even lanes; the odd lanes (the fall-through side, which the simulator
// runs first) load b into %r1. Copy propagation makes the even lanes read
// %r1's first value, and the scalar rule puts both values of %r1 back in
// %r1: no path reads a after b is written. The SIMT rule does not: a is
// live on the even side, b is defined on the odd side, both uniform.
const hazardUniformKernel = `
.visible .entry k(.param .u64 out, .param .u32 a, .param .u32 b)
{
	.reg .b32 %r<8>;
	.reg .pred %p<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	mov.u32 %r2, %r1;
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %rd1, %rd2;
	and.b32 %r6, %r3, 1;
	setp.eq.u32 %p1, %r6, 0;
	@%p1 bra $L_even;
	ld.param.u32 %r1, [b];
	add.u32 %r4, %r1, 7;
	st.global.u32 [%rd3], %r4;
	bra.uni $L_join;
$L_even:
	add.u32 %r5, %r2, 3;
	st.global.u32 [%rd3], %r5;
$L_join:
	ret;
}
`

// TestCSSADivergenceHazard is the divergence hazard of out-of-SSA
// coalescing, tried in the simulator's two register models, with OutOfSSA
// as the pipeline runs it (the SIMT rule at divergent joins) and with the
// rule left out (outOfSSAScalar).
//
// Per-lane registers (PTX's model, the simulator's default): a register
// assignment that is right on every scalar path is right for every lane
// of a divergent warp, because each lane's registers see only its own
// path; scalar coalescing cannot change a result, and both outputs match
// the input ("phi web" below: the rule fires and changes the code, not
// what it computes).
//
// Warp-shared registers (sim's Launch.WarpShared; the uniform registers
// of sm_75 on): the registers core.Uniformity calls uniform (the UR file
// of ptxopt's pressure model) hold one value per warp, and a value one
// side's lanes still need is lost when the other side writes its
// register. There the hazard is real: "uniform value" shows it with the
// scalar rule, whose output computes something else, while the SIMT rule
// keeps a value live on one side of the divergent branch apart from a
// value of the same register defined on the other side when either is
// uniform (simtregion.go), and its output matches. The PHI-web part of the
// rule keeps apart webs at joins whose PHIs are varying, and a varying web
// is per lane in this model too ("phi web": both outputs match in
// warp-shared mode as well).
func TestCSSADivergenceHazard(t *testing.T) {
	t.Run("phi web", func(t *testing.T) {
		before, withRule, scalar, stats := outOfSSABothRules(t, hazardLoopKernel)
		if n := phaseCounter(stats, "OutOfSSA", "PHI webs kept apart at divergent joins"); n == 0 {
			t.Fatalf("the SIMT rule kept no web apart:\n%s", funcBody(withRule))
		}
		if funcBody(withRule) == funcBody(scalar) {
			t.Fatalf("the SIMT rule changed nothing:\n%s", funcBody(withRule))
		}
		checkWarpSharedSelf(t, before)
		for _, c := range []struct {
			name  string
			after *ir.Func
		}{{"SIMT rule", withRule}, {"scalar rule", scalar}} {
			simtest.CheckEquivalent(t, before, c.after, 6)
			res, err := sim.Diff(before, c.after, sim.DiffOptions{Seeds: 6, ExtraSeeds: simtest.ExtraSeeds, WarpShared: uniformRegs})
			if err != nil {
				t.Fatal(err)
			}
			if msg := simtest.Verdict(res); msg != "" {
				t.Errorf("%s, warp-shared uniform registers: %s\n%s", c.name, msg, funcBody(c.after))
			}
		}
	})
	t.Run("uniform value", func(t *testing.T) {
		before, withRule, scalar, stats := outOfSSABothRules(t, hazardUniformKernel)
		// The input is right with warp-shared uniform registers: a and b
		// are in two registers.
		checkWarpSharedSelf(t, before)
		simtest.CheckEquivalent(t, before, scalar, 6)
		simtest.CheckEquivalent(t, before, withRule, 6)
		res, err := sim.Diff(before, scalar, sim.DiffOptions{Seeds: 6, ExtraSeeds: simtest.ExtraSeeds, WarpShared: onlyFunc(scalar)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Mismatch == nil {
			t.Fatalf("with warp-shared uniform registers the scalar rule's output computes what the input does (%v):\n%s", res.Status, funcBody(scalar))
		}
		if res.Mismatch.AfterError != nil {
			t.Fatalf("the output trapped instead: %v", res.Mismatch)
		}
		t.Logf("the hazard, warp-shared uniform registers: %v", res.Mismatch)
		// The SIMT rule keeps a (live on the even side) and b (defined
		// on the odd side) in two registers: its output computes what
		// the input does with warp-shared registers too.
		if n := phaseCounter(stats, "OutOfSSA", "value pairs kept apart across divergent branches"); n == 0 {
			t.Errorf("the SIMT rule kept no values apart across the divergent branch:\n%s", funcBody(withRule))
		}
		res, err = sim.Diff(before, withRule, sim.DiffOptions{Seeds: 6, ExtraSeeds: simtest.ExtraSeeds, WarpShared: onlyFunc(withRule)})
		if err != nil {
			t.Fatal(err)
		}
		if msg := simtest.Verdict(res); msg != "" || res.Matches == 0 {
			t.Errorf("SIMT rule, warp-shared uniform registers: %s (%d runs matched)\n%s", msg, res.Matches, funcBody(withRule))
		}
	})
}

// outOfSSABothRules runs GeneralOptimize with the required phases at -O3
// (IntoSSA, CSSA, OutOfSSA among them), verifier on, on the kernel src
// twice: as the pipeline is, and with outOfSSAScalar in OutOfSSA's slot.
// It returns the input, both outputs and the first run's statistics.
func outOfSSABothRules(t *testing.T, src string) (before, withRule, scalar *ir.Func, stats []PhaseStat) {
	t.Helper()
	text := []byte(dceHeader + src)
	m, err := ptx.Parse("hazard.ptx", text)
	if err != nil {
		t.Fatal(err)
	}
	if err := ptx.Check("hazard.ptx", text, m); err != nil {
		t.Fatal(err)
	}
	before = m.Funcs[0]
	withRule, scalar = before.Clone(), before.Clone()
	target, _ := ParseTarget("sm_80")
	for k, f := range []*ir.Func{withRule, scalar} {
		c, err := NewConfig(MaxOpt, target, nil, nil, []string{"GeneralOptimize"})
		if err != nil {
			t.Fatal(err)
		}
		c.Verify = true
		if k == 1 {
			withPhase(t, c, "OutOfSSA", outOfSSAScalar)
		}
		s, err := Run(context.Background(), c, nil, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			stats = s
		}
	}
	return before, withRule, scalar, stats
}

// uniformRegs marks the registers of f that the uniformity analysis calls
// uniform: those ptxopt's register model puts in the UR file.
func uniformRegs(f *ir.Func) []bool {
	u := core.ComputeUniformity(f)
	m := make([]bool, f.NumRegs())
	for r := range m {
		m[r] = !u.Varying[r]
	}
	return m
}

// checkWarpSharedSelf checks that f computes the same with its uniform
// registers warp-shared as with per-lane registers: the warp-shared model
// holds for f.
func checkWarpSharedSelf(t *testing.T, f *ir.Func) {
	t.Helper()
	res, err := sim.Diff(f.Clone(), f, sim.DiffOptions{Seeds: 4, WarpShared: onlyFunc(f)})
	if err != nil || res.Mismatch != nil || res.Matches == 0 {
		t.Fatalf("%s with warp-shared uniform registers: %v %v (%d runs matched)", f.Name, err, res.Mismatch, res.Matches)
	}
}

// onlyFunc is a DiffOptions.WarpShared that runs f with its uniform
// registers warp-shared and any other function per lane.
func onlyFunc(f *ir.Func) func(*ir.Func) []bool {
	return func(g *ir.Func) []bool {
		if g != f {
			return nil
		}
		return uniformRegs(g)
	}
}

// funcBody prints f's instructions, one a line.
func funcBody(f *ir.Func) string {
	var b []byte
	for _, blk := range f.Layout {
		for i := range f.Instrs(blk) {
			b = append(b, f.FormatInstr(i)...)
			b = append(b, '\n')
		}
	}
	return string(b)
}
