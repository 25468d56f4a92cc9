package phases

import (
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// TestOutOfSSADropsUnnamedRegisters: registers declared but named by no
// instruction, and those the phases before OutOfSSA leave unnamed (the
// dead add's result), leave the register table, so the printer no longer
// declares them; the .reg parameter's register keeps its number.
func TestOutOfSSADropsUnnamedRegisters(t *testing.T) {
	src := `.version 7.0
.target sm_80
.address_size 64
.visible .func f(.reg .b32 %a)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	.reg .pred %p<5>;
	mov.u32 %r1, %tid.x;
	add.u32 %r2, %r1, %a;
	add.u32 %r3, %r1, 7;
	mov.u64 %rd1, 0;
	st.global.u32 [%rd1], %r2;
	ret;
}
`
	before, after, _, stats := runPass(t, src, "f", "OutOfSSA")
	named := make([]bool, after.NumRegs())
	var refs []core.RegRef
	for _, b := range after.Layout {
		for i := after.BlockFirst[b]; i != ir.NoInstr; i = after.Next[i] {
			refs = core.AppendRegRefs(after, i, refs[:0])
			for _, x := range refs {
				named[x.Reg] = true
			}
		}
	}
	param, ok := after.ParamReg(after.Params[0])
	if !ok || after.Str(after.RegName[param]) != "%a" {
		t.Errorf("the .reg parameter lost its register")
	}
	named[param] = true
	for r, ok := range named {
		if !ok {
			t.Errorf("register %s is in the table but nothing names it", after.Str(after.RegName[r]))
		}
	}
	if after.NumRegs() >= before.NumRegs() || after.NumRegs() > 5 {
		t.Errorf("registers: %d before, %d after; want the four named ones and the parameter's", before.NumRegs(), after.NumRegs())
	}
	if !counterChanged(stats, "OutOfSSA") {
		t.Errorf("OutOfSSA reported no change")
	}
}

func counterChanged(stats []PhaseStat, name string) bool {
	for _, s := range stats {
		if s.Name == name && s.Changed {
			return true
		}
	}
	return false
}
