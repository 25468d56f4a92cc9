//go:build mips || mips64 || ppc64 || s390x

package bitvec

const littleEndian = false
