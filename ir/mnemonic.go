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

// Mods is the decoded modifier set of one instruction.
type Mods uint64

// Modifier flags.
const (
	ModLo           Mods = 1 << iota // mul.lo, mad.lo (the low half)
	ModHi                            // mul.hi, mad.hi (the high half); for setp/set the comparison "hi" is CmpHi instead
	ModWide                          // mul.wide, mad.wide (double-width result)
	ModCC                            // .cc: writes the carry flag
	ModSat                           // .sat
	ModFtz                           // .ftz
	ModApprox                        // .approx
	ModFull                          // .full
	ModNC                            // ld.global.nc: non-coherent (read-only) path
	ModVolatile                      // .volatile
	ModRelaxed                       // .relaxed
	ModAcquire                       // .acquire
	ModRelease                       // .release
	ModAcqRel                        // .acq_rel
	ModSC                            // .sc
	ModMMIO                          // .mmio
	ModAsync                         // .async (st.async, red.async, cp.async, …)
	ModUni                           // bra.uni, brx.idx.uni, call.uni: known non-divergent
	ModSync                          // .sync (bar.sync, shfl.sync, …)
	ModAligned                       // .aligned
	ModLoad                          // .load (wmma.load)
	ModStore                         // .store (wmma.store)
	ModMma                           // .mma (wmma.mma)
	ModWaitGroup                     // .wait_group (cp.async)
	ModWaitAll                       // .wait_all (cp.async)
	ModCommitGroup                   // .commit_group (cp.async)
	ModMbarrier                      // .mbarrier (cp.async.mbarrier.arrive)
	ModPendingCount                  // .pending_count (mbarrier)
	ModReplace                       // .replace (tensormap)
	ModQueryCancel                   // .query_cancel (clusterlaunchcontrol)
	ModOther                         // a component only the text holds
	numModFlags     = iota
)

// modNames are the PTX spellings of the flags, in the order Text writes
// them (see textOrder).
var modNames = [numModFlags]string{
	"lo", "hi", "wide", "cc", "sat", "ftz", "approx", "full", "nc", "volatile", "relaxed", "acquire",
	"release", "acq_rel", "sc", "mmio", "async", "uni", "sync", "aligned", "load", "store", "mma",
	"wait_group", "wait_all", "commit_group", "mbarrier", "pending_count", "replace", "query_cancel", "",
}

// Packed enumerations inside Mods.
const (
	roundShift = 40 // 4 bits: Round
	cmpShift   = 44 // 5 bits: Cmp
	boolShift  = 49 // 2 bits: BoolOp
	vecShift   = 51 // 2 bits: 0, .v2, .v4, .v8
	roundMask  = Mods(0xF) << roundShift
	cmpMask    = Mods(0x1F) << cmpShift
	boolMask   = Mods(0x3) << boolShift
	vecMask    = Mods(0x3) << vecShift
	flagMask   = Mods(1)<<numModFlags - 1
)

// Round is a rounding modifier.
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
	numRounds
)

var roundNames = [numRounds]string{"", "rn", "rz", "rm", "rp", "rna", "rs", "rni", "rzi", "rmi", "rpi"}

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

// Has reports whether every flag of q is in m.
func (m Mods) Has(q Mods) bool { return m&q == q }

// Flags returns m's flag bits only (the enumerations cleared).
func (m Mods) Flags() Mods { return m & flagMask }

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
	modByName   = map[string]Mods{}
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
			modByName[n] = Mods(1) << i
		}
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
		if m, ok := modByName[c]; ok && d.Mods&m == 0 {
			d.Mods |= m
			continue
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

// textOrder is the order Text writes the flags in, which is the order
// PTX's grammars put them in for the forms passes build: ordering and
// synchronisation qualifiers first, then rounding and the arithmetic
// modifiers, the half selectors, the state space, .nc after it, the vector
// width, the types.
var textOrder = [...]Mods{
	ModUni, ModSync, ModAligned, ModVolatile, ModRelaxed, ModAcquire, ModRelease, ModAcqRel, ModSC, ModMMIO,
	ModAsync, ModLoad, ModStore, ModMma, ModWaitGroup, ModWaitAll, ModCommitGroup, ModMbarrier,
	ModPendingCount, ModReplace, ModQueryCancel,
	// then rounding
	ModApprox, ModFull, ModLo, ModHi, ModWide, ModFtz, ModSat, ModCC,
	// then the space, then:
	ModNC,
}

// FormText builds the mnemonic of form d. It panics when d holds ModOther
// (components only a text can hold) or an opcode without a name: a pass
// may only build forms it fully describes.
func FormText(d Form) string {
	if d.Mods&ModOther != 0 || d.Op == OpUnknown || d.Op == OpPragma || int(d.Op) >= NumOpcodes() {
		panic(fmt.Sprintf("ir: form of %s with modifiers %#x cannot be written from its fields", d.Op, uint64(d.Mods)))
	}
	var b strings.Builder
	b.WriteString(d.Op.String())
	w := func(s string) {
		if s != "" {
			b.WriteByte('.')
			b.WriteString(s)
		}
	}
	w(d.Mods.Cmp().String())
	mods := d.Mods
	if d.Mods.Cmp() != CmpNone && mods.Has(ModFtz) {
		w("ftz") // setp.CmpOp.ftz.BoolOp.type
		mods &^= ModFtz
	}
	w(boolNames[d.Mods.BoolOp()])
	for _, m := range textOrder {
		if m == ModApprox {
			w(d.Mods.Round().String())
		}
		if m == ModNC {
			w(spaceText(d.Space))
		}
		if mods&m != 0 {
			w(modNames[modIndex(m)])
		}
	}
	if v := d.Mods.Vec(); v != 0 {
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
