//go:build amd64 && !purego

#include "textflag.h"

// func csr32AVX(rows int, ptr, idx []int, c, g []float64, ldg int, y []float64, ldy int)
//
// For r < rows, the 32 elements y[r*ldy : r*ldy+32] get, for m = ptr[r],
// …, ptr[r+1]−1 in that order, y = fma(c[m], g[idx[m]*ldg : +32], y):
// one panel of AxpyRowsCSR (g a panel of RowPanels, ldg = 32). The row of y
// stays in eight registers while its terms are applied, so each term costs
// eight loads of g and eight FMAs.
TEXT ·csr32AVX(SB), NOSPLIT, $0-144
	MOVQ  rows+0(FP), CX
	MOVQ  ptr_base+8(FP), SI
	MOVQ  idx_base+32(FP), DI
	MOVQ  c_base+56(FP), R8
	MOVQ  g_base+80(FP), R9
	MOVQ  ldg+104(FP), R10
	SHLQ  $3, R10              // R10 = ldg in bytes
	MOVQ  y_base+112(FP), DX
	MOVQ  ldy+136(FP), R11
	SHLQ  $3, R11              // R11 = ldy in bytes
	TESTQ CX, CX
	JZ    done
	MOVQ  (SI), BX             // m = ptr[0]

row:
	MOVQ 8(SI), R12 // R12 = ptr[r+1]
	CMPQ BX, R12
	JGE  next       // no terms: y_r unchanged

	VMOVUPD (DX), Y0
	VMOVUPD 32(DX), Y1
	VMOVUPD 64(DX), Y2
	VMOVUPD 96(DX), Y3
	VMOVUPD 128(DX), Y4
	VMOVUPD 160(DX), Y5
	VMOVUPD 192(DX), Y6
	VMOVUPD 224(DX), Y7

term:
	VBROADCASTSD (R8)(BX*8), Y8  // Y8 = c[m]
	MOVQ         (DI)(BX*8), AX  // AX = idx[m]
	IMULQ        R10, AX
	ADDQ         R9, AX          // AX = &g[idx[m]*ldg]
	VFMADD231PD  (AX), Y8, Y0
	VFMADD231PD  32(AX), Y8, Y1
	VFMADD231PD  64(AX), Y8, Y2
	VFMADD231PD  96(AX), Y8, Y3
	VFMADD231PD  128(AX), Y8, Y4
	VFMADD231PD  160(AX), Y8, Y5
	VFMADD231PD  192(AX), Y8, Y6
	VFMADD231PD  224(AX), Y8, Y7
	INCQ         BX
	CMPQ         BX, R12
	JL           term            // } while ++m < ptr[r+1]

	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	VMOVUPD Y2, 64(DX)
	VMOVUPD Y3, 96(DX)
	VMOVUPD Y4, 128(DX)
	VMOVUPD Y5, 160(DX)
	VMOVUPD Y6, 192(DX)
	VMOVUPD Y7, 224(DX)

next:
	MOVQ R12, BX // m = ptr[r+1]
	ADDQ $8, SI
	ADDQ R11, DX
	DECQ CX
	JNZ  row     // } while --rows > 0

done:
	VZEROUPPER
	RET
