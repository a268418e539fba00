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
	gemvN(m, n, alpha, a, lda, x, incX, beta, y, incY)
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
	gemvT(m, n, alpha, a, lda, x, incX, beta, y, incY)
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
	ger(m, n, alpha, x, incX, y, incY, a, lda)
}

// Transpose writes the transpose of the m×n row-major matrix a (row stride
// lda) into the n×m row-major b (row stride ldb): b[j*ldb+i] = a[i*lda+j].
// a and b must not overlap. It panics on a negative dimension, a stride
// below the row length, or a slice too short.
func Transpose(m, n int, a []float64, lda int, b []float64, ldb int) {
	switch {
	case m < 0 || n < 0:
		panic("kernel: Transpose: negative dimension")
	case m == 0 || n == 0:
		return
	case lda < max(1, n) || ldb < max(1, m):
		panic("kernel: Transpose: bad stride")
	case len(a) < (m-1)*lda+n:
		panic("kernel: Transpose: a too short")
	case len(b) < (n-1)*ldb+m:
		panic("kernel: Transpose: b too short")
	}
	transpose(m, n, a, lda, b, ldb)
}

// transposeGo is Transpose element by element, except for the top left
// m4×n4 block, which is already done.
func transposeGo(m, n int, a []float64, lda int, b []float64, ldb int, m4, n4 int) {
	for i := range m {
		row := a[i*lda : i*lda+n]
		j0 := 0
		if i < m4 {
			j0 = n4
		}
		for j := j0; j < n; j++ {
			b[j*ldb+i] = row[j]
		}
	}
}

// The Go forms of the level-2 routines: each is the loop of its doc comment.

// scaleY computes y[i*incY] = beta*y[i*incY] for i < n, with the reference
// BLAS rule that beta == 0 overwrites y with zeros (a NaN in y does not
// survive) and beta == 1 leaves y alone.
func scaleY(beta float64, y []float64, n, incY int) {
	switch {
	case beta == 1:
	case beta == 0 && incY == 1:
		clear(y[:n])
	case beta == 0:
		for i, iy := 0, 0; i < n; i, iy = i+1, iy+incY {
			y[iy] = 0
		}
	case incY == 1:
		scalGo(beta, y[:n])
	default:
		scalIncGo(beta, y, n, incY)
	}
}

// gemvNGo computes y = alpha*A*x + beta*y for the m×n row-major A with
// leading dimension lda: y[i] = beta*y[i] + alpha*Σ_j A[i*lda+j]*x[j].
func gemvNGo(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if m == 0 || n == 0 {
		return
	}
	scaleY(beta, y, m, incY)
	if alpha == 0 {
		return
	}
	for i, iy := 0, 0; i < m; i, iy = i+1, iy+incY {
		row := a[i*lda : i*lda+n]
		var t float64
		jx := 0
		for _, v := range row {
			t += v * x[jx]
			jx += incX
		}
		y[iy] += alpha * t
	}
}

// gemvTGo computes y = alpha*Aᵀ*x + beta*y for the m×n row-major A with
// leading dimension lda: y[j] = beta*y[j] + Σ_i (alpha*x[i])*A[i*lda+j].
func gemvTGo(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if m == 0 || n == 0 {
		return
	}
	scaleY(beta, y, n, incY)
	if alpha == 0 {
		return
	}
	for i, ix := 0, 0; i < m; i, ix = i+1, ix+incX {
		t := alpha * x[ix]
		row := a[i*lda : i*lda+n]
		jy := 0
		for _, v := range row {
			y[jy] += t * v
			jy += incY
		}
	}
}

// gerGo computes A += alpha*x*yᵀ for the m×n row-major A with leading
// dimension lda: A[i*lda+j] += (alpha*x[i])*y[j].
func gerGo(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if m == 0 || n == 0 || alpha == 0 {
		return
	}
	for i, ix := 0, 0; i < m; i, ix = i+1, ix+incX {
		t := alpha * x[ix]
		row := a[i*lda : i*lda+n]
		jy := 0
		for j := range row {
			row[j] += t * y[jy]
			jy += incY
		}
	}
}
