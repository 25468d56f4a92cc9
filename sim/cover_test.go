package sim

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// coverKernel: a store on every thread, and one on thread 5000 only
// (which no launch has).
const coverKernel = `.version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.reg .pred %p<3>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	add.s32 %r2, %r1, 7;
	st.global.u32 [%rd3], %r2;
	setp.ne.u32 %p1, %r1, 5000;
	@%p1 bra $L_end;
	mul.lo.s32 %r3, %r1, 3;
	st.global.u32 [%rd3+4], %r3;
$L_end:
	ret;
}
`

func parseK(t *testing.T, src string) *ir.Func {
	t.Helper()
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Funcs {
		if f.HasBody && f.Kind == ir.KindEntry {
			return f
		}
	}
	t.Fatal("no kernel")
	return nil
}

func TestAlign(t *testing.T) {
	base := parseK(t, coverKernel)
	cases := []struct {
		name             string
		edit             func(string) string
		removed, changed int
	}{
		{"identical", func(s string) string { return s }, 0, 0},
		{"one instruction changed", func(s string) string { return strings.Replace(s, "add.s32 %r2, %r1, 7", "add.s32 %r2, %r1, 8", 1) }, 1, 1},
		{"one removed", func(s string) string { return strings.Replace(s, "\tmul.lo.s32 %r3, %r1, 3;\n", "", 1) }, 1, 0},
		{"one inserted", func(s string) string {
			return strings.Replace(s, "\tret;", "\tadd.s32 %r4, %r1, 1;\n\tret;", 1)
		}, 0, 1},
		{"label renamed", func(s string) string { return strings.ReplaceAll(s, "$L_end", "$L__BB0_9") }, 0, 0},
		{"register re-declared ($k)", func(s string) string {
			s = strings.Replace(s, ".reg .b32 %r<8>;", ".reg .b32 %r<8>;\n\t.reg .b32 %r3$1;", 1)
			return strings.ReplaceAll(s, "%r3,", "%r3$1,")
		}, 0, 0},
		{"branch target moved", func(s string) string {
			s = strings.Replace(s, "@%p1 bra $L_end;", "@%p1 bra $L_mid;", 1)
			return strings.Replace(s, "\tst.global.u32 [%rd3+4], %r3;", "$L_mid:\n\tst.global.u32 [%rd3+4], %r3;", 1)
		}, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := parseK(t, c.edit(coverKernel))
			fc := diffFuncs(base, g)
			if len(fc.removed) != c.removed || len(fc.changed) != c.changed {
				var b strings.Builder
				for _, i := range fc.removed {
					b.WriteString("- " + base.FormatInstr(i) + "\n")
				}
				for _, i := range fc.changed {
					b.WriteString("+ " + g.FormatInstr(i) + "\n")
				}
				t.Errorf("removed %d, changed %d; want %d, %d\n%s", len(fc.removed), len(fc.changed), c.removed, c.changed, b.String())
			}
		})
	}
}

func TestAlignLarge(t *testing.T) {
	// a long repetitive body (no unique anchors) with one change deep inside
	var b strings.Builder
	b.WriteString(".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n")
	for k := range 3000 {
		if k == 1700 {
			b.WriteString("xor.b32 %r1, %r1, %r2;\n")
			continue
		}
		b.WriteString("add.s32 %r1, %r1, %r2;\n")
	}
	b.WriteString("ret;\n}\n")
	a := parseK(t, strings.Replace(b.String(), "xor.b32", "add.s32", 1))
	g := parseK(t, b.String())
	fc := diffFuncs(a, g)
	if len(fc.removed) != 1 || len(fc.changed) != 1 {
		t.Errorf("removed %d, changed %d; want 1, 1", len(fc.removed), len(fc.changed))
	}
}

