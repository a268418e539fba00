//go:build !amd64 || purego

package kernel

// Without the assembly the float32 routines are their Go forms.

func sgemmMicro(kern, kb int, ap, bp, c []float32, ldc int, alpha, beta float32) {
	sgemmKernelGo(kb, ap, bp, c, ldc, alpha, beta)
}

func sdot(x, y []float32) float32 { return sdotGo(x, y) }

func ssumSq(x []float32) float64 { return ssumSqGo(x) }

func isamax(x []float32) int { return isamaxGo(x) }

func saxpyRows(c, g []float32, ld int, idx []int, y []float32) { saxpyRowsGo(c, g, ld, idx, y) }

func saxpyRowsIamax(c, g []float32, ld int, idx []int, y []float32) int {
	saxpyRowsGo(c, g, ld, idx, y)
	return isamaxSkipNaN32Go(y)
}

func saxpy(alpha float32, x, y []float32) { saxpyGo(alpha, x, y) }

func sscal(alpha float32, x []float32) { sscalGo(alpha, x) }

func sgemmPackPanelB(asm, trans bool, nr, k int, src []float32, ld int, dst []float32) {
	if trans {
		packRowsF32(src, ld, 0, nr, 0, k, nr, dst)
	} else {
		packColsF32(src, ld, 0, k, 0, nr, nr, dst)
	}
}

func sgemmDirect(kern, k int, a []float32, lda int, b []float32, np int, c []float32, ldc int, alpha, beta float32) {
	sgemmDirectGo(k, a, lda, b, np, c, ldc, alpha, beta)
}

func sgemmPackPanelA(asm bool, k int, src []float32, ld int, dst []float32) {
	packRows6F32(src, ld, 0, 0, k, dst)
}

func sgemmTiles(kern, k int, a, b []float32, nt int, c []float32, ldc int, alpha, beta float32) {
	sgemmTilesGo(k, a, b, nt, c, ldc, alpha, beta)
}

func cvt64to32(dst []float32, src []float64) { cvt64to32Go(dst, src) }

func cvt32to64(dst []float64, src []float32) { cvt32to64Go(dst, src) }

func round32To(dst []float32, s []float64) { round32ToGo(dst, s) }

func round32(s []float64) { round32Go(s) }
