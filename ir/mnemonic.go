package ir

import (
	"fmt"
	"strings"
)

// Instruction facts decoded once.
//
// A mnemonic ("ld.global.nc.v4.f32") is decoded by Decode when the
// instruction is made (by the parser, the builder or a generator) into
// typed fields: the opcode, the first and second type suffixes, the state
// space, and Mods, a bit set of the modifiers passes reason about, with
// the rounding mode, the comparison, the boolean combiner and the vector
// width as small enumerations packed into it. Passes read the fields and
// never parse text. The text is kept for printing; an instruction whose
// form a pass changes gets its text rebuilt from the fields (Module.Text,
// through Func.SetForm), so text and fields cannot disagree — the
// verifier checks that they do not.
//
// Components Decode does not model (cache operators, scopes, shuffle
// modes, matrix shapes, …) set ModOther: the text keeps them, and such a
// form cannot be rebuilt from its fields.

// Mods is the decoded modifier set of one instruction, in 32 bits: flags
// for the modifiers that can combine, and small enumerations for those
// that exclude each other (the half of a multiply, the memory ordering,
// the sub-operation of wmma/cp/mbarrier/…, rounding, the comparison, the
// predicate combiner, the vector width). Test flags with Has, read the
// enumerations with their accessors (Half, Order, Sub, Round, Cmp,
// BoolOp, Vec): the Mod* constants of enumerated modifiers are field
// values, which Has cannot test.
type Mods uint32

// Modifier flags.
const (
	ModCC       Mods = 1 << iota // .cc: writes the carry flag
	ModSat                       // .sat
	ModFtz                       // .ftz
	ModNC                        // ld.global.nc: non-coherent (read-only) path
	ModAsync                     // .async (st.async, red.async, cp.async, …)
	ModUni                       // bra.uni, brx.idx.uni, call.uni: known non-divergent
	ModSync                      // .sync (bar.sync, shfl.sync, …)
	ModAligned                   // .aligned
	ModOther                     // a component only the text holds
	numModFlags = iota
)

var modNames = [numModFlags]string{"cc", "sat", "ftz", "nc", "async", "uni", "sync", "aligned", ""}

// Fields of the enumerations inside Mods.
const (
	halfShift  = 9  // 2 bits: Half
	orderShift = 11 // 3 bits: Order
	subShift   = 14 // 4 bits: Sub
	roundShift = 18 // 4 bits: Round
	cmpShift   = 22 // 5 bits: Cmp
	boolShift  = 27 // 2 bits: BoolOp
	vecShift   = 29 // 2 bits: 0, .v2, .v4, .v8
	halfMask   = Mods(0x3) << halfShift
	orderMask  = Mods(0x7) << orderShift
	subMask    = Mods(0xF) << subShift
	roundMask  = Mods(0xF) << roundShift
	cmpMask    = Mods(0x1F) << cmpShift
	boolMask   = Mods(0x3) << boolShift
	vecMask    = Mods(0x3) << vecShift
	flagMask   = Mods(1)<<numModFlags - 1
)

// Half is the part of a product mul/mad keep (.lo, .hi, .wide).
type Half uint8

const (
	HalfNone Half = iota
	HalfLo
	HalfHi
	HalfWide
)

var halfNames = [...]string{"", "lo", "hi", "wide"}

// Order is a memory-ordering qualifier; any but OrderNone makes an access
// strong (it keeps its order and count).
type Order uint8

const (
	OrderNone Order = iota
	OrderVolatile
	OrderRelaxed
	OrderAcquire
	OrderRelease
	OrderAcqRel
	OrderSC
	OrderMMIO
)

var orderNames = [...]string{"", "volatile", "relaxed", "acquire", "release", "acq_rel", "sc", "mmio"}

// Sub is the sub-operation of opcodes that name several (wmma.load,
// cp.async.wait_group, mbarrier.pending_count, …).
type Sub uint8

const (
	SubNone Sub = iota
	SubLoad
	SubStore
	SubMma
	SubWaitGroup
	SubWaitAll
	SubCommitGroup
	SubMbarrier
	SubPendingCount
	SubReplace
	SubQueryCancel
	numSubs
)

var subNames = [numSubs]string{"", "load", "store", "mma", "wait_group", "wait_all", "commit_group", "mbarrier", "pending_count", "replace", "query_cancel"}

