//go:build amd64 && !purego

#include "textflag.h"

// Packing routines of the GEMM driver (see gemm_pack.go for the layouts). Each
// handles four steps p at a time with AVX loads and stores, then the last
// k%4 steps one at a time.

#define K_LEFT CX
#define K_QUADS BX
#define SRC SI
#define DST DI
#define LD R8
#define LD3 R9
#define LD5 R10
#define SRC4 R11
#define ST R12
#define ST3 R13

// LOAD8x4 loads four steps of eight rows: Y0..Y3 = rows 0..3 from SRC,
// Y4..Y7 = rows 4..7 from SRC4, [p:p+4] of each.
#define LOAD8x4 \
	VMOVUPD (SRC), Y0;         \
	VMOVUPD (SRC)(LD*1), Y1;   \
	VMOVUPD (SRC)(LD*2), Y2;   \
	VMOVUPD (SRC)(LD3*1), Y3;  \
	VMOVUPD (SRC4), Y4;        \
	VMOVUPD (SRC4)(LD*1), Y5;  \
	VMOVUPD (SRC4)(LD*2), Y6;  \
	VMOVUPD (SRC4)(LD3*1), Y7

// TRANSPOSE8x4 turns the rows in Y0..Y7 into steps: Y0, Y4 = rows 0..3,
// 4..7 of step p; Y1, Y5 of p+1; Y2, Y6 of p+2; Y3, Y7 of p+3 (Y8..Y11
// scratch). Rows 0..3: unpacking pairs gives b0[p] b1[p] b0[p+2] b1[p+2]
// and the like, and the 128-bit halves are then swapped into place.
#define TRANSPOSE8x4 \
	VUNPCKLPD  Y1, Y0, Y8;         \
	VUNPCKHPD  Y1, Y0, Y9;         \
	VUNPCKLPD  Y3, Y2, Y10;        \
	VUNPCKHPD  Y3, Y2, Y11;        \
	VPERM2F128 $0x20, Y10, Y8, Y0; \
	VPERM2F128 $0x20, Y11, Y9, Y1; \
	VPERM2F128 $0x31, Y10, Y8, Y2; \
	VPERM2F128 $0x31, Y11, Y9, Y3; \
	VUNPCKLPD  Y5, Y4, Y8;         \
	VUNPCKHPD  Y5, Y4, Y9;         \
	VUNPCKLPD  Y7, Y6, Y10;        \
	VUNPCKHPD  Y7, Y6, Y11;        \
	VPERM2F128 $0x20, Y10, Y8, Y4; \
	VPERM2F128 $0x20, Y11, Y9, Y5; \
	VPERM2F128 $0x31, Y10, Y8, Y6; \
	VPERM2F128 $0x31, Y11, Y9, Y7

// COPY8x1 copies one step of eight rows, b[0..7][p], to dst[0:8] at DST.
#define COPY8x1 \
	MOVSD (SRC), X0;        \
	MOVSD (SRC)(LD*1), X1;  \
	MOVSD (SRC)(LD*2), X2;  \
	MOVSD (SRC)(LD3*1), X3; \
	MOVSD (SRC4), X4;       \
	MOVSD (SRC4)(LD*1), X5; \
	MOVSD (SRC4)(LD*2), X6; \
	MOVSD (SRC4)(LD3*1), X7; \
	MOVSD X0, (DST);        \
	MOVSD X1, 8(DST);       \
	MOVSD X2, 16(DST);      \
	MOVSD X3, 24(DST);      \
	MOVSD X4, 32(DST);      \
	MOVSD X5, 40(DST);      \
	MOVSD X6, 48(DST);      \
	MOVSD X7, 56(DST)

