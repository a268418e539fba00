package kernel

// GemvN computes y = alpha*A*x + beta*y for the m×n row-major matrix A with
// leading dimension lda ≥ n; x has n elements at stride incX and y has m at
// stride incY, both strides positive:
//
//	for i := 0; i < m; i++ {
//		var t float64
//		for j := 0; j < n; j++ {
//			t += a[i*lda+j] * x[j*incX]
//		}
//		y[i*incY] = beta*y[i*incY] + alpha*t
//	}
//
// with the reference BLAS rules: nothing happens if m or n is 0; beta == 0
// overwrites y (a NaN in y does not propagate); alpha == 0 skips A*x (a NaN
// in A or x does not propagate). Otherwise NaN and Inf propagate.
func GemvN(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gemvNRef(m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// GemvT computes y = alpha*Aᵀ*x + beta*y for the m×n row-major matrix A with
// leading dimension lda ≥ n; x has m elements at stride incX and y has n at
// stride incY, both strides positive:
//
//	for j := 0; j < n; j++ {
//		y[j*incY] *= beta
//	}
//	for i := 0; i < m; i++ {
//		t := alpha * x[i*incX]
//		for j := 0; j < n; j++ {
//			y[j*incY] += t * a[i*lda+j]
//		}
//	}
//
// with the same rules for m or n == 0, beta == 0 and alpha == 0 as GemvN.
func GemvT(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gemvTRef(m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Ger computes the rank-one update A += alpha*x*yᵀ for the m×n row-major
// matrix A with leading dimension lda ≥ n; x has m elements at stride incX
// and y has n at stride incY, both strides positive:
//
//	for i := 0; i < m; i++ {
//		t := alpha * x[i*incX]
//		for j := 0; j < n; j++ {
//			a[i*lda+j] += t * y[j*incY]
//		}
//	}
//
// Nothing happens if m or n is 0 or alpha is 0.
func Ger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	gerRef(m, n, alpha, x, incX, y, incY, a, lda)
}
