// Package ir is ptxopt's intermediate representation: a struct-of-arrays
// form of PTX in which a function is a set of parallel slices indexed by
// typed 32-bit IDs, operands are packed 32-bit words (operand.go), and
// instruction order inside a block is a doubly linked list kept in arrays,
// so passes insert, delete and move instructions in O(1) without
// per-instruction heap objects.
//
// The register file is PTX's: virtual registers that may be written many
// times. A pass that wants SSA builds it (package core) and brings the
// function back before printing.
package ir

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Typed IDs. Each has a sentinel "none" value of all ones.
type (
	InstrID uint32
	RegID   uint32
	BlockID uint32
	SymID   uint32
	FuncID  uint32
	StrID   uint32 // index into Module.Strings; 0 is the empty string
)

const (
	NoInstr InstrID = ^InstrID(0)
	NoReg   RegID   = ^RegID(0)
	NoBlock BlockID = ^BlockID(0)
	NoSym   SymID   = ^SymID(0)
	NoFunc  FuncID  = ^FuncID(0)
)

// Strings interns the text a module refers to (names, mnemonics, raw
// directive text). ID 0 is always the empty string. New text is copied
// into large append-only chunks, so interning allocates O(1) amortized per
// string rather than once per string.
//
// A producer that deduplicates on its own (the PTX parser keeps its own
// hash table) appends with AddUnique; the lookup map is then built lazily
// by the next Intern, InternBytes or Lookup.
//
// Strings is safe for concurrent use, so the functions of one module can
// be optimized in parallel: Intern, InternBytes, AddUnique, Lookup and Len
// take a mutex; Get does not. Get reads a table of fixed-size pages whose
// directory never moves, and an ID reaches a goroutine only after the page
// holding it was written (the ID came from a call that took the mutex, or
// existed before the goroutine started).
type Strings struct {
	mu sync.Mutex
	n  uint32 // strings held
	// dir points at the page directory. It is replaced (grown) under the
	// mutex, never changed in place below its old length, so a reader
	// holding an older directory still finds every page it can ask for.
	dir atomic.Pointer[[]*[strPage]string]
	// tab is the lookup index: open addressing over (hash, ID) pairs,
	// at most half full (8 bytes an entry where a Go map of strings
	// takes several times that: a module of a million-instruction
	// function holds as many register names).
	// (Behind a pointer, as a map would be: a copy of the Strings value
	// shares it.)
	idx     *strIndex
	indexed uint32 // strings [0, indexed) are in the index
	arena   []byte // current chunk; bytes below len are immutable
}

const (
	strPageBits = 6 // 64 strings a page: a small module's first page is 1 KiB
	strPage     = 1 << strPageBits
	stringChunk = 64 << 10
)

// Reserve prepares room for about n strings (a size hint; pages are
// allocated on demand, so it does nothing beyond making ID 0 exist).
func (t *Strings) Reserve(n int) {
	t.mu.Lock()
	t.init()
	t.mu.Unlock()
}

// init makes ID 0 the empty string. The caller holds the mutex.
func (t *Strings) init() {
	if t.n == 0 {
		t.push("")
	}
}

// push appends s. The caller holds the mutex.
func (t *Strings) push(s string) StrID {
	id := t.n
	if id == ^uint32(0) {
		panic("ir: too many strings in one module")
	}
	var dir []*[strPage]string
	if d := t.dir.Load(); d != nil {
		dir = *d
	}
	k := int(id >> strPageBits)
	if k >= len(dir) {
		if k >= cap(dir) {
			grown := make([]*[strPage]string, len(dir), max(2*len(dir), 4))
			copy(grown, dir)
			dir = grown
		}
		// Readers of the old header never index past its length, so the
		// slot written here is theirs to ignore.
		dir = dir[:k+1]
		dir[k] = new([strPage]string)
		hdr := new([]*[strPage]string)
		*hdr = dir
		t.dir.Store(hdr)
	}
	dir[k][id&(strPage-1)] = s
	t.n++
	return StrID(id)
}

type strIndex struct {
	tab  []strSlot
	tabN int
	seed maphash.Seed
}

type strSlot struct {
	h  uint32 // the string's hash (low bits)
	id StrID  // 0: empty slot (ID 0, the empty string, is never indexed)
}

// find returns the slot of s: the one holding it, or the empty one where
// it would go. The caller holds the mutex; tab is not empty.
func (t *Strings) find(s string, h uint32) int {
	x := t.idx
	mask := len(x.tab) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		e := x.tab[i]
		if e.id == 0 || e.h == h && t.Get(e.id) == s {
			return i
		}
	}
}

func (t *Strings) hash(s string) uint32 { return uint32(maphash.String(t.idx.seed, s)) }

// insert indexes id (text s), the later of two equal texts winning as a
// map's assignment would. The caller holds the mutex.
func (t *Strings) insert(s string, id StrID) {
	if s == "" {
		return // ID 0 is the empty string; find answers it directly
	}
	x := t.idx
	if 2*(x.tabN+1) > len(x.tab) {
		x.rehash(max(64, 2*len(x.tab)))
	}
	h := t.hash(s)
	i := t.find(s, h)
	if x.tab[i].id == 0 {
		x.tabN++
	}
	x.tab[i] = strSlot{h, id}
}

func (x *strIndex) rehash(want int) {
	n := 64 // a power of two (find masks with n-1), at least twice the entries
	for n < want || n < 2*(x.tabN+1) {
		n *= 2
	}
	old := x.tab
	x.tab = make([]strSlot, n)
	mask := n - 1
	for _, e := range old {
		if e.id == 0 {
			continue
		}
		i := int(e.h) & mask
		for x.tab[i].id != 0 {
			i = (i + 1) & mask
		}
		x.tab[i] = e
	}
}

