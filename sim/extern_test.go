package sim_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim"
)

const ptxHeader = `
.version 7.0
.target sm_70
.address_size 64
`

// runOut runs kernel name of src on one CTA of threads threads with one
// pointer parameter to a zeroed buffer of outBytes, and returns the
// buffer and the memory.
func runOut(t *testing.T, src, name string, threads, outBytes int, seed uint64) ([]byte, *sim.Memory, error) {
	t.Helper()
	f := parseKernel(t, ptxHeader+src, name)
	mem := sim.NewMemory()
	out := mem.Alloc(outBytes)
	p := make([]byte, 8)
	binary.LittleEndian.PutUint64(p, out)
	l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{threads, 1, 1}, Params: [][]byte{p}, ExternSeed: seed}
	_, err := sim.RunFunc(f, l, mem)
	return mem.Bytes(out), mem, err
}

func u32at(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
func u64at(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }

// An extern function declared without a body runs as an uninterpreted
// function: equal arguments give equal results, other arguments other
// results, a float result is an ordinary value (a multiple of 1/4096 in
// [-128, 128)), and the call is recorded with its argument's bytes.
func TestExternUninterpreted(t *testing.T) {
	const src = `
.extern .func (.param .b32 func_retval0) __nv_expf (.param .b32 x);
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .f32 %f<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 3;          // lanes 0, 4, 8, ... pass the same argument
	cvt.rn.f32.u32 %f1, %r2;
	{
	.param .b32 param0;
	st.param.f32 [param0], %f1;
	.param .b32 retval0;
	call.uni (retval0), __nv_expf, (param0);
	ld.param.f32 %f2, [retval0];
	}
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.f32 [%rd3], %f2;
	ret;
}
`
	b, mem, err := runOut(t, src, "k", 8, 32, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		v := math.Float32frombits(u32at(b, i))
		if !(v >= -128 && v < 128) || v*4096 != float32(math.Trunc(float64(v*4096))) {
			t.Errorf("lane %d: result %v is not a multiple of 1/4096 in [-128, 128)", i, v)
		}
		if i >= 4 && u32at(b, i) != u32at(b, i-4) {
			t.Errorf("lanes %d and %d pass the same argument but get %#x and %#x", i-4, i, u32at(b, i-4), u32at(b, i))
		}
	}
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			if u32at(b, i) == u32at(b, j) {
				t.Errorf("arguments %d and %d give the same result %#x", i, j, u32at(b, i))
			}
		}
	}
	recs := mem.Output()
	if len(recs) != 8 {
		t.Fatalf("%d output records, want one call per thread: %v", len(recs), recs)
	}
	for i, r := range recs {
		want := make([]byte, 4)
		binary.LittleEndian.PutUint32(want, math.Float32bits(float32(i&3)))
		if r.Thread != uint64(i) || r.Func != "__nv_expf" || string(r.Data) != string(want) {
			t.Errorf("record %d: %+v, want thread %d __nv_expf %x", i, r, i, want)
		}
	}
	// the same launch gives the same results; another ExternSeed others
	b2, _, _ := runOut(t, src, "k", 8, 32, 0)
	b3, _, _ := runOut(t, src, "k", 8, 32, 1)
	if string(b2) != string(b) {
		t.Errorf("results differ between two runs of one launch")
	}
	if u32at(b3, 0) == u32at(b, 0) && u32at(b3, 1) == u32at(b, 1) {
		t.Errorf("ExternSeed 1 gives the results of ExternSeed 0")
	}
}

