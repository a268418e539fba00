//go:build amd64 && !purego

#include "textflag.h"

#define Y_PTR DX
#define X0_PTR SI
#define X1_PTR DI
#define X2_PTR R8
#define X3_PTR R9
#define LEN CX
#define TAIL BX
#define C0 Y12
#define C1 Y13
#define C2 Y14
#define C3 Y15
#define C0_X X12
#define C1_X X13
#define C2_X X14
#define C3_X X15

// ARGS4, ARGS3 and ARGS2 load the coefficients and pointers of the 4-, 3-
// and 2-row forms (the same argument layout with and without iamax) and
// LEN = len(y); they share the first two rows' part, ARGS01.
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

// ROWS4_8, ROWS3_8 and ROWS2_8 update y[i:i+8] (left in Y0, Y1 and stored)
// with the rows' FMAs in order of the rows: LOAD8, one FMA8 a row, STORE8.
#define LOAD8 \
	VMOVUPD (Y_PTR), Y0; \
	VMOVUPD 32(Y_PTR), Y1

#define FMA8(x, c) \
	VFMADD231PD (x), c, Y0; \
	VFMADD231PD 32(x), c, Y1

#define STORE8 \
	VMOVUPD Y0, (Y_PTR); \
	VMOVUPD Y1, 32(Y_PTR)

#define ROWS4_8 \
	LOAD8;            \
	FMA8(X0_PTR, C0); \
	FMA8(X1_PTR, C1); \
	FMA8(X2_PTR, C2); \
	FMA8(X3_PTR, C3); \
	STORE8

#define ROWS3_8 \
	LOAD8;            \
	FMA8(X0_PTR, C0); \
	FMA8(X1_PTR, C1); \
	FMA8(X2_PTR, C2); \
	STORE8

#define ROWS2_8 \
	LOAD8;            \
	FMA8(X0_PTR, C0); \
	FMA8(X1_PTR, C1); \
	STORE8

// ADV4, ADV3 and ADV2 move the row and y pointers on by n bytes.
#define ADV2(n) \
	ADDQ n, X0_PTR; \
	ADDQ n, X1_PTR; \
	ADDQ n, Y_PTR

#define ADV3(n) \
	ADV2(n); \
	ADDQ n, X2_PTR

#define ADV4(n) \
	ADV3(n); \
	ADDQ n, X3_PTR

// func axpy4AVX(c *[4]float64, x0, x1, x2, x3, y []float64)
//
// y[i] = fma(c3, x3[i], fma(c2, x2[i], fma(c1, x1[i], fma(c0, x0[i], y[i]))))
// for i < len(y): the four axpys of c[m]·x_m in order of m with one
// rounding each, as four calls of axpyAVX would round, but reading and
// writing y once. 8 doubles per iteration, then 4, then scalars.
TEXT ·axpy4AVX(SB), NOSPLIT, $0-128
	ARGS4
	MOVQ         LEN, TAIL
	ANDQ         $7, TAIL                // TAIL = n % 8
	SHRQ         $3, LEN                 // LEN = n / 8
	JZ           four4_start

four8:
	ROWS4_8
	ADV4($64)
	DECQ LEN
	JNZ  four8 // } while --LEN > 0

four4_start:
	TESTQ $4, TAIL
	JZ    four1_start // if TAIL < 4 { goto four1_start }
	VMOVUPD     (Y_PTR), Y0      // Y0 = y[i:i+4]
	VFMADD231PD (X0_PTR), C0, Y0 // Y0 += c0*x0[i:i+4]
	VFMADD231PD (X1_PTR), C1, Y0 // Y0 += c1*x1[i:i+4]
	VFMADD231PD (X2_PTR), C2, Y0 // Y0 += c2*x2[i:i+4]
	VFMADD231PD (X3_PTR), C3, Y0 // Y0 += c3*x3[i:i+4]
	VMOVUPD     Y0, (Y_PTR)      // y[i:i+4] = Y0
	ADV4($32)

four1_start:
	ANDQ $3, TAIL // TAIL = n % 4
	JZ   four_end

