package phases

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/phases/rules/rulegen"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// TestRulesGenerated fails when generalopt_rules_gen.go is not what the
// generator makes of rules/*.rules: run `go generate ./phases`.
func TestRulesGenerated(t *testing.T) {
	rules, err := rulegen.ParseDir("rules")
	if err != nil {
		t.Fatal(err)
	}
	want, err := rulegen.Generate(rules)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("generalopt_rules_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("generalopt_rules_gen.go is stale: run `go generate ./phases`")
	}
}

// foldSlot is the GeneralOptimize slot the rule tests run: one whose
// bundle applies the rules.
const foldSlot = "GeneralOptimize"

// ruleCase is a positive and a negative example of one rule: the rule
// must rewrite the first body (genOptKernel wraps it) and leave the
// second alone; both must compute what they computed.
type ruleCase struct {
	rule, pos, neg string
}

// plainOnly are the rules that can only fire on code as written (SSA form
// has no such instruction): in the slot, only their negative is checked.
var plainOnly = map[string]bool{"MovSelf": true}

// lateOnly are the rules of group combine: they run in
// GeneralOptimizeLate2 only, where their cases run (not the sub-passes
// alone, which no slot names).
var lateOnly = map[string]bool{"MadForm": true, "WideShlS": true, "WideShlU": true}

// pIn defines two predicates nothing knows; pOut stores %p3.
const (
	pIn  = "setp.lt.u32 %p1, %r2, 3;\n setp.lt.u32 %p2, %r1, 5;\n "
	pOut = "\n selp.u32 %r30, %r2, 7, %p3;"
)