// A name the module never declares (an OptiX intrinsic) is uninterpreted
// too, with any number of results, typed by the registers receiving
// them: integers in [0, 64) on most seeds, the full width on seeds 3 mod
// 4; floats ordinary.
func TestExternUndeclared(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<8>;
	.reg .f32 %f<4>;
	.reg .u64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	call (%r2, %r3, %f1, %rd2), _optix_get_many, (%r1, %rd1);
	call _optix_set_payload_0, (%r2);
	mul.wide.u32 %rd3, %r1, 24;
	add.s64 %rd4, %rd1, %rd3;
	st.global.u32 [%rd4], %r2;
	st.global.u32 [%rd4+4], %r3;
	st.global.f32 [%rd4+8], %f1;
	st.global.u64 [%rd4+16], %rd2;
	ret;
}
`
	for _, seed := range []uint64{0, 3} {
		b, mem, err := runOut(t, src, "k", 32, 32*24, seed)
		if err != nil {
			t.Fatal(err)
		}
		big := 0
		for i := 0; i < 32; i++ {
			r2, r3 := u32at(b, 6*i), u32at(b, 6*i+1)
			f := math.Float32frombits(u32at(b, 6*i+2))
			rd := u64at(b, 3*i+2)
			if seed == 0 && (r2 >= 64 || r3 >= 64 || rd >= 64) {
				t.Errorf("seed 0 lane %d: integer results %d %d %d not below 64", i, r2, r3, rd)
			}
			if r2 >= 64 || r3 >= 64 || rd>>32 != 0 {
				big++
			}
			if !(f >= -128 && f < 128) {
				t.Errorf("lane %d: float result %v", i, f)
			}
		}
		if seed == 3 && big < 30 {
			t.Errorf("seed 3: only %d of 32 lanes got wide integer results", big)
		}
		recs := mem.Output()
		if len(recs) != 64 || recs[0].Func != "_optix_get_many" || recs[1].Func != "_optix_set_payload_0" || len(recs[0].Data) != 12 || len(recs[1].Data) != 4 {
			t.Fatalf("seed %d: output records %v, want per thread _optix_get_many (12 argument bytes) then _optix_set_payload_0 (4)", seed, recs[:2])
		}
		if got := binary.LittleEndian.Uint32(recs[1].Data); got != u32at(b, 0) {
			t.Errorf("payload record holds %d, the result stored is %d", got, u32at(b, 0))
		}
	}
}

// A result the kernel follows as a pointer is the address Launch.Extern
// gives (the input maker fills it with a buffer of the input).
func TestExternPointerResult(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	call (%rd2), _optix_get_sbt_data_ptr_64, ();
	ld.global.u32 %r1, [%rd2+4];
	st.global.u32 [%rd1], %r1;
	ret;
}
`
	f := parseKernel(t, ptxHeader+src, "k")
	mem := sim.NewMemory()
	out := mem.Alloc(4)
	data := mem.Alloc(16)
	binary.LittleEndian.PutUint32(mem.Bytes(data)[4:], 0xc0ffee)
	p := make([]byte, 8)
	binary.LittleEndian.PutUint64(p, out)
	l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{1, 1, 1}, Params: [][]byte{p},
		Extern: []sim.ExternResult{{Name: "_optix_get_sbt_data_ptr_64", Ret: 0, Value: data}}}
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint32(mem.Bytes(out)); got != 0xc0ffee {
		t.Fatalf("loaded %#x through the extern pointer, want 0xc0ffee", got)
	}
	// the input maker finds that the result is a pointer
	for seed := int64(0); seed < 4; seed++ {
		in := sim.MakeInput(f, seed, 1<<16)
		if len(in.Launch.Extern) != 1 || in.Launch.Extern[0].Name != "_optix_get_sbt_data_ptr_64" {
			t.Fatalf("seed %d: Extern %+v", seed, in.Launch.Extern)
		}
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// The differential check sees through uninterpreted calls: other
// arguments, or a call dropped, are mismatches; the same code matches.
func TestExternDiff(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	call (%r2), _optix_f, (%r1);
	call _optix_g, (%r1);
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
`
	orig := parseKernel(t, ptxHeader+src, "k")
	same := parseKernel(t, ptxHeader+src, "k")
	res, err := sim.Diff(orig, same, sim.DiffOptions{Seeds: 4})
	if err != nil || res.Status != sim.StatusUnchanged || res.Matches == 0 {
		t.Fatalf("identical: %v %v (%d matches)", res.Status, err, res.Matches)
	}
	for _, c := range []struct{ name, from, to string }{
		{"other argument of _optix_f", "call (%r2), _optix_f, (%r1);", "add.u32 %r3, %r1, 1;\n\tcall (%r2), _optix_f, (%r3);"},
		{"other argument of _optix_g (no result)", "call _optix_g, (%r1);", "add.u32 %r3, %r1, 1;\n\tcall _optix_g, (%r3);"},
		{"_g dropped", "call _optix_g, (%r1);", ""},
	} {
		mut := parseKernel(t, ptxHeader+strings.Replace(src, c.from, c.to, 1), "k")
		res, err := sim.Diff(orig, mut, sim.DiffOptions{Seeds: 2})
		if err != nil || res.Mismatch == nil {
			t.Errorf("%s: not caught (%v, %v)", c.name, res.Status, err)
		}
	}
}

// malloc hands out deterministic, 16-byte aligned blocks of a device heap
// (each followed by a 16-byte gap) in lane order; free releases them; a
// use after free, a double free, malloc(0) and an oversized malloc behave
// as the model says.
func TestMallocFree(t *testing.T) {
	const src = `
.extern .func (.param .b64 func_retval0) malloc (.param .b64 size);
.extern .func free (.param .b64 p);
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<12>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	{
	.param .b64 param0;
	st.param.b64 [param0], 40;
	.param .b64 retval0;
	call.uni (retval0), malloc, (param0);
	ld.param.b64 %rd2, [retval0];
	}
	st.u32 [%rd2+36], %r1;         // the last word of the block
	ld.u32 %r2, [%rd2+36];
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd4, %rd1, %rd3;
	st.global.u64 [%rd4], %rd2;
	st.global.u32 [%rd4+8], %r2;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd2;
	call.uni free, (param0);
	}
	ret;
}
`
	b, mem, err := runOut(t, src, "k", 40, 40*16, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		// 40 bytes round up to 48, plus the 16-byte gap: 64 per block
		if p, want := u64at(b, 2*i), uint64(0x6000_0000_0000+64*i); p != want {
			t.Errorf("thread %d: malloc returned %#x, want %#x", i, p, want)
		}
		if v := u32at(b, 4*i+2); v != uint32(i) {
			t.Errorf("thread %d: read back %d", i, v)
		}
	}
	for _, a := range mem.Allocs() {
		if a.Base >= 0x6000_0000_0000 {
			t.Errorf("block %#x still allocated after free", a.Base)
		}
	}
	traps := []struct{ name, from, to, msg string }{
		{"use after free", "ret;\n}", "ld.u32 %r3, [%rd2];\n\tret;\n}", "global access out of bounds"},
		{"double free", "call.uni free, (param0);", "call.uni free, (param0);\n\tcall.uni free, (param0);", "free of an address"},
		{"overrun", "[%rd2+36], %r1", "[%rd2+40], %r1", "global access out of bounds"},
	}
	for _, c := range traps {
		_, _, err := runOut(t, strings.Replace(src, c.from, c.to, 1), "k", 1, 16, 0)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want a trap %q", c.name, err, c.msg)
		}
	}
	for _, size := range []string{"0", "8388609"} {
		s := strings.Replace(src, "st.param.b64 [param0], 40;", "st.param.b64 [param0], "+size+";", 1)
		s = strings.Replace(s, "st.u32 [%rd2+36], %r1;", "", 1)
		s = strings.Replace(s, "ld.u32 %r2, [%rd2+36];", "", 1)
		b, _, err := runOut(t, s, "k", 1, 16, 0)
		if err != nil || u64at(b, 0) != 0 {
			t.Errorf("malloc(%s): %#x, %v; want NULL", size, u64at(b, 0), err)
		}
	}
}

// vprintf records the format and the arguments it reads (an int in 4
// bytes, a double in 8 at an 8-aligned offset, a string by its text) in
// the thread's output stream and returns the number of arguments.
func TestVprintf(t *testing.T) {
	const src = `
