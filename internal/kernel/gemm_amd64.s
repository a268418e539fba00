//go:build amd64 && !purego

#include "textflag.h"

// Register use of gemmKernel6x8:
//   Y0, Y1     b[8p:8p+4], b[8p+4:8p+8]
//   Y2, Y3     broadcasts of a[6p+i]
//   Y4..Y15    accumulators: row i of T in Y(4+2i) (columns 0-3) and
//              Y(5+2i) (columns 4-7)
#define K_LEFT CX
#define K_QUADS BX
#define A_PTR SI
#define B_PTR DI
#define C_PTR DX
#define LDC R8
#define C_ROW R9

// STEP(i) adds the outer product of step p+i to T; A_PTR and B_PTR point at
// step p.
#define STEP(i) \
	VMOVUPD      (64*(i))(B_PTR), Y0     \ // Y0 = b[8(p+i) : 8(p+i)+4]
	VMOVUPD      (64*(i)+32)(B_PTR), Y1  \ // Y1 = b[8(p+i)+4 : 8(p+i)+8]
	VBROADCASTSD (48*(i))(A_PTR), Y2     \ // Y2 = a[6(p+i)+0] ×4
	VBROADCASTSD (48*(i)+8)(A_PTR), Y3   \ // Y3 = a[6(p+i)+1] ×4
	VFMADD231PD  Y0, Y2, Y4              \ // T[0][0:4] += Y2*Y0
	VFMADD231PD  Y1, Y2, Y5              \ // T[0][4:8] += Y2*Y1
	VFMADD231PD  Y0, Y3, Y6              \ // T[1][0:4] += Y3*Y0
	VFMADD231PD  Y1, Y3, Y7              \ // T[1][4:8] += Y3*Y1
	VBROADCASTSD (48*(i)+16)(A_PTR), Y2  \ // Y2 = a[6(p+i)+2] ×4
	VBROADCASTSD (48*(i)+24)(A_PTR), Y3  \ // Y3 = a[6(p+i)+3] ×4
	VFMADD231PD  Y0, Y2, Y8              \ // T[2][0:4] += Y2*Y0
	VFMADD231PD  Y1, Y2, Y9              \ // T[2][4:8] += Y2*Y1
	VFMADD231PD  Y0, Y3, Y10             \ // T[3][0:4] += Y3*Y0
	VFMADD231PD  Y1, Y3, Y11             \ // T[3][4:8] += Y3*Y1
	VBROADCASTSD (48*(i)+32)(A_PTR), Y2  \ // Y2 = a[6(p+i)+4] ×4
	VBROADCASTSD (48*(i)+40)(A_PTR), Y3  \ // Y3 = a[6(p+i)+5] ×4
	VFMADD231PD  Y0, Y2, Y12             \ // T[4][0:4] += Y2*Y0
	VFMADD231PD  Y1, Y2, Y13             \ // T[4][4:8] += Y2*Y1
	VFMADD231PD  Y0, Y3, Y14             \ // T[5][0:4] += Y3*Y0
	VFMADD231PD  Y1, Y3, Y15               // T[5][4:8] += Y3*Y1

// STORE_BETA(lo, hi) writes row C_ROW = alpha*T[i] + beta*C_ROW with T[i]
// in lo, hi, alpha in Y0 and beta in Y1, then moves C_ROW to the next row.
#define STORE_BETA(lo, hi) \
	VMULPD      (C_ROW), Y1, Y2    \ // Y2 = beta * c[i][0:4]
	VMULPD      32(C_ROW), Y1, Y3  \ // Y3 = beta * c[i][4:8]
	VFMADD231PD lo, Y0, Y2         \ // Y2 += alpha * T[i][0:4]
	VFMADD231PD hi, Y0, Y3         \ // Y3 += alpha * T[i][4:8]
	VMOVUPD     Y2, (C_ROW)        \ // c[i][0:4] = Y2
	VMOVUPD     Y3, 32(C_ROW)      \ // c[i][4:8] = Y3
	ADDQ        LDC, C_ROW           // next row of C

