//go:build amd64 && !purego

#include "textflag.h"

#define A_ROW R8
#define LDA R9
#define LDA3 R10
#define X_BASE R11
#define Y_PTR DI
#define INC_Y R12
#define INC_Y3 R13
#define ROWS BX
#define N CX
#define A_PTR SI
#define X_PTR DX
#define CNT AX
#define ALPHA Y15
#define ALPHA_X X15
#define XJ Y14
#define XJ_X X14

// func gemvNAVX(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int)
//
// y[i*incY] += alpha * dot(a[i*lda:i*lda+n], x), four rows at a time so that
// each load of x feeds four FMAs. Per row two accumulators over 8 columns per
// iteration: eight independent FMA chains. Each of the last n%4 columns is
// gathered from the four rows into one vector. (Masked loads would be
// shorter, but they stall store forwarding when the masked-off lanes
// overlap a recent store, as y right after x in one buffer does.)
TEXT ·gemvNAVX(SB), NOSPLIT, $0-112
	MOVQ         a_base+24(FP), A_ROW      // A_ROW = &a[0]
	MOVQ         lda+48(FP), LDA
	SHLQ         $3, LDA                   // LDA = lda * sizeof(float64)
	LEAQ         (LDA)(LDA*2), LDA3        // LDA3 = 3 * LDA
	MOVQ         x_base+56(FP), X_BASE     // X_BASE = &x[0]
	MOVQ         y_base+80(FP), Y_PTR      // Y_PTR = &y[0]
	MOVQ         incY+104(FP), INC_Y
	SHLQ         $3, INC_Y                 // INC_Y = incY * sizeof(float64)
	LEAQ         (INC_Y)(INC_Y*2), INC_Y3  // INC_Y3 = 3 * INC_Y
	MOVQ         m+0(FP), ROWS             // ROWS = m
	MOVQ         n+8(FP), N                // N = n
	VBROADCASTSD alpha+16(FP), ALPHA       // ALPHA = {alpha, alpha, alpha, alpha}
	CMPQ         ROWS, $4
	JLT          rows1_start               // if m < 4 { goto rows1_start }

rows4:
	VXORPD Y0, Y0, Y0         // row 0, columns 0-3 mod 8
	VXORPD Y1, Y1, Y1         // row 0, columns 4-7 mod 8
	VXORPD Y2, Y2, Y2         // row 1
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4         // row 2
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6         // row 3
	VXORPD Y7, Y7, Y7
	MOVQ   A_ROW, A_PTR       // A_PTR = &a[i*lda]
	MOVQ   X_BASE, X_PTR      // X_PTR = &x[0]
	MOVQ   N, CNT
	SHRQ   $3, CNT            // CNT = n / 8
	JZ     r4_tail4           // if CNT == 0 { goto r4_tail4 }

r4_loop8:
	VMOVUPD     (X_PTR), Y8                 // Y8 = x[j:j+4]
	VMOVUPD     32(X_PTR), Y9               // Y9 = x[j+4:j+8]
	VFMADD231PD (A_PTR), Y8, Y0             // acc00 += a[i][j:j+4] * x[j:j+4]
	VFMADD231PD 32(A_PTR), Y9, Y1           // acc01 += a[i][j+4:j+8] * x[j+4:j+8]
	VFMADD231PD (A_PTR)(LDA*1), Y8, Y2      // acc10 += a[i+1][j:j+4] * x[j:j+4]
	VFMADD231PD 32(A_PTR)(LDA*1), Y9, Y3    // acc11 += a[i+1][j+4:j+8] * x[j+4:j+8]
	VFMADD231PD (A_PTR)(LDA*2), Y8, Y4      // acc20 += a[i+2][j:j+4] * x[j:j+4]
	VFMADD231PD 32(A_PTR)(LDA*2), Y9, Y5    // acc21 += a[i+2][j+4:j+8] * x[j+4:j+8]
	VFMADD231PD (A_PTR)(LDA3*1), Y8, Y6     // acc30 += a[i+3][j:j+4] * x[j:j+4]
	VFMADD231PD 32(A_PTR)(LDA3*1), Y9, Y7   // acc31 += a[i+3][j+4:j+8] * x[j+4:j+8]
	ADDQ        $64, A_PTR                  // j += 8 in the rows
	ADDQ        $64, X_PTR                  // j += 8 in x
	DECQ        CNT
	JNZ         r4_loop8                    // } while --CNT > 0

