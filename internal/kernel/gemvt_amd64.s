//go:build amd64 && !purego

#include "textflag.h"

#define A_ROW R8
#define LDA R9
#define LDA3 R10
#define X_PTR R11
#define INC_X R12
#define INC_X3 R13
#define Y_BASE DI
#define ROWS BX
#define N CX
#define A_PTR SI
#define Y_PTR DX
#define CNT AX
#define ALPHA Y15
#define T0 Y8
#define T1 Y9
#define T2 Y10
#define T3 Y11
#define T0_X X8
#define T1_X X9
#define T2_X X10
#define T3_X X11

// func gemvTAVX(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, y []float64)
//
// y[j] += Σ_i (alpha*x[i*incX]) * a[i*lda+j]: an axpy of each row into y,
// four rows at a time so that y is loaded and stored once per four rows.
// Within a block the rows are added in order, one FMA each, as in the
// reference loop. 16 columns per iteration give four independent chains.
TEXT ·gemvTAVX(SB), NOSPLIT, $0-112
	MOVQ         a_base+24(FP), A_ROW      // A_ROW = &a[0]
	MOVQ         lda+48(FP), LDA
	SHLQ         $3, LDA                   // LDA = lda * sizeof(float64)
	LEAQ         (LDA)(LDA*2), LDA3        // LDA3 = 3 * LDA
	MOVQ         x_base+56(FP), X_PTR      // X_PTR = &x[0]
	MOVQ         incX+80(FP), INC_X
	SHLQ         $3, INC_X                 // INC_X = incX * sizeof(float64)
	LEAQ         (INC_X)(INC_X*2), INC_X3  // INC_X3 = 3 * INC_X
	MOVQ         y_base+88(FP), Y_BASE     // Y_BASE = &y[0]
	MOVQ         m+0(FP), ROWS             // ROWS = m
	MOVQ         n+8(FP), N                // N = n
	VBROADCASTSD alpha+16(FP), ALPHA       // ALPHA = {alpha, alpha, alpha, alpha}
	CMPQ         ROWS, $4
	JLT          rows1_start               // if m < 4 { goto rows1_start }

rows4:
	VBROADCASTSD (X_PTR), T0            // T0 = x[i]
	VMULPD       ALPHA, T0, T0          // t0 = alpha*x[i]
	VBROADCASTSD (X_PTR)(INC_X*1), T1   // T1 = x[i+1]
	VMULPD       ALPHA, T1, T1          // t1 = alpha*x[i+1]
	VBROADCASTSD (X_PTR)(INC_X*2), T2   // T2 = x[i+2]
	VMULPD       ALPHA, T2, T2          // t2 = alpha*x[i+2]
	VBROADCASTSD (X_PTR)(INC_X3*1), T3  // T3 = x[i+3]
	VMULPD       ALPHA, T3, T3          // t3 = alpha*x[i+3]
	MOVQ         A_ROW, A_PTR           // A_PTR = &a[i*lda]
	MOVQ         Y_BASE, Y_PTR          // Y_PTR = &y[0]
	MOVQ         N, CNT
	SHRQ         $4, CNT                // CNT = n / 16
	JZ           r4_tail4_start         // if CNT == 0 { goto r4_tail4_start }

