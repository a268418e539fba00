//go:build amd64 && !purego

#include "textflag.h"

// Packing routines for the AVX-512 tier's 24-column panels of B (see
// gemm_pack.go for the layouts).

#define K_LEFT CX
#define K_QUADS BX
#define SRC SI
#define DST DI
#define LD R8
#define LD3 R9
#define SRC4 R11
#define ST R12
#define ST3 R13

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
	VMOVUPD (SRC), Y0                 // Y0..Y3 = b[0..3][p:p+4]
	VMOVUPD (SRC)(LD*1), Y1
	VMOVUPD (SRC)(LD*2), Y2
	VMOVUPD (SRC)(LD3*1), Y3
	VMOVUPD (SRC4), Y4                // Y4..Y7 = b[4..7][p:p+4]
	VMOVUPD (SRC4)(LD*1), Y5
	VMOVUPD (SRC4)(LD*2), Y6
	VMOVUPD (SRC4)(LD3*1), Y7
	VUNPCKLPD Y1, Y0, Y8              // Y8 = b0[p] b1[p] b0[p+2] b1[p+2]
	VUNPCKHPD Y1, Y0, Y9              // Y9 = b0[p+1] b1[p+1] b0[p+3] b1[p+3]
	VUNPCKLPD Y3, Y2, Y10             // Y10 = b2[p] b3[p] b2[p+2] b3[p+2]
	VUNPCKHPD Y3, Y2, Y11             // Y11 = b2[p+1] b3[p+1] b2[p+3] b3[p+3]
	VPERM2F128 $0x20, Y10, Y8, Y0     // Y0 = b0..b3 [p]
	VPERM2F128 $0x20, Y11, Y9, Y1     // Y1 = b0..b3 [p+1]
	VPERM2F128 $0x31, Y10, Y8, Y2     // Y2 = b0..b3 [p+2]
	VPERM2F128 $0x31, Y11, Y9, Y3     // Y3 = b0..b3 [p+3]
	VUNPCKLPD Y5, Y4, Y8              // the same for rows 4..7
	VUNPCKHPD Y5, Y4, Y9
	VUNPCKLPD Y7, Y6, Y10
	VUNPCKHPD Y7, Y6, Y11
	VPERM2F128 $0x20, Y10, Y8, Y4     // Y4 = b4..b7 [p]
	VPERM2F128 $0x20, Y11, Y9, Y5     // Y5 = b4..b7 [p+1]
	VPERM2F128 $0x31, Y10, Y8, Y6     // Y6 = b4..b7 [p+2]
	VPERM2F128 $0x31, Y11, Y9, Y7     // Y7 = b4..b7 [p+3]
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
	MOVSD (SRC), X0                   // dst[p*stride+j] = b[j][p]
	MOVSD (SRC)(LD*1), X1
	MOVSD (SRC)(LD*2), X2
	MOVSD (SRC)(LD3*1), X3
	MOVSD (SRC4), X4
	MOVSD (SRC4)(LD*1), X5
	MOVSD (SRC4)(LD*2), X6
	MOVSD (SRC4)(LD3*1), X7
	MOVSD X0, (DST)
	MOVSD X1, 8(DST)
	MOVSD X2, 16(DST)
	MOVSD X3, 24(DST)
	MOVSD X4, 32(DST)
	MOVSD X5, 40(DST)
	MOVSD X6, 48(DST)
	MOVSD X7, 56(DST)
	ADDQ  $8, SRC                     // p++
	ADDQ  $8, SRC4
	ADDQ  ST, DST
	DECQ  K_LEFT
	JNZ   rows8s_loop1

rows8s_done:
	VZEROUPPER
	RET

// func gemmPackCols24(k int, b []float64, ldb int, dst []float64)
//
//	for p := range k {
//		copy(dst[p*24:p*24+24], b[p*ldb:p*ldb+24])
//	}
TEXT ·gemmPackCols24(SB), NOSPLIT, $0-64
	MOVQ  k+0(FP), K_LEFT
	MOVQ  b_base+8(FP), SRC
	MOVQ  ldb+32(FP), LD
	MOVQ  dst_base+40(FP), DST
	SHLQ  $3, LD                      // LD = ldb in bytes
	TESTQ K_LEFT, K_LEFT
	JZ    cols24_done

cols24_loop:
	VMOVUPD (SRC), Z0                 // Z0..Z2 = b[p][0:24]
	VMOVUPD 64(SRC), Z1
	VMOVUPD 128(SRC), Z2
	VMOVUPD Z0, (DST)                 // dst[24p : 24p+24] = Z0..Z2
	VMOVUPD Z1, 64(DST)
	VMOVUPD Z2, 128(DST)
	ADDQ    LD, SRC                   // p++
	ADDQ    $192, DST
	DECQ    K_LEFT
	JNZ     cols24_loop

cols24_done:
	VZEROUPPER
	RET
