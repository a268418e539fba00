//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 forms of the row kernels (AxpyRows, AxpyRowsIamax and
// AxpyUnitary): 16 elements a step in two zmm registers, then the last
// n%16 under two masks (K3 for the first eight, K4 for the rest), so that
// there is no scalar loop. Masked-off lanes are neither loaded (no fault
// either) nor stored. Each row is one FMA an element, in order of the rows,
// as the AVX2 forms round.

#define Y_PTR DX
#define X0_PTR SI
#define X1_PTR DI
#define X2_PTR R8
#define X3_PTR R9
#define LEN CX
#define TAIL BX
#define C0 Z28
#define C1 Z29
#define C2 Z30
#define C3 Z31

// TAILMASKS sets K3 to the first min(TAIL, 8) lanes and K4 to the next
// TAIL−8 (none if TAIL ≤ 8), for TAIL < 16, from the table tailMask16
// (AX is overwritten).
#define TAILMASKS \
	LEAQ     ·tailMask16(SB), AX; \
	KMOVW    (AX)(TAIL*2), K3;    \
	KSHIFTRW $8, K3, K4

#define ARGS01 \
	MOVQ         c+0(FP), AX;           \
	VBROADCASTSD (AX), C0;              \
	VBROADCASTSD 8(AX), C1;             \
	MOVQ         x0_base+8(FP), X0_PTR; \
	MOVQ         x1_base+32(FP), X1_PTR

#define ARGS4 \
	ARGS01;                              \
	VBROADCASTSD 16(AX), C2;             \
	VBROADCASTSD 24(AX), C3;             \
	MOVQ         x2_base+56(FP), X2_PTR; \
	MOVQ         x3_base+80(FP), X3_PTR; \
	MOVQ         y_base+104(FP), Y_PTR;  \
	MOVQ         y_len+112(FP), LEN

#define ARGS3 \
	ARGS01;                              \
	VBROADCASTSD 16(AX), C2;             \
	MOVQ         x2_base+56(FP), X2_PTR; \
	MOVQ         y_base+80(FP), Y_PTR;   \
	MOVQ         y_len+88(FP), LEN

#define ARGS2 \
	ARGS01;                    \
	MOVQ y_base+56(FP), Y_PTR; \
	MOVQ y_len+64(FP), LEN

// SPLIT sets TAIL = LEN % 16 and LEN = LEN / 16.
#define SPLIT \
	MOVQ LEN, TAIL; \
	ANDQ $15, TAIL; \
	SHRQ $4, LEN

// LOAD16, FMA16(x, c), STORE16: y[i:i+16] in Z0, Z1.
#define LOAD16 \
	VMOVUPD (Y_PTR), Z0; \
	VMOVUPD 64(Y_PTR), Z1

#define FMA16(x, c) \
	VFMADD231PD (x), c, Z0; \
	VFMADD231PD 64(x), c, Z1

#define STORE16 \
	VMOVUPD Z0, (Y_PTR); \
	VMOVUPD Z1, 64(Y_PTR)

// The masked forms for the tail: masked-off lanes of Z0, Z1 are zero.
#define LOADM \
	VMOVUPD.Z (Y_PTR), K3, Z0; \
	VMOVUPD.Z 64(Y_PTR), K4, Z1

#define FMAM(x, c) \
	VFMADD231PD (x), c, K3, Z0; \
	VFMADD231PD 64(x), c, K4, Z1

#define STOREM \
	VMOVUPD Z0, K3, (Y_PTR); \
	VMOVUPD Z1, K4, 64(Y_PTR)

#define ADV1(n) \
	ADDQ n, X0_PTR; \
	ADDQ n, Y_PTR

#define ADV2(n) \
	ADV1(n); \
	ADDQ n, X1_PTR

#define ADV3(n) \
	ADV2(n); \
	ADDQ n, X2_PTR

#define ADV4(n) \
	ADV3(n); \
	ADDQ n, X3_PTR