r4_loop16:
	VMOVUPD     (Y_PTR), Y0                  // Y0 = y[j:j+4]
	VMOVUPD     32(Y_PTR), Y1                // Y1 = y[j+4:j+8]
	VMOVUPD     64(Y_PTR), Y2                // Y2 = y[j+8:j+12]
	VMOVUPD     96(Y_PTR), Y3                // Y3 = y[j+12:j+16]
	VFMADD231PD (A_PTR), T0, Y0              // y[j:j+4] += t0 * a[i][j:j+4]
	VFMADD231PD 32(A_PTR), T0, Y1            // y[j+4:j+8] += t0 * a[i][j+4:j+8]
	VFMADD231PD 64(A_PTR), T0, Y2            // y[j+8:j+12] += t0 * a[i][j+8:j+12]
	VFMADD231PD 96(A_PTR), T0, Y3            // y[j+12:j+16] += t0 * a[i][j+12:j+16]
	VFMADD231PD (A_PTR)(LDA*1), T1, Y0       // y[j:j+4] += t1 * a[i+1][j:j+4]
	VFMADD231PD 32(A_PTR)(LDA*1), T1, Y1     // ...
	VFMADD231PD 64(A_PTR)(LDA*1), T1, Y2
	VFMADD231PD 96(A_PTR)(LDA*1), T1, Y3
	VFMADD231PD (A_PTR)(LDA*2), T2, Y0       // y[j:j+4] += t2 * a[i+2][j:j+4]
	VFMADD231PD 32(A_PTR)(LDA*2), T2, Y1     // ...
	VFMADD231PD 64(A_PTR)(LDA*2), T2, Y2
	VFMADD231PD 96(A_PTR)(LDA*2), T2, Y3
	VFMADD231PD (A_PTR)(LDA3*1), T3, Y0      // y[j:j+4] += t3 * a[i+3][j:j+4]
	VFMADD231PD 32(A_PTR)(LDA3*1), T3, Y1    // ...
	VFMADD231PD 64(A_PTR)(LDA3*1), T3, Y2
	VFMADD231PD 96(A_PTR)(LDA3*1), T3, Y3
	VMOVUPD     Y0, (Y_PTR)                  // y[j:j+4] = Y0
	VMOVUPD     Y1, 32(Y_PTR)                // y[j+4:j+8] = Y1
	VMOVUPD     Y2, 64(Y_PTR)                // y[j+8:j+12] = Y2
	VMOVUPD     Y3, 96(Y_PTR)                // y[j+12:j+16] = Y3
	ADDQ        $128, A_PTR                  // j += 16 in the rows
	ADDQ        $128, Y_PTR                  // j += 16 in y
	DECQ        CNT
	JNZ         r4_loop16                    // } while --CNT > 0

r4_tail4_start:
	MOVQ N, CNT
	ANDQ $15, CNT
	SHRQ $2, CNT        // CNT = (n % 16) / 4
	JZ   r4_tail1_start // if CNT == 0 { goto r4_tail1_start }

r4_loop4:
	VMOVUPD     (Y_PTR), Y0             // Y0 = y[j:j+4]
	VFMADD231PD (A_PTR), T0, Y0         // y[j:j+4] += t0 * a[i][j:j+4]
	VFMADD231PD (A_PTR)(LDA*1), T1, Y0  // y[j:j+4] += t1 * a[i+1][j:j+4]
	VFMADD231PD (A_PTR)(LDA*2), T2, Y0  // y[j:j+4] += t2 * a[i+2][j:j+4]
	VFMADD231PD (A_PTR)(LDA3*1), T3, Y0 // y[j:j+4] += t3 * a[i+3][j:j+4]
	VMOVUPD     Y0, (Y_PTR)             // y[j:j+4] = Y0
	ADDQ        $32, A_PTR              // j += 4 in the rows
	ADDQ        $32, Y_PTR              // j += 4 in y
	DECQ        CNT
	JNZ         r4_loop4                // } while --CNT > 0

r4_tail1_start:
	MOVQ N, CNT
	ANDQ $3, CNT // CNT = n % 4
	JZ   r4_next // if CNT == 0 { goto r4_next }

r4_loop1:
	VMOVSD      (Y_PTR), X0               // X0 = y[j]
	VFMADD231SD (A_PTR), T0_X, X0         // y[j] += t0 * a[i][j]
	VFMADD231SD (A_PTR)(LDA*1), T1_X, X0  // y[j] += t1 * a[i+1][j]
	VFMADD231SD (A_PTR)(LDA*2), T2_X, X0  // y[j] += t2 * a[i+2][j]
	VFMADD231SD (A_PTR)(LDA3*1), T3_X, X0 // y[j] += t3 * a[i+3][j]
	VMOVSD      X0, (Y_PTR)               // y[j] = X0
	ADDQ        $8, A_PTR                 // j++ in the rows
	ADDQ        $8, Y_PTR                 // j++ in y
	DECQ        CNT
	JNZ         r4_loop1                  // } while --CNT > 0

