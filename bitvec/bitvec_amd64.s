//go:build !purego

// amd64 bulk kernels of package bitvec at three levels: SSE2 (the amd64
// baseline), AVX2 and AVX-512 (F+BW+VL). The Go declarations, the
// equivalent Go loops and the dispatch live in bitvec_amd64.go.
//
// Shape shared by every kernel
//
//   - Every argument is a slice of uint32 words; a kernel works on len(dst)
//     words (len(a) for the read-only ones). CX counts the words left and
//     always holds the exact number of words from the current pointers to
//     the end, so a scan that finds something can hand the rest of the
//     vector to the write loop (or the locate code) as it stands.
//   - Pointers: DI = dst (or the first operand of a read-only kernel),
//     SI = the second operand, DX = the third, R8 = the fourth. They are
//     advanced together (the ADV_* macros), which keeps every memory operand
//     in base+displacement form so that loads fold into the ALU instruction
//     (no un-lamination of indexed VEX operands on Intel).
//   - Main loop: four vectors per iteration (64, 128 and 256 bytes at the
//     three levels) so that eight to sixteen loads are in flight; the loop
//     is bound by L1 load bandwidth, not by the ALU.
//   - Then a loop over single vectors (at most three iterations), then the
//     tail: SSE2 and AVX2 take at most one 16-byte step, one 8-byte step
//     and one 4-byte step (no scalar loops); AVX-512 does the last 0..15
//     words in one step under a K1 mask built from CX, with zero-masking
//     loads (masked-off lanes are neither read, so no fault past the end,
//     nor counted, since they load as zero) and a masked store.
//   - The IfChanged kernels scan first (SCAN skeletons) for a word where
//     new &^ dst != 0. A scan step that finds one jumps to "hit" with the
//     pointers at the start of that block; the write loop (APPLY skeleton)
//     then runs from there to the end. When the scan reaches the end it
//     jumps to "miss" and the kernel returns false having written nothing.
//   - Slices may alias when they are the same words (dst == a, in == dst):
//     every vector is loaded before its own store. Copy also accepts
//     partially overlapping slices (memmove semantics); the other kernels
//     do not.
//   - AVX2 and AVX-512 kernels end with VZEROUPPER on every path.
//
// Labels are local to each TEXT block, so the skeleton macros use fixed
// label names; a routine expands at most one SCAN and one APPLY skeleton.

#include "textflag.h"

// ADV_n(n) advances the pointers a kernel uses by n bytes.
#define ADV_D(n) ADDQ $n, DI
#define ADV_S(n) ADDQ $n, SI
#define ADV_DS(n) ADDQ $n, DI; ADDQ $n, SI
#define ADV_DSX(n) ADDQ $n, DI; ADDQ $n, SI; ADDQ $n, DX
#define ADV_DSXR(n) ADDQ $n, DI; ADDQ $n, SI; ADDQ $n, DX; ADDQ $n, R8

// ===================================================================
// SSE2
// ===================================================================
//
// Only SSE2 instructions (MOVOU, MOVQ/MOVL to and from X registers, POR,
// PAND, PANDN, PXOR, PCMPEQB, PMOVMSKB) plus the base integer set. Memory
// operands of SSE2 ALU instructions must be 16-byte aligned, so every
// operand is loaded with MOVOU first. The tail uses the same vector code
// with MOVQ (8 bytes) and MOVL (4 bytes) loads, which zero the rest of the
// register, and stores of the same width.
//
// A BODY macro has the signature BODY(mov, off, r0, r1): it handles one
// vector at byte offset off, moved with instruction mov, using scratch
// registers r0 and r1; a test body leaves in r0 a value that is nonzero
// exactly where the scan should stop.

// S2_NZ sets ZF clear (JNE taken) when r has a nonzero byte; X15 must be 0.
#define S2_NZ(r) PCMPEQB X15, r; PMOVMSKB r, AX; CMPL AX, $0xFFFF

// S2_APPLY runs BODY over CX words.
#define S2_APPLY(BODY, ADV) \
	CMPQ	CX, $16; \
	JB	app4; \
app16: ; \
	BODY(MOVOU, 0, X0, X4); \
	BODY(MOVOU, 16, X1, X5); \
	BODY(MOVOU, 32, X2, X6); \
	BODY(MOVOU, 48, X3, X7); \
	ADV(64); \
	SUBQ	$16, CX; \
	CMPQ	CX, $16; \
	JAE	app16; \
app4: ; \
	CMPQ	CX, $4; \
	JB	app2; \
app4loop: ; \
	BODY(MOVOU, 0, X0, X4); \
	ADV(16); \
	SUBQ	$4, CX; \
	CMPQ	CX, $4; \
	JAE	app4loop; \
app2: ; \
	TESTQ	$2, CX; \
	JZ	app1; \
	BODY(MOVQ, 0, X0, X4); \
	ADV(8); \
app1: ; \
	TESTQ	$1, CX; \
	JZ	applied; \
	BODY(MOVL, 0, X0, X4); \
applied: ;

// S2_SCAN runs TBODY over CX words until one result is nonzero: it jumps
// to hit (pointers at the start of that block, CX the words from there)
// or to miss.
#define S2_SCAN(TBODY, ADV) \
	CMPQ	CX, $16; \
	JB	scan4; \
scan16: ; \
	TBODY(MOVOU, 0, X0, X4); \
	TBODY(MOVOU, 16, X1, X5); \
	TBODY(MOVOU, 32, X2, X6); \
	TBODY(MOVOU, 48, X3, X7); \
	POR	X1, X0; \
	POR	X3, X2; \
	POR	X2, X0; \
	S2_NZ(X0); \
	JNE	hit; \
	ADV(64); \
	SUBQ	$16, CX; \
	CMPQ	CX, $16; \
	JAE	scan16; \
scan4: ; \
	CMPQ	CX, $4; \
	JB	scan2; \
scan4loop: ; \
	TBODY(MOVOU, 0, X0, X4); \
	S2_NZ(X0); \
	JNE	hit; \
	ADV(16); \
	SUBQ	$4, CX; \
	CMPQ	CX, $4; \
	JAE	scan4loop; \
scan2: ; \
	TESTQ	$2, CX; \
	JZ	scan1; \
	TBODY(MOVQ, 0, X0, X4); \
	S2_NZ(X0); \
	JNE	hit; \
	ADV(8); \
	SUBQ	$2, CX; \
scan1: ; \
	TESTQ	$1, CX; \
	JZ	miss; \
	TBODY(MOVL, 0, X0, X4); \
	S2_NZ(X0); \
	JNE	hit; \
	JMP	miss

// dst = a op dst (a in r0, dst in r1): op is POR, PAND, PANDN (~a & dst), PXOR.
#define S2_RMW(op, mov, off, r0, r1) mov off(SI), r0; mov off(DI), r1; op r1, r0; mov r0, off(DI)
#define S2_OR(mov, off, r0, r1) S2_RMW(POR, mov, off, r0, r1)
#define S2_AND(mov, off, r0, r1) S2_RMW(PAND, mov, off, r0, r1)
#define S2_ANDNOT(mov, off, r0, r1) S2_RMW(PANDN, mov, off, r0, r1)
#define S2_XOR(mov, off, r0, r1) S2_RMW(PXOR, mov, off, r0, r1)

