package sim_test

import (
	"strings"
	"testing"
)

// bar.red over a CTA of 70 threads (three warps, the last partial):
// popc counts the threads whose predicate holds, and/or reduce it, every
// thread gets the result; a negated predicate operand is negated.
func TestBarRed(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<12>;
	.reg .u64 %rd<4>;
	.reg .pred %p<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	rem.u32 %r2, %r1, 3;
	setp.eq.u32 %p1, %r2, 0;          // 24 of 70 threads
	setp.lt.u32 %p2, %r1, 100;        // all
	setp.eq.u32 %p3, %r1, 69;         // the last thread only
	bar.red.popc.u32 %r3, 0, %p1;
	bar.red.popc.u32 %r4, 1, !%p1;
	bar.red.and.pred %p4, 2, %p2;
	bar.red.and.pred %p5, 3, %p1;
	bar.red.or.pred %p6, 4, %p3;
	bar.red.or.pred %p7, 5, !%p2;
	selp.u32 %r5, 1, 0, %p4;
	selp.u32 %r6, 1, 0, %p5;
	selp.u32 %r7, 1, 0, %p6;
	selp.u32 %r8, 1, 0, %p7;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r3, %r4};
	st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};
	ret;
}
`
	b, _, err := runOut(t, src, "k", 70, 70*32, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{24, 46, 0, 0, 1, 0, 1, 0}
	for i := 0; i < 70; i++ {
		for j, w := range want {
			if j == 2 || j == 3 {
				continue
			}
			if got := u32at(b, 8*i+j); got != w {
				t.Errorf("thread %d result %d: %d, want %d", i, j, got, w)
			}
		}
	}
	// only the threads that execute it take part: the odd threads skip
	// the reduction, the even ones count 35
	s := strings.Replace(src, "bar.red.popc.u32 %r3, 0, %p1;", "and.b32 %r9, %r1, 1;\n\tsetp.eq.u32 %p1, %r9, 0;\n\t@%p1 bar.red.popc.u32 %r3, 0, %p2;", 1)
	b, _, err = runOut(t, s, "k", 70, 70*32, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := u32at(b, 0); got != 35 {
		t.Errorf("guarded bar.red.popc: %d, want 35", got)
	}
}

// The ZLUDA test of bar.red.and/or.pred: every thread computes 2.
func TestBarRedZLUDA(t *testing.T) {
	const src = `
.visible .entry bar_red_and_pred(.param .u64 output)
{
	.reg .u64 out_addr;
	.reg .u64 out_index;
	.reg .u32 thread_id;
	.reg .u32 thread_mod_2;
	.reg .pred pred;
	.reg .pred cond;
	.reg .u32 result;
	ld.param.u64 out_addr, [output];
	mov.u32 thread_id, %tid.x;
	rem.u32 thread_mod_2, thread_id, 2;
	setp.eq.u32 cond, thread_mod_2, 0;
	mov.u32 result, 0;
	bar.red.and.pred pred, 1, cond;
	@pred add.u32 result, result, 1;
	bar.red.or.pred pred, 1, cond;
	@pred add.u32 result, result, 1;
	setp.eq.u32 cond, 1, 1;
	bar.red.and.pred pred, 1, cond;
	@pred add.u32 result, result, 1;
	setp.eq.u32 cond, 1, 0;
	bar.red.or.pred pred, 1, cond;
	@pred add.u32 result, result, 1;
	setp.eq.u32 cond, 1, 1;
	bar.red.and.pred pred, 1, !cond;
	@pred add.u32 result, result, 1;
	cvt.u64.u32 out_index, thread_id;
	mul.lo.u64 out_index, out_index, 4;
	add.u64 out_addr, out_addr, out_index;
	st.u32 [out_addr], result;
	ret;
}
`
	b, _, err := runOut(t, src, "bar_red_and_pred", 64, 256, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if got := u32at(b, i); got != 2 {
			t.Fatalf("thread %d: %d, want 2", i, got)
		}
	}
}

// Barriers with a thread count complete when that many threads arrived;
// bar.arrive does not wait (the arriving warp runs on in the same round
// of the scheduler, before the waiting warps resume); warps waiting at
// barriers that cannot complete trap.
func TestBarArriveAndCounts(t *testing.T) {
	// warp 0 waits at barrier 1 (64 threads); warp 1 arrives there and
	// then writes shared x: warp 0 reads it after the barrier.
	const src = `
.visible .entry k(.param .u64 out)
{
	.shared .align 4 .u32 x;
	.reg .u32 %r<4>;
	.reg .u64 %rd<2>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra CONSUMER;
	bar.arrive 1, 64;
	st.shared.u32 [x], 77;
	ret;
CONSUMER:
	bar.sync 1, 64;
	ld.shared.u32 %r2, [x];
	st.global.u32 [%rd1], %r2;
	ret;
}
`
	b, _, err := runOut(t, src, "k", 64, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := u32at(b, 0); got != 77 {
		t.Errorf("consumer read %d after the barrier, want 77 (bar.arrive waited?)", got)
	}
	// a partial last warp (8 threads) counts as 32 arrivals
	b, _, err = runOut(t, src, "k", 40, 4, 0)
	if err != nil || u32at(b, 0) != 77 {
		t.Errorf("40 threads: %v, read %d; want 77", err, u32at(b, 0))
	}
	// a barrier with a count of 32 completes for each warp alone; one of
	// 64 completes in phases of two warps (a reduction sees one phase)
	const phases = `
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<4>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	shr.u32 %r3, %r1, 5;
	setp.lt.u32 %p1, %r1, 1000;
	bar.red.popc.u32 %r2, 1, 32, %p1;
	bar.red.popc.u32 %r2, 2, 64, %p1;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
`
	b, _, err = runOut(t, phases, "k", 128, 16, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if got := u32at(b, i); got != 64 {
			t.Errorf("warp %d: barrier 2 (64 threads) counted %d, want 64", i, got)
		}
	}
	deadlock := strings.Replace(src, "bar.arrive 1, 64;", "bar.sync 0;", 1)
	deadlock = strings.Replace(deadlock, "bar.sync 1, 64;", "bar.sync 1;", 1)
	if _, _, err := runOut(t, deadlock, "k", 64, 4, 0); err == nil || !strings.Contains(err.Error(), "barrier deadlock") {
		t.Errorf("warps at barriers 0 and 1: %v, want a barrier deadlock", err)
	}
	// a warp that exited does not hold back a barrier without a count
	exited := strings.Replace(src, "bar.arrive 1, 64;", "", 1)
	exited = strings.Replace(exited, "bar.sync 1, 64;", "bar.sync 0;", 1)
	if _, _, err := runOut(t, exited, "k", 64, 4, 0); err != nil {
		t.Errorf("barrier after the other warp exited: %v", err)
	}
}
