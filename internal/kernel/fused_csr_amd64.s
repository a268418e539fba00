//go:build amd64 && !purego

#include "textflag.h"

// The products of AxpyRowsPacked: row r of y, for r < rows, gets
//
//	y_r = fma(c[m], b_{idx[m]}, y_r),  m = ptr[r], …, ptr[r+1]−1,
//
// one FMA per term and element in order of m, b_j the row j of the
// packed matrix (8-column panels, row j's eight at byte 64·j of its
// panel, panels pstride bytes apart). A row's elements stay in registers
// through all its terms, so a term costs one load and one FMA a vector,
// and y is read and written once. The caller has checked every bound.
//
// Register use: CX rows left, SI &ptr[r], DI idx, R8 c, R9 b, R10 the
// panel stride in bytes, R11 row r of y, R12 ldy in bytes; AX and BX the
// first row's next and end term, R13 and R14 the second row's; DX and
// R15 the terms' rows of b.

// CSR_ARGS loads the arguments but the sixth (pstride or mask).
#define CSR_ARGS \
	MOVQ rows+0(FP), CX;      \
	MOVQ ptr_base+8(FP), SI;  \
	MOVQ idx_base+32(FP), DI; \
	MOVQ c_base+56(FP), R8;   \
	MOVQ b_base+80(FP), R9;   \
	MOVQ y_base+112(FP), R11; \
	MOVQ ldy+136(FP), R12;    \
	SHLQ $3, R12

// CSR_TERM sets DX to row idx[AX]'s first panel and Y12 to c[AX].
#define CSR_TERM \
	MOVQ         (DI)(AX*8), DX; \
	SHLQ         $6, DX;         \
	ADDQ         R9, DX;         \
	VBROADCASTSD (R8)(AX*8), Y12

// CSR_TERM2 sets R15 to row idx[R13]'s first panel and Y13 to c[R13].
#define CSR_TERM2 \
	MOVQ         (DI)(R13*8), R15; \
	SHLQ         $6, R15;          \
	ADDQ         R9, R15;          \
	VBROADCASTSD (R8)(R13*8), Y13

// FMA24(b, c, y0, …, y5) adds c·b_j to a row's 24 columns in y0–y5, b_j
// the three panels' eight columns from b on: Y12 and DX for the first row
// of a pair (Y0–Y5), Y13 and R15 for the second (Y6–Y11).
#define FMA24(b, c, y0, y1, y2, y3, y4, y5) \
	VFMADD231PD (b), c, y0;          \
	VFMADD231PD 32(b), c, y1;        \
	VFMADD231PD (b)(R10*1), c, y2;   \
	VFMADD231PD 32(b)(R10*1), c, y3; \
	VFMADD231PD (b)(R10*2), c, y4;   \
	VFMADD231PD 32(b)(R10*2), c, y5

// LOAD24(b, y0, …, y5) loads a row's 24 columns from b into y0–y5,
// STORE24 stores them back, PREFETCH24(b) asks for the row's next 24.
#define LOAD24(b, y0, y1, y2, y3, y4, y5) \
	VMOVUPD (b), y0;    \
	VMOVUPD 32(b), y1;  \
	VMOVUPD 64(b), y2;  \
	VMOVUPD 96(b), y3;  \
	VMOVUPD 128(b), y4; \
	VMOVUPD 160(b), y5

#define STORE24(b, y0, y1, y2, y3, y4, y5) \
	VMOVUPD y0, (b);    \
	VMOVUPD y1, 32(b);  \
	VMOVUPD y2, 64(b);  \
	VMOVUPD y3, 96(b);  \
	VMOVUPD y4, 128(b); \
	VMOVUPD y5, 160(b)

#define PREFETCH24(b) \
	PREFETCHT1 192(b); \
	PREFETCHT1 256(b); \
	PREFETCHT1 320(b); \
	PREFETCHT1 383(b)

// func axpyCSR24x2AVX(rows int, ptr, idx []int, c, b []float64, pstride int, y []float64, ldy int)
//
// 24 columns of y (three panels), two rows at a time: the two rows' terms
// interleave, twelve accumulators, so that both FMA units are kept busy
// (one row's six would wait on the FMA latency), until the shorter row
// runs out. Each row's next 24 columns are asked for while it works: the
// panels go down the rows of y a few cache lines at a time, which the
// hardware does not foresee.
TEXT ·axpyCSR24x2AVX(SB), NOSPLIT, $0-144
	CSR_ARGS
	MOVQ pstride+104(FP), R10
	SHLQ $3, R10

