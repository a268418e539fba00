//go:build amd64 && !purego

#include "textflag.h"

// PREFETCH_NEXT(row) asks for the row's next 24 columns.
#define PREFETCH_NEXT(row) \
	PREFETCHT1 192(row); \
	PREFETCHT1 256(row); \
	PREFETCHT1 320(row); \
	PREFETCHT1 383(row)

// func axpyCSR24x2AVX512(rows int, ptr, idx []int, c, b []float64, mask int, y []float64, ldy int)
//
// AxpyRowsPacked on one 24-column panel of the AVX-512 tier's packing:
// row r of y, for r < rows, gets
//
//	y_r = fma(c[m], b_{idx[m]}, y_r),  m = ptr[r], …, ptr[r+1]−1,
//
// on its columns j < 24 with bit j of mask set, one FMA per term and
// element in order of m; b_j is the panel's row j, 24 values at byte
// 192·j. A row's 24 columns stay in three registers through all its
// terms; two rows go together, their terms interleaved, so that the FMAs
// do not wait on each other. y is read and written under the mask, so the
// panel's padding (zeros) never reaches it. Each row's next 24 columns are
// asked for while it works: the panels go down the rows of y a few cache
// lines at a time, which the hardware does not foresee. The caller has
// checked every bound.
//
// Register use: CX rows left, SI &ptr[r], DI idx, R8 c, R9 b, R11 row r of
// y, R12 ldy in bytes; AX and BX the first row's next and end term, R13
// and R14 the second row's; DX and R15 the terms' rows of b; K1–K3 the
// mask of each vector.
TEXT ·axpyCSR24x2AVX512(SB), NOSPLIT, $0-144
	MOVQ rows+0(FP), CX
	MOVQ ptr_base+8(FP), SI
	MOVQ idx_base+32(FP), DI
	MOVQ c_base+56(FP), R8
	MOVQ b_base+80(FP), R9
	MOVQ y_base+112(FP), R11
	MOVQ ldy+136(FP), R12
	SHLQ $3, R12                      // R12 = ldy in bytes
	MOVQ mask+104(FP), AX
	KMOVQ AX, K1                      // K1 = columns 0..7
	SHRQ  $8, AX
	KMOVQ AX, K2                      // K2 = columns 8..15
	SHRQ  $8, AX
	KMOVQ AX, K3                      // K3 = columns 16..23

pair:
	CMPQ CX, $2
	JLT  single
	MOVQ (SI), AX                     // first row: terms AX..BX-1
	MOVQ 8(SI), BX
	MOVQ BX, R13                      // second row: terms R13..R14-1
	MOVQ 16(SI), R14
	VMOVUPD.Z (R11), K1, Z0           // Z0..Z2 = y_r
	VMOVUPD.Z 64(R11), K2, Z1
	VMOVUPD.Z 128(R11), K3, Z2
	PREFETCH_NEXT(R11)
	LEAQ      (R11)(R12*1), DX
	VMOVUPD.Z (DX), K1, Z3            // Z3..Z5 = y_{r+1}
	VMOVUPD.Z 64(DX), K2, Z4
	VMOVUPD.Z 128(DX), K3, Z5
	PREFETCH_NEXT(DX)

	CMPQ AX, BX
	JGE  tailB
	CMPQ R13, R14
	JGE  tailA

both:
	MOVQ         (DI)(AX*8), DX       // DX = &b_{idx[AX]}
	LEAQ         (DX)(DX*2), DX
	SHLQ         $6, DX
	ADDQ         R9, DX
	VBROADCASTSD (R8)(AX*8), Z6       // Z6 = c[AX]
	MOVQ         (DI)(R13*8), R15     // R15 = &b_{idx[R13]}
	LEAQ         (R15)(R15*2), R15
	SHLQ         $6, R15
	ADDQ         R9, R15
	VBROADCASTSD (R8)(R13*8), Z7      // Z7 = c[R13]
	VFMADD231PD  (DX), Z6, Z0         // y_r += c[AX]·b_{idx[AX]}
	VFMADD231PD  64(DX), Z6, Z1
	VFMADD231PD  128(DX), Z6, Z2
	VFMADD231PD  (R15), Z7, Z3        // y_{r+1} += c[R13]·b_{idx[R13]}
	VFMADD231PD  64(R15), Z7, Z4
	VFMADD231PD  128(R15), Z7, Z5
	INCQ         AX
	INCQ         R13
	CMPQ         AX, BX
	JGE          tailB
	CMPQ         R13, R14
	JLT          both

tailA:
	CMPQ         AX, BX
	JGE          tailB
	MOVQ         (DI)(AX*8), DX
	LEAQ         (DX)(DX*2), DX
	SHLQ         $6, DX
	ADDQ         R9, DX
	VBROADCASTSD (R8)(AX*8), Z6
	VFMADD231PD  (DX), Z6, Z0
	VFMADD231PD  64(DX), Z6, Z1
	VFMADD231PD  128(DX), Z6, Z2
	INCQ         AX
	JMP          tailA

tailB:
	CMPQ         R13, R14
	JGE          store
	MOVQ         (DI)(R13*8), R15
	LEAQ         (R15)(R15*2), R15
	SHLQ         $6, R15
	ADDQ         R9, R15
	VBROADCASTSD (R8)(R13*8), Z7
	VFMADD231PD  (R15), Z7, Z3
	VFMADD231PD  64(R15), Z7, Z4
	VFMADD231PD  128(R15), Z7, Z5
	INCQ         R13
	JMP          tailB

store:
	VMOVUPD Z0, K1, (R11)             // y_r = Z0..Z2 under the mask
	VMOVUPD Z1, K2, 64(R11)
	VMOVUPD Z2, K3, 128(R11)
	LEAQ    (R11)(R12*1), DX
	VMOVUPD Z3, K1, (DX)              // y_{r+1} = Z3..Z5
	VMOVUPD Z4, K2, 64(DX)
	VMOVUPD Z5, K3, 128(DX)
	ADDQ    $16, SI                   // r += 2
	LEAQ    (DX)(R12*1), R11
	SUBQ    $2, CX
	JMP     pair

single:
	TESTQ     CX, CX
	JZ        done
	MOVQ      (SI), AX
	MOVQ      8(SI), BX
	VMOVUPD.Z (R11), K1, Z0
	VMOVUPD.Z 64(R11), K2, Z1
	VMOVUPD.Z 128(R11), K3, Z2
	PREFETCH_NEXT(R11)

one:
	CMPQ         AX, BX
	JGE          onestore
	MOVQ         (DI)(AX*8), DX
	LEAQ         (DX)(DX*2), DX
	SHLQ         $6, DX
	ADDQ         R9, DX
	VBROADCASTSD (R8)(AX*8), Z6
	VFMADD231PD  (DX), Z6, Z0
	VFMADD231PD  64(DX), Z6, Z1
	VFMADD231PD  128(DX), Z6, Z2
	INCQ         AX
	JMP          one

onestore:
	VMOVUPD Z0, K1, (R11)
	VMOVUPD Z1, K2, 64(R11)
	VMOVUPD Z2, K3, 128(R11)

done:
	VZEROUPPER
	RET
