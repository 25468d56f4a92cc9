//go:build !(mips || mips64 || ppc64 || s390x)

package bitvec

// littleEndian is true where a uint64 view of two uint32 words puts the
// lower-numbered word in the low half, so bit numbers carry over directly.
const littleEndian = true
