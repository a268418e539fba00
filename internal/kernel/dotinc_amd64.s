//go:build amd64 && !purego

#include "textflag.h"

#define X_PTR SI
#define Y_PTR DI
#define LEN CX
#define TAIL BX
#define INC_X R8
#define INC_Y R9
#define INC_X3 R10
#define INC_Y3 R11
#define SUM X0

// func dotIncAVX(x, y []float64, n, incX, incY int) float64
//
// Strided elements cannot be loaded as vectors, so this is a scalar FMA
// loop unrolled by 4 with four accumulators to hide the FMA latency.
TEXT ·dotIncAVX(SB), NOSPLIT, $0-80
	MOVQ   x_base+0(FP), X_PTR        // X_PTR = &x[0]
	MOVQ   y_base+24(FP), Y_PTR       // Y_PTR = &y[0]
	MOVQ   n+48(FP), LEN              // LEN = n
	MOVQ   incX+56(FP), INC_X
	SHLQ   $3, INC_X                  // INC_X = incX * sizeof(float64)
	MOVQ   incY+64(FP), INC_Y
	SHLQ   $3, INC_Y                  // INC_Y = incY * sizeof(float64)
	LEAQ   (INC_X)(INC_X*2), INC_X3   // INC_X3 = 3 * INC_X
	LEAQ   (INC_Y)(INC_Y*2), INC_Y3   // INC_Y3 = 3 * INC_Y
	VXORPD X0, X0, X0                 // sum0 = 0
	VXORPD X1, X1, X1                 // sum1 = 0
	VXORPD X2, X2, X2                 // sum2 = 0
	VXORPD X3, X3, X3                 // sum3 = 0
	MOVQ   LEN, TAIL
	ANDQ   $3, TAIL                   // TAIL = n % 4
	SHRQ   $2, LEN                    // LEN = n / 4
	JZ     tail_start                 // if LEN == 0 { goto tail_start }

loop:
	VMOVSD      (X_PTR), X4                  // X4 = x[i]
	VMOVSD      (X_PTR)(INC_X*1), X5         // X5 = x[i+incX]
	VMOVSD      (X_PTR)(INC_X*2), X6         // X6 = x[i+2*incX]
	VMOVSD      (X_PTR)(INC_X3*1), X7        // X7 = x[i+3*incX]
	VFMADD231SD (Y_PTR), X4, X0              // sum0 += x[i] * y[j]
	VFMADD231SD (Y_PTR)(INC_Y*1), X5, X1     // sum1 += x[i+incX] * y[j+incY]
	VFMADD231SD (Y_PTR)(INC_Y*2), X6, X2     // sum2 += x[i+2*incX] * y[j+2*incY]
	VFMADD231SD (Y_PTR)(INC_Y3*1), X7, X3    // sum3 += x[i+3*incX] * y[j+3*incY]
	LEAQ        (X_PTR)(INC_X*4), X_PTR      // i += 4*incX
	LEAQ        (Y_PTR)(INC_Y*4), Y_PTR      // j += 4*incY
	DECQ        LEN
	JNZ         loop                         // } while --LEN > 0
	VADDSD      X1, X0, X0                   // sum0 += sum1
	VADDSD      X3, X2, X2                   // sum2 += sum3
	VADDSD      X2, X0, X0                   // sum0 += sum2

tail_start:
	TESTQ TAIL, TAIL
	JZ    end        // if TAIL == 0 { goto end }

tail:
	VMOVSD      (X_PTR), X4     // X4 = x[i]
	VFMADD231SD (Y_PTR), X4, X0 // sum0 += x[i] * y[j]
	ADDQ        INC_X, X_PTR    // i += incX
	ADDQ        INC_Y, Y_PTR    // j += incY
	DECQ        TAIL
	JNZ         tail            // } while --TAIL > 0

end:
	VMOVSD     SUM, ret+72(FP) // return sum0
	VZEROUPPER
	RET
