//go:build amd64 && !purego

#include "textflag.h"

// func transpose4AVX(m4, n4 int, a []float64, lda int, b []float64, ldb int)
//
// b[j][i] = a[i][j] for i < 4·m4, j < 4·n4: for each four rows of a, each
// four columns are loaded (one register a row), transposed in registers
// (unpacks within the 128-bit lanes, then lane swaps) and stored as four
// rows of b.
TEXT ·transpose4AVX(SB), NOSPLIT, $0-80
	MOVQ m4+0(FP), CX
	MOVQ n4+8(FP), R8
	MOVQ a_base+16(FP), SI
	MOVQ lda+40(FP), R9
	MOVQ b_base+48(FP), DI
	MOVQ ldb+72(FP), R10
	SHLQ $3, R9                // R9 = lda in bytes
	SHLQ $3, R10               // R10 = ldb in bytes
	LEAQ (R9)(R9*2), R11       // three rows of a
	LEAQ (R10)(R10*2), R12     // three rows of b

t4_rows:
	MOVQ SI, AX // a[i][0]
	MOVQ DI, BX // b[0][i]
	MOVQ R8, DX

t4_cols:
	VMOVUPD    (AX), Y0              // a[i+r][j : j+4], r = 0..3
	VMOVUPD    (AX)(R9*1), Y1
	VMOVUPD    (AX)(R9*2), Y2
	VMOVUPD    (AX)(R11*1), Y3
	VUNPCKLPD  Y1, Y0, Y4            // a0[j] a1[j] a0[j+2] a1[j+2]
	VUNPCKHPD  Y1, Y0, Y5            // a0[j+1] a1[j+1] a0[j+3] a1[j+3]
	VUNPCKLPD  Y3, Y2, Y6            // a2[j] a3[j] a2[j+2] a3[j+2]
	VUNPCKHPD  Y3, Y2, Y7            // a2[j+1] a3[j+1] a2[j+3] a3[j+3]
	VPERM2F128 $0x20, Y6, Y4, Y0     // a0..a3 [j]
	VPERM2F128 $0x20, Y7, Y5, Y1     // a0..a3 [j+1]
	VPERM2F128 $0x31, Y6, Y4, Y2     // a0..a3 [j+2]
	VPERM2F128 $0x31, Y7, Y5, Y3     // a0..a3 [j+3]
	VMOVUPD    Y0, (BX)              // b[j+c][i : i+4], c = 0..3
	VMOVUPD    Y1, (BX)(R10*1)
	VMOVUPD    Y2, (BX)(R10*2)
	VMOVUPD    Y3, (BX)(R12*1)
	ADDQ       $32, AX
	LEAQ       (BX)(R10*4), BX
	DECQ       DX
	JNZ        t4_cols

	LEAQ (SI)(R9*4), SI
	ADDQ $32, DI
	DECQ CX
	JNZ  t4_rows

	VZEROUPPER
	RET