// r0 = ~neg & pos.
#define S2_TANDN(neg, pos, mov, off, r0, r1) mov off(neg), r0; mov off(pos), r1; PANDN r1, r0
#define S2_T_ORIFC(mov, off, r0, r1) S2_TANDN(DI, SI, mov, off, r0, r1)
#define S2_T_ANDIFC(mov, off, r0, r1) S2_TANDN(SI, DI, mov, off, r0, r1)
#define S2_T_SUBSET(mov, off, r0, r1) S2_TANDN(SI, DI, mov, off, r0, r1)
#define S2_T_INTERSECT(mov, off, r0, r1) mov off(DI), r0; mov off(SI), r1; PAND r1, r0
#define S2_T_EQUAL(mov, off, r0, r1) mov off(DI), r0; mov off(SI), r1; PXOR r1, r0

// dst = a & b.
#define S2_ASSIGNAND(mov, off, r0, r1) mov off(SI), r0; mov off(DX), r1; PAND r1, r0; mov r0, off(DI)

// dst |= gen | (in &^ kill), and the test (gen | (in &^ kill)) &^ dst.
#define S2_FUSED(mov, off, r0, r1) \
	mov off(R8), r0; mov off(DX), r1; PANDN r1, r0; \
	mov off(SI), r1; POR r1, r0; mov off(DI), r1; POR r1, r0; mov r0, off(DI)
#define S2_T_FUSED(mov, off, r0, r1) \
	mov off(R8), r1; mov off(DX), r0; PANDN r0, r1; \
	mov off(SI), r0; POR r0, r1; mov off(DI), r0; PANDN r1, r0

// X8 holds zero.
#define S2_CLEAR(mov, off, r0, r1) mov X8, off(DI)
#define S2_COPY(mov, off, r0, r1) mov off(SI), r0; mov r0, off(DI)

// func orSSE2(dst, a []uint32)
// DI dst, SI a, CX words left; X0-X7 data.
TEXT ·orSSE2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	S2_APPLY(S2_OR, ADV_DS)
	RET

// func orIfChangedSSE2(dst, a []uint32) bool
// DI dst, SI a, CX words left, AX mask scratch; X0-X7 data, X15 zero.
TEXT ·orIfChangedSSE2(SB), NOSPLIT, $0-49
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	PXOR	X15, X15
	S2_SCAN(S2_T_ORIFC, ADV_DS)
miss:
	MOVB	$0, ret+48(FP)
	RET
hit:
	S2_APPLY(S2_OR, ADV_DS)
	MOVB	$1, ret+48(FP)
	RET

// func andSSE2(dst, a []uint32)
// DI dst, SI a, CX words left; X0-X7 data.
TEXT ·andSSE2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	S2_APPLY(S2_AND, ADV_DS)
	RET

// func andIfChangedSSE2(dst, a []uint32) bool
// DI dst, SI a, CX words left, AX mask scratch; X0-X7 data, X15 zero.
TEXT ·andIfChangedSSE2(SB), NOSPLIT, $0-49
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	PXOR	X15, X15
	S2_SCAN(S2_T_ANDIFC, ADV_DS)
miss:
	MOVB	$0, ret+48(FP)
	RET
hit:
	S2_APPLY(S2_AND, ADV_DS)
	MOVB	$1, ret+48(FP)
	RET

// func andNotSSE2(dst, a []uint32)
// DI dst, SI a, CX words left; X0-X7 data.
TEXT ·andNotSSE2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	S2_APPLY(S2_ANDNOT, ADV_DS)
	RET

// func xorSSE2(dst, a []uint32)
// DI dst, SI a, CX words left; X0-X7 data.
TEXT ·xorSSE2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	S2_APPLY(S2_XOR, ADV_DS)
	RET

// func assignAndSSE2(dst, a, b []uint32)
// DI dst, SI a, DX b, CX words left; X0-X7 data.
TEXT ·assignAndSSE2(SB), NOSPLIT, $0-72
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	MOVQ	b_base+48(FP), DX
	S2_APPLY(S2_ASSIGNAND, ADV_DSX)
	RET

// func orWithAndNotSSE2(dst, gen, in, kill []uint32)
// DI dst, SI gen, DX in, R8 kill, CX words left; X0-X7 data.
TEXT ·orWithAndNotSSE2(SB), NOSPLIT, $0-96
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	gen_base+24(FP), SI
	MOVQ	in_base+48(FP), DX
	MOVQ	kill_base+72(FP), R8
	S2_APPLY(S2_FUSED, ADV_DSXR)
	RET

// func orWithAndNotIfChangedSSE2(dst, gen, in, kill []uint32) bool
// DI dst, SI gen, DX in, R8 kill, CX words left, AX mask scratch;
// X0-X7 data, X15 zero.
TEXT ·orWithAndNotIfChangedSSE2(SB), NOSPLIT, $0-97
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	gen_base+24(FP), SI
	MOVQ	in_base+48(FP), DX
	MOVQ	kill_base+72(FP), R8
	PXOR	X15, X15
	S2_SCAN(S2_T_FUSED, ADV_DSXR)
miss:
	MOVB	$0, ret+96(FP)
	RET
hit:
	S2_APPLY(S2_FUSED, ADV_DSXR)
	MOVB	$1, ret+96(FP)
	RET

// func isSubsetOfSSE2(a, b []uint32) bool
// DI a, SI b, CX words left, AX mask scratch; X0-X7 data, X15 zero.
TEXT ·isSubsetOfSSE2(SB), NOSPLIT, $0-49
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	PXOR	X15, X15
	S2_SCAN(S2_T_SUBSET, ADV_DS)
miss:
	MOVB	$1, ret+48(FP)
	RET
hit:
	MOVB	$0, ret+48(FP)
	RET

// func equalSSE2(a, b []uint32) bool
// DI a, SI b, CX words left, AX mask scratch; X0-X7 data, X15 zero.
TEXT ·equalSSE2(SB), NOSPLIT, $0-49
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	PXOR	X15, X15
	S2_SCAN(S2_T_EQUAL, ADV_DS)
miss:
	MOVB	$1, ret+48(FP)
	RET
hit:
	MOVB	$0, ret+48(FP)
	RET

// func intersectsSSE2(a, b []uint32) int
// DI a, SI b, CX words left, R10 start of a, AX scratch; X0-X7 data,
// X15 zero. A hit lies within the next 16 words, so the word is found
// with a short walk.
TEXT ·intersectsSSE2(SB), NOSPLIT, $0-56
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	MOVQ	DI, R10
	PXOR	X15, X15
	S2_SCAN(S2_T_INTERSECT, ADV_DS)
miss:
	MOVQ	$-1, ret+48(FP)
	RET
hit:
	MOVL	(DI), AX
	ANDL	(SI), AX
	JNZ	found
	ADDQ	$4, DI
	ADDQ	$4, SI
	JMP	hit
found:
	BSFL	AX, AX
	SUBQ	R10, DI
	SHLQ	$3, DI
	ADDQ	AX, DI
	MOVQ	DI, ret+48(FP)
	RET

// func clearSSE2(dst []uint32)
// DI dst, CX words left; X8 zero.
TEXT ·clearSSE2(SB), NOSPLIT, $0-24
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	PXOR	X8, X8
	S2_APPLY(S2_CLEAR, ADV_D)
	RET

