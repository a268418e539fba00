//go:build amd64 && !purego

#include "textflag.h"

// func compress512(x []float64, idx []int, val []float64) int
//
// CompressNonzero on all of x (idx and val as long), eight elements a
// step: the mask of nonzero lanes (not equal to zero, or unordered) packs
// those lanes of the values and of their positions to the front of two
// registers (VCOMPRESSPD, VPCOMPRESSQ), which are stored whole at the
// current count — at most the position of the group, so inside the
// slices — and the count advances by the mask's population. The last
// n%8 elements go under the mask K3 of their lanes, and so does their
// store.
TEXT ·compress512(SB), NOSPLIT, $0-80
	MOVQ         x_base+0(FP), SI
	MOVQ         x_len+8(FP), CX
	MOVQ         idx_base+24(FP), DI
	MOVQ         val_base+48(FP), R8
	XORQ         DX, DX                   // count
	VPXORQ       Z15, Z15, Z15            // zero
	VPMOVZXBQ    ·compressLanes512(SB), Z14 // Z14 = positions of the group: 0..7
	MOVQ         $8, AX
	VPBROADCASTQ AX, Z13                  // Z13 = 8 in every lane
	MOVQ         CX, BX
	ANDQ         $7, BX                   // BX = n % 8
	SHRQ         $3, CX                   // CX = n / 8
	JZ           tail

loop:
	VMOVUPD     (SI), Z0
	VCMPPD      $4, Z15, Z0, K1          // lanes ≠ 0 or NaN
	VCOMPRESSPD Z0, K1, Z1               // nonzero values first
	VPCOMPRESSQ Z14, K1, Z2              // their positions
	VMOVUPD     Z1, (R8)(DX*8)
	VMOVDQU64   Z2, (DI)(DX*8)
	KMOVB       K1, AX
	POPCNTL     AX, AX
	ADDQ        AX, DX                   // count += nonzero lanes
	VPADDQ      Z13, Z14, Z14
	ADDQ        $64, SI
	DECQ        CX
	JNZ         loop

tail:
	TESTQ       BX, BX
	JZ          done
	LEAQ        ·tailMask16(SB), AX
	KMOVB       (AX)(BX*2), K3           // the lanes of the tail
	VMOVUPD.Z   (SI), K3, Z0
	VCMPPD      $4, Z15, Z0, K3, K1
	VCOMPRESSPD Z0, K1, Z1
	VPCOMPRESSQ Z14, K1, Z2
	VMOVUPD     Z1, K3, (R8)(DX*8)       // count + n%8 ≤ n
	VMOVDQU64   Z2, K3, (DI)(DX*8)
	KMOVB       K1, AX
	POPCNTL     AX, AX
	ADDQ        AX, DX

done:
	MOVQ       DX, ret+72(FP)
	VZEROUPPER
	RET

// compressLanes512 is the bytes 0, 1, …, 7: the lanes' positions.
DATA ·compressLanes512+0(SB)/8, $0x0706050403020100
GLOBL ·compressLanes512(SB), RODATA|NOPTR, $8