// Field values, to build forms with (Mods: ModLo | ModSat); test them with
// the accessors.
const (
	ModLo           = Mods(HalfLo) << halfShift
	ModHi           = Mods(HalfHi) << halfShift
	ModWide         = Mods(HalfWide) << halfShift
	ModVolatile     = Mods(OrderVolatile) << orderShift
	ModRelaxed      = Mods(OrderRelaxed) << orderShift
	ModAcquire      = Mods(OrderAcquire) << orderShift
	ModRelease      = Mods(OrderRelease) << orderShift
	ModAcqRel       = Mods(OrderAcqRel) << orderShift
	ModSC           = Mods(OrderSC) << orderShift
	ModMMIO         = Mods(OrderMMIO) << orderShift
	ModLoad         = Mods(SubLoad) << subShift
	ModStore        = Mods(SubStore) << subShift
	ModMma          = Mods(SubMma) << subShift
	ModWaitGroup    = Mods(SubWaitGroup) << subShift
	ModWaitAll      = Mods(SubWaitAll) << subShift
	ModCommitGroup  = Mods(SubCommitGroup) << subShift
	ModMbarrier     = Mods(SubMbarrier) << subShift
	ModPendingCount = Mods(SubPendingCount) << subShift
	ModReplace      = Mods(SubReplace) << subShift
	ModQueryCancel  = Mods(SubQueryCancel) << subShift
)

// Round is a rounding modifier, or .approx/.full (which no rounding mode
// accompanies).
type Round uint8

const (
	RoundNone Round = iota
	RoundRN
	RoundRZ
	RoundRM
	RoundRP
	RoundRNA
	RoundRS
	RoundRNI
	RoundRZI
	RoundRMI
	RoundRPI
	RoundApprox
	RoundFull
	numRounds
)

var roundNames = [numRounds]string{"", "rn", "rz", "rm", "rp", "rna", "rs", "rni", "rzi", "rmi", "rpi", "approx", "full"}

func (r Round) String() string { return roundNames[r] }

// Cmp is the comparison of setp and set.
type Cmp uint8

const (
	CmpNone Cmp = iota
	CmpEq
	CmpNe
	CmpLt
	CmpLe
	CmpGt
	CmpGe
	CmpLo
	CmpLs
	CmpHi
	CmpHs
	CmpEqu
	CmpNeu
	CmpLtu
	CmpLeu
	CmpGtu
	CmpGeu
	CmpNum
	CmpNan
	numCmps
)

