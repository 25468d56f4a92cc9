package core

import (
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// Values that come from the caller's lanes are varying: a device
// function's .reg and .param arguments, and a return value read back
// after a call. A kernel's own parameters are uniform.
func TestUniformityOfParameters(t *testing.T) {
	src := `.version 8.0
.target sm_80
.address_size 64
.func (.reg .b32 rv) dev(.reg .b32 a, .param .b32 p)
{
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [p];
	add.s32 %r2, a, %r1;
	mov.b32 %r3, 7;
	mov.b32 rv, %r2;
	ret;
}
.visible .entry k(.param .u32 n)
{
	.reg .b32 %k<4>;
	ld.param.u32 %k1, [n];
	{
	.param .b32 retval0;
	.param .b32 arg;
	st.param.b32 [arg], %k1;
	call.uni (retval0), dev2, (arg);
	ld.param.b32 %k2, [retval0];
	}
	add.s32 %k3, %k1, 1;
	ret;
}
.func (.param .b32 r) dev2(.param .b32 x)
{
	ret;
}
`
	m, err := ptx.Parse("u.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]bool{ // register name -> varying
		"dev": {"a": true, "%r1": true, "%r2": true, "%r3": false, "rv": true},
		"k":   {"%k1": false, "%k2": true, "%k3": false},
	}
	for _, f := range m.Funcs {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		f.ComputeCFG()
		u := ComputeUniformity(f)
		for r := range f.NumRegs() {
			name := f.Str(f.RegName[r])
			if v, ok := w[name]; ok && u.Varying[r] != v {
				t.Errorf("%s: %s varying = %v, want %v", f.Name, name, u.Varying[r], v)
			}
		}
		if f.Name == "dev" {
			l := ComputeLiveness(f, LiveOptions{})
			rv := ir.NoReg
			for r := range f.NumRegs() {
				if f.Str(f.RegName[r]) == "rv" {
					rv = ir.RegID(r)
				}
			}
			live := l.LiveOutRegs(f.Layout[len(f.Layout)-1], nil)
			found := false
			for _, r := range live {
				found = found || r == rv
			}
			if !found {
				t.Errorf("dev: the return register is not live at exit: %v", live)
			}
		}
	}
}