// TestCoverageStatus: a change on a path no input takes is "not
// exercised", never "matched"; a change that runs is "matched".
func TestCoverageStatus(t *testing.T) {
	base := parseK(t, coverKernel)
	cases := []struct {
		name string
		edit func(string) string
		want Status
		run  int
	}{
		{"unchanged", func(s string) string { return s }, StatusUnchanged, 0},
		{"change that runs", func(s string) string {
			return strings.Replace(s, "add.s32 %r2, %r1, 7", "add.s32 %r2, 7, %r1", 1)
		}, StatusMatched, 2},
		{"change that never runs", func(s string) string {
			return strings.Replace(s, "mul.lo.s32 %r3, %r1, 3", "mul.lo.s32 %r3, 3, %r1", 1)
		}, StatusNotExercised, 0},
		{"removed code that never runs", func(s string) string {
			return strings.Replace(s, "\tst.global.u32 [%rd3+4], %r3;\n", "", 1)
		}, StatusNotExercised, 0},
		{"a mismatch", func(s string) string {
			return strings.Replace(s, "add.s32 %r2, %r1, 7", "add.s32 %r2, %r1, 6", 1)
		}, StatusMismatch, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := parseK(t, c.edit(coverKernel))
			res, err := Diff(base, g, DiffOptions{Seeds: 4, ExtraSeeds: 4})
			if err != nil {
				t.Fatal(err)
			}
			run, _ := res.Executed()
			if res.Status != c.want || run != c.run {
				t.Errorf("status %v, %d executed; want %v, %d (%+v)", res.Status, run, c.want, c.run, res.Changes)
			}
		})
	}
}

// TestRefusedKernelCountsChanges: when the simulator cannot run a version,
// Diff still counts and lists the change (none of it executed), so totals
// count it as not executed; on versions it can run, the counts from the
// IR alone are those of the run.
func TestRefusedKernelCountsChanges(t *testing.T) {
	// a callee holds the instruction the simulator refuses
	const refused = `.version 7.8
.target sm_80
.address_size 64
.func g(.param .u64 p)
{
	.reg .b64 %rd<3>;
	.reg .b32 %r<3>;
	ld.param.u64 %rd1, [p];
	barrier.cluster.arrive;
	add.s32 %r1, %r2, 1;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .b64 %rd<2>;
	.reg .b32 %r<3>;
	ld.param.u64 %rd1, [out];
	add.s32 %r1, %r2, 3;
	{
	.param .b64 a;
	st.param.b64 [a], %rd1;
	call.uni g, (a);
	}
	ret;
}
`
	base := parseK(t, refused)
	g := parseK(t, strings.Replace(strings.Replace(refused, "%r2, 3", "%r2, 4", 1), "%r2, 1;", "%r2, 2;", 1))
	res, err := Diff(base, g, DiffOptions{Seeds: 2})
	var u *Unsupported
	if !errors.As(err, &u) || res.Status != StatusUnsupported {
		t.Fatalf("want an unsupported error, got %v (%v)", err, res.Status)
	}
	if res.Changed != 2 || res.Removed != 2 || len(res.Changes) != 4 || res.ChangedRun+res.RemovedRun != 0 {
		t.Fatalf("changed %d removed %d (%d listed, %d+%d run); want 2, 2, 4, none run", res.Changed, res.Removed, len(res.Changes), res.ChangedRun, res.RemovedRun)
	}
	if c := res.Changes[1]; c.Func != "g" || c.Removed || c.Executed || c.Text != "add.s32 %r1, %r2, 2;" {
		t.Errorf("second change %+v, want the callee's changed add", c)
	}
	// the IR-only count agrees with the run's on a kernel the simulator runs
	for _, edit := range []func(string) string{
		func(s string) string { return strings.Replace(s, "add.s32 %r2, %r1, 7", "add.s32 %r2, 7, %r1", 1) },
		func(s string) string { return strings.Replace(s, "\tst.global.u32 [%rd3+4], %r3;\n", "", 1) },
	} {
		a, b := parseK(t, coverKernel), parseK(t, edit(coverKernel))
		res, err := Diff(a, b, DiffOptions{Seeds: 2})
		if err != nil {
			t.Fatal(err)
		}
		var ir DiffResult
		ir.changesIR(a, b)
		if ir.Changed != res.Changed || ir.Removed != res.Removed || len(ir.Changes) != len(res.Changes) {
			t.Errorf("IR-only count %d/%d, run's %d/%d", ir.Changed, ir.Removed, res.Changed, res.Removed)
		}
		for k := range ir.Changes {
			if k < len(res.Changes) && (ir.Changes[k].Text != res.Changes[k].Text || ir.Changes[k].Removed != res.Changes[k].Removed) {
				t.Errorf("change %d: IR-only %+v, run's %+v", k, ir.Changes[k], res.Changes[k])
			}
		}
	}
}

