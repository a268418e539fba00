//go:build amd64 && !purego

#include "textflag.h"

// func addDivAVX(y, x, d []float64, c float64)
//
// y[i] = (y[i] + x[i]) / (c*d[i]) for i < 4·⌊len(y)/4⌋, each operation
// rounded on its own (no fused multiply-add), as the Go expression is.
TEXT ·addDivAVX(SB), NOSPLIT, $0-80
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	MOVQ         d_base+48(FP), DX
	VBROADCASTSD c+72(FP), Y15
	SHRQ         $2, CX
	JZ           ad_done

ad_loop:
	VMOVUPD (DI), Y0
	VADDPD  (SI), Y0, Y0  // y + x
	VMULPD  (DX), Y15, Y1 // c*d
	VDIVPD  Y1, Y0, Y0    // (y + x) / (c*d)
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, DX
	DECQ    CX
	JNZ     ad_loop

ad_done:
	VZEROUPPER
	RET

// func axpyDivAVX(dst, a, w, d []float64, alpha float64)
//
// dst[i] = (a[i] + alpha*w[i]) / d[i] for i < 4·⌊len(dst)/4⌋, the product
// rounded before the sum (no fused multiply-add), as the Go expression is
// on amd64 by default.
TEXT ·axpyDivAVX(SB), NOSPLIT, $0-104
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         a_base+24(FP), SI
	MOVQ         w_base+48(FP), R8
	MOVQ         d_base+72(FP), DX
	VBROADCASTSD alpha+96(FP), Y15
	SHRQ         $2, CX
	JZ           xd_done

xd_loop:
	VMULPD  (R8), Y15, Y0 // alpha*w
	VADDPD  (SI), Y0, Y0  // a + alpha*w
	VDIVPD  (DX), Y0, Y0  // / d
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, R8
	ADDQ    $32, DX
	DECQ    CX
	JNZ     xd_loop

xd_done:
	VZEROUPPER
	RET

// func axpbyAVX(dst, x, y []float64, a, b float64)
//
// dst[i] = a*x[i] + b*y[i] for i < 4·⌊len(dst)/4⌋, both products rounded
// before the sum (no fused multiply-add), as the Go expression is on amd64
// by default.
TEXT ·axpbyAVX(SB), NOSPLIT, $0-88
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	MOVQ         y_base+48(FP), DX
	VBROADCASTSD a+72(FP), Y14
	VBROADCASTSD b+80(FP), Y15
	SHRQ         $2, CX
	JZ           ab_done

ab_loop:
	VMULPD  (SI), Y14, Y0 // a*x
	VMULPD  (DX), Y15, Y1 // b*y
	VADDPD  Y1, Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, DX
	DECQ    CX
	JNZ     ab_loop

ab_done:
	VZEROUPPER
	RET

// func dotsAddDivAVX(y, x, d, a, b []float64, ldb int, alpha, c float64)
//
// y[j] = (alpha·t_j + x[j]) / (c·d[j]) for j < 4·⌊len(y)/4⌋, t_j the dot
// of a with column j of b (rows ldb apart), accumulated from zero by one
// FMA per row in order, as the GEMM micro-kernel does; eight columns a
// pass (two chains of FMAs), then four.
TEXT ·dotsAddDivAVX(SB), NOSPLIT, $0-144
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	MOVQ         x_base+24(FP), SI
	MOVQ         d_base+48(FP), DX
	MOVQ         a_base+72(FP), R8
	MOVQ         a_len+80(FP), R11
	MOVQ         b_base+96(FP), R9
	MOVQ         ldb+120(FP), R10
	SHLQ         $3, R10            // ldb in bytes
	VBROADCASTSD alpha+128(FP), Y15
	VBROADCASTSD c+136(FP), Y14
	MOVQ         CX, R13
	SHRQ         $3, CX             // passes of eight
	JZ           dad_four

dad_eight:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ   R9, R12
	XORQ   BX, BX

dad_eight_p:
	VBROADCASTSD (R8)(BX*8), Y2
	VFMADD231PD  (R12), Y2, Y0   // t += a[p]·b[p][j:j+4]
	VFMADD231PD  32(R12), Y2, Y1
	ADDQ         R10, R12
	INCQ         BX
	CMPQ         BX, R11
	JLT          dad_eight_p
	VMULPD       Y15, Y0, Y0     // alpha·t
	VMULPD       Y15, Y1, Y1
	VADDPD       (SI), Y0, Y0    // + x
	VADDPD       32(SI), Y1, Y1
	VMULPD       (DX), Y14, Y2   // c·d
	VMULPD       32(DX), Y14, Y3
	VDIVPD       Y2, Y0, Y0
	VDIVPD       Y3, Y1, Y1
	VMOVUPD      Y0, (DI)
	VMOVUPD      Y1, 32(DI)
	ADDQ         $64, DI
	ADDQ         $64, SI
	ADDQ         $64, DX
	ADDQ         $64, R9
	DECQ         CX
	JNZ          dad_eight

dad_four:
	TESTQ $4, R13
	JZ    dad_done
	VXORPD Y0, Y0, Y0
	MOVQ   R9, R12
	XORQ   BX, BX

dad_four_p:
	VBROADCASTSD (R8)(BX*8), Y2
	VFMADD231PD  (R12), Y2, Y0
	ADDQ         R10, R12
	INCQ         BX
	CMPQ         BX, R11
	JLT          dad_four_p
	VMULPD       Y15, Y0, Y0
	VADDPD       (SI), Y0, Y0
	VMULPD       (DX), Y14, Y2
	VDIVPD       Y2, Y0, Y0
	VMOVUPD      Y0, (DI)

dad_done:
	VZEROUPPER
	RET
