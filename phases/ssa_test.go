package phases

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// ssaLoopKernel: a loop whose counter and sum are written before the
// loop and again in it (PHIs at the header), and whose latch ends in
// "@p bra HEAD; bra.uni EXIT" with the header right after: BraInvert's
// shape.
const ssaLoopKernel = `
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .b32 %r<10>;
	.reg .pred %p<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r2, [n];
	and.b32 %r2, %r2, 15;
	add.s32 %r2, %r2, 2;
	mov.u32 %r1, %tid.x;
	mov.u32 %r5, 1;
	mov.u32 %r6, %r1;
	bra.uni $L_head;
$L_latch:
	setp.ne.s32 %p1, %r5, %r2;
	add.s32 %r5, %r5, 1;
	@%p1 bra $L_head;
	bra.uni $L_exit;
$L_head:
	mad.lo.s32 %r6, %r6, 3, %r5;
	bra.uni $L_latch;
$L_exit:
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r6;
	ret;
}
`

// A branch inverted in SSA form keeps the PHIs of the block it now falls
// into: the cleanup once computed the CFG with the emptied jump block
// still in the layout, dropped the latch's PHI pairs and turned the loop
// counter into a constant (a loop that never ended; found by the
// coverage-checked corpus run on jdtatz/Montey).
func TestBraInvertKeepsLoopPhis(t *testing.T) {
	before, after, body, stats := runPass(t, ssaLoopKernel, "", "GeneralOptimizeMid")
	if counter(stats, "PHIs placed") == 0 {
		t.Fatalf("IntoSSA placed no PHI:\n%s", body)
	}
	if counter(stats, "rule BraInvert") == 0 {
		t.Fatalf("BraInvert did not fire:\n%s", body)
	}
	simtest.CheckEquivalent(t, before, after, 6)
}

// IntoSSA, CSSA and OutOfSSA on a loop: PHIs are placed, CSSA copies are
// inserted, OutOfSSA coalesces them all back (the loop's registers keep
// their names), and no PHI or CSSA copy is left in the output.
func TestCSSAAndOutOfSSARoundTrip(t *testing.T) {
	before, after, body, stats := runPass(t, ssaLoopKernel, "", "IntoSSA")
	if n := counter(stats, "PHIs placed"); n < 2 {
		t.Errorf("IntoSSA placed %d PHIs, want the counter's and the sum's", n)
	}
	ins := phaseCounter(stats, "CSSA", "copies inserted")
	if ins == 0 {
		t.Fatalf("CSSA inserted no copy:\n%s", body)
	}
	if n := phaseCounter(stats, "OutOfSSA", "copies coalesced"); n != ins {
		t.Errorf("OutOfSSA coalesced %d of %d CSSA copies:\n%s", n, ins, body)
	}
	if strings.Contains(body, "phi") || strings.Contains(body, "%pcp") {
		t.Errorf("a PHI or a CSSA copy left:\n%s", body)
	}
	if got, want := after.NumRegs(), before.NumRegs(); got > want {
		t.Errorf("%d registers after the round trip, %d before", got, want)
	}
	simtest.CheckEquivalent(t, before, after, 6)
}

// The swap problem: two registers exchanged on every iteration. Their
// PHIs read each other, so OutOfSSA's copies must not overwrite a value
// the other copy still reads — with CSSA's copies (do-cssa=true) and with
// core.DestroySSA's parallel copies (do-cssa=false).
func TestOutOfSSASwap(t *testing.T) {
	const swap = `
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .b32 %r<12>;
	.reg .pred %p<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r2, [n];
	and.b32 %r2, %r2, 7;
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, %r1;
	add.s32 %r4, %r1, 100;
	mov.u32 %r5, 0;
$L_head:
	mov.u32 %r7, %r3;
	mov.u32 %r3, %r4;
	mov.u32 %r4, %r7;
	add.s32 %r5, %r5, 1;
	setp.lt.u32 %p1, %r5, %r2;
	@%p1 bra $L_head;
	mul.wide.u32 %rd2, %r1, 8;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r3, %r4};
	ret;
}
`
	for _, knob := range []string{"do-cssa=true", "do-cssa=false"} {
		t.Run(knob, func(t *testing.T) {
			// GeneralOptimizeMid propagates the copies, so the PHIs read
			// each other directly.
			before, after, body, stats := runPass(t, swap, "", "GeneralOptimizeMid", knob)
			if counter(stats, "PHIs placed") == 0 {
				t.Fatalf("no PHI placed:\n%s", body)
			}
			if strings.Contains(body, "phi") {
				t.Fatalf("a PHI left:\n%s", body)
			}
			simtest.CheckEquivalent(t, before, after, 6)
		})
	}
}

