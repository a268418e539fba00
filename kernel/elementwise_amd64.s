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
