//go:build amd64 && !purego

#include "textflag.h"

#define X_PTR SI
#define LEN CX
#define TAIL BX
#define IDX AX
#define MASK DX
#define ABS Y15
#define ABS_X X15
#define MAX Y14
#define MAX_X X14

// func iamaxAVX(x []float64) int
//
// Two passes. The first finds m = max|x[i]| with VMAXPD, seeded with |x[0]|
// (the caller guarantees len(x) ≥ 1 and x[0] not NaN). VMAXPD returns its
// second source when either is NaN, so with the running maximum as second
// source a NaN element is passed over, as in gonum's Idamax. The second pass
// returns the first i with |x[i]| == m, which is the first index of the
// maximum: the reference loop moves only on a strictly greater value.
TEXT ·iamaxAVX(SB), NOSPLIT, $0-32
	MOVQ         x_base+0(FP), X_PTR // X_PTR = &x[0]
	MOVQ         x_len+8(FP), LEN    // LEN = len(x)
	MOVQ         $0x7fffffffffffffff, DX
	MOVQ         DX, ABS_X
	VPBROADCASTQ ABS_X, ABS          // ABS = sign-clearing mask in every lane
	VBROADCASTSD (X_PTR), Y0
	VANDPD       ABS, Y0, Y0         // m0 = |x[0]| in every lane
	VMOVAPD      Y0, Y1              // m1 = m0
	VMOVAPD      Y0, Y2              // m2 = m0
	VMOVAPD      Y0, Y3              // m3 = m0
	MOVQ         LEN, TAIL
	ANDQ         $15, TAIL           // TAIL = n % 16
	SHRQ         $4, LEN             // LEN = n / 16
	JZ           max4_start          // if LEN == 0 { goto max4_start }

max16:
	VANDPD (X_PTR), ABS, Y4    // Y4 = |x[i:i+4]|
	VANDPD 32(X_PTR), ABS, Y5  // Y5 = |x[i+4:i+8]|
	VANDPD 64(X_PTR), ABS, Y6  // Y6 = |x[i+8:i+12]|
	VANDPD 96(X_PTR), ABS, Y7  // Y7 = |x[i+12:i+16]|
	VMAXPD Y0, Y4, Y0          // m0 = Y4 > m0 ? Y4 : m0 (NaN keeps m0)
	VMAXPD Y1, Y5, Y1          // m1 = Y5 > m1 ? Y5 : m1
	VMAXPD Y2, Y6, Y2          // m2 = Y6 > m2 ? Y6 : m2
	VMAXPD Y3, Y7, Y3          // m3 = Y7 > m3 ? Y7 : m3
	ADDQ   $128, X_PTR         // X_PTR = &x[i+16]
	DECQ   LEN
	JNZ    max16               // } while --LEN > 0
	VMAXPD Y1, Y0, Y0          // m0 = max(m0, m1)
	VMAXPD Y3, Y2, Y2          // m2 = max(m2, m3)
	VMAXPD Y2, Y0, Y0          // m0 = max(m0, m2)

max4_start:
	MOVQ TAIL, LEN
	SHRQ $2, LEN    // LEN = TAIL / 4
	JZ   max_reduce // if LEN == 0 { goto max_reduce }

max4:
	VANDPD (X_PTR), ABS, Y4 // Y4 = |x[i:i+4]|
	VMAXPD Y0, Y4, Y0       // m0 = Y4 > m0 ? Y4 : m0
	ADDQ   $32, X_PTR       // X_PTR = &x[i+4]
	DECQ   LEN
	JNZ    max4             // } while --LEN > 0

max_reduce:
	VEXTRACTF128 $1, Y0, X1 // X1 = m0[2:4]
	VMAXPD       X1, X0, X0 // m0[0:2] = max(m0[0:2], m0[2:4])
	VPERMILPD    $1, X0, X1 // X1[0] = m0[1]
	VMAXSD       X1, X0, X0 // m0[0] = max(m0[0], m0[1])
	ANDQ         $3, TAIL   // TAIL = n % 4
	JZ           find_start // if TAIL == 0 { goto find_start }

max1:
	VMOVSD (X_PTR), X4        // X4 = x[i]
	VANDPD ABS_X, X4, X4      // X4 = |x[i]|
	VMAXSD X0, X4, X0         // m = X4 > m ? X4 : m (NaN keeps m)
	ADDQ   $8, X_PTR          // X_PTR = &x[i+1]
	DECQ   TAIL
	JNZ    max1               // } while --TAIL > 0

find_start:
	VBROADCASTSD X0, MAX               // MAX = m in every lane
	MOVQ         x_base+0(FP), X_PTR   // X_PTR = &x[0]
	MOVQ         x_len+8(FP), LEN      // LEN = len(x)
	XORQ         IDX, IDX              // i = 0
	MOVQ         LEN, TAIL
	ANDQ         $7, TAIL              // TAIL = n % 8
	SHRQ         $3, LEN               // LEN = n / 8
	JZ           find1_start           // if LEN == 0 { goto find1_start }

find8:
	VANDPD     (X_PTR)(IDX*8), ABS, Y4   // Y4 = |x[i:i+4]|
	VANDPD     32(X_PTR)(IDX*8), ABS, Y5 // Y5 = |x[i+4:i+8]|
	VCMPPD     $0, MAX, Y4, Y4           // Y4 = |x[i:i+4]| == m
	VCMPPD     $0, MAX, Y5, Y5           // Y5 = |x[i+4:i+8]| == m
	VORPD      Y5, Y4, Y6                // Y6 = Y4 | Y5
	VPTEST     Y6, Y6
	JNZ        found8                    // if any lane is equal { goto found8 }
	ADDQ       $8, IDX                   // i += 8
	DECQ       LEN
	JNZ        find8                     // } while --LEN > 0
	JMP        find1_start

found8:
	VMOVMSKPD Y4, MASK // MASK = lanes of x[i:i+4] equal to m
	TESTQ     MASK, MASK
	JNZ       found    // if MASK != 0 { goto found }
	VMOVMSKPD Y5, MASK // MASK = lanes of x[i+4:i+8] equal to m
	ADDQ      $4, IDX  // i += 4

found:
	BSFQ MASK, MASK // MASK = first equal lane
	ADDQ MASK, IDX  // i += lane
	JMP  end

find1_start:
	TESTQ TAIL, TAIL
	JZ    not_found   // unreachable: m is some |x[i]|

find1:
	VMOVSD   (X_PTR)(IDX*8), X4 // X4 = x[i]
	VANDPD   ABS_X, X4, X4      // X4 = |x[i]|
	VUCOMISD X0, X4             // compare |x[i]| with m
	JPS      find1_next         // if |x[i]| is NaN { continue }
	JEQ      end                // if |x[i]| == m { return i }

find1_next:
	INCQ IDX   // i++
	DECQ TAIL
	JNZ  find1 // } while --TAIL > 0

not_found:
	XORQ IDX, IDX // unreachable; return 0 rather than an index out of range

end:
	MOVQ       IDX, ret+24(FP) // return i
	VZEROUPPER
	RET