var ruleCases = []ruleCase{
	{"FoldAdd", "mov.u32 %r3, 5;\n add.u32 %r30, %r3, 7;", "add.u32 %r30, %r2, 7;"},
	{"FoldSub", "mov.u32 %r3, 5;\n sub.u32 %r30, %r3, 7;", "sub.u32 %r30, %r2, 7;"},
	{"FoldMulLo", "mov.u32 %r3, 6;\n mul.lo.u32 %r30, %r3, 7;", "mov.u32 %r3, 6;\n mul.hi.u32 %r30, %r3, 7;"},
	{"FoldMadLo", "mov.u32 %r3, 6;\n mov.u32 %r4, 3;\n mad.lo.u32 %r30, %r3, 7, %r4;", "mov.u32 %r3, 6;\n mad.lo.u32 %r30, %r3, 7, %r2;"},
	{"FoldAnd", "mov.b32 %r3, 12;\n and.b32 %r30, %r3, 10;", "and.b32 %r30, %r2, 10;"},
	{"FoldOr", "mov.b32 %r3, 12;\n or.b32 %r30, %r3, 10;", "or.b32 %r30, %r2, 10;"},
	{"FoldXor", "mov.b32 %r3, 12;\n xor.b32 %r30, %r3, 10;", "xor.b32 %r30, %r2, 10;"},
	{"FoldNot", "mov.b32 %r3, 12;\n not.b32 %r30, %r3;", "not.b32 %r30, %r2;"},
	{"FoldNeg", "mov.s32 %r3, 12;\n neg.s32 %r30, %r3;", "neg.s32 %r30, %r2;"},
	{"FoldShl", "mov.b32 %r3, 3;\n shl.b32 %r30, %r3, 4;", "shl.b32 %r30, %r2, 4;"},
	{"FoldShr", "mov.s32 %r3, -64;\n shr.s32 %r30, %r3, 3;", "shr.s32 %r30, %r2, 3;"},
	{"FoldMin", "mov.s32 %r3, -64;\n min.s32 %r30, %r3, 3;", "min.s32 %r30, %r2, 3;"},
	{"FoldMax", "mov.u32 %r3, -64;\n max.u32 %r30, %r3, 3;", "max.u32 %r30, %r2, 3;"},
	{"FoldSetp", "mov.u32 %r3, 5;\n setp.lt.s32 %p1, %r3, -7;\n selp.u32 %r30, %r2, 2, %p1;",
		"setp.lt.s32 %p1, %r2, -7;\n selp.u32 %r30, %r2, 2, %p1;"},
	{"AddZero", "add.u32 %r30, %r2, 0;", "add.u32 %r30, %r2, 1;"},
	{"SubZero", "sub.u32 %r30, %r2, 0;", "sub.u32 %r30, 0, %r2;"},
	{"SubSelf", "sub.u32 %r30, %r2, %r2;", "sub.u32 %r30, %r2, %r1;"},
	{"MulOne", "mul.lo.u32 %r30, %r2, 1;", "mul.hi.u32 %r30, %r2, 1;"},
	{"MulZero", "mul.lo.u32 %r30, %r2, 0;", "mul.lo.u32 %r30, %r2, 2;"},
	{"AndOnes", "and.b32 %r30, %r2, -1;", "and.b32 %r30, %r2, 0xfffffffe;"},
	{"AndZero", "and.b32 %r30, %r2, 0;", "and.b32 %r30, %r2, 1;"},
	{"AndSelf", "and.b32 %r30, %r2, %r2;", "and.b32 %r30, %r2, %r1;"},
	{"OrZero", "or.b32 %r30, %r2, 0;", "or.b32 %r30, %r2, 2;"},
	{"OrOnes", "or.b32 %r30, %r2, 0xffffffff;", "or.b32 %r30, %r2, 0x7fffffff;"},
	{"OrSelf", "or.b32 %r30, %r2, %r2;", "or.b32 %r30, %r2, %r1;"},
	{"XorZero", "xor.b32 %r30, %r2, 0;", "xor.b32 %r30, %r2, 4;"},
	{"XorSelf", "xor.b32 %r30, %r2, %r2;", "xor.b32 %r30, %r2, %r1;"},
	{"XorOnes", "xor.b32 %r30, %r2, -1;", "xor.b32 %r30, %r2, -2;"},
	{"MinSelf", "min.s32 %r30, %r2, %r2;", "min.s32 %r30, %r2, %r1;"},
	{"MaxSelf", "max.u32 %r30, %r2, %r2;", "max.u32 %r30, %r2, %r1;"},
	{"NotNot", "not.b32 %r3, %r2;\n not.b32 %r30, %r3;",
		// the inner not is guarded
		"setp.lt.u32 %p1, %r2, 5;\n mov.u32 %r3, %r1;\n @%p1 not.b32 %r3, %r2;\n not.b32 %r30, %r3;"},
	{"NegNeg", "neg.s32 %r3, %r2;\n neg.s32 %r30, %r3;", "neg.s32 %r3, %r2;\n not.b32 %r30, %r3;"},
	{"ShlZero", "shl.b32 %r30, %r2, 0;", "shl.b32 %r30, %r2, 1;"},
	{"ShrZero", "shr.u32 %r30, %r2, 0;", "shr.u32 %r30, %r2, 1;"},
	{"ShlWide", "shl.b32 %r30, %r2, 32;", "shl.b32 %r30, %r2, 31;"},
	{"ShrWide", "shr.u32 %r30, %r2, 40;", "shr.u32 %r30, %r2, 31;"},
	{"ShrSignWide", "shr.s32 %r30, %r2, 40;", "shr.s32 %r30, %r2, 31;"},
	{"MadZero", "mad.lo.u32 %r30, %r2, 0, %r1;", "mad.lo.u32 %r30, %r2, 2, %r1;"},
	{"MadOne", "mad.lo.u32 %r30, %r2, 1, %r1;", "mad.hi.u32 %r30, %r2, 1, %r1;"},
	{"MadAddZero", "mad.lo.u32 %r30, %r2, %r1, 0;", "mad.lo.u32 %r30, %r2, %r1, 1;"},
	{"SetpSelf", "setp.le.s32 %p1, %r2, %r2;\n selp.u32 %r30, %r2, 7, %p1;", "setp.le.s32 %p1, %r2, %r1;\n selp.u32 %r30, %r2, 7, %p1;"},
	{"SelpSame", "setp.lt.u32 %p1, %r2, 3;\n selp.u32 %r30, %r1, %r1, %p1;", "setp.lt.u32 %p1, %r2, 3;\n selp.u32 %r30, %r1, %r2, %p1;"},
	{"SelpTrue", "mov.pred %p1, 1;\n selp.u32 %r30, %r2, %r1, %p1;", "setp.lt.u32 %p1, %r2, 3;\n selp.u32 %r30, %r2, %r1, %p1;"},
	{"SelpFalse", "mov.pred %p1, 0;\n selp.u32 %r30, %r2, %r1, %p1;", "setp.lt.u32 %p1, %r2, 3;\n selp.u32 %r30, %r2, %r1, %p1;"},
	{"MovSelf", "add.u32 %r30, %r2, 1;\n mov.u32 %r30, %r30;", "add.u32 %r30, %r2, 1;\n mov.u32 %r30, %r2;"},
	{"PredFoldAnd", "mov.pred %p1, 1;\n mov.pred %p2, 0;\n and.pred %p3, %p1, %p2;" + pOut, pIn + "and.pred %p3, %p1, %p2;" + pOut},
	{"PredFoldOr", "mov.pred %p1, 1;\n mov.pred %p2, 0;\n or.pred %p3, %p1, %p2;" + pOut, pIn + "or.pred %p3, %p1, %p2;" + pOut},
	{"PredFoldXor", "mov.pred %p1, 1;\n mov.pred %p2, 1;\n xor.pred %p3, %p1, %p2;" + pOut, pIn + "xor.pred %p3, %p1, %p2;" + pOut},
	{"PredFoldNot", "mov.pred %p1, 1;\n not.pred %p3, %p1;" + pOut, pIn + "not.pred %p3, %p1;" + pOut},
	{"PredAndTrue", pIn + "mov.pred %p4, 1;\n and.pred %p3, %p1, %p4;" + pOut, pIn + "and.pred %p3, %p1, %p2;" + pOut},
	{"PredAndFalse", pIn + "mov.pred %p4, 0;\n and.pred %p3, %p4, %p1;" + pOut, pIn + "and.pred %p3, %p2, %p1;" + pOut},
	{"PredOrFalse", pIn + "mov.pred %p4, 0;\n or.pred %p3, %p1, %p4;" + pOut, pIn + "or.pred %p3, %p1, %p2;" + pOut},
	{"PredOrTrue", pIn + "mov.pred %p4, 1;\n or.pred %p3, %p1, %p4;" + pOut, pIn + "or.pred %p3, %p1, %p2;" + pOut},
	{"PredXorFalse", pIn + "mov.pred %p4, 0;\n xor.pred %p3, %p1, %p4;" + pOut, pIn + "xor.pred %p3, %p1, %p2;" + pOut},
	{"PredXorTrue", pIn + "mov.pred %p4, 1;\n xor.pred %p3, %p1, %p4;" + pOut, pIn + "xor.pred %p3, %p1, %p2;" + pOut},
	{"PredAndSelf", pIn + "and.pred %p3, %p1, %p1;" + pOut, pIn + "and.pred %p3, %p1, %p2;" + pOut},
	{"PredOrSelf", pIn + "or.pred %p3, %p1, %p1;" + pOut, pIn + "or.pred %p3, %p1, %p2;" + pOut},
	{"PredXorSelf", pIn + "xor.pred %p3, %p1, %p1;" + pOut, pIn + "xor.pred %p3, %p1, %p2;" + pOut},
	{"PredNotNot", pIn + "not.pred %p4, %p1;\n not.pred %p3, %p4;" + pOut,
		pIn + "mov.pred %p4, %p2;\n @%p2 not.pred %p4, %p1;\n not.pred %p3, %p4;" + pOut},
	{"BraNext", "mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @%p1 bra $L__a;\n$L__a:\n add.u32 %r30, %r30, 1;",
		"mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @%p1 bra $L__a;\n add.u32 %r30, %r30, 2;\n$L__a:\n add.u32 %r30, %r30, 1;"},
	{"BraThread", "mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @%p1 bra $L__a;\n bra.uni $L__c;\n$L__a:\n bra.uni $L__b;\n$L__c:\n st.global.u32 [%rd4], %r2;\n$L__b:",
		"mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @%p1 bra $L__a;\n bra.uni $L__c;\n$L__a:\n st.global.u32 [%rd4], %r1;\n bra.uni $L__b;\n$L__c:\n st.global.u32 [%rd4], %r2;\n$L__b:"},
	{"BraInvert", "mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @%p1 bra $L__a;\n bra.uni $L__b;\n$L__a:\n add.u32 %r30, %r30, 1;\n$L__b:",
		"mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @%p1 bra $L__a;\n add.u32 %r30, %r30, 2;\n bra.uni $L__b;\n$L__a:\n add.u32 %r30, %r30, 1;\n$L__b:"},
	{"GuardTrue", "mov.u32 %r30, %r1;\n mov.pred %p1, 1;\n @%p1 add.u32 %r30, %r2, 1;",
		"mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @%p1 add.u32 %r30, %r2, 1;"},
	{"GuardFalse", "mov.u32 %r30, %r1;\n mov.pred %p1, 1;\n @!%p1 add.u32 %r30, %r2, 1;",
		"mov.u32 %r30, %r1;\n setp.lt.u32 %p1, %r2, 3;\n @!%p1 add.u32 %r30, %r2, 1;"},
	{"CvtaRoundTrip", "cvta.global.u64 %rd5, %rd4;\n cvta.to.global.u64 %rd6, %rd5;\n ld.global.u32 %r30, [%rd6];",
		"cvta.global.u64 %rd5, %rd4;\n cvta.to.shared.u64 %rd6, %rd5;\n ld.global.u32 %r30, [%rd4];"},
	// select formation: a select between a comparison's sides
	{"SelpMin", "setp.lt.s32 %p1, %r2, %r1;\n selp.b32 %r30, %r2, %r1, %p1;",
		// off by two from the constant: not a clamp
		"setp.lt.u32 %p1, %r2, 256;\n selp.b32 %r30, %r2, 254, %p1;"},
	{"SelpMax", "setp.lt.u32 %p1, %r2, 256;\n selp.b32 %r30, 255, %r2, %p1;",
		// x < INT_MIN: no c-1 to move the constant to
		"setp.lt.s32 %p1, %r2, -2147483648;\n selp.b32 %r30, 2147483647, %r2, %p1;"},
	// combine.rules: a product added next to it is a mad (the negative:
	// four instructions apart)
	{"MadForm", "mul.lo.s32 %r3, %r2, %r1;\n add.s32 %r30, %r3, 9;",
		"mul.lo.s32 %r3, %r2, %r1;\n xor.b32 %r4, %r2, 3;\n xor.b32 %r5, %r1, 5;\n or.b32 %r6, %r4, %r5;\n add.s32 %r30, %r3, %r6;"},
	{"WideShlS", "cvt.s64.s32 %rd5, %r2;\n shl.b64 %rd6, %rd5, 3;" + wideOut,
		// 2^31 is no positive .s32
		"cvt.s64.s32 %rd5, %r2;\n shl.b64 %rd6, %rd5, 31;" + wideOut},
	{"WideShlU", "cvt.u64.u32 %rd5, %r2;\n shl.b64 %rd6, %rd5, 31;" + wideOut,
		"cvt.u64.u32 %rd5, %r2;\n shl.b64 %rd6, %rd5, 32;" + wideOut},
	// float.rules: folds computed exactly; the negatives are what is
	// left alone (a register source, or a result PTX does not pin down).
	{"FoldFAdd", "mov.f32 %f1, 0f3F800000;\n add.f32 %f2, %f1, 0f40000000;" + fOut, "mov.b32 %f1, %r2;\n add.f32 %f2, %f1, 0f40000000;" + fOut},
	{"FoldFSub", "mov.f32 %f1, 0f3F800000;\n sub.rz.f32 %f2, %f1, 0f33800001;" + fOut,
		// inf - inf in f64: a NaN whose bits PTX does not pin
		"mov.f64 %fd1, 0d7FF0000000000000;\n sub.f64 %fd2, %fd1, 0d7FF0000000000000;" + dOut},
	{"FoldFMul", "mov.f32 %f1, 0f00400000;\n mul.rn.ftz.f32 %f2, %f1, 0f40000000;" + fOut,
		// inf·0 in f64: a NaN whose bits PTX does not pin
		"mov.f64 %fd1, 0d7FF0000000000000;\n mul.f64 %fd2, %fd1, 0d0000000000000000;" + dOut},
	{"FoldFFma", "mov.f32 %f1, 0f3F800001;\n fma.rn.f32 %f2, %f1, %f1, 0fBF800002;" + fOut, "mov.b32 %f1, %r2;\n fma.rn.f32 %f2, %f1, %f1, 0fBF800002;" + fOut},
	{"FoldFMad", "mov.f32 %f1, 0f3F800001;\n mad.rp.f32 %f2, %f1, 0f40000000, 0f3F800000;" + fOut,
		"mov.f32 %f1, 0f3F800001;\n mad.f32 %f2, %f1, 0f40000000, 0f3F800000;" + fOut},
	{"FoldFDiv", "mov.f32 %f1, 0f3F800000;\n div.rn.f32 %f2, %f1, 0f40400000;" + fOut, "mov.f32 %f1, 0f3F800000;\n div.approx.f32 %f2, %f1, 0f40400000;" + fOut},
	{"FoldFRcp", "mov.f64 %fd1, 0d4008000000000000;\n rcp.rm.f64 %fd2, %fd1;" + dOut, "mov.f32 %f1, 0f40400000;\n rcp.approx.f32 %f2, %f1;" + fOut},
	{"FoldFSqrt", "mov.f32 %f1, 0f40000000;\n sqrt.rn.f32 %f2, %f1;" + fOut, "mov.f32 %f1, 0f40000000;\n sqrt.approx.f32 %f2, %f1;" + fOut},
	{"FoldFMin", "mov.f32 %f1, 0f7FC00000;\n min.f32 %f2, %f1, 0f3F800000;" + fOut, "mov.f32 %f1, 0f7FC00000;\n min.NaN.f32 %f2, %f1, 0f3F800000;" + fOut},
	{"FoldFMax", "mov.f32 %f1, 0f80000000;\n max.ftz.f32 %f2, %f1, 0f00000001;" + fOut, "mov.b32 %f1, %r2;\n max.f32 %f2, %f1, 0f00000001;" + fOut},
	{"FoldFNeg", "mov.f32 %f1, 0f3F800000;\n neg.f32 %f2, %f1;" + fOut, "mov.f32 %f1, 0f7FC00001;\n neg.f32 %f2, %f1;" + fOut},
	{"FoldFAbs", "mov.f32 %f1, 0f80000003;\n abs.ftz.f32 %f2, %f1;" + fOut, "mov.f32 %f1, 0fFFC00000;\n abs.f32 %f2, %f1;" + fOut},
	{"FoldCvt", "mov.f32 %f1, 0fC0200000;\n cvt.rni.s32.f32 %r30, %f1;",
		// an integral value rounded into a narrower format
		"mov.f64 %fd1, 0d4770000000000001;\n cvt.rzi.f32.f64 %f2, %fd1;" + fOut},
	{"FmaOne", "mov.b32 %f1, %r2;\n mov.b32 %f3, %r1;\n fma.rn.f32 %f2, 0f3F800000, %f1, %f3;" + fOut,
		"mov.b32 %f1, %r2;\n mov.b32 %f3, %r1;\n fma.rn.f32 %f2, %f1, 0f3F800001, %f3;" + fOut},
	{"FoldFSetp", "mov.f32 %f1, 0f7FC00000;\n setp.gtu.f32 %p1, %f1, 0f3F800000;\n selp.u32 %r30, %r2, 2, %p1;",
		"mov.b32 %f1, %r2;\n setp.gtu.f32 %p1, %f1, 0f3F800000;\n selp.u32 %r30, %r2, 2, %p1;"},
	// reuse.rules: op(y + c) beside op(y). %r1 is any value (the sign
	// extensions see negative ones); the sums read the high bits.
	{"ReuseSext", reuseExt("s", "shl.b32 %r3, %r1, 4", 15), reuseExt("s", "shl.b32 %r3, %r1, 4", 16)},
	{"ReuseZext", reuseExt("u", "and.b32 %r3, %r1, -8", 7), reuseExt("u", "and.b32 %r3, %r1, -8", 8)},
	{"ReuseShl", "cvt.u64.u32 %rd10, %r1;\n shl.b64 %rd5, %rd10, 3;\n add.u64 %rd11, %rd10, -8;\n shl.b64 %rd6, %rd11, 3;" + reuseSum,
		"cvt.u64.u32 %rd10, %r1;\n shl.b64 %rd5, %rd10, 3;\n add.u64 %rd11, %rd10, -8;\n shl.b64 %rd6, %rd11, 2;" + reuseSum},
	{"ReuseMulLo", "mul.lo.s32 %r3, %r1, 12;\n add.s32 %r4, %r1, 3;\n mul.lo.s32 %r5, %r4, 12;\n add.s32 %r30, %r5, %r3;",
		"mul.lo.s32 %r3, %r1, 12;\n add.s32 %r4, %r1, 3;\n mul.lo.s32 %r5, %r4, 10;\n add.s32 %r30, %r5, %r3;"},
	{"ReuseAdd", "add.s32 %r3, %r2, %r1;\n add.s32 %r4, %r1, 9;\n add.s32 %r5, %r4, %r2;\n mul.lo.s32 %r30, %r5, %r3;",
		"add.s32 %r3, %r2, %r1;\n add.s32 %r4, %r1, 9;\n add.s32 %r5, %r4, %r3;\n mul.lo.s32 %r30, %r5, %r3;"},
}

