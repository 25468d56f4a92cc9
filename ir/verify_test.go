package ir

import (
	"strings"
	"testing"
)

// TestVerifyCatches breaks one invariant at a time on a valid diamond and
// checks that the verifier reports it, with the instruction text where the
// violation is about one instruction.
func TestVerifyCatches(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(f *Func, bl map[string]BlockID, in map[string]InstrID)
		msg    string
		instr  string // key of the instruction whose text must appear, "" for none
	}{
		{"prev link", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Prev[in["setp"]] = in["ldn"]
		}, "Prev is", "setp"},
		{"dead linked", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.props[in["add"]] |= propDead
		}, "dead instruction still linked", "add"},
		{"block field", func(f *Func, bl map[string]BlockID, in map[string]InstrID) {
			f.Block[in["sub"]] = bl["JOIN"]
		}, "Block says", "sub"},
		{"block last", func(f *Func, bl map[string]BlockID, in map[string]InstrID) {
			f.BlockLast[bl["JOIN"]] = in["st"]
		}, "BlockLast is", ""},
		{"layout missing", func(f *Func, _ map[string]BlockID, _ map[string]InstrID) {
			f.Layout = f.Layout[:len(f.Layout)-1]
		}, "appears 0 times", ""},
		{"layout twice", func(f *Func, _ map[string]BlockID, _ map[string]InstrID) {
			f.Layout = append(f.Layout, f.Layout[0])
		}, "appears 2 times", ""},
		{"cycle", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Next[in["setp"]] = in["ldn"]
		}, "linked twice", "ldn"},
		{"stray claim", func(f *Func, bl map[string]BlockID, _ map[string]InstrID) {
			i := f.NewInstrDecoded(Form{Op: OpMov}, 0, nil)
			f.Block[i] = bl["entry"]
		}, "not in its list", ""},
		{"register range", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Ops(in["add"])[1] = RegOp(999)
		}, "register index 999 out of range", "add"},
		{"immediate range", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Ops(in["add"])[2] = Pack(KImm, 777, 0, false)
		}, "immediate index 777", "add"},
		{"label range", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Ops(in["braj"])[0] = Pack(KLabel, 50, 0, false)
		}, "label block index 50", "braj"},
		{"symbol range", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.ListOps[f.Addrs[f.Ops(in["ldn"])[1].Index()].Elems] = Pack(KSym, 4000, 0, false)
		}, "symbol index 4000", "ldn"},
		{"imm destination", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			ops := f.Ops(in["add"])
			ops[0] = ops[2].AsDef()
		}, "destination is a imm", "add"},
		{"def after use", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			ops := f.Ops(in["add"])
			ops[2] = ops[0]
		}, "destination after a source", "add"},
		{"guard not pred", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Guard[in["bra"]] = RegOp(f.Ops(in["add"])[0].Reg())
		}, "not .pred", "bra"},
		{"setp dest", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Ops(in["setp"])[0] = RegDef(f.Ops(in["add"])[0].Reg())
		}, "setp destination", "setp"},
		{"width", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			rd := f.AddReg(f.Mod.Strings.Intern("%rd9"), TU64)
			f.Ops(in["add"])[1] = RegOp(rd)
		}, "is 64 bits", "add"},
		{"pred in arithmetic", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Ops(in["sub"])[1] = RegOp(f.Ops(in["setp"])[0].Reg())
		}, "is .pred", "sub"},
		{"not on data", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Ops(in["add"])[1] = f.Ops(in["add"])[1].WithFlags(FlagNot)
		}, "'!' on", "add"},
		{"terminator mid-block", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			i := f.NewInstrText("mov.u32", f.Ops(in["add"])[:2])
			f.InsertAfter(in["braj"], i)
		}, "not the last instruction", "braj"},
		{"branch without target", func(f *Func, _ map[string]BlockID, in map[string]InstrID) {
			f.Ops(in["braj"])[0] = f.Ops(in["add"])[2]
		}, "branch without a target", "braj"},
		{"stale CFG", func(f *Func, bl map[string]BlockID, in map[string]InstrID) {
			f.ComputeCFG()
			f.Ops(in["braj"])[0] = Pack(KLabel, uint32(bl["ELSE"]), 0, false) // no invalidation
		}, "stale CFG", ""},
		{"label owner", func(f *Func, bl map[string]BlockID, _ map[string]InstrID) {
			f.Mod.Syms[f.BlockLabel[bl["JOIN"]]].Block = bl["ELSE"]
		}, "want a label of this block", ""},
		{"slices", func(f *Func, _ map[string]BlockID, _ map[string]InstrID) {
			f.Mods = f.Mods[:1]
		}, "column Mods", ""},
		{"lazy column made short", func(f *Func, _ map[string]BlockID, _ map[string]InstrID) {
			f.SetLoc(0, f.Mod.Strings.Intern("1 2 3"))
			f.Loc = f.Loc[:1]
		}, "column Loc", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, bl, in := diamond(t)
			if errs := Verify(f); errs != nil {
				t.Fatalf("valid function rejected: %v", errs)
			}
			tc.break_(f, bl, in)
			errs := Verify(f)
			if len(errs) == 0 {
				t.Fatalf("not reported")
			}
			var hit error
			for _, e := range errs {
				if strings.Contains(e.Error(), tc.msg) {
					hit = e
					break
				}
			}
			if hit == nil {
				t.Fatalf("no error mentions %q: %v", tc.msg, errs)
			}
			if tc.instr != "" {
				text := f.FormatInstr(in[tc.instr])
				if !strings.Contains(hit.Error(), "`"+text+"`") {
					t.Errorf("error %q lacks the instruction `%s`", hit, text)
				}
			}
			t.Log(hit)
		})
	}
}

