package sim_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim"
)

// mbarrier phases, hand-computed from the ISA: init sets the pending
// and expected counts; a phase completes when the pending count and the
// tx-count are both zero; test_wait.parity P is true when the phase of
// parity P completed (the current phase's parity is not complete, the
// preceding one is); a state from arrive names the phase it arrived in.
func TestMbarrierPhases(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.shared .align 8 .b64 bar;
	.reg .u32 %r<8>;
	.reg .u64 %rd<8>;
	.reg .pred %p<16>;
	ld.param.u64 %rd1, [out];
	mbarrier.init.shared.b64 [bar], 2;
	mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;
	mbarrier.test_wait.parity.shared.b64 %p2, [bar], 1;
	mbarrier.arrive.shared.b64 %rd2, [bar];
	mbarrier.test_wait.parity.shared.b64 %p3, [bar], 0;
	mbarrier.arrive.expect_tx.shared.b64 %rd3, [bar], 64;
	mbarrier.test_wait.parity.shared.b64 %p4, [bar], 0;
	mbarrier.complete_tx.shared.b64 [bar], 32;
	mbarrier.test_wait.parity.shared.b64 %p5, [bar], 0;
	mbarrier.complete_tx.shared.b64 [bar], 32;
	mbarrier.test_wait.parity.shared.b64 %p6, [bar], 0;
	mbarrier.test_wait.parity.shared.b64 %p7, [bar], 1;
	mbarrier.test_wait.shared.b64 %p8, [bar], %rd2;
	mbarrier.pending_count.b64 %r1, %rd2;
	mbarrier.pending_count.b64 %r2, %rd3;
	mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;
	mbarrier.arrive.shared::cta.b64 %rd4, [bar], 2;
	mbarrier.test_wait.parity.shared.b64 %p9, [bar], 1;
	mbarrier.complete_tx.shared.b64 [bar], 16;
	mbarrier.test_wait.shared.b64 %p10, [bar], %rd4;
	mbarrier.test_wait.parity.shared.b64 %p11, [bar], 0;
	mbarrier.arrive.release.cta.shared::cta.b64 _, [bar];
	mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p12, [bar], 1, 1000;
	mbarrier.arrive_drop.shared.b64 %rd5, [bar];
	mbarrier.try_wait.parity.shared::cta.b64 %p13, [bar], 0;
	mbarrier.arrive.shared.b64 %rd6, [bar];
	mbarrier.test_wait.parity.shared.b64 %p14, [bar], 1;
	selp.u32 %r3, 1, 0, %p1;
	st.global.u32 [%rd1], %r3;
	selp.u32 %r3, 1, 0, %p2;
	st.global.u32 [%rd1+4], %r3;
	selp.u32 %r3, 1, 0, %p3;
	st.global.u32 [%rd1+8], %r3;
	selp.u32 %r3, 1, 0, %p4;
	st.global.u32 [%rd1+12], %r3;
	selp.u32 %r3, 1, 0, %p5;
	st.global.u32 [%rd1+16], %r3;
	selp.u32 %r3, 1, 0, %p6;
	st.global.u32 [%rd1+20], %r3;
	selp.u32 %r3, 1, 0, %p7;
	st.global.u32 [%rd1+24], %r3;
	selp.u32 %r3, 1, 0, %p8;
	st.global.u32 [%rd1+28], %r3;
	st.global.u32 [%rd1+32], %r1;
	st.global.u32 [%rd1+36], %r2;
	selp.u32 %r3, 1, 0, %p9;
	st.global.u32 [%rd1+40], %r3;
	selp.u32 %r3, 1, 0, %p10;
	st.global.u32 [%rd1+44], %r3;
	selp.u32 %r3, 1, 0, %p11;
	st.global.u32 [%rd1+48], %r3;
	selp.u32 %r3, 1, 0, %p12;
	st.global.u32 [%rd1+52], %r3;
	selp.u32 %r3, 1, 0, %p13;
	st.global.u32 [%rd1+56], %r3;
	selp.u32 %r3, 1, 0, %p14;
	st.global.u32 [%rd1+60], %r3;
	ret;
}
`
	b, _, err := runOut(t, src, "k", 1, 64, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{
		0, // p1: phase 0 runs
		1, // p2: parity 1, the phase before phase 0, counts as complete
		0, // p3: one of two arrivals
		0, // p4: both arrived, 64 bytes outstanding
		0, // p5: 32 bytes outstanding
		1, // p6: the last bytes complete phase 0
		0, // p7: phase 1 runs
		1, // p8: the first arrive's phase completed
		2, // the pending count the first arrive saw (before arriving)
		1, // and the second
		0, // p9: phase 1 has its two arrivals (count 2) but 16 bytes are outstanding
		1, // p10: the bytes complete phase 1, the phase of the count-2 arrive
		0, // p11: phase 2 (parity 0) runs
		1, // p12: parity 1 (phase 1) completed
		1, // p13: arrive_drop completes phase 2: parity 0 is complete, phase 3 runs
		1, // p14: phase 3 expects one arrival (the drop lowered the count): complete
	}
	for i, w := range want {
		if got := u32at(b, i); got != w {
			t.Errorf("result %d: %d, want %d", i, got, w)
		}
	}
}

// What the ISA leaves undefined traps: an arrive beyond the pending count,
// a count of zero, an operation on an object never initialized, an
// arrive.noComplete that completes the phase, a tx-count out of range.
func TestMbarrierUndefinedTraps(t *testing.T) {
	cases := []struct{ body, msg string }{
		{"mbarrier.init.shared.b64 [bar], 1;\n\tmbarrier.expect_tx.shared.b64 [bar], 8;\n\tmbarrier.arrive.shared.b64 %rd2, [bar];\n\tmbarrier.arrive.shared.b64 %rd2, [bar];", "beyond the pending"},
		{"mbarrier.init.shared.b64 [bar], 0;", "count out of range"},
		{"mbarrier.arrive.shared.b64 %rd2, [bar];", "not initialized"},
		{"mbarrier.init.shared.b64 [bar], 2;\n\tmbarrier.arrive.noComplete.shared.b64 %rd2, [bar], 2;", "noComplete"},
		{"mbarrier.init.shared.b64 [bar], 2;\n\tmbarrier.expect_tx.shared.b64 [bar], 1048575;\n\tmbarrier.expect_tx.shared.b64 [bar], 1;", "tx-count"},
		{"mbarrier.init.shared.b64 [bar], 2;\n\tmbarrier.inval.shared.b64 [bar];\n\tmbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;", "not initialized"},
	}
	for _, c := range cases {
		src := `