// fOut and dOut store %f2 and (the bits of) %fd2.
const (
	fOut = "\n mov.b32 %r30, %f2;"
	dOut = "\n mov.b64 %rd7, %fd2;\n xor.b64 %rd8, %rd7, 0;\n shr.u64 %rd9, %rd7, 32;\n xor.b64 %rd10, %rd9, %rd8;\n cvt.u32.u64 %r30, %rd10;"
)

// wideOut stores the high and low halves of %rd6.
const wideOut = "\n shr.u64 %rd8, %rd6, 32;\n xor.b64 %rd9, %rd6, %rd8;\n cvt.u32.u64 %r30, %rd9;"

// reuseSum stores a mix of %rd5 and %rd6, high bits included.
const reuseSum = "\n sub.s64 %rd7, %rd6, %rd5;\n shr.u64 %rd8, %rd6, 32;\n add.s64 %rd9, %rd7, %rd8;\n cvt.u32.u64 %r30, %rd9;"

// reuseExt is a reuse case of a 32-to-64-bit extension (s or u) of %r3 +
// c and of %r3, where def defines %r3.
func reuseExt(sign, def string, c int) string {
	return fmt.Sprintf("%s;\n cvt.%s64.%s32 %%rd5, %%r3;\n add.s32 %%r4, %%r3, %d;\n cvt.%s64.%s32 %%rd6, %%r4;%s", def, sign, sign, c, sign, sign, reuseSum)
}

