//go:build amd64 && !purego

#include "textflag.h"

// The packing routine of the AVX-512 tier's 24-column panels of B stored
// by rows (see gemm_pack.go for the layouts; gemmPackRows8S, for B
// stored by columns, is AVX2 code in gemm_pack_amd64.s).

#define K_LEFT CX
#define SRC SI
#define DST DI
#define LD R8

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
