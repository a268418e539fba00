//go:build amd64 && !purego

package kernel

// hasAsm is true when the assembly routines are compiled in.
const hasAsm = true

// The level-1 routines on amd64: the assembly of the running tier (the
// AVX-512 form where wide says so, else the AVX2 one), the Go form in the
// Go tier and below each routine's threshold.

func dot(x, y []float64) float64 {
	if !useAsm || len(x) < dotAsmMin {
		return dotGo(x, y)
	}
	raceRead(x)
	raceRead(y)
	if wide(len(x)) {
		return dot512(x, y)
	}
	return dotAVX(x, y)
}

func dotInc(x, y []float64, n, incX, incY, ix, iy int) float64 {
	if !useAsm || n < incAsmMin {
		return dotIncGo(x, y, n, incX, incY, ix, iy)
	}
	x = x[ix : ix+(n-1)*incX+1]
	y = y[iy : iy+(n-1)*incY+1]
	raceRead(x)
	raceRead(y)
	return dotIncAVX(x, y, n, incX, incY)
}

func axpy(alpha float64, x, y []float64) {
	if !useAsm || len(x) < axpyAsmMin {
		axpyGo(alpha, x, y)
		return
	}
	raceRead(x)
	raceWrite(y)
	if wide(len(x)) {
		axpy512(alpha, x, y)
	} else {
		axpyAVX(alpha, x, y)
	}
}

func axpyInc(alpha float64, x, y []float64, n, incX, incY, ix, iy int) {
	if !useAsm || n < incAsmMin {
		axpyIncGo(alpha, x, y, n, incX, incY, ix, iy)
		return
	}
	x = x[ix : ix+(n-1)*incX+1]
	y = y[iy : iy+(n-1)*incY+1]
	raceRead(x)
	raceWrite(y)
	axpyIncAVX(alpha, x, y, n, incX, incY)
}

func scal(alpha float64, x []float64) {
	if !useAsm || len(x) < scalAsmMin {
		scalGo(alpha, x)
		return
	}
	raceWrite(x)
	if wide(len(x)) {
		scal512(alpha, x)
	} else {
		scalAVX(alpha, x)
	}
}

func sumSq(x []float64) float64 {
	if !useAsm || len(x) < sumSqAsmMin {
		return sumSqGo(x)
	}
	raceRead(x)
	if wide(len(x)) {
		return sumSq512(x)
	}
	return sumSqAVX(x)
}

// iamax is IamaxUnitary for x[0] not NaN.
func iamax(x []float64) int {
	if !useAsm || len(x) < iamaxAsmMin {
		return iamaxGo(x)
	}
	raceRead(x)
	if wide(len(x)) {
		return iamax512(x)
	}
	return iamaxAVX(x)
}

func prefetch(x []float64) {
	if useAsm {
		prefetchL2(x)
	}
}

// The assembly. The routines are unchecked: the callers above slice
// their arguments to the exact extent first, so the bounds are checked
// in Go before any call. Every routine reads and writes only inside the
// slices it is given. The AVX2 forms (suffix AVX) work on ymm registers
// with scalar loops for the last elements; the AVX-512 forms (suffix 512)
// on zmm registers with the last elements under a mask register.

// dotAVX returns Σ x[i]*y[i], i < len(x); len(y) ≥ len(x).
//
//go:noescape
func dotAVX(x, y []float64) float64

// dot512 is dotAVX on zmm registers (its own order of partial sums).
//
//go:noescape
func dot512(x, y []float64) float64

// dotIncAVX returns Σ x[i*incX]*y[i*incY], i < n.
//
//go:noescape
func dotIncAVX(x, y []float64, n, incX, incY int) float64

// axpyAVX computes y[i] += alpha*x[i], i < len(x), with one FMA per element.
//
//go:noescape
func axpyAVX(alpha float64, x, y []float64)

// axpy512 is axpyAVX on zmm registers: y[i] += alpha*x[i], one FMA an
// element.
//
//go:noescape
func axpy512(alpha float64, x, y []float64)

// axpyIncAVX computes y[i*incY] += alpha*x[i*incX], i < n, in order of i.
//
//go:noescape
func axpyIncAVX(alpha float64, x, y []float64, n, incX, incY int)

// scalAVX computes x[i] *= alpha.
//
//go:noescape
func scalAVX(alpha float64, x []float64)

// scal512 is scalAVX on zmm registers: x[i] *= alpha.
//
//go:noescape
func scal512(alpha float64, x []float64)

// sumSqAVX returns Σ x[i]².
//
//go:noescape
func sumSqAVX(x []float64) float64

// sumSq512 is sumSqAVX on zmm registers.
//
//go:noescape
func sumSq512(x []float64) float64

// iamaxAVX returns the first index of the largest |x[i]|, NaNs passed over;
// len(x) ≥ 1 and x[0] is not NaN.
//
//go:noescape
func iamaxAVX(x []float64) int

// iamax512 is iamaxAVX on zmm registers: len(x) ≥ 1, x[0] not NaN.
//
//go:noescape
func iamax512(x []float64) int

// prefetchL2 asks for every cache line of x, len(x) ≥ 1, to be brought
// into the L2 cache, without waiting for any of them.
//
//go:noescape
func prefetchL2(x []float64)