.extern .func (.param .b32 func_retval0) vprintf (.param .b64 format, .param .b64 args);
.global .align 1 .b8 fmt[12] = {37, 100, 32, 37, 102, 32, 37, 115, 32, 37, 37, 0};
.global .align 1 .b8 word[3] = {104, 105, 0};
.visible .entry k(.param .u64 out)
{
	.local .align 8 .b8 buf[24];
	.reg .u32 %r<4>;
	.reg .f64 %fd<2>;
	.reg .u64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	add.u32 %r2, %r1, 7;
	mov.u64 %rd2, buf;
	cvta.local.u64 %rd3, %rd2;
	st.local.u32 [buf], %r2;
	mov.f64 %fd1, 0d4004000000000000;   // 2.5
	st.local.f64 [buf+8], %fd1;
	mov.u64 %rd4, word;
	cvta.global.u64 %rd5, %rd4;
	st.local.u64 [buf+16], %rd5;
	mov.u64 %rd6, fmt;
	cvta.global.u64 %rd7, %rd6;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd7;
	.param .b64 param1;
	st.param.b64 [param1], %rd3;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r3, [retval0];
	}
	st.global.u32 [%rd1], %r3;
	ret;
}
`
	b, mem, err := runOut(t, src, "k", 2, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := u32at(b, 0); got != 3 {
		t.Errorf("vprintf returned %d, want 3 arguments", got)
	}
	recs := mem.Output()
	if len(recs) != 2 {
		t.Fatalf("records: %v", recs)
	}
	for i, r := range recs {
		want := "%d %f %s %%\x00" + string([]byte{byte(7 + i), 0, 0, 0}) + string([]byte{0, 0, 0, 0, 0, 0, 4, 0x40}) + "hi\x00"
		if r.Func != "vprintf" || string(r.Data) != want {
			t.Errorf("thread %d: record %q %q, want %q", i, r.Func, r.Data, want)
		}
	}
	orig := parseKernel(t, ptxHeader+src, "k")
	mut := parseKernel(t, ptxHeader+strings.Replace(src, "add.u32 %r2, %r1, 7;", "add.u32 %r2, %r1, 8;", 1), "k")
	res, err := sim.Diff(orig, mut, sim.DiffOptions{Seeds: 1})
	if err != nil || res.Mismatch == nil || res.Mismatch.Output == "" {
		t.Fatalf("a printed value changed: %v %v, want an output mismatch", res.Status, err)
	}
}

// Calls take any number of arguments and return values.
func TestManyCallArguments(t *testing.T) {
	const src = `
