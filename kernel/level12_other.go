//go:build !amd64 || purego

package kernel

// Without the assembly, useAsm is false and none of these is called; they
// exist so that the dispatching code compiles on every platform.

func dotAVX(x, y []float64) float64 { return dotRef(x, y) }

func dotIncAVX(x, y []float64, n, incX, incY int) float64 {
	return dotIncRef(x, y, n, incX, incY, 0, 0)
}

func axpyAVX(alpha float64, x, y []float64) { axpyRef(alpha, x, y) }

func axpyIncAVX(alpha float64, x, y []float64, n, incX, incY int) {
	axpyIncRef(alpha, x, y, n, incX, incY, 0, 0)
}

func scalAVX(alpha float64, x []float64) { scalRef(alpha, x) }

func sumSqAVX(x []float64) float64 { return sumSqRef(x) }

func iamaxAVX(x []float64) int { return iamaxRef(x) }

func gemvNAVX(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int) {
	gemvNRef(m, n, alpha, a, lda, x, 1, 1, y, incY)
}

func gemvTAVX(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, y []float64) {
	gemvTRef(m, n, alpha, a, lda, x, incX, 1, y, 1)
}

func gerAVX(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int) {
	gerRef(m, n, alpha, x, incX, y, 1, a, lda)
}

func axpy4AVX(c *[4]float64, x0, x1, x2, x3, y []float64) {
	for m, x := range [4][]float64{x0, x1, x2, x3} {
		axpyRef(c[m], x[:len(y)], y)
	}
}

func axpy2AVX(c *[2]float64, x0, x1, y []float64) {
	axpyRef(c[0], x0[:len(y)], y)
	axpyRef(c[1], x1[:len(y)], y)
}

func axpyCSRPartAVX(rows int, ptr, idx []int, c, b []float64, mask *[8]int64, y []float64, ldy int) {
	panic("kernel: assembly routine called without assembly")
}

func axpy4IamaxAVX(c *[4]float64, x0, x1, x2, x3, y []float64, lanes *iamaxLanes) {
	panic("kernel: assembly routine called without assembly")
}

func axpy3IamaxAVX(c *[3]float64, x0, x1, x2, y []float64, lanes *iamaxLanes) {
	panic("kernel: assembly routine called without assembly")
}

func axpy2IamaxAVX(c *[2]float64, x0, x1, y []float64, lanes *iamaxLanes) {
	panic("kernel: assembly routine called without assembly")
}

func axpy1IamaxAVX(c float64, x0, y []float64, lanes *iamaxLanes) {
	panic("kernel: assembly routine called without assembly")
}

func compressAVX(x []float64, idx []int, val []float64, tab *[16]compressEntry) int {
	panic("kernel: no assembly")
}

func addDivAVX(y, x, d []float64, c float64) { panic("kernel: no assembly") }

func dotsAddDivAVX(y, x, d, a, b []float64, ldb int, alpha, c float64) {
	panic("kernel: no assembly")
}

func axpyDivAVX(dst, a, w, d []float64, alpha float64) { panic("kernel: no assembly") }

func axpbyAVX(dst, x, y []float64, a, b float64) { panic("kernel: no assembly") }

func prefetchL2(x []float64) {}

func axpyCSR24x2AVX(rows int, ptr, idx []int, c, b []float64, pstride int, y []float64, ldy int) {
	panic("kernel: assembly routine called without assembly")
}

func transpose4AVX(m4, n4 int, a []float64, lda int, b []float64, ldb int) {
	panic("kernel: assembly routine called without assembly")
}
