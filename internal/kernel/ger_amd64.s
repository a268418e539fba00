//go:build amd64 && !purego

#include "textflag.h"

#define A_ROW R8
#define LDA R9
#define X_PTR R10
#define INC_X R11
#define Y_BASE DI
#define ROWS BX
#define N CX
#define A_PTR SI
#define Y_PTR DX
#define CNT AX
#define ALPHA Y15
#define T Y8
#define T_X X8

// func gerAVX(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int)
//
// a[i*lda+j] += (alpha*x[i*incX]) * y[j]: per row an axpy of y into the row,
// 16 doubles per iteration, then 4, then scalars; y stays in L1 across rows.
TEXT ·gerAVX(SB), NOSPLIT, $0-112
	MOVQ         x_base+24(FP), X_PTR  // X_PTR = &x[0]
	MOVQ         incX+48(FP), INC_X
	SHLQ         $3, INC_X             // INC_X = incX * sizeof(float64)
	MOVQ         y_base+56(FP), Y_BASE // Y_BASE = &y[0]
	MOVQ         a_base+80(FP), A_ROW  // A_ROW = &a[0]
	MOVQ         lda+104(FP), LDA
	SHLQ         $3, LDA               // LDA = lda * sizeof(float64)
	MOVQ         m+0(FP), ROWS         // ROWS = m
	MOVQ         n+8(FP), N            // N = n
	VBROADCASTSD alpha+16(FP), ALPHA   // ALPHA = {alpha, alpha, alpha, alpha}
	TESTQ        ROWS, ROWS
	JZ           end                   // if m == 0 { return }

row:
	VBROADCASTSD (X_PTR), T    // T = x[i]
	VMULPD       ALPHA, T, T   // t = alpha*x[i]
	MOVQ         A_ROW, A_PTR  // A_PTR = &a[i*lda]
	MOVQ         Y_BASE, Y_PTR // Y_PTR = &y[0]
	MOVQ         N, CNT
	SHRQ         $4, CNT       // CNT = n / 16
	JZ           tail4_start   // if CNT == 0 { goto tail4_start }

loop16:
	VMOVUPD     (Y_PTR), Y0       // Y0 = y[j:j+4]
	VMOVUPD     32(Y_PTR), Y1     // Y1 = y[j+4:j+8]
	VMOVUPD     64(Y_PTR), Y2     // Y2 = y[j+8:j+12]
	VMOVUPD     96(Y_PTR), Y3     // Y3 = y[j+12:j+16]
	VFMADD213PD (A_PTR), T, Y0    // Y0 = t*y[j:j+4] + a[i][j:j+4]
	VFMADD213PD 32(A_PTR), T, Y1  // Y1 = t*y[j+4:j+8] + a[i][j+4:j+8]
	VFMADD213PD 64(A_PTR), T, Y2  // Y2 = t*y[j+8:j+12] + a[i][j+8:j+12]
	VFMADD213PD 96(A_PTR), T, Y3  // Y3 = t*y[j+12:j+16] + a[i][j+12:j+16]
	VMOVUPD     Y0, (A_PTR)       // a[i][j:j+4] = Y0
	VMOVUPD     Y1, 32(A_PTR)     // a[i][j+4:j+8] = Y1
	VMOVUPD     Y2, 64(A_PTR)     // a[i][j+8:j+12] = Y2
	VMOVUPD     Y3, 96(A_PTR)     // a[i][j+12:j+16] = Y3
	ADDQ        $128, A_PTR       // j += 16 in the row
	ADDQ        $128, Y_PTR       // j += 16 in y
	DECQ        CNT
	JNZ         loop16            // } while --CNT > 0

tail4_start:
	MOVQ N, CNT
	ANDQ $15, CNT
	SHRQ $2, CNT     // CNT = (n % 16) / 4
	JZ   tail1_start // if CNT == 0 { goto tail1_start }

loop4:
	VMOVUPD     (Y_PTR), Y0    // Y0 = y[j:j+4]
	VFMADD213PD (A_PTR), T, Y0 // Y0 = t*y[j:j+4] + a[i][j:j+4]
	VMOVUPD     Y0, (A_PTR)    // a[i][j:j+4] = Y0
	ADDQ        $32, A_PTR     // j += 4 in the row
	ADDQ        $32, Y_PTR     // j += 4 in y
	DECQ        CNT
	JNZ         loop4          // } while --CNT > 0

tail1_start:
	MOVQ N, CNT
	ANDQ $3, CNT  // CNT = n % 4
	JZ   next_row // if CNT == 0 { goto next_row }

loop1:
	VMOVSD      (Y_PTR), X0      // X0 = y[j]
	VFMADD213SD (A_PTR), T_X, X0 // X0 = t*y[j] + a[i][j]
	VMOVSD      X0, (A_PTR)      // a[i][j] = X0
	ADDQ        $8, A_PTR        // j++ in the row
	ADDQ        $8, Y_PTR        // j++ in y
	DECQ        CNT
	JNZ         loop1            // } while --CNT > 0

next_row:
	ADDQ LDA, A_ROW   // i++ in a
	ADDQ INC_X, X_PTR // i++ in x
	DECQ ROWS
	JNZ  row          // } while --ROWS > 0

end:
	VZEROUPPER
	RET
