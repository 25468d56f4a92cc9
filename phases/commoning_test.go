package phases

import (
	"strings"
	"testing"

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

// The class filter rejects only what cannot match: a lookup it lets
// through finds the same entries as without it (same results on the
// generated kernels), and the phase fires on them alone.
func TestLateOriCommoningGenerated(t *testing.T) {
	checkGenerated(t, "LateOriCommoning", "expressions commoned", 3000, func(seed int64) int { return 200 + int(seed%4)*50 })
}