r4_next:
	LEAQ (A_ROW)(LDA*4), A_ROW   // i += 4 in a
	LEAQ (X_PTR)(INC_X*4), X_PTR // i += 4 in x
	SUBQ $4, ROWS                // ROWS -= 4
	CMPQ ROWS, $4
	JGE  rows4                   // } while ROWS >= 4

rows1_start:
	TESTQ ROWS, ROWS
	JZ    end        // if ROWS == 0 { return }

rows1:
	VBROADCASTSD (X_PTR), T0   // T0 = x[i]
	VMULPD       ALPHA, T0, T0 // t0 = alpha*x[i]
	MOVQ         A_ROW, A_PTR  // A_PTR = &a[i*lda]
	MOVQ         Y_BASE, Y_PTR // Y_PTR = &y[0]
	MOVQ         N, CNT
	SHRQ         $4, CNT       // CNT = n / 16
	JZ           r1_tail4_start

r1_loop16:
	VMOVUPD     (Y_PTR), Y0       // Y0 = y[j:j+4]
	VMOVUPD     32(Y_PTR), Y1     // Y1 = y[j+4:j+8]
	VMOVUPD     64(Y_PTR), Y2     // Y2 = y[j+8:j+12]
	VMOVUPD     96(Y_PTR), Y3     // Y3 = y[j+12:j+16]
	VFMADD231PD (A_PTR), T0, Y0   // y[j:j+4] += t0 * a[i][j:j+4]
	VFMADD231PD 32(A_PTR), T0, Y1 // y[j+4:j+8] += t0 * a[i][j+4:j+8]
	VFMADD231PD 64(A_PTR), T0, Y2 // y[j+8:j+12] += t0 * a[i][j+8:j+12]
	VFMADD231PD 96(A_PTR), T0, Y3 // y[j+12:j+16] += t0 * a[i][j+12:j+16]
	VMOVUPD     Y0, (Y_PTR)       // y[j:j+4] = Y0
	VMOVUPD     Y1, 32(Y_PTR)     // y[j+4:j+8] = Y1
	VMOVUPD     Y2, 64(Y_PTR)     // y[j+8:j+12] = Y2
	VMOVUPD     Y3, 96(Y_PTR)     // y[j+12:j+16] = Y3
	ADDQ        $128, A_PTR       // j += 16 in the row
	ADDQ        $128, Y_PTR       // j += 16 in y
	DECQ        CNT
	JNZ         r1_loop16         // } while --CNT > 0

r1_tail4_start:
	MOVQ N, CNT
	ANDQ $15, CNT
	SHRQ $2, CNT        // CNT = (n % 16) / 4
	JZ   r1_tail1_start // if CNT == 0 { goto r1_tail1_start }

r1_loop4:
	VMOVUPD     (Y_PTR), Y0     // Y0 = y[j:j+4]
	VFMADD231PD (A_PTR), T0, Y0 // y[j:j+4] += t0 * a[i][j:j+4]
	VMOVUPD     Y0, (Y_PTR)     // y[j:j+4] = Y0
	ADDQ        $32, A_PTR      // j += 4 in the row
	ADDQ        $32, Y_PTR      // j += 4 in y
	DECQ        CNT
	JNZ         r1_loop4        // } while --CNT > 0

r1_tail1_start:
	MOVQ N, CNT
	ANDQ $3, CNT // CNT = n % 4
	JZ   r1_next // if CNT == 0 { goto r1_next }

r1_loop1:
	VMOVSD      (Y_PTR), X0       // X0 = y[j]
	VFMADD231SD (A_PTR), T0_X, X0 // y[j] += t0 * a[i][j]
	VMOVSD      X0, (Y_PTR)       // y[j] = X0
	ADDQ        $8, A_PTR         // j++ in the row
	ADDQ        $8, Y_PTR         // j++ in y
	DECQ        CNT
	JNZ         r1_loop1          // } while --CNT > 0

r1_next:
	ADDQ LDA, A_ROW   // i++ in a
	ADDQ INC_X, X_PTR // i++ in x
	DECQ ROWS
	JNZ  rows1        // } while --ROWS > 0

end:
	VZEROUPPER
	RET
