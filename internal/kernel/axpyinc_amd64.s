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
#define ALPHA X15

// func axpyIncAVX(alpha float64, x, y []float64, n, incX, incY int)
//
// Scalar FMA loop unrolled by 4. Each element is loaded, updated and stored
// before the next, in order of i, so the result is that of the reference
// loop even when x and y overlap.
TEXT ·axpyIncAVX(SB), NOSPLIT, $0-80
	MOVQ   x_base+8(FP), X_PTR        // X_PTR = &x[0]
	MOVQ   y_base+32(FP), Y_PTR       // Y_PTR = &y[0]
	MOVQ   n+56(FP), LEN              // LEN = n
	MOVQ   incX+64(FP), INC_X
	SHLQ   $3, INC_X                  // INC_X = incX * sizeof(float64)
	MOVQ   incY+72(FP), INC_Y
	SHLQ   $3, INC_Y                  // INC_Y = incY * sizeof(float64)
	LEAQ   (INC_X)(INC_X*2), INC_X3   // INC_X3 = 3 * INC_X
	LEAQ   (INC_Y)(INC_Y*2), INC_Y3   // INC_Y3 = 3 * INC_Y
	VMOVSD alpha+0(FP), ALPHA         // ALPHA = alpha
	MOVQ   LEN, TAIL
	ANDQ   $3, TAIL                   // TAIL = n % 4
	SHRQ   $2, LEN                    // LEN = n / 4
	JZ     tail_start                 // if LEN == 0 { goto tail_start }

loop:
	VMOVSD      (X_PTR), X0                   // X0 = x[i]
	VFMADD213SD (Y_PTR), ALPHA, X0            // X0 = alpha*x[i] + y[j]
	VMOVSD      X0, (Y_PTR)                   // y[j] = X0
	VMOVSD      (X_PTR)(INC_X*1), X1          // X1 = x[i+incX]
	VFMADD213SD (Y_PTR)(INC_Y*1), ALPHA, X1   // X1 = alpha*x[i+incX] + y[j+incY]
	VMOVSD      X1, (Y_PTR)(INC_Y*1)          // y[j+incY] = X1
	VMOVSD      (X_PTR)(INC_X*2), X2          // X2 = x[i+2*incX]
	VFMADD213SD (Y_PTR)(INC_Y*2), ALPHA, X2   // X2 = alpha*x[i+2*incX] + y[j+2*incY]
	VMOVSD      X2, (Y_PTR)(INC_Y*2)          // y[j+2*incY] = X2
	VMOVSD      (X_PTR)(INC_X3*1), X3         // X3 = x[i+3*incX]
	VFMADD213SD (Y_PTR)(INC_Y3*1), ALPHA, X3  // X3 = alpha*x[i+3*incX] + y[j+3*incY]
	VMOVSD      X3, (Y_PTR)(INC_Y3*1)         // y[j+3*incY] = X3
	LEAQ        (X_PTR)(INC_X*4), X_PTR       // i += 4*incX
	LEAQ        (Y_PTR)(INC_Y*4), Y_PTR       // j += 4*incY
	DECQ        LEN
	JNZ         loop                          // } while --LEN > 0

tail_start:
	TESTQ TAIL, TAIL
	JZ    end        // if TAIL == 0 { goto end }

tail:
	VMOVSD      (X_PTR), X0        // X0 = x[i]
	VFMADD213SD (Y_PTR), ALPHA, X0 // X0 = alpha*x[i] + y[j]
	VMOVSD      X0, (Y_PTR)        // y[j] = X0
	ADDQ        INC_X, X_PTR       // i += incX
	ADDQ        INC_Y, Y_PTR       // j += incY
	DECQ        TAIL
	JNZ         tail               // } while --TAIL > 0

end:
	VZEROUPPER
	RET