var cmpNames = [numCmps]string{"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}

func (c Cmp) String() string { return cmpNames[c] }

// Commutes reports whether the comparison gives the same result with its
// operands swapped.
func (c Cmp) Commutes() bool {
	switch c {
	case CmpEq, CmpNe, CmpEqu, CmpNeu, CmpNum, CmpNan:
		return true
	}
	return false
}

// BoolOp is the predicate combiner of setp/set (".and", ".or", ".xor").
type BoolOp uint8

const (
	BoolNone BoolOp = iota
	BoolAnd
	BoolOr
	BoolXor
)

var boolNames = [...]string{"", "and", "or", "xor"}

// Has reports whether every flag of q is in m (flags only; see Mods).
func (m Mods) Has(q Mods) bool { return m&q == q }

// Flags returns m's flag bits only (the enumerations cleared).
func (m Mods) Flags() Mods { return m & flagMask }

// Half returns the half of a product (.lo, .hi, .wide).
func (m Mods) Half() Half { return Half(m & halfMask >> halfShift) }

// Order returns the memory-ordering qualifier.
func (m Mods) Order() Order { return Order(m & orderMask >> orderShift) }

// Sub returns the sub-operation.
func (m Mods) Sub() Sub { return Sub(m & subMask >> subShift) }

// Round returns the rounding modifier.
func (m Mods) Round() Round { return Round(m & roundMask >> roundShift) }

// Cmp returns the comparison (setp, set).
func (m Mods) Cmp() Cmp { return Cmp(m & cmpMask >> cmpShift) }

// BoolOp returns the predicate combiner (setp, set).
func (m Mods) BoolOp() BoolOp { return BoolOp(m & boolMask >> boolShift) }

// Vec returns the vector width: 0, 2, 4 or 8.
func (m Mods) Vec() int {
	if v := m & vecMask >> vecShift; v != 0 {
		return 1 << v
	}
	return 0
}

// WithRound returns m with rounding r.
func (m Mods) WithRound(r Round) Mods { return m&^roundMask | Mods(r)<<roundShift }

// WithCmp returns m with comparison c.
func (m Mods) WithCmp(c Cmp) Mods { return m&^cmpMask | Mods(c)<<cmpShift }

// WithBoolOp returns m with combiner b.
func (m Mods) WithBoolOp(b BoolOp) Mods { return m&^boolMask | Mods(b)<<boolShift }

// WithVec returns m with vector width n (0, 2, 4 or 8).
func (m Mods) WithVec(n int) Mods {
	v := Mods(0)
	switch n {
	case 2:
		v = 1
	case 4:
		v = 2
	case 8:
		v = 3
	}
	return m&^vecMask | v<<vecShift
}

// Form is what a mnemonic says, decoded: the instruction's opcode, type
// suffixes, named state space and modifiers.
type Form struct {
	Op    Opcode
	Type  Type  // the first type suffix
	Type2 Type  // the second type suffix
	Space Space // the first state space named (SpaceNone when none)
	Mods  Mods
}

var (
	roundByName = map[string]Round{}
	cmpByName   = map[string]Cmp{}
	// modByName maps a modifier to the Mods it sets and the field it
	// fills (0 for a flag), so a second value for one field is "other".
	modByName = map[string]struct{ val, field Mods }{}
)

func init() {
	for i, n := range roundNames[1:] {
		roundByName[n] = Round(i + 1)
	}
	for i, n := range cmpNames[1:] {
		cmpByName[n] = Cmp(i + 1)
	}
	for i, n := range modNames {
		if n != "" {
			modByName[n] = struct{ val, field Mods }{Mods(1) << i, 0}
		}
	}
	for i, n := range halfNames[1:] {
		modByName[n] = struct{ val, field Mods }{Mods(i+1) << halfShift, halfMask}
	}
	for i, n := range orderNames[1:] {
		modByName[n] = struct{ val, field Mods }{Mods(i+1) << orderShift, orderMask}
	}
	for i, n := range subNames[1:] {
		modByName[n] = struct{ val, field Mods }{Mods(i+1) << subShift, subMask}
	}
}

// Decode decodes a mnemonic. It is the one decoder of the project: the
// parser, the builder and the generators call it when they make an
// instruction; nothing calls it on the optimizer's paths.
func Decode(mn string) Form {
	if strings.HasPrefix(mn, ".pragma") {
		return Form{Op: OpPragma} // the whole directive is the text
	}
	base, rest, more := strings.Cut(mn, ".")
	var d Form
	d.Op = OpcodeByName(base)
	if base == "phi" {
		d.Op = OpPhi // the optimizer's pseudo-instruction, which the parser never accepts
	}
	isCmp := d.Op == OpSetp || d.Op == OpSet
	halves := d.Op == OpMul || d.Op == OpMad || d.Op == OpMul24 || d.Op == OpMad24
	first := true
	for more {
		var c string
		c, rest, more = strings.Cut(rest, ".")
		atFirst := first
		first = false
		if t := TypeByName(c); t != TNone {
			switch {
			case d.Type == TNone:
				d.Type = t
			case d.Type2 == TNone:
				d.Type2 = t
			default:
				d.Mods |= ModOther
			}
			continue
		}
		if isCmp {
			if atFirst {
				if k, ok := cmpByName[c]; ok {
					d.Mods = d.Mods.WithCmp(k)
					continue
				}
			}
			if d.Mods.BoolOp() == BoolNone && d.Mods.Cmp() != CmpNone && d.Type == TNone {
				switch c {
				case "and":
					d.Mods = d.Mods.WithBoolOp(BoolAnd)
					continue
				case "or":
					d.Mods = d.Mods.WithBoolOp(BoolOr)
					continue
				case "xor":
					d.Mods = d.Mods.WithBoolOp(BoolXor)
					continue
				}
			}
		}
		if (c == "lo" || c == "hi" || c == "wide") && !halves {
			d.Mods |= ModOther
			continue
		}
		if m, ok := modByName[c]; ok {
			if m.field == 0 && d.Mods&m.val == 0 || m.field != 0 && d.Mods&m.field == 0 {
				d.Mods |= m.val
				continue
			}
		}
		if r, ok := roundByName[c]; ok && d.Mods.Round() == RoundNone {
			d.Mods = d.Mods.WithRound(r)
			continue
		}
		if (c == "v2" || c == "v4" || c == "v8") && d.Mods.Vec() == 0 {
			d.Mods = d.Mods.WithVec(int(c[1] - '0'))
			continue
		}
		if sp := SpaceByName(c); sp != SpaceNone && sp != SpaceReg && sp != SpaceSReg && d.Space == SpaceNone {
			d.Space = sp
			continue
		}
		d.Mods |= ModOther
	}
	return d
}

// FormText builds the mnemonic of form d, in the order PTX's grammars put
// modifiers in for the forms passes build: the comparison (.ftz right
// after it, then the combiner), ordering and synchronisation qualifiers,
// the sub-operation, rounding (or .approx/.full), the half, .ftz, .sat,
// .cc, the state space, .nc, the vector width, the types. It panics when d
// holds ModOther (components only a text can hold) or an opcode without a
// name: a pass may only build forms it fully describes.
func FormText(d Form) string {
	if d.Mods&ModOther != 0 || d.Op == OpUnknown || d.Op == OpPragma || int(d.Op) >= NumOpcodes() {
		panic(fmt.Sprintf("ir: form of %s with modifiers %#x cannot be written from its fields", d.Op, uint32(d.Mods)))
	}
	var b strings.Builder
	b.WriteString(d.Op.String())
	w := func(s string) {
		if s != "" {
			b.WriteByte('.')
			b.WriteString(s)
		}
	}
	m := d.Mods
	flag := func(f Mods) {
		if m&f != 0 {
			w(modNames[modIndex(f)])
		}
	}
	w(m.Cmp().String())
	if m.Cmp() != CmpNone && m.Has(ModFtz) {
		w("ftz") // setp.CmpOp.ftz.BoolOp.type
		m &^= ModFtz
	}
	w(boolNames[m.BoolOp()])
	flag(ModUni)
	flag(ModSync)
	flag(ModAligned)
	w(orderNames[m.Order()])
	flag(ModAsync)
	w(subNames[m.Sub()])
	w(m.Round().String())
	w(halfNames[m.Half()])
	flag(ModFtz)
	flag(ModSat)
	flag(ModCC)
	w(spaceText(d.Space))
	flag(ModNC)
	if v := m.Vec(); v != 0 {
		w(fmt.Sprintf("v%d", v))
	}
	w(d.Type.String())
	w(d.Type2.String())
	return b.String()
}

func spaceText(s Space) string {
	if s == SpaceNone || s == SpaceGeneric {
		return ""
	}
	return s.String()
}

func modIndex(m Mods) int {
	for i := range numModFlags {
		if m == Mods(1)<<i {
			return i
		}
	}
	return -1
}

// Form returns the decoded form of instruction i.
func (f *Func) Form(i InstrID) Form {
	return Form{Op: f.Op[i], Type: f.Type[i], Type2: f.Type2[i], Space: f.Space[i], Mods: f.Mods[i]}
}

// Text returns the interned mnemonic of form d, building and interning it
// the first time (one map lookup afterwards). Safe for concurrent use.
func (m *Module) Text(d Form) StrID {
	if d.Space == SpaceGeneric {
		d.Space = SpaceNone // generic addressing names no space
	}
	m.Strings.mu.Lock()
	id, ok := m.formText[d]
	m.Strings.mu.Unlock()
	if ok {
		return id
	}
	id = m.Strings.Intern(FormText(d))
	m.Strings.mu.Lock()
	if m.formText == nil {
		m.formText = map[Form]StrID{}
	}
	m.formText[d] = id
	m.Strings.mu.Unlock()
	return id
}

// memSpace returns the Space column value of an instruction of form d
// with operands ops: the space named, or SpaceGeneric for a memory
// instruction with an address operand that names none.
func memSpace(d Form, ops []Operand) Space {
	if d.Space != SpaceNone {
		return d.Space
	}
	if p := d.Op.Props(); p&(PReadsMem|PWritesMem) != 0 && p&(POpaque|PCall) == 0 {
		for _, o := range ops {
			if o.Kind() == KAddr {
				return SpaceGeneric
			}
		}
	}
	return SpaceNone
}

// InstrSpace is the Space column value of an instruction of form d with
// operands ops (see memSpace); the parser uses it too.
func InstrSpace(d Form, ops []Operand) Space { return memSpace(d, ops) }
