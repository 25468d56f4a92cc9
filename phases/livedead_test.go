package phases

import (
	"context"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

const dceKernel = `
.visible .entry k(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	add.u32 %r3, %r2, 7;        // feeds only %r4: dead chain
	mul.lo.u32 %r4, %r3, %r3;   // dead
	ld.global.u32 %r5, [%rd1];  // dead load: removed (a fault would be undefined behaviour)
	ld.volatile.global.u32 %r13, [%rd1]; // dead volatile load: kept
	add.cc.u32 %r6, %r1, 1;     // carry chain: kept
	addc.u32 %r7, %r1, 0;
	shfl.sync.idx.b32 %r8, %r2, 0, 31, -1; // convergent: kept although dead
	mov.u32 %r9, %clock;        // volatile read: kept
	setp.lt.u32 %p1, %r2, %r1;
	@%p1 mov.u32 %r10, 5;       // guarded and dead: removed
	@%p1 bra $L__skip;
	add.u32 %r11, %r2, %r1;     // used after the join
	sub.u32 %r12, %r2, 1;       // dead in this block, its operand stays live
$L__skip:
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r7;
	st.global.u32 [%rd2+4], %r11;
	ret;
}
`

func TestOriPerformLiveDead(t *testing.T) {
	before, after, body, stats := runPass(t, dceKernel, "k", "OriPerformLiveDead")
	for _, gone := range []string{"add.u32 %r3", "mul.lo.u32 %r4", "mov.u32 %r10", "sub.u32 %r12", "ld.global.u32 %r5"} {
		if strings.Contains(body, gone) {
			t.Errorf("%s survived:\n%s", gone, body)
		}
	}
	for _, kept := range []string{"ld.volatile.global.u32 %r13", "add.cc.u32 %r6", "addc.u32 %r7", "shfl.sync", "mov.u32 %r9, %clock", "add.u32 %r11", "st.global.u32"} {
		if !strings.Contains(body, kept) {
			t.Errorf("%s was removed:\n%s", kept, body)
		}
	}
	if n := phaseCounter(stats, "OriPerformLiveDead", "instructions removed"); n != 5 {
		t.Errorf("counted %d removals, want 5", n)
	}
	simtest.CheckEquivalent(t, before, after, 8)
}

func TestEarlySimpleLiveDead(t *testing.T) {
	// Without global liveness the early sweep still removes registers that
	// nothing reads anywhere, chains included, but not %r12's operand.
	_, _, body, stats := runPass(t, dceKernel, "k", "EarlyOriSimpleLiveDead")
	for _, gone := range []string{"add.u32 %r3", "mul.lo.u32 %r4", "mov.u32 %r10", "sub.u32 %r12", "ld.global.u32 %r5"} {
		if strings.Contains(body, gone) {
			t.Errorf("%s survived:\n%s", gone, body)
		}
	}
	if !strings.Contains(body, "ld.volatile.global.u32 %r13") || !strings.Contains(body, "shfl.sync") {
		t.Errorf("a kept instruction went:\n%s", body)
	}
	if n := phaseCounter(stats, "EarlyOriSimpleLiveDead", "instructions removed"); n != 5 {
		t.Errorf("counted %d removals, want 5", n)
	}
}

// A value that is live only on a loop's back edge into a block with a
// dead use: the global sweep needs liveness across blocks.
func TestLiveDeadAcrossBlocks(t *testing.T) {
	src := `
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	add.u32 %r2, %r1, 3;      // used only by the dead %r3 in the next block
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $L__a;
	mov.u32 %r4, 1;
	bra.uni $L__b;
$L__a:
	mul.lo.u32 %r3, %r2, 2;   // dead
	mov.u32 %r4, 2;
$L__b:
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r4;
	ret;
}
`
	before, after, body, _ := runPass(t, src, "k", "OriPerformLiveDeadFirst")
	if strings.Contains(body, "add.u32 %r2") || strings.Contains(body, "mul.lo.u32 %r3") {
		t.Errorf("dead values across blocks survived:\n%s", body)
	}
	simtest.CheckEquivalent(t, before, after, 8)
}

// The .reg return register of a device function is read by the caller:
// its definition must stay.
func TestLiveDeadKeepsReturnRegisters(t *testing.T) {
	src := `
.func (.reg .b32 rv) f(.reg .b32 a)
{
	.reg .b32 %t<3>;
	add.u32 %t1, a, 1;
	mul.lo.u32 rv, %t1, 3;
	add.u32 %t2, a, 9;   // dead
	ret;
}
`
	for _, phase := range []string{"OriPerformLiveDead", "EarlyOriSimpleLiveDead"} {
		_, _, body, _ := runPass(t, src, "f", phase)
		if !strings.Contains(body, "mul.lo.u32 rv") || !strings.Contains(body, "add.u32 %t1") {
			t.Errorf("%s removed the return value's computation:\n%s", phase, body)
		}
		if strings.Contains(body, "add.u32 %t2") {
			t.Errorf("%s kept a dead instruction:\n%s", phase, body)
		}
	}
}

// refLiveDead is the reference the incremental DCE must agree with:
// sweeps, each over a fresh whole-function liveness, until one deletes
// nothing.
func refLiveDead(f *ir.Func) int64 {
	total := int64(0)
	for {
		d := NewScratch().deadState(f, nil)
		n := d.sweep(f, core.ComputeLiveness(f, core.LiveOptions{}))
		if n == 0 {
			return total
		}
		total += n
	}
}

// The one-sweep-plus-cascade DCE deletes exactly what sweeps to a fixed
// point delete, on generated kernels (copies, dead chains across blocks,
// loops): with the cascade's walks, with walks on a budget so small that
// many go over it halfway, and with every seed's register taken by the
// whole-range analysis instead (wholeRangeOnly);
// and each way, the cascade itself must have deleted something at least
// once (else the test proves nothing).
func TestLiveDeadMatchesRepeatedSweeps(t *testing.T) {
	var funcs []*ir.Func
	for seed := int64(1); seed <= 60; seed++ {
		m := gen.Kernel(gen.Config{Seed: seed, Size: 150 + int(seed)*20})
		funcs = append(funcs, gen.Func(m))
	}
	t.Parallel()
	for mode, whole := range []bool{false, false, true} {
		h := &testHooks{wholeRangeOnly: whole}
		if mode >= 1 {
			// Walks that run out of the budget halfway and hand over
			// to the whole-range analysis (mode 2 takes that analysis
			// from the start).
			h.minScan = 40
		}
		cascaded := 0
		for k, f := range funcs {
			// Make dead code with cross-block chains: GeneralOptimize first,
			// as the pipeline does.
			a, b := f.Clone(), f.Clone()
			c := mustConfig(t, 3, nil, []string{"GeneralOptimizeEarly"})
			if _, err := Run(context.Background(), c, nil, a, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := Run(context.Background(), c, nil, b, nil); err != nil {
				t.Fatal(err)
			}
			want := refLiveDead(a)
			sc := NewScratch()
			p := &Pass{F: b, A: NewAnalyses(b), Scratch: sc, stat: &PhaseStat{}}
			d := sc.deadState(b, h)
			if k%2 == 1 {
				// The stamps wrap during this sweep (nextStamp): entries
				// left with the stamps that follow the wrap, all live and
				// pending, must not read as current.
				for r := range d.state {
					d.state[r] = 3<<2 | 3
				}
				for x := range d.seen {
					d.seen[x], d.inMark[x], d.outMark[x] = 3, 3, 3
				}
				d.stamp = stampLimit - 2
			}
			l := p.A.Liveness()
			got := d.sweep(b, l)
			if got > 0 {
				d.a = p.A
				more := d.cascade(b, l)
				if more > 0 {
					cascaded++
				}
				got += more
			}
			if got != want {
				t.Fatalf("mode %d: %s: incremental DCE removed %d, sweeps to a fixed point %d", mode, f.Name, got, want)
			}
			if fa, fb := fingerprint(a), fingerprint(b); fa != fb {
				t.Fatalf("mode %d: %s: same count, different functions", mode, f.Name)
			}
		}
		if cascaded == 0 {
			t.Fatalf("mode %d: the cascade never deleted anything: the test does not exercise it", mode)
		}
		t.Logf("mode %d: %d of %d kernels needed the cascade", mode, cascaded, len(funcs))
	}
}

// The live/dead sweeps keep the cache's def-use chains and liveness valid
// across their deletions (keepAnalyses): in check mode the driver
// recomputes every analysis still cached after each phase and compares,
// so a sweep whose updated liveness or chains differ from a fresh
// computation fails the run (the liveness's deferred update included,
// with the chains it then asks for). Generated kernels with PHIs (the
// sweeps after IntoSSA) and without; the test fails unless, on each
// budget, some sweep deleted instructions and kept the liveness, some
// kept the chains too (those it found cached or built for the
// whole-range analysis), some did it all by walks (whose liveness
// update is passed only the registers the walks saw stop being live
// into a block), and, where the whole-range analysis ran, some left out
// of the update registers it found still live wherever they were
// (wholeShrank).
func TestLiveDeadKeepsAnalyses(t *testing.T) {
	t.Parallel()
	// The cascade's walks within the default budget (the small kernels'
	// first and third sweeps run out and finish the whole-range way),
	// then on a budget no walk runs out of, then the whole-range
	// analysis for every register.
	for mode, budget := range []int{minScan, 1 << 30, minScan} {
		h := &testHooks{minScan: budget, wholeRangeOnly: mode == 2}
		kept, keptDU, walked, spared := 0, 0, 0, 0
		for seed := int64(1); seed <= 24; seed++ {
			f := gen.Func(gen.Kernel(gen.Config{Seed: seed, Size: 400 + int(seed)*60, Pool: int(seed % 3 * 16)}))
			target, _ := ParseTarget("sm_80")
			c, err := NewConfig(MaxOpt, target, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.Verify = true
			c.hooks = h
			ld := func(p *Pass) bool {
				ch := liveDead(p)
				if ch && p.A.Valid()&ALiveness != 0 {
					kept++
					if p.A.Valid()&ADefUse != 0 {
						keptDU++
					}
					if !p.Scratch.dead.whole {
						walked++
					}
					spared += p.Scratch.dead.spared
				}
				return ch
			}
			for _, name := range []string{"OriPerformLiveDeadFirst", "OriPerformLiveDeadSecond", "OriPerformLiveDeadThird", "OriPerformLiveDeadFourth"} {
				if err := c.Override(name, ld); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Run(context.Background(), c, nil, f, nil); err != nil {
				t.Fatalf("mode %d: seed %d: %v", mode, seed, err)
			}
		}
		if kept == 0 || keptDU == 0 || (walked == 0) != (mode == 2) || (spared == 0) != (mode == 1) {
			t.Fatalf("mode %d: %d sweeps deleted instructions and kept the liveness, %d the chains too, %d by walks alone, %d registers left out of the update by the whole-range analysis: the test exercises too little", mode, kept, keptDU, walked, spared)
		}
		t.Logf("mode %d: %d sweeps kept the liveness across deletions, %d the chains too, %d by walks alone; the whole-range analysis left %d registers out of the update", mode, kept, keptDU, walked, spared)
	}
}
