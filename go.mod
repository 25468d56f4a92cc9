module github.com/ptxopt/ptxopt

go 1.26.8

require (
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/klauspost/cpuid/v2 v2.4.2
	golang.org/x/sys v0.49.0
)

require github.com/minio/asm2plan9s v0.0.0-20200509001527-cdd76441f9d8 // indirect

tool github.com/minio/asm2plan9s
