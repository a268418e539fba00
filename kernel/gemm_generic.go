package kernel

import "math"

// gemmKernelGo is the pure-Go micro-kernel: with T = Σ_p a[6p:6p+6] ⊗
// b[8p:8p+8] (a 6×8 outer-product sum over the packed panels a and b of
// depth k), it writes
//
//	c[i*ldc+j] = alpha*T[i][j] + beta*c[i*ldc+j]   (i < 6, j < 8)
//
// reading no C when beta == 0. It walks the tile in 3×2 sub-tiles: six
// accumulators and five operands fit the floating-point registers the Go
// compiler has on amd64 without spilling, which measured faster than 2×4,
// 2×2, 1×4 and 1×8 sub-tiles.
func gemmKernelGo(k int, a, b, c []float64, ldc int, alpha, beta float64) {
	const gemmMR, gemmNR = 6, 8
	var t [gemmMR * gemmNR]float64
	a = a[:gemmMR*k]
	b = b[:gemmNR*k]
	for i := 0; i < gemmMR; i += 3 {
		for j := 0; j < gemmNR; j += 2 {
			var c00, c01, c10, c11, c20, c21 float64
			for p := range k {
				aa := a[p*gemmMR+i : p*gemmMR+i+3 : p*gemmMR+i+3]
				bb := b[p*gemmNR+j : p*gemmNR+j+2 : p*gemmNR+j+2]
				b0, b1 := bb[0], bb[1]
				a0 := aa[0]
				c00 += a0 * b0
				c01 += a0 * b1
				a0 = aa[1]
				c10 += a0 * b0
				c11 += a0 * b1
				a0 = aa[2]
				c20 += a0 * b0
				c21 += a0 * b1
			}
			t[i*gemmNR+j], t[i*gemmNR+j+1] = c00, c01
			t[(i+1)*gemmNR+j], t[(i+1)*gemmNR+j+1] = c10, c11
			t[(i+2)*gemmNR+j], t[(i+2)*gemmNR+j+1] = c20, c21
		}
	}
	storeTile(gemmMR, gemmNR, t[:], gemmNR, c, ldc, alpha, beta)
}

// gemmKernelGoMN is the plain Go form of any micro-kernel with an mr×nr
// tile, rounded as the assembly ones round (one fused multiply-add a step,
// in order of p): what gemmKernel8x24 computes, where it is not compiled
// in.
func gemmKernelGoMN(mr, nr, k int, a, b, c []float64, ldc int, alpha, beta float64) {
	var t [gemmTileMax]float64
	for p := range k {
		ap, bp := a[p*mr:p*mr+mr], b[p*nr:p*nr+nr]
		for i, av := range ap {
			row := t[i*nr : i*nr+nr]
			for j, bv := range bp {
				row[j] = math.FMA(av, bv, row[j])
			}
		}
	}
	storeTile(mr, nr, t[:mr*nr], nr, c, ldc, alpha, beta)
}