// lookup returns the ID of s. The caller holds the mutex and has run
// index.
func (t *Strings) lookup(s string) (StrID, bool) {
	if s == "" {
		return 0, true
	}
	if t.idx == nil || len(t.idx.tab) == 0 {
		return 0, false
	}
	e := t.idx.tab[t.find(s, t.hash(s))]
	return e.id, e.id != 0
}

// index brings the lookup table up to date. The caller holds the mutex.
func (t *Strings) index() {
	t.init()
	if t.idx == nil {
		t.idx = &strIndex{seed: maphash.MakeSeed()}
		t.idx.rehash(max(64, 2*int(t.n)))
	}
	for ; t.indexed < t.n; t.indexed++ {
		t.insert(t.Get(StrID(t.indexed)), StrID(t.indexed))
	}
}

// Intern returns the ID of s, adding it when new.
func (t *Strings) Intern(s string) StrID {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.index()
	if id, ok := t.lookup(s); ok {
		return id
	}
	id := t.push(s)
	t.insert(s, id)
	t.indexed = t.n
	return id
}

// InternBytes is Intern for a byte slice; it allocates only for new text,
// and then only amortized (the bytes go to a shared chunk).
func (t *Strings) InternBytes(b []byte) StrID {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.index()
	if id, ok := t.lookup(unsafe.String(unsafe.SliceData(b), len(b))); ok {
		return id
	}
	id := t.push(t.copyText(b))
	t.insert(t.Get(id), id)
	t.indexed = t.n
	return id
}

// AddUnique appends b, which the caller guarantees is not interned yet,
// without touching the lookup map, and returns its ID.
func (t *Strings) AddUnique(b []byte) StrID {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.init()
	return t.push(t.copyText(b))
}

func (t *Strings) copyText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > stringChunk/4 {
		return string(b)
	}
	if cap(t.arena)-len(t.arena) < len(b) {
		// Chunks grow from 1 KiB to stringChunk, so a small module does
		// not pay for a large one.
		t.arena = make([]byte, 0, min(stringChunk, max(1<<10, 2*cap(t.arena))))
	}
	off := len(t.arena)
	t.arena = append(t.arena, b...)
	return unsafe.String(&t.arena[off], len(b))
}

// Lookup returns the ID of s if it was interned.
func (t *Strings) Lookup(s string) (StrID, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.index()
	return t.lookup(s)
}

// Get returns the text of id ("" for an ID never handed out).
func (t *Strings) Get(id StrID) string {
	d := t.dir.Load()
	if d == nil || int(id>>strPageBits) >= len(*d) {
		return ""
	}
	return (*d)[id>>strPageBits][id&(strPage-1)]
}

// Len returns how many strings are interned.
func (t *Strings) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.init()
	return int(t.n)
}

// ItemKind says what a top-level module item is.
type ItemKind uint8

const (
	ItemDirective ItemKind = iota // raw directive text: .version, .target, .file, .section, …
	ItemVar                       // a module-scope variable: Symbol
	ItemFunc                      // a function, declaration or definition: Func
)

// Item is one top-level entry, kept in source order so printing preserves it.
type Item struct {
	Kind ItemKind
	Text StrID  // ItemDirective
	Sym  SymID  // ItemVar
	Func FuncID // ItemFunc
}

// Module is a whole PTX file.
type Module struct {
	Strings Strings

	Version     string // ".version" value, e.g. "8.4"
	Target      string // ".target" value as written, e.g. "sm_89" or "sm_90a, texmode_independent"
	AddressSize int    // ".address_size", 0 when absent

	Items    []Item
	Syms     []Symbol
	Funcs    []*Func
	Specials []StrID // special register names (%tid.x, …), indexed by KSpecial operands

	formText     map[Form]StrID // Text's cache, under Strings.mu
	specialFacts []SpecialFact  // SpecialFacts's cache, under Strings.mu
}

// Linkage bits on a symbol.
type Linkage uint8

const (
	LinkVisible Linkage = 1 << iota
	LinkExtern
	LinkWeak
	LinkCommon
	LinkHidden // ".hidden" (LLVM-emitted parameters)
)

// SymKind says what a symbol names.
type SymKind uint8

const (
	SymVar           SymKind = iota // a variable in some state space (module or function scope)
	SymParam                        // a function/kernel parameter
	SymRetParam                     // a .func return parameter
	SymFunc                         // a function (entry or .func)
	SymLabel                        // a label in a function body
	SymBranchTargets                // "L: .branchtargets a, b;" table for brx.idx
	SymProto                        // "p: .callprototype …" for indirect calls
	// SymImplicit is a name used but declared nowhere in the module: the
	// predefined WARP_SZ, or functions the driver supplies (OptiX
	// intrinsics called from inline asm). It has no Item and prints as
	// its bare name.
	SymImplicit
)

// Symbol describes a named entity. Symbols are few next to instructions,
// so a plain slice of structs is fine here.
type Symbol struct {
	Name  StrID
	Kind  SymKind
	Space Space
	Type  Type
	Vec   uint8  // 2 or 4 for .v2/.v4 variables, else 0
	Align uint32 // .align N, 0 when absent
	Dims  StrID  // array suffix as written ("[16]", "[]", "[2][3]"), 0 for scalars
	// Elems is the element count the array suffix gives (the product of
	// the dimensions), decoded with Dims by DimsElems: 1 for a scalar, -1
	// for an unsized "[]" or a suffix that does not decode.
	Elems   int64
	Linkage Linkage
	Init    StrID // initializer text after "=", or a prototype's text; 0 when absent
	Attrs   StrID // extra attributes after the type as written (".ptr .global .align 16", ".texref"), 0 when none
	// PreAttrs are unrecognised attributes written before the type, kept
	// verbatim (".attribute(.managed)"); 0 when none.
	PreAttrs StrID
	Owner    FuncID // function whose body or signature declares it; NoFunc at module scope
	Func     FuncID // for SymFunc: the function it names
	Block    BlockID
	List     uint32 // for SymBranchTargets: index into the owner's Lists
	// Reg is, for a .reg-space parameter (Kind SymParam or SymRetParam,
	// Space SpaceReg), the register of the Owner function that holds it;
	// see Func.ParamReg. It means nothing for any other symbol (a zero
	// there is not register 0).
	Reg RegID
}