four1:
	VMOVSD      (Y_PTR), X0        // X0 = y[i]
	VFMADD231SD (X0_PTR), C0_X, X0 // X0 += c0*x0[i]
	VFMADD231SD (X1_PTR), C1_X, X0 // X0 += c1*x1[i]
	VFMADD231SD (X2_PTR), C2_X, X0 // X0 += c2*x2[i]
	VFMADD231SD (X3_PTR), C3_X, X0 // X0 += c3*x3[i]
	VMOVSD      X0, (Y_PTR)        // y[i] = X0
	ADV4($8)
	DECQ        TAIL
	JNZ         four1              // } while --TAIL > 0

four_end:
	VZEROUPPER
	RET

// func axpy2AVX(c *[2]float64, x0, x1, y []float64)
//
// y[i] = fma(c1, x1[i], fma(c0, x0[i], y[i])) for i < len(y), as axpy4AVX
// with two rows.
TEXT ·axpy2AVX(SB), NOSPLIT, $0-80
	ARGS2
	MOVQ         LEN, TAIL
	ANDQ         $7, TAIL              // TAIL = n % 8
	SHRQ         $3, LEN               // LEN = n / 8
	JZ           two4_start

two8:
	ROWS2_8
	ADV2($64)
	DECQ LEN
	JNZ  two8 // } while --LEN > 0

two4_start:
	TESTQ $4, TAIL
	JZ    two1_start // if TAIL < 4 { goto two1_start }
	VMOVUPD     (Y_PTR), Y0      // Y0 = y[i:i+4]
	VFMADD231PD (X0_PTR), C0, Y0 // Y0 += c0*x0[i:i+4]
	VFMADD231PD (X1_PTR), C1, Y0 // Y0 += c1*x1[i:i+4]
	VMOVUPD     Y0, (Y_PTR)      // y[i:i+4] = Y0
	ADV2($32)

two1_start:
	ANDQ $3, TAIL // TAIL = n % 4
	JZ   two_end

two1:
	VMOVSD      (Y_PTR), X0        // X0 = y[i]
	VFMADD231SD (X0_PTR), C0_X, X0 // X0 += c0*x0[i]
	VFMADD231SD (X1_PTR), C1_X, X0 // X0 += c1*x1[i]
	VMOVSD      X0, (Y_PTR)        // y[i] = X0
	ADV2($8)
	DECQ        TAIL
	JNZ         two1               // } while --TAIL > 0

two_end:
	VZEROUPPER
	RET

// The iamax forms below also track, per lane of the eight-element stride,
// the largest |y[i]| after the update and its index: a lane's index moves
// only on a strictly greater value (VCMPPD GT_OQ, false for NaN), so it
// keeps the first index of its maximum, and its value is VMAXPD with the
// running maximum as second source, which a NaN leaves as it was (the same
// value a blend on that compare would give, one instruction shorter a
// step on the lane's chain of dependences). They handle the first
// 8·⌊len(y)/8⌋ elements; the caller does the rest and reduces the lanes.

#define ABS Y11
#define MAX0 Y8
#define MAX1 Y9
#define IDX0 Y6
#define IDX1 Y7
#define CUR0 Y4
#define CUR1 Y5
#define STEP Y10

// IAMAX_SETUP loads the lane state from *lanes (max[8] then idx[8], as
// iamaxLanes) and the constants.
#define IAMAX_SETUP(lanes) \
	MOVQ         $0x7fffffffffffffff, AX; \
	MOVQ         AX, X11; \
	VPBROADCASTQ X11, ABS; \
	MOVQ         $8, AX; \
	MOVQ         AX, X10; \
	VPBROADCASTQ X10, STEP; \
	VMOVUPD      (lanes), MAX0; \
	VMOVUPD      32(lanes), MAX1; \
	VMOVDQU      64(lanes), CUR0; \
	VMOVDQU      96(lanes), CUR1; \
	VMOVDQU      CUR0, IDX0; \
	VMOVDQU      CUR1, IDX1

// IAMAX_STEP folds Y0 = y[i:i+4] and Y1 = y[i+4:i+8] into the lanes.
#define IAMAX_STEP \
	VANDPD    ABS, Y0, Y2; \
	VANDPD    ABS, Y1, Y3; \
	VCMPPD    $0x1e, MAX0, Y2, Y0; \
	VCMPPD    $0x1e, MAX1, Y3, Y1; \
	VMAXPD    MAX0, Y2, MAX0; \
	VMAXPD    MAX1, Y3, MAX1; \
	VBLENDVPD Y0, CUR0, IDX0, IDX0; \
	VBLENDVPD Y1, CUR1, IDX1, IDX1; \
	VPADDQ    STEP, CUR0, CUR0; \
	VPADDQ    STEP, CUR1, CUR1

