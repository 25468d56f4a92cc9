package core

import (
	"testing"

	"github.com/ptxopt/ptxopt/ir/ptx"
)

// A register defined after a divergent branch and live into a join of
// its region merges values from different paths there, unless it holds
// one value per thread whichever path and iteration set it (onceValued)
// and one of its definitions dominates the join: a constant, a product
// of such values, a kernel parameter loaded again into the same register,
// a constant set inside a loop with a divergent exit. A load of global
// memory, a register given two different values, and a loop counter are
// still varying.
func TestUniformityOnceValued(t *testing.T) {
	src := `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	setp.lt.u32 %p1, %r2, %r1;
	@%p1 bra DONE;
	mov.u32 %r3, 7;
	mul.lo.s32 %r4, %r3, %r1;
	ld.global.u32 %r5, [%rd1];
	mov.u32 %r6, 1;
	ld.param.u32 %r7, [n];
	setp.eq.u32 %p2, %r2, 0;
	@%p2 bra SKIP;
	mov.u32 %r6, 2;
	ld.param.u32 %r7, [n];
SKIP:
	add.s32 %r8, %r3, %r4;
	add.s32 %r9, %r8, %r5;
	add.s32 %r10, %r9, %r6;
	add.s32 %r10, %r10, %r7;
	st.global.u32 [%rd1], %r10;
	mov.u32 %r12, 0;
LOOP:
	mov.u32 %r11, 5;
	add.s32 %r12, %r12, 1;
	setp.lt.u32 %p3, %r12, %r2;
	@%p3 bra LOOP;
	add.s32 %r13, %r11, %r12;
	st.global.u32 [%rd1+4], %r11;
	st.global.u32 [%rd1+8], %r13;
DONE:
	ret;
}
`
	m, err := ptx.Parse("u.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	f.ComputeCFG()
	u := ComputeUniformity(f)
	want := map[string]bool{ // register name -> varying
		"%r1": false, "%r2": true, "%r3": false, "%r4": false, "%r5": true, "%r6": true,
		"%r7": false, "%r8": false, "%r9": true, "%r11": false, "%r12": true, "%r13": true,
	}
	seen := 0
	for r := range f.NumRegs() {
		name := f.Str(f.RegName[r])
		if v, ok := want[name]; ok {
			seen++
			if u.Varying[r] != v {
				t.Errorf("%s varying = %v, want %v", name, u.Varying[r], v)
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d registers", seen, len(want))
	}
}