// FuncKind distinguishes kernels from device functions.
type FuncKind uint8

const (
	KindEntry FuncKind = iota // .entry
	KindFunc                  // .func
)

// Imm is an immediate: the exact bit pattern and how it was written.
type Imm struct {
	Bits uint64
	Kind ImmKind
}

// ImmKind records an immediate's form so printing stays faithful.
type ImmKind uint8

const (
	ImmInt     ImmKind = iota // decimal integer (Bits is two's complement)
	ImmUint                   // decimal with U suffix
	ImmHex                    // 0x… integer
	ImmF32                    // 0fXXXXXXXX: Bits holds the 32-bit pattern
	ImmF64                    // 0dXXXXXXXXXXXXXXXX
	ImmDecimal                // a decimal float literal such as 1.5: Bits holds the float64 pattern
	ImmHexU                   // 0x… with U suffix
	ImmOct                    // 0… octal integer
	ImmOctU                   // octal with U suffix
	ImmBin                    // 0b… binary integer
	ImmBinU                   // binary with U suffix
)

// IsFloat reports whether an immediate of kind k is a floating-point
// literal (its Bits are a float bit pattern) rather than an integer.
func (k ImmKind) IsFloat() bool { return k == ImmF32 || k == ImmF64 || k == ImmDecimal }

// Immediates written with a leading minus: the parser folds the sign into
// Bits for ImmInt (two's complement) and ImmDecimal (a negative float64);
// for the other kinds Bits holds the magnitude as written and the operand
// word carries FlagNeg, so "-0x10" prints back as written.

// Addr is a memory operand: "[base]", "[base+off]", or a multi-element
// form like "[tex, {x, y}]". Elems indexes Func.Lists.
type Addr struct {
	Off    int64
	Elems  uint32 // index into Func.Lists
	HasOff bool
}

// List is a run of operand words in Func.ListOps: a vector "{a, b}" or a
// parenthesised call list "(a, b)".
type List struct {
	Start, Count uint32
}

// Parsed-PTX conventions (package ir/ptx follows them; builders and
// passes should too):
//
//   - Op is OpcodeByName of the base name (text before the first dot);
//     Mnemonic is the full dotted name as written; Type/Type2 are the
//     first and second type suffixes; Space is the first state-space
//     suffix (".shared::cta" is SpaceShared), SpaceGeneric for a memory
//     opcode with an address operand and no space named, else SpaceNone.
//   - Definitions: the first operand is a definition when it is a
//     register, the sink "_" or a brace list (then every register element
//     is a definition too), unless the opcode writes nothing (st, red, cp,
//     bar/barrier except bar.red, bra, brx, call, ret, exit, membar,
//     fence, trap, nanosleep, prefetch, sust, sured, stmatrix,
//     stackrestore, tcgen05.dealloc, …). A first operand that is an
//     address "[…]" is never a definition. "%p|%q": the operand after '|'
//     carries FlagPipe and is a definition when the first one is. For
//     call, the parenthesised return list "(r)" before the callee is a
//     definition (with its register elements); arguments are uses.
//     Unknown opcodes follow the same first-operand rule.
//   - Inner "{ }" scopes are flattened: a declaration in an inner scope
//     always makes a new register or symbol, even when its name is
//     already used; names may therefore repeat in RegName and among a
//     function's symbols. The printer makes them unique with a "$k"
//     suffix (k from 1, skipping any name interned in the module).
//   - A .reg-space parameter of a .func (".func (.reg .b32 r) f(.reg
//     .b32 a)") is a register: it keeps its SymParam/SymRetParam symbol
//     in Params/RetParams (so the signature prints unchanged), and the
//     symbol's Reg names a register of the function, declared with the
//     parameter's name, type and vector width. Every operand naming the
//     parameter, in a declaration or a definition, is that KReg (with the
//     usual definition bits), never the KSym; the printer declares it in
//     the signature only, not in the body's ".reg" lines. An argument
//     register holds the caller's value on entry (it is live-in, never
//     defined before its first read); a return register's value at "ret"
//     is what the caller receives (it is live at exit, see ReturnRegs).
//     Call sites are unchanged: "call (a), f, (b)" names the caller's
//     registers or .param variables.
//   - Body variables (.local/.shared/.param/.const…) and the
//     ".branchtargets"/".callprototype" tables are in Func.Locals.
//   - InstrLoc(i) is the interned argument text of the ".loc" in force
//     ("1 23 5", or with "function_name …, inlined_at …"); the printer
//     emits a ".loc" only when it changes.
//   - ".pragma" inside a body is an instruction of its own, kept in place:
//     Op = OpcodeByName(".pragma") (OpUnknown unless the table names it,
//     hence opaque and never moved or deleted), Mnemonic = the whole
//     directive text without ';' (`.pragma "nounroll"`), no operands.
//     Header pragmas are in Func.Directives.
//   - A name used but never declared (the predefined WARP_SZ, driver
//     functions such as OptiX intrinsics) is a module symbol of kind
//     SymImplicit with no Item.
//   - The parser carves each function's slices out of shared slabs with
//     cap == len, so appending to one reallocates it and never touches a
//     neighbour.
//
// Func is one .entry or .func, declaration or definition.
type Func struct {
	Mod     *Module
	ID      FuncID
	Sym     SymID
	Name    string
	Kind    FuncKind
	Linkage Linkage
	HasBody bool

	RetParams []SymID
	Params    []SymID
	// Directives between the signature and the body (.maxntid 256, 1, 1;
	// .noreturn; .pragma "nounroll"), as written.
	Directives []StrID
	// Locals are variables declared in the body (.local, .shared, .param
	// call arguments), flattened out of inner scopes.
	Locals []SymID
	// DeclLine is the source line of the function header (0 when built).
	DeclLine int32

	// Registers, indexed by RegID.
	RegName []StrID
	RegType []Type
	RegVec  []uint8 // .v2/.v4 vector registers (rare), else 0

	// Instructions, indexed by InstrID: parallel slices.
	Op       []Opcode
	Mnemonic []StrID // the full mnemonic as printed: "ld.global.nc.v4.f32"
	Type     []Type  // the first type suffix: the operation type (cvt: the destination type)
	Type2    []Type  // the second type suffix (cvt's source type, …), TNone if none
	Space    []Space // state space of a memory instruction; SpaceGeneric when it names none
	Mods     []Mods  // the decoded modifiers (mnemonic.go)
	Guard    []Operand
	OpStart  []uint32
	OpCount  []uint8
	Block    []BlockID
	Prev     []InstrID
	Next     []InstrID
	// Loc is the ".loc" directive text in force (0 = none), read with
	// InstrLoc and written with SetLoc. It is empty while every entry is
	// 0 (a function without debug lines, most of them, holds none), and
	// made full length by the first SetLoc of a nonzero text.
	Loc []StrID
	// Line is the source line of each instruction as parsed, by its
	// parse-time ID: for the input check's error positions and dumps. Not
	// an instruction column: instructions made later have none (SrcLine
	// says 0), and Compact, which renumbers, drops it.
	Line []uint32
	// props caches InstrProps: the opcode row refined by the fields and
	// operands, computed when the instruction is made or its form or
	// operands are set (RefreshProps), checked by the verifier. Its bit
	// propDead, which no property uses, marks an instruction removed and
	// awaiting Compact (IsDead): a column of its own would cost a byte an
	// instruction.
	props []Prop

	Operands []Operand
	Imms     []Imm
	Addrs    []Addr
	Lists    []List
	ListOps  []Operand

	// Blocks, indexed by BlockID.
	BlockFirst []InstrID
	BlockLast  []InstrID
	BlockLabel []SymID // the label that starts the block, NoSym if none
	// Layout is the order blocks are printed in; fall-through follows it.
	Layout []BlockID

	// CFG in compressed rows, rebuilt by ComputeCFG: the successors of b
	// are Succs[SuccStart[b]:SuccStart[b+1]], likewise predecessors.
	SuccStart  []uint32
	Succs      []BlockID
	PredStart  []uint32
	Preds      []BlockID
	cfgValid   bool
	cfgVersion uint64 // bumped by every rebuild of the edge arrays
	numDead    int    // instructions marked Dead since the last Compact
	cfgScratch []uint32
	// gatherScratch is Compact's working memory.
	gatherScratch []uint32
}

