package phases

import (
	"os"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim/simtest"
)

// The copy-propagation knobs, on OriCopyProp named alone: each changes
// exactly the rewrite it names, and the result computes what the input
// does.
func TestCopyPropKnobs(t *testing.T) {
	compl, err := os.ReadFile("testdata/golden/OriCopyProp/complementary.ptx")
	if err != nil {
		t.Fatal(err)
	}
	const kernel = `
.visible .entry k(.param .u64 out, .param .u32 a)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	mov.u32 %r2, %tid.x;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd2, %rd3;
	mov.u64 %rd5, %rd4;
	mov.u32 %r3, 5;
	add.s32 %r4, %r2, %r3;
	mov.u32 %r5, %r1;
	add.s32 %r4, %r4, %r5;
	st.global.u32 [%rd5], %r4;
	ret;
}
`
	cases := []struct {
		name, src string
		knobs     []string
		want      []string
		notWant   []string
		counter   string
		n         int64
	}{
		{name: "complementary copies make a select", src: string(compl),
			want: []string{"@!%p1 add.s32 %r4, %r2, 7;", "@!%p1 xor.b32 %r4, %r4, %r2;"}, counter: "CopyProp: selects propagated", n: 2},
		{name: "LateCopyPropComplPred=false", src: string(compl), knobs: []string{"LateCopyPropComplPred=false"},
			// without the select only the latest guarded copy is known
			want: []string{"@!%p1 add.s32 %r4, %r2, %r3;", "@%p1 add.s32 %r4, %r4, %r6;", "@!%p1 xor.b32 %r4, %r4, %r2;"}, counter: "CopyProp: selects propagated", n: 0},
		{name: "defaults", src: kernel,
			want: []string{"st.global.u32 [%rd4], %r4;", "add.s32 %r4, %r2, 5;", "add.s32 %r4, %r4, %r1;"}},
		{name: "CopyPropAddr=false", src: kernel, knobs: []string{"CopyPropAddr=false"},
			want: []string{"st.global.u32 [%rd5], %r4;", "add.s32 %r4, %r2, 5;"}},
		{name: "CopyPropNoWriteNonRR", src: kernel, knobs: []string{"CopyPropNoWriteNonRR=true"},
			want: []string{"add.s32 %r4, %r2, %r3;", "add.s32 %r4, %r4, %r1;", "st.global.u32 [%rd4], %r4;"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, stats := runPass(t, tc.src, "k", "OriCopyProp", tc.knobs...)
			lines := map[string]bool{}
			for _, l := range strings.Split(body, "\n") {
				lines[l] = true
			}
			for _, w := range tc.want {
				if !lines[w] {
					t.Errorf("want %q in:\n%s", w, body)
				}
			}
			if tc.counter != "" {
				if got := counter(stats, tc.counter); got != tc.n {
					t.Errorf("%s = %d, want %d:\n%s", tc.counter, got, tc.n, body)
				}
			}
			simtest.CheckEquivalent(t, before, after, 4)
		})
	}
}

// Naming OriCopyProp runs the six GeneralOptimize bundles with their
// copy propagation only (no folding, no dead code); disabling it runs
// them without it; naming GeneralOptimize as well runs them whole.
func TestOriCopyPropNamed(t *testing.T) {
	target, _ := ParseTarget("sm_80")
	c, err := NewConfig(MaxOpt, target, nil, nil, []string{"oricopyprop"})
	if err != nil {
		t.Fatal(err)
	}
	planned := strings.Join(c.Planned(), " ")
	for _, slot := range []string{"GeneralOptimizeEarly", "GeneralOptimize", "GeneralOptimizeMid", "GeneralOptimizeMid2", "GeneralOptimizeLate", "GeneralOptimizeLate2"} {
		i, _ := Lookup(slot)
		if !strings.Contains(" "+planned+" ", " "+slot+" ") {
			t.Errorf("%s not planned: %s", slot, planned)
		}
		var buf [numSubPasses]subPass
		got := c.subsFor(i, bundleOf(slot).subs, buf[:0])
		want := []subPass{spCopyProp}
		if slot == "GeneralOptimizeLate" {
			want = []subPass{spMovWindow}
		}
		if len(got) != len(want) || got[0] != want[0] {
			t.Errorf("%s runs %v, want %v", slot, got, want)
		}
	}
	if strings.Contains(planned, "ConvertMemoryToRegister") || strings.Contains(planned, "GvnCse") {
		t.Errorf("OriCopyProp planned more than the bundles: %s", planned)
	}
	both, err := NewConfig(MaxOpt, target, nil, nil, []string{"OriCopyProp", "GeneralOptimizeMid"})
	if err != nil {
		t.Fatal(err)
	}
	i, _ := Lookup("GeneralOptimizeMid")
	var buf [numSubPasses]subPass
	if got := both.subsFor(i, bundleOf("GeneralOptimizeMid").subs, buf[:0]); len(got) != 4 {
		t.Errorf("GeneralOptimizeMid named whole runs %v", got)
	}
	off, err := NewConfig(MaxOpt, target, nil, []string{"OriCopyProp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	i, _ = Lookup("GeneralOptimize")
	if got := off.subsFor(i, bundleOf("GeneralOptimize").subs, buf[:0]); len(got) != 3 || got[0] == spCopyProp {
		t.Errorf("with OriCopyProp disabled GeneralOptimize runs %v", got)
	}
	// And on code: a copy and a foldable add, named alone: the copy is
	// propagated, the add is not folded.
	src := `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %r1;
	add.s32 %r3, %r2, 0;
	st.global.u32 [%rd2], %r3;
	ret;
}
`
	before, after, body, _ := runPass(t, src, "k", "OriCopyProp")
	if !strings.Contains(body, "add.s32 %r3, %r1, 0;") {
		t.Errorf("OriCopyProp alone: want the copy propagated and the add kept:\n%s", body)
	}
	simtest.CheckEquivalent(t, before, after, 2)
}