.func (.param .b32 s, .param .b32 d0, .param .b32 d1, .param .b32 d2, .param .b32 d3, .param .b32 d4) f (.param .b32 a0, .param .b32 a1, .param .b32 a2, .param .b32 a3, .param .b32 a4, .param .b32 a5, .param .b32 a6, .param .b32 a7)
{
	.reg .u32 %r<12>;
	ld.param.u32 %r0, [a0];
	ld.param.u32 %r1, [a1];
	ld.param.u32 %r2, [a2];
	ld.param.u32 %r3, [a3];
	ld.param.u32 %r4, [a4];
	ld.param.u32 %r5, [a5];
	ld.param.u32 %r6, [a6];
	ld.param.u32 %r7, [a7];
	mad.lo.u32 %r8, %r1, 10, %r0;
	mad.lo.u32 %r8, %r2, 100, %r8;
	mad.lo.u32 %r8, %r3, 1000, %r8;
	mad.lo.u32 %r8, %r4, 10000, %r8;
	mad.lo.u32 %r8, %r5, 100000, %r8;
	mad.lo.u32 %r8, %r6, 1000000, %r8;
	mad.lo.u32 %r8, %r7, 10000000, %r8;
	st.param.u32 [s], %r8;
	st.param.u32 [d0], %r7;
	st.param.u32 [d1], %r6;
	st.param.u32 [d2], %r5;
	st.param.u32 [d3], %r4;
	st.param.u32 [d4], %r3;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<16>;
	.reg .u64 %rd<2>;
	ld.param.u64 %rd1, [out];
	{
	.param .b32 p0; .param .b32 p1; .param .b32 p2; .param .b32 p3;
	.param .b32 p4; .param .b32 p5; .param .b32 p6; .param .b32 p7;
	.param .b32 q0; .param .b32 q1; .param .b32 q2; .param .b32 q3; .param .b32 q4; .param .b32 q5;
	st.param.b32 [p0], 1; st.param.b32 [p1], 2; st.param.b32 [p2], 3; st.param.b32 [p3], 4;
	st.param.b32 [p4], 5; st.param.b32 [p5], 6; st.param.b32 [p6], 7; st.param.b32 [p7], 8;
	call.uni (q0, q1, q2, q3, q4, q5), f, (p0, p1, p2, p3, p4, p5, p6, p7);
	ld.param.b32 %r0, [q0]; ld.param.b32 %r1, [q1]; ld.param.b32 %r2, [q2];
	ld.param.b32 %r3, [q3]; ld.param.b32 %r4, [q4]; ld.param.b32 %r5, [q5];
	}
	st.global.v4.u32 [%rd1], {%r0, %r1, %r2, %r3};
	st.global.v2.u32 [%rd1+16], {%r4, %r5};
	ret;
}
`
	b, _, err := runOut(t, src, "k", 1, 24, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{87654321, 8, 7, 6, 5, 4}
	for i, w := range want {
		if got := u32at(b, i); got != w {
			t.Errorf("word %d: %d, want %d", i, got, w)
		}
	}
}

// Indirect calls: function addresses from mov and from a table's
// initializer; lanes calling different functions each get their own; an
// address of no function in the module calls an uninterpreted function.
func TestIndirectCall(t *testing.T) {
	const src = `
