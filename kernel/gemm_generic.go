package kernel

// gemmKernelGo is the pure-Go micro-kernel: with T = Σ_p a[6p:6p+6] ⊗
// b[8p:8p+8] (a 6×8 outer-product sum over the packed panels a and b of
// depth k), it writes
//
//	c[i*ldc+j] = alpha*T[i][j] + beta*c[i*ldc+j]   (i < 6, j < 8)
//
// reading no C when beta == 0. It walks the tile in 2×4 sub-tiles so that
// the accumulators and operands fit in the 16 floating-point registers of
// amd64 and arm64.
func gemmKernelGo(k int, a, b, c []float64, ldc int, alpha, beta float64) {
	var t [gemmMR * gemmNR]float64
	a = a[:gemmMR*k]
	b = b[:gemmNR*k]
	for i := 0; i < gemmMR; i += 2 {
		for j := 0; j < gemmNR; j += 4 {
			var c00, c01, c02, c03, c10, c11, c12, c13 float64
			for p := range k {
				aa := a[p*gemmMR+i : p*gemmMR+i+2 : p*gemmMR+i+2]
				bb := b[p*gemmNR+j : p*gemmNR+j+4 : p*gemmNR+j+4]
				a0, a1 := aa[0], aa[1]
				b0, b1, b2, b3 := bb[0], bb[1], bb[2], bb[3]
				c00 += a0 * b0
				c01 += a0 * b1
				c02 += a0 * b2
				c03 += a0 * b3
				c10 += a1 * b0
				c11 += a1 * b1
				c12 += a1 * b2
				c13 += a1 * b3
			}
			r0 := t[i*gemmNR+j : i*gemmNR+j+4 : i*gemmNR+j+4]
			r1 := t[(i+1)*gemmNR+j : (i+1)*gemmNR+j+4 : (i+1)*gemmNR+j+4]
			r0[0], r0[1], r0[2], r0[3] = c00, c01, c02, c03
			r1[0], r1[1], r1[2], r1[3] = c10, c11, c12, c13
		}
	}
	storeTile(gemmMR, gemmNR, &t, c, ldc, alpha, beta)
}
