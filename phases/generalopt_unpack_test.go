package phases

import (
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

const unpackCounter = "CopyProp: repeated unpack elements propagated"

// TestCopyPropRepeatedUnpack: an unpack that repeats a dominating unpack
// of the same register gives its elements' readers the first unpack's
// elements (and is left unread); where the rule's conditions fail, the
// readers keep their registers.
func TestCopyPropRepeatedUnpack(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		want    []string
		notWant []string
		n       int64 // elements propagated
	}{
		{name: "dominated block", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	add.u32 %r30, %r3, %r4;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%r5, %r6}, %rd5;
	mul.lo.u32 %r7, %r5, %r6;
	add.u32 %r30, %r30, %r7;
$L__a:`,
			want: []string{"mul.lo.u32 %r7, %r3, %r4;"}, n: 2},
		{name: "same block, one element read", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	mov.b64 {%r5, %r6}, %rd5;
	sub.u32 %r7, %r2, %r6;
	add.u32 %r30, %r7, %r3;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	add.u32 %r30, %r30, %r4;
$L__a:`,
			want: []string{"sub.u32 %r7, %r2, %r4;"}, n: 1},
		{name: "source read by another instruction", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	add.u32 %r30, %r3, %r4;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%r5, %r6}, %rd5;
	cvt.u32.u64 %r8, %rd5;
	mul.lo.u32 %r7, %r5, %r6;
	add.u32 %r30, %r7, %r8;
$L__a:`,
			want: []string{"mul.lo.u32 %r7, %r5, %r6;"}},
		{name: "source written twice", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	add.u64 %rd5, %rd5, 1;
	mov.b64 {%r5, %r6}, %rd5;
	add.u32 %r30, %r5, %r6;
	add.u32 %r30, %r30, %r3;
$L__a:`,
			want: []string{"add.u32 %r30, %r5, %r6;"}},
		{name: "sibling arms", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%r3, %r4}, %rd5;
	add.u32 %r30, %r3, %r4;
	bra.uni $L__b;
$L__a:
	mov.b64 {%r5, %r6}, %rd5;
	sub.u32 %r30, %r5, %r6;
$L__b:`,
			want: []string{"sub.u32 %r30, %r5, %r6;"}},
		{name: "first unpack's element written again", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%r5, %r6}, %rd5;
	add.u32 %r3, %r3, 1;
	add.u32 %r30, %r5, %r6;
	add.u32 %r30, %r30, %r3;
$L__a:`,
			want: []string{"add.u32 %r30, %r5, %r6;"}},
		{name: "other piece widths", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	mov.b64 {%r3, %r4}, %rd5;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 bra $L__a;
	mov.b64 {%rs1, %rs2, %rs3, %rs4}, %rd5;
	cvt.u32.u16 %r5, %rs2;
	add.u32 %r30, %r5, %r4;
$L__a:`,
			want: []string{"cvt.u32.u16 %r5, %rs2;"}},
		{name: "guarded first unpack", body: `
	mad.lo.u64 %rd5, %rd3, 977, %rd2;
	setp.lt.u32 %p1, %r2, 3;
	@%p1 mov.b64 {%r3, %r4}, %rd5;
	@%p1 bra $L__a;
	mov.b64 {%r5, %r6}, %rd5;
	add.u32 %r30, %r5, %r6;
$L__a:`,
			want: []string{"add.u32 %r30, %r5, %r6;"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, after, body, stats := runSubs(t, genOptKernel(tc.body), "k", []subPass{spCopyProp})
			lines := map[string]bool{}
			for _, l := range strings.Split(body, "\n") {
				lines[l] = true
			}
			for _, w := range tc.want {
				if !lines[w] {
					t.Errorf("want %q in:\n%s", w, body)
				}
			}
			if got := counter(stats, unpackCounter); got != tc.n {
				t.Errorf("%d elements propagated, want %d:\n%s", got, tc.n, body)
			}
			simtest.CheckEquivalent(t, before, after, 4)
		})
	}
}

// TestCopyPropRepeatedUnpackGenerated: the rule keeps what generated
// kernels with -O0-style frames compute, alone with promotion and in the
// whole pipeline, and fires on them. Their double-word slots become
// unpacks once promoted, but of values other instructions read too; so
// each kernel also gets a 64-bit value of the thread index unpacked at
// its start and again before its last store, which the last store's
// value then reads (addRepeatedUnpacks).
func TestCopyPropRepeatedUnpackGenerated(t *testing.T) {
	skipUnderRace(t)
	alone, whole := checkGeneratedRun(t, genCheck{named: []string{"ConvertMemoryToRegister", "GeneralOptimize"}, counter: unpackCounter,
		cfg: func(n int64) gen.Config {
			return gen.Config{Seed: 9700 + n, Size: 100 + int(n%5)*60, Frames: true}
		}, mutate: addRepeatedUnpacks})
	if alone == 0 || whole == 0 {
		t.Errorf("repeated unpacks propagated: %d alone, %d in the whole pipeline; want some in both", alone, whole)
	}
}

// addRepeatedUnpacks prints the generated module, adds to its kernel a
// 64-bit value unpacked at the start of the body and once more right
// before the kernel's last st.global.u32, whose stored value then mixes
// in both unpacks' halves, and parses it again; it returns the kernel.
func addRepeatedUnpacks(t *testing.T, m *ir.Module) *ir.Func {
	t.Helper()
	text := string(ptx.Format(m))
	k := strings.Index(text, ".entry")
	if k < 0 {
		t.Fatal("no kernel")
	}
	lines := strings.SplitAfter(text[k:], "\n")
	var b strings.Builder
	b.WriteString(text[:k])
	body, lastStore := -1, -1
	for i, l := range lines {
		if body < 0 && l == "{\n" {
			body = i + 1
		}
		if strings.HasPrefix(l, "\tst.global.u32 [") && strings.HasSuffix(l, ";\n") {
			lastStore = i
		}
	}
	if body < 0 || lastStore < 0 {
		t.Fatal("kernel without a body or a final st.global.u32")
	}
	first := body
	for strings.HasPrefix(lines[first], "\t.") || lines[first] == "\n" {
		first++
	}
	st := lines[lastStore]
	comma := strings.LastIndex(st, ", ")
	val := st[comma+2 : len(st)-2]
	for i, l := range lines {
		switch i {
		case body:
			b.WriteString("\t.reg .b64 %rdq<2>;\n\t.reg .b32 %rq<9>;\n")
		case first:
			b.WriteString("\tmov.u32 %rq0, %tid.x;\n\tmul.wide.u32 %rdq0, %rq0, -1640531535;\n" +
				"\tmov.b64 {%rq1, %rq2}, %rdq0;\n\txor.b32 %rq3, %rq1, %rq2;\n")
		case lastStore:
			b.WriteString("\tmov.b64 {%rq4, %rq5}, %rdq0;\n\tadd.u32 %rq6, %rq4, %rq5;\n\txor.b32 %rq7, %rq6, %rq3;\n" +
				"\tadd.u32 %rq8, %rq7, " + val + ";\n")
			l = st[:comma+2] + "%rq8;\n"
		}
		b.WriteString(l)
	}
	src := []byte(b.String())
	mm, err := ptx.Parse("unpacks.ptx", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	for _, f := range mm.Funcs {
		if f.Kind == ir.KindEntry {
			return f
		}
	}
	t.Fatal("no kernel after parsing")
	return nil
}
