package ir

// The opcode property table: one row per PTX base opcode (the first dotted
// component of a mnemonic: "ld" for "ld.global.nc.v4.f32", "cp" for
// "cp.async.bulk.tensor…"). The modifiers refine a row per instruction:
// Func.InstrProps (opcode.go) is what passes should call.
//
// What each property promises to passes:
//
//	PPure        The result is a function of the source operands only: no
//	             memory, no hidden state, no dependence on which lanes are
//	             active. A pure instruction whose results are unused may be
//	             deleted; two with equal operands and mnemonic may be merged;
//	             it may be moved anywhere its operands are available.
//	PSideEffect  Has effects beyond writing its destination registers
//	             (memory, hidden state, control). Never deleted, even when
//	             its results are unused.
//	PReadsMem    Reads memory (of the space in Func.Space, generic if none).
//	             Not pure: may not be moved across a PWritesMem instruction
//	             that may alias, nor across a PBarrier.
//	PWritesMem   Writes memory. Always comes with PSideEffect.
//	PCommutative The first two source operands may be swapped (for setp
//	             only with .eq/.ne, as InstrProps refines).
//	PAssociative (a op b) op c == a op (b op c) holds on INTEGER types.
//	             Floating-point instructions are never reassociated unless
//	             a knob asks for it; InstrProps drops this bit for float
//	             types, .sat, .cc, mul.hi and mul.wide.
//	PCopy        mov: the destination gets the source's bits unchanged,
//	             when InstrProps keeps the bit (one register destination,
//	             one register/immediate source of the same width).
//	PTerminator  Ends control in its block when unguarded (bra, brx, ret,
//	             exit, trap). Guarded or not, it is the block's last
//	             instruction.
//	PBranch      Transfers control to its KLabel operands or to a
//	             .branchtargets table (brx.idx).
//	PConvergent  Warp- or group-collective: the set of lanes executing it
//	             matters. Never moved across control flow, never made
//	             control dependent on more or fewer conditions, never
//	             merged across blocks, never duplicated into paths.
//	PCall        Calls a function; treat as reading and writing all memory.
//	PBarrier     Orders memory: no memory access is moved across it.
//	PVolatile    Keep order and count relative to every other PVolatile and
//	             PBarrier instruction (volatile and strong memory accesses,
//	             atomics, clocks and timers).
//	PPseudo      Not a PTX instruction (phi); never printed as is.
//	POpaque      Unknown to the table (OpUnknown): reads and writes
//	             everything; treat every way conservatively.
//	PCarry       Reads or writes the carry flag (add.cc, addc, madc, …):
//	             keep order among PCarry instructions, never delete or merge.
//	PInvariant   The memory it reads is written by no instruction of the
//	             kernel (ld.const, ld.global.nc, ldu, ld.param of a kernel
//	             parameter): may be merged and moved across stores.
//	PAddrSpace   Takes a memory address whose state space is named by a
//	             modifier; with none named the address is generic, and
//	             Func.Space holds SpaceGeneric.
//	PAsync       Starts work that completes later, behind a wait or an
//	             mbarrier (cp.async, st.async, wgmma.mma_async, tcgen05):
//	             its operands stay in use until the matching wait.
//
// Rows are conservative: when the base name covers both harmless and
// harmful forms (wmma.load vs wmma.store, cp.async vs cp.async.wait_group),
// the row carries the union of the effects and InstrProps narrows it by
// mnemonic. OpUnknown, row 0, is the opaque row.

