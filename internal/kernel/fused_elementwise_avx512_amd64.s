//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 forms of the element-wise kernels: eight elements a step in zmm
// registers and the last n%8 under the mask K3, so that they cover the
// whole length. Every operation is rounded on its own (no fused
// multiply-add), as in the AVX2 forms and the Go expressions, except the
// dot products of dotsAddDiv512, which fuse as the GEMM micro-kernel does.

// TAILMASK8 sets K3 to the first BX lanes, BX < 8 (AX is overwritten).
#define TAILMASK8 \
	LEAQ  ·tailMask16(SB), AX; \
	KMOVB (AX)(BX*2), K3

// func addDiv512(y, x, d []float64, c float64)
//
// y[i] = (y[i] + x[i]) / (c*d[i]) for i < len(y).
TEXT ·addDiv512(SB), NOSPLIT, $0-80
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	MOVQ         d_base+48(FP), DX
	VBROADCASTSD c+72(FP), Z15
	MOVQ         CX, BX
	ANDQ         $7, BX
	SHRQ         $3, CX
	JZ           ad_tail

ad_loop:
	VMOVUPD (DI), Z0
	VADDPD  (SI), Z0, Z0  // y + x
	VMULPD  (DX), Z15, Z1 // c*d
	VDIVPD  Z1, Z0, Z0    // (y + x) / (c*d)
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	DECQ    CX
	JNZ     ad_loop

ad_tail:
	TESTQ BX, BX
	JZ    ad_done
	TAILMASK8
	VMOVUPD.Z (DI), K3, Z0
	VADDPD    (SI), Z0, K3, Z0
	VMULPD.Z  (DX), Z15, K3, Z1
	VDIVPD    Z1, Z0, K3, Z0
	VMOVUPD   Z0, K3, (DI)

ad_done:
	VZEROUPPER
	RET

// func axpyDiv512(dst, a, w, d []float64, alpha float64)
//
// dst[i] = (a[i] + alpha*w[i]) / d[i] for i < len(dst).
TEXT ·axpyDiv512(SB), NOSPLIT, $0-104
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         a_base+24(FP), SI
	MOVQ         w_base+48(FP), R8
	MOVQ         d_base+72(FP), DX
	VBROADCASTSD alpha+96(FP), Z15
	MOVQ         CX, BX
	ANDQ         $7, BX
	SHRQ         $3, CX
	JZ           xd_tail

xd_loop:
	VMULPD  (R8), Z15, Z0 // alpha*w
	VADDPD  (SI), Z0, Z0  // a + alpha*w
	VDIVPD  (DX), Z0, Z0  // / d
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, R8
	ADDQ    $64, DX
	DECQ    CX
	JNZ     xd_loop

xd_tail:
	TESTQ BX, BX
	JZ    xd_done
	TAILMASK8
	VMULPD.Z (R8), Z15, K3, Z0
	VADDPD   (SI), Z0, K3, Z0
	VDIVPD   (DX), Z0, K3, Z0
	VMOVUPD  Z0, K3, (DI)

xd_done:
	VZEROUPPER
	RET

// func axpby512(dst, x, y []float64, a, b float64)
//
// dst[i] = a*x[i] + b*y[i] for i < len(dst), both products rounded before
// the sum.
TEXT ·axpby512(SB), NOSPLIT, $0-88
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	MOVQ         y_base+48(FP), DX
	VBROADCASTSD a+72(FP), Z14
	VBROADCASTSD b+80(FP), Z15
	MOVQ         CX, BX
	ANDQ         $7, BX
	SHRQ         $3, CX
	JZ           ab_tail

ab_loop:
	VMULPD  (SI), Z14, Z0 // a*x
	VMULPD  (DX), Z15, Z1 // b*y
	VADDPD  Z1, Z0, Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	DECQ    CX
	JNZ     ab_loop

