package ir

import "strings"

// Opcode is the base name of a PTX instruction ("ld", "mad", "bra"); the
// dotted modifiers live in the instruction's mnemonic, type and space
// fields. OpUnknown stands for any instruction the table does not know:
// it is parsed generically, kept as an opaque instruction with
// conservative properties, and printed back as written.
type Opcode uint16

// Prop is a set of opcode properties. Passes ask these, never names.
type Prop uint32

const (
	PPure        Prop = 1 << iota // no side effects: result depends only on operands
	PSideEffect                   // has effects beyond its destination registers
	PReadsMem                     // reads memory
	PWritesMem                    // writes memory
	PCommutative                  // the first two sources may be swapped
	PAssociative                  // (a op b) op c == a op (b op c) for integers
	PCopy                         // copy-like: mov/cvta-style value transfer
	PTerminator                   // ends a block when unguarded
	PBranch                       // transfers control to label operands
	PConvergent                   // warp-synchronous: never merged or moved across control flow
	PCall                         // calls a function
	PBarrier                      // a barrier or fence: orders memory
	PVolatile                     // keep order and count (volatile, atomics)
	PPseudo                       // not an instruction of the machine (phi)
	POpaque                       // unknown to the table: treat every way conservatively
	PCarry                        // reads or writes the carry flag (add.cc, addc, …): keep order among PCarry
	PInvariant                    // reads memory no instruction of the kernel writes (ld.const, ld.global.nc, ldu)
	PAddrSpace                    // takes an address whose state space a modifier names; none named means generic
	PAsync                        // starts work that completes later (cp.async, wgmma.mma_async, st.async)
)

// Has reports whether all of q are in p.
func (p Prop) Has(q Prop) bool { return p&q == q }

// Latency is a coarse latency class for scheduling-aware movement.
type Latency uint8

const (
	LatALU Latency = iota
	LatSFU
	LatMemory
	LatTexture
	LatControl
	LatMMA // tensor-core work: mma, wmma, wgmma, tcgen05
)

// OpInfo is one row of the opcode property table.
type OpInfo struct {
	Name    string
	Props   Prop
	Latency Latency
}

// Props returns the property set of op.
func (op Opcode) Props() Prop { return opTable[op].Props }

// Latency returns the latency class of op.
func (op Opcode) Latency() Latency { return opTable[op].Latency }

func (op Opcode) String() string {
	if int(op) < len(opTable) {
		return opTable[op].Name
	}
	return "?"
}

// NumOpcodes returns the size of the opcode table.
func NumOpcodes() int { return len(opTable) }

// Info returns the table row of op.
func (op Opcode) Info() OpInfo { return opTable[op] }

var opByName map[string]Opcode

func init() {
	opByName = make(map[string]Opcode, len(opTable))
	for i, r := range opTable {
		if Opcode(i) != OpUnknown && r.Props&PPseudo == 0 {
			opByName[r.Name] = Opcode(i)
		}
	}
}

// OpcodeByName maps a base name ("ld") to its opcode, OpUnknown when the
// table does not know it.
func OpcodeByName(name string) Opcode {
	if op, ok := opByName[name]; ok {
		return op
	}
	return OpUnknown
}

var latencyNames = [...]string{"alu", "sfu", "memory", "texture", "control", "mma"}

func (l Latency) String() string {
	if int(l) < len(latencyNames) {
		return latencyNames[l]
	}
	return "?"
}

// HasMod reports whether mnemonic m carries the dotted modifier mod after
// its base name: HasMod("ld.global.nc.f32", "nc") is true.
func HasMod(m, mod string) bool {
	_, rest, ok := strings.Cut(m, ".")
	for ok {
		var c string
		c, rest, ok = strings.Cut(rest, ".")
		if c == mod {
			return true
		}
	}
	return false
}

// memory-ordering modifiers that make an access strong: it keeps its order
// and count.
var strongMods = [...]string{"volatile", "relaxed", "acquire", "release", "acq_rel", "sc", "mmio"}

func hasStrongMod(m string) bool {
	_, rest, ok := strings.Cut(m, ".")
	for ok {
		var c string
		c, rest, ok = strings.Cut(rest, ".")
		for _, s := range strongMods {
			if c == s {
				return true
			}
		}
	}
	return false
}

