//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 forms of dot, sum of squares, scal and iamax: zmm registers,
// the last n%8 elements under the mask K3 (masked-off lanes are neither
// loaded, nor faulted on, nor stored).

#define X_PTR SI
#define Y_PTR DI
#define LEN CX
#define TAIL BX
#define ACC0 Z0
#define ACC1 Z1
#define ACC2 Z2
#define ACC3 Z3

// TAILMASK8 sets K3 to the first TAIL lanes, TAIL < 8 (AX is
// overwritten).
#define TAILMASK8 \
	LEAQ  ·tailMask16(SB), AX; \
	KMOVB (AX)(TAIL*2), K3

// SUMACC leaves the sum of the lanes of ACC0..ACC3 in X0: the four
// accumulators pairwise, then halves of the vector.
#define SUMACC \
	VADDPD        ACC1, ACC0, ACC0; \
	VADDPD        ACC3, ACC2, ACC2; \
	VADDPD        ACC2, ACC0, ACC0; \
	VEXTRACTF64X4 $1, ACC0, Y1;     \
	VADDPD        Y1, Y0, Y0;       \
	VEXTRACTF128  $1, Y0, X1;       \
	VADDPD        X1, X0, X0;       \
	VPERMILPD     $1, X0, X1;       \
	VADDSD        X1, X0, X0

// func dot512(x, y []float64) float64
//
// Four zmm accumulators, 32 doubles a step; then 8 at a time into the
// first, then the masked tail.
TEXT ·dot512(SB), NOSPLIT, $0-56
	MOVQ   x_base+0(FP), X_PTR
	MOVQ   y_base+24(FP), Y_PTR
	MOVQ   x_len+8(FP), LEN
	VPXORQ ACC0, ACC0, ACC0
	VPXORQ ACC1, ACC1, ACC1
	VPXORQ ACC2, ACC2, ACC2
	VPXORQ ACC3, ACC3, ACC3
	MOVQ   LEN, TAIL
	ANDQ   $31, TAIL              // TAIL = n % 32
	SHRQ   $5, LEN                // LEN = n / 32
	JZ     dot8_start

dot32:
	VMOVUPD     (X_PTR), Z4
	VMOVUPD     64(X_PTR), Z5
	VMOVUPD     128(X_PTR), Z6
	VMOVUPD     192(X_PTR), Z7
	VFMADD231PD (Y_PTR), Z4, ACC0    // acc0 += x[i:i+8] * y[i:i+8]
	VFMADD231PD 64(Y_PTR), Z5, ACC1
	VFMADD231PD 128(Y_PTR), Z6, ACC2
	VFMADD231PD 192(Y_PTR), Z7, ACC3
	ADDQ        $256, X_PTR
	ADDQ        $256, Y_PTR
	DECQ        LEN
	JNZ         dot32

dot8_start:
	MOVQ TAIL, LEN
	ANDQ $7, TAIL   // TAIL = n % 8
	SHRQ $3, LEN    // LEN = (n % 32) / 8
	JZ   dot_tail

dot8:
	VMOVUPD     (X_PTR), Z4
	VFMADD231PD (Y_PTR), Z4, ACC0
	ADDQ        $64, X_PTR
	ADDQ        $64, Y_PTR
	DECQ        LEN
	JNZ         dot8

dot_tail:
	TESTQ TAIL, TAIL
	JZ    dot_end
	TAILMASK8
	VMOVUPD.Z   (X_PTR), K3, Z4
	VFMADD231PD (Y_PTR), Z4, K3, ACC1 // masked-off lanes of acc1 unchanged

dot_end:
	SUMACC
	VMOVSD     X0, ret+48(FP)
	VZEROUPPER
	RET

// func sumSq512(x []float64) float64
//
// dot512 of x with itself, one load an element.
TEXT ·sumSq512(SB), NOSPLIT, $0-32
	MOVQ   x_base+0(FP), X_PTR
	MOVQ   x_len+8(FP), LEN
	VPXORQ ACC0, ACC0, ACC0
	VPXORQ ACC1, ACC1, ACC1
	VPXORQ ACC2, ACC2, ACC2
	VPXORQ ACC3, ACC3, ACC3
	MOVQ   LEN, TAIL
	ANDQ   $31, TAIL
	SHRQ   $5, LEN
	JZ     sq8_start

