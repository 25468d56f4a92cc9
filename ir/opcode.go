package ir

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
	PPseudo                       // not an instruction of the machine (none at the moment)
	POpaque                       // unknown to the table: treat every way conservatively
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
		if Opcode(i) != OpUnknown {
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
