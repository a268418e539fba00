//go:build amd64 && !purego

#include "textflag.h"

// func compressAVX(x []float64, idx []int, val []float64, tab *[16]compressEntry) int
//
// CompressNonzero on len(x) = 4·m elements: for each group of four, the
// mask of nonzero lanes (not equal to zero, or unordered) selects a table
// entry whose permutation moves those lanes to the front. All four lanes
// of values and of positions are stored at the current count, which then
// advances by the number of nonzero lanes; no branch depends on the data.
TEXT ·compressAVX(SB), NOSPLIT, $0-88
	MOVQ   x_base+0(FP), SI
	MOVQ   x_len+8(FP), CX
	MOVQ   idx_base+24(FP), DI
	MOVQ   val_base+48(FP), R8
	MOVQ   tab+72(FP), R9
	XORQ   DX, DX              // count
	VXORPD Y15, Y15, Y15       // zero
	XORQ   R10, R10
	VMOVQ  R10, X14
	VPBROADCASTQ X14, Y14      // Y14 = position of lane 0 (0)
	MOVQ   $4, R10
	VMOVQ  R10, X13
	VPBROADCASTQ X13, Y13      // Y13 = 4 in every lane
	SHRQ   $2, CX
	JZ     done

loop:
	VMOVUPD      (SI), Y0
	VCMPPD       $4, Y15, Y0, Y1     // lanes ≠ 0 or NaN
	VMOVMSKPD    Y1, AX
	SHLQ         $7, AX              // 128-byte entries
	VMOVDQU      (R9)(AX*1), Y2      // permutation
	VPERMD       Y0, Y2, Y3          // nonzero values first
	VMOVUPD      Y3, (R8)(DX*8)
	VMOVDQU      32(R9)(AX*1), Y4    // their lanes
	VPADDQ       Y14, Y4, Y4         // their positions
	VMOVDQU      Y4, (DI)(DX*8)
	ADDQ         64(R9)(AX*1), DX    // count += nonzero lanes
	VPADDQ       Y13, Y14, Y14
	ADDQ         $32, SI
	DECQ         CX
	JNZ          loop

done:
	MOVQ DX, ret+80(FP)
	VZEROUPPER
	RET