// func gemmPackRows6(k int, a []float64, lda int, dst []float64)
//
//	for p := range k {
//		for i := range 6 {
//			dst[p*6+i] = a[i*lda+p]
//		}
//	}
TEXT ·gemmPackRows6(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), K_LEFT
	MOVQ a_base+8(FP), SRC
	MOVQ lda+32(FP), LD
	MOVQ dst_base+40(FP), DST
	SHLQ $3, LD                       // LD = lda in bytes
	LEAQ (LD)(LD*2), LD3              // LD3 = 3 rows
	LEAQ (LD)(LD*4), LD5              // LD5 = 5 rows

	MOVQ K_LEFT, K_QUADS
	SHRQ $2, K_QUADS                  // K_QUADS = k / 4
	JZ   rows6_tail

rows6_loop4:
	VMOVUPD (SRC), Y0                 // Y0 = a[0][p:p+4]
	VMOVUPD (SRC)(LD*1), Y1           // Y1 = a[1][p:p+4]
	VMOVUPD (SRC)(LD*2), Y2           // Y2 = a[2][p:p+4]
	VMOVUPD (SRC)(LD3*1), Y3          // Y3 = a[3][p:p+4]
	VMOVUPD (SRC)(LD*4), Y4           // Y4 = a[4][p:p+4]
	VMOVUPD (SRC)(LD5*1), Y5          // Y5 = a[5][p:p+4]
	VUNPCKLPD Y1, Y0, Y6              // Y6 = a0[p] a1[p] a0[p+2] a1[p+2]
	VUNPCKHPD Y1, Y0, Y7              // Y7 = a0[p+1] a1[p+1] a0[p+3] a1[p+3]
	VUNPCKLPD Y3, Y2, Y8              // Y8 = a2[p] a3[p] a2[p+2] a3[p+2]
	VUNPCKHPD Y3, Y2, Y9              // Y9 = a2[p+1] a3[p+1] a2[p+3] a3[p+3]
	VUNPCKLPD Y5, Y4, Y10             // Y10 = a4[p] a5[p] a4[p+2] a5[p+2]
	VUNPCKHPD Y5, Y4, Y11             // Y11 = a4[p+1] a5[p+1] a4[p+3] a5[p+3]
	VPERM2F128 $0x20, Y8, Y6, Y0      // Y0 = a0..a3 [p]
	VPERM2F128 $0x20, Y9, Y7, Y1      // Y1 = a0..a3 [p+1]
	VPERM2F128 $0x31, Y8, Y6, Y2      // Y2 = a0..a3 [p+2]
	VPERM2F128 $0x31, Y9, Y7, Y3      // Y3 = a0..a3 [p+3]
	VMOVUPD Y0, (DST)                 // dst[6p : 6p+4]
	VMOVUPD X10, 32(DST)              // dst[6p+4 : 6p+6]
	VMOVUPD Y1, 48(DST)               // dst[6(p+1) : 6(p+1)+4]
	VMOVUPD X11, 80(DST)              // dst[6(p+1)+4 : 6(p+1)+6]
	VMOVUPD Y2, 96(DST)               // dst[6(p+2) : 6(p+2)+4]
	VEXTRACTF128 $1, Y10, 128(DST)    // dst[6(p+2)+4 : 6(p+2)+6]
	VMOVUPD Y3, 144(DST)              // dst[6(p+3) : 6(p+3)+4]
	VEXTRACTF128 $1, Y11, 176(DST)    // dst[6(p+3)+4 : 6(p+3)+6]
	ADDQ $32, SRC                     // p += 4
	ADDQ $192, DST
	DECQ K_QUADS
	JNZ  rows6_loop4

rows6_tail:
	ANDQ $3, K_LEFT                   // K_LEFT = k % 4
	JZ   rows6_done

rows6_loop1:
	MOVSD (SRC), X0                   // dst[6p+i] = a[i][p]
	MOVSD (SRC)(LD*1), X1
	MOVSD (SRC)(LD*2), X2
	MOVSD (SRC)(LD3*1), X3
	MOVSD (SRC)(LD*4), X4
	MOVSD (SRC)(LD5*1), X5
	MOVSD X0, (DST)
	MOVSD X1, 8(DST)
	MOVSD X2, 16(DST)
	MOVSD X3, 24(DST)
	MOVSD X4, 32(DST)
	MOVSD X5, 40(DST)
	ADDQ  $8, SRC                     // p++
	ADDQ  $48, DST
	DECQ  K_LEFT
	JNZ   rows6_loop1