// IAMAX_STORE writes the lane maxima and indices back to *lanes.
#define IAMAX_STORE(lanes) \
	VMOVUPD MAX0, (lanes); \
	VMOVUPD MAX1, 32(lanes); \
	VMOVDQU IDX0, 64(lanes); \
	VMOVDQU IDX1, 96(lanes)

// func axpy4IamaxAVX(c *[4]float64, x0, x1, x2, x3, y []float64, lanes *iamaxLanes)
TEXT ·axpy4IamaxAVX(SB), NOSPLIT, $0-136
	MOVQ         lanes+128(FP), R10
	IAMAX_SETUP(R10)
	ARGS4
	SHRQ         $3, LEN                 // LEN = n / 8
	JZ           four_iamax_end

four_iamax8:
	ROWS4_8
	IAMAX_STEP
	ADV4($64)
	DECQ LEN
	JNZ  four_iamax8 // } while --LEN > 0

four_iamax_end:
	IAMAX_STORE(R10)
	VZEROUPPER
	RET

// func axpy3IamaxAVX(c *[3]float64, x0, x1, x2, y []float64, lanes *iamaxLanes)
TEXT ·axpy3IamaxAVX(SB), NOSPLIT, $0-112
	MOVQ         lanes+104(FP), R10
	IAMAX_SETUP(R10)
	ARGS3
	SHRQ         $3, LEN                 // LEN = n / 8
	JZ           three_iamax_end

three_iamax8:
	ROWS3_8
	IAMAX_STEP
	ADV3($64)
	DECQ LEN
	JNZ  three_iamax8 // } while --LEN > 0

three_iamax_end:
	IAMAX_STORE(R10)
	VZEROUPPER
	RET

// func axpy2IamaxAVX(c *[2]float64, x0, x1, y []float64, lanes *iamaxLanes)
TEXT ·axpy2IamaxAVX(SB), NOSPLIT, $0-88
	MOVQ         lanes+80(FP), R10
	IAMAX_SETUP(R10)
	ARGS2
	SHRQ         $3, LEN                 // LEN = n / 8
	JZ           two_iamax_end

two_iamax8:
	ROWS2_8
	IAMAX_STEP
	ADV2($64)
	DECQ LEN
	JNZ  two_iamax8 // } while --LEN > 0

two_iamax_end:
	IAMAX_STORE(R10)
	VZEROUPPER
	RET

// func axpy1IamaxAVX(c float64, x0, y []float64, lanes *iamaxLanes)
TEXT ·axpy1IamaxAVX(SB), NOSPLIT, $0-64
	MOVQ         lanes+56(FP), R10
	IAMAX_SETUP(R10)
	VBROADCASTSD c+0(FP), C0
	MOVQ         x0_base+8(FP), X0_PTR
	MOVQ         y_base+32(FP), Y_PTR
	MOVQ         y_len+40(FP), LEN
	SHRQ         $3, LEN                 // LEN = n / 8
	JZ           one_iamax_end

one_iamax8:
	VMOVUPD     (Y_PTR), Y0        // Y0 = y[i:i+4]
	VMOVUPD     32(Y_PTR), Y1      // Y1 = y[i+4:i+8]
	VFMADD231PD (X0_PTR), C0, Y0   // Y0 += c*x0[i:i+4]
	VFMADD231PD 32(X0_PTR), C0, Y1 // Y1 += c*x0[i+4:i+8]
	VMOVUPD     Y0, (Y_PTR)        // y[i:i+4] = Y0
	VMOVUPD     Y1, 32(Y_PTR)      // y[i+4:i+8] = Y1
	IAMAX_STEP
	ADDQ        $64, X0_PTR
	ADDQ        $64, Y_PTR
	DECQ        LEN
	JNZ         one_iamax8         // } while --LEN > 0

one_iamax_end:
	IAMAX_STORE(R10)
	VZEROUPPER
	RET
