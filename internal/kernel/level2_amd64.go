//go:build amd64 && !purego

package kernel

// The level-2 routines and Transpose on amd64: the assembly of the running
// tier for unit strides, its strided level-1 routines a row at a time
// otherwise, and the Go form in the Go tier and below gemvAsmMin.

func gemvN(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if !useAsm || m*n < gemvAsmMin {
		gemvNGo(m, n, alpha, a, lda, x, incX, beta, y, incY)
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

func gemvT(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if !useAsm || m*n < gemvAsmMin {
		gemvTGo(m, n, alpha, a, lda, x, incX, beta, y, incY)
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

func ger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if !useAsm || m*n < gemvAsmMin {
		gerGo(m, n, alpha, x, incX, y, incY, a, lda)
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

// transpose is Transpose for valid arguments: blocks of 4×4 by the
// assembly (four loads, eight shuffles, four stores), the edges element by
// element.
func transpose(m, n int, a []float64, lda int, b []float64, ldb int) {
	m4, n4 := 0, 0
	if useAsm && m >= 4 && n >= 4 {
		m4, n4 = m/4, n/4
		transpose4AVX(m4, n4, a, lda, b, ldb)
		m4, n4 = 4*m4, 4*n4
	}
	transposeGo(m, n, a, lda, b, ldb, m4, n4)
}

// The assembly, unchecked like the level-1 routines'.

// gemvNAVX computes y[i*incY] += alpha * Σ_j a[i*lda+j]*x[j], i < m, j < n;
// m, n ≥ 1.
//
//go:noescape
func gemvNAVX(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int)

// gemvN512 is gemvNAVX on zmm registers.
//
//go:noescape
func gemvN512(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int)

// gemvTAVX computes y[j] += Σ_i (alpha*x[i*incX]) * a[i*lda+j], i < m,
// j < n, row after row; m, n ≥ 1.
//
//go:noescape
func gemvTAVX(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, y []float64)

// gemvT512 is gemvTAVX on zmm registers (the same values).
//
//go:noescape
func gemvT512(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, y []float64)

// gerAVX computes a[i*lda+j] += (alpha*x[i*incX]) * y[j], i < m, j < n;
// m, n ≥ 1.
//
//go:noescape
func gerAVX(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int)

// ger512 is gerAVX on zmm registers (the same values).
//
//go:noescape
func ger512(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int)

// transpose4AVX transposes the 4m4×4n4 top left of a into b, 4×4 blocks
// at a time (see Transpose). m4, n4 ≥ 1; every bound has been checked.
//
//go:noescape
func transpose4AVX(m4, n4 int, a []float64, lda int, b []float64, ldb int)