const (
	OpUnknown Opcode = iota
	OpMov
	OpAdd
	OpBra
	OpRet
	OpExit
	OpLd
	OpSt
	OpCall
	OpBrxIdx

	// Integer and floating-point arithmetic.
	OpSub
	OpMul
	OpMad
	OpMul24
	OpMad24
	OpSad
	OpDiv
	OpRem
	OpAbs
	OpNeg
	OpMin
	OpMax
	OpPopc
	OpClz
	OpBfind
	OpFns
	OpBrev
	OpBfe
	OpBfi
	OpSzext
	OpBmsk
	OpDp4a
	OpDp2a
	OpAddc
	OpSubc
	OpMadc
	OpFma
	OpRcp
	OpSqrt
	OpRsqrt
	OpSin
	OpCos
	OpLg2
	OpEx2
	OpTanh
	OpCopysign
	OpTestp

	// Comparison and selection.
	OpSet
	OpSetp
	OpSelp
	OpSlct

	// Logic and shift.
	OpAnd
	OpOr
	OpXor
	OpNot
	OpCnot
	OpLop3
	OpShf
	OpShl
	OpShr

	// Data movement and conversion.
	OpPrmt
	OpLdu
	OpPrefetch
	OpPrefetchu
	OpApplypriority
	OpDiscard
	OpCreatepolicy
	OpIsspacep
	OpCvta
	OpCvt
	OpMapa
	OpGetctarank
	OpCp // cp.async, cp.async.bulk(.tensor), cp.reduce.async.bulk, waits and commits
	OpMbarrier
	OpTensormap
	OpMultimem

	// Texture and surface.
	OpTex
	OpTld4
	OpTxq
	OpIstypep
	OpSuld
	OpSust
	OpSured
	OpSuq

	// Parallel synchronization and communication.
	OpBar // bar.sync, bar.arrive, bar.red, bar.warp.sync
	OpBarrier
	OpMembar
	OpFence
	OpAtom
	OpRed
	OpVote
	OpMatch
	OpActivemask
	OpRedux
	OpGriddepcontrol
	OpElect
	OpSetmaxnreg
	OpNanosleep
	OpShfl
	OpClusterlaunchcontrol

	// Warp- and group-level matrix instructions.
	OpMma
	OpWmma
	OpWgmma
	OpLdmatrix
	OpStmatrix
	OpMovmatrix
	OpTcgen05

	// Video instructions.
	OpVadd
	OpVsub
	OpVabsdiff
	OpVmin
	OpVmax
	OpVshl
	OpVshr
	OpVmad
	OpVset
	OpVadd2
	OpVsub2
	OpVavrg2
	OpVabsdiff2
	OpVmin2
	OpVmax2
	OpVset2
	OpVadd4
	OpVsub4
	OpVavrg4
	OpVabsdiff4
	OpVmin4
	OpVmax4
	OpVset4

	// Miscellaneous.
	OpTrap
	OpBrkpt
	OpPmevent
	OpAlloca
	OpStacksave
	OpStackrestore

	// Pseudo instructions of the optimizer.
	OpPhi

	// A ".pragma" statement inside a body, kept in place as an instruction
	// (the parser looks it up by the name ".pragma", which no PTX opcode
	// can collide with).
	OpPragma

	numOpcodes
)

// Common property sets.
const (
	pALU       = PPure
	pALUComm   = PPure | PCommutative
	pALUAssoc  = PPure | PCommutative | PAssociative
	pLoad      = PReadsMem | PAddrSpace
	pStore     = PWritesMem | PSideEffect | PAddrSpace
	pAtomic    = PReadsMem | PWritesMem | PSideEffect | PVolatile | PAddrSpace
	pAllMem    = PReadsMem | PWritesMem | PSideEffect | PVolatile
	pFence     = pAllMem | PBarrier
	pSync      = pFence | PConvergent
	pCollect   = PConvergent // warp-collective, no memory
	pHint      = PSideEffect | PReadsMem | PAddrSpace
	pTerminate = PTerminator | PSideEffect
)

