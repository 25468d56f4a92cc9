package ir

import (
	"reflect"
	"testing"
)

// diamond builds
//
//	entry: ld n; setp.lt p, n, 10; @p bra ELSE
//	then:  add r, n, 1; bra.uni JOIN
//	ELSE:  sub r, n, 1
//	JOIN:  st [out], r; ret
func diamond(t testing.TB) (f *Func, blocks map[string]BlockID, instrs map[string]InstrID) {
	b := NewModuleBuilder("8.4", "sm_89", 64)
	fb := b.Entry("diamond", Param("n", TU32), Param("out", TU64))
	n, r, out := fb.Reg(TU32), fb.Reg(TU32), fb.Reg(TU64)
	p := fb.Reg(TPred)
	elseB := fb.Block("ELSE")
	join := fb.Block("JOIN")
	entry := fb.Current()
	instrs = map[string]InstrID{}
	instrs["ldn"] = fb.Ins("ld.param.u32", RegDef(n), fb.Addr(fb.Sym(fb.ParamSym(0)), 0))
	instrs["ldout"] = fb.Ins("ld.param.u64", RegDef(out), fb.Addr(fb.Sym(fb.ParamSym(1)), 0))
	instrs["setp"] = fb.Ins("setp.lt.u32", RegDef(p), RegOp(n), fb.Imm(10))
	fb.Guard(p, false)
	instrs["bra"] = fb.Bra(elseB)
	instrs["add"] = fb.Ins("add.s32", RegDef(r), RegOp(n), fb.Imm(1))
	then := fb.Current()
	instrs["braj"] = fb.BraUni(join)
	fb.SetBlock(elseB)
	instrs["sub"] = fb.Ins("sub.s32", RegDef(r), RegOp(n), fb.Imm(1))
	fb.SetBlock(join)
	instrs["st"] = fb.Ins("st.global.u32", fb.Addr(RegOp(out), 4), RegOp(r))
	instrs["ret"] = fb.Ret()
	return fb.Func(), map[string]BlockID{"entry": entry, "then": then, "ELSE": elseB, "JOIN": join}, instrs
}

