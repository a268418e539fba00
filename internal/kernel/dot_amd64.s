//go:build amd64 && !purego

#include "textflag.h"

#define X_PTR SI
#define Y_PTR DI
#define LEN CX
#define TAIL BX
#define ACC0 Y0
#define ACC1 Y1
#define ACC2 Y2
#define ACC3 Y3
#define SUM X0

// func dotAVX(x, y []float64) float64
//
// Four YMM accumulators, 16 doubles per iteration, so that four FMA chains
// are in flight; then one vector of 4 at a time; then scalars.
TEXT ·dotAVX(SB), NOSPLIT, $0-56
	MOVQ   x_base+0(FP), X_PTR  // X_PTR = &x[0]
	MOVQ   y_base+24(FP), Y_PTR // Y_PTR = &y[0]
	MOVQ   x_len+8(FP), LEN     // LEN = len(x)
	VXORPD ACC0, ACC0, ACC0     // acc0 = 0
	VXORPD ACC1, ACC1, ACC1     // acc1 = 0
	VXORPD ACC2, ACC2, ACC2     // acc2 = 0
	VXORPD ACC3, ACC3, ACC3     // acc3 = 0
	MOVQ   LEN, TAIL
	ANDQ   $15, TAIL            // TAIL = n % 16
	SHRQ   $4, LEN              // LEN = n / 16
	JZ     loop4_start          // if LEN == 0 { goto loop4_start }

loop16:
	VMOVUPD     (X_PTR), Y4              // Y4 = x[i:i+4]
	VMOVUPD     32(X_PTR), Y5            // Y5 = x[i+4:i+8]
	VMOVUPD     64(X_PTR), Y6            // Y6 = x[i+8:i+12]
	VMOVUPD     96(X_PTR), Y7            // Y7 = x[i+12:i+16]
	VFMADD231PD (Y_PTR), Y4, ACC0        // acc0 += x[i:i+4] * y[i:i+4]
	VFMADD231PD 32(Y_PTR), Y5, ACC1      // acc1 += x[i+4:i+8] * y[i+4:i+8]
	VFMADD231PD 64(Y_PTR), Y6, ACC2      // acc2 += x[i+8:i+12] * y[i+8:i+12]
	VFMADD231PD 96(Y_PTR), Y7, ACC3      // acc3 += x[i+12:i+16] * y[i+12:i+16]
	ADDQ        $128, X_PTR              // X_PTR = &x[i+16]
	ADDQ        $128, Y_PTR              // Y_PTR = &y[i+16]
	DECQ        LEN
	JNZ         loop16                   // } while --LEN > 0
	VADDPD      ACC1, ACC0, ACC0         // acc0 += acc1
	VADDPD      ACC3, ACC2, ACC2         // acc2 += acc3
	VADDPD      ACC2, ACC0, ACC0         // acc0 += acc2

loop4_start:
	MOVQ TAIL, LEN
	SHRQ $2, LEN   // LEN = TAIL / 4
	JZ   reduce    // if LEN == 0 { goto reduce }

loop4:
	VMOVUPD     (X_PTR), Y4       // Y4 = x[i:i+4]
	VFMADD231PD (Y_PTR), Y4, ACC0 // acc0 += x[i:i+4] * y[i:i+4]
	ADDQ        $32, X_PTR        // X_PTR = &x[i+4]
	ADDQ        $32, Y_PTR        // Y_PTR = &y[i+4]
	DECQ        LEN
	JNZ         loop4             // } while --LEN > 0

reduce:
	VEXTRACTF128 $1, ACC0, X1 // X1 = acc0[2:4]
	VADDPD       X1, SUM, SUM // sum[0:2] = acc0[0:2] + acc0[2:4]
	VHADDPD      SUM, SUM, SUM // sum[0] = sum[0] + sum[1]
	ANDQ         $3, TAIL      // TAIL = n % 4
	JZ           end           // if TAIL == 0 { goto end }

loop1:
	VMOVSD      (X_PTR), X4       // X4 = x[i]
	VFMADD231SD (Y_PTR), X4, SUM  // sum += x[i] * y[i]
	ADDQ        $8, X_PTR         // X_PTR = &x[i+1]
	ADDQ        $8, Y_PTR         // Y_PTR = &y[i+1]
	DECQ        TAIL
	JNZ         loop1             // } while --TAIL > 0

end:
	VMOVSD     SUM, ret+48(FP) // return sum
	VZEROUPPER
	RET
