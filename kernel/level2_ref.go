package kernel

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
		scalRef(beta, y[:n])
	default:
		scalIncRef(beta, y, n, incY)
	}
}

// gemvNRef computes y = alpha*A*x + beta*y for the m×n row-major A with
// leading dimension lda: y[i] = beta*y[i] + alpha*Σ_j A[i*lda+j]*x[j].
func gemvNRef(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
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

// gemvTRef computes y = alpha*Aᵀ*x + beta*y for the m×n row-major A with
// leading dimension lda: y[j] = beta*y[j] + Σ_i (alpha*x[i])*A[i*lda+j].
func gemvTRef(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
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

// gerRef computes A += alpha*x*yᵀ for the m×n row-major A with leading
// dimension lda: A[i*lda+j] += (alpha*x[i])*y[j].
func gerRef(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
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