func TestVerifySSA(t *testing.T) {
	f, _, in := diamond(t)
	// The diamond defines %r2 twice (then and ELSE): not SSA.
	errs := VerifyWith(f, VerifyOptions{SSA: true})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "%r2 defined again") ||
		!strings.Contains(errs[0].Error(), f.FormatInstr(in["sub"])) {
		t.Fatalf("double definition: %v", errs)
	}

	// A straight line in SSA; Dominates by position in the one block.
	b := NewModuleBuilder("8.4", "sm_89", 64)
	fb := b.Entry("ssa")
	x, y := fb.Reg(TU32), fb.Reg(TU32)
	i1 := fb.Ins("mov.u32", RegDef(x), fb.Imm(1))
	i2 := fb.Ins("add.u32", RegDef(y), RegOp(x), RegOp(x))
	fb.Ret()
	g := fb.Func()
	before := func(a, b InstrID) bool { return a < b }
	if errs := VerifyWith(g, VerifyOptions{SSA: true, Dominates: before}); errs != nil {
		t.Fatalf("valid SSA rejected: %v", errs)
	}
	// Swap the order: the use of %r1 comes before its definition.
	g.Unlink(i1)
	g.InsertAfter(i2, i1)
	errs = VerifyWith(g, VerifyOptions{SSA: true, Dominates: func(a, b InstrID) bool {
		pos := map[InstrID]int{i2: 0, i1: 1}
		return pos[a] < pos[b]
	}})
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "not dominated") ||
		!strings.Contains(errs[0].Error(), "add.u32 %r2, %r1, %r1;") {
		t.Fatalf("dominance: %v", errs)
	}
}

func TestVerifyFormatsBrokenOperands(t *testing.T) {
	f, _, in := diamond(t)
	f.Ops(in["add"])[1] = RegOp(12345)
	if got := f.FormatInstr(in["add"]); got != "add.s32 %r2, <bad reg 12345>, 1;" {
		t.Fatalf("got %q", got)
	}
}