// func copySSE2(dst, src []uint32)
// DI dst, SI src, CX words left, AX dst-src, BX byte count; X0-X7 data.
// When dst lies inside src (dst > src, overlapping) the words are moved
// back to front one at a time, as memmove would; otherwise front to back,
// which is safe for dst <= src because each vector is loaded before it is
// stored and stores never run ahead of loads.
TEXT ·copySSE2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	src_base+24(FP), SI
	MOVQ	DI, AX
	SUBQ	SI, AX
	JEQ	done
	LEAQ	(CX*4), BX
	CMPQ	AX, BX
	JB	backward
	S2_APPLY(S2_COPY, ADV_DS)
done:
	RET
backward:
	MOVL	-4(SI)(CX*4), AX
	MOVL	AX, -4(DI)(CX*4)
	DECQ	CX
	JNZ	backward
	RET

// func popCountPOPCNT(a []uint32) int
// Selected for the SSE2 level only when the CPU has POPCNT (a separate
// CPUID bit from SSE2); otherwise that level uses the generic Go count.
// SI a, CX words left, AX and BX two running sums, R8-R11 counts.
TEXT ·popCountPOPCNT(SB), NOSPLIT, $0-32
	MOVQ	a_base+0(FP), SI
	MOVQ	a_len+8(FP), CX
	XORQ	AX, AX
	XORQ	BX, BX
	CMPQ	CX, $8
	JB	pairs
loop8:
	POPCNTQ	0(SI), R8
	POPCNTQ	8(SI), R9
	POPCNTQ	16(SI), R10
	POPCNTQ	24(SI), R11
	ADDQ	R8, AX
	ADDQ	R9, BX
	ADDQ	R10, AX
	ADDQ	R11, BX
	ADDQ	$32, SI
	SUBQ	$8, CX
	CMPQ	CX, $8
	JAE	loop8
pairs:
	CMPQ	CX, $2
	JB	single
loop2:
	POPCNTQ	0(SI), R8
	ADDQ	R8, AX
	ADDQ	$8, SI
	SUBQ	$2, CX
	CMPQ	CX, $2
	JAE	loop2
single:
	TESTQ	$1, CX
	JZ	done
	POPCNTL	0(SI), R8
	ADDQ	R8, AX
done:
	ADDQ	BX, AX
	MOVQ	AX, ret+24(FP)
	RET

// ===================================================================
// AVX2
// ===================================================================
//
// Main loop: four YMM vectors (32 words, 128 bytes); then single YMM
// vectors; then one 16-byte XMM step, one 8-byte VMOVQ step and one 4-byte
// VMOVD step. All instructions are VEX-encoded (no SSE/AVX transitions).
//
// BODY(off, r0, r1) handles one full vector (YMM or XMM) at byte offset
// off and may use memory operands; NBODY(mov, r0, r1) handles the 8- or
// 4-byte step at offset 0 with explicit VMOVQ/VMOVD loads, so that nothing
// past the end is read.

#define Y_APPLY(BODY, NBODY, ADV) \
	CMPQ	CX, $32; \
	JB	app8; \
app32: ; \
	BODY(0, Y0, Y4); \
	BODY(32, Y1, Y5); \
	BODY(64, Y2, Y6); \
	BODY(96, Y3, Y7); \
	ADV(128); \
	SUBQ	$32, CX; \
	CMPQ	CX, $32; \
	JAE	app32; \
app8: ; \
	CMPQ	CX, $8; \
	JB	app4; \
app8loop: ; \
	BODY(0, Y0, Y4); \
	ADV(32); \
	SUBQ	$8, CX; \
	CMPQ	CX, $8; \
	JAE	app8loop; \
app4: ; \
	TESTQ	$4, CX; \
	JZ	app2; \
	BODY(0, X0, X4); \
	ADV(16); \
app2: ; \
	TESTQ	$2, CX; \
	JZ	app1; \
	NBODY(VMOVQ, X0, X4); \
	ADV(8); \
app1: ; \
	TESTQ	$1, CX; \
	JZ	applied; \
	NBODY(VMOVD, X0, X4); \
applied: ;

#define Y_SCAN(TBODY, NTBODY, ADV) \
	CMPQ	CX, $32; \
	JB	scan8; \
scan32: ; \
	TBODY(0, Y0, Y4); \
	TBODY(32, Y1, Y5); \
	TBODY(64, Y2, Y6); \
	TBODY(96, Y3, Y7); \
	VPOR	Y1, Y0, Y0; \
	VPOR	Y3, Y2, Y2; \
	VPOR	Y2, Y0, Y0; \
	VPTEST	Y0, Y0; \
	JNZ	hit; \
	ADV(128); \
	SUBQ	$32, CX; \
	CMPQ	CX, $32; \
	JAE	scan32; \
scan8: ; \
	CMPQ	CX, $8; \
	JB	scan4; \
scan8loop: ; \
	TBODY(0, Y0, Y4); \
	VPTEST	Y0, Y0; \
	JNZ	hit; \
	ADV(32); \
	SUBQ	$8, CX; \
	CMPQ	CX, $8; \
	JAE	scan8loop; \
scan4: ; \
	TESTQ	$4, CX; \
	JZ	scan2; \
	TBODY(0, X0, X4); \
	VPTEST	X0, X0; \
	JNZ	hit; \
	ADV(16); \
	SUBQ	$4, CX; \
scan2: ; \
	TESTQ	$2, CX; \
	JZ	scan1; \
	NTBODY(VMOVQ, X0, X4); \
	VPTEST	X0, X0; \
	JNZ	hit; \
	ADV(8); \
	SUBQ	$2, CX; \
scan1: ; \
	TESTQ	$1, CX; \
	JZ	miss; \
	NTBODY(VMOVD, X0, X4); \
	VPTEST	X0, X0; \
	JNZ	hit; \
	JMP	miss

// dst = a op dst: op is VPOR, VPAND, VPANDN (~a & dst), VPXOR.
#define Y_RMW(op, off, r0, r1) VMOVDQU off(SI), r0; op off(DI), r0, r0; VMOVDQU r0, off(DI)
#define Y_NRMW(op, mov, r0, r1) mov (SI), r0; mov (DI), r1; op r1, r0, r0; mov r0, (DI)
#define Y_OR(off, r0, r1) Y_RMW(VPOR, off, r0, r1)
#define Y_NOR(mov, r0, r1) Y_NRMW(VPOR, mov, r0, r1)
#define Y_AND(off, r0, r1) Y_RMW(VPAND, off, r0, r1)
#define Y_NAND(mov, r0, r1) Y_NRMW(VPAND, mov, r0, r1)
#define Y_ANDNOT(off, r0, r1) Y_RMW(VPANDN, off, r0, r1)
#define Y_NANDNOT(mov, r0, r1) Y_NRMW(VPANDN, mov, r0, r1)
#define Y_XOR(off, r0, r1) Y_RMW(VPXOR, off, r0, r1)
#define Y_NXOR(mov, r0, r1) Y_NRMW(VPXOR, mov, r0, r1)