// volatileSpecial reports whether a special register reads a value that
// changes while the program runs (clocks, timers, counters, %warpid and
// %smid, which may change when a warp migrates).
func volatileSpecial(name string) bool {
	for _, p := range [...]string{"%clock", "%globaltimer", "%pm", "%warpid", "%smid"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// compareCommutes lists the comparison modifiers whose result does not
// change when the operands are swapped.
var compareCommutes = [...]string{"eq", "ne", "equ", "neu", "num", "nan"}

// InstrProps returns the properties of instruction i: its opcode's row
// refined by the modifiers of its mnemonic, its type, its state space and
// its operands. Passes should call this rather than Opcode.Props. It never
// allocates.
//
// Refinements (each only narrows what the row allows, or adds caution):
//   - a strong access (.volatile .relaxed .acquire .release .acq_rel .sc
//     .mmio) gains PVolatile and PSideEffect and loses PInvariant;
//   - ld.const, ld.global.nc and ld.param of an entry's own parameter gain
//     PInvariant;
//   - .cc on add/sub/mad gains PCarry and PSideEffect, loses PPure;
//   - PAssociative is dropped for float types, .sat, .cc, .hi and .wide;
//   - setp/set with .eq .ne .equ .neu .num .nan gain PCommutative;
//   - mov keeps PCopy only for a register destination and one
//     register/immediate source of the same width;
//   - reading %clock, %globaltimer, %pm*, %warpid or %smid makes a pure
//     instruction PVolatile|PSideEffect;
//   - wmma.load/.store/.mma, cp.async waits and commits, mbarrier
//     .pending_count, tensormap.replace, clusterlaunchcontrol.query_cancel,
//     st.async and red.async get their own effects.
func (f *Func) InstrProps(i InstrID) Prop {
	op := f.Op[i]
	p := opTable[op].Props
	if p&(POpaque|PPseudo) != 0 {
		return p
	}
	m := f.Str(f.Mnemonic[i])
	switch op {
	case OpLd, OpLdu, OpSt, OpAtom, OpRed, OpMultimem:
		if hasStrongMod(m) {
			p = p&^PInvariant | PVolatile | PSideEffect
			break
		}
		if op == OpLd {
			if f.Space[i] == SpaceConst || HasMod(m, "nc") || f.readsOwnKernelParam(i) {
				p |= PInvariant
			}
		}
		if (op == OpSt || op == OpRed) && HasMod(m, "async") {
			p |= PAsync | PVolatile
		}
	case OpAdd, OpSub, OpMad, OpMul:
		if HasMod(m, "cc") {
			p = p&^(PPure|PAssociative) | PCarry | PSideEffect
		}
	case OpSetp, OpSet:
		if _, rest, ok := strings.Cut(m, "."); ok {
			cmp, _, _ := strings.Cut(rest, ".")
			for _, c := range compareCommutes {
				if cmp == c {
					p |= PCommutative
				}
			}
		}
	case OpMov:
		if !f.isPlainCopy(i) {
			p &^= PCopy
		}
	case OpWmma:
		switch {
		case HasMod(m, "load"):
			p = PConvergent | PReadsMem | PAddrSpace
		case HasMod(m, "store"):
			p = PConvergent | PWritesMem | PSideEffect | PAddrSpace
		case HasMod(m, "mma"):
			p = PConvergent
		}
	case OpCp:
		if HasMod(m, "wait_group") || HasMod(m, "wait_all") || HasMod(m, "commit_group") ||
			HasMod(m, "mbarrier") {
			p |= PBarrier
		}
	case OpMbarrier:
		if HasMod(m, "pending_count") {
			p = PPure
		}
	case OpTensormap:
		if HasMod(m, "replace") {
			p = PReadsMem | PWritesMem | PSideEffect | PAddrSpace
		}
	case OpClusterlaunchcontrol:
		if HasMod(m, "query_cancel") {
			p = PPure
		}
	}
	if p.Has(PAssociative) {
		if f.Type[i].IsFloat() || HasMod(m, "sat") || HasMod(m, "hi") || HasMod(m, "wide") {
			p &^= PAssociative
		}
	}
	if p.Has(PPure) {
		for _, o := range f.Ops(i) {
			if o.Kind() == KSpecial && !o.IsDef() && int(o.Index()) < len(f.Mod.Specials) &&
				volatileSpecial(f.Str(f.Mod.Specials[o.Index()])) {
				p = p&^(PPure|PCopy) | PVolatile | PSideEffect
				break
			}
		}
	}
	return p
}

// isPlainCopy reports whether mov i is "mov.t %dst, src" with a register
// destination and a register or immediate source of the same width.
func (f *Func) isPlainCopy(i InstrID) bool {
	ops := f.Ops(i)
	if len(ops) != 2 || ops[0].Kind() != KReg || !ops[0].IsDef() || ops[1].IsDef() {
		return false
	}
	switch ops[1].Kind() {
	case KImm:
		return true
	case KReg:
		if ops[1].Flags() != 0 {
			return false
		}
		a, b := f.RegType[ops[0].Reg()], f.RegType[ops[1].Reg()]
		return a.Bits() == b.Bits()
	}
	return false
}

// readsOwnKernelParam reports whether ld i reads a parameter of its own
// kernel (.entry), memory nothing in the kernel writes. Call arguments and
// return values (.param locals) and .func parameters do not count.
func (f *Func) readsOwnKernelParam(i InstrID) bool {
	if f.Kind != KindEntry || f.Space[i] != SpaceParam {
		return false
	}
	for _, o := range f.Ops(i) {
		if o.Kind() != KAddr || int(o.Index()) >= len(f.Addrs) {
			continue
		}
		a := f.Addrs[o.Index()]
		for _, e := range f.ListElems(a.Elems) {
			if e.Kind() != KSym {
				return false
			}
			s := &f.Mod.Syms[e.Index()]
			return s.Kind == SymParam && s.Owner == f.ID
		}
	}
	return false
}
