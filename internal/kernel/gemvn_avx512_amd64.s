//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 form of GemvN: gemvNAVX's loops on zmm registers, the last
// n%8 columns of a row under the mask K3 instead of four-wide and scalar
// steps. Its dot products sum their partial sums in another order than
// gemvNAVX's. (The AVX-512 forms of GemvT and Ger are generated with
// their AVX2 forms by f64_gen.go.)

// TAILMASK8 sets K3 to the first reg lanes, reg < 8 (AX is overwritten).
#define TAILMASK8(reg) \
	LEAQ  ·tailMask16(SB), AX; \
	KMOVB (AX)(reg*2), K3

// HSUM4 reduces four zmm sums a, b, c, d to the ymm {Σa, Σb, Σc, Σd} in Y1
// (a, b, c, d are Z0, Z2, Z4, Z6; the others are scratch).
#define HSUM4 \
	VEXTRACTF64X4 $1, Z0, Y1;   \
	VADDPD        Y1, Y0, Y0;   \
	VEXTRACTF64X4 $1, Z2, Y3;   \
	VADDPD        Y3, Y2, Y2;   \
	VEXTRACTF64X4 $1, Z4, Y5;   \
	VADDPD        Y5, Y4, Y4;   \
	VEXTRACTF64X4 $1, Z6, Y7;   \
	VADDPD        Y7, Y6, Y6;   \
	VHADDPD       Y2, Y0, Y0;   \
	VHADDPD       Y6, Y4, Y4;   \
	VPERM2F128    $0x20, Y4, Y0, Y1; \
	VPERM2F128    $0x31, Y4, Y0, Y3; \
	VADDPD        Y3, Y1, Y1

// func gemvN512(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int)
//
// y[i*incY] += alpha * dot(a[i*lda:i*lda+n], x): four rows at a time, each
// load of x feeding four FMAs, two accumulators a row over 16 columns a
// step (eight chains), then 8 columns, then the masked rest. The last
// n%8 elements of x are loaded once, under the mask, for all rows: a
// masked load whose masked-off lanes overlap a recent store (y written
// just after x in one buffer) waits for that store, and once is enough.
TEXT ·gemvN512(SB), NOSPLIT, $0-112
	MOVQ         a_base+24(FP), R8        // R8 = &a[i*lda]
	MOVQ         lda+48(FP), R9
	SHLQ         $3, R9                   // R9 = lda in bytes
	LEAQ         (R9)(R9*2), R10          // R10 = 3·lda in bytes
	MOVQ         x_base+56(FP), R11
	MOVQ         y_base+80(FP), DI
	MOVQ         incY+104(FP), R12
	SHLQ         $3, R12                  // R12 = incY in bytes
	LEAQ         (R12)(R12*2), R13        // R13 = 3·incY in bytes
	MOVQ         m+0(FP), BX
	MOVQ         n+8(FP), CX
	VBROADCASTSD alpha+16(FP), Y15
	MOVQ         CX, R14
	ANDQ         $7, R14                  // R14 = n % 8
	TAILMASK8(R14)
	MOVQ         CX, AX
	SUBQ         R14, AX
	VMOVUPD.Z    (R11)(AX*8), K3, Z13     // Z13 = x's last n%8, loaded once
	CMPQ         BX, $4
	JLT          n_rows1

n_rows4:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	MOVQ   R8, SI
	MOVQ   R11, DX
	MOVQ   CX, AX
	SHRQ   $4, AX                 // AX = n / 16
	JZ     n_r4_8

n_r4_16:
	VMOVUPD     (DX), Z8
	VMOVUPD     64(DX), Z9
	VFMADD231PD (SI), Z8, Z0        // row 0
	VFMADD231PD 64(SI), Z9, Z1
	VFMADD231PD (SI)(R9*1), Z8, Z2  // row 1
	VFMADD231PD 64(SI)(R9*1), Z9, Z3
	VFMADD231PD (SI)(R9*2), Z8, Z4  // row 2
	VFMADD231PD 64(SI)(R9*2), Z9, Z5
	VFMADD231PD (SI)(R10*1), Z8, Z6 // row 3
	VFMADD231PD 64(SI)(R10*1), Z9, Z7
	ADDQ        $128, SI
	ADDQ        $128, DX
	DECQ        AX
	JNZ         n_r4_16