// Str returns the text of a string ID of the function's module.
func (f *Func) Str(id StrID) string { return f.Mod.Strings.Get(id) }

// NumInstrs returns the number of instruction slots (dead ones included).
func (f *Func) NumInstrs() int { return len(f.Op) }

// NumRegs returns the number of registers.
func (f *Func) NumRegs() int { return len(f.RegType) }

// NumBlocks returns the number of blocks.
func (f *Func) NumBlocks() int { return len(f.BlockFirst) }

// Ops returns the operand words of instruction i (writable in place).
func (f *Func) Ops(i InstrID) []Operand {
	s := f.OpStart[i]
	return f.Operands[s : s+uint32(f.OpCount[i])]
}

// ListElems returns the operand words of list l.
func (f *Func) ListElems(l uint32) []Operand {
	x := f.Lists[l]
	return f.ListOps[x.Start : x.Start+x.Count]
}

// ParamReg returns the register that holds parameter or return
// parameter id when it is a .reg-space parameter of f.
func (f *Func) ParamReg(id SymID) (RegID, bool) {
	if f.Mod == nil || int(id) >= len(f.Mod.Syms) {
		return NoReg, false
	}
	s := &f.Mod.Syms[id]
	if s.Space != SpaceReg || (s.Kind != SymParam && s.Kind != SymRetParam) || s.Owner != f.ID || int(s.Reg) >= len(f.RegType) {
		return NoReg, false
	}
	return s.Reg, true
}

// RegParam returns the .reg-space parameter (or return parameter) that
// register r holds, NoSym when r is an ordinary register. It scans the
// signature, which is short, testing ParamReg's conditions in place with
// the register first (phases ask this of register after register: most
// parameters are in .param space and fail the first test).
func (f *Func) RegParam(r RegID) SymID {
	if f.Mod == nil {
		return NoSym
	}
	if id := f.regParamIn(f.Params, r); id != NoSym {
		return id
	}
	return f.regParamIn(f.RetParams, r)
}

// regParamIn is RegParam's scan of one list (two plain loops: ranging over
// an array of the two lists cost more than the scans).
func (f *Func) regParamIn(ids []SymID, r RegID) SymID {
	syms := f.Mod.Syms
	for _, id := range ids {
		if int(id) >= len(syms) {
			continue
		}
		if s := &syms[id]; s.Reg == r && s.Space == SpaceReg && (s.Kind == SymParam || s.Kind == SymRetParam) &&
			s.Owner == f.ID && int(s.Reg) < len(f.RegType) {
			return id
		}
	}
	return NoSym
}

// ReturnRegs appends to dst the registers of f's .reg-space return
// parameters, in signature order: the registers live when f returns
// (liveness's live-at-exit set).
func (f *Func) ReturnRegs(dst []RegID) []RegID {
	for _, id := range f.RetParams {
		if r, ok := f.ParamReg(id); ok {
			dst = append(dst, r)
		}
	}
	return dst
}

// AddReg declares a new register.
func (f *Func) AddReg(name StrID, t Type) RegID {
	id := RegID(len(f.RegType))
	if uint32(id) > MaxOperandIndex {
		panic("ir: too many registers")
	}
	f.RegName = append(f.RegName, name)
	f.RegType = append(f.RegType, t)
	f.RegVec = append(f.RegVec, 0)
	return id
}