var opTable = [numOpcodes]OpInfo{
	OpUnknown: {"?", PSideEffect | PReadsMem | PWritesMem | PConvergent | PVolatile | PBarrier | POpaque, LatMemory},
	OpMov:     {"mov", PPure | PCopy, LatALU},
	OpAdd:     {"add", pALUAssoc, LatALU},
	OpBra:     {"bra", PTerminator | PBranch, LatControl},
	OpRet:     {"ret", pTerminate, LatControl},
	OpExit:    {"exit", pTerminate, LatControl},
	OpLd:      {"ld", pLoad, LatMemory},
	OpSt:      {"st", pStore, LatMemory},
	// A callee may do anything, barriers and collectives included.
	OpCall:   {"call", PCall | pSync, LatControl},
	OpBrxIdx: {"brx", PTerminator | PBranch, LatControl},

	OpSub:      {"sub", pALU, LatALU},
	OpMul:      {"mul", pALUAssoc, LatALU},
	OpMad:      {"mad", pALUComm, LatALU},
	OpMul24:    {"mul24", pALUComm, LatALU},
	OpMad24:    {"mad24", pALUComm, LatALU},
	OpSad:      {"sad", pALUComm, LatALU},
	OpDiv:      {"div", pALU, LatSFU},
	OpRem:      {"rem", pALU, LatSFU},
	OpAbs:      {"abs", pALU, LatALU},
	OpNeg:      {"neg", pALU, LatALU},
	OpMin:      {"min", pALUAssoc, LatALU},
	OpMax:      {"max", pALUAssoc, LatALU},
	OpPopc:     {"popc", pALU, LatALU},
	OpClz:      {"clz", pALU, LatALU},
	OpBfind:    {"bfind", pALU, LatALU},
	OpFns:      {"fns", pALU, LatALU},
	OpBrev:     {"brev", pALU, LatALU},
	OpBfe:      {"bfe", pALU, LatALU},
	OpBfi:      {"bfi", pALU, LatALU},
	OpSzext:    {"szext", pALU, LatALU},
	OpBmsk:     {"bmsk", pALU, LatALU},
	OpDp4a:     {"dp4a", pALU, LatALU},
	OpDp2a:     {"dp2a", pALU, LatALU},
	OpAddc:     {"addc", PCommutative | PCarry | PSideEffect, LatALU},
	OpSubc:     {"subc", PCarry | PSideEffect, LatALU},
	OpMadc:     {"madc", PCommutative | PCarry | PSideEffect, LatALU},
	OpFma:      {"fma", pALUComm, LatALU},
	OpRcp:      {"rcp", pALU, LatSFU},
	OpSqrt:     {"sqrt", pALU, LatSFU},
	OpRsqrt:    {"rsqrt", pALU, LatSFU},
	OpSin:      {"sin", pALU, LatSFU},
	OpCos:      {"cos", pALU, LatSFU},
	OpLg2:      {"lg2", pALU, LatSFU},
	OpEx2:      {"ex2", pALU, LatSFU},
	OpTanh:     {"tanh", pALU, LatSFU},
	OpCopysign: {"copysign", pALU, LatALU},
	OpTestp:    {"testp", pALU, LatALU},

	OpSet:  {"set", pALU, LatALU},
	OpSetp: {"setp", pALU, LatALU},
	OpSelp: {"selp", pALU, LatALU},
	OpSlct: {"slct", pALU, LatALU},

	OpAnd:  {"and", pALUAssoc, LatALU},
	OpOr:   {"or", pALUAssoc, LatALU},
	OpXor:  {"xor", pALUAssoc, LatALU},
	OpNot:  {"not", pALU, LatALU},
	OpCnot: {"cnot", pALU, LatALU},
	OpLop3: {"lop3", pALU, LatALU},
	OpShf:  {"shf", pALU, LatALU},
	OpShl:  {"shl", pALU, LatALU},
	OpShr:  {"shr", pALU, LatALU},

	OpPrmt:          {"prmt", pALU, LatALU},
	OpLdu:           {"ldu", pLoad | PInvariant, LatMemory},
	OpPrefetch:      {"prefetch", pHint, LatMemory},
	OpPrefetchu:     {"prefetchu", pHint, LatMemory},
	OpApplypriority: {"applypriority", pHint | PWritesMem, LatMemory},
	OpDiscard:       {"discard", pHint | PWritesMem, LatMemory},
	OpCreatepolicy:  {"createpolicy", pALU, LatALU},
	OpIsspacep:      {"isspacep", pALU, LatALU},
	OpCvta:          {"cvta", pALU, LatALU},
	OpCvt:           {"cvt", pALU, LatALU},
	OpMapa:          {"mapa", pALU, LatALU},
	OpGetctarank:    {"getctarank", pALU, LatALU},
	OpCp:            {"cp", pAllMem | PAddrSpace | PAsync, LatMemory},
	OpMbarrier:      {"mbarrier", pFence | PAddrSpace, LatMemory},
	OpTensormap:     {"tensormap", pFence | PAddrSpace, LatMemory},
	OpMultimem:      {"multimem", pAtomic, LatMemory},

	OpTex:     {"tex", PReadsMem, LatTexture},
	OpTld4:    {"tld4", PReadsMem, LatTexture},
	OpTxq:     {"txq", pALU, LatTexture},
	OpIstypep: {"istypep", pALU, LatALU},
	OpSuld:    {"suld", PReadsMem, LatTexture},
	OpSust:    {"sust", PWritesMem | PSideEffect, LatTexture},
	OpSured:   {"sured", PReadsMem | PWritesMem | PSideEffect | PVolatile, LatTexture},
	OpSuq:     {"suq", pALU, LatTexture},

	OpBar:                  {"bar", pSync, LatControl},
	OpBarrier:              {"barrier", pSync, LatControl},
	OpMembar:               {"membar", pFence, LatMemory},
	OpFence:                {"fence", pFence, LatMemory},
	OpAtom:                 {"atom", pAtomic, LatMemory},
	OpRed:                  {"red", pAtomic, LatMemory},
	OpVote:                 {"vote", pCollect, LatALU},
	OpMatch:                {"match", pCollect, LatALU},
	OpActivemask:           {"activemask", pCollect, LatALU},
	OpRedux:                {"redux", pCollect, LatALU},
	OpGriddepcontrol:       {"griddepcontrol", pFence, LatControl},
	OpElect:                {"elect", pCollect, LatALU},
	OpSetmaxnreg:           {"setmaxnreg", PSideEffect | PVolatile | PConvergent, LatControl},
	OpNanosleep:            {"nanosleep", PSideEffect | PVolatile, LatControl},
	OpShfl:                 {"shfl", pCollect, LatALU},
	OpClusterlaunchcontrol: {"clusterlaunchcontrol", pAllMem | PAddrSpace | PAsync, LatMemory},

	OpMma:       {"mma", PConvergent, LatMMA},
	OpWmma:      {"wmma", PConvergent | PReadsMem | PWritesMem | PSideEffect | PAddrSpace, LatMMA},
	OpWgmma:     {"wgmma", PConvergent | pFence | PAsync, LatMMA},
	OpLdmatrix:  {"ldmatrix", PConvergent | pLoad, LatMemory},
	OpStmatrix:  {"stmatrix", PConvergent | pStore, LatMemory},
	OpMovmatrix: {"movmatrix", PConvergent, LatALU},
	OpTcgen05:   {"tcgen05", PConvergent | pFence | PAsync | PAddrSpace, LatMMA},

	OpVadd:      {"vadd", pALU, LatALU},
	OpVsub:      {"vsub", pALU, LatALU},
	OpVabsdiff:  {"vabsdiff", pALU, LatALU},
	OpVmin:      {"vmin", pALU, LatALU},
	OpVmax:      {"vmax", pALU, LatALU},
	OpVshl:      {"vshl", pALU, LatALU},
	OpVshr:      {"vshr", pALU, LatALU},
	OpVmad:      {"vmad", pALU, LatALU},
	OpVset:      {"vset", pALU, LatALU},
	OpVadd2:     {"vadd2", pALU, LatALU},
	OpVsub2:     {"vsub2", pALU, LatALU},
	OpVavrg2:    {"vavrg2", pALU, LatALU},
	OpVabsdiff2: {"vabsdiff2", pALU, LatALU},
	OpVmin2:     {"vmin2", pALU, LatALU},
	OpVmax2:     {"vmax2", pALU, LatALU},
	OpVset2:     {"vset2", pALU, LatALU},
	OpVadd4:     {"vadd4", pALU, LatALU},
	OpVsub4:     {"vsub4", pALU, LatALU},
	OpVavrg4:    {"vavrg4", pALU, LatALU},
	OpVabsdiff4: {"vabsdiff4", pALU, LatALU},
	OpVmin4:     {"vmin4", pALU, LatALU},
	OpVmax4:     {"vmax4", pALU, LatALU},
	OpVset4:     {"vset4", pALU, LatALU},

	OpTrap:         {"trap", pTerminate | PVolatile, LatControl},
	OpBrkpt:        {"brkpt", PSideEffect | PVolatile, LatControl},
	OpPmevent:      {"pmevent", PSideEffect | PVolatile, LatControl},
	OpAlloca:       {"alloca", PSideEffect | PVolatile, LatMemory},
	OpStacksave:    {"stacksave", PSideEffect | PVolatile, LatALU},
	OpStackrestore: {"stackrestore", PSideEffect | PVolatile, LatALU},

	// phi is the optimizer's; "phi" is no PTX opcode, so the name never
	// collides with one the parser meets.
	OpPhi: {"phi", PPseudo | PPure, LatALU},
	// A pragma ("nounroll") is a positional hint: never deleted, but code
	// may move across it.
	OpPragma: {".pragma", PSideEffect, LatControl},
}
