package ir

import (
	"bytes"
	"math"
	"strconv"
)

// The one operand and instruction formatter of the module: the verifier's
// FormatInstr/FormatOperand, Dump and the PTX printer (package ir/ptx)
// all go through AppendInstr and AppendOperand. They differ only in the
// names (a Namer) and the style.

// Namer supplies the names AppendOperand prints for registers, symbols
// and branch targets. The PTX printer passes one that knows the names it
// made unique; nil means the names in the IR (see AppendOperand).
type Namer interface {
	RegName(RegID) string
	SymName(SymID) string
	BlockName(BlockID) string
}

// OperandStyle selects how AppendOperand writes an operand.
type OperandStyle uint8

const (
	// StylePTX is PTX syntax, as the printer writes it.
	StylePTX OperandStyle = iota
	// StyleDump is Dump's: a definition carries a trailing '*', a branch
	// target its block ("$L__BB0_3(b4)"), and a floating-point immediate
	// its value ("1.5f32") rather than its bits.
	StyleDump
)

// FormatInstr prints instruction i in PTX syntax on one line, for
// diagnostics ("@!%p1 add.s32 %r3, %r1, 1;"). It is tolerant: an operand
// whose index is out of range prints as "<bad …>" instead of panicking,
// so the verifier can show broken instructions.
func (f *Func) FormatInstr(i InstrID) string {
	return string(append(AppendInstr(nil, f, i, nil, StylePTX), ';'))
}

// FormatOperand prints one operand of f in PTX syntax.
func (f *Func) FormatOperand(o Operand) string {
	return string(AppendOperand(nil, f, o, nil, StylePTX))
}

// AppendInstr appends instruction i without indentation or the final ';':
// the guard, the mnemonic (the opcode's name when the mnemonic is empty)
// and the operands, with '|' before a FlagPipe operand. Names and style
// are AppendOperand's.
func AppendInstr(dst []byte, f *Func, i InstrID, names Namer, style OperandStyle) []byte {
	if int(i) >= len(f.Op) {
		dst = append(dst, "<no instruction "...)
		dst = strconv.AppendUint(dst, uint64(i), 10)
		return append(dst, '>')
	}
	if g := f.Guard[i]; g != NoOperand {
		dst = append(dst, '@')
		dst = AppendOperand(dst, f, g, names, style)
		dst = append(dst, ' ')
	}
	n := len(dst)
	if int(i) < len(f.Mnemonic) {
		dst = append(dst, f.str(f.Mnemonic[i])...)
	}
	if len(dst) == n {
		dst = append(dst, f.Op[i].String()...)
	}
	if int(f.OpStart[i])+int(f.OpCount[i]) > len(f.Operands) {
		return append(dst, " <operands out of range>"...)
	}
	for k, o := range f.Ops(i) {
		switch {
		case k == 0:
			dst = append(dst, ' ')
		case o.Has(FlagPipe) && o.Kind() != KLabel:
			dst = append(dst, '|')
		default:
			dst = append(dst, ", "...)
		}
		dst = AppendOperand(dst, f, o, names, style)
	}
	return dst
}

// AppendOperand appends operand o of f. With a nil Namer, registers print
// their IR name ("%v<N>" when unnamed), symbols theirs, and a branch
// target its block's label ("$BB<N>" when it has none). An index out of
// range prints as "<bad KIND N>", NoOperand as "<none>".
func AppendOperand(dst []byte, f *Func, o Operand, names Namer, style OperandStyle) []byte {
	if o == NoOperand {
		return append(dst, "<none>"...)
	}
	if o.Has(FlagNot) {
		dst = append(dst, '!')
	}
	if o.Has(FlagNeg) {
		dst = append(dst, '-')
	}
	idx := o.Index()
	switch o.Kind() {
	case KReg:
		switch {
		case int(idx) >= len(f.RegType):
			dst = appendBad(dst, o)
		case names != nil:
			dst = append(dst, names.RegName(RegID(idx))...)
		default:
			dst = f.appendRegName(dst, RegID(idx))
		}
	case KImm:
		switch {
		case int(idx) >= len(f.Imms):
			dst = appendBad(dst, o)
		case style == StyleDump:
			dst = appendImmValue(dst, f.Imms[idx])
		default:
			dst = AppendImm(dst, f.Imms[idx])
		}
	case KSym:
		switch {
		case f.Mod == nil || int(idx) >= len(f.Mod.Syms):
			dst = appendBad(dst, o)
		case names != nil:
			dst = append(dst, names.SymName(SymID(idx))...)
		default:
			dst = append(dst, f.str(f.Mod.Syms[idx].Name)...)
		}
	case KLabel:
		switch {
		case int(idx) >= len(f.BlockFirst):
			dst = appendBad(dst, o)
		case names != nil:
			dst = append(dst, names.BlockName(BlockID(idx))...)
		case style == StyleDump:
			if l := f.BlockLabel[idx]; l != NoSym && f.Mod != nil && int(l) < len(f.Mod.Syms) {
				dst = append(dst, f.str(f.Mod.Syms[l].Name)...)
			}
		default:
			dst = f.appendBlockName(dst, BlockID(idx))
		}
		if style == StyleDump {
			dst = append(dst, "(b"...)
			dst = strconv.AppendUint(dst, uint64(idx), 10)
			dst = append(dst, ')')
		}
	case KSpecial:
		if f.Mod == nil || int(idx) >= len(f.Mod.Specials) {
			return appendBad(dst, o)
		}
		dst = append(dst, f.str(f.Mod.Specials[idx])...)
	case KSink:
		dst = append(dst, '_')
	case KList:
		if int(idx) >= len(f.Lists) {
			return appendBad(dst, o)
		}
		open, close := byte('{'), byte('}')
		if o.Has(FlagParen) {
			open, close = '(', ')'
		}
		dst = append(dst, open)
		for k, e := range f.ListElems(idx) {
			if k > 0 {
				dst = append(dst, ", "...)
			}
			dst = AppendOperand(dst, f, e, names, style)
		}
		dst = append(dst, close)
	case KAddr:
		if int(idx) >= len(f.Addrs) || int(f.Addrs[idx].Elems) >= len(f.Lists) {
			return appendBad(dst, o)
		}
		a := f.Addrs[idx]
		dst = append(dst, '[')
		elems := f.ListElems(a.Elems)
		for k, e := range elems {
			if k > 0 {
				dst = append(dst, ", "...)
			}
			dst = AppendOperand(dst, f, e, names, style)
			if k == 0 && a.HasOff {
				dst = append(dst, '+') // nvcc writes "[%rd1+-8]"
				dst = strconv.AppendInt(dst, a.Off, 10)
			}
		}
		if len(elems) == 0 {
			dst = strconv.AppendInt(dst, a.Off, 10) // an absolute address
		}
		dst = append(dst, ']')
	}
	if style == StyleDump && o.IsDef() {
		dst = append(dst, '*')
	}
	return dst
}