// func axpy512(alpha float64, x, y []float64)
//
// y[i] = fma(alpha, x[i], y[i]) for i < len(x); len(y) ≥ len(x). 32
// elements a step, then 16, then the masked tail.
TEXT ·axpy512(SB), NOSPLIT, $0-56
	VBROADCASTSD alpha+0(FP), C0
	MOVQ         x_base+8(FP), X0_PTR
	MOVQ         x_len+16(FP), LEN
	MOVQ         y_base+32(FP), Y_PTR
	MOVQ         LEN, TAIL
	ANDQ         $15, TAIL              // TAIL = n % 16
	SHRQ         $5, LEN                // LEN = n / 32
	JZ           one16

one32:
	VMOVUPD     (Y_PTR), Z0
	VMOVUPD     64(Y_PTR), Z1
	VMOVUPD     128(Y_PTR), Z2
	VMOVUPD     192(Y_PTR), Z3
	VFMADD231PD (X0_PTR), C0, Z0     // y[i:i+8] += alpha*x[i:i+8]
	VFMADD231PD 64(X0_PTR), C0, Z1
	VFMADD231PD 128(X0_PTR), C0, Z2
	VFMADD231PD 192(X0_PTR), C0, Z3
	VMOVUPD     Z0, (Y_PTR)
	VMOVUPD     Z1, 64(Y_PTR)
	VMOVUPD     Z2, 128(Y_PTR)
	VMOVUPD     Z3, 192(Y_PTR)
	ADV1($256)
	DECQ        LEN
	JNZ         one32                // } while --LEN > 0

one16:
	MOVQ  x_len+16(FP), LEN
	TESTQ $16, LEN
	JZ    one_tail                   // if n%32 < 16 { goto one_tail }
	LOAD16
	FMA16(X0_PTR, C0)
	STORE16
	ADV1($128)

one_tail:
	TESTQ TAIL, TAIL
	JZ    one_end
	TAILMASKS
	LOADM
	FMAM(X0_PTR, C0)
	STOREM

one_end:
	VZEROUPPER
	RET

// func axpy4x512(c *[4]float64, x0, x1, x2, x3, y []float64)
//
// y[i] = fma(c3, x3[i], fma(c2, x2[i], fma(c1, x1[i], fma(c0, x0[i], y[i]))))
// for i < len(y), as axpy4AVX.
TEXT ·axpy4x512(SB), NOSPLIT, $0-128
	ARGS4
	SPLIT
	JZ    four_tail

four16:
	LOAD16
	FMA16(X0_PTR, C0)
	FMA16(X1_PTR, C1)
	FMA16(X2_PTR, C2)
	FMA16(X3_PTR, C3)
	STORE16
	ADV4($128)
	DECQ LEN
	JNZ  four16

four_tail:
	TESTQ TAIL, TAIL
	JZ    four_end
	TAILMASKS
	LOADM
	FMAM(X0_PTR, C0)
	FMAM(X1_PTR, C1)
	FMAM(X2_PTR, C2)
	FMAM(X3_PTR, C3)
	STOREM

four_end:
	VZEROUPPER
	RET

// func axpy2x512(c *[2]float64, x0, x1, y []float64)
//
// y[i] = fma(c1, x1[i], fma(c0, x0[i], y[i])) for i < len(y).
TEXT ·axpy2x512(SB), NOSPLIT, $0-80
	ARGS2
	SPLIT
	JZ    two_tail

two16:
	LOAD16
	FMA16(X0_PTR, C0)
	FMA16(X1_PTR, C1)
	STORE16
	ADV2($128)
	DECQ LEN
	JNZ  two16

two_tail:
	TESTQ TAIL, TAIL
	JZ    two_end
	TAILMASKS
	LOADM
	FMAM(X0_PTR, C0)
	FMAM(X1_PTR, C1)
	STOREM

two_end:
	VZEROUPPER
	RET

// The iamax forms also keep, for each of 16 lanes (i mod 16), the largest
// |y[i]| after the update and the first index where it occurs. A lane's
// index moves only on a strictly greater value (VCMPPD GT_OQ, false for
// NaN), and its value is VMAXPD with the running maximum as second source,
// which a NaN leaves as it was. In the tail the compare and the maximum
// are masked, so lanes past the end keep their state. The maxima start at
// −1, below every |y[i]|, so a lane that saw only NaNs (or nothing) keeps
// −1. At the end the lanes are merged pairwise (IAMAX_MERGE) down to one:
// the larger maximum, or on equal maxima the smaller index, which is the
// first index of the largest |y[i]|. If every element was NaN, every lane
// still holds −1 and its own index, and the merge returns the least, 0.