ab_tail:
	TESTQ BX, BX
	JZ    ab_done
	TAILMASK8
	VMULPD.Z (SI), Z14, K3, Z0
	VMULPD.Z (DX), Z15, K3, Z1
	VADDPD   Z1, Z0, K3, Z0
	VMOVUPD  Z0, K3, (DI)

ab_done:
	VZEROUPPER
	RET

// func dotsAddDiv512(y, x, d, a, b []float64, ldb int, alpha, c float64)
//
// dotsAddDivAVX for j < len(y): sixteen columns a pass (two chains of
// FMAs), then eight, then the last n%8 under K3.
TEXT ·dotsAddDiv512(SB), NOSPLIT, $0-144
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	MOVQ         d_base+48(FP), DX
	MOVQ         a_base+72(FP), R8
	MOVQ         a_len+80(FP), R11
	MOVQ         b_base+96(FP), R9
	MOVQ         ldb+120(FP), R10
	SHLQ         $3, R10             // ldb in bytes
	VBROADCASTSD alpha+128(FP), Z15
	VBROADCASTSD c+136(FP), Z14
	MOVQ         CX, R13
	SHRQ         $4, CX              // passes of sixteen
	JZ           dad_eight

dad_sixteen:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	MOVQ   R9, R12
	XORQ   BX, BX

dad_sixteen_p:
	VBROADCASTSD (R8)(BX*8), Z2
	VFMADD231PD  (R12), Z2, Z0   // t += a[p]·b[p][j:j+8]
	VFMADD231PD  64(R12), Z2, Z1
	ADDQ         R10, R12
	INCQ         BX
	CMPQ         BX, R11
	JLT          dad_sixteen_p
	VMULPD       Z15, Z0, Z0     // alpha·t
	VMULPD       Z15, Z1, Z1
	VADDPD       (SI), Z0, Z0    // + x
	VADDPD       64(SI), Z1, Z1
	VMULPD       (DX), Z14, Z2   // c·d
	VMULPD       64(DX), Z14, Z3
	VDIVPD       Z2, Z0, Z0
	VDIVPD       Z3, Z1, Z1
	VMOVUPD      Z0, (DI)
	VMOVUPD      Z1, 64(DI)
	ADDQ         $128, DI
	ADDQ         $128, SI
	ADDQ         $128, DX
	ADDQ         $128, R9
	DECQ         CX
	JNZ          dad_sixteen

dad_eight:
	TESTQ $8, R13
	JZ    dad_tail
	VPXORQ Z0, Z0, Z0
	MOVQ   R9, R12
	XORQ   BX, BX

dad_eight_p:
	VBROADCASTSD (R8)(BX*8), Z2
	VFMADD231PD  (R12), Z2, Z0
	ADDQ         R10, R12
	INCQ         BX
	CMPQ         BX, R11
	JLT          dad_eight_p
	VMULPD       Z15, Z0, Z0
	VADDPD       (SI), Z0, Z0
	VMULPD       (DX), Z14, Z2
	VDIVPD       Z2, Z0, Z0
	VMOVUPD      Z0, (DI)
	ADDQ         $64, DI
	ADDQ         $64, SI
	ADDQ         $64, DX
	ADDQ         $64, R9

dad_tail:
	MOVQ  R13, BX
	ANDQ  $7, BX
	JZ    dad_done
	TAILMASK8
	VPXORQ Z0, Z0, Z0
	MOVQ   R9, R12
	XORQ   BX, BX

dad_tail_p:
	VBROADCASTSD (R8)(BX*8), Z2
	VFMADD231PD  (R12), Z2, K3, Z0
	ADDQ         R10, R12
	INCQ         BX
	CMPQ         BX, R11
	JLT          dad_tail_p
	VMULPD       Z15, Z0, K3, Z0
	VADDPD       (SI), Z0, K3, Z0
	VMULPD.Z     (DX), Z14, K3, Z2
	VDIVPD       Z2, Z0, K3, Z0
	VMOVUPD      Z0, K3, (DI)

dad_done:
	VZEROUPPER
	RET
