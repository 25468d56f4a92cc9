package ir

import (
	"math"
	"strconv"
	"strings"
)

// FormatInstr prints instruction i in PTX syntax on one line, for
// diagnostics ("@!%p1 add.s32 %r3, %r1, 1;"). It is self-contained and
// tolerant: an operand whose index is out of range prints as "<bad …>"
// instead of panicking, so the verifier can show broken instructions. The
// full printer is ir/ptx's.
func (f *Func) FormatInstr(i InstrID) string {
	if int(i) >= len(f.Op) {
		return "<no instruction " + strconv.Itoa(int(i)) + ">"
	}
	var b strings.Builder
	if g := f.Guard[i]; g != NoOperand {
		b.WriteByte('@')
		f.formatOperand(&b, g)
		b.WriteByte(' ')
	}
	mn := ""
	if int(i) < len(f.Mnemonic) {
		mn = f.Str(f.Mnemonic[i])
	}
	if mn == "" {
		mn = f.Op[i].String()
	}
	b.WriteString(mn)
	if int(f.OpStart[i])+int(f.OpCount[i]) > len(f.Operands) {
		b.WriteString(" <operands out of range>;")
		return b.String()
	}
	for k, o := range f.Ops(i) {
		switch {
		case k == 0:
			b.WriteByte(' ')
		case o.Has(FlagPipe) && o.Kind() == KReg:
			b.WriteByte('|')
		default:
			b.WriteString(", ")
		}
		f.formatOperand(&b, o)
	}
	b.WriteByte(';')
	return b.String()
}

// FormatOperand prints one operand of f in PTX syntax.
func (f *Func) FormatOperand(o Operand) string {
	var b strings.Builder
	f.formatOperand(&b, o)
	return b.String()
}

func (f *Func) formatOperand(b *strings.Builder, o Operand) {
	if o == NoOperand {
		b.WriteString("<none>")
		return
	}
	idx := o.Index()
	bad := func() {
		b.WriteString("<bad ")
		b.WriteString(o.Kind().String())
		b.WriteByte(' ')
		b.WriteString(strconv.FormatUint(uint64(idx), 10))
		b.WriteByte('>')
	}
	switch o.Kind() {
	case KReg:
		if int(idx) >= len(f.RegType) {
			bad()
			return
		}
		if o.Has(FlagNot) {
			b.WriteByte('!')
		}
		if o.Has(FlagNeg) {
			b.WriteByte('-')
		}
		name := ""
		if int(idx) < len(f.RegName) {
			name = f.Str(f.RegName[idx])
		}
		if name == "" {
			name = "%v" + strconv.Itoa(int(idx))
		}
		b.WriteString(name)
	case KImm:
		if int(idx) >= len(f.Imms) {
			bad()
			return
		}
		if o.Has(FlagNeg) {
			b.WriteByte('-')
		}
		formatImm(b, f.Imms[idx])
	case KSym:
		if f.Mod == nil || int(idx) >= len(f.Mod.Syms) {
			bad()
			return
		}
		if o.Has(FlagNot) {
			b.WriteByte('!')
		}
		b.WriteString(f.Str(f.Mod.Syms[idx].Name))
	case KLabel:
		if int(idx) >= f.NumBlocks() {
			bad()
			return
		}
		b.WriteString(f.blockName(BlockID(idx)))
	case KAddr:
		if int(idx) >= len(f.Addrs) || int(f.Addrs[idx].Elems) >= len(f.Lists) {
			bad()
			return
		}
		a := f.Addrs[idx]
		b.WriteByte('[')
		elems := f.ListElems(a.Elems)
		for k, e := range elems {
			if k > 0 {
				b.WriteString(", ")
			}
			f.formatOperand(b, e)
		}
		if a.HasOff || len(elems) == 0 {
			if len(elems) > 0 {
				b.WriteByte('+') // nvcc writes "[%rd1+-8]"
			}
			b.WriteString(strconv.FormatInt(a.Off, 10))
		}
		b.WriteByte(']')
	case KList:
		if int(idx) >= len(f.Lists) {
			bad()
			return
		}
		open, close := byte('{'), byte('}')
		if o.Has(FlagParen) {
			open, close = '(', ')'
		}
		b.WriteByte(open)
		for k, e := range f.ListElems(idx) {
			if k > 0 {
				b.WriteString(", ")
			}
			f.formatOperand(b, e)
		}
		b.WriteByte(close)
	case KSpecial:
		if f.Mod == nil || int(idx) >= len(f.Mod.Specials) {
			bad()
			return
		}
		b.WriteString(f.Str(f.Mod.Specials[idx]))
	case KSink:
		b.WriteByte('_')
	}
}

// blockName returns the label of block b, or "$BB<b>" when it has none.
func (f *Func) blockName(b BlockID) string {
	if int(b) < len(f.BlockLabel) {
		if s := f.BlockLabel[b]; s != NoSym && f.Mod != nil && int(s) < len(f.Mod.Syms) {
			return f.Str(f.Mod.Syms[s].Name)
		}
	}
	return "$BB" + strconv.Itoa(int(b))
}

func formatImm(b *strings.Builder, v Imm) {
	switch v.Kind {
	case ImmInt:
		b.WriteString(strconv.FormatInt(int64(v.Bits), 10))
	case ImmUint:
		b.WriteString(strconv.FormatUint(v.Bits, 10))
		b.WriteByte('U')
	case ImmHex:
		b.WriteString("0x")
		b.WriteString(strconv.FormatUint(v.Bits, 16))
	case ImmF32:
		s := strconv.FormatUint(v.Bits&0xFFFFFFFF, 16)
		b.WriteString("0f")
		b.WriteString(strings.Repeat("0", 8-len(s)))
		b.WriteString(strings.ToUpper(s))
	case ImmF64:
		s := strconv.FormatUint(v.Bits, 16)
		b.WriteString("0d")
		b.WriteString(strings.Repeat("0", 16-len(s)))
		b.WriteString(strings.ToUpper(s))
	case ImmDecimal:
		s := strconv.FormatFloat(math.Float64frombits(v.Bits), 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEnN") {
			s += ".0"
		}
		b.WriteString(s)
	default:
		b.WriteString(strconv.FormatUint(v.Bits, 10))
	}
}