// AddImm adds an immediate to the pool and returns its operand word.
func (f *Func) AddImm(v Imm) Operand {
	f.Imms = append(f.Imms, v)
	return Pack(KImm, uint32(len(f.Imms)-1), 0, false)
}

// AddList stores elems as a list and returns its index.
func (f *Func) AddList(elems []Operand) uint32 {
	f.Lists = append(f.Lists, List{Start: uint32(len(f.ListOps)), Count: uint32(len(elems))})
	f.ListOps = append(f.ListOps, elems...)
	return uint32(len(f.Lists) - 1)
}

// AddAddr stores an address whose elements are elems and returns its
// operand word.
func (f *Func) AddAddr(elems []Operand, off int64, hasOff bool) Operand {
	l := f.AddList(elems)
	f.Addrs = append(f.Addrs, Addr{Elems: l, Off: off, HasOff: hasOff})
	return Pack(KAddr, uint32(len(f.Addrs)-1), 0, false)
}

// AddBlock appends an empty block at the end of the layout.
func (f *Func) AddBlock(label SymID) BlockID {
	b := BlockID(len(f.BlockFirst))
	f.BlockFirst = append(f.BlockFirst, NoInstr)
	f.BlockLast = append(f.BlockLast, NoInstr)
	f.BlockLabel = append(f.BlockLabel, label)
	f.Layout = append(f.Layout, b)
	f.cfgValid = false
	return b
}

// NewInstr creates an instruction of form d that belongs to no block yet;
// its mnemonic is built from the form (Module.Text). The operand words are
// copied into the pool. This is how passes make instructions.
func (f *Func) NewInstr(d Form, ops []Operand) InstrID {
	return f.newInstr(d, f.Mod.Text(d), ops)
}

// NewInstrText creates an instruction from its mnemonic as written,
// decoded once (Decode): the builder's and generators' way. The text is
// kept as given.
func (f *Func) NewInstrText(mnemonic string, ops []Operand) InstrID {
	return f.newInstr(Decode(mnemonic), f.Mod.Strings.Intern(mnemonic), ops)
}

// NewInstrDecoded is NewInstrText for a caller that decoded and interned
// the mnemonic already (a builder caching them per text).
func (f *Func) NewInstrDecoded(d Form, mnemonic StrID, ops []Operand) InstrID {
	return f.newInstr(d, mnemonic, ops)
}

func (f *Func) newInstr(d Form, mn StrID, ops []Operand) InstrID {
	if len(ops) > 255 {
		panic("ir: more than 255 operands")
	}
	id := InstrID(len(f.Op))
	for _, c := range f.columns() {
		c.grow()
	}
	f.Op[id], f.Mnemonic[id] = d.Op, mn
	f.Type[id], f.Type2[id], f.Space[id], f.Mods[id] = d.Type, d.Type2, memSpace(d, ops), d.Mods
	f.Guard[id] = NoOperand
	f.OpStart[id] = uint32(len(f.Operands))
	f.OpCount[id] = uint8(len(ops))
	f.Operands = append(f.Operands, ops...)
	f.Block[id], f.Prev[id], f.Next[id] = NoBlock, NoInstr, NoInstr
	f.props[id] = f.computeProps(id)
	return id
}

// SetForm changes what instruction i is, in place: opcode, types, space
// and modifiers from d, the mnemonic rebuilt from them, the cached
// properties refreshed. The one setter for an instruction's form: no pass
// writes mnemonics. Operands and guard are kept (set them with SetOps).
func (f *Func) SetForm(i InstrID, d Form) {
	f.Op[i], f.Mnemonic[i] = d.Op, f.Mod.Text(d)
	f.Type[i], f.Type2[i], f.Mods[i] = d.Type, d.Type2, d.Mods
	f.Space[i] = memSpace(d, f.Ops(i))
	f.props[i] = f.computeProps(i) | f.props[i]&propDead
	f.cfgValid = false // what i was or is now may be a branch
}

// SetFormSameEdges is SetForm that marks the edges stale only when i was
// or becomes a branch or terminator, the only instructions whose form the
// edges read (rebuildCFG): a form change elsewhere leaves them as they
// are, and with them the analyses a cache keeps by the edges' version.
// (SetForm marks them stale at every change, which callers may count on
// to drop the analyses computed from the instructions.)
func (f *Func) SetFormSameEdges(i InstrID, d Form) {
	f.touchCFG(i) // what i was
	f.Op[i], f.Mnemonic[i] = d.Op, f.Mod.Text(d)
	f.Type[i], f.Type2[i], f.Mods[i] = d.Type, d.Type2, d.Mods
	f.Space[i] = memSpace(d, f.Ops(i))
	f.props[i] = f.computeProps(i) | f.props[i]&propDead
	f.touchCFG(i) // what i is now
}

// SetOps replaces the operands of i. When the count is unchanged the words
// are overwritten in place; otherwise a new run is appended to the pool
// (the old one is reclaimed by Compact). The cached properties are
// refreshed (they look at operands: a mov is a plain copy only between
// registers of one width).
func (f *Func) SetOps(i InstrID, ops []Operand) {
	if len(ops) > 255 {
		panic("ir: more than 255 operands")
	}
	if int(f.OpCount[i]) == len(ops) {
		copy(f.Ops(i), ops)
	} else {
		f.OpStart[i] = uint32(len(f.Operands))
		f.OpCount[i] = uint8(len(ops))
		f.Operands = append(f.Operands, ops...)
	}
	f.props[i] = f.computeProps(i) | f.props[i]&propDead
	f.touchCFG(i)
}

// RefreshProps recomputes the cached properties of every instruction (the
// parser calls it once per function).
func (f *Func) RefreshProps() {
	if len(f.props) != len(f.Op) {
		f.props = make([]Prop, len(f.Op))
	}
	for i := range f.Op {
		f.props[i] = f.computeProps(InstrID(i)) | f.props[i]&propDead
	}
}

