module github.com/ptxopt/ptxopt

go 1.26.8

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/minio/asm2plan9s v0.0.0-20200509001527-cdd76441f9d8 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

tool github.com/minio/asm2plan9s