n_r4_8:
	TESTQ       $8, CX
	JZ          n_r4_tail
	VMOVUPD     (DX), Z8
	VFMADD231PD (SI), Z8, Z0
	VFMADD231PD (SI)(R9*1), Z8, Z2
	VFMADD231PD (SI)(R9*2), Z8, Z4
	VFMADD231PD (SI)(R10*1), Z8, Z6
	ADDQ        $64, SI
	ADDQ        $64, DX

n_r4_tail:
	TESTQ       R14, R14
	JZ          n_r4_reduce
	VFMADD231PD (SI), Z13, K3, Z1
	VFMADD231PD (SI)(R9*1), Z13, K3, Z3
	VFMADD231PD (SI)(R9*2), Z13, K3, Z5
	VFMADD231PD (SI)(R10*1), Z13, K3, Z7

n_r4_reduce:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z5, Z4, Z4
	VADDPD Z7, Z6, Z6
	HSUM4                         // Y1 = {dot0, dot1, dot2, dot3}
	CMPQ   R12, $8
	JNE    n_r4_ystrided

	VFMADD213PD (DI), Y15, Y1     // alpha*dot + y[i:i+4]
	VMOVUPD     Y1, (DI)
	ADDQ        $32, DI
	JMP         n_r4_next

n_r4_ystrided:
	VMOVSD       (DI), X2
	VFMADD231SD  X1, X15, X2
	VMOVSD       X2, (DI)
	VPERMILPD    $1, X1, X3
	VMOVSD       (DI)(R12*1), X2
	VFMADD231SD  X3, X15, X2
	VMOVSD       X2, (DI)(R12*1)
	VEXTRACTF128 $1, Y1, X1
	VMOVSD       (DI)(R12*2), X2
	VFMADD231SD  X1, X15, X2
	VMOVSD       X2, (DI)(R12*2)
	VPERMILPD    $1, X1, X3
	VMOVSD       (DI)(R13*1), X2
	VFMADD231SD  X3, X15, X2
	VMOVSD       X2, (DI)(R13*1)
	LEAQ         (DI)(R12*4), DI

n_r4_next:
	LEAQ (R8)(R9*4), R8
	SUBQ $4, BX
	CMPQ BX, $4
	JGE  n_rows4

n_rows1:
	TESTQ BX, BX
	JZ    n_end

n_row1:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	MOVQ   R8, SI
	MOVQ   R11, DX
	MOVQ   CX, AX
	SHRQ   $4, AX
	JZ     n_r1_8

n_r1_16:
	VMOVUPD     (DX), Z8
	VMOVUPD     64(DX), Z9
	VFMADD231PD (SI), Z8, Z0
	VFMADD231PD 64(SI), Z9, Z1
	ADDQ        $128, SI
	ADDQ        $128, DX
	DECQ        AX
	JNZ         n_r1_16

n_r1_8:
	TESTQ       $8, CX
	JZ          n_r1_tail
	VMOVUPD     (DX), Z8
	VFMADD231PD (SI), Z8, Z0
	ADDQ        $64, SI
	ADDQ        $64, DX

n_r1_tail:
	TESTQ       R14, R14
	JZ          n_r1_reduce
	VFMADD231PD (SI), Z13, K3, Z1

n_r1_reduce:
	VADDPD        Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPD        X1, X0, X0
	VHADDPD       X0, X0, X0
	VMOVSD        (DI), X2
	VFMADD231SD   X0, X15, X2       // y[i*incY] += alpha*dot
	VMOVSD        X2, (DI)
	ADDQ          R12, DI
	ADDQ          R9, R8
	DECQ          BX
	JNZ           n_row1

n_end:
	VZEROUPPER
	RET
