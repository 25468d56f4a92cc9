package bitvec

// The arm64 assembly holds WORD encodings for instructions the Go assembler
// lacks; gen_arm64.sh regenerates them with asm2plan9s (built for arm64 and
// run under qemu-aarch64 with GNU as for aarch64). This file carries no
// build constraint so that `go generate ./bitvec` runs it on any machine.

//go:generate bash gen_arm64.sh