.func (.param .b32 r) add1 (.param .b32 x)
{
	.reg .u32 %r<3>;
	ld.param.u32 %r1, [x];
	add.u32 %r2, %r1, 1;
	st.param.u32 [r], %r2;
	ret;
}
.func (.param .b32 r) twice (.param .b32 x)
{
	.reg .u32 %r<3>;
	ld.param.u32 %r1, [x];
	shl.b32 %r2, %r1, 1;
	st.param.u32 [r], %r2;
	ret;
}
.global .align 8 .u64 table[2] = {add1, twice};
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<8>;
	.reg .u64 %rd<12>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 1;
	mul.wide.u32 %rd2, %r2, 8;
	mov.u64 %rd3, table;
	add.s64 %rd4, %rd3, %rd2;
	ld.global.u64 %rd5, [%rd4];
	setp.eq.u32 %p1, %r1, 5;
	@%p1 mov.u64 %rd5, 12345;      // no function: uninterpreted
	mov.u64 %rd6, twice;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	.param .b32 retval0;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (retval0), %rd5, (param0), proto;
	ld.param.b32 %r3, [retval0];
	call (retval0), %rd6, (param0), proto;
	ld.param.b32 %r4, [retval0];
	}
	mul.wide.u32 %rd7, %r1, 8;
	add.s64 %rd8, %rd1, %rd7;
	st.global.v2.u32 [%rd8], {%r3, %r4};
	ret;
}
`
	b, mem, err := runOut(t, src, "k", 8, 64, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		want := uint32(i + 1)
		if i%2 == 1 {
			want = uint32(2 * i)
		}
		if got := u32at(b, 2*i); i != 5 && got != want {
			t.Errorf("lane %d: table call gave %d, want %d", i, got, want)
		}
		if got := u32at(b, 2*i+1); got != uint32(2*i) {
			t.Errorf("lane %d: call through mov gave %d, want %d", i, got, 2*i)
		}
	}
	recs := mem.Output()
	if len(recs) != 1 || recs[0].Thread != 5 || recs[0].Func != "function at 0x3039" {
		t.Fatalf("records %v, want one call of the function at 0x3039 by thread 5", recs)
	}
	if got := u32at(b, 10); got >= 64 {
		t.Errorf("lane 5: uninterpreted result %d not below 64", got)
	}
}

// Initializers that name variables: generic(v) is v's generic address.
func TestInitializerAddresses(t *testing.T) {
	const src = `