// STORE_ZERO(lo, hi) writes row C_ROW = alpha*T[i] without reading it.
#define STORE_ZERO(lo, hi) \
	VMULPD  lo, Y0, lo        \ // lo = alpha * T[i][0:4]
	VMULPD  hi, Y0, hi        \ // hi = alpha * T[i][4:8]
	VMOVUPD lo, (C_ROW)       \ // c[i][0:4] = lo
	VMOVUPD hi, 32(C_ROW)     \ // c[i][4:8] = hi
	ADDQ    LDC, C_ROW          // next row of C

// func gemmKernel6x8(k int, a, b, c []float64, ldc int, alpha, beta float64)
TEXT ·gemmKernel6x8(SB), NOSPLIT, $0-104
	MOVQ k+0(FP), K_LEFT
	MOVQ a_base+8(FP), A_PTR
	MOVQ b_base+32(FP), B_PTR
	MOVQ c_base+56(FP), C_PTR
	MOVQ ldc+80(FP), LDC
	SHLQ $3, LDC              // LDC = ldc in bytes

	// Bring the tile of C towards L1 while T is computed.
	MOVQ        C_PTR, C_ROW
	PREFETCHT0  (C_ROW)
	PREFETCHT0  56(C_ROW)
	ADDQ        LDC, C_ROW
	PREFETCHT0  (C_ROW)
	PREFETCHT0  56(C_ROW)
	ADDQ        LDC, C_ROW
	PREFETCHT0  (C_ROW)
	PREFETCHT0  56(C_ROW)
	ADDQ        LDC, C_ROW
	PREFETCHT0  (C_ROW)
	PREFETCHT0  56(C_ROW)
	ADDQ        LDC, C_ROW
	PREFETCHT0  (C_ROW)
	PREFETCHT0  56(C_ROW)
	ADDQ        LDC, C_ROW
	PREFETCHT0  (C_ROW)
	PREFETCHT0  56(C_ROW)

	VXORPD Y4, Y4, Y4         // T = 0
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15

	MOVQ K_LEFT, K_QUADS
	SHRQ $2, K_QUADS          // K_QUADS = k / 4
	JZ   tail

loop4:
	STEP(0)
	STEP(1)
	STEP(2)
	STEP(3)
	ADDQ $192, A_PTR          // a = a[24:]
	ADDQ $256, B_PTR          // b = b[32:]
	DECQ K_QUADS
	JNZ  loop4

tail:
	ANDQ $3, K_LEFT           // K_LEFT = k % 4
	JZ   store

loop1:
	STEP(0)
	ADDQ $48, A_PTR           // a = a[6:]
	ADDQ $64, B_PTR           // b = b[8:]
	DECQ K_LEFT
	JNZ  loop1

store:
	VBROADCASTSD alpha+88(FP), Y0  // Y0 = alpha ×4
	MOVQ         C_PTR, C_ROW
	MOVQ         beta+96(FP), AX
	SHLQ         $1, AX            // drop the sign: beta == ±0?
	JZ           store_zero
	VBROADCASTSD beta+96(FP), Y1   // Y1 = beta ×4
	STORE_BETA(Y4, Y5)
	STORE_BETA(Y6, Y7)
	STORE_BETA(Y8, Y9)
	STORE_BETA(Y10, Y11)
	STORE_BETA(Y12, Y13)
	STORE_BETA(Y14, Y15)
	VZEROUPPER
	RET

store_zero:
	STORE_ZERO(Y4, Y5)
	STORE_ZERO(Y6, Y7)
	STORE_ZERO(Y8, Y9)
	STORE_ZERO(Y10, Y11)
	STORE_ZERO(Y12, Y13)
	STORE_ZERO(Y14, Y15)
	VZEROUPPER
	RET