// r0 = ~neg & pos; r0 = p & q; r0 = p ^ q.
#define Y_TANDN(neg, pos, off, r0, r1) VMOVDQU off(neg), r0; VPANDN off(pos), r0, r0
#define Y_NTANDN(neg, pos, mov, r0, r1) mov (neg), r0; mov (pos), r1; VPANDN r1, r0, r0
#define Y_T_ORIFC(off, r0, r1) Y_TANDN(DI, SI, off, r0, r1)
#define Y_NT_ORIFC(mov, r0, r1) Y_NTANDN(DI, SI, mov, r0, r1)
#define Y_T_ANDIFC(off, r0, r1) Y_TANDN(SI, DI, off, r0, r1)
#define Y_NT_ANDIFC(mov, r0, r1) Y_NTANDN(SI, DI, mov, r0, r1)
#define Y_T_AND(off, r0, r1) VMOVDQU off(DI), r0; VPAND off(SI), r0, r0
#define Y_NT_AND(mov, r0, r1) mov (DI), r0; mov (SI), r1; VPAND r1, r0, r0
#define Y_T_XOR(off, r0, r1) VMOVDQU off(DI), r0; VPXOR off(SI), r0, r0
#define Y_NT_XOR(mov, r0, r1) mov (DI), r0; mov (SI), r1; VPXOR r1, r0, r0

// dst = a & b.
#define Y_ASSIGNAND(off, r0, r1) VMOVDQU off(SI), r0; VPAND off(DX), r0, r0; VMOVDQU r0, off(DI)
#define Y_NASSIGNAND(mov, r0, r1) mov (SI), r0; mov (DX), r1; VPAND r1, r0, r0; mov r0, (DI)

// dst |= gen | (in &^ kill), and the test (gen | (in &^ kill)) &^ dst.
#define Y_FUSED(off, r0, r1) \
	VMOVDQU off(R8), r0; VPANDN off(DX), r0, r0; VPOR off(SI), r0, r0; \
	VPOR off(DI), r0, r0; VMOVDQU r0, off(DI)
#define Y_NFUSED(mov, r0, r1) \
	mov (R8), r0; mov (DX), r1; VPANDN r1, r0, r0; mov (SI), r1; VPOR r1, r0, r0; \
	mov (DI), r1; VPOR r1, r0, r0; mov r0, (DI)
#define Y_T_FUSED(off, r0, r1) \
	VMOVDQU off(R8), r1; VPANDN off(DX), r1, r1; VPOR off(SI), r1, r1; \
	VMOVDQU off(DI), r0; VPANDN r1, r0, r0
#define Y_NT_FUSED(mov, r0, r1) \
	mov (R8), r1; mov (DX), r0; VPANDN r0, r1, r1; mov (SI), r0; VPOR r0, r1, r1; \
	mov (DI), r0; VPANDN r1, r0, r0

// Clear stores r0, which the routine zeroes (Y0-Y3, and so X0).
#define Y_CLEAR(off, r0, r1) VMOVDQU r0, off(DI)
#define Y_NCLEAR(mov, r0, r1) mov r0, (DI)
#define Y_COPY(off, r0, r1) VMOVDQU off(SI), r0; VMOVDQU r0, off(DI)
#define Y_NCOPY(mov, r0, r1) mov (SI), r0; mov r0, (DI)

// func orAVX2(dst, a []uint32)
// DI dst, SI a, CX words left; Y0-Y7 data.
TEXT ·orAVX2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Y_APPLY(Y_OR, Y_NOR, ADV_DS)
	VZEROUPPER
	RET