.visible .entry k(.param .u64 out)
{
	.shared .align 8 .b64 bar;
	.reg .u64 %rd<4>;
	.reg .pred %p<2>;
	` + c.body + `
	ret;
}
`
		_, _, err := runOut(t, src, "k", 1, 8, 0)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want a trap saying %q", c.body, err, c.msg)
		}
	}
}

// A consumer warp that waits on an mbarrier before the producer warp has
// run yields to it (warp 0 waits first, as the scheduler runs warps in
// index order); two round trips through a full and an empty barrier
// deliver the producer's second value. A wait no arrival can end is a
// deadlock trap, not a run to the step limit.
func TestMbarrierProducerConsumer(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.shared .align 8 .b64 full;
	.shared .align 8 .b64 empty;
	.shared .align 4 .b32 data[32];
	.reg .u32 %r<12>;
	.reg .u64 %rd<8>;
	.reg .pred %p<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 31;
	shl.b32 %r3, %r2, 2;
	mov.u32 %r4, data;
	add.u32 %r5, %r4, %r3;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra INITED;
	mbarrier.init.shared.b64 [full], 32;
	mbarrier.init.shared.b64 [empty], 32;
INITED:
	bar.sync 0;
	setp.ge.u32 %p2, %r1, 32;
	@%p2 bra PRODUCER;
	// consumer (warp 0): wait for the first value, hand the slot back,
	// wait for the second, store it
WAIT1:
	mbarrier.try_wait.parity.shared::cta.b64 %p3, [full], 0;
	@!%p3 bra WAIT1;
	ld.shared.u32 %r6, [%r5];
	mbarrier.arrive.shared.b64 _, [empty];
WAIT2:
	mbarrier.try_wait.parity.shared::cta.b64 %p4, [full], 1;
	@!%p4 bra WAIT2;
	ld.shared.u32 %r7, [%r5];
	mul.wide.u32 %rd2, %r2, 8;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r6, %r7};
	ret;
PRODUCER:
	add.u32 %r8, %r2, 100;
	st.shared.u32 [%r5], %r8;
	mbarrier.arrive.shared.b64 _, [full];
WAIT3:
	mbarrier.test_wait.parity.shared.b64 %p5, [empty], 0;
	@!%p5 bra WAIT3;
	add.u32 %r9, %r2, 200;
	st.shared.u32 [%r5], %r9;
	mbarrier.arrive.shared.b64 _, [full];
	ret;
}
`
	b, _, err := runOut(t, src, "k", 64, 32*8, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 32; i++ {
		if a, c := u32at(b, 2*i), u32at(b, 2*i+1); a != uint32(100+i) || c != uint32(200+i) {
			t.Errorf("lane %d: %d, %d, want %d, %d", i, a, c, 100+i, 200+i)
		}
	}
	// the producer never hands over the second value: the consumer
	// waits forever
	dead := strings.Replace(src, "add.u32 %r9, %r2, 200;\n\tst.shared.u32 [%r5], %r9;\n\tmbarrier.arrive.shared.b64 _, [full];", "", 1)
	if _, _, err := runOut(t, dead, "k", 64, 32*8, 0); err == nil || !strings.Contains(err.Error(), "mbarrier deadlock") {
		t.Errorf("a wait no arrival ends: %v, want an mbarrier deadlock trap", err)
	}
}