// CheckProps reports the first instruction whose cached properties differ
// from a fresh computation (NoInstr when none): the verifier's check that
// nothing changed an instruction behind the setters' backs.
func (f *Func) CheckProps() (InstrID, Prop, Prop) {
	for i := range f.Op {
		if want := f.computeProps(InstrID(i)); f.props[i]&^propDead != want {
			return InstrID(i), f.props[i] &^ propDead, want
		}
	}
	return NoInstr, 0, 0
}

// Append places the unlinked instruction i at the end of block b.
func (f *Func) Append(b BlockID, i InstrID) {
	f.checkUnlinked(i)
	last := f.BlockLast[b]
	f.Block[i] = b
	f.Prev[i] = last
	f.Next[i] = NoInstr
	if last == NoInstr {
		f.BlockFirst[b] = i
	} else {
		f.Next[last] = i
	}
	f.BlockLast[b] = i
	f.touchCFG(i)
}

// InsertBefore places the unlinked instruction i just before at.
func (f *Func) InsertBefore(at, i InstrID) {
	f.checkUnlinked(i)
	b := f.Block[at]
	p := f.Prev[at]
	f.Block[i], f.Prev[i], f.Next[i] = b, p, at
	f.Prev[at] = i
	if p == NoInstr {
		f.BlockFirst[b] = i
	} else {
		f.Next[p] = i
	}
	f.touchCFG(i)
}

// InsertAfter places the unlinked instruction i just after at.
func (f *Func) InsertAfter(at, i InstrID) {
	f.checkUnlinked(i)
	b := f.Block[at]
	n := f.Next[at]
	f.Block[i], f.Prev[i], f.Next[i] = b, at, n
	f.Next[at] = i
	if n == NoInstr {
		f.BlockLast[b] = i
	} else {
		f.Prev[n] = i
	}
	f.touchCFG(i)
}

// Unlink takes i out of its block, keeping its data so it can be placed
// elsewhere (hoisting, sinking).
func (f *Func) Unlink(i InstrID) {
	b := f.Block[i]
	if b == NoBlock {
		return
	}
	p, n := f.Prev[i], f.Next[i]
	if p == NoInstr {
		f.BlockFirst[b] = n
	} else {
		f.Next[p] = n
	}
	if n == NoInstr {
		f.BlockLast[b] = p
	} else {
		f.Prev[n] = p
	}
	f.Block[i], f.Prev[i], f.Next[i] = NoBlock, NoInstr, NoInstr
	f.touchCFG(i)
}

// touchCFG marks the edge arrays stale when instruction i, just linked,
// unlinked or changed, can decide edges: a branch or a terminator. (An
// opaque instruction's row has neither: the parser does not end a block
// at one either.)
func (f *Func) touchCFG(i InstrID) {
	if f.Op[i].Props()&(PBranch|PTerminator) != 0 {
		f.cfgValid = false
	}
}

// Remove deletes i: it is unlinked and marked dead; Compact reclaims it.
func (f *Func) Remove(i InstrID) {
	f.Unlink(i)
	if f.props[i]&propDead == 0 {
		f.props[i] |= propDead
		f.numDead++
	}
}

// propDead is the bit of Func.props that marks a removed instruction.
const propDead Prop = 1 << 31

// IsDead reports whether instruction i was removed (it awaits Compact).
func (f *Func) IsDead(i InstrID) bool { return f.props[i]&propDead != 0 }

// NumDead returns how many instruction slots are dead (removed, awaiting
// Compact).
func (f *Func) NumDead() int { return f.numDead }

func (f *Func) checkUnlinked(i InstrID) {
	if f.Block[i] != NoBlock || f.IsDead(i) {
		panic(fmt.Sprintf("ir: instruction %d is already placed or dead", i))
	}
}

// Instrs iterates over the instructions of block b in order. The loop body
// may remove the current instruction.
func (f *Func) Instrs(b BlockID) func(yield func(InstrID) bool) {
	return func(yield func(InstrID) bool) {
		for i := f.BlockFirst[b]; i != NoInstr; {
			next := f.Next[i]
			if !yield(i) {
				return
			}
			i = next
		}
	}
}

// Compact renumbers the live instructions densely in layout order and
// drops dead instructions, unused operand runs and unlinked leftovers.
// Every InstrID held outside the function becomes invalid.
// maxKeptGatherWords bounds the scratch a function keeps between
// compactions (small functions, compacted run after run in a JIT, reuse
// it; a huge one's is dropped).
const maxKeptGatherWords = 1 << 16

func (f *Func) Compact() {
	n := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			n++
		}
	}
	// The new order and the operands' new starts live in the scratch
	// words past the region each column is gathered through, so a
	// compaction allocates nothing once the scratch has grown: every
	// column shrinks in place (the live instructions are a subset).
	nops := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			nops += int(f.OpCount[i])
		}
	}
	need := max(n, nops) + 2*n
	if cap(f.gatherScratch) < need {
		f.gatherScratch = make([]uint32, need)
	}
	sc := f.gatherScratch[:need]
	tmp, rest := sc[:max(n, nops)], sc[max(n, nops):]
	order := unsafe.Slice((*InstrID)(unsafe.Pointer(unsafe.SliceData(rest))), n)
	start := rest[n : 2*n]
	k := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			order[k] = i
			k++
		}
	}
	// Operands: gathered into tmp, then back into the front of f.Operands.
	ops := unsafe.Slice((*Operand)(unsafe.Pointer(unsafe.SliceData(tmp))), nops)
	at := 0
	for k, i := range order {
		start[k] = uint32(at)
		at += copy(ops[at:], f.Ops(i))
	}
	f.Operands = f.Operands[:copy(f.Operands, ops)]
	for _, c := range f.columns() {
		c.gather(order, tmp)
	}
	copy(f.OpStart, start)
	// Relink: the gathered Block column says which block each new ID
	// is in, and a block's instructions are consecutive.
	for _, b := range f.Layout {
		f.BlockFirst[b], f.BlockLast[b] = NoInstr, NoInstr
	}
	for id := range InstrID(n) {
		b := f.Block[id]
		f.Prev[id], f.Next[id] = NoInstr, NoInstr
		if f.BlockFirst[b] == NoInstr {
			f.BlockFirst[b] = id
		} else {
			f.Prev[id], f.Next[id-1] = id-1, id
		}
		f.BlockLast[b] = id
	}
	f.numDead = 0 // only live instructions were gathered: no props has propDead
	f.Line = nil  // by parse-time IDs, which no longer exist
	if need > maxKeptGatherWords {
		f.gatherScratch = nil // a huge function's would stay with it for good
	}
}