.global .align 4 .u32 gv[2] = {11, 22};
.const .align 4 .u32 cv[2] = {33, 44};
.global .align 8 .u64 ptrs[3] = {generic(gv), 9, generic(cv)};
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.global.u64 %rd2, [ptrs];
	ld.u32 %r1, [%rd2+4];
	ld.global.u64 %rd3, [ptrs+8];
	cvt.u32.u64 %r2, %rd3;
	ld.global.u64 %rd4, [ptrs+16];
	ld.u32 %r3, [%rd4+4];
	st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r3};
	ret;
}
`
	b, _, err := runOut(t, src, "k", 1, 16, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u32at(b, 0) != 22 || u32at(b, 1) != 9 || u32at(b, 2) != 44 {
		t.Fatalf("got %d %d %d, want 22 9 44", u32at(b, 0), u32at(b, 1), u32at(b, 2))
	}
}

var _ = ir.TU32

// A callee reaches its caller's .local variables through a generic
// pointer (cvta.local in the caller): generic local addresses name the
// frame; a pointer into a frame that returned traps.
func TestCallerLocalsThroughPointers(t *testing.T) {
	const src = `
.func (.param .b64 r) bump (.param .b64 p)
{
	.local .align 4 .b8 own[8];
	.reg .u32 %r<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [p];
	st.local.u32 [own], 1000;
	ld.u32 %r1, [%rd1+4];
	add.u32 %r2, %r1, 5;
	st.u32 [%rd1+4], %r2;
	mov.u64 %rd2, own;
	cvta.local.u64 %rd3, %rd2;
	st.param.b64 [r], %rd3;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.local .align 4 .b8 frame[8];
	.reg .u32 %r<4>;
	.reg .u64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	st.local.u32 [frame+4], %r1;
	mov.u64 %rd2, frame;
	cvta.local.u64 %rd3, %rd2;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd3;
	.param .b64 retval0;
	call.uni (retval0), bump, (param0);
	ld.param.b64 %rd4, [retval0];
	}
	ld.local.u32 %r2, [frame+4];
	mul.wide.u32 %rd5, %r1, 4;
	add.s64 %rd6, %rd1, %rd5;
	st.global.u32 [%rd6], %r2;
	ret;
}
`
	b, _, err := runOut(t, src, "k", 4, 16, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if got := u32at(b, i); got != uint32(i+5) {
			t.Errorf("thread %d: the caller's local reads %d after the callee added 5, want %d", i, got, i+5)
		}
	}
	dangling := strings.Replace(src, "ld.local.u32 %r2, [frame+4];", "ld.u32 %r2, [%rd4];", 1)
	if _, _, err := runOut(t, dangling, "k", 4, 16, 0); err == nil || !strings.Contains(err.Error(), "returned") {
		t.Errorf("a pointer into the callee's returned frame: %v", err)
	}
}

// The OptiX launch index and dimension intrinsics read the launch's
// shape: one dimension over the grid's threads. With 2 blocks of 48
// threads, thread t of block c has launch index (48c+t, 0, 0) and every
// thread sees dimensions (96, 1, 1).
func TestOptixLaunchShape(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<12>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mad.lo.u32 %r3, %r2, 48, %r1;
	call (%r4), _optix_get_launch_index_x, ();
	call (%r5), _optix_get_launch_index_y, ();
	call (%r6), _optix_get_launch_index_z, ();
	call (%r7), _optix_get_launch_dimension_x, ();
	call (%r8), _optix_get_launch_dimension_y, ();
	call (%r9), _optix_get_launch_dimension_z, ();
	mul.wide.u32 %rd2, %r3, 24;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r4, %r5};
	st.global.v2.u32 [%rd3+8], {%r6, %r7};
	st.global.v2.u32 [%rd3+16], {%r8, %r9};
	ret;
}
`
	f := parseKernel(t, ptxHeader+src, "k")
	mem := sim.NewMemory()
	out := mem.Alloc(96 * 24)
	p := make([]byte, 8)
	binary.LittleEndian.PutUint64(p, out)
	l := &sim.Launch{Grid: sim.Dim3{2, 1, 1}, Block: sim.Dim3{48, 1, 1}, Params: [][]byte{p}, ExternSeed: 5}
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		t.Fatal(err)
	}
	b := mem.Bytes(out)
	for g := 0; g < 96; g++ {
		got := [6]uint32{u32at(b, 6*g), u32at(b, 6*g+1), u32at(b, 6*g+2), u32at(b, 6*g+3), u32at(b, 6*g+4), u32at(b, 6*g+5)}
		if want := [6]uint32{uint32(g), 0, 0, 96, 1, 1}; got != want {
			t.Fatalf("thread %d: index and dimensions %v, want %v", g, got, want)
		}
	}
	// each call is recorded as an uninterpreted one is (no argument bytes)
	if recs := mem.Output(); len(recs) != 96*6 || recs[0].Func != "_optix_get_launch_index_x" || len(recs[0].Data) != 0 {
		t.Fatalf("%d output records, first %+v; want 6 per thread, the first _optix_get_launch_index_x", len(recs), recs[0])
	}
}