// cp.async.bulk.tensor in tile mode, with the simulator's tensor map:
// the box at the coordinates comes into shared memory with the elements
// outside the tensor zero, and its bytes complete the mbarrier's
// transaction; a store writes back only the elements inside the tensor.
// A linear cp.async.bulk copies and completes its bytes too.
func TestBulkTensorCopy(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out, .param .align 64 .b8 tmap[128], .param .u64 lin)
{
	.shared .align 8 .b64 bar;
	.shared .align 128 .b8 box[64];
	.shared .align 128 .b8 lbox[64];
	.reg .u32 %r<12>;
	.reg .u64 %rd<12>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd7, [lin];
	mov.b64 %rd2, tmap;
	cvta.param.u64 %rd3, %rd2;
	prefetch.tensormap [%rd3];
	mov.u32 %r1, %tid.x;
	// garbage in the box first: the copy's zero fill must overwrite it
	setp.lt.u32 %p3, %r1, 16;
	shl.b32 %r8, %r1, 2;
	mov.u32 %r9, box;
	add.u32 %r10, %r9, %r8;
	@%p3 st.shared.u32 [%r10], -1;
	bar.warp.sync -1;
	elect.sync %r2|%p1, -1;
	@!%p1 bra JOIN;
	mbarrier.init.shared.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	mov.u32 %r3, 4;
	mov.u32 %r4, 3;
	mov.u32 %r5, box;
	mov.u32 %r6, bar;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd3, {%r3, %r4}], [%r6];
	mov.u32 %r7, lbox;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r7], [%rd7], 32, [%r6];
	mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [bar], 96;
JOIN:
	bar.warp.sync -1;