rows6_done:
	VZEROUPPER
	RET

// func gemmPackRows8(k int, b []float64, ldb int, dst []float64)
//
//	for p := range k {
//		for j := range 8 {
//			dst[p*8+j] = b[j*ldb+p]
//		}
//	}
TEXT ·gemmPackRows8(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), K_LEFT
	MOVQ b_base+8(FP), SRC
	MOVQ ldb+32(FP), LD
	MOVQ dst_base+40(FP), DST
	SHLQ $3, LD                       // LD = ldb in bytes
	LEAQ (LD)(LD*2), LD3              // LD3 = 3 rows
	LEAQ (SRC)(LD*4), SRC4            // SRC4 = row 4

	MOVQ K_LEFT, K_QUADS
	SHRQ $2, K_QUADS                  // K_QUADS = k / 4
	JZ   rows8_tail

rows8_loop4:
	LOAD8x4
	TRANSPOSE8x4
	VMOVUPD Y0, (DST)                 // dst[8p : 8p+8]
	VMOVUPD Y4, 32(DST)
	VMOVUPD Y1, 64(DST)               // dst[8(p+1) : 8(p+1)+8]
	VMOVUPD Y5, 96(DST)
	VMOVUPD Y2, 128(DST)              // dst[8(p+2) : 8(p+2)+8]
	VMOVUPD Y6, 160(DST)
	VMOVUPD Y3, 192(DST)              // dst[8(p+3) : 8(p+3)+8]
	VMOVUPD Y7, 224(DST)
	ADDQ $32, SRC                     // p += 4
	ADDQ $32, SRC4
	ADDQ $256, DST
	DECQ K_QUADS
	JNZ  rows8_loop4

rows8_tail:
	ANDQ $3, K_LEFT                   // K_LEFT = k % 4
	JZ   rows8_done

rows8_loop1:
	COPY8x1                           // dst[8p+j] = b[j][p]
	ADDQ  $8, SRC                     // p++
	ADDQ  $8, SRC4
	ADDQ  $64, DST
	DECQ  K_LEFT
	JNZ   rows8_loop1

rows8_done:
	VZEROUPPER
	RET

// func gemmPackCols6(k int, a []float64, lda int, dst []float64)
//
//	for p := range k {
//		copy(dst[p*6:p*6+6], a[p*lda:p*lda+6])
//	}
TEXT ·gemmPackCols6(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), K_LEFT
	MOVQ a_base+8(FP), SRC
	MOVQ lda+32(FP), LD
	MOVQ dst_base+40(FP), DST
	SHLQ $3, LD                       // LD = lda in bytes
	TESTQ K_LEFT, K_LEFT
	JZ    cols6_done

cols6_loop:
	VMOVUPD (SRC), Y0                 // Y0 = a[p][0:4]
	VMOVUPD 32(SRC), X1               // X1 = a[p][4:6]
	VMOVUPD Y0, (DST)                 // dst[6p : 6p+4] = Y0
	VMOVUPD X1, 32(DST)               // dst[6p+4 : 6p+6] = X1
	ADDQ    LD, SRC                   // p++
	ADDQ    $48, DST
	DECQ    K_LEFT
	JNZ     cols6_loop

cols6_done:
	VZEROUPPER
	RET

// func gemmPackCols8(k int, b []float64, ldb int, dst []float64)
//
//	for p := range k {
//		copy(dst[p*8:p*8+8], b[p*ldb:p*ldb+8])
//	}
TEXT ·gemmPackCols8(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), K_LEFT
	MOVQ b_base+8(FP), SRC
	MOVQ ldb+32(FP), LD
	MOVQ dst_base+40(FP), DST
	SHLQ $3, LD                       // LD = ldb in bytes
	MOVQ K_LEFT, K_QUADS
	SHRQ $1, K_QUADS                  // K_QUADS = k / 2
	JZ   cols8_tail

