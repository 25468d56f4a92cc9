package ir

// The opcode property table. (To be completed for the whole PTX ISA.)

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
)

var opTable = [...]OpInfo{
	OpUnknown: {"?", PSideEffect | PReadsMem | PWritesMem | PConvergent | PVolatile | POpaque, LatMemory},
	OpMov:     {"mov", PPure | PCopy, LatALU},
	OpAdd:     {"add", PPure | PCommutative | PAssociative, LatALU},
	OpBra:     {"bra", PTerminator | PBranch, LatControl},
	OpRet:     {"ret", PTerminator | PSideEffect, LatControl},
	OpExit:    {"exit", PTerminator | PSideEffect, LatControl},
	OpLd:      {"ld", PReadsMem, LatMemory},
	OpSt:      {"st", PWritesMem | PSideEffect, LatMemory},
	OpCall:    {"call", PCall | PSideEffect | PReadsMem | PWritesMem, LatControl},
	OpBrxIdx:  {"brx", PTerminator | PBranch, LatControl},
}
