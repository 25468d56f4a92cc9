package phases

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// inlineModule is clang -O0's shape of a kernel calling device functions:
// arguments and result through .param variables of call sequences, a
// .local frame in the callee. sq is called twice, twice (a leaf); quad
// calls sq (inlined in the second round); big is larger than the knob
// below allows but called once, and declared ahead of its definition (a
// prototype that must go with it: ptxas rejects a prototype without a
// definition); vis is .visible and stays.
const inlineModule = `
.func (.param .b32 func_retval0) big(.param .b32 big_param_0, .param .b32 big_param_1);
.func (.param .b32 func_retval0) sq(.param .b32 sq_param_0)
{
	.local .align 4 .b8 __local_depot0[4];
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .f32 %f<4>;
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
	ld.param.f32 %f1, [sq_param_0];
	st.f32 [%SP+0], %f1;
	ld.f32 %f2, [%SP+0];
	mul.rn.f32 %f3, %f2, %f2;
	st.param.f32 [func_retval0+0], %f3;
	ret;
}
.func (.param .b32 func_retval0) quad(.param .b32 quad_param_0)
{
	.reg .f32 %f<4>;
	ld.param.f32 %f1, [quad_param_0];
	{
	.param .b32 param0;
	st.param.f32 [param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0), sq, (param0);
	ld.param.f32 %f2, [retval0+0];
	}
	mul.rn.f32 %f3, %f2, %f2;
	st.param.f32 [func_retval0+0], %f3;
	ret;
}
.func (.param .b32 func_retval0) big(.param .b32 big_param_0, .param .b32 big_param_1)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	ld.param.u32 %r1, [big_param_0];
	ld.param.u32 %r2, [big_param_1];
	setp.gt.u32 %p1, %r1, %r2;
	@%p1 bra $Lbig;
	add.s32 %r3, %r1, 7;
	st.param.b32 [func_retval0+0], %r3;
	ret;
$Lbig:
	sub.s32 %r4, %r1, %r2;
	mul.lo.s32 %r5, %r4, 3;
	st.param.b32 [func_retval0+0], %r5;
	ret;
}
.visible .func (.param .b32 func_retval0) vis(.param .b32 vis_param_0)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [vis_param_0];
	add.s32 %r2, %r1, 1;
	st.param.b32 [func_retval0+0], %r2;
	ret;
}
.visible .entry k(.param .u64 out, .param .f32 a)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.f32 %f1, [a];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd4, %rd2, %rd3;
	{
	.param .b32 param0;
	st.param.f32 [param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0), sq, (param0);
	ld.param.f32 %f2, [retval0+0];
	}
	{
	.param .b32 param0;
	st.param.f32 [param0+0], %f2;
	.param .b32 retval0;
	call.uni (retval0), quad, (param0);
	ld.param.f32 %f3, [retval0+0];
	}
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 param1;
	st.param.b32 [param1+0], 5;
	.param .b32 retval0;
	call.uni (retval0), big, (param0, param1);
	ld.param.b32 %r2, [retval0+0];
	}
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r2;
	.param .b32 retval0;
	call.uni (retval0), vis, (param0);
	ld.param.b32 %r3, [retval0+0];
	}
	st.global.f32 [%rd4], %f3;
	st.global.u32 [%rd4+4], %r3;
	ret;
}
`

func parseInlineModule(t *testing.T) *ir.Module {
	t.Helper()
	src := []byte(dceHeader + inlineModule)
	m, err := ptx.Parse("inline.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := ptx.Check("inline.ptx", src, m); err != nil {
		t.Fatal(err)
	}
	return m
}

func kernelOf(m *ir.Module, name string) *ir.Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func TestOriInline(t *testing.T) {
	cases := []struct {
		name         string
		knobs        []string
		inlined      int
		dead         int
		calls        []string // callees still called in the kernel
		printedFuncs []string // functions in the output
	}{
		{name: "default", inlined: 5, dead: 3, calls: nil, printedFuncs: []string{"vis", "k"}},
		{name: "small only", knobs: []string{"InlineMaxInstrs=9"}, inlined: 5, dead: 3, printedFuncs: []string{"vis", "k"}},
		{name: "nothing small, nothing called once", knobs: []string{"InlineMaxInstrs=0"}, inlined: 2, dead: 1,
			calls: []string{"sq", "quad"}, printedFuncs: []string{"sq", "quad", "vis", "k"}},
	}
	target, _ := ParseTarget("sm_80")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := parseInlineModule(t)
			m := parseInlineModule(t)
			var settings []KnobSetting
			for _, k := range tc.knobs {
				s, err := ParseKnob(k)
				if err != nil {
					t.Fatal(err)
				}
				settings = append(settings, s)
			}
			c, err := NewConfig(MaxOpt, target, settings, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			st := InlineModule(c, m)
			if st.Inlined != tc.inlined || st.DeadRemoved != tc.dead {
				t.Errorf("inlined %d, removed %d; want %d, %d", st.Inlined, st.DeadRemoved, tc.inlined, tc.dead)
			}
			k := kernelOf(m, "k")
			if errs := ir.Verify(k); len(errs) > 0 {
				t.Fatalf("verifier: %v", errs)
			}
			var called []string
			for _, b := range k.Layout {
				for i := range k.Instrs(b) {
					if g, _, _, _ := callee(k, i); g != ir.NoFunc && k.InstrProps(i)&ir.PCall != 0 {
						called = append(called, m.Funcs[g].Name)
					}
				}
			}
			for _, name := range tc.calls {
				if !strings.Contains(strings.Join(called, " "), name) {
					t.Errorf("call of %s gone; calls left: %v", name, called)
				}
			}
			out := ptx.Format(m)
			for _, f := range []string{"sq", "quad", "big", "vis"} {
				want := slicesContains(tc.printedFuncs, f)
				if got := bytes.Contains(out, []byte(" "+f+"(")); got != want {
					t.Errorf("function %s printed: %v, want %v", f, got, want)
				}
			}
			if _, err := ptx.Parse("out.ptx", out); err != nil {
				t.Fatalf("output does not parse: %v\n%s", err, out)
			}
			// the module after OriInline alone, golden (-update-golden
			// rewrites it): inlined bodies, .param marshalling become
			// .local copies, the dead functions and their prototypes gone
			golden := filepath.Join("testdata", "golden-module", "OriInline", strings.ReplaceAll(tc.name, " ", "-")+".out")
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want, err := os.ReadFile(golden); err != nil {
				t.Fatalf("%v (run with -update-golden to create it)", err)
			} else if !bytes.Equal(out, want) {
				t.Errorf("module after OriInline differs from %s:\n--- got\n%s--- want\n%s", golden, out, want)
			}
			simtest.CheckEquivalent(t, kernelOf(before, "k"), k, 6)
			// The whole pipeline after it: the marshalling is promoted away.
			after := k.Clone()
			if _, err := Run(context.Background(), c, nil, after, nil); err != nil {
				t.Fatal(err)
			}
			simtest.CheckEquivalent(t, kernelOf(before, "k"), after, 6)
		})
	}
}

func slicesContains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