r4_tail4:
	TESTQ       $4, N
	JZ          r4_reduce                   // if n%8 < 4 { goto r4_reduce }
	VMOVUPD     (X_PTR), Y8                 // Y8 = x[j:j+4]
	VFMADD231PD (A_PTR), Y8, Y0             // acc00 += a[i][j:j+4] * x[j:j+4]
	VFMADD231PD (A_PTR)(LDA*1), Y8, Y2      // acc10 += a[i+1][j:j+4] * x[j:j+4]
	VFMADD231PD (A_PTR)(LDA*2), Y8, Y4      // acc20 += a[i+2][j:j+4] * x[j:j+4]
	VFMADD231PD (A_PTR)(LDA3*1), Y8, Y6     // acc30 += a[i+3][j:j+4] * x[j:j+4]
	ADDQ        $32, A_PTR                  // j += 4 in the rows
	ADDQ        $32, X_PTR                  // j += 4 in x

r4_reduce:
	VADDPD     Y1, Y0, Y0        // row 0 partial sums
	VADDPD     Y3, Y2, Y2        // row 1 partial sums
	VADDPD     Y5, Y4, Y4        // row 2 partial sums
	VADDPD     Y7, Y6, Y6        // row 3 partial sums
	VHADDPD    Y2, Y0, Y0        // Y0 = {r0[0]+r0[1], r1[0]+r1[1], r0[2]+r0[3], r1[2]+r1[3]}
	VHADDPD    Y6, Y4, Y4        // Y4 = {r2[0]+r2[1], r3[0]+r3[1], r2[2]+r2[3], r3[2]+r3[3]}
	VPERM2F128 $0x20, Y4, Y0, Y1 // Y1 = {Y0[0:2], Y4[0:2]}
	VPERM2F128 $0x31, Y4, Y0, Y3 // Y3 = {Y0[2:4], Y4[2:4]}
	VADDPD     Y3, Y1, Y1        // Y1 = {dot0, dot1, dot2, dot3}
	MOVQ       N, CNT
	ANDQ       $3, CNT           // CNT = n % 4
	JZ         r4_update         // if CNT == 0 { goto r4_update }

r4_tail1:
	VMOVSD       (A_PTR), X9                   // X9 = {a[i][j], 0}
	VMOVHPD      (A_PTR)(LDA*1), X9, X9        // X9 = {a[i][j], a[i+1][j]}
	VMOVSD       (A_PTR)(LDA*2), X10           // X10 = {a[i+2][j], 0}
	VMOVHPD      (A_PTR)(LDA3*1), X10, X10     // X10 = {a[i+2][j], a[i+3][j]}
	VINSERTF128  $1, X10, Y9, Y9               // Y9 = a[i:i+4][j]
	VBROADCASTSD (X_PTR), XJ                   // XJ = x[j] in every lane
	VFMADD231PD  Y9, XJ, Y1                    // dot[0:4] += a[i:i+4][j] * x[j]
	ADDQ         $8, A_PTR                     // j++ in the rows
	ADDQ         $8, X_PTR                     // j++ in x
	DECQ         CNT
	JNZ          r4_tail1                      // } while --CNT > 0

r4_update:
	CMPQ       INC_Y, $8
	JNE        r4_ystrided       // if incY != 1 { goto r4_ystrided }

	VFMADD213PD (Y_PTR), ALPHA, Y1 // Y1 = alpha*dot + y[i:i+4]
	VMOVUPD     Y1, (Y_PTR)        // y[i:i+4] = Y1
	ADDQ        $32, Y_PTR         // Y_PTR = &y[i+4]
	JMP         r4_next