sq32:
	VMOVUPD     (X_PTR), Z4
	VMOVUPD     64(X_PTR), Z5
	VMOVUPD     128(X_PTR), Z6
	VMOVUPD     192(X_PTR), Z7
	VFMADD231PD Z4, Z4, ACC0          // acc0 += x[i:i+8]²
	VFMADD231PD Z5, Z5, ACC1
	VFMADD231PD Z6, Z6, ACC2
	VFMADD231PD Z7, Z7, ACC3
	ADDQ        $256, X_PTR
	DECQ        LEN
	JNZ         sq32

sq8_start:
	MOVQ TAIL, LEN
	ANDQ $7, TAIL
	SHRQ $3, LEN
	JZ   sq_tail

sq8:
	VMOVUPD     (X_PTR), Z4
	VFMADD231PD Z4, Z4, ACC0
	ADDQ        $64, X_PTR
	DECQ        LEN
	JNZ         sq8

sq_tail:
	TESTQ TAIL, TAIL
	JZ    sq_end
	TAILMASK8
	VMOVUPD.Z   (X_PTR), K3, Z4
	VFMADD231PD Z4, Z4, ACC1          // zeros in the masked-off lanes add +0

sq_end:
	SUMACC
	VMOVSD     X0, ret+24(FP)
	VZEROUPPER
	RET

// func scal512(alpha float64, x []float64)
//
// x[i] *= alpha: 32 elements a step, then 8, then the masked tail.
TEXT ·scal512(SB), NOSPLIT, $0-32
	VBROADCASTSD alpha+0(FP), Z8
	MOVQ         x_base+8(FP), X_PTR
	MOVQ         x_len+16(FP), LEN
	MOVQ         LEN, TAIL
	ANDQ         $31, TAIL
	SHRQ         $5, LEN
	JZ           scal8_start

scal32:
	VMULPD  (X_PTR), Z8, Z4
	VMULPD  64(X_PTR), Z8, Z5
	VMULPD  128(X_PTR), Z8, Z6
	VMULPD  192(X_PTR), Z8, Z7
	VMOVUPD Z4, (X_PTR)
	VMOVUPD Z5, 64(X_PTR)
	VMOVUPD Z6, 128(X_PTR)
	VMOVUPD Z7, 192(X_PTR)
	ADDQ    $256, X_PTR
	DECQ    LEN
	JNZ     scal32

scal8_start:
	MOVQ TAIL, LEN
	ANDQ $7, TAIL
	SHRQ $3, LEN
	JZ   scal_tail

scal8:
	VMULPD  (X_PTR), Z8, Z4
	VMOVUPD Z4, (X_PTR)
	ADDQ    $64, X_PTR
	DECQ    LEN
	JNZ     scal8

scal_tail:
	TESTQ TAIL, TAIL
	JZ    scal_end
	TAILMASK8
	VMOVUPD.Z (X_PTR), K3, Z4
	VMULPD    Z4, Z8, Z4
	VMOVUPD   Z4, K3, (X_PTR)

scal_end:
	VZEROUPPER
	RET

#define ABS Z15
#define MAX Z14

// func iamax512(x []float64) int
//
// iamaxAVX on zmm registers, in the same two passes: m = max|x[i]| with
// VMAXPD seeded with |x[0]| (not NaN, len(x) ≥ 1; a NaN element leaves the
// running maximum, its second source, as it was), then the first i with
// |x[i]| == m, eight compares into a mask register at a time.
TEXT ·iamax512(SB), NOSPLIT, $0-32
	MOVQ         x_base+0(FP), X_PTR
	MOVQ         x_len+8(FP), LEN
	MOVQ         $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, ABS
	VBROADCASTSD (X_PTR), ACC0
	VANDPD       ABS, ACC0, ACC0         // m0 = |x[0]| in every lane
	VMOVAPD      ACC0, ACC1
	VMOVAPD      ACC0, ACC2
	VMOVAPD      ACC0, ACC3
	MOVQ         LEN, TAIL
	ANDQ         $31, TAIL
	SHRQ         $5, LEN
	JZ           max8_start

