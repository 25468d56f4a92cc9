//go:build amd64 && !purego

#include "textflag.h"

// func sumAVX512(p *uint32, nblocks int) uint64
// Four 512-bit accumulators, four loads per 256-byte block.
TEXT ·sumAVX512(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ nblocks+8(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	TESTQ CX, CX
	JZ    avx512done

avx512loop:
	VPADDQ (SI), Z0, Z0
	VPADDQ 64(SI), Z1, Z1
	VPADDQ 128(SI), Z2, Z2
	VPADDQ 192(SI), Z3, Z3
	ADDQ   $256, SI
	DECQ   CX
	JNZ    avx512loop

avx512done:
	VPADDQ        Z1, Z0, Z0
	VPADDQ        Z3, Z2, Z2
	VPADDQ        Z2, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDQ        Y1, Y0, Y0
	VEXTRACTI128  $1, Y0, X1
	VPADDQ        X1, X0, X0
	VPSHUFD       $0x4e, X0, X1
	VPADDQ        X1, X0, X0
	VMOVQ         X0, AX
	VZEROUPPER
	MOVQ          AX, ret+16(FP)
	RET

// func sumAVX2(p *uint32, nblocks int) uint64
// Four 256-bit accumulators, eight loads per 256-byte block.
TEXT ·sumAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ nblocks+8(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	TESTQ CX, CX
	JZ    avx2done

avx2loop:
	VPADDQ (SI), Y0, Y0
	VPADDQ 32(SI), Y1, Y1
	VPADDQ 64(SI), Y2, Y2
	VPADDQ 96(SI), Y3, Y3
	VPADDQ 128(SI), Y0, Y0
	VPADDQ 160(SI), Y1, Y1
	VPADDQ 192(SI), Y2, Y2
	VPADDQ 224(SI), Y3, Y3
	ADDQ   $256, SI
	DECQ   CX
	JNZ    avx2loop

avx2done:
	VPADDQ       Y1, Y0, Y0
	VPADDQ       Y3, Y2, Y2
	VPADDQ       Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDQ       X1, X0, X0
	VMOVQ        X0, AX
	VZEROUPPER
	MOVQ         AX, ret+16(FP)
	RET

// func sumSSE2(p *uint32, nblocks int) uint64
// Four 128-bit accumulators, sixteen loads per 256-byte block.
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
	PADDQ X4, X0
	PADDQ X5, X1
	PADDQ X6, X2
	PADDQ X7, X3
	MOVOU 64(SI), X4
	MOVOU 80(SI), X5
	MOVOU 96(SI), X6
	MOVOU 112(SI), X7
	PADDQ X4, X0
	PADDQ X5, X1
	PADDQ X6, X2
	PADDQ X7, X3
	MOVOU 128(SI), X4
	MOVOU 144(SI), X5
	MOVOU 160(SI), X6
	MOVOU 176(SI), X7
	PADDQ X4, X0
	PADDQ X5, X1
	PADDQ X6, X2
	PADDQ X7, X3
	MOVOU 192(SI), X4
	MOVOU 208(SI), X5
	MOVOU 224(SI), X6
	MOVOU 240(SI), X7
	PADDQ X4, X0
	PADDQ X5, X1
	PADDQ X6, X2
	PADDQ X7, X3
	ADDQ  $256, SI
	DECQ  CX
	JNZ   sse2loop

sse2done:
	PADDQ  X1, X0
	PADDQ  X3, X2
	PADDQ  X2, X0
	PSHUFD $0x4e, X0, X1
	PADDQ  X1, X0
	MOVQ   X0, AX
	MOVQ   AX, ret+16(FP)
	RET
