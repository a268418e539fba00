//go:build amd64 && !purego

#include "textflag.h"

// func prefetchL2(x []float64)
//
// PREFETCHT1 of every 64-byte line that x's elements touch.
TEXT ·prefetchL2(SB), NOSPLIT, $0-24
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	LEAQ (SI)(CX*8), DX  // DX = end of x
	ANDQ $-64, SI        // SI = start of x's first line

pf_loop:
	PREFETCHT1 (SI)
	ADDQ       $64, SI
	CMPQ       SI, DX
	JB         pf_loop   // } while SI < end
	RET