max32:
	VANDPD (X_PTR), ABS, Z4
	VANDPD 64(X_PTR), ABS, Z5
	VANDPD 128(X_PTR), ABS, Z6
	VANDPD 192(X_PTR), ABS, Z7
	VMAXPD ACC0, Z4, ACC0       // m0 = Z4 > m0 ? Z4 : m0 (NaN keeps m0)
	VMAXPD ACC1, Z5, ACC1
	VMAXPD ACC2, Z6, ACC2
	VMAXPD ACC3, Z7, ACC3
	ADDQ   $256, X_PTR
	DECQ   LEN
	JNZ    max32

max8_start:
	MOVQ TAIL, LEN
	ANDQ $7, TAIL
	SHRQ $3, LEN
	JZ   max_tail

max8:
	VANDPD (X_PTR), ABS, Z4
	VMAXPD ACC0, Z4, ACC0
	ADDQ   $64, X_PTR
	DECQ   LEN
	JNZ    max8

max_tail:
	TESTQ TAIL, TAIL
	JZ    max_reduce
	TAILMASK8
	VANDPD (X_PTR), ABS, K3, Z4
	VMAXPD ACC1, Z4, K3, ACC1         // masked-off lanes of m1 unchanged

max_reduce:
	VMAXPD        ACC1, ACC0, ACC0
	VMAXPD        ACC3, ACC2, ACC2
	VMAXPD        ACC2, ACC0, ACC0
	VEXTRACTF64X4 $1, ACC0, Y1
	VMAXPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VMAXPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VMAXSD        X1, X0, X0
	VBROADCASTSD  X0, MAX             // MAX = m in every lane

	MOVQ x_base+0(FP), X_PTR
	MOVQ x_len+8(FP), LEN
	XORQ DX, DX                       // i = 0
	MOVQ LEN, TAIL
	ANDQ $7, TAIL
	SHRQ $3, LEN
	JZ   find_tail

find8:
	VANDPD   (X_PTR)(DX*8), ABS, Z4
	VCMPPD   $0, MAX, Z4, K1          // K1 = lanes with |x[i+l]| == m
	KORTESTB K1, K1
	JNZ      found
	ADDQ     $8, DX
	DECQ     LEN
	JNZ      find8

find_tail:
	TESTQ TAIL, TAIL
	JZ    not_found                   // unreachable: m is some |x[i]|
	TAILMASK8
	VANDPD (X_PTR)(DX*8), ABS, K3, Z4
	VCMPPD $0, MAX, Z4, K3, K1
	KORTESTB K1, K1
	JNZ      found

not_found:
	XORQ DX, DX                       // unreachable; 0 rather than out of range
	JMP  end

found:
	KMOVB K1, AX
	BSFL  AX, AX                      // the first equal lane
	ADDQ  AX, DX

end:
	MOVQ       DX, ret+24(FP)
	VZEROUPPER
	RET

// tailMask16[t] (uint16) has its first t bits set, t < 16: the mask of the
// first t lanes, for the tails of the AVX-512 routines (a table rather than
// BZHI, which is BMI2, not part of the AVX-512 check).
DATA ·tailMask16+0(SB)/2, $0x0000
DATA ·tailMask16+2(SB)/2, $0x0001
DATA ·tailMask16+4(SB)/2, $0x0003
DATA ·tailMask16+6(SB)/2, $0x0007
DATA ·tailMask16+8(SB)/2, $0x000f
DATA ·tailMask16+10(SB)/2, $0x001f
DATA ·tailMask16+12(SB)/2, $0x003f
DATA ·tailMask16+14(SB)/2, $0x007f
DATA ·tailMask16+16(SB)/2, $0x00ff
DATA ·tailMask16+18(SB)/2, $0x01ff
DATA ·tailMask16+20(SB)/2, $0x03ff
DATA ·tailMask16+22(SB)/2, $0x07ff
DATA ·tailMask16+24(SB)/2, $0x0fff
DATA ·tailMask16+26(SB)/2, $0x1fff
DATA ·tailMask16+28(SB)/2, $0x3fff
DATA ·tailMask16+30(SB)/2, $0x7fff
GLOBL ·tailMask16(SB), RODATA|NOPTR, $32