// TestRuleCases runs every rule's positive and negative example: the rule
// fires on the first and not on the second, and neither changes what the
// kernel computes. Every rule must have its case.
func TestRuleCases(t *testing.T) {
	have := map[string]bool{}
	for _, tc := range ruleCases {
		have[tc.rule] = true
		t.Run(tc.rule, func(t *testing.T) {
			for k, body := range []string{tc.pos, tc.neg} {
				// In the slot (SSA form), and the sub-passes alone on
				// the code as written.
				for _, ssa := range []bool{true, false} {
					var before, after *ir.Func
					var out string
					var stats []PhaseStat
					if lateOnly[tc.rule] && !ssa {
						continue
					}
					if ssa {
						slot := foldSlot
						if lateOnly[tc.rule] {
							slot = "GeneralOptimizeLate2"
						}
						before, after, out, stats = runPass(t, genOptKernel(body), "k", slot)
					} else {
						before, after, out, stats = runSubs(t, genOptKernel(body), "k", []subPass{spCopyProp, spFold, spPred})
					}
					n := ruleCounter(stats, tc.rule+"\x00")
					if (k == 0) != (n > 0) && !(k == 0 && ssa && plainOnly[tc.rule]) {
						t.Errorf("%s (SSA %v) fired %d times on the %s example:\n%s\n->\n%s", tc.rule, ssa, n, [2]string{"positive", "negative"}[k], body, out)
					}
					simtest.CheckEquivalent(t, before, after, 4)
				}
			}
		})
	}
	for _, n := range ruleNames {
		if !have[n] {
			t.Errorf("rule %s has no test case", n)
		}
	}
}

// TestBundlesDescribed: each GeneralOptimize slot has its own pass
// function and bundle, and --help-phases lists the bundle's sub-passes.
func TestBundlesDescribed(t *testing.T) {
	fns := map[uintptr]string{}
	for _, b := range bundles {
		i, ok := Lookup(b.slot)
		if !ok {
			t.Fatalf("bundle for unknown slot %s", b.slot)
		}
		ph := &pipeline[i]
		if !strings.HasSuffix(ph.Help, ": "+b.describe()) {
			t.Errorf("%s: help %q does not end with its sub-passes %q", b.slot, ph.Help, b.describe())
		}
		fn := reflect.ValueOf(ph.Fn).Pointer()
		if other, dup := fns[fn]; dup {
			t.Errorf("%s and %s share a pass function", b.slot, other)
		}
		fns[fn] = b.slot
	}
	if len(bundles) != 6 {
		t.Errorf("%d bundles, want the six slots", len(bundles))
	}
}
