package ir

import "strings"

// Opcode is the base name of a PTX instruction ("ld", "mad", "bra"); the
// dotted modifiers live in the instruction's mnemonic, type and space
// fields. OpUnknown stands for any instruction the table does not know:
// it is parsed generically, kept as an opaque instruction with
// conservative properties, and printed back as written.
//
// One byte: the Op column is read by every pass, and the table has fewer
// than 256 rows (past that, numOpcodes overflows and the build stops).
type Opcode uint8

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
// its base name: HasMod("ld.global.nc.f32", "nc") is true. For tools
// that hold text; the optimizer reads the decoded Mods instead.
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

// InstrProps returns the properties of instruction i: its opcode's row
// refined by its modifiers, type, state space and operands, as cached
// when the instruction was made or last set (RefreshProps). Passes call
// this rather than Opcode.Props.
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
func (f *Func) InstrProps(i InstrID) Prop { return f.props[i] &^ propDead }

// computeProps derives InstrProps from the fields: no text is read.
func (f *Func) computeProps(i InstrID) Prop {
	op := f.Op[i]
	p := opTable[op].Props
	if p&(POpaque|PPseudo) != 0 {
		return p
	}
	m := f.Mods[i]
	switch op {
	case OpLd, OpLdu, OpSt, OpAtom, OpRed, OpMultimem:
		if m.Order() != OrderNone { // a strong access keeps its order and count
			p = p&^PInvariant | PVolatile | PSideEffect
			break
		}
		if op == OpLd {
			if f.Space[i] == SpaceConst || m.Has(ModNC) || f.readsOwnKernelParam(i) {
				p |= PInvariant
			}
		}
		if (op == OpSt || op == OpRed) && m.Has(ModAsync) {
			p |= PAsync | PVolatile
		}
	case OpAdd, OpSub, OpMad, OpMul:
		if m.Has(ModCC) {
			p = p&^(PPure|PAssociative) | PCarry | PSideEffect
		}
	case OpSetp, OpSet:
		if m.Cmp().Commutes() {
			p |= PCommutative
		}
	case OpMov:
		if !f.isPlainCopy(i) {
			p &^= PCopy
		}
	case OpWmma:
		switch m.Sub() {
		case SubLoad:
			p = PConvergent | PReadsMem | PAddrSpace
		case SubStore:
			p = PConvergent | PWritesMem | PSideEffect | PAddrSpace
		case SubMma:
			p = PConvergent
		}
	case OpCp:
		if sb := m.Sub(); sb == SubWaitGroup || sb == SubWaitAll || sb == SubCommitGroup || sb == SubMbarrier {
			p |= PBarrier
		}
	case OpMbarrier:
		if m.Sub() == SubPendingCount {
			p = PPure
		}
	case OpTensormap:
		if m.Sub() == SubReplace {
			p = PReadsMem | PWritesMem | PSideEffect | PAddrSpace
		}
	case OpClusterlaunchcontrol:
		if m.Sub() == SubQueryCancel {
			p = PPure
		}
	}
	if p.Has(PAssociative) {
		if f.Type[i].IsFloat() || m.Has(ModSat) || m.Half() == HalfHi || m.Half() == HalfWide {
			p &^= PAssociative
		}
	}
	if p.Has(PPure) {
		for _, o := range f.Ops(i) {
			if o.Kind() == KSpecial && !o.IsDef() && f.Mod.SpecialFacts(o.Index())&SpecialVolatile != 0 {
				p = p&^(PPure|PCopy) | PVolatile | PSideEffect
				break
			}
		}
	}
	return p
}

// SpecialFact is what the optimizer needs to know of a special register.
type SpecialFact uint8

const (
	// SpecialVolatile: the value changes while the program runs (clocks,
	// timers, counters, %warpid and %smid, which may change when a warp
	// migrates).
	SpecialVolatile SpecialFact = 1 << iota
	// SpecialVarying: the value can differ between the lanes of a warp
	// (%tid, %laneid, %lanemask_*, and conservatively the clocks).
	SpecialVarying
)

// SpecialFacts returns the facts of special register k (a KSpecial
// index), decoded from its name the first time it is asked for (under the
// strings mutex, so functions optimized in parallel may ask).
func (m *Module) SpecialFacts(k uint32) SpecialFact {
	if int(k) >= len(m.Specials) {
		return 0
	}
	m.Strings.mu.Lock()
	defer m.Strings.mu.Unlock()
	for len(m.specialFacts) < len(m.Specials) {
		name := m.Strings.Get(m.Specials[len(m.specialFacts)])
		var fact SpecialFact
		if volatileSpecial(name) {
			fact |= SpecialVolatile
		}
		if IsVaryingSpecial(name) {
			fact |= SpecialVarying
		}
		m.specialFacts = append(m.specialFacts, fact)
	}
	return m.specialFacts[k]
}

// IsVaryingSpecial reports whether a special register (by name, with the
// "%") can differ between the lanes of a warp.
func IsVaryingSpecial(name string) bool {
	for _, p := range [...]string{"%tid", "%laneid", "%lanemask", "%clock", "%globaltimer"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
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
