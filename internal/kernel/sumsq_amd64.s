//go:build amd64 && !purego

#include "textflag.h"

#define X_PTR SI
#define LEN CX
#define TAIL BX
#define SUM X0

// func sumSqAVX(x []float64) float64
//
// One load feeds each FMA here (against two in dot), so eight accumulators
// and 32 doubles per iteration keep both FMA ports busy.
TEXT ·sumSqAVX(SB), NOSPLIT, $0-32
	MOVQ   x_base+0(FP), X_PTR // X_PTR = &x[0]
	MOVQ   x_len+8(FP), LEN    // LEN = len(x)
	VXORPD Y0, Y0, Y0          // acc0 = 0
	VXORPD Y1, Y1, Y1          // acc1 = 0
	VXORPD Y2, Y2, Y2          // acc2 = 0
	VXORPD Y3, Y3, Y3          // acc3 = 0
	VXORPD Y4, Y4, Y4          // acc4 = 0
	VXORPD Y5, Y5, Y5          // acc5 = 0
	VXORPD Y6, Y6, Y6          // acc6 = 0
	VXORPD Y7, Y7, Y7          // acc7 = 0
	MOVQ   LEN, TAIL
	ANDQ   $31, TAIL           // TAIL = n % 32
	SHRQ   $5, LEN             // LEN = n / 32
	JZ     loop4_start         // if LEN == 0 { goto loop4_start }

loop32:
	VMOVUPD     (X_PTR), Y8      // Y8 = x[i:i+4]
	VMOVUPD     32(X_PTR), Y9    // Y9 = x[i+4:i+8]
	VMOVUPD     64(X_PTR), Y10   // Y10 = x[i+8:i+12]
	VMOVUPD     96(X_PTR), Y11   // Y11 = x[i+12:i+16]
	VMOVUPD     128(X_PTR), Y12  // Y12 = x[i+16:i+20]
	VMOVUPD     160(X_PTR), Y13  // Y13 = x[i+20:i+24]
	VMOVUPD     192(X_PTR), Y14  // Y14 = x[i+24:i+28]
	VMOVUPD     224(X_PTR), Y15  // Y15 = x[i+28:i+32]
	VFMADD231PD Y8, Y8, Y0       // acc0 += x[i:i+4]²
	VFMADD231PD Y9, Y9, Y1       // acc1 += x[i+4:i+8]²
	VFMADD231PD Y10, Y10, Y2     // acc2 += x[i+8:i+12]²
	VFMADD231PD Y11, Y11, Y3     // acc3 += x[i+12:i+16]²
	VFMADD231PD Y12, Y12, Y4     // acc4 += x[i+16:i+20]²
	VFMADD231PD Y13, Y13, Y5     // acc5 += x[i+20:i+24]²
	VFMADD231PD Y14, Y14, Y6     // acc6 += x[i+24:i+28]²
	VFMADD231PD Y15, Y15, Y7     // acc7 += x[i+28:i+32]²
	ADDQ        $256, X_PTR      // X_PTR = &x[i+32]
	DECQ        LEN
	JNZ         loop32           // } while --LEN > 0
	VADDPD      Y4, Y0, Y0       // acc0 += acc4
	VADDPD      Y5, Y1, Y1       // acc1 += acc5
	VADDPD      Y6, Y2, Y2       // acc2 += acc6
	VADDPD      Y7, Y3, Y3       // acc3 += acc7
	VADDPD      Y1, Y0, Y0       // acc0 += acc1
	VADDPD      Y3, Y2, Y2       // acc2 += acc3
	VADDPD      Y2, Y0, Y0       // acc0 += acc2

loop4_start:
	MOVQ TAIL, LEN
	SHRQ $2, LEN   // LEN = TAIL / 4
	JZ   reduce    // if LEN == 0 { goto reduce }

loop4:
	VMOVUPD     (X_PTR), Y8 // Y8 = x[i:i+4]
	VFMADD231PD Y8, Y8, Y0  // acc0 += x[i:i+4]²
	ADDQ        $32, X_PTR  // X_PTR = &x[i+4]
	DECQ        LEN
	JNZ         loop4       // } while --LEN > 0

reduce:
	VEXTRACTF128 $1, Y0, X1    // X1 = acc0[2:4]
	VADDPD       X1, SUM, SUM  // sum[0:2] = acc0[0:2] + acc0[2:4]
	VHADDPD      SUM, SUM, SUM // sum[0] = sum[0] + sum[1]
	ANDQ         $3, TAIL      // TAIL = n % 4
	JZ           end           // if TAIL == 0 { goto end }

loop1:
	VMOVSD      (X_PTR), X8  // X8 = x[i]
	VFMADD231SD X8, X8, SUM  // sum += x[i]²
	ADDQ        $8, X_PTR    // X_PTR = &x[i+1]
	DECQ        TAIL
	JNZ         loop1        // } while --TAIL > 0

end:
	VMOVSD     SUM, ret+24(FP) // return sum
	VZEROUPPER
	RET