// func orIfChangedAVX2(dst, a []uint32) bool
// DI dst, SI a, CX words left; Y0-Y7 data.
TEXT ·orIfChangedAVX2(SB), NOSPLIT, $0-49
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Y_SCAN(Y_T_ORIFC, Y_NT_ORIFC, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET
hit:
	Y_APPLY(Y_OR, Y_NOR, ADV_DS)
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET

// func andAVX2(dst, a []uint32)
// DI dst, SI a, CX words left; Y0-Y7 data.
TEXT ·andAVX2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Y_APPLY(Y_AND, Y_NAND, ADV_DS)
	VZEROUPPER
	RET

// func andIfChangedAVX2(dst, a []uint32) bool
// DI dst, SI a, CX words left; Y0-Y7 data.
TEXT ·andIfChangedAVX2(SB), NOSPLIT, $0-49
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Y_SCAN(Y_T_ANDIFC, Y_NT_ANDIFC, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET
hit:
	Y_APPLY(Y_AND, Y_NAND, ADV_DS)
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET

// func andNotAVX2(dst, a []uint32)
// DI dst, SI a, CX words left; Y0-Y7 data.
TEXT ·andNotAVX2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Y_APPLY(Y_ANDNOT, Y_NANDNOT, ADV_DS)
	VZEROUPPER
	RET

// func xorAVX2(dst, a []uint32)
// DI dst, SI a, CX words left; Y0-Y7 data.
TEXT ·xorAVX2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Y_APPLY(Y_XOR, Y_NXOR, ADV_DS)
	VZEROUPPER
	RET

// func assignAndAVX2(dst, a, b []uint32)
// DI dst, SI a, DX b, CX words left; Y0-Y7 data.
TEXT ·assignAndAVX2(SB), NOSPLIT, $0-72
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	MOVQ	b_base+48(FP), DX
	Y_APPLY(Y_ASSIGNAND, Y_NASSIGNAND, ADV_DSX)
	VZEROUPPER
	RET

// func orWithAndNotAVX2(dst, gen, in, kill []uint32)
// DI dst, SI gen, DX in, R8 kill, CX words left; Y0-Y7 data.
TEXT ·orWithAndNotAVX2(SB), NOSPLIT, $0-96
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	gen_base+24(FP), SI
	MOVQ	in_base+48(FP), DX
	MOVQ	kill_base+72(FP), R8
	Y_APPLY(Y_FUSED, Y_NFUSED, ADV_DSXR)
	VZEROUPPER
	RET

// func orWithAndNotIfChangedAVX2(dst, gen, in, kill []uint32) bool
// DI dst, SI gen, DX in, R8 kill, CX words left; Y0-Y7 data.
TEXT ·orWithAndNotIfChangedAVX2(SB), NOSPLIT, $0-97
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	gen_base+24(FP), SI
	MOVQ	in_base+48(FP), DX
	MOVQ	kill_base+72(FP), R8
	Y_SCAN(Y_T_FUSED, Y_NT_FUSED, ADV_DSXR)
miss:
	VZEROUPPER
	MOVB	$0, ret+96(FP)
	RET
hit:
	Y_APPLY(Y_FUSED, Y_NFUSED, ADV_DSXR)
	VZEROUPPER
	MOVB	$1, ret+96(FP)
	RET

// func isSubsetOfAVX2(a, b []uint32) bool
// DI a, SI b, CX words left; Y0-Y7 data.
TEXT ·isSubsetOfAVX2(SB), NOSPLIT, $0-49
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	Y_SCAN(Y_T_ANDIFC, Y_NT_ANDIFC, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET
hit:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET

// func equalAVX2(a, b []uint32) bool
// DI a, SI b, CX words left; Y0-Y7 data.
TEXT ·equalAVX2(SB), NOSPLIT, $0-49
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	Y_SCAN(Y_T_XOR, Y_NT_XOR, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET
hit:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET

// func intersectsAVX2(a, b []uint32) int
// DI a, SI b, CX words left, R10 start of a, AX word mask / bit; Y0-Y7
// data, Y15 zero. After a hit with at least 8 words left, whole YMM
// vectors are tested (VPCMPEQD against zero, VMOVMSKPS) until the one
// holding the common bit; with fewer left the hit came from a 16-, 8- or
// 4-byte step and a walk of at most 7 words finds it.
TEXT ·intersectsAVX2(SB), NOSPLIT, $0-56
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	MOVQ	DI, R10
	Y_SCAN(Y_T_AND, Y_NT_AND, ADV_DS)
miss:
	VZEROUPPER
	MOVQ	$-1, ret+48(FP)
	RET
hit:
	CMPQ	CX, $8
	JB	walk
	VPXOR	Y15, Y15, Y15
locate:
	VMOVDQU	(DI), Y0
	VPAND	(SI), Y0, Y0
	VPCMPEQD	Y15, Y0, Y0
	VMOVMSKPS	Y0, AX
	XORL	$0xFF, AX
	JNZ	inVector
	ADDQ	$32, DI
	ADDQ	$32, SI
	JMP	locate
inVector:
	BSFL	AX, AX
	LEAQ	(DI)(AX*4), DI
	LEAQ	(SI)(AX*4), SI
walk:
	MOVL	(DI), AX
	ANDL	(SI), AX
	JNZ	found
	ADDQ	$4, DI
	ADDQ	$4, SI
	JMP	walk
found:
	VZEROUPPER
	BSFL	AX, AX
	SUBQ	R10, DI
	SHLQ	$3, DI
	ADDQ	AX, DI
	MOVQ	DI, ret+48(FP)
	RET

// func popCountAVX2(a []uint32) int
// Nibble lookup: each byte's count is LUT[lo nibble] + LUT[hi nibble]
// (VPSHUFB), summed over four vectors as bytes (at most 32 per byte),
// then widened with VPSADBW against zero and added as quadwords.
// SI a, CX words left, AX result; Y0-Y7 data, Y11 quadword sums (X11 in
// the tail), Y12 zero, Y13 lookup table, Y14 0x0f bytes.
#define Y_POPB(mov, off, r, t) \
	mov off(SI), r; VPSRLW $4, r, t; VPAND Y14, r, r; VPAND Y14, t, t; \
	VPSHUFB r, Y13, r; VPSHUFB t, Y13, t; VPADDB t, r, r
#define X_POPB(mov, r, t) \
	mov (SI), r; VPSRLW $4, r, t; VPAND X14, r, r; VPAND X14, t, t; \
	VPSHUFB r, X13, r; VPSHUFB t, X13, t; VPADDB t, r, r; \
	VPSADBW X12, r, r; VPADDQ r, X11, X11

TEXT ·popCountAVX2(SB), NOSPLIT, $0-32
	MOVQ	a_base+0(FP), SI
	MOVQ	a_len+8(FP), CX
	VMOVDQU	nibbleCounts<>(SB), Y13
	VMOVDQU	lowNibbles<>(SB), Y14
	VPXOR	Y12, Y12, Y12
	VPXOR	Y11, Y11, Y11
	CMPQ	CX, $32
	JB	vec8
loop32:
	Y_POPB(VMOVDQU, 0, Y0, Y4)
	Y_POPB(VMOVDQU, 32, Y1, Y5)
	Y_POPB(VMOVDQU, 64, Y2, Y6)
	Y_POPB(VMOVDQU, 96, Y3, Y7)
	VPADDB	Y1, Y0, Y0
	VPADDB	Y3, Y2, Y2
	VPADDB	Y2, Y0, Y0
	VPSADBW	Y12, Y0, Y0
	VPADDQ	Y0, Y11, Y11
	ADDQ	$128, SI
	SUBQ	$32, CX
	CMPQ	CX, $32
	JAE	loop32
vec8:
	CMPQ	CX, $8
	JB	tail
loop8:
	Y_POPB(VMOVDQU, 0, Y0, Y4)
	VPSADBW	Y12, Y0, Y0
	VPADDQ	Y0, Y11, Y11
	ADDQ	$32, SI
	SUBQ	$8, CX
	CMPQ	CX, $8
	JAE	loop8
tail:
	// Fold the upper lane first: the VEX.128 adds below clear it.
	VEXTRACTI128	$1, Y11, X0
	VPADDQ	X0, X11, X11
	TESTQ	$4, CX
	JZ	tail2
	X_POPB(VMOVDQU, X0, X4)
	ADDQ	$16, SI
tail2:
	TESTQ	$2, CX
	JZ	tail1
	X_POPB(VMOVQ, X0, X4)
	ADDQ	$8, SI
tail1:
	TESTQ	$1, CX
	JZ	done
	X_POPB(VMOVD, X0, X4)
done:
	VPSHUFD	$0x4E, X11, X0
	VPADDQ	X0, X11, X11
	VMOVQ	X11, AX
	VZEROUPPER
	MOVQ	AX, ret+24(FP)
	RET

// func clearAVX2(dst []uint32)
// DI dst, CX words left; Y0-Y3 zero.
TEXT ·clearAVX2(SB), NOSPLIT, $0-24
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	VPXOR	Y0, Y0, Y0
	VPXOR	Y1, Y1, Y1
	VPXOR	Y2, Y2, Y2
	VPXOR	Y3, Y3, Y3
	Y_APPLY(Y_CLEAR, Y_NCLEAR, ADV_D)
	VZEROUPPER
	RET

// func copyAVX2(dst, src []uint32)
// DI dst, SI src, CX words left, AX dst-src, BX byte count; Y0-Y7 data.
// Overlap as in copySSE2.
TEXT ·copyAVX2(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	src_base+24(FP), SI
	MOVQ	DI, AX
	SUBQ	SI, AX
	JEQ	done
	LEAQ	(CX*4), BX
	CMPQ	AX, BX
	JB	backward
	Y_APPLY(Y_COPY, Y_NCOPY, ADV_DS)
	VZEROUPPER
done:
	RET
backward:
	MOVL	-4(SI)(CX*4), AX
	MOVL	AX, -4(DI)(CX*4)
	DECQ	CX
	JNZ	backward
	RET

// ===================================================================
// AVX-512 (F, BW, VL; VPOPCNTDQ optional)
// ===================================================================
//
// Main loop: four ZMM vectors (64 words, 256 bytes); then single ZMM
// vectors; then the last 0..15 words under mask K1 = (1<<CX)-1, loaded
// with zero-masking (VMOVDQU32.Z) and stored with merge-masking. No scalar
// code touches data.
//
// Scans accumulate into Z0 with VPTERNLOGD so that a block of four vectors
// costs one test: with A the accumulator (destination), B a register and C
// a memory operand,
//   0xF4 = A | (B &^ C)   0xF8 = A | (B & C)   0xF6 = A | (B ^ C)
//   0x44 = B &^ C
// and gen | (in &^ kill) itself is 0xF4 with A = gen, B = in, C = kill.
// VPTESTMD Z0, Z0 then KORTESTW sets ZF when the block has nothing.
//
// BODY(off, r0, r1): one ZMM vector at offset off. MBODY: the masked tail
// at offset 0 (K1 set). T4: a block test leaving its result in Z0, T1 the
// single-vector test, TM the masked one.

#define Z_TAILMASK MOVL $1, AX; SHLL CX, AX; DECL AX; KMOVW AX, K1
#define Z_NZ VPTESTMD Z0, Z0, K2; KORTESTW K2, K2

#define Z_APPLY(BODY, MBODY, ADV) \
	CMPQ	CX, $64; \
	JB	app16; \
app64: ; \
	BODY(0, Z0, Z4); \
	BODY(64, Z1, Z5); \
	BODY(128, Z2, Z6); \
	BODY(192, Z3, Z7); \
	ADV(256); \
	SUBQ	$64, CX; \
	CMPQ	CX, $64; \
	JAE	app64; \
app16: ; \
	CMPQ	CX, $16; \
	JB	appm; \
app16loop: ; \
	BODY(0, Z0, Z4); \
	ADV(64); \
	SUBQ	$16, CX; \
	CMPQ	CX, $16; \
	JAE	app16loop; \
appm: ; \
	TESTQ	CX, CX; \
	JZ	applied; \
	Z_TAILMASK; \
	MBODY; \
applied: ;

#define Z_SCAN(T4, T1, TM, ADV) \
	CMPQ	CX, $64; \
	JB	scan16; \
scan64: ; \
	T4; \
	Z_NZ; \
	JNZ	hit; \
	ADV(256); \
	SUBQ	$64, CX; \
	CMPQ	CX, $64; \
	JAE	scan64; \
scan16: ; \
	CMPQ	CX, $16; \
	JB	scanm; \
scan16loop: ; \
	T1; \
	Z_NZ; \
	JNZ	hit; \
	ADV(64); \
	SUBQ	$16, CX; \
	CMPQ	CX, $16; \
	JAE	scan16loop; \
scanm: ; \
	TESTQ	CX, CX; \
	JZ	miss; \
	Z_TAILMASK; \
	TM; \
	Z_NZ; \
	JNZ	hit; \
	JMP	miss

// dst = a op dst: op is VPORD, VPANDD, VPANDND (~a & dst), VPXORD.
#define Z_RMW(op, off, r0, r1) VMOVDQU32 off(SI), r0; op off(DI), r0, r0; VMOVDQU32 r0, off(DI)
#define Z_MRMW(op) \
	VMOVDQU32.Z (SI), K1, Z0; VMOVDQU32.Z (DI), K1, Z1; op Z1, Z0, Z0; VMOVDQU32 Z0, K1, (DI)
#define Z_OR(off, r0, r1) Z_RMW(VPORD, off, r0, r1)
#define Z_MOR Z_MRMW(VPORD)
#define Z_AND(off, r0, r1) Z_RMW(VPANDD, off, r0, r1)
#define Z_MAND Z_MRMW(VPANDD)
#define Z_ANDNOT(off, r0, r1) Z_RMW(VPANDND, off, r0, r1)
#define Z_MANDNOT Z_MRMW(VPANDND)
#define Z_XOR(off, r0, r1) Z_RMW(VPXORD, off, r0, r1)
#define Z_MXOR Z_MRMW(VPXORD)

// Scans of two operands p and q: Z0 = op(p, q) over the block, where the
// first vector uses first (VPANDND gives ~p & q) and the others fold in
// with VPTERNLOGD imm (B loaded from q, C from memory at p).
#define Z_T4(first, imm, p, q) \
	VMOVDQU32 0(p), Z0; first 0(q), Z0, Z0; \
	VMOVDQU32 64(q), Z1; VPTERNLOGD $imm, 64(p), Z1, Z0; \
	VMOVDQU32 128(q), Z2; VPTERNLOGD $imm, 128(p), Z2, Z0; \
	VMOVDQU32 192(q), Z3; VPTERNLOGD $imm, 192(p), Z3, Z0
#define Z_T1(first, p, q) VMOVDQU32 0(p), Z0; first 0(q), Z0, Z0
#define Z_TM(first, p, q) VMOVDQU32.Z (p), K1, Z0; VMOVDQU32.Z (q), K1, Z1; first Z1, Z0, Z0

// a &^ dst (OrIfChanged), dst &^ a (AndIfChanged), a &^ b (IsSubsetOf),
// a & b (Intersects), a ^ b (Equal).
#define Z_T4_ORIFC Z_T4(VPANDND, 0xF4, DI, SI)
#define Z_T1_ORIFC Z_T1(VPANDND, DI, SI)
#define Z_TM_ORIFC Z_TM(VPANDND, DI, SI)
#define Z_T4_ANDIFC Z_T4(VPANDND, 0xF4, SI, DI)
#define Z_T1_ANDIFC Z_T1(VPANDND, SI, DI)
#define Z_TM_ANDIFC Z_TM(VPANDND, SI, DI)
#define Z_T4_AND Z_T4(VPANDD, 0xF8, DI, SI)
#define Z_T1_AND Z_T1(VPANDD, DI, SI)
#define Z_TM_AND Z_TM(VPANDD, DI, SI)
#define Z_T4_XOR Z_T4(VPXORD, 0xF6, DI, SI)
#define Z_T1_XOR Z_T1(VPXORD, DI, SI)
#define Z_TM_XOR Z_TM(VPXORD, DI, SI)

// dst = a & b.
#define Z_ASSIGNAND(off, r0, r1) VMOVDQU32 off(SI), r0; VPANDD off(DX), r0, r0; VMOVDQU32 r0, off(DI)
#define Z_MASSIGNAND \
	VMOVDQU32.Z (SI), K1, Z0; VMOVDQU32.Z (DX), K1, Z1; VPANDD Z1, Z0, Z0; VMOVDQU32 Z0, K1, (DI)

// dst |= gen | (in &^ kill): r0 = ternlog(gen, in, kill) then | dst.
#define Z_FUSED(off, r0, r1) \
	VMOVDQU32 off(SI), r0; VMOVDQU32 off(DX), r1; VPTERNLOGD $0xF4, off(R8), r1, r0; \
	VPORD off(DI), r0, r0; VMOVDQU32 r0, off(DI)
#define Z_MFUSED \
	VMOVDQU32.Z (SI), K1, Z0; VMOVDQU32.Z (DX), K1, Z1; VMOVDQU32.Z (R8), K1, Z2; \
	VMOVDQU32.Z (DI), K1, Z3; VPTERNLOGD $0xF4, Z2, Z1, Z0; VPORD Z3, Z0, Z0; \
	VMOVDQU32 Z0, K1, (DI)

// The change test: Z0 = OR over the block of (gen | (in &^ kill)) &^ dst.
#define Z_FT_FIRST(off) \
	VMOVDQU32 off(SI), Z0; VMOVDQU32 off(DX), Z1; VPTERNLOGD $0xF4, off(R8), Z1, Z0; \
	VPTERNLOGD $0x44, off(DI), Z0, Z0
#define Z_FT_ACC(off, r0, r1) \
	VMOVDQU32 off(SI), r0; VMOVDQU32 off(DX), r1; VPTERNLOGD $0xF4, off(R8), r1, r0; \
	VPTERNLOGD $0xF4, off(DI), r0, Z0
#define Z_T4_FUSED Z_FT_FIRST(0); Z_FT_ACC(64, Z2, Z3); Z_FT_ACC(128, Z4, Z5); Z_FT_ACC(192, Z6, Z7)
#define Z_T1_FUSED Z_FT_FIRST(0)
#define Z_TM_FUSED \
	VMOVDQU32.Z (SI), K1, Z0; VMOVDQU32.Z (DX), K1, Z1; VMOVDQU32.Z (R8), K1, Z2; \
	VMOVDQU32.Z (DI), K1, Z3; VPTERNLOGD $0xF4, Z2, Z1, Z0; VPTERNLOGD $0x44, Z3, Z0, Z0

// Z8 holds zero.
#define Z_CLEAR(off, r0, r1) VMOVDQU32 Z8, off(DI)
#define Z_MCLEAR VMOVDQU32 Z8, K1, (DI)
#define Z_COPY(off, r0, r1) VMOVDQU32 off(SI), r0; VMOVDQU32 r0, off(DI)
#define Z_MCOPY VMOVDQU32.Z (SI), K1, Z0; VMOVDQU32 Z0, K1, (DI)

// func orAVX512(dst, a []uint32)
// DI dst, SI a, CX words left, AX and K1 tail mask; Z0-Z7 data.
TEXT ·orAVX512(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Z_APPLY(Z_OR, Z_MOR, ADV_DS)
	VZEROUPPER
	RET

// func orIfChangedAVX512(dst, a []uint32) bool
// DI dst, SI a, CX words left, AX and K1 tail mask, K2 test; Z0-Z7 data.
TEXT ·orIfChangedAVX512(SB), NOSPLIT, $0-49
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Z_SCAN(Z_T4_ORIFC, Z_T1_ORIFC, Z_TM_ORIFC, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET
hit:
	Z_APPLY(Z_OR, Z_MOR, ADV_DS)
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET

// func andAVX512(dst, a []uint32)
// DI dst, SI a, CX words left, AX and K1 tail mask; Z0-Z7 data.
TEXT ·andAVX512(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Z_APPLY(Z_AND, Z_MAND, ADV_DS)
	VZEROUPPER
	RET

// func andIfChangedAVX512(dst, a []uint32) bool
// DI dst, SI a, CX words left, AX and K1 tail mask, K2 test; Z0-Z7 data.
TEXT ·andIfChangedAVX512(SB), NOSPLIT, $0-49
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Z_SCAN(Z_T4_ANDIFC, Z_T1_ANDIFC, Z_TM_ANDIFC, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET
hit:
	Z_APPLY(Z_AND, Z_MAND, ADV_DS)
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET

// func andNotAVX512(dst, a []uint32)
// DI dst, SI a, CX words left, AX and K1 tail mask; Z0-Z7 data.
TEXT ·andNotAVX512(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Z_APPLY(Z_ANDNOT, Z_MANDNOT, ADV_DS)
	VZEROUPPER
	RET

// func xorAVX512(dst, a []uint32)
// DI dst, SI a, CX words left, AX and K1 tail mask; Z0-Z7 data.
TEXT ·xorAVX512(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	Z_APPLY(Z_XOR, Z_MXOR, ADV_DS)
	VZEROUPPER
	RET

// func assignAndAVX512(dst, a, b []uint32)
// DI dst, SI a, DX b, CX words left, AX and K1 tail mask; Z0-Z7 data.
TEXT ·assignAndAVX512(SB), NOSPLIT, $0-72
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	a_base+24(FP), SI
	MOVQ	b_base+48(FP), DX
	Z_APPLY(Z_ASSIGNAND, Z_MASSIGNAND, ADV_DSX)
	VZEROUPPER
	RET

// func orWithAndNotAVX512(dst, gen, in, kill []uint32)
// DI dst, SI gen, DX in, R8 kill, CX words left, AX and K1 tail mask;
// Z0-Z7 data.
TEXT ·orWithAndNotAVX512(SB), NOSPLIT, $0-96
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	gen_base+24(FP), SI
	MOVQ	in_base+48(FP), DX
	MOVQ	kill_base+72(FP), R8
	Z_APPLY(Z_FUSED, Z_MFUSED, ADV_DSXR)
	VZEROUPPER
	RET

// func orWithAndNotIfChangedAVX512(dst, gen, in, kill []uint32) bool
// DI dst, SI gen, DX in, R8 kill, CX words left, AX and K1 tail mask,
// K2 test; Z0 change accumulator, Z1-Z7 data.
TEXT ·orWithAndNotIfChangedAVX512(SB), NOSPLIT, $0-97
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	gen_base+24(FP), SI
	MOVQ	in_base+48(FP), DX
	MOVQ	kill_base+72(FP), R8
	Z_SCAN(Z_T4_FUSED, Z_T1_FUSED, Z_TM_FUSED, ADV_DSXR)
miss:
	VZEROUPPER
	MOVB	$0, ret+96(FP)
	RET
hit:
	Z_APPLY(Z_FUSED, Z_MFUSED, ADV_DSXR)
	VZEROUPPER
	MOVB	$1, ret+96(FP)
	RET

// func isSubsetOfAVX512(a, b []uint32) bool
// DI a, SI b, CX words left, AX and K1 tail mask, K2 test; Z0-Z3 data.
TEXT ·isSubsetOfAVX512(SB), NOSPLIT, $0-49
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	Z_SCAN(Z_T4_ANDIFC, Z_T1_ANDIFC, Z_TM_ANDIFC, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET
hit:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET

// func equalAVX512(a, b []uint32) bool
// DI a, SI b, CX words left, AX and K1 tail mask, K2 test; Z0-Z3 data.
TEXT ·equalAVX512(SB), NOSPLIT, $0-49
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	Z_SCAN(Z_T4_XOR, Z_T1_XOR, Z_TM_XOR, ADV_DS)
miss:
	VZEROUPPER
	MOVB	$1, ret+48(FP)
	RET
hit:
	VZEROUPPER
	MOVB	$0, ret+48(FP)
	RET

// func intersectsAVX512(a, b []uint32) int
// DI a, SI b, CX words left, R10 start of a, AX and K1 tail mask, then
// the word mask / bit, K2 per-word test; Z0-Z3 data. After a hit, whole
// vectors are tested with VPTESTMD (one mask bit per word with a common
// bit) until the one holding it; a hit in the masked tail reuses K2.
TEXT ·intersectsAVX512(SB), NOSPLIT, $0-56
	MOVQ	a_base+0(FP), DI
	MOVQ	a_len+8(FP), CX
	MOVQ	b_base+24(FP), SI
	MOVQ	DI, R10
	Z_SCAN(Z_T4_AND, Z_T1_AND, Z_TM_AND, ADV_DS)
miss:
	VZEROUPPER
	MOVQ	$-1, ret+48(FP)
	RET
hit:
	CMPQ	CX, $16
	JB	inMask
locate:
	VMOVDQU32	(DI), Z0
	VPTESTMD	(SI), Z0, K2
	KMOVW	K2, AX
	TESTL	AX, AX
	JNZ	inVector
	ADDQ	$64, DI
	ADDQ	$64, SI
	JMP	locate
inMask:
	KMOVW	K2, AX
inVector:
	VZEROUPPER
	BSFL	AX, AX
	MOVL	(DI)(AX*4), BX
	ANDL	(SI)(AX*4), BX
	BSFL	BX, BX
	SUBQ	R10, DI
	SHLQ	$3, DI
	SHLQ	$5, AX
	ADDQ	AX, DI
	ADDQ	BX, DI
	MOVQ	DI, ret+48(FP)
	RET

// func popCountAVX512(a []uint32) int
// Needs AVX512VPOPCNTDQ. SI a, CX words left, AX and K1 tail mask, then
// the result; Z0-Z3 quadword sums, Z4-Z7 counts.
TEXT ·popCountAVX512(SB), NOSPLIT, $0-32
	MOVQ	a_base+0(FP), SI
	MOVQ	a_len+8(FP), CX
	VPXORQ	Z0, Z0, Z0
	VPXORQ	Z1, Z1, Z1
	VPXORQ	Z2, Z2, Z2
	VPXORQ	Z3, Z3, Z3
	CMPQ	CX, $64
	JB	vec16
loop64:
	VPOPCNTQ	0(SI), Z4
	VPOPCNTQ	64(SI), Z5
	VPOPCNTQ	128(SI), Z6
	VPOPCNTQ	192(SI), Z7
	VPADDQ	Z4, Z0, Z0
	VPADDQ	Z5, Z1, Z1
	VPADDQ	Z6, Z2, Z2
	VPADDQ	Z7, Z3, Z3
	ADDQ	$256, SI
	SUBQ	$64, CX
	CMPQ	CX, $64
	JAE	loop64
vec16:
	CMPQ	CX, $16
	JB	tail
loop16:
	VPOPCNTQ	0(SI), Z4
	VPADDQ	Z4, Z0, Z0
	ADDQ	$64, SI
	SUBQ	$16, CX
	CMPQ	CX, $16
	JAE	loop16
tail:
	TESTQ	CX, CX
	JZ	sum
	Z_TAILMASK
	VMOVDQU32.Z	(SI), K1, Z4
	VPOPCNTQ	Z4, Z4
	VPADDQ	Z4, Z1, Z1
sum:
	VPADDQ	Z1, Z0, Z0
	VPADDQ	Z3, Z2, Z2
	VPADDQ	Z2, Z0, Z0
	VEXTRACTI64X4	$1, Z0, Y1
	VPADDQ	Y1, Y0, Y0
	VEXTRACTI128	$1, Y0, X1
	VPADDQ	X1, X0, X0
	VPSHUFD	$0x4E, X0, X1
	VPADDQ	X1, X0, X0
	VMOVQ	X0, AX
	VZEROUPPER
	MOVQ	AX, ret+24(FP)
	RET

// func popCountAVX512BW(a []uint32) int
// The AVX-512 count for CPUs without VPOPCNTDQ: the nibble lookup of
// popCountAVX2 on ZMM vectors (VPSHUFB, VPSADBW need AVX512BW).
// SI a, CX words left, AX and K1 tail mask, then the result; Z0-Z7 data,
// Z11 quadword sums, Z12 zero, Z13 lookup table, Z14 0x0f bytes.
#define Z_POPB(r, t) \
	VPSRLW $4, r, t; VPANDD Z14, r, r; VPANDD Z14, t, t; \
	VPSHUFB r, Z13, r; VPSHUFB t, Z13, t; VPADDB t, r, r

TEXT ·popCountAVX512BW(SB), NOSPLIT, $0-32
	MOVQ	a_base+0(FP), SI
	MOVQ	a_len+8(FP), CX
	VBROADCASTI32X4	nibbleCounts<>(SB), Z13
	VBROADCASTI32X4	lowNibbles<>(SB), Z14
	VPXORQ	Z12, Z12, Z12
	VPXORQ	Z11, Z11, Z11
	CMPQ	CX, $64
	JB	vec16
loop64:
	VMOVDQU32	0(SI), Z0
	VMOVDQU32	64(SI), Z1
	VMOVDQU32	128(SI), Z2
	VMOVDQU32	192(SI), Z3
	Z_POPB(Z0, Z4)
	Z_POPB(Z1, Z5)
	Z_POPB(Z2, Z6)
	Z_POPB(Z3, Z7)
	VPADDB	Z1, Z0, Z0
	VPADDB	Z3, Z2, Z2
	VPADDB	Z2, Z0, Z0
	VPSADBW	Z12, Z0, Z0
	VPADDQ	Z0, Z11, Z11
	ADDQ	$256, SI
	SUBQ	$64, CX
	CMPQ	CX, $64
	JAE	loop64
vec16:
	CMPQ	CX, $16
	JB	tail
loop16:
	VMOVDQU32	0(SI), Z0
	Z_POPB(Z0, Z4)
	VPSADBW	Z12, Z0, Z0
	VPADDQ	Z0, Z11, Z11
	ADDQ	$64, SI
	SUBQ	$16, CX
	CMPQ	CX, $16
	JAE	loop16
tail:
	TESTQ	CX, CX
	JZ	sum
	Z_TAILMASK
	VMOVDQU32.Z	(SI), K1, Z0
	Z_POPB(Z0, Z4)
	VPSADBW	Z12, Z0, Z0
	VPADDQ	Z0, Z11, Z11
sum:
	VEXTRACTI64X4	$1, Z11, Y1
	VPADDQ	Y1, Y11, Y0
	VEXTRACTI128	$1, Y0, X1
	VPADDQ	X1, X0, X0
	VPSHUFD	$0x4E, X0, X1
	VPADDQ	X1, X0, X0
	VMOVQ	X0, AX
	VZEROUPPER
	MOVQ	AX, ret+24(FP)
	RET

// func clearAVX512(dst []uint32)
// DI dst, CX words left, AX and K1 tail mask; Z8 zero.
TEXT ·clearAVX512(SB), NOSPLIT, $0-24
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	VPXORQ	Z8, Z8, Z8
	Z_APPLY(Z_CLEAR, Z_MCLEAR, ADV_D)
	VZEROUPPER
	RET

// func copyAVX512(dst, src []uint32)
// DI dst, SI src, CX words left, AX dst-src then tail mask, BX byte
// count, K1 tail mask; Z0-Z7 data. Overlap as in copySSE2.
TEXT ·copyAVX512(SB), NOSPLIT, $0-48
	MOVQ	dst_base+0(FP), DI
	MOVQ	dst_len+8(FP), CX
	MOVQ	src_base+24(FP), SI
	MOVQ	DI, AX
	SUBQ	SI, AX
	JEQ	done
	LEAQ	(CX*4), BX
	CMPQ	AX, BX
	JB	backward
	Z_APPLY(Z_COPY, Z_MCOPY, ADV_DS)
	VZEROUPPER
done:
	RET
backward:
	MOVL	-4(SI)(CX*4), AX
	MOVL	AX, -4(DI)(CX*4)
	DECQ	CX
	JNZ	backward
	RET

// Popcount lookup table of the nibbles 0..15, twice (one per YMM lane),
// and the low-nibble mask.
DATA nibbleCounts<>+0(SB)/8, $0x0302020102010100
DATA nibbleCounts<>+8(SB)/8, $0x0403030203020201
DATA nibbleCounts<>+16(SB)/8, $0x0302020102010100
DATA nibbleCounts<>+24(SB)/8, $0x0403030203020201
GLOBL nibbleCounts<>(SB), RODATA|NOPTR, $32

DATA lowNibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL lowNibbles<>(SB), RODATA|NOPTR, $32