#define ABS Z27
#define STEP Z26
#define MAX0 Z16
#define MAX1 Z17
#define IDX0 Z18
#define IDX1 Z19
#define CUR0 Z20
#define CUR1 Z21

// IAMAX_SETUP sets the lanes to their start (max −1, idx the lane) and the
// constants.
#define IAMAX_SETUP \
	MOVQ         $0x7fffffffffffffff, AX;     \
	VPBROADCASTQ AX, ABS;                     \
	MOVQ         $16, AX;                     \
	VPBROADCASTQ AX, STEP;                    \
	MOVQ         $0xbff0000000000000, AX;     \
	VPBROADCASTQ AX, MAX0;                    \
	VMOVAPD      MAX0, MAX1;                  \
	VPMOVZXBQ    ·compressLanes512(SB), CUR0; \
	MOVQ         $8, AX;                      \
	VPBROADCASTQ AX, CUR1;                    \
	VPADDQ       CUR0, CUR1, CUR1;            \
	VMOVDQA64    CUR0, IDX0;                  \
	VMOVDQA64    CUR1, IDX1

// IAMAX_STEP folds Z0 = y[i:i+8] and Z1 = y[i+8:i+16] into the lanes.
#define IAMAX_STEP \
	VANDPD    ABS, Z0, Z2;         \
	VANDPD    ABS, Z1, Z3;         \
	VCMPPD    $0x1e, MAX0, Z2, K1; \
	VCMPPD    $0x1e, MAX1, Z3, K2; \
	VMAXPD    MAX0, Z2, MAX0;      \
	VMAXPD    MAX1, Z3, MAX1;      \
	VMOVDQA64 CUR0, K1, IDX0;      \
	VMOVDQA64 CUR1, K2, IDX1;      \
	VPADDQ    STEP, CUR0, CUR0;    \
	VPADDQ    STEP, CUR1, CUR1

// IAMAX_STEPM is IAMAX_STEP on the tail, under K3 and K4.
#define IAMAX_STEPM \
	VANDPD    ABS, Z0, Z2;             \
	VANDPD    ABS, Z1, Z3;             \
	VCMPPD    $0x1e, MAX0, Z2, K3, K1; \
	VCMPPD    $0x1e, MAX1, Z3, K4, K2; \
	VMAXPD    MAX0, Z2, K3, MAX0;      \
	VMAXPD    MAX1, Z3, K4, MAX1;      \
	VMOVDQA64 CUR0, K1, IDX0;          \
	VMOVDQA64 CUR1, K2, IDX1

// IAMAX_MERGE(m, i) takes into each lane of (MAX0, IDX0) the lane of
// (m, i) where that is larger, or equal with a smaller index.
#define IAMAX_MERGE(m, i) \
	VCMPPD    $0x1e, MAX0, m, K1;  \
	VCMPPD    $0x00, MAX0, m, K2;  \
	VPCMPQ    $1, IDX0, i, K2, K2; \
	KORB      K1, K2, K1;          \
	VMOVAPD   m, K1, MAX0;         \
	VMOVDQA64 i, K1, IDX0

// IAMAX_RESULT merges the sixteen lanes into lane 0 of MAX0, IDX0 —
// the other set, then the other half, quarter and element of the set —
// and returns its index at ret.
#define IAMAX_RESULT(ret) \
	IAMAX_MERGE(MAX1, IDX1);              \
	VSHUFF64X2 $0x4e, MAX0, MAX0, Z2;     \
	VSHUFI64X2 $0x4e, IDX0, IDX0, Z3;     \
	IAMAX_MERGE(Z2, Z3);                  \
	VSHUFF64X2 $0xb1, MAX0, MAX0, Z2;     \
	VSHUFI64X2 $0xb1, IDX0, IDX0, Z3;     \
	IAMAX_MERGE(Z2, Z3);                  \
	VPERMILPD  $0x55, MAX0, Z2;           \
	VPERMILPD  $0x55, IDX0, Z3;           \
	IAMAX_MERGE(Z2, Z3);                  \
	VMOVQ      X18, AX;                   \
	MOVQ       AX, ret