// The verifier of SSA form catches a PHI whose incoming pairs do not
// match the predecessors, a second definition of a value, and a PHI
// outside SSA form.
func TestVerifyFormCatches(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(f *ir.Func, st *ssaState)
		want   string
	}{
		{"phi arity", func(f *ir.Func, st *ssaState) {
			i := firstPhi(f)
			ops := f.Ops(i)
			f.SetOps(i, ops[:3]) // one pair dropped
		}, "incoming values"},
		{"second definition", func(f *ir.Func, st *ssaState) {
			i := firstPhi(f)
			d := f.Ops(i)[0]
			b := f.Block[i]
			// a second write of the PHI's value in its block
			for j := f.BlockFirst[b]; j != ir.NoInstr; j = f.Next[j] {
				if f.Op[j] != ir.OpPhi {
					ops := f.Ops(j)
					if len(ops) > 0 && ops[0].IsReg() && f.RegType[ops[0].Reg()] == f.RegType[d.Reg()] {
						ops[0] = ops[0].WithIndex(uint32(d.Reg()))
						return
					}
				}
			}
			t.Fatal("no instruction to redefine the PHI's value")
		}, "two definitions"},
		{"phi outside SSA", nil, "PHI"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, st := ssaFunc(t)
			if tc.break_ == nil {
				st = nil // the function holds PHIs, but SSA form is not declared
			} else {
				if err := verifyForm(g, st); err != nil {
					t.Fatalf("intact SSA form rejected: %v", err)
				}
				tc.break_(g, st)
			}
			err := verifyForm(g, st)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// ssaFunc parses ssaLoopKernel and runs intoSSA on it directly, returning
// the function in SSA form and its SSA record.
func ssaFunc(t *testing.T) (*ir.Func, *ssaState) {
	t.Helper()
	m, err := ptx.Parse("ssa.ptx", []byte(dceHeader+ssaLoopKernel))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	p := &Pass{F: f, A: NewAnalyses(f), Scratch: &Scratch{}, stat: &PhaseStat{}}
	if !intoSSA(p) || p.ssa == nil {
		t.Fatal("intoSSA changed nothing")
	}
	f.ComputeCFG()
	if firstPhi(f) == ir.NoInstr {
		t.Fatal("intoSSA placed no PHI")
	}
	return f, p.ssa
}

// firstPhi returns the first PHI of f in layout order (NoInstr: none).
func firstPhi(f *ir.Func) ir.InstrID {
	for _, b := range f.Layout {
		if i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi {
			return i
		}
	}
	return ir.NoInstr
}

// A value kept apart from its register takes a register of the function
// that is free over its live range instead of a new one: copy
// propagation makes the first %r3 live across the second, and the
// declared but unused %r0 (or %r4, whose first value the propagated copy
// was) is free there.
func TestOutOfSSAReusesFreeRegister(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r2, %tid.x;
	add.u32 %r3, %r2, 1;
	mov.u32 %r4, %r3;
	xor.b32 %r3, %r2, 3;
	add.u32 %r4, %r4, %r3;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}
`
	before, after, body, stats := runPass(t, src, "", "GeneralOptimize")
	if n := phaseCounter(stats, "OutOfSSA", "values kept apart in a free register"); n != 1 {
		t.Fatalf("%d values moved to a free register, want 1:\n%s", n, body)
	}
	if n := phaseCounter(stats, "OutOfSSA", "values kept apart from their register"); n != 0 {
		t.Errorf("%d values got a new register:\n%s", n, body)
	}
	if got, want := after.NumRegs(), before.NumRegs(); got > want {
		t.Errorf("%d registers after, %d before:\n%s", got, want, body)
	}
	if strings.Count(body, "mov") != 1 { // mov.u32 %r2, %tid.x
		t.Errorf("a copy left:\n%s", body)
	}
	simtest.CheckEquivalent(t, before, after, 4)
}

// The SIMT rule fires on real code: in the corpus, some PHI web at a
// divergent join would share its register with a value that other lanes
// carry into the join; it is kept apart (in a register the function
// already has, where one is free), and the function still computes what
// its input does.
func TestCSSASIMTRuleOnCorpus(t *testing.T) {
	skipUnderRace(t)
	target, _ := ParseTarget("sm_80")
	// Without the register retry, whose guarded rerun of a function
	// (radis applyLineshapes) takes another path through OutOfSSA.
	noRetry, _ := ParseKnob("PressureRetry=false")
	c, err := NewConfig(MaxOpt, target, []KnobSetting{noRetry}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	for _, path := range testenv.CorpusFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(path, src)
		if err != nil || ptx.Check(path, src, m) != nil {
			continue
		}
		for _, f := range m.Funcs {
			if !f.HasBody || f.Kind != ir.KindEntry {
				continue
			}
			before := f.Clone()
			stats, err := Run(context.Background(), c, nil, f, nil)
			if err != nil {
				t.Fatalf("%s:%s: %v", filepath.Base(path), f.Name, err)
			}
			if phaseCounter(stats, "OutOfSSA", "PHI webs kept apart at divergent joins") == 0 {
				continue
			}
			res := simtest.CheckEquivalent(t, before, f, 4)
			t.Logf("%s:%s: the SIMT rule kept a web apart; %d seeds matched", filepath.Base(path), f.Name, res.Matches)
			return
		}
	}
	t.Fatal("the SIMT rule kept no web apart anywhere in the corpus")
}

// TestSSAGenerated is the SSA mid-end's semantic gate on generated
// kernels: the whole -O3 pipeline with the verifier on (SSA form checked
// after every phase from IntoSSA to OutOfSSA) on 2,000 small generated
// kernels (200 with -short), each compared with its input in the
// simulator with the change executed. For long runs (in shards):
// PTXOPT_SSA_GEN=N runs N kernels instead, PTXOPT_SSA_GEN_FROM=K starts at
// the K-th kernel, PTXOPT_SSA_GEN_SECONDS=S stops after S seconds and
// logs how many it checked.
func TestSSAGenerated(t *testing.T) {
	skipUnderRace(t)
	n := int64(2000)
	if testing.Short() {
		n = 200
	}
	n = envCount(t, "PTXOPT_SSA_GEN", n)
	from := envCount(t, "PTXOPT_SSA_GEN_FROM", 0)
	deadline := envDeadline(t, "PTXOPT_SSA_GEN_SECONDS")
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Verify = true
	sc := NewScratch()
	var phis, copies, left, changed, ran, total int64
	checked := int64(0)
	for seed := from; seed < from+n; seed++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			t.Logf("time budget spent")
			break
		}
		checked++
		size := 40 + int(seed%7)*20
		f := gen.Func(gen.Kernel(gen.Config{Seed: 500000 + seed, Size: size, MaxDepth: 2 + int(seed%3)}))
		after := f.Clone()
		stats, err := Run(context.Background(), c, sc, after, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		phis += counter(stats, "PHIs placed")
		copies += phaseCounter(stats, "CSSA", "copies inserted")
		left += phaseCounter(stats, "OutOfSSA", "CSSA copies left")
		res, err := sim.Diff(f, after, sim.DiffOptions{Seeds: 2, ExtraSeeds: simtest.ExtraSeeds})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if res.Mismatch != nil {
			t.Fatalf("seed %d (size %d): the pipeline changes what the kernel computes: %v", seed, size, res.Mismatch)
		}
		if msg := simtest.Verdict(res); msg != "" {
			t.Fatalf("seed %d (size %d): the change was not checked: %s", seed, size, msg)
		}
		r, tot := res.Executed()
		if tot > 0 {
			changed++
		}
		ran += int64(r)
		total += int64(tot)
	}
	t.Logf("%d kernels from %d (%d changed): %d PHIs placed, %d CSSA copies inserted, %d left; %d of %d changed instructions executed", checked, from, changed, phis, copies, left, ran, total)
	if phis == 0 || copies == 0 {
		t.Fatalf("IntoSSA placed %d PHIs and CSSA inserted %d copies on %d kernels", phis, copies, n)
	}
}

// ossaWorkKernel repeats m times TestOutOfSSAReusesFreeRegister's
// pattern (once copies are propagated, a version of %r3 is live where
// the next one is defined, and one of them moves to the free %r0), with
// live .f32 values live across all of them.
func ossaWorkKernel(m, live int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `
.visible .entry k(.param .u64 out, .param .f32 x)
{
	.reg .b32 %%r<5>;
	.reg .b64 %%rd<5>;
	.reg .f32 %%f<%d>;
	ld.param.u64 %%rd1, [out];
	ld.param.f32 %%f0, [x];
	mov.u32 %%r2, %%tid.x;
	mul.wide.u32 %%rd2, %%r2, 8;
	add.s64 %%rd3, %%rd1, %%rd2;
	mov.u32 %%r1, 0;
`, live+2)
	for k := 1; k <= live; k++ {
		fmt.Fprintf(&b, "\tmul.f32 %%f%d, %%f%d, %%f0;\n", k, k-1)
	}
	for k := range m {
		fmt.Fprintf(&b, "\tadd.u32 %%r3, %%r2, %d;\n\tmov.u32 %%r4, %%r3;\n\txor.b32 %%r3, %%r2, %d;\n\tadd.u32 %%r4, %%r4, %%r3;\n\tadd.u32 %%r1, %%r1, %%r4;\n", k+1, k+1000)
	}
	fmt.Fprintf(&b, "\tmov.f32 %%f%d, %%f0;\n", live+1)
	for k := 1; k <= live; k++ {
		fmt.Fprintf(&b, "\tadd.f32 %%f%d, %%f%d, %%f%d;\n", live+1, live+1, k)
	}
	fmt.Fprintf(&b, "\tst.global.u32 [%%rd3], %%r1;\n\tst.global.f32 [%%rd3+4], %%f%d;\n\tret;\n}\n", live+1)
	return b.String()
}

// OutOfSSA's interference work per value kept apart does not grow with
// the number of values live around it: the conflict walk meets only the
// live values of the definition's own register, and reuseFree keeps no
// pair with a register of another type. (Both once grew with the live
// set: OutOfSSA's time, on the generated 1M kernel with the budgets
// lifted, grew with the values reassociation and hoisting kept apart.)
func TestOutOfSSAWorkIndependentOfLiveSet(t *testing.T) {
	const m = 24
	var visits, pairs [2]int64
	for k, live := range []int{4, 256} {
		h := &testHooks{}
		before, after, body, stats := runPassHooks(t, h, ossaWorkKernel(m, live), "", "GeneralOptimize")
		if n := phaseCounter(stats, "OutOfSSA", "values kept apart in a free register"); n < m {
			t.Fatalf("live %d: %d values moved to a free register, want at least %d:\n%s", live, n, m, body)
		}
		visits[k], pairs[k] = h.ossaConflictVisits.Load(), h.ossaPairs.Load()
		if visits[k] == 0 || pairs[k] == 0 {
			t.Fatalf("live %d: conflict visits %d, pairs kept %d: OutOfSSA found no interference", live, visits[k], pairs[k])
		}
		if k == 0 {
			simtest.CheckEquivalent(t, before, after, 4)
		}
	}
	t.Logf("conflict visits %d -> %d, pairs kept %d -> %d", visits[0], visits[1], pairs[0], pairs[1])
	if visits[1] != visits[0] || pairs[1] != pairs[0] {
		t.Errorf("work grew with the live set: conflict visits %d -> %d, pairs kept %d -> %d", visits[0], visits[1], pairs[0], pairs[1])
	}
}
