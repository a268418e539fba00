//go:build amd64 && !purego

#include "textflag.h"

// func addChain(n, step uint64) uint64
TEXT ·addChain(SB), NOSPLIT, $0-24
	MOVQ n+0(FP), CX     // CX = n
	MOVQ step+8(FP), DX  // DX = step (a register operand: no immediate folding)
	XORQ AX, AX          // AX = 0
	TESTQ CX, CX
	JZ   done

loop:
	ADDQ DX, AX // AX += step, sixteen times, each waiting for the one before
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	DECQ CX     // n--
	JNZ  loop   // for n != 0

done:
	MOVQ AX, ret+16(FP) // return AX
	RET

// func fmaChain(n uint64)
TEXT ·fmaChain(SB), NOSPLIT, $0-8
	MOVQ n+0(FP), CX // CX = n
	VXORPD Y0, Y0, Y0   // twelve accumulators = 0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12 // multiplicands = 0: the values never grow or go subnormal
	VXORPD Y13, Y13, Y13
	TESTQ CX, CX
	JZ    done

loop:
	VFMADD231PD Y12, Y13, Y0 // Y0 += Y13·Y12, twelve independent chains
	VFMADD231PD Y12, Y13, Y1
	VFMADD231PD Y12, Y13, Y2
	VFMADD231PD Y12, Y13, Y3
	VFMADD231PD Y12, Y13, Y4
	VFMADD231PD Y12, Y13, Y5
	VFMADD231PD Y12, Y13, Y6
	VFMADD231PD Y12, Y13, Y7
	VFMADD231PD Y12, Y13, Y8
	VFMADD231PD Y12, Y13, Y9
	VFMADD231PD Y12, Y13, Y10
	VFMADD231PD Y12, Y13, Y11
	DECQ CX                  // n--
	JNZ  loop                // for n != 0

done:
	VZEROUPPER
	RET

// func fmaChain512(n uint64)
TEXT ·fmaChain512(SB), NOSPLIT, $0-8
	MOVQ n+0(FP), CX // CX = n
	VPXORQ Z0, Z0, Z0   // accumulators and multiplicands = 0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	TESTQ CX, CX
	JZ    done512

loop512:
	VFMADD231PD Z12, Z13, Z0 // Z0 += Z13·Z12, twelve independent chains
	VFMADD231PD Z12, Z13, Z1
	VFMADD231PD Z12, Z13, Z2
	VFMADD231PD Z12, Z13, Z3
	VFMADD231PD Z12, Z13, Z4
	VFMADD231PD Z12, Z13, Z5
	VFMADD231PD Z12, Z13, Z6
	VFMADD231PD Z12, Z13, Z7
	VFMADD231PD Z12, Z13, Z8
	VFMADD231PD Z12, Z13, Z9
	VFMADD231PD Z12, Z13, Z10
	VFMADD231PD Z12, Z13, Z11
	DECQ CX                  // n--
	JNZ  loop512             // for n != 0

done512:
	VZEROUPPER
	RET
