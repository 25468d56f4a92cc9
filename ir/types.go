package ir

// Type is a PTX fundamental type (.u32, .f16x2, .pred, …).
type Type uint8

const (
	TNone Type = iota
	TPred
	TB8
	TB16
	TB32
	TB64
	TB128
	TU8
	TU16
	TU32
	TU64
	TS8
	TS16
	TS32
	TS64
	TF16
	TF16x2
	TBF16
	TBF16x2
	TTF32
	TF32
	TF64
	TE4M3
	TE5M2
	TE4M3x2
	TE5M2x2
	numTypes
)

var typeNames = [numTypes]string{
	"", "pred", "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64",
	"s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64",
	"e4m3", "e5m2", "e4m3x2", "e5m2x2",
}

// TypeByName maps "u32" (without the dot) to its Type; TNone when unknown.
func TypeByName(s string) Type {
	for i, n := range typeNames {
		if i > 0 && n == s {
			return Type(i)
		}
	}
	return TNone
}

func (t Type) String() string {
	if t < numTypes {
		return typeNames[t]
	}
	return "?"
}

// Bits returns the width of a value of type t (1 for predicates).
func (t Type) Bits() int {
	switch t {
	case TPred:
		return 1
	case TB8, TU8, TS8, TE4M3, TE5M2:
		return 8
	case TB16, TU16, TS16, TF16, TBF16, TE4M3x2, TE5M2x2:
		return 16
	case TB32, TU32, TS32, TF32, TF16x2, TBF16x2, TTF32:
		return 32
	case TB64, TU64, TS64, TF64:
		return 64
	case TB128:
		return 128
	}
	return 0
}

// IsFloat reports whether t is a floating-point type (packed ones included).
func (t Type) IsFloat() bool {
	switch t {
	case TF16, TF16x2, TBF16, TBF16x2, TTF32, TF32, TF64, TE4M3, TE5M2, TE4M3x2, TE5M2x2:
		return true
	}
	return false
}

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t >= TS8 && t <= TS64 }

// File is a register file of the design: liveness and pressure are
// computed per file. Barrier registers are outside liveness.
type File uint8

const (
	FileR  File = iota // per-lane data registers (32-bit slots)
	FileUR             // uniform data registers
	FileP              // per-lane predicates
	FileUP             // uniform predicates
	NumFiles
)

var fileNames = [NumFiles]string{"R", "UR", "P", "UP"}

func (f File) String() string {
	if f < NumFiles {
		return fileNames[f]
	}
	return "?"
}

// FileOf returns the file a register of type t lives in, given whether the
// uniformity analysis proved it uniform.
func FileOf(t Type, uniform bool) File {
	switch {
	case t == TPred && uniform:
		return FileUP
	case t == TPred:
		return FileP
	case uniform:
		return FileUR
	}
	return FileR
}

// Slots returns how many 32-bit slots of its file a register of type t
// occupies for pressure: one per 32 bits, at least one.
func Slots(t Type) int {
	if t == TPred {
		return 1
	}
	return max(1, (t.Bits()+31)/32)
}

// Space is a PTX state space.
type Space uint8

const (
	SpaceNone Space = iota
	SpaceReg
	SpaceSReg
	SpaceConst
	SpaceGlobal
	SpaceLocal
	SpaceParam
	SpaceShared
	SpaceSharedCluster // .shared::cluster
	SpaceTex
	SpaceGeneric // an address with no state space named: generic addressing
	numSpaces
)

var spaceNames = [numSpaces]string{"", "reg", "sreg", "const", "global", "local", "param", "shared", "shared::cluster", "tex", "generic"}

func (s Space) String() string {
	if s < numSpaces {
		return spaceNames[s]
	}
	return "?"
}

// SpaceByName maps "global" (no dot) to its Space; SpaceNone when unknown.
func SpaceByName(s string) Space {
	switch s {
	case "shared::cta":
		return SpaceShared
	case "param::entry", "param::func":
		return SpaceParam
	}
	for i, n := range spaceNames {
		if i > 0 && n == s && Space(i) != SpaceGeneric {
			return Space(i)
		}
	}
	return SpaceNone
}