// Other OptiX intrinsics read the state of the thread's ray: on launches
// whose ExternSeed is 1 or 2 mod 4 their results depend on the thread
// (and are the same for it on every run), integers below 16; on the
// others every thread gets the same; the results of another function
// without a body depend on its arguments and the launch's seed alone.
func TestOptixPerThread(t *testing.T) {
	const src = `
.extern .func (.param .b32 func_retval0) other_get_value ();
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .f32 %f<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	call (%f1), _optix_get_ray_tmax, ();
	call (%r3), _optix_get_transform_list_size, ();
	{
	.param .b32 retval0;
	call.uni (retval0), other_get_value, ();
	ld.param.u32 %r2, [retval0];
	}
	mul.wide.u32 %rd2, %r1, 8;
	add.s64 %rd3, %rd1, %rd2;
	st.global.f32 [%rd3], %f1;
	st.global.u32 [%rd3+4], %r2;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3+512], %r3;
	ret;
}
`
	b, _, err := runOut(t, src, "k", 64, 64*12, 6)
	if err != nil {
		t.Fatal(err)
	}
	b2, _, err := runOut(t, src, "k", 64, 64*12, 6)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Fatal("two runs of one launch differ")
	}
	tmax := map[uint32]bool{}
	for i := 0; i < 64; i++ {
		tmax[u32at(b, 2*i)] = true
		if f := math.Float32frombits(u32at(b, 2*i)); !(f >= -128 && f < 128) {
			t.Errorf("thread %d: float result %v", i, f)
		}
		if n := u32at(b, 128+i); n >= 16 {
			t.Errorf("thread %d: _optix_get_transform_list_size gave %d, want below 16", i, n)
		}
		if u32at(b, 2*i+1) != u32at(b, 1) {
			t.Errorf("thread %d: other_get_value gave %d, thread 0 %d: not a function of the arguments", i, u32at(b, 2*i+1), u32at(b, 1))
		}
	}
	if len(tmax) < 60 {
		t.Errorf("_optix_get_ray_tmax: %d distinct results over 64 threads, want (nearly) one per thread", len(tmax))
	}
	b, _, err = runOut(t, src, "k", 64, 64*12, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if u32at(b, 2*i) != u32at(b, 0) {
			t.Fatalf("ExternSeed 3, thread %d: _optix_get_ray_tmax gave %#x, thread 0 %#x; want one ray for all threads", i, u32at(b, 2*i), u32at(b, 0))
		}
	}
}

// One float result in 16 is a value code tests for exactly: 0, ±1/2,
// ±1 or ±2 (a ray direction of 0 along an axis).
func TestExternSpecialFloats(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .f32 %f<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	call (%f1), _optix_get_world_ray_direction_z, ();
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.f32 [%rd3], %f1;
	ret;
}
`
	b, _, err := runOut(t, src, "k", 1024, 1024*4, 2)
	if err != nil {
		t.Fatal(err)
	}
	special, zero := 0, 0
	for i := 0; i < 1024; i++ {
		switch v := math.Float32frombits(u32at(b, i)); v {
		case 0:
			zero++
			special++
		case 1, -1, 0.5, -0.5, 2, -2:
			special++
		}
	}
	// 64 expected (a few of the ordinary values are such numbers too)
	if special < 40 || special > 100 || zero < 8 {
		t.Errorf("%d of 1024 results are 0, ±1/2, ±1 or ±2 (%d zeros), want about one in 16", special, zero)
	}
}