// func axpy4Iamax512(c *[4]float64, x0, x1, x2, x3, y []float64) int
TEXT ·axpy4Iamax512(SB), NOSPLIT, $0-136
	IAMAX_SETUP
	ARGS4
	SPLIT
	JZ    four_iamax_tail

four_iamax16:
	LOAD16
	FMA16(X0_PTR, C0)
	FMA16(X1_PTR, C1)
	FMA16(X2_PTR, C2)
	FMA16(X3_PTR, C3)
	STORE16
	IAMAX_STEP
	ADV4($128)
	DECQ LEN
	JNZ  four_iamax16

four_iamax_tail:
	TESTQ TAIL, TAIL
	JZ    four_iamax_end
	TAILMASKS
	LOADM
	FMAM(X0_PTR, C0)
	FMAM(X1_PTR, C1)
	FMAM(X2_PTR, C2)
	FMAM(X3_PTR, C3)
	STOREM
	IAMAX_STEPM

four_iamax_end:
	IAMAX_RESULT(ret+128(FP))
	VZEROUPPER
	RET

// func axpy3Iamax512(c *[3]float64, x0, x1, x2, y []float64) int
TEXT ·axpy3Iamax512(SB), NOSPLIT, $0-112
	IAMAX_SETUP
	ARGS3
	SPLIT
	JZ    three_iamax_tail

three_iamax16:
	LOAD16
	FMA16(X0_PTR, C0)
	FMA16(X1_PTR, C1)
	FMA16(X2_PTR, C2)
	STORE16
	IAMAX_STEP
	ADV3($128)
	DECQ LEN
	JNZ  three_iamax16

three_iamax_tail:
	TESTQ TAIL, TAIL
	JZ    three_iamax_end
	TAILMASKS
	LOADM
	FMAM(X0_PTR, C0)
	FMAM(X1_PTR, C1)
	FMAM(X2_PTR, C2)
	STOREM
	IAMAX_STEPM

three_iamax_end:
	IAMAX_RESULT(ret+104(FP))
	VZEROUPPER
	RET

// func axpy2Iamax512(c *[2]float64, x0, x1, y []float64) int
TEXT ·axpy2Iamax512(SB), NOSPLIT, $0-88
	IAMAX_SETUP
	ARGS2
	SPLIT
	JZ    two_iamax_tail

two_iamax16:
	LOAD16
	FMA16(X0_PTR, C0)
	FMA16(X1_PTR, C1)
	STORE16
	IAMAX_STEP
	ADV2($128)
	DECQ LEN
	JNZ  two_iamax16

two_iamax_tail:
	TESTQ TAIL, TAIL
	JZ    two_iamax_end
	TAILMASKS
	LOADM
	FMAM(X0_PTR, C0)
	FMAM(X1_PTR, C1)
	STOREM
	IAMAX_STEPM

two_iamax_end:
	IAMAX_RESULT(ret+80(FP))
	VZEROUPPER
	RET

// func axpy1Iamax512(c float64, x0, y []float64) int
TEXT ·axpy1Iamax512(SB), NOSPLIT, $0-64
	IAMAX_SETUP
	VBROADCASTSD c+0(FP), C0
	MOVQ         x0_base+8(FP), X0_PTR
	MOVQ         y_base+32(FP), Y_PTR
	MOVQ         y_len+40(FP), LEN
	SPLIT
	JZ           one_iamax_tail

one_iamax16:
	LOAD16
	FMA16(X0_PTR, C0)
	STORE16
	IAMAX_STEP
	ADV1($128)
	DECQ LEN
	JNZ  one_iamax16

one_iamax_tail:
	TESTQ TAIL, TAIL
	JZ    one_iamax_end
	TAILMASKS
	LOADM
	FMAM(X0_PTR, C0)
	STOREM
	IAMAX_STEPM

one_iamax_end:
	IAMAX_RESULT(ret+56(FP))
	VZEROUPPER
	RET
