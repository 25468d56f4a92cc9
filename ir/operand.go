package ir

import "fmt"

// Operand is one packed 32-bit operand word. The layout is fixed here and
// nowhere else:
//
//	bit  31     : definition (the instruction writes this operand)
//	bits 28..30 : kind tag (OperandKind)
//	bits 24..27 : flags (OperandFlag), meaning depends on the kind
//	bits  0..23 : index into the table the kind names
//
// An index has 24 bits, so a function may hold at most 1<<24 registers,
// immediates, address or list entries; Pack panics past that (the parser
// turns that into an error first).
type Operand uint32

const (
	operandDefShift   = 31
	operandKindShift  = 28
	operandKindMask   = 0x7
	operandFlagShift  = 24
	operandFlagMask   = 0xF
	operandIndexMask  = 1<<24 - 1
	MaxOperandIndex   = operandIndexMask
	operandDefBit     = Operand(1) << operandDefShift
	operandFlagsInPos = Operand(operandFlagMask) << operandFlagShift
)

// NoOperand marks an absent operand (for example an unguarded
// instruction's guard). It decodes as a definition of special-register
// index 0xFFFFFF with every flag set, which no real operand is.
const NoOperand Operand = 0xFFFFFFFF

// OperandKind says which table an operand's index points into.
type OperandKind uint8

const (
	KReg     OperandKind = iota // a virtual register: RegID
	KImm                        // an immediate: index into Func.Imms
	KSym                        // a symbol (param, variable, function, label name used as a value): SymID in Module.Syms
	KLabel                      // a branch target: BlockID
	KAddr                       // a memory address [base+off] or [a, b, {c}]: index into Func.Addrs
	KList                       // a vector {a,b} or a parenthesised list (a,b): index into Func.Lists
	KSpecial                    // a special register such as %tid.x: SpecialID
	KSink                       // the sink operand "_"; index unused
)

var kindNames = [...]string{"reg", "imm", "sym", "label", "addr", "list", "special", "sink"}

func (k OperandKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// OperandFlag bits refine an operand.
type OperandFlag uint8

const (
	// FlagNot: the logical negation "!%p" of a predicate (guards, and
	// predicate sources of instructions such as selp/setp combinations).
	FlagNot OperandFlag = 1 << iota
	// FlagNeg: arithmetic negation "-x" written on the operand itself.
	FlagNeg
	// FlagParen: a KList written with parentheses (call argument lists)
	// rather than braces (vectors).
	FlagParen
	// FlagPipe: the second destination of "setp ... %p|%q".
	FlagPipe
)

// Pack builds an operand word. It panics when index needs more than 24
// bits: an internal error, since the parser and builder check first.
func Pack(kind OperandKind, index uint32, flags OperandFlag, def bool) Operand {
	if index > MaxOperandIndex {
		panic(fmt.Sprintf("ir: operand index %d overflows 24 bits", index))
	}
	o := Operand(kind)<<operandKindShift | Operand(flags&operandFlagMask)<<operandFlagShift | Operand(index)
	if def {
		o |= operandDefBit
	}
	return o
}

// RegOp is a use of register r; RegDef a definition of it.
func RegOp(r RegID) Operand  { return Pack(KReg, uint32(r), 0, false) }
func RegDef(r RegID) Operand { return Pack(KReg, uint32(r), 0, true) }

func (o Operand) Kind() OperandKind  { return OperandKind(o >> operandKindShift & operandKindMask) }
func (o Operand) Index() uint32      { return uint32(o & operandIndexMask) }
func (o Operand) Flags() OperandFlag { return OperandFlag(o >> operandFlagShift & operandFlagMask) }
func (o Operand) IsDef() bool        { return o&operandDefBit != 0 }
func (o Operand) Has(f OperandFlag) bool {
	return o.Flags()&f != 0
}

// IsReg reports whether o names a register; Reg returns it.
func (o Operand) IsReg() bool { return o != NoOperand && o.Kind() == KReg }
func (o Operand) Reg() RegID  { return RegID(o.Index()) }

// AsDef and AsUse set or clear the definition bit.
func (o Operand) AsDef() Operand { return o | operandDefBit }
func (o Operand) AsUse() Operand { return o &^ operandDefBit }

// WithFlags replaces the flag bits.
func (o Operand) WithFlags(f OperandFlag) Operand {
	return o&^operandFlagsInPos | Operand(f&operandFlagMask)<<operandFlagShift
}

// WithIndex replaces the index, keeping kind, flags and definition bit.
func (o Operand) WithIndex(i uint32) Operand {
	if i > MaxOperandIndex {
		panic(fmt.Sprintf("ir: operand index %d overflows 24 bits", i))
	}
	return o&^operandIndexMask | Operand(i)
}

func (o Operand) String() string {
	if o == NoOperand {
		return "none"
	}
	d := ""
	if o.IsDef() {
		d = "def "
	}
	return fmt.Sprintf("%s%s#%d/f%x", d, o.Kind(), o.Index(), uint8(o.Flags()))
}
