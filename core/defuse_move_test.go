package core

import (
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// TestMoveUsesMatchesRecompute: after a duplicate's readers are made to
// read the value it duplicates and it is removed, DropDead and MoveUses
// leave the chains a full computation gives, including the order of the
// references of an instruction that now reads the kept value through
// several operands (it read the two registers in either order, or the
// removed one twice).
func TestMoveUsesMatchesRecompute(t *testing.T) {
	src := `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 1;
	add.s32 %r3, %r1, 1;
	mul.lo.s32 %r9, %r1, 3;
	add.s32 %r4, %r3, %r2;
	add.s32 %r5, %r2, %r3;
	mul.lo.s32 %r6, %r3, %r3;
	mul.lo.s32 %r10, %r1, 3;
	setp.lt.s32 %p1, %r3, %r6;
	@%p1 bra L1;
	add.s32 %r7, %r4, %r5;
	add.s32 %r11, %r10, %r9;
	add.s32 %r6, %r7, %r11;
L1:
	add.s32 %r8, %r6, %r3;
	add.s32 %r12, %r8, %r10;
	st.global.u32 [%rd1], %r12;
	ret;
}
`
	m, err := ptx.Parse("m.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	f.ComputeCFG()
	reg := func(name string) ir.RegID {
		for r := range ir.RegID(f.NumRegs()) {
			if f.Str(f.RegName[r]) == name {
				return r
			}
		}
		t.Fatalf("no register %s", name)
		return 0
	}
	du := ComputeDefUse(f)
	from := []ir.RegID{reg("%r3"), reg("%r10")}
	to := []ir.RegID{reg("%r2"), reg("%r9")}
	var regs []ir.RegID
	for k, r := range from {
		for _, u := range du.Uses(r) {
			SetOperandAt(f, u.Instr, u.Loc, OperandAt(f, u.Instr, u.Loc).WithIndex(uint32(to[k])))
		}
		i := du.Defs(r)[0].Instr
		for _, x := range AppendRegRefs(f, i, nil) {
			regs = append(regs, x.Reg)
		}
		f.Remove(i)
	}
	slices.Sort(regs)
	regs = slices.Compact(regs)
	du.DropDead(f, regs)
	place := make([]uint64, len(f.Op))
	n := uint64(0)
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			place[i] = n
			n++
		}
	}
	du.MoveUses(f, from, to, func(i ir.InstrID) uint64 { return place[i] }, &RelinkWork{})
	want := ComputeDefUse(f)
	for r := range ir.RegID(f.NumRegs()) {
		if !slices.Equal(du.Defs(r), want.Defs(r)) || !slices.Equal(du.Uses(r), want.Uses(r)) {
			t.Errorf("%s: defs %v uses %v, want %v %v", f.Str(f.RegName[r]), du.Defs(r), du.Uses(r), want.Defs(r), want.Uses(r))
		}
	}
	if len(want.Uses(to[0])) < 6 {
		t.Fatalf("%%r2 has %d readers: the test lost its point", len(want.Uses(to[0])))
	}
}
