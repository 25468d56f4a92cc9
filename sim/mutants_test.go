package sim_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim"
)

// featureKernels exercise the simulator's models that generated kernels
// do not reach (extern functions, malloc/free, vprintf, calls with many
// arguments, indirect calls, bar.red, bar.arrive, textures, surfaces,
// ldmatrix, mma),
// on inputs the input maker draws, for the mutation test.
var featureKernels = []struct{ name, src string }{
	{"ext", `
.extern .func (.param .b32 func_retval0) __nv_expf (.param .b32 x);
.extern .func (.param .b64 func_retval0) malloc (.param .b64 size);
.extern .func free (.param .b64 p);
.extern .func (.param .b32 func_retval0) vprintf (.param .b64 format, .param .b64 args);
.global .align 1 .b8 fmtstr[8] = {37, 100, 32, 37, 102, 10, 0, 0};
.visible .entry ext(.param .u64 xs, .param .u64 out, .param .u32 n)
{
	.local .align 8 .b8 buf[16];
	.reg .u32 %r<16>;
	.reg .f32 %f<8>;
	.reg .f64 %fd<4>;
	.reg .u64 %rd<20>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [xs];
	ld.param.u64 %rd2, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f32 %f1, [%rd4];
	ld.global.u32 %r12, [%rd4+4096];
	{
	.param .b32 param0;
	st.param.f32 [param0], %f1;
	.param .b32 retval0;
	call.uni (retval0), __nv_expf, (param0);
	ld.param.f32 %f2, [retval0];
	}
	sub.f32 %f3, %f2, %f1;
	rem.u32 %r3, %r12, 5;
	call (%r4, %r5), _optix_pair, (%r3, %r1);
	sub.u32 %r6, %r4, %r5;
	setp.lt.u32 %p1, %r3, 2;
	@%p1 call _optix_set_payload_0, (%r6, %r3);
	{
	.param .b64 param0;
	st.param.b64 [param0], 32;
	.param .b64 retval0;
	call.uni (retval0), malloc, (param0);
	ld.param.b64 %rd5, [retval0];
	}
	st.u32 [%rd5], %r6;
	st.u32 [%rd5+4], %r3;
	ld.u32 %r7, [%rd5];
	ld.u32 %r8, [%rd5+4];
	shl.b32 %r9, %r8, 3;
	xor.b32 %r10, %r7, %r9;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd5;
	call.uni free, (param0);
	}
	and.b32 %r11, %r12, 3;
	setp.ne.u32 %p2, %r11, 0;
	@%p2 bra SKIP;
	st.local.u32 [buf], %r12;
	cvt.f64.f32 %fd1, %f1;
	st.local.f64 [buf+8], %fd1;
	mov.u64 %rd6, buf;
	cvta.local.u64 %rd7, %rd6;
	mov.u64 %rd8, fmtstr;
	cvta.global.u64 %rd9, %rd8;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd9;
	.param .b64 param1;
	st.param.b64 [param1], %rd7;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	}
SKIP:
	mul.wide.u32 %rd10, %r2, 8;
	add.s64 %rd11, %rd2, %rd10;
	st.global.f32 [%rd11], %f3;
	st.global.u32 [%rd11+4], %r10;
	ret;
}
`},
	{"calls", `
.func (.param .b32 s, .param .b32 d, .param .b32 e) mix6 (.param .b32 a0, .param .b32 a1, .param .b32 a2, .param .b32 a3, .param .b32 a4, .param .b32 a5)
{
	.reg .u32 %r<12>;
	ld.param.u32 %r0, [a0];
	ld.param.u32 %r1, [a1];
	ld.param.u32 %r2, [a2];
	ld.param.u32 %r3, [a3];
	ld.param.u32 %r4, [a4];
	ld.param.u32 %r5, [a5];
	sub.u32 %r6, %r0, %r1;
	shl.b32 %r7, %r2, 2;
	xor.b32 %r8, %r3, %r7;
	sub.u32 %r9, %r4, %r5;
	st.param.u32 [s], %r6;
	st.param.u32 [d], %r8;
	st.param.u32 [e], %r9;
	ret;
}
.func (.param .b32 r) inc (.param .b32 x)
{
	.reg .u32 %r<3>;
	ld.param.u32 %r1, [x];
	add.u32 %r2, %r1, 3;
	st.param.u32 [r], %r2;
	ret;
}
.func (.param .b32 r) dbl (.param .b32 x)
{
	.reg .u32 %r<3>;
	ld.param.u32 %r1, [x];
	shl.b32 %r2, %r1, 1;
	st.param.u32 [r], %r2;
	ret;
}
.global .align 8 .u64 ftab[2] = {inc, dbl};
.visible .entry calls(.param .u64 in, .param .u64 out)
{
	.reg .u32 %r<16>;
	.reg .u64 %rd<12>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];
	{
	.param .b32 p0; .param .b32 p1; .param .b32 p2; .param .b32 p3; .param .b32 p4; .param .b32 p5;
	.param .b32 q0; .param .b32 q1; .param .b32 q2;
	st.param.b32 [p0], %r2;
	st.param.b32 [p1], %r3;
	st.param.b32 [p2], %r4;
	st.param.b32 [p3], %r5;
	st.param.b32 [p4], %r1;
	st.param.b32 [p5], 7;
	call.uni (q0, q1, q2), mix6, (p0, p1, p2, p3, p4, p5);
	ld.param.b32 %r6, [q0];
	ld.param.b32 %r7, [q1];
	ld.param.b32 %r8, [q2];
	}
	and.b32 %r9, %r2, 1;
	mul.wide.u32 %rd5, %r9, 8;
	mov.u64 %rd6, ftab;
	add.s64 %rd7, %rd6, %rd5;
	ld.global.u64 %rd8, [%rd7];
	{
	.param .b32 x0;
	.param .b32 y0;
	st.param.b32 [x0], %r6;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (y0), %rd8, (x0), proto;
	ld.param.b32 %r10, [y0];
	}
	add.s64 %rd9, %rd2, %rd3;
	st.global.v4.u32 [%rd9], {%r10, %r7, %r8, %r6};
	ret;
}
`},
	{"bars", `
.visible .entry bars(.param .u64 in, .param .u64 out)
{
	.shared .align 4 .u32 sh[1024];
	.reg .u32 %r<40>;
	.reg .u64 %rd<12>;
	.reg .pred %p<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ntid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r3, [%rd4];
	and.b32 %r4, %r3, 7;
	setp.lt.u32 %p1, %r4, 3;
	ld.global.u32 %r30, [%rd1];
	and.b32 %r31, %r30, 127;
	setp.ne.u32 %p2, %r1, %r31;          // false for one thread if %r31 < %ntid.x
	setp.eq.u32 %p6, %r1, %r31;
	bar.red.popc.u32 %r5, 0, %p1;
	bar.red.and.pred %p3, 1, %p2;
	bar.red.or.pred %p4, 2, %p6;
	selp.u32 %r6, 1, 0, %p3;
	selp.u32 %r7, 1, 0, %p4;
	mov.u32 %r8, sh;
	shl.b32 %r9, %r1, 2;
	add.u32 %r10, %r8, %r9;
	add.u32 %r11, %r2, 31;
	and.b32 %r12, %r11, -32;
	setp.lt.u32 %p5, %r1, 32;
	@%p5 bra CONSUMER;
	add.u32 %r13, %r3, %r1;
	st.shared.u32 [%r10], %r13;
	bar.arrive 4, %r12;
	mov.u32 %r14, 0;
	bra.uni DONE;
CONSUMER:
	st.shared.u32 [%r10], %r3;
	bar.sync 4, %r12;
	add.u32 %r15, %r1, 32;
	rem.u32 %r16, %r15, %r2;
	shl.b32 %r17, %r16, 2;
	add.u32 %r18, %r8, %r17;
	ld.shared.u32 %r14, [%r18];
DONE:
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd2, %rd5;
	st.global.v4.u32 [%rd6], {%r5, %r6, %r7, %r14};
	ret;
}
`},
	{"texs", `
.global .texref img;
.global .surfref surf;
.visible .entry texs(.param .u64 in, .param .u64 out)
{
	.reg .u32 %r<24>;
	.reg .f32 %f<24>;
	.reg .u64 %rd<12>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f32 %f1, [%rd4];
	ld.global.f32 %f2, [%rd4+4];
	abs.f32 %f3, %f1;
	abs.f32 %f4, %f2;
	tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [img, {%f3, %f4}];
	tld4.r.2d.v4.f32.f32 {%f9, %f10, %f11, %f12}, [img, {%f3, %f4}];
	cvt.rzi.u32.f32 %r2, %f3;
	and.b32 %r3, %r1, 3;
	tex.a2d.v4.s32.s32 {%r4, %r5, %r6, %r7}, [img, {%r3, %r2, 2, 0}];
	shl.b32 %r8, %r1, 2;
	and.b32 %r9, %r2, 15;
	sust.b.2d.b32.clamp [surf, {%r8, %r9}], %r5;
	suld.b.2d.b32.clamp %r10, [surf, {%r8, %r9}];
	add.u32 %r11, %r8, 4;
	suld.b.2d.b32.clamp %r12, [surf, {%r11, %r9}];
	add.f32 %f13, %f5, %f10;
	sub.f32 %f14, %f6, %f12;
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd2, %rd5;
	st.global.v4.f32 [%rd6], {%f13, %f14, %f7, %f8};
	add.u32 %r13, %r10, %r4;
	xor.b32 %r14, %r12, %r6;
	st.global.v2.u32 [%rd6+8], {%r13, %r14};
	ret;
}
`},
	{"mats", `
.visible .entry mats(.param .u64 in, .param .u64 out)
.reqntid 32, 1, 1
{
	.shared .align 16 .b8 sm[1024];
	.reg .u32 %r<40>;
	.reg .f32 %f<12>;
	.reg .u64 %rd<12>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 32;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];
	ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+16];
	mov.u32 %r6, sm;
	shl.b32 %r7, %r1, 4;
	add.u32 %r8, %r6, %r7;
	st.shared.v4.u32 [%r8], {%r2, %r3, %r4, %r5};
	bar.warp.sync -1;
	shr.u32 %r9, %r1, 3;
	and.b32 %r10, %r1, 7;
	shl.b32 %r11, %r9, 7;
	shl.b32 %r12, %r10, 4;
	add.u32 %r13, %r11, %r12;
	add.u32 %r14, %r6, %r13;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r14];
	ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r24, %r25}, [%r14];
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f5, %f6, %f7, %f8}, {%r20, %r21, %r22, %r23}, {%r24, %r25}, {%f1, %f2, %f3, %f4};
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd2, %rd5;
	st.global.v4.f32 [%rd6], {%f5, %f6, %f7, %f8};
	ret;
}
`},
	{"mbars", `
.visible .entry mbars(.param .u64 out, .param .align 64 .b8 tmap[128], .param .align 64 .b8 tout[128])
.reqntid 64, 1, 1
{
	.shared .align 8 .b64 bars[2];
	.shared .align 128 .b8 sm[1024];
	.reg .u32 %r<32>;
	.reg .u64 %rd<12>;
	.reg .pred %p<8>;
	ld.param.u64 %rd1, [out];
	mov.b64 %rd2, tmap;
	cvta.param.u64 %rd3, %rd2;
	mov.b64 %rd8, tout;
	cvta.param.u64 %rd9, %rd8;
	mov.u32 %r1, %tid.x;
	shr.u32 %r2, %r1, 5;
	and.b32 %r3, %r1, 31;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra INITED;
	mbarrier.init.shared.b64 [bars], 1;
	mbarrier.init.shared.b64 [bars+8], 32;
INITED:
	fence.mbarrier_init.release.cluster;
	bar.sync 0;
	mov.u32 %r5, sm;
	mov.u32 %r6, bars;
	setp.eq.u32 %p2, %r2, 0;
	@%p2 bra CONSUMER;
	setmaxnreg.dec.sync.aligned.u32 40;
	elect.sync %r4|%p3, -1;
	mov.b32 %r9, 512;
	@!%p3 bra P1;
	mov.u32 %r7, 1;
	mov.u32 %r8, 0;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd3, {%r7, %r8}], [%r6];
	mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], %r9;
P1:
	add.u32 %r10, %r6, 8;
PW:
	mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r10], 0;
	@!%p4 bra PW;
	@!%p3 bra PEND;
	mov.u32 %r7, 3;
	mov.u32 %r8, 2;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd3, {%r7, %r8}], [%r6];
	mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], %r9;
PEND:
	ret;
CONSUMER:
	setmaxnreg.inc.sync.aligned.u32 80;
	shl.b32 %r11, %r3, 2;
	add.u32 %r12, %r5, %r11;
CW1:
	mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p5, [%r6], 0, 1000;
	@!%p5 bra CW1;
	ld.shared.u32 %r13, [%r12];
	ld.shared.u32 %r14, [%r12+128];
	mbarrier.arrive.release.cta.shared::cta.b64 _, [%r6+8];
CW2:
	mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p6, [%r6], 1, 1000;
	@!%p6 bra CW2;
	ld.shared.u32 %r15, [%r12+256];
	ld.shared.u32 %r16, [%r12+384];
	mul.wide.u32 %rd4, %r3, 16;
	add.s64 %rd5, %rd1, %rd4;
	st.global.v4.u32 [%rd5], {%r13, %r14, %r15, %r16};
	@%p1 bra CEND;
	fence.proxy.async.shared::cta;
	mov.u32 %r17, 1;
	mov.u32 %r18, 0;
	cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd9, {%r17, %r18}], [%r5];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
CEND:
	ret;
}
`},
}

