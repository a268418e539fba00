//go:build !amd64 || purego

package kernel

// Without the assembly each level-2 routine and Transpose is its Go form.

func gemvN(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gemvNGo(m, n, alpha, a, lda, x, incX, beta, y, incY)
}

func gemvT(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gemvTGo(m, n, alpha, a, lda, x, incX, beta, y, incY)
}

func ger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	gerGo(m, n, alpha, x, incX, y, incY, a, lda)
}

func transpose(m, n int, a []float64, lda int, b []float64, ldb int) {
	transposeGo(m, n, a, lda, b, ldb, 0, 0)
}
