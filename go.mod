module github.com/ptxopt/ptxopt

go 1.26.8

require github.com/minio/asm2plan9s v0.0.0-20200509001527-cdd76441f9d8 // indirect

tool github.com/minio/asm2plan9s