// abortKernel stores a value and aborts when its parameter is odd (an
// assertion's failing side); otherwise it stores another and completes.
const abortKernel = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 x)
{
	.reg .b64 %rd<4>;
	.reg .b32 %r<6>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [x];
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra OK;
	add.s32 %r3, %r1, 5;
	st.global.u32 [%rd1], %r3;
	trap;
OK:
	st.global.u32 [%rd1+4], %r1;
	ret;
}
`

// With DiffOptions.AbortedAlike, a seed on which both versions abort at
// the same thread's trap with identical memory is compared up to the
// abort: the change on the abort path counts as executed (Aborted);
// without it (the default) that seed is a trap in both and counts
// nothing. With it, a change there that alters
// memory before the abort counts neither as executed nor as a mismatch,
// and a fault in both versions is no comparison at all.
func TestAbortedAlikeCountsCoverage(t *testing.T) {
	base := parseK(t, abortKernel)
	same := parseK(t, strings.Replace(abortKernel, "add.s32 %r3, %r1, 5", "add.s32 %r3, 5, %r1", 1))
	res, err := Diff(base, same, DiffOptions{Seeds: 16})
	if err != nil {
		t.Fatal(err)
	}
	if res.Aborted != 0 || res.ChangedRun != 0 || res.NotExercised == 0 {
		t.Fatalf("same abort, option off: %d aborted alike, %d executed, %d trapped in both; want 0, 0, some", res.Aborted, res.ChangedRun, res.NotExercised)
	}
	res, err = Diff(base, same, DiffOptions{Seeds: 16, AbortedAlike: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Aborted == 0 || res.ChangedRun != 1 || res.RemovedRun != 1 || res.Status != StatusMatched {
		t.Fatalf("same abort: %d aborted alike, %d+%d of the change executed, %v; want some, 1+1, matched", res.Aborted, res.ChangedRun, res.RemovedRun, res.Status)
	}
	other := parseK(t, strings.Replace(abortKernel, "add.s32 %r3, %r1, 5", "add.s32 %r3, %r1, 6", 1))
	res, err = Diff(base, other, DiffOptions{Seeds: 16, AbortedAlike: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Aborted != 0 || res.ChangedRun != 0 || res.Mismatch != nil || res.NotExercised == 0 {
		t.Fatalf("abort after other stores: %d aborted alike, %d executed, mismatch %v; want none, none, none", res.Aborted, res.ChangedRun, res.Mismatch)
	}
	// a fault instead of the trap (a store out of bounds) in both
	fault := func(s string) string {
		return strings.Replace(s, "\ttrap;\n", "\tst.global.u32 [0], %r3;\n\tret;\n", 1)
	}
	res, err = Diff(parseK(t, fault(abortKernel)), parseK(t, fault(strings.Replace(abortKernel, "add.s32 %r3, %r1, 5", "add.s32 %r3, 5, %r1", 1))), DiffOptions{Seeds: 16, AbortedAlike: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Aborted != 0 || res.ChangedRun != 0 || res.NotExercised == 0 {
		t.Fatalf("fault in both: %d aborted alike, %d executed, %d trapped in both; want 0, 0, some", res.Aborted, res.ChangedRun, res.NotExercised)
	}
}