// mutateFeature applies a mutation aimed at the models of the feature
// kernels: swap two arguments of a call, two coordinates of a texture
// fetch or two registers of an mma fragment, drop a call without results
// or a surface store or an mbarrier operation, swap a tensor copy's
// coordinates, turn a bar.red and into or (and back), gather
// another tld4 component, toggle ldmatrix's .trans.
func mutateFeature(f *ir.Func, r *rand.Rand) string {
	i := ir.InstrID(r.Intn(f.NumInstrs()))
	if f.IsDead(i) || f.Block[i] == ir.NoBlock {
		return ""
	}
	mn := f.Str(f.Mnemonic[i])
	base := strings.SplitN(mn, ".", 2)[0]
	ops := f.Ops(i)
	swapIn := func(elems []ir.Operand) string {
		if len(elems) < 2 {
			return ""
		}
		a := r.Intn(len(elems))
		b := (a + 1 + r.Intn(len(elems)-1)) % len(elems)
		if elems[a] == elems[b] {
			return ""
		}
		elems[a], elems[b] = elems[b], elems[a]
		return "swap operands of " + mn
	}
	switch base {
	case "call":
		hasRets := len(ops) > 0 && ops[0].IsDef()
		if !hasRets && r.Intn(2) == 0 {
			f.Remove(i)
			return "drop " + f.FormatInstr(i)
		}
		for k := len(ops) - 1; k >= 0; k-- {
			if ops[k].Kind() == ir.KList && !ops[k].IsDef() {
				return swapIn(f.ListElems(ops[k].Index()))
			}
		}
	case "sust", "mbarrier":
		f.Remove(i)
		return "drop " + mn
	case "cp":
		if !strings.Contains(mn, ".tensor.") {
			return ""
		}
		for _, o := range ops {
			if o.Kind() == ir.KAddr {
				if el := f.ListElems(f.Addrs[o.Index()].Elems); len(el) == 2 && el[1].Kind() == ir.KList {
					return swapIn(f.ListElems(el[1].Index()))
				}
			}
		}
	case "ldmatrix":
		nm := strings.Replace(mn, ".trans", "", 1)
		if nm == mn {
			nm = strings.Replace(mn, ".shared", ".trans.shared", 1)
		}
		f.Mnemonic[i] = f.Mod.Strings.Intern(nm)
		return mn + " -> " + nm
	case "mma":
		var lists []ir.Operand
		for _, o := range ops {
			if o.Kind() == ir.KList && !o.IsDef() {
				lists = append(lists, o)
			}
		}
		return swapIn(f.ListElems(lists[r.Intn(len(lists))].Index()))
	case "bar":
		var nm string
		switch {
		case strings.Contains(mn, ".and."):
			nm = strings.Replace(mn, ".and.", ".or.", 1)
		case strings.Contains(mn, ".or."):
			nm = strings.Replace(mn, ".or.", ".and.", 1)
		default:
			return ""
		}
		f.Mnemonic[i] = f.Mod.Strings.Intern(nm)
		return mn + " -> " + nm
	case "tld4":
		if r.Intn(2) == 0 {
			nm := strings.Replace(mn, "tld4.r.", "tld4.g.", 1)
			f.Mnemonic[i] = f.Mod.Strings.Intern(nm)
			return mn + " -> " + nm
		}
		fallthrough
	case "tex":
		for _, o := range ops {
			if o.Kind() == ir.KAddr {
				el := f.ListElems(f.Addrs[o.Index()].Elems)
				return swapIn(f.ListElems(el[len(el)-1].Index()))
			}
		}
	}
	return ""
}

