package phases

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// licmKernel wraps a loop body: %r1 is the trip count (at most 15), %r2
// and %r4 loop-invariant inputs, %r5 the counter, %r6 the accumulator
// stored after the loop, %rd4 the thread's output slot. PRE goes before
// the loop, BODY and AFTER inside and after it.
const licmKernel = `
.visible .entry k(.param .u64 out, .param .u32 n, .param .u32 a)
{
	.reg .pred %p<4>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	ld.param.u32 %r2, [a];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd3, %r3, 8;
	add.s64 %rd4, %rd2, %rd3;
	and.b32 %r1, %r1, 15;
	xor.b32 %r4, %r2, %r3;
	mov.u32 %r5, 0;
	mov.u32 %r6, 0;
	mov.u32 %r9, 1;
	PRE
$L__loop:
	BODY
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p1, %r5, %r1;
	@%p1 bra $L__loop;
	st.global.u32 [%rd4], %r6;
	AFTER
	ret;
}
`

func licmSrc(pre, body, after string) string {
	r := strings.NewReplacer("PRE", pre, "BODY", body, "AFTER", after)
	return r.Replace(licmKernel)
}

// loopDepth returns the loop depth of the block holding the first
// instruction whose printed form starts with prefix (or, for a pattern
// "OP *, SOURCES", whose opcode and sources match whatever register it
// writes: OutOfSSA may give a value kept apart another free register),
// -1 when none does.
func loopDepth(f *ir.Func, prefix string) int {
	f.ComputeCFG()
	ls := core.FindLoops(f, core.Dominators(f))
	op, srcs, anyDst := strings.Cut(prefix, " *,")
	for _, b := range f.Layout {
		for i := range f.Instrs(b) {
			text := f.FormatInstr(i)
			if anyDst {
				o, rest, _ := strings.Cut(text, " ")
				_, s, _ := strings.Cut(rest, ",")
				if o == op && strings.HasPrefix(s, srcs) {
					return ls.Depth(b)
				}
				continue
			}
			if strings.HasPrefix(text, prefix) {
				return ls.Depth(b)
			}
		}
	}
	return -1
}

