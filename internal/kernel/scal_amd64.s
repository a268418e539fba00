//go:build amd64 && !purego

#include "textflag.h"

#define X_PTR SI
#define LEN CX
#define TAIL BX
#define ALPHA Y15
#define ALPHA_X X15

// func scalAVX(alpha float64, x []float64)
//
// x *= alpha, 16 doubles per iteration, then 4 at a time, then scalars.
// A plain multiply, so the result is bit-identical to the Go loop.
TEXT ·scalAVX(SB), NOSPLIT, $0-32
	MOVQ         x_base+8(FP), X_PTR // X_PTR = &x[0]
	MOVQ         x_len+16(FP), LEN   // LEN = len(x)
	VBROADCASTSD alpha+0(FP), ALPHA  // ALPHA = {alpha, alpha, alpha, alpha}
	MOVQ         LEN, TAIL
	ANDQ         $15, TAIL           // TAIL = n % 16
	SHRQ         $4, LEN             // LEN = n / 16
	JZ           loop4_start         // if LEN == 0 { goto loop4_start }

loop16:
	VMULPD  (X_PTR), ALPHA, Y0   // Y0 = alpha * x[i:i+4]
	VMULPD  32(X_PTR), ALPHA, Y1 // Y1 = alpha * x[i+4:i+8]
	VMULPD  64(X_PTR), ALPHA, Y2 // Y2 = alpha * x[i+8:i+12]
	VMULPD  96(X_PTR), ALPHA, Y3 // Y3 = alpha * x[i+12:i+16]
	VMOVUPD Y0, (X_PTR)          // x[i:i+4] = Y0
	VMOVUPD Y1, 32(X_PTR)        // x[i+4:i+8] = Y1
	VMOVUPD Y2, 64(X_PTR)        // x[i+8:i+12] = Y2
	VMOVUPD Y3, 96(X_PTR)        // x[i+12:i+16] = Y3
	ADDQ    $128, X_PTR          // X_PTR = &x[i+16]
	DECQ    LEN
	JNZ     loop16               // } while --LEN > 0

loop4_start:
	MOVQ TAIL, LEN
	SHRQ $2, LEN    // LEN = TAIL / 4
	JZ   tail_start // if LEN == 0 { goto tail_start }

loop4:
	VMULPD  (X_PTR), ALPHA, Y0 // Y0 = alpha * x[i:i+4]
	VMOVUPD Y0, (X_PTR)        // x[i:i+4] = Y0
	ADDQ    $32, X_PTR         // X_PTR = &x[i+4]
	DECQ    LEN
	JNZ     loop4              // } while --LEN > 0

tail_start:
	ANDQ $3, TAIL // TAIL = n % 4
	JZ   end      // if TAIL == 0 { goto end }

tail:
	VMULSD (X_PTR), ALPHA_X, X0 // X0 = alpha * x[i]
	VMOVSD X0, (X_PTR)          // x[i] = X0
	ADDQ   $8, X_PTR            // X_PTR = &x[i+1]
	DECQ   TAIL
	JNZ    tail                 // } while --TAIL > 0

end:
	VZEROUPPER
	RET