// InstrLoc returns the ".loc" text in force at instruction i, 0 when none.
func (f *Func) InstrLoc(i InstrID) StrID {
	if int(i) < len(f.Loc) {
		return f.Loc[i]
	}
	return 0
}

// SetLoc sets the ".loc" text in force at instruction i.
func (f *Func) SetLoc(i InstrID, loc StrID) {
	if len(f.Loc) == 0 {
		if loc == 0 {
			return
		}
		f.Loc = make([]StrID, len(f.Op))
	}
	f.Loc[i] = loc
}

// SrcLine returns the source line of instruction i, 0 when it has none
// (made after parsing, or the function was compacted).
func (f *Func) SrcLine(i InstrID) uint32 {
	if int(i) < len(f.Line) {
		return f.Line[i]
	}
	return 0
}

// InvalidateCFG marks the edge arrays stale; ComputeCFG rebuilds them.
func (f *Func) InvalidateCFG() { f.cfgValid = false }

// CFGVersion counts the rebuilds of the edge arrays: analyses built on
// the CFG record it, and are stale when it has changed.
func (f *Func) CFGVersion() uint64 { return f.cfgVersion }

// CFGValid reports whether the edge arrays match the instructions.
func (f *Func) CFGValid() bool { return f.cfgValid }

// SuccsOf returns the successors of b (ComputeCFG must have run).
func (f *Func) SuccsOf(b BlockID) []BlockID {
	return f.Succs[f.SuccStart[b]:f.SuccStart[b+1]]
}

// PredsOf returns the predecessors of b (ComputeCFG must have run).
func (f *Func) PredsOf(b BlockID) []BlockID {
	return f.Preds[f.PredStart[b]:f.PredStart[b+1]]
}

// Clone returns a deep copy of f that shares only the module (symbols and
// strings). Phase tests keep the clone as the "before" program.
func (f *Func) Clone() *Func { return f.CloneInto(nil) }

// CloneInto is Clone into dst's memory: dst's arrays, where large enough,
// hold the copy, so a caller that snapshots function after function (the
// pipeline's register-cap snapshot) allocates nothing once its arrays
// have grown. dst must not share arrays with f or be in use elsewhere;
// nil allocates a new Func.
func (f *Func) CloneInto(dst *Func) *Func {
	if dst == nil {
		return f.cloneFresh()
	}
	old := *dst
	*dst = *f
	g := dst
	g.RetParams = append(old.RetParams[:0], f.RetParams...)
	g.Params = append(old.Params[:0], f.Params...)
	g.Directives = append(old.Directives[:0], f.Directives...)
	g.Locals = append(old.Locals[:0], f.Locals...)
	g.RegName = append(old.RegName[:0], f.RegName...)
	g.RegType = append(old.RegType[:0], f.RegType...)
	g.RegVec = append(old.RegVec[:0], f.RegVec...)
	oc, gc := old.columns(), g.columns()
	for k := range gc {
		gc[k].copyFrom(oc[k])
	}
	g.Operands = append(old.Operands[:0], f.Operands...)
	g.Imms = append(old.Imms[:0], f.Imms...)
	g.Addrs = append(old.Addrs[:0], f.Addrs...)
	g.Lists = append(old.Lists[:0], f.Lists...)
	g.ListOps = append(old.ListOps[:0], f.ListOps...)
	g.BlockFirst = append(old.BlockFirst[:0], f.BlockFirst...)
	g.BlockLast = append(old.BlockLast[:0], f.BlockLast...)
	g.BlockLabel = append(old.BlockLabel[:0], f.BlockLabel...)
	g.Layout = append(old.Layout[:0], f.Layout...)
	g.SuccStart = append(old.SuccStart[:0], f.SuccStart...)
	g.Succs = append(old.Succs[:0], f.Succs...)
	g.PredStart = append(old.PredStart[:0], f.PredStart...)
	g.Preds = append(old.Preds[:0], f.Preds...)
	g.cfgScratch = old.cfgScratch[:0] // working memory is never shared
	g.gatherScratch = old.gatherScratch[:0]
	return g
}

func (f *Func) cloneFresh() *Func {
	g := *f
	g.RetParams = slices.Clone(f.RetParams)
	g.Params = slices.Clone(f.Params)
	g.Directives = slices.Clone(f.Directives)
	g.Locals = slices.Clone(f.Locals)
	g.RegName = slices.Clone(f.RegName)
	g.RegType = slices.Clone(f.RegType)
	g.RegVec = slices.Clone(f.RegVec)
	for _, c := range g.columns() {
		c.clone()
	}
	g.Operands = slices.Clone(f.Operands)
	g.Imms = slices.Clone(f.Imms)
	g.Addrs = slices.Clone(f.Addrs)
	g.Lists = slices.Clone(f.Lists)
	g.ListOps = slices.Clone(f.ListOps)
	g.BlockFirst = slices.Clone(f.BlockFirst)
	g.BlockLast = slices.Clone(f.BlockLast)
	g.BlockLabel = slices.Clone(f.BlockLabel)
	g.Layout = slices.Clone(f.Layout)
	g.SuccStart = slices.Clone(f.SuccStart)
	g.Succs = slices.Clone(f.Succs)
	g.PredStart = slices.Clone(f.PredStart)
	g.Preds = slices.Clone(f.Preds)
	g.cfgScratch = nil // working memory is never shared
	g.gatherScratch = nil
	return &g
}

