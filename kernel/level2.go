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
	if !useAsm || m*n < gemvAsmMin {
		gemvNRef(m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	a = a[:(m-1)*lda+n]
	x = x[:(n-1)*incX+1]
	y = y[:(m-1)*incY+1]
	betaY(beta, y, m, incY)
	if alpha == 0 {
		return
	}
	raceRead(a)
	raceRead(x)
	raceWrite(y)
	if incX == 1 {
		if wide(n) {
			gemvN512(m, n, alpha, a, lda, x, y, incY)
		} else {
			gemvNAVX(m, n, alpha, a, lda, x, y, incY)
		}
		return
	}
	for i, iy := 0, 0; i < m; i, iy = i+1, iy+incY {
		y[iy] += alpha * dotIncAVX(a[i*lda:i*lda+n], x, n, 1, incX)
	}
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
	if !useAsm || m*n < gemvAsmMin {
		gemvTRef(m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	a = a[:(m-1)*lda+n]
	x = x[:(m-1)*incX+1]
	y = y[:(n-1)*incY+1]
	betaY(beta, y, n, incY)
	if alpha == 0 {
		return
	}
	raceRead(a)
	raceRead(x)
	raceWrite(y)
	if incY == 1 {
		if wide(n) {
			gemvT512(m, n, alpha, a, lda, x, incX, y)
		} else {
			gemvTAVX(m, n, alpha, a, lda, x, incX, y)
		}
		return
	}
	for i, ix := 0, 0; i < m; i, ix = i+1, ix+incX {
		axpyIncAVX(alpha*x[ix], a[i*lda:i*lda+n], y, n, 1, incY)
	}
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
	if !useAsm || m*n < gemvAsmMin {
		gerRef(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	if alpha == 0 {
		return
	}
	a = a[:(m-1)*lda+n]
	x = x[:(m-1)*incX+1]
	y = y[:(n-1)*incY+1]
	raceRead(x)
	raceRead(y)
	raceWrite(a)
	if incY == 1 {
		if wide(n) {
			ger512(m, n, alpha, x, incX, y, a, lda)
		} else {
			gerAVX(m, n, alpha, x, incX, y, a, lda)
		}
		return
	}
	for i, ix := 0, 0; i < m; i, ix = i+1, ix+incX {
		axpyIncAVX(alpha*x[ix], y, a[i*lda:i*lda+n], n, incY, 1)
	}
}

// betaY is scaleY for the assembly path: y = beta*y, with beta == 0
// overwriting y, and the scaling itself vectorised.
func betaY(beta float64, y []float64, n, incY int) {
	switch {
	case beta == 1:
	case beta == 0:
		scaleY(0, y, n, incY)
	default:
		ScalInc(beta, y, n, incY)
	}
}
