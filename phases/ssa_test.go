package phases

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
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
