package ir

import (
	"math"
	"testing"
)

// namer is a Namer that tags every name, to see which names are used.
type namer struct{}

func (namer) RegName(r RegID) string     { return "R" + string(rune('0'+r)) }
func (namer) SymName(s SymID) string     { return "S" }
func (namer) BlockName(b BlockID) string { return "B" }

func TestAppendInstrStyles(t *testing.T) {
	f, _, in := diamond(t)
	cases := []struct {
		i         InstrID
		ptx, dump string
		named     string
	}{
		{i: in["ldn"], ptx: "ld.param.u32 %r1, [n]", dump: "ld.param.u32 %r1*, [n]", named: "ld.param.u32 R0, [S]"},
		{i: in["bra"], ptx: "@%p1 bra ELSE", dump: "@%p1 bra ELSE(b1)", named: "@R3 bra B"},
		{i: in["st"], ptx: "st.global.u32 [%rd1+4], %r2", dump: "st.global.u32 [%rd1+4], %r2", named: "st.global.u32 [R2+4], R1"},
	}
	for _, c := range cases {
		if got := string(AppendInstr(nil, f, c.i, nil, StylePTX)); got != c.ptx {
			t.Errorf("PTX: %q, want %q", got, c.ptx)
		}
		if got := string(AppendInstr(nil, f, c.i, nil, StyleDump)); got != c.dump {
			t.Errorf("dump: %q, want %q", got, c.dump)
		}
		if got := string(AppendInstr(nil, f, c.i, namer{}, StylePTX)); got != c.named {
			t.Errorf("named: %q, want %q", got, c.named)
		}
	}
	if got := string(AppendInstr([]byte("x:"), f, InstrID(999), nil, StylePTX)); got != "x:<no instruction 999>" {
		t.Errorf("missing instruction: %q", got)
	}
}

func TestAppendImm(t *testing.T) {
	for _, c := range []struct {
		v         Imm
		ptx, dump string
	}{
		{Imm{Bits: uint64(1<<64 - 5), Kind: ImmInt}, "-5", "-5"},
		{Imm{Bits: 42, Kind: ImmUint}, "42U", "42U"},
		{Imm{Bits: 0x1f, Kind: ImmHex}, "0x1f", "0x1f"},
		{Imm{Bits: 0x1f, Kind: ImmHexU}, "0x1fU", "0x1fU"},
		{Imm{Bits: 8, Kind: ImmOct}, "010", "010"},
		{Imm{Bits: 5, Kind: ImmBinU}, "0b101U", "0b101U"},
		{Imm{Bits: uint64(math.Float32bits(1.5)), Kind: ImmF32}, "0f3FC00000", "1.5f32"},
		{Imm{Bits: math.Float64bits(-2), Kind: ImmF64}, "0dC000000000000000", "-2f64"},
		{Imm{Bits: math.Float64bits(1e6), Kind: ImmDecimal}, "1.0e+06", "1e+06f64"},
		{Imm{Bits: math.Float64bits(3), Kind: ImmDecimal}, "3.0", "3f64"},
		{Imm{Bits: math.Float64bits(math.Inf(1)), Kind: ImmDecimal}, "0d7FF0000000000000", "+Inf" + "f64"},
	} {
		if got := string(AppendImm([]byte("<"), c.v)); got != "<"+c.ptx {
			t.Errorf("AppendImm(%v) = %q, want %q", c.v, got, "<"+c.ptx)
		}
		f := &Func{Imms: []Imm{c.v}}
		o := Pack(KImm, 0, 0, false)
		if got := string(AppendOperand(nil, f, o, nil, StyleDump)); got != c.dump {
			t.Errorf("dump of %v = %q, want %q", c.v, got, c.dump)
		}
	}
}

func TestAppendOperandBad(t *testing.T) {
	f := &Func{}
	for o, want := range map[Operand]string{
		NoOperand:                 "<none>",
		Pack(KReg, 3, 0, false):   "<bad reg 3>",
		Pack(KImm, 0, 0, false):   "<bad imm 0>",
		Pack(KSym, 7, 0, false):   "<bad sym 7>",
		Pack(KLabel, 1, 0, false): "<bad label 1>",
		Pack(KAddr, 2, 0, false):  "<bad addr 2>",
		Pack(KList, 0, 0, false):  "<bad list 0>",
		Pack(KSink, 0, 0, true):   "_",
	} {
		if got := f.FormatOperand(o); got != want {
			t.Errorf("FormatOperand(%v) = %q, want %q", o, got, want)
		}
	}
}
