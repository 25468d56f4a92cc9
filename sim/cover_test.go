package sim

import (
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
