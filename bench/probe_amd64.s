//go:build amd64 && !purego

#include "textflag.h"

// The read probe: XOR of 64-bit lanes over nblocks blocks of 256 bytes.
// The loops are written so that the loads, not the arithmetic, are the
// bottleneck: with 512-bit vectors a plain VPXORQ per load would need one
// vector ALU op per load and saturate the two 512-bit ALU ports at the
// same rate as the two load ports, so the AVX-512 loop loads two of every
// four vectors with a plain move and folds three inputs per VPTERNLOGQ.

// func sumAVX512(p *uint32, nblocks int) uint64
TEXT ·sumAVX512(SB), NOSPLIT, $0-24
	MOVQ   p+0(FP), SI
	MOVQ   nblocks+8(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	TESTQ  CX, CX
	JZ     avx512done

avx512loop:
	VMOVDQU64  (SI), Z2
	VMOVDQU64  64(SI), Z3
	VPTERNLOGQ $0x96, 128(SI), Z2, Z0
	VPTERNLOGQ $0x96, 192(SI), Z3, Z1
	ADDQ       $256, SI
	DECQ       CX
	JNZ        avx512loop

avx512done:
	VPXORQ        Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPXOR         Y1, Y0, Y0
	VEXTRACTI128  $1, Y0, X1
	VPXOR         X1, X0, X0
	VPSHUFD       $0x4e, X0, X1
	VPXOR         X1, X0, X0
	VMOVQ         X0, AX
	VZEROUPPER
	MOVQ          AX, ret+16(FP)
	RET

// func sumAVX2(p *uint32, nblocks int) uint64
// Four 256-bit accumulators, eight loads per block.
TEXT ·sumAVX2(SB), NOSPLIT, $0-24
	MOVQ  p+0(FP), SI
	MOVQ  nblocks+8(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	TESTQ CX, CX
	JZ    avx2done

avx2loop:
	VPXOR (SI), Y0, Y0
	VPXOR 32(SI), Y1, Y1
	VPXOR 64(SI), Y2, Y2
	VPXOR 96(SI), Y3, Y3
	VPXOR 128(SI), Y0, Y0
	VPXOR 160(SI), Y1, Y1
	VPXOR 192(SI), Y2, Y2
	VPXOR 224(SI), Y3, Y3
	ADDQ  $256, SI
	DECQ  CX
	JNZ   avx2loop

avx2done:
	VPXOR        Y1, Y0, Y0
	VPXOR        Y3, Y2, Y2
	VPXOR        Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPXOR        X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPXOR        X1, X0, X0
	VMOVQ        X0, AX
	VZEROUPPER
	MOVQ         AX, ret+16(FP)
	RET

// func sumSSE2(p *uint32, nblocks int) uint64
// Four 128-bit accumulators, sixteen loads per block.
TEXT ·sumSSE2(SB), NOSPLIT, $0-24
	MOVQ  p+0(FP), SI
	MOVQ  nblocks+8(FP), CX
	PXOR  X0, X0
	PXOR  X1, X1
	PXOR  X2, X2
	PXOR  X3, X3
	TESTQ CX, CX
	JZ    sse2done

sse2loop:
	MOVOU (SI), X4
	MOVOU 16(SI), X5
	MOVOU 32(SI), X6
	MOVOU 48(SI), X7
	PXOR  X4, X0
	PXOR  X5, X1
	PXOR  X6, X2
	PXOR  X7, X3
	MOVOU 64(SI), X4
	MOVOU 80(SI), X5
	MOVOU 96(SI), X6
	MOVOU 112(SI), X7
	PXOR  X4, X0
	PXOR  X5, X1
	PXOR  X6, X2
	PXOR  X7, X3
	MOVOU 128(SI), X4
	MOVOU 144(SI), X5
	MOVOU 160(SI), X6
	MOVOU 176(SI), X7
	PXOR  X4, X0
	PXOR  X5, X1
	PXOR  X6, X2
	PXOR  X7, X3
	MOVOU 192(SI), X4
	MOVOU 208(SI), X5
	MOVOU 224(SI), X6
	MOVOU 240(SI), X7
	PXOR  X4, X0
	PXOR  X5, X1
	PXOR  X6, X2
	PXOR  X7, X3
	ADDQ  $256, SI
	DECQ  CX
	JNZ   sse2loop

sse2done:
	PXOR   X1, X0
	PXOR   X3, X2
	PXOR   X2, X0
	PSHUFD $0x4e, X0, X1
	PXOR   X1, X0
	MOVQ   X0, AX
	MOVQ   AX, ret+16(FP)
	RET