r4_ystrided:
	VMOVSD       (Y_PTR), X2                 // X2 = y[i*incY]
	VFMADD231SD  X1, ALPHA_X, X2             // X2 += alpha*dot0
	VMOVSD       X2, (Y_PTR)                 // y[i*incY] = X2
	VPERMILPD    $1, X1, X3                  // X3 = dot1
	VMOVSD       (Y_PTR)(INC_Y*1), X2        // X2 = y[(i+1)*incY]
	VFMADD231SD  X3, ALPHA_X, X2             // X2 += alpha*dot1
	VMOVSD       X2, (Y_PTR)(INC_Y*1)        // y[(i+1)*incY] = X2
	VEXTRACTF128 $1, Y1, X1                  // X1 = {dot2, dot3}
	VMOVSD       (Y_PTR)(INC_Y*2), X2        // X2 = y[(i+2)*incY]
	VFMADD231SD  X1, ALPHA_X, X2             // X2 += alpha*dot2
	VMOVSD       X2, (Y_PTR)(INC_Y*2)        // y[(i+2)*incY] = X2
	VPERMILPD    $1, X1, X3                  // X3 = dot3
	VMOVSD       (Y_PTR)(INC_Y3*1), X2       // X2 = y[(i+3)*incY]
	VFMADD231SD  X3, ALPHA_X, X2             // X2 += alpha*dot3
	VMOVSD       X2, (Y_PTR)(INC_Y3*1)       // y[(i+3)*incY] = X2
	LEAQ         (Y_PTR)(INC_Y*4), Y_PTR     // Y_PTR = &y[(i+4)*incY]

r4_next:
	LEAQ (A_ROW)(LDA*4), A_ROW // i += 4
	SUBQ $4, ROWS              // ROWS -= 4
	CMPQ ROWS, $4
	JGE  rows4                 // } while ROWS >= 4

rows1_start:
	TESTQ ROWS, ROWS
	JZ    end        // if ROWS == 0 { return }

rows1:
	VXORPD Y0, Y0, Y0    // columns 0-3 mod 8
	VXORPD Y1, Y1, Y1    // columns 4-7 mod 8
	MOVQ   A_ROW, A_PTR  // A_PTR = &a[i*lda]
	MOVQ   X_BASE, X_PTR // X_PTR = &x[0]
	MOVQ   N, CNT
	SHRQ   $3, CNT       // CNT = n / 8
	JZ     r1_tail4      // if CNT == 0 { goto r1_tail4 }

r1_loop8:
	VMOVUPD     (X_PTR), Y8       // Y8 = x[j:j+4]
	VMOVUPD     32(X_PTR), Y9     // Y9 = x[j+4:j+8]
	VFMADD231PD (A_PTR), Y8, Y0   // acc0 += a[i][j:j+4] * x[j:j+4]
	VFMADD231PD 32(A_PTR), Y9, Y1 // acc1 += a[i][j+4:j+8] * x[j+4:j+8]
	ADDQ        $64, A_PTR        // j += 8 in the row
	ADDQ        $64, X_PTR        // j += 8 in x
	DECQ        CNT
	JNZ         r1_loop8          // } while --CNT > 0

r1_tail4:
	TESTQ       $4, N
	JZ          r1_reduce       // if n%8 < 4 { goto r1_reduce }
	VMOVUPD     (X_PTR), Y8     // Y8 = x[j:j+4]
	VFMADD231PD (A_PTR), Y8, Y0 // acc0 += a[i][j:j+4] * x[j:j+4]
	ADDQ        $32, A_PTR      // j += 4 in the row
	ADDQ        $32, X_PTR      // j += 4 in x

r1_reduce:
	VADDPD       Y1, Y0, Y0          // acc0 += acc1
	VEXTRACTF128 $1, Y0, X1          // X1 = acc0[2:4]
	VADDPD       X1, X0, X0          // X0 = acc0[0:2] + acc0[2:4]
	VHADDPD      X0, X0, X0          // X0[0] = dot
	MOVQ         N, CNT
	ANDQ         $3, CNT             // CNT = n % 4
	JZ           r1_update           // if CNT == 0 { goto r1_update }

r1_tail1:
	VMOVSD      (X_PTR), XJ_X   // XJ = x[j]
	VFMADD231SD (A_PTR), XJ_X, X0 // dot += a[i][j] * x[j]
	ADDQ        $8, A_PTR       // j++ in the row
	ADDQ        $8, X_PTR       // j++ in x
	DECQ        CNT
	JNZ         r1_tail1        // } while --CNT > 0

r1_update:
	VMOVSD       (Y_PTR), X2         // X2 = y[i*incY]
	VFMADD231SD  X0, ALPHA_X, X2     // X2 += alpha*dot
	VMOVSD       X2, (Y_PTR)         // y[i*incY] = X2
	ADDQ         INC_Y, Y_PTR        // Y_PTR = &y[(i+1)*incY]
	ADDQ         LDA, A_ROW          // i++
	DECQ         ROWS
	JNZ          rows1               // } while --ROWS > 0

end:
	VZEROUPPER
	RET