func appendBad(dst []byte, o Operand) []byte {
	dst = append(dst, "<bad "...)
	dst = append(dst, o.Kind().String()...)
	dst = append(dst, ' ')
	dst = strconv.AppendUint(dst, uint64(o.Index()), 10)
	return append(dst, '>')
}

// str is Str that tolerates a function without a module.
func (f *Func) str(id StrID) string {
	if f.Mod == nil {
		return ""
	}
	return f.Mod.Strings.Get(id)
}

func (f *Func) appendRegName(dst []byte, r RegID) []byte {
	if int(r) < len(f.RegName) {
		if s := f.str(f.RegName[r]); s != "" {
			return append(dst, s...)
		}
	}
	return strconv.AppendUint(append(dst, "%v"...), uint64(r), 10)
}

// appendBlockName appends the label of block b, or "$BB<b>" when it has
// none.
func (f *Func) appendBlockName(dst []byte, b BlockID) []byte {
	if int(b) < len(f.BlockLabel) {
		if s := f.BlockLabel[b]; s != NoSym && f.Mod != nil && int(s) < len(f.Mod.Syms) {
			return append(dst, f.str(f.Mod.Syms[s].Name)...)
		}
	}
	return strconv.AppendUint(append(dst, "$BB"...), uint64(b), 10)
}

const hexDigits = "0123456789ABCDEF"

func appendHexBits(dst []byte, prefix string, bits uint64, digits int) []byte {
	dst = append(dst, prefix...)
	for s := 4 * (digits - 1); s >= 0; s -= 4 {
		dst = append(dst, hexDigits[bits>>uint(s)&15])
	}
	return dst
}

// AppendImm appends v in PTX syntax, in the form it was written
// (ImmKind): decimal, U suffix, hex, octal, binary, 0f/0d bit patterns,
// or a decimal float literal (always with a '.'; an infinity or NaN,
// which no decimal literal spells, as its 0d bits). A sign carried by
// FlagNeg is the operand's, not the immediate's.
func AppendImm(dst []byte, v Imm) []byte {
	switch v.Kind {
	case ImmInt:
		return strconv.AppendInt(dst, int64(v.Bits), 10)
	case ImmUint:
		return append(strconv.AppendUint(dst, v.Bits, 10), 'U')
	case ImmHex, ImmHexU:
		dst = strconv.AppendUint(append(dst, "0x"...), v.Bits, 16)
		if v.Kind == ImmHexU {
			dst = append(dst, 'U')
		}
		return dst
	case ImmOct, ImmOctU:
		dst = strconv.AppendUint(append(dst, '0'), v.Bits, 8)
		if v.Kind == ImmOctU {
			dst = append(dst, 'U')
		}
		return dst
	case ImmBin, ImmBinU:
		dst = strconv.AppendUint(append(dst, "0b"...), v.Bits, 2)
		if v.Kind == ImmBinU {
			dst = append(dst, 'U')
		}
		return dst
	case ImmF32:
		return appendHexBits(dst, "0f", v.Bits, 8)
	case ImmF64:
		return appendHexBits(dst, "0d", v.Bits, 16)
	case ImmDecimal:
		x := math.Float64frombits(v.Bits)
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return appendHexBits(dst, "0d", v.Bits, 16)
		}
		start := len(dst)
		dst = strconv.AppendFloat(dst, x, 'g', -1, 64)
		t := dst[start:]
		if bytes.IndexByte(t, '.') >= 0 {
			return dst
		}
		if e := bytes.IndexByte(t, 'e'); e >= 0 {
			// 1e+06 -> 1.0e+06
			var exp [8]byte
			n := copy(exp[:], t[e:])
			return append(append(dst[:start+e], ".0"...), exp[:n]...)
		}
		return append(dst, ".0"...)
	}
	return strconv.AppendUint(dst, v.Bits, 10)
}

// appendImmValue is Dump's form: a floating-point immediate as its value
// with an f32/f64 suffix, any other as AppendImm writes it.
func appendImmValue(dst []byte, v Imm) []byte {
	switch v.Kind {
	case ImmF32:
		dst = strconv.AppendFloat(dst, float64(math.Float32frombits(uint32(v.Bits))), 'g', -1, 32)
		return append(dst, "f32"...)
	case ImmF64, ImmDecimal:
		dst = strconv.AppendFloat(dst, math.Float64frombits(v.Bits), 'g', -1, 64)
		return append(dst, "f64"...)
	}
	return AppendImm(dst, v)
}