// featureMutants runs n mutants of the feature kernels (half of them by
// the generic mutations of mutate): how many change behaviour, how many
// the default check catches, and the ones it missed.
func featureMutants(t *testing.T, n int) (changed, caught int, missed []string) {
	r := rand.New(rand.NewSource(7))
	tried := 0
	for attempts := 0; tried < n && attempts < 100*n; attempts++ {
		k := featureKernels[attempts%len(featureKernels)]
		src := ptxHeader + k.src
		orig := parseKernel(t, src, k.name)
		mut := parseKernel(t, src, k.name)
		var what string
		if r.Intn(2) == 0 {
			what = mutate(mut, r)
		} else {
			what = mutateFeature(mut, r)
		}
		if what == "" {
			continue
		}
		tried++
		what = k.name + ": " + what
		res, err := sim.Diff(orig, mut, sim.DiffOptions{Seeds: 16})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.Mismatch == nil {
			strong, err := sim.Diff(orig, mut, sim.DiffOptions{Seeds: 48, Seed: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if strong.Mismatch == nil {
				continue // no observable change found
			}
			missed = append(missed, what)
		} else {
			caught++
		}
		changed++
	}
	return changed, caught, missed
}

// The feature kernels run to completion on the inputs the input maker
// draws (else their mutants say nothing).
func TestFeatureKernelsRun(t *testing.T) {
	for _, k := range featureKernels {
		f := parseKernel(t, ptxHeader+k.src, k.name)
		ran := 0
		for seed := int64(0); seed < 8; seed++ {
			in := sim.MakeInput(f, seed, 1<<20)
			if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err == nil {
				ran++
			} else {
				t.Logf("%s seed 0: %v", k.name, err)
			}
		}
		if ran < 6 {
			t.Errorf("%s: only %d of 8 seeds ran to completion", k.name, ran)
		}
	}
}
