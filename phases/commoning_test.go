package phases

import (
	"context"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

func TestLateOriCommoning(t *testing.T) {
	dominating := `
	mul.lo.s32 %r3, %r2, %r1;
	mul.lo.s32 %r4, %r2, %r1;
	setp.lt.u32 %p1, %r2, 3;
	mov.u32 %r30, %r4;
	@%p1 bra $L__join;
	mov.u32 %r7, %r2;
	mul.lo.s32 %r6, %r7, %r1;
	add.s32 %r30, %r30, %r6;
$L__join:
	mul.lo.s32 %r5, %r2, %r1;
	add.s32 %r30, %r30, %r5;`
	cases := []struct {
		name    string
		knobs   []string
		want    []string
		notWant []string
		n       int64
	}{
		{name: "across blocks, through a copy, never inside one block",
			want:    []string{"mov.b32 %r5, %r4;", "mov.b32 %r6, %r4;", "mul.lo.s32 %r4, %r2, %r1;"},
			notWant: []string{"mov.b32 %r4, %r3"}, n: 2},
		{name: "DisableMoveCommoning", knobs: []string{"DisableMoveCommoning=true"},
			want: []string{"mov.b32 %r5, %r4;", "mul.lo.s32 %r6, %r7, %r1;"}, n: 1},
		{name: "ForceLateCommoning=false", knobs: []string{"ForceLateCommoning=false"},
			notWant: []string{"mov.b32 %r5", "mov.b32 %r6"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, stats := runPass(t, genOptKernel(dominating), "k", "LateOriCommoning", tc.knobs...)
			lines := map[string]bool{}
			for _, l := range strings.Split(body, "\n") {
				lines[strings.TrimSpace(l)] = true
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

// LateOriCommoning on generated kernels, alone and in the whole
// pipeline, behind the simulator's check (the class filter's own test is
// TestLateOriCommoningClassFilter).
func TestLateOriCommoningGenerated(t *testing.T) {
	checkGenerated(t, "LateOriCommoning", "expressions commoned", 3000, func(seed int64) int { return 200 + int(seed%4)*50 })
}

// The class filter (the seeds' per-dominator-path Bloom filter) rejects
// lookups, and only impossible ones: on a kernel where the dominating
// block holds only multiplications, the additions below it are rejected
// and the multiplication is commoned; on generated kernels through the
// whole pipeline (and with predication alone before it) it rejects many
// lookups, none of which the table would have answered with an entry of
// the same key, and the output is the same byte for byte with the filter
// and without it (every lookup probing the table). Fails if the filter is removed or always passes (no rejection)
// or rejects a possible candidate (a wrong rejection, different output).
func TestLateOriCommoningClassFilter(t *testing.T) {
	target, _ := ParseTarget("sm_80")
	run := func(f *ir.Func, named []string, ft *classFilterTest) ([]PhaseStat, string) {
		t.Helper()
		c, err := NewConfig(MaxOpt, target, nil, nil, named)
		if err != nil {
			t.Fatal(err)
		}
		c.Verify = true
		if err := c.Override("LateOriCommoning", func(p *Pass) bool { return lateCommoningWith(p, ft, nil) }); err != nil {
			t.Fatal(err)
		}
		stats, err := Run(context.Background(), c, nil, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, blk := range f.Layout {
			for i := range f.Instrs(blk) {
				b.WriteString(f.FormatInstr(i))
				b.WriteByte('\n')
			}
		}
		return stats, b.String()
	}

	src := dceHeader + genOptKernel(`
	mul.lo.s32 %r3, %r2, %r1;
	setp.lt.u32 %p1, %r2, 3;
	mov.u32 %r30, %r3;
	@%p1 bra $L__join;
	add.s32 %r6, %r2, %r1;
	add.s32 %r30, %r30, %r6;
$L__join:
	mul.lo.s32 %r5, %r2, %r1;
	add.s32 %r30, %r30, %r5;`)
	m, err := ptx.Parse("filter.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	before := m.Funcs[0].Clone()
	ft := &classFilterTest{}
	stats, body := run(m.Funcs[0], []string{"LateOriCommoning"}, ft)
	if ft.rejected == 0 || ft.wrong != 0 {
		t.Errorf("handmade kernel: %d rejections (want some: the adds' class is not on the path), %d wrong", ft.rejected, ft.wrong)
	}
	if n := counter(stats, "expressions commoned"); n != 1 || !strings.Contains(body, "mov.b32 %r5, %r3;") {
		t.Errorf("handmade kernel: %d commoned, want the multiplication:\n%s", n, body)
	}
	simtest.CheckEquivalent(t, before, m.Funcs[0], 4)

	n := int64(40)
	if testing.Short() {
		n = 10
	}
	on, off := classFilterTest{}, classFilterTest{off: true}
	commoned := int64(0)
	for seed := range n {
		kinds := gen.Kind(0)
		if seed%2 == 0 {
			kinds = gen.JoinRecompute | gen.Dominated
		}
		f := gen.Func(gen.Kernel(gen.Config{Seed: 3100 + seed, Size: 300, Inject: kinds}))
		// the whole pipeline, and predication and commoning alone (where
		// a commoning missed is not made up by a later phase)
		for _, named := range [][]string{nil, {"OriDoPredication", "LateOriCommoning"}} {
			withF, withoutF := f.Clone(), f.Clone()
			stats, a := run(withF, named, &on)
			_, b := run(withoutF, named, &off)
			commoned += phaseCounter(stats, "LateOriCommoning", "expressions commoned")
			if a != b {
				t.Fatalf("seed %d, phases %v: the output with the class filter differs from the output without it", seed, named)
			}
		}
	}
	t.Logf("%d kernels: %d lookups rejected by the class filter (%d without it: counted, then probed), %d wrongly; %d expressions commoned",
		n, on.rejected, off.rejected, on.wrong+off.wrong, commoned)
	if on.rejected == 0 {
		t.Errorf("the class filter rejected no lookup on %d generated kernels", n)
	}
	if on.wrong != 0 || off.wrong != 0 {
		t.Errorf("the class filter rejected %d lookups whose key the table held", on.wrong+off.wrong)
	}
	if commoned == 0 {
		t.Errorf("LateOriCommoning commoned nothing: the comparison saw no commoning")
	}
}
