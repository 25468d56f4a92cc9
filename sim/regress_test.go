package sim_test

import (
	"encoding/binary"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
)

func parseKernel(t *testing.T, src, name string) *ir.Func {
	t.Helper()
	m, err := ptx.Parse("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

// A .func with .reg-space parameters and return values: the parser gives
// them as symbols (no def bit on a written one); the simulator maps them
// to registers, copies arguments in and return values out.
func TestRegSpaceFuncParams(t *testing.T) {
	const src = `
.version 6.5
.target sm_30
.address_size 64
.func (.reg .u64 sum, .reg .u32 prod) addmul (.reg .u32 x, .reg .u32 y);
.visible .entry k(.param .u64 out)
{
	.reg .u64 %rd<4>;
	.reg .u32 %r<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, 7;
	mov.u32 %r2, 6;
	call (%rd2, %r3), addmul, (%r1, %r2);
	st.global.u64 [%rd1], %rd2;
	st.global.u32 [%rd1+8], %r3;
	ret;
}
.func (.reg .u64 sum, .reg .u32 prod) addmul (.reg .u32 x, .reg .u32 y)
{
	.reg .u32 %t;
	add.u32 %t, x, y;
	cvt.u64.u32 sum, %t;
	mul.lo.u32 prod, x, y;
	ret;
}
`
	f := parseKernel(t, src, "k")
	mem := sim.NewMemory()
	out := mem.Alloc(16)
	p := make([]byte, 8)
	binary.LittleEndian.PutUint64(p, out)
	l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{1, 1, 1}, Params: [][]byte{p}}
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		t.Fatal(err)
	}
	b := mem.Bytes(out)
	if s, q := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint32(b[8:]); s != 13 || q != 42 {
		t.Fatalf("got sum %d prod %d, want 13 42", s, q)
	}
}

// MakeInput stores pointers to fresh buffers in the fields of a parameter
// buffer that the kernel follows, and 0 in a field it only tests for null.
func TestMakeInputNestedPointers(t *testing.T) {
	const src = `
.version 6.5
.target sm_30
.address_size 64
.visible .entry k(.param .u64 s, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .u64 %rd<8>;
	.reg .u32 %r<4>;
	ld.param.u64 %rd1, [s];
	cvta.to.global.u64 %rd2, %rd1;
	ld.global.u64 %rd3, [%rd2+8];
	add.s64 %rd4, %rd2, 16;
	ld.global.u64 %rd5, [%rd4+8];
	setp.ne.s64 %p1, %rd5, 0;
	@%p1 trap;
	ld.u32 %r1, [%rd3];
	st.u32 [%rd3+4], %r1;
	ret;
}
`
	f := parseKernel(t, src, "k")
	for seed := int64(0); seed < 4; seed++ {
		in := sim.MakeInput(f, seed, 4096)
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}