c24_pair:
	CMPQ CX, $2
	JLT  c24_single
	MOVQ (SI), AX
	MOVQ 8(SI), BX
	MOVQ BX, R13
	MOVQ 16(SI), R14
	LOAD24(R11, Y0, Y1, Y2, Y3, Y4, Y5)
	PREFETCH24(R11)
	LEAQ       (R11)(R12*1), DX
	LOAD24(DX, Y6, Y7, Y8, Y9, Y10, Y11)
	PREFETCH24(DX)

	// Both rows while both have terms.
	CMPQ AX, BX
	JGE  c24_tailB
	CMPQ R13, R14
	JGE  c24_tailA

c24_both:
	CSR_TERM
	CSR_TERM2
	FMA24(DX, Y12, Y0, Y1, Y2, Y3, Y4, Y5)
	FMA24(R15, Y13, Y6, Y7, Y8, Y9, Y10, Y11)
	INCQ AX
	INCQ R13
	CMPQ AX, BX
	JGE  c24_tailB
	CMPQ R13, R14
	JLT  c24_both

c24_tailA:
	CMPQ AX, BX
	JGE  c24_tailB
	CSR_TERM
	FMA24(DX, Y12, Y0, Y1, Y2, Y3, Y4, Y5)
	INCQ AX
	JMP  c24_tailA

c24_tailB:
	CMPQ R13, R14
	JGE  c24_store
	CSR_TERM2
	FMA24(R15, Y13, Y6, Y7, Y8, Y9, Y10, Y11)
	INCQ R13
	JMP  c24_tailB

c24_store:
	STORE24(R11, Y0, Y1, Y2, Y3, Y4, Y5)
	LEAQ    (R11)(R12*1), DX
	STORE24(DX, Y6, Y7, Y8, Y9, Y10, Y11)
	ADDQ    $16, SI
	LEAQ    (DX)(R12*1), R11
	SUBQ    $2, CX
	JMP     c24_pair

c24_single:
	TESTQ CX, CX
	JZ    c24_end
	MOVQ  (SI), AX
	MOVQ  8(SI), BX
	LOAD24(R11, Y0, Y1, Y2, Y3, Y4, Y5)

c24_one:
	CMPQ AX, BX
	JGE  c24_onestore
	CSR_TERM
	FMA24(DX, Y12, Y0, Y1, Y2, Y3, Y4, Y5)
	INCQ AX
	JMP  c24_one

c24_onestore:
	STORE24(R11, Y0, Y1, Y2, Y3, Y4, Y5)

c24_end:
	VZEROUPPER
	RET

// func axpyCSRPartAVX(rows int, ptr, idx []int, c, b []float64, mask *[8]int64, y []float64, ldy int)
//
// The first w ≤ 8 columns of one panel, w the count of set lanes of mask:
// y is read and written under the mask, the panel's padding (zeros) in
// the other lanes never reaches it.
TEXT ·axpyCSRPartAVX(SB), NOSPLIT, $0-144
	CSR_ARGS
	MOVQ    mask+104(FP), R10
	VMOVDQU (R10), Y10
	VMOVDQU 32(R10), Y11
	TESTQ CX, CX
	JZ    part_end
	MOVQ  (SI), AX

part_row:
	MOVQ       8(SI), BX
	CMPQ       AX, BX
	JGE        part_next
	VMASKMOVPD (R11), Y10, Y0
	VMASKMOVPD 32(R11), Y11, Y1

part_term:
	CSR_TERM
	VFMADD231PD (DX), Y12, Y0
	VFMADD231PD 32(DX), Y12, Y1
	INCQ        AX
	CMPQ        AX, BX
	JLT         part_term

	VMASKMOVPD Y0, Y10, (R11)
	VMASKMOVPD Y1, Y11, 32(R11)

part_next:
	ADDQ $8, SI
	ADDQ R12, R11
	DECQ CX
	JNZ  part_row

part_end:
	VZEROUPPER
	RET