WAIT:
	mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p2, [bar], 0, 10000;
	@!%p2 bra WAIT;
	fence.proxy.async.shared::cta;
	setp.ge.u32 %p3, %r1, 16;
	@%p3 bra STORE;
	shl.b32 %r8, %r1, 2;
	mov.u32 %r9, box;
	add.u32 %r10, %r9, %r8;
	ld.shared.u32 %r11, [%r10];
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	st.global.u32 [%rd5], %r11;
	mov.u32 %r9, lbox;
	add.u32 %r10, %r9, %r8;
	ld.shared.u32 %r11, [%r10];
	st.global.u32 [%rd5+64], %r11;
STORE:
	setp.ne.u32 %p3, %r1, 0;
	@%p3 bra END;
	mov.u32 %r3, 3;
	mov.u32 %r4, 2;
	cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd3, {%r3, %r4}], [box];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group.read 0;
END:
	ret;
}
`
	f := parseKernel(t, ptxHeader+src, "k")
	mem := sim.NewMemory()
	out := mem.Alloc(32 * 4)
	// a 6 x 5 tensor of u32 (value 100*y + x), rows 32 bytes apart
	tens := mem.Alloc(5 * 32)
	tb := mem.Bytes(tens)
	for y := 0; y < 5; y++ {
		for x := 0; x < 6; x++ {
			binary.LittleEndian.PutUint32(tb[y*32+4*x:], uint32(100*y+x))
		}
	}
	lin := mem.Alloc(32)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(mem.Bytes(lin)[4*i:], uint32(7000+i))
	}
	tm := sim.TensorMap{Rank: 2, ElemSize: 4, Addr: tens, Dims: [5]uint32{6, 5}, Box: [5]uint32{4, 4}, Strides: [4]uint64{32}}
	p0, p2 := make([]byte, 8), make([]byte, 8)
	binary.LittleEndian.PutUint64(p0, out)
	binary.LittleEndian.PutUint64(p2, lin)
	l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{32, 1, 1}, Params: [][]byte{p0, tm.Encode(), p2}}
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		t.Fatal(err)
	}
	b := mem.Bytes(out)
	// box element (i, j) is tensor (4+i, 3+j): inside for x < 6, y < 5
	for j := 0; j < 4; j++ {
		for i := 0; i < 4; i++ {
			want := uint32(0)
			if 4+i < 6 && 3+j < 5 {
				want = uint32(100*(3+j) + 4 + i)
			}
			if got := u32at(b, 4*j+i); got != want {
				t.Errorf("box (%d, %d): %d, want %d", i, j, got, want)
			}
		}
	}
	for i := 0; i < 16; i++ {
		want := uint32(7000 + i)
		if i >= 8 {
			want = 0 // past the 32 bytes copied
		}
		if got := u32at(b, 16+i); got != want {
			t.Errorf("linear copy word %d: %d, want %d", i, got, want)
		}
	}
	// the store of the box at (3, 2): box (i, j) -> tensor (3+i, 2+j),
	// the elements with x >= 6 or y >= 5 skipped
	boxVal := func(i, j int) uint32 {
		if 4+i < 6 && 3+j < 5 {
			return uint32(100*(3+j) + 4 + i)
		}
		return 0
	}
	for y := 0; y < 5; y++ {
		for x := 0; x < 6; x++ {
			want := uint32(100*y + x)
			if i, j := x-3, y-2; i >= 0 && i < 4 && j >= 0 && j < 4 {
				want = boxVal(i, j)
			}
			if got := binary.LittleEndian.Uint32(tb[y*32+4*x:]); got != want {
				t.Errorf("tensor (%d, %d) after the store: %d, want %d", x, y, got, want)
			}
		}
	}
	// a map not in the simulator's format is refused by a trap
	l.Params[1] = make([]byte, 128)
	if _, err := sim.RunFunc(f, l, sim.NewMemory()); err == nil || !strings.Contains(err.Error(), "tensor map not in the simulator's format") {
		t.Errorf("a zeroed tensor map: %v, want a trap", err)
	}
}

// The input maker writes a tensor map in the simulator's format into a
// kernel's tensor-map parameter (one a cp.async.bulk.tensor names through
// cvta.param), with a box of the bytes the kernel's expect_tx announces
// on the copy's barrier: the phase completes and the kernel runs to the
// end. Without the map every run traps at the copy; with a box of other
// bytes the wait never ends.
func TestTensorMapInput(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out, .param .u32 n, .param .align 64 .b8 tmA[128], .param .align 64 .b8 tmB[128])
{
	.shared .align 8 .b64 bars[2];
	.shared .align 128 .b8 sm[12288];
	.reg .u32 %r<16>;
	.reg .u64 %rd<12>;
	.reg .pred %p<6>;
	ld.param.u64 %rd1, [out];
	mov.b64 %rd2, tmA;
	mov.b64 %rd3, tmB;
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra JOIN;
	mbarrier.init.shared.b64 [bars], 1;
	mbarrier.init.shared.b64 [bars+8], 1;
	cvta.param.u64 %rd4, %rd2;
	cvta.param.u64 %rd5, %rd3;
	mov.u32 %r2, sm;
	mov.u32 %r3, bars;
	add.u32 %r4, %r3, 8;
	mov.u32 %r5, 0;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd4, {%r5, %r5}], [%r3];
	mov.b32 %r6, 8192;
	mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r3], %r6;
	add.u32 %r7, %r2, 8192;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%r7], [%rd5, {%r5, %r5}], [%r4];
	mov.b32 %r8, 4096;
	mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r4], %r8;
JOIN:
	bar.sync 0;
W1:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bars], 0;
	@!%p2 bra W1;
W2:
	mbarrier.try_wait.parity.shared::cta.b64 %p3, [bars+8], 0;
	@!%p3 bra W2;
	shl.b32 %r9, %r1, 2;
	mov.u32 %r10, sm;
	add.u32 %r11, %r10, %r9;
	ld.shared.u32 %r12, [%r11];
	ld.shared.u32 %r13, [%r11+8192];
	add.u32 %r14, %r12, %r13;
	mul.wide.u32 %rd6, %r1, 4;
	add.s64 %rd7, %rd1, %rd6;
	st.global.u32 [%rd7], %r14;
	ret;
}
`
	f := parseKernel(t, ptxHeader+src, "k")
	for seed := int64(0); seed < 6; seed++ {
		in := sim.MakeInput(f, seed, 1<<20)
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for k, want := range map[int]int{2: 8192, 3: 4096} {
			b := in.Launch.Params[k]
			bytes := int(b[5])
			for d := 0; d < int(b[4]); d++ {
				bytes *= int(binary.LittleEndian.Uint32(b[36+4*d:]))
			}
			if binary.LittleEndian.Uint32(b) != 0x54585450 || bytes != want {
				t.Errorf("seed %d: parameter %d: box of %d bytes (magic %#x), want %d", seed, k, bytes, binary.LittleEndian.Uint32(b), want)
			}
		}
	}
}

// A kernel with tensor-map parameters is not exported to a GPU: the
// simulator's maps mean nothing to a device.
func TestTensorMapNotExported(t *testing.T) {
	f := parseKernel(t, ptxHeader+featureKernel(t, "mbars"), "mbars")
	if _, _, err := sim.ExportGPU(f, 0, sim.DiffOptions{}); err == nil || !strings.Contains(err.Error(), "tensor maps") {
		t.Fatalf("export: %v, want a refusal naming the tensor maps", err)
	}
}

func featureKernel(t *testing.T, name string) string {
	for _, k := range featureKernels {
		if k.name == name {
			return k.src
		}
	}
	t.Fatalf("no feature kernel %s", name)
	return ""
}