cols8_loop2:
	VMOVUPD (SRC), Y0                 // Y0, Y1 = b[p][0:8]
	VMOVUPD 32(SRC), Y1
	VMOVUPD (SRC)(LD*1), Y2           // Y2, Y3 = b[p+1][0:8]
	VMOVUPD 32(SRC)(LD*1), Y3
	VMOVUPD Y0, (DST)                 // dst[8p : 8p+16] = Y0..Y3
	VMOVUPD Y1, 32(DST)
	VMOVUPD Y2, 64(DST)
	VMOVUPD Y3, 96(DST)
	LEAQ    (SRC)(LD*2), SRC          // p += 2
	ADDQ    $128, DST
	DECQ    K_QUADS
	JNZ     cols8_loop2

cols8_tail:
	ANDQ $1, K_LEFT                   // one step left?
	JZ   cols8_done
	VMOVUPD (SRC), Y0                 // dst[8p : 8p+8] = b[p][0:8]
	VMOVUPD 32(SRC), Y1
	VMOVUPD Y0, (DST)
	VMOVUPD Y1, 32(DST)

cols8_done:
	VZEROUPPER
	RET

// func gemmPackRows8S(k int, b []float64, ldb int, dst []float64, stride int)
//
//	for p := range k {
//		for j := range 8 {
//			dst[p*stride+j] = b[j*ldb+p]
//		}
//	}
//
// Four steps p at a time: eight rows of four, transposed in 256-bit
// registers.
TEXT ·gemmPackRows8S(SB), NOSPLIT, $0-72
	MOVQ k+0(FP), K_LEFT
	MOVQ b_base+8(FP), SRC
	MOVQ ldb+32(FP), LD
	MOVQ dst_base+40(FP), DST
	MOVQ stride+64(FP), ST
	SHLQ $3, LD                       // LD = ldb in bytes
	SHLQ $3, ST                       // ST = stride in bytes
	LEAQ (LD)(LD*2), LD3              // LD3 = 3 rows
	LEAQ (ST)(ST*2), ST3              // ST3 = 3 steps of dst
	LEAQ (SRC)(LD*4), SRC4            // SRC4 = row 4

	MOVQ K_LEFT, K_QUADS
	SHRQ $2, K_QUADS                  // K_QUADS = k / 4
	JZ   rows8s_tail

rows8s_loop4:
	LOAD8x4
	TRANSPOSE8x4
	VMOVUPD Y0, (DST)                 // dst[p*stride : p*stride+8]
	VMOVUPD Y4, 32(DST)
	VMOVUPD Y1, (DST)(ST*1)           // dst[(p+1)*stride : ...+8]
	VMOVUPD Y5, 32(DST)(ST*1)
	VMOVUPD Y2, (DST)(ST*2)           // dst[(p+2)*stride : ...+8]
	VMOVUPD Y6, 32(DST)(ST*2)
	VMOVUPD Y3, (DST)(ST3*1)          // dst[(p+3)*stride : ...+8]
	VMOVUPD Y7, 32(DST)(ST3*1)
	ADDQ $32, SRC                     // p += 4
	ADDQ $32, SRC4
	LEAQ (DST)(ST*4), DST
	DECQ K_QUADS
	JNZ  rows8s_loop4

rows8s_tail:
	ANDQ $3, K_LEFT                   // K_LEFT = k % 4
	JZ   rows8s_done

rows8s_loop1:
	COPY8x1                           // dst[p*stride+j] = b[j][p]
	ADDQ  $8, SRC                     // p++
	ADDQ  $8, SRC4
	ADDQ  ST, DST
	DECQ  K_LEFT
	JNZ   rows8s_loop1

rows8s_done:
	VZEROUPPER
	RET