func TestHoistInvariants(t *testing.T) {
	cases := []struct {
		name             string
		pre, body, after string
		instr            []string // printed prefixes of the instructions checked
		depth            int      // expected loop depth of each after the phase
		hoisted          int64
		commoned         int64 // duplicates commonMoved removed from the preheader
	}{
		{name: "chain",
			body:  "add.u32 %r10, %r2, %r4;\n mul.lo.u32 %r11, %r10, 3;\n add.u32 %r6, %r6, %r11;",
			after: "st.global.u32 [%rd4+4], %r11;", // live after the loop: I dominates the exit
			instr: []string{"add.u32 %r10", "mul.lo.u32 %r11"}, depth: 0, hoisted: 2},
		// The hoisted ld.param lands beside the one before the loop, whose
		// value is dead by then: commoning would lengthen its live range.
		{name: "param load and special register",
			body:  "ld.param.u32 %r10, [a];\n mov.u32 %r11, %ntid.x;\n add.u32 %r12, %r10, %r11;\n add.u32 %r6, %r6, %r12;",
			instr: []string{"ld.param.u32 %r10", "mov.u32 %r11", "add.u32 %r12"}, depth: 0, hoisted: 3},
		// The hoisted mov lands in the preheader beside an equal one whose
		// value lives on past the loop: it is commoned with it (item 4 of
		// issue 13), and the loop reads the earlier value.
		{name: "hoisted duplicate commoned",
			pre:   "mov.u32 %r15, %ntid.x;",
			body:  "mov.u32 %r11, %ntid.x;\n add.u32 %r6, %r6, %r11;",
			after: "st.global.u32 [%rd4+4], %r15;",
			instr: []string{"mov.u32 %r11"}, depth: -1, hoisted: 1, commoned: 1},
		// A loop without stores, atomics, barriers or calls reads the same
		// bytes on every iteration: loads of global, constant and
		// read-only memory from the block that runs whenever the loop
		// ends move out.
		{name: "global load",
			body:  "ld.global.u32 %r10, [%rd2];\n ld.global.nc.u32 %r11, [%rd2+4];\n add.u32 %r6, %r6, %r10;\n add.u32 %r6, %r6, %r11;",
			instr: []string{"ld.global.u32 %r10", "ld.global.nc.u32 %r11"}, depth: 0, hoisted: 2},
		{name: "speculated from a conditional block, dead after the loop",
			body:  "setp.eq.u32 %p2, %r5, 2;\n @%p2 bra $L__skip;\n add.u32 %r10, %r2, 7;\n add.u32 %r6, %r6, %r10;\n$L__skip:",
			instr: []string{"add.u32 %r10"}, depth: 0, hoisted: 1},
		{name: "nested: out of both loops",
			body:  "mov.u32 %r8, 0;\n$L__inner:\n add.u32 %r10, %r2, 7;\n add.u32 %r6, %r6, %r10;\n add.u32 %r8, %r8, 1;\n setp.lt.u32 %p2, %r8, 3;\n @%p2 bra $L__inner;",
			instr: []string{"add.u32 %r10"}, depth: 0, hoisted: 2},
		{name: "preheader inserted",
			pre:   "setp.eq.u32 %p3, %r3, 0;\n @%p3 bra $L__loop;\n add.u32 %r6, %r6, 1;",
			body:  "add.u32 %r10, %r2, 7;\n add.u32 %r6, %r6, %r10;",
			instr: []string{"add.u32 %r10"}, depth: 0, hoisted: 1},
		// Negatives.
		{name: "variant operand",
			body:  "add.u32 %r10, %r5, %r2;\n add.u32 %r6, %r6, %r10;",
			instr: []string{"add.u32 %r10"}, depth: 1},
		{name: "guarded",
			body:  "setp.ne.u32 %p2, %r2, 0;\n @%p2 add.u32 %r10, %r2, 1;\n add.u32 %r6, %r6, %r10;",
			pre:   "mov.u32 %r10, 0;",
			instr: []string{"@%p2 add.u32 %r10"}, depth: 1, hoisted: 1}, // the setp moves
		{name: "global load, store in the loop",
			body:  "ld.global.u32 %r10, [%rd2];\n add.u32 %r6, %r6, %r10;\n st.global.u32 [%rd4], %r6;",
			instr: []string{"ld.global.u32 %r10"}, depth: 1},
		{name: "global load, barrier in the loop",
			body:  "ld.global.nc.u32 %r10, [%rd2];\n add.u32 %r6, %r6, %r10;\n bar.sync 0;",
			instr: []string{"ld.global.nc.u32 %r10"}, depth: 1},
		// Not run on every iteration that leaves: it could fault where
		// the program never read.
		{name: "global load in a conditional block",
			body:  "setp.eq.u32 %p2, %r5, 2;\n @%p2 bra $L__skip;\n ld.global.nc.u32 %r10, [%rd2];\n add.u32 %r6, %r6, %r10;\n$L__skip:",
			instr: []string{"ld.global.nc.u32 %r10"}, depth: 1},
		{name: "shared and generic loads",
			body:  "ld.u32 %r10, [%rd2];\n add.u32 %r6, %r6, %r10;",
			instr: []string{"ld.u32 %r10"}, depth: 1},
		{name: "convergent shfl and vote",
			body:  "shfl.sync.idx.b32 %r10, %r2, 0, 31, -1;\n vote.sync.ballot.b32 %r11, %p3, -1;\n add.u32 %r6, %r6, %r10;\n add.u32 %r6, %r6, %r11;",
			pre:   "setp.ne.u32 %p3, %r2, 0;",
			instr: []string{"shfl.sync", "vote.sync"}, depth: 1},
		// In SSA form the redefinition is a new value read by the header's
		// PHI from the back edge: it is invariant and moves (OutOfSSA keeps
		// it apart from the value the first iteration reads).
		{name: "loop-carried: live into the header",
			body:  "add.u32 %r6, %r6, %r9;\n add.u32 %r9, %r2, 1;",
			instr: []string{"add.u32 *, %r2, 1;"}, depth: 0, hoisted: 1},
		// In SSA form the two writes are two values: the invariant one moves.
		{name: "written twice in the loop",
			body:  "add.u32 %r10, %r2, 1;\n add.u32 %r6, %r6, %r10;\n mov.u32 %r10, %r5;\n add.u32 %r6, %r6, %r10;",
			instr: []string{"add.u32 *, %r2, 1;"}, depth: 0, hoisted: 1},
		{name: "live after the loop, not dominating the exit",
			body:  "setp.eq.u32 %p2, %r5, 2;\n @%p2 bra $L__skip;\n add.u32 %r9, %r2, 7;\n add.u32 %r6, %r6, %r9;\n$L__skip:",
			after: "st.global.u32 [%rd4+4], %r9;",
			// In SSA form the value read after the loop is a PHI of the
			// old and the new value: computing the new one early is safe.
			instr: []string{"add.u32 *, %r2, 7;"}, depth: 0, hoisted: 1},
		{name: "div and rem",
			body:  "div.u32 %r10, %r2, 3;\n rem.u32 %r11, %r2, 5;\n add.u32 %r6, %r6, %r10;\n add.u32 %r6, %r6, %r11;",
			instr: []string{"div.u32", "rem.u32"}, depth: 1},
		{name: "irreducible cycle inside the loop",
			body:  "setp.eq.u32 %p2, %r5, 3;\n @%p2 bra $L__b;\n$L__a:\n add.u32 %r10, %r2, 7;\n add.u32 %r6, %r6, %r10;\n$L__b:\n add.u32 %r6, %r6, 1;\n setp.lt.u32 %p3, %r6, 5;\n @%p3 bra $L__a;",
			instr: []string{"add.u32 %r10"}, depth: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := licmSrc(tc.pre, tc.body, tc.after)
			// What LICM may move, with no register budget in force
			// (licmLimit: under the retry it holds itself to the input's
			// maximum live).
			before, after, body, stats := runPass(t, src, "k", "OriHoistInvariantsLate", "PressureRetry=false")
			for _, in := range tc.instr {
				if d := loopDepth(after, in); d != tc.depth {
					t.Errorf("%s: loop depth %d after the phase, want %d:\n%s", in, d, tc.depth, body)
				}
			}
			if n := counter(stats, "instructions hoisted"); n != tc.hoisted {
				t.Errorf("counted %d hoisted, want %d:\n%s", n, tc.hoisted, body)
			}
			if n := counter(stats, "duplicates commoned"); n != tc.commoned {
				t.Errorf("counted %d commoned, want %d:\n%s", n, tc.commoned, body)
			}
			simtest.CheckEquivalent(t, before, after, 8)
		})
	}
}

