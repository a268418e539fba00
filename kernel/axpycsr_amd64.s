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

// CSR_TERM sets DX to row idx[m]'s first panel and Y8 to c[m].
#define CSR_TERM \
	MOVQ         (DI)(AX*8), DX; \
	SHLQ         $6, DX;         \
	ADDQ         R9, DX;         \
	VBROADCASTSD (R8)(AX*8), Y8

// func axpyCSR32AVX(rows int, ptr, idx []int, c, b []float64, pstride int, y []float64, ldy int)
//
// 32 columns of y: four panels.
TEXT ·axpyCSR32AVX(SB), NOSPLIT, $0-144
	CSR_ARGS
	MOVQ  pstride+104(FP), R10
	SHLQ  $3, R10              // R10 = pstride in bytes
	TESTQ CX, CX
	JZ    csr32_end
	MOVQ  (SI), AX // AX = m = ptr[0]

csr32_row:
	MOVQ 8(SI), BX  // BX = ptr[r+1]
	CMPQ AX, BX
	JGE  csr32_next // a row without terms is left alone
	VMOVUPD    (R11), Y0
	VMOVUPD    32(R11), Y1
	VMOVUPD    64(R11), Y2
	VMOVUPD    96(R11), Y3
	VMOVUPD    128(R11), Y4
	VMOVUPD    160(R11), Y5
	VMOVUPD    192(R11), Y6
	VMOVUPD    224(R11), Y7
	PREFETCHT1 256(R11) // the row's next 32 columns, for the next panels
	PREFETCHT1 320(R11)
	PREFETCHT1 384(R11)
	PREFETCHT1 448(R11)

csr32_term:
	CSR_TERM
	LEAQ        (DX)(R10*2), R13 // the third panel
	VFMADD231PD (DX), Y8, Y0
	VFMADD231PD 32(DX), Y8, Y1
	VFMADD231PD (DX)(R10*1), Y8, Y2
	VFMADD231PD 32(DX)(R10*1), Y8, Y3
	VFMADD231PD (R13), Y8, Y4
	VFMADD231PD 32(R13), Y8, Y5
	VFMADD231PD (R13)(R10*1), Y8, Y6
	VFMADD231PD 32(R13)(R10*1), Y8, Y7
	INCQ        AX
	CMPQ        AX, BX
	JLT         csr32_term

	VMOVUPD Y0, (R11)
	VMOVUPD Y1, 32(R11)
	VMOVUPD Y2, 64(R11)
	VMOVUPD Y3, 96(R11)
	VMOVUPD Y4, 128(R11)
	VMOVUPD Y5, 160(R11)
	VMOVUPD Y6, 192(R11)
	VMOVUPD Y7, 224(R11)

csr32_next:
	ADDQ $8, SI
	ADDQ R12, R11
	DECQ CX
	JNZ  csr32_row

csr32_end:
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
	VFMADD231PD (DX), Y8, Y0
	VFMADD231PD 32(DX), Y8, Y1
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