func TestBuilderDiamond(t *testing.T) {
	f, bl, in := diamond(t)
	if errs := Verify(f); errs != nil {
		t.Fatalf("verify: %v", errs)
	}
	wantLayout := []BlockID{bl["entry"], bl["then"], bl["ELSE"], bl["JOIN"]}
	if !reflect.DeepEqual(f.Layout, wantLayout) {
		t.Fatalf("layout %v, want %v", f.Layout, wantLayout)
	}
	f.ComputeCFG()
	if errs := Verify(f); errs != nil {
		t.Fatalf("verify after CFG: %v", errs)
	}
	succ := map[BlockID][]BlockID{
		bl["entry"]: {bl["ELSE"], bl["then"]},
		bl["then"]:  {bl["JOIN"]},
		bl["ELSE"]:  {bl["JOIN"]},
		bl["JOIN"]:  {},
	}
	for b, want := range succ {
		if got := f.SuccsOf(b); !sameBlocks(got, want) {
			t.Errorf("succs(%d) = %v, want %v", b, got, want)
		}
	}
	if got := f.PredsOf(bl["JOIN"]); !sameBlocks(got, []BlockID{bl["then"], bl["ELSE"]}) && !sameBlocks(got, []BlockID{bl["ELSE"], bl["then"]}) {
		t.Errorf("preds(JOIN) = %v", got)
	}
	text := map[string]string{
		"ldn":  "ld.param.u32 %r1, [n];",
		"setp": "setp.lt.u32 %p1, %r1, 10;",
		"bra":  "@%p1 bra ELSE;",
		"add":  "add.s32 %r2, %r1, 1;",
		"braj": "bra.uni JOIN;",
		"st":   "st.global.u32 [%rd1+4], %r2;",
		"ret":  "ret;",
	}
	for k, want := range text {
		if got := f.FormatInstr(in[k]); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	// Shape of the parser: labels are SymLabel symbols owned by f.
	for _, name := range []string{"ELSE", "JOIN"} {
		s := f.Mod.Syms[f.BlockLabel[bl[name]]]
		if s.Kind != SymLabel || f.Str(s.Name) != name || s.Block != bl[name] || s.Owner != f.ID {
			t.Errorf("label %s: %+v", name, s)
		}
	}
	fs := f.Mod.Syms[f.Sym]
	if fs.Kind != SymFunc || fs.Func != f.ID || f.Str(fs.Name) != "diamond" {
		t.Errorf("function symbol %+v", fs)
	}
	if o := f.Ops(in["bra"])[0]; o.Kind() != KLabel || BlockID(o.Index()) != bl["ELSE"] {
		t.Errorf("bra operand %v", o)
	}
	if !f.Ops(in["add"])[0].IsDef() || f.Ops(in["add"])[1].IsDef() {
		t.Errorf("def bits wrong on add")
	}
}

func TestBuilderLoop(t *testing.T) {
	b := NewModuleBuilder("8.4", "sm_89", 64)
	fb := b.Entry("loop")
	i, acc := fb.Reg(TS32), fb.Reg(TF32)
	p := fb.Reg(TPred)
	entry := fb.Current()
	fb.Ins("mov.u32", RegDef(i), fb.Imm(0))
	fb.Ins("mov.f32", RegDef(acc), fb.ImmF32(0))
	loop := fb.Block("LOOP")
	fb.SetBlock(loop)
	fb.Ins("add.f32", RegDef(acc), RegOp(acc), fb.ImmF32(1.5))
	fb.Ins("add.s32", RegDef(i), RegOp(i), fb.Imm(1))
	fb.Ins("setp.lt.s32", RegDef(p), RegOp(i), fb.Imm(100))
	fb.Guard(p, false)
	back := fb.Bra(loop)
	fb.Exit()
	exit := fb.Current()
	f := fb.Func()
	f.ComputeCFG()
	if errs := Verify(f); errs != nil {
		t.Fatalf("verify: %v", errs)
	}
	if got := f.SuccsOf(entry); !sameBlocks(got, []BlockID{loop}) {
		t.Errorf("succs(entry) = %v", got)
	}
	if got := f.SuccsOf(loop); !sameBlocks(got, []BlockID{loop, exit}) {
		t.Errorf("succs(loop) = %v", got)
	}
	if got := f.PredsOf(loop); !sameBlocks(got, []BlockID{entry, loop}) {
		t.Errorf("preds(loop) = %v", got)
	}
	if got := f.SuccsOf(exit); len(got) != 0 {
		t.Errorf("succs(exit) = %v", got)
	}
	if got := f.FormatInstr(back); got != "@%p1 bra LOOP;" {
		t.Errorf("back edge prints %q", got)
	}
	if got := f.FormatInstr(f.BlockFirst[loop]); got != "add.f32 %f1, %f1, 0f3FC00000;" {
		t.Errorf("prints %q", got)
	}
}

func TestBuilderMnemonics(t *testing.T) {
	tests := []struct {
		mn    string
		op    Opcode
		t, t2 Type
		sp    Space
	}{
		{"ld.global.nc.v4.f32", OpLd, TF32, TNone, SpaceGlobal},
		{"ld.u32", OpLd, TU32, TNone, SpaceNone}, // generic is decided by Ins
		{"st.shared::cta.u32", OpSt, TU32, TNone, SpaceShared},
		{"st.shared::cluster.u32", OpSt, TU32, TNone, SpaceSharedCluster},
		{"atom.add.u32", OpAtom, TU32, TNone, SpaceNone},
		{"atom.global.cas.b64", OpAtom, TB64, TNone, SpaceGlobal},
		{"cvt.rn.f32.s32", OpCvt, TF32, TS32, SpaceNone},
		{"cvta.to.global.u64", OpCvta, TU64, TNone, SpaceGlobal},
		{"mov.u32", OpMov, TU32, TNone, SpaceNone},
		{"cp.async.ca.shared.global", OpCp, TNone, TNone, SpaceShared},
		{"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", OpMma, TF32, TBF16, SpaceNone},
		{"bar.sync", OpBar, TNone, TNone, SpaceNone},
		{"frobnicate.u32", OpUnknown, TU32, TNone, SpaceNone},
	}
	for _, tc := range tests {
		d := Decode(tc.mn)
		op, ty, t2, sp := d.Op, d.Type, d.Type2, d.Space
		if op != tc.op || ty != tc.t || t2 != tc.t2 || sp != tc.sp {
			t.Errorf("%s: %v %v %v %v, want %v %v %v %v", tc.mn, op, ty, t2, sp, tc.op, tc.t, tc.t2, tc.sp)
		}
	}
}

func TestBuilderOperands(t *testing.T) {
	b := NewModuleBuilder("8.4", "sm_90", 64)
	printf := b.DeclareFunc("vprintf", []ParamSpec{Param("r", TB32)}, Param("fmt", TB64), Param("args", TB64))
	g := b.Global("table", SpaceGlobal, TB32, 4, "[16]")
	fb := b.Entry("ops")
	f := fb.Func()
	r := fb.Reg(TU32)
	rd := fb.Reg(TU64)
	h := fb.Reg(TB32)
	p, q := fb.Reg(TPred), fb.Reg(TPred)
	pa := fb.Local("param0", SpaceParam, TB64, 8, "")
	rv := fb.Local("retval0", SpaceParam, TB32, 0, "")
	gen := fb.Ins("ld.u32", RegDef(r), fb.Addr(NoOperand, 64))
	if f.Space[gen] != SpaceGeneric {
		t.Errorf("ld without a space: %v, want generic", f.Space[gen])
	}
	if i := fb.Ins("add.u32", RegDef(r), RegOp(r), RegOp(r)); f.Space[i] != SpaceNone {
		t.Errorf("add has space %v", f.Space[i])
	}
	cases := []struct {
		i    InstrID
		want string
	}{
		{fb.Ins("mov.u32", RegDef(r), fb.Special("%tid.x")), "mov.u32 %r1, %tid.x;"},
		{fb.Ins("mov.u64", RegDef(rd), fb.Sym(g)), "mov.u64 %rd1, table;"},
		{fb.Ins("ld.global.v2.u32", fb.Vec(RegDef(r), fb.Sink()), fb.Addr(RegOp(rd), -8)), "ld.global.v2.u32 {%r1, _}, [%rd1+-8];"},
		{fb.Ins("setp.eq.and.u32", RegDef(p), PipeDef(q), RegOp(r), fb.ImmHex(0xff), Not(p)), "setp.eq.and.u32 %p1|%p2, %r1, 0xff, !%p1;"},
		{fb.Ins("neg.s32", RegDef(r), Neg(r)), "neg.s32 %r1, -%r1;"},
		{fb.Ins("mov.f64", RegDef(rd), fb.ImmF64(1)), "mov.f64 %rd1, 0d3FF0000000000000;"},
		{gen, "ld.u32 %r1, [64];"},
		{fb.Ins("tex.1d.v4.f32.s32", fb.Vec(RegDef(h), RegDef(h), RegDef(h), RegDef(h)), fb.AddrElems(fb.Sym(g), fb.Vec(RegOp(r)))), "tex.1d.v4.f32.s32 {%r2, %r2, %r2, %r2}, [table, {%r1}];"},
		{fb.Call([]Operand{fb.Sym(rv)}, printf, []Operand{fb.Sym(pa), fb.Sym(pa)}), "call (retval0), vprintf, (param0, param0);"},
		{fb.Ins("mov.u32", RegDef(r), fb.ImmU(7)), "mov.u32 %r1, 7U;"},
	}
	fb.Ret()
	for _, c := range cases {
		if got := f.FormatInstr(c.i); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	if errs := VerifyModule(b.Module()); errs != nil {
		t.Fatalf("verify: %v", errs)
	}
	if len(f.Mod.Specials) != 1 || fb.Special("%tid.x") != fb.Special("%tid.x") {
		t.Errorf("specials not shared: %v", f.Mod.Specials)
	}
	if b.Module().Funcs[0].HasBody || b.Module().Funcs[0].Linkage != LinkExtern {
		t.Errorf("declaration has a body")
	}
}

func TestBuilderLabelsUnique(t *testing.T) {
	b := NewModuleBuilder("8.4", "sm_89", 64)
	fb := b.Entry("k")
	a1, a2 := fb.Block("A"), fb.Block("A")
	if fb.BlockName(a1) == fb.BlockName(a2) {
		t.Fatalf("labels collide: %s", fb.BlockName(a1))
	}
	anon := fb.Block("")
	fb.Bra(anon)
	if fb.BlockName(anon) == "" || fb.Func().BlockLabel[anon] == NoSym {
		t.Fatalf("branch to an unlabeled block did not label it")
	}
	fb.SetBlock(anon)
	fb.Ret()
	if errs := Verify(fb.Func()); errs != nil {
		t.Fatal(errs)
	}
}

func BenchmarkBuilder(b *testing.B) {
	for b.Loop() {
		mb := NewModuleBuilder("8.4", "sm_89", 64)
		fb := mb.Entry("k")
		r := fb.Reg(TU32)
		one := fb.Imm(1)
		for range 1000 {
			fb.Ins("add.s32", RegDef(r), RegOp(r), one)
		}
		fb.Ret()
	}
}

// TestSetFormSameEdges: a change of form keeps the edges current unless
// the instruction was or becomes a branch or terminator; SetForm marks
// them stale at any change.
func TestSetFormSameEdges(t *testing.T) {
	f, _, in := diamond(t)
	f.ComputeCFG()
	f.SetFormSameEdges(in["add"], Form{Op: OpSub, Type: TS32})
	if !f.CFGValid() {
		t.Error("add became sub: the edges were marked stale")
	}
	f.SetFormSameEdges(in["braj"], Form{Op: OpBra, Mods: f.Mods[in["braj"]]})
	if f.CFGValid() {
		t.Error("a branch's form changed: the edges stayed current")
	}
	f.ComputeCFG()
	f.SetFormSameEdges(in["sub"], Form{Op: OpRet})
	if f.CFGValid() {
		t.Error("sub became ret: the edges stayed current")
	}
	f.ComputeCFG()
	f.SetForm(in["add"], Form{Op: OpAdd, Type: TS32})
	if f.CFGValid() {
		t.Error("SetForm kept the edges current")
	}
}
