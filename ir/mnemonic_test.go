package ir

import (
	"math/rand"
	"reflect"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		mn   string
		want Form
	}{
		{"add.s32", Form{Op: OpAdd, Type: TS32}},
		{"mul.lo.u32", Form{Op: OpMul, Type: TU32, Mods: ModLo}},
		{"mul.wide.s32", Form{Op: OpMul, Type: TS32, Mods: ModWide}},
		{"mad.hi.sat.s32", Form{Op: OpMad, Type: TS32, Mods: ModHi | ModSat}},
		{"add.cc.u32", Form{Op: OpAdd, Type: TU32, Mods: ModCC}},
		{"ld.global.nc.v4.f32", Form{Op: OpLd, Type: TF32, Space: SpaceGlobal, Mods: ModNC.WithVec(4)}},
		{"ld.volatile.shared.u32", Form{Op: OpLd, Type: TU32, Space: SpaceShared, Mods: ModVolatile}},
		{"cvt.rn.f32.s32", Form{Op: OpCvt, Type: TF32, Type2: TS32, Mods: Mods(0).WithRound(RoundRN)}},
		{"cvt.rzi.ftz.s32.f32", Form{Op: OpCvt, Type: TS32, Type2: TF32, Mods: ModFtz.WithRound(RoundRZI)}},
		{"div.approx.ftz.f32", Form{Op: OpDiv, Type: TF32, Mods: ModFtz.WithRound(RoundApprox)}},
		{"ld.volatile.relaxed.u32", Form{Op: OpLd, Type: TU32, Mods: ModVolatile | ModOther}}, // two orderings: the second is text only
		{"setp.hi.u32", Form{Op: OpSetp, Type: TU32, Mods: Mods(0).WithCmp(CmpHi)}},
		{"setp.lt.ftz.and.f32", Form{Op: OpSetp, Type: TF32, Mods: ModFtz.WithCmp(CmpLt).WithBoolOp(BoolAnd)}},
		{"bra.uni", Form{Op: OpBra, Mods: ModUni}},
		{"wmma.load.a.sync.aligned.row.m16n16k16.f16", Form{Op: OpWmma, Type: TF16, Mods: ModLoad | ModSync | ModAligned | ModOther}},
		{"shf.l.wrap.b32", Form{Op: OpShf, Type: TB32, Mods: ModOther}},
		{"shl.hi.b32", Form{Op: OpShl, Type: TB32, Mods: ModOther}}, // hi means nothing to shl
		{"cp.async.wait_group", Form{Op: OpCp, Mods: ModAsync | ModWaitGroup}},
		{"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", Form{Op: OpMma, Type: TF32, Type2: TBF16, Mods: ModSync | ModAligned | ModOther}},
		{`.pragma "nounroll"`, Form{Op: OpPragma}},
		{"phi.u32", Form{Op: OpPhi, Type: TU32}},
		{"frobnicate.u32", Form{Op: OpUnknown, Type: TU32}},
	}
	for _, tc := range tests {
		if got := Decode(tc.mn); got != tc.want {
			t.Errorf("Decode(%q) = %+v, want %+v", tc.mn, got, tc.want)
		}
	}
}

// FormText writes what Decode reads back, for every form a pass can
// build (no ModOther), and PTX's order for the usual ones.
func TestFormTextRoundTrip(t *testing.T) {
	for _, mn := range []string{"mov.u32", "add.sat.s32", "mul.lo.u32", "mad.hi.sat.s32", "mul.wide.u16",
		"cvt.rn.f32.s32", "cvt.rzi.ftz.sat.s32.f32", "setp.eq.s32", "setp.lt.ftz.and.f32", "ld.global.nc.v4.f32",
		"ld.volatile.global.u32", "bra.uni", "div.approx.ftz.f32", "add.rn.ftz.sat.f32", "mad.lo.cc.u32", "selp.b32",
		"bar.sync", "st.global.v2.u32"} {
		d := Decode(mn)
		if d.Mods.Has(ModOther) {
			t.Fatalf("%s decodes with ModOther", mn)
		}
		if got := FormText(d); got != mn {
			t.Errorf("FormText(Decode(%q)) = %q", mn, got)
		}
	}
	rng := rand.New(rand.NewSource(1))
	ops := []Opcode{OpMov, OpAdd, OpMul, OpMad, OpSetp, OpCvt, OpLd, OpSt, OpBra, OpSelp, OpAnd}
	types := []Type{TNone, TU32, TS64, TF32, TB16, TPred}
	for range 5000 {
		d := Form{Op: ops[rng.Intn(len(ops))], Type: types[rng.Intn(len(types))]}
		if d.Type != TNone && rng.Intn(2) == 0 {
			d.Type2 = types[1+rng.Intn(len(types)-1)]
		}
		m := Mods(rng.Uint32())&flagMask&^ModOther | Mods(rng.Intn(8))<<orderShift | Mods(rng.Intn(int(numSubs)))<<subShift
		if d.Op == OpMul || d.Op == OpMad {
			m |= Mods(rng.Intn(4)) << halfShift
		}
		m = m.WithRound(Round(rng.Intn(int(numRounds)))).WithVec([]int{0, 2, 4, 8}[rng.Intn(4)])
		if d.Op == OpSetp {
			m = m.WithCmp(Cmp(1 + rng.Intn(int(numCmps)-1))).WithBoolOp(BoolOp(rng.Intn(4)))
			if m.BoolOp() != BoolNone && d.Type == TNone {
				d.Type = TS32 // a combiner needs the type after it to be told from a flag
			}
		}
		if d.Op == OpLd || d.Op == OpSt {
			d.Space = []Space{SpaceNone, SpaceGlobal, SpaceShared, SpaceLocal}[rng.Intn(4)]
		}
		d.Mods = m
		if got := Decode(FormText(d)); got != d {
			t.Fatalf("Decode(FormText(%+v)) = %+v (text %q)", d, got, FormText(d))
		}
	}
}

// Every per-instruction slice of Func is in the column list that
// NewInstr, Clone, Compact and the verifier share.
func TestColumnsListed(t *testing.T) {
	b := NewModuleBuilder("8.4", "sm_80", 64)
	fb := b.Entry("k")
	r := fb.Reg(TU32)
	fb.Ins("mov.u32", RegDef(r), fb.Imm(1))
	fb.Ins("add.u32", RegDef(r), RegOp(r), RegOp(r))
	fb.Ins("ret")
	f := fb.Func()
	listed := map[string]bool{}
	for _, c := range f.ColumnLens() {
		listed[c.Name] = true
	}
	v := reflect.ValueOf(f).Elem()
	for k := range v.NumField() {
		fv, name := v.Field(k), v.Type().Field(k).Name
		if fv.Kind() != reflect.Slice || fv.Len() != f.NumInstrs() {
			continue
		}
		if name == "Operands" || name == "Line" {
			continue // the operand pool (a run per instruction); parse-time source lines (not a column)
		}
		if !listed[name] {
			t.Errorf("per-instruction slice %s is not in Func.columns()", name)
		}
	}
	g := f.Clone()
	g.Compact()
	for _, c := range g.ColumnLens() {
		if c.Len != g.NumInstrs() && !(c.Lazy && c.Len == 0) {
			t.Errorf("after Clone+Compact, column %s has %d entries for %d instructions", c.Name, c.Len, g.NumInstrs())
		}
	}
	if errs := VerifyWith(g, VerifyOptions{Forms: true}); len(errs) > 0 {
		t.Error(errs)
	}
}