// Nothing to hoist: the CFG stays as it was (no preheader is made).
func TestHoistLeavesCFGWithoutWork(t *testing.T) {
	src := licmSrc("setp.eq.u32 %p3, %r3, 0;\n @%p3 bra $L__loop;\n add.u32 %r6, %r6, 1;",
		"add.u32 %r6, %r6, %r5;", "")
	before, after, _, stats := runPass(t, src, "k", "OriHoistInvariantsLate", "PressureRetry=false")
	if len(after.Layout) != len(before.Layout) || counter(stats, "instructions hoisted") != 0 {
		t.Errorf("blocks %d -> %d, hoisted %d", len(before.Layout), len(after.Layout), counter(stats, "instructions hoisted"))
	}
}

// Generated kernels through the phase alone and through the whole
// pipeline; at least some of them must exercise the phase.
func TestHoistGenerated(t *testing.T) {
	alone, whole := checkGenerated(t, "OriHoistInvariantsLate", "instructions hoisted", 1000, func(int64) int { return 200 })
	if alone+whole == 0 {
		t.Errorf("no generated kernel had anything hoisted")
	}
}

func TestHoistBudgetAndPressure(t *testing.T) {
	// 80 invariant values, each added to the accumulator: hoisting them
	// all would keep 80 registers live across the loop.
	var b strings.Builder
	for k := range 80 {
		fmt.Fprintf(&b, "add.u32 %%v%d, %%r2, %d;\n add.u32 %%r6, %%r6, %%v%d;\n", k, k+1, k)
	}
	src := strings.Replace(licmSrc("", b.String(), ""), ".reg .b32 %r<20>;", ".reg .b32 %r<20>;\n\t.reg .b32 %v<80>;", 1)

	_, _, stats := runHoist(t, src, "HoistInvariantsBudget=3", "PressureRetry=false")
	if n := counter(stats, "instructions hoisted"); n != 3 {
		t.Errorf("budget 3: hoisted %d", n)
	}

	// With no register budget in force, the soft limit.
	before, after, stats := runHoist(t, src, "PressureRetry=false")
	n := counter(stats, "instructions hoisted")
	pb := core.RegisterPressure(core.ComputeLiveness(before, core.LiveOptions{})).Max[ir.FileR]
	after.ComputeCFG()
	pa := core.RegisterPressure(core.ComputeLiveness(after, core.LiveOptions{})).Max[ir.FileR]
	if n == 0 || n == 80 || pa > max(pb, licmSoftLimit[ir.FileR]) {
		t.Errorf("hoisted %d of 80; R pressure %d -> %d, cap %d", n, pb, pa, max(pb, licmSoftLimit[ir.FileR]))
	}
	// Under PressureRetry (the default), LICM does not raise the maximum
	// above the input's (the loop holds the maximum here: nothing fits).
	_, after0, stats0 := runHoist(t, src, "PressureRetry=true")
	after0.ComputeCFG()
	if pa0 := core.RegisterPressure(core.ComputeLiveness(after0, core.LiveOptions{})).Max[ir.FileR]; pa0 > pb {
		t.Errorf("default budget: hoisted %d, R pressure %d -> %d", counter(stats0, "instructions hoisted"), pb, pa0)
	}
	simtest.CheckEquivalent(t, before, after, 4)
}

// runHoist runs the phase alone on licm-style source with knob settings.
// The register retry is off unless a test names it: under it (the
// default), LICM holds itself to the input's maximum live (licmLimit), and
// these tests are about what it can hoist.
func runHoist(t *testing.T, src string, knobs ...string) (before, after *ir.Func, stats []PhaseStat) {
	t.Helper()
	before, after, _, stats = runPass(t, src, "", "OriHoistInvariantsLate", append([]string{"PressureRetry=false"}, knobs...)...)
	return before, after, stats
}