// The per-instruction columns, listed once: NewInstr grows them, Clone
// copies them, Compact gathers them, and the verifier checks their
// lengths through this list, so they cannot drift apart. (A test checks
// that every per-instruction slice of Func is in it.)

const numInstrColumns = 14

// columnNames names the columns in the order columns lists them.
var columnNames = [numInstrColumns]string{"Op", "Mnemonic", "Type", "Type2", "Space", "Mods", "Guard",
	"OpStart", "OpCount", "Block", "Prev", "Next", "Loc", "props"}

// columns returns the columns. Each element is one pointer wide, so
// making the interface values allocates nothing.
func (f *Func) columns() [numInstrColumns]instrColumn {
	return [numInstrColumns]instrColumn{
		col[Opcode]{&f.Op}, col[StrID]{&f.Mnemonic}, col[Type]{&f.Type},
		col[Type]{&f.Type2}, col[Space]{&f.Space}, col[Mods]{&f.Mods},
		col[Operand]{&f.Guard}, col[uint32]{&f.OpStart}, col[uint8]{&f.OpCount},
		col[BlockID]{&f.Block}, col[InstrID]{&f.Prev}, col[InstrID]{&f.Next},
		lazyCol[StrID]{col[StrID]{&f.Loc}},
		col[Prop]{&f.props},
	}
}

// ColumnLens returns the name and length of every per-instruction column,
// and whether it may be empty instead (a lazy column: the verifier's shape
// check, and tests).
func (f *Func) ColumnLens() [numInstrColumns]struct {
	Name string
	Len  int
	Lazy bool
} {
	var out [numInstrColumns]struct {
		Name string
		Len  int
		Lazy bool
	}
	for k, c := range f.columns() {
		_, lazy := c.(lazyCol[StrID])
		out[k].Name, out[k].Len, out[k].Lazy = columnNames[k], c.length(), lazy
	}
	return out
}

type instrColumn interface {
	length() int
	bytes() int                           // length times the element size
	grow()                                // append one zero entry
	clone()                               // replace the slice with a copy
	copyFrom(old instrColumn)             // set the slice to its contents copied into old's array
	gather(order []InstrID, tmp []uint32) // keep the slice's entries at order, in that order (tmp: a scratch word per entry)
}

type col[T any] struct{ p *[]T }

func (c col[T]) length() int { return len(*c.p) }
func (c col[T]) bytes() int {
	var zero T
	return len(*c.p) * int(unsafe.Sizeof(zero))
}
func (c col[T]) grow() {
	var zero T
	*c.p = append(*c.p, zero)
}
func (c col[T]) clone() { *c.p = slices.Clone(*c.p) }

// copyFrom sets the column (a copy of the source's header, as after
// *dst = *f) to its contents held in old's array.
func (c col[T]) copyFrom(old instrColumn) {
	*c.p = append((*old.(col[T]).p)[:0], *c.p...)
}
func (c col[T]) gather(order []InstrID, tmp []uint32) {
	old := *c.p
	// tmp has a word per entry of order, at least as wide as T (every
	// column's element is a plain value of at most 4 bytes, which a test
	// checks): the gathered values go there, then back into old's front.
	g := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(tmp))), len(order))
	for k, i := range order {
		g[k] = old[i]
	}
	*c.p = old[:copy(old, g)]
}

// lazyCol is a column that is empty while every entry is zero: growing
// and gathering leave an empty one empty. Its readers go through an
// accessor that answers zero past the end (InstrLoc).
type lazyCol[T any] struct{ col[T] }

func (c lazyCol[T]) grow() {
	if len(*c.p) > 0 {
		c.col.grow()
	}
}

func (c lazyCol[T]) copyFrom(old instrColumn) {
	*c.p = append((*old.(lazyCol[T]).p)[:0], *c.p...)
}

func (c lazyCol[T]) gather(order []InstrID, tmp []uint32) {
	if len(*c.p) > 0 {
		c.col.gather(order, tmp)
	}
}

// MemBytes returns the bytes the function's arrays hold (their lengths,
// not capacities): the instruction columns, the operand, immediate,
// address and list pools, the registers, the blocks and the CFG. The
// measure behind "bytes of IR per instruction".
func (f *Func) MemBytes() int {
	n := 0
	for _, c := range f.columns() {
		n += c.bytes()
	}
	n += 4 * (len(f.Operands) + len(f.ListOps))
	n += int(unsafe.Sizeof(Imm{}))*len(f.Imms) + int(unsafe.Sizeof(Addr{}))*len(f.Addrs) + int(unsafe.Sizeof(List{}))*len(f.Lists)
	n += 4*len(f.RegName) + len(f.RegType) + len(f.RegVec)
	n += 4 * (len(f.BlockFirst) + len(f.BlockLast) + len(f.BlockLabel) + len(f.Layout))
	n += 4 * (len(f.SuccStart) + len(f.Succs) + len(f.PredStart) + len(f.Preds))
	return n
}

// DimsElems decodes an array suffix ("[16]", "[2][3]", "[]") into an
// element count: 1 for "", -1 when a dimension is empty or not a number.
// Producers of symbols (the parser, the builder, the generators) call it
// when they set Dims, so nothing after them reads the text.
func DimsElems(dims string) int64 {
	n := int64(1)
	for dims != "" {
		open := strings.IndexByte(dims, '[')
		end := strings.IndexByte(dims, ']')
		if open < 0 || end < open {
			return -1
		}
		v, err := strconv.ParseInt(strings.TrimSpace(dims[open+1:end]), 0, 64)
		if err != nil || v < 0 || (v > 0 && n > math.MaxInt64/v) {
			return -1
		}
		n *= v
		dims = dims[end+1:]
	}
	return n
}
