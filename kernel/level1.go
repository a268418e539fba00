package kernel

import "math"

// Below these lengths the exported routines run the Go loop: an assembly
// call (ABI0, never inlined, with its slicing and set-up) costs more than it
// saves on a few elements. The values are the crossovers measured with
// BenchmarkCrossover (on an AMD EPYC with AVX-512, best of many batches);
// they are variables only so that the tests can lower them to 1 and push
// every length through the assembly.
var (
	dotAsmMin   = 6
	axpyAsmMin  = 8
	scalAsmMin  = 4
	sumSqAsmMin = 6
	iamaxAsmMin = 4
	incAsmMin   = 16 // DotInc, AxpyInc: scalar loops, less to gain
	gemvAsmMin  = 16 // on m*n, for GemvN, GemvT and Ger
	// min512 is where the AVX-512 routines take over from the AVX2 ones
	// (which still run below it in that tier): under it one or two
	// 512-bit steps and the mask set-up gain nothing.
	min512 = 16
)

// wide reports whether the AVX-512 form of a routine takes n elements: the
// assembly runs, in the AVX-512 tier, and n is not too small for it. It
// asks useAsm too, so that switching useAsm alone (as some tests do) turns
// every assembly path off.
func wide(n int) bool { return useAsm && use512 && n >= min512 }

// DotUnitary returns the dot product of x and y:
//
//	for i, v := range x {
//		sum += v * y[i]
//	}
//	return sum
//
// len(y) must be at least len(x).
func DotUnitary(x, y []float64) float64 {
	y = y[:len(x)]
	if useAsm && len(x) >= dotAsmMin {
		raceRead(x)
		raceRead(y)
		if wide(len(x)) {
			return dot512(x, y)
		}
		return dotAVX(x, y)
	}
	return dotRef(x, y)
}

// DotInc returns the dot product of n strided elements of x and y:
//
//	for i := 0; i < n; i++ {
//		sum += x[ix] * y[iy]
//		ix += incX
//		iy += incY
//	}
//	return sum
//
// incX and incY must be positive.
func DotInc(x, y []float64, n, incX, incY, ix, iy int) float64 {
	if useAsm && n >= incAsmMin {
		x = x[ix : ix+(n-1)*incX+1]
		y = y[iy : iy+(n-1)*incY+1]
		raceRead(x)
		raceRead(y)
		return dotIncAVX(x, y, n, incX, incY)
	}
	return dotIncRef(x, y, n, incX, incY, ix, iy)
}

// AxpyUnitary adds alpha*x to y:
//
//	for i, v := range x {
//		y[i] += alpha * v
//	}
//
// len(y) must be at least len(x).
func AxpyUnitary(alpha float64, x, y []float64) {
	y = y[:len(x)]
	if useAsm && len(x) >= axpyAsmMin {
		raceRead(x)
		raceWrite(y)
		if wide(len(x)) {
			axpy512(alpha, x, y)
		} else {
			axpyAVX(alpha, x, y)
		}
		return
	}
	axpyRef(alpha, x, y)
}

// AxpyRows adds to y the rows idx[m] of the row-major matrix g (leading
// dimension ld), scaled by c[m], in order of m:
//
//	for m, r := range idx {
//		AxpyUnitary(c[m], g[r*ld:r*ld+len(y)], y)
//	}
//
// with the same rounding as those calls, but reading and writing y once
// per four rows. len(c) must be at least len(idx), and every row must lie
// inside g.
func AxpyRows(c, g []float64, ld int, idx []int, y []float64) {
	n := len(y)
	c = c[:len(idx)]
	row := func(m int) []float64 { r := idx[m] * ld; return g[r : r+n] }
	if !useAsm || n < axpyAsmMin {
		for m := range idx {
			axpyRef(c[m], row(m), y)
		}
		return
	}
	raceWrite(y)
	wide512 := wide(n)
	m := 0
	for ; m+4 <= len(idx); m += 4 {
		x0, x1, x2, x3 := row(m), row(m+1), row(m+2), row(m+3)
		raceRead(x0)
		raceRead(x1)
		raceRead(x2)
		raceRead(x3)
		if wide512 {
			axpy4x512((*[4]float64)(c[m:m+4]), x0, x1, x2, x3, y)
		} else {
			axpy4AVX((*[4]float64)(c[m:m+4]), x0, x1, x2, x3, y)
		}
	}
	if m+2 <= len(idx) {
		x0, x1 := row(m), row(m+1)
		raceRead(x0)
		raceRead(x1)
		if wide512 {
			axpy2x512((*[2]float64)(c[m:m+2]), x0, x1, y)
		} else {
			axpy2AVX((*[2]float64)(c[m:m+2]), x0, x1, y)
		}
		m += 2
	}
	if m < len(idx) {
		x := row(m)
		raceRead(x)
		if wide512 {
			axpy512(c[m], x, y)
		} else {
			axpyAVX(c[m], x, y)
		}
	}
}

// AxpyInc adds alpha times n strided elements of x to y:
//
//	for i := 0; i < n; i++ {
//		y[iy] += alpha * x[ix]
//		ix += incX
//		iy += incY
//	}
//
// incX and incY must be positive.
func AxpyInc(alpha float64, x, y []float64, n, incX, incY, ix, iy int) {
	if useAsm && n >= incAsmMin {
		x = x[ix : ix+(n-1)*incX+1]
		y = y[iy : iy+(n-1)*incY+1]
		raceRead(x)
		raceWrite(y)
		axpyIncAVX(alpha, x, y, n, incX, incY)
		return
	}
	axpyIncRef(alpha, x, y, n, incX, incY, ix, iy)
}

// ScalUnitary multiplies x by alpha:
//
//	for i := range x {
//		x[i] *= alpha
//	}
func ScalUnitary(alpha float64, x []float64) {
	if useAsm && len(x) >= scalAsmMin {
		raceWrite(x)
		if wide(len(x)) {
			scal512(alpha, x)
		} else {
			scalAVX(alpha, x)
		}
		return
	}
	scalRef(alpha, x)
}

// ScalInc multiplies n strided elements of x by alpha:
//
//	for i := 0; i < n; i++ {
//		x[i*incX] *= alpha
//	}
//
// incX must be positive.
func ScalInc(alpha float64, x []float64, n, incX int) {
	if incX == 1 {
		ScalUnitary(alpha, x[:n])
		return
	}
	scalIncRef(alpha, x, n, incX)
}

// SumSqUnitary returns the sum of squares of x:
//
//	for _, v := range x {
//		sum += v * v
//	}
//	return sum
//
// It is the plain sum: it overflows to +Inf and underflows to 0 like any
// sum. Use Nrm2Unitary for a norm that does neither.
func SumSqUnitary(x []float64) float64 {
	if useAsm && len(x) >= sumSqAsmMin {
		raceRead(x)
		if wide(len(x)) {
			return sumSq512(x)
		}
		return sumSqAVX(x)
	}
	return sumSqRef(x)
}

// Nrm2Unitary returns the Euclidean norm of x, sqrt(Σ x[i]²), without
// overflow or underflow for huge or tiny elements. A NaN in x gives NaN, and
// otherwise an infinity gives +Inf. Its definition is nrm2Ref, the scaled
// loop of the reference BLAS.
//
// The sum of squares is taken unscaled and fast; only when it comes out
// infinite, NaN or too small to hold full precision is the norm recomputed,
// in two passes scaled by a power of two (nrm2Scaled).
func Nrm2Unitary(x []float64) float64 {
	if s := SumSqUnitary(x); nrm2SumOK(s) {
		return math.Sqrt(s)
	}
	return nrm2Scaled(x, len(x), 1)
}

// Nrm2Inc returns the Euclidean norm of n strided elements of x,
// x[i*incX] for i < n, without overflow or underflow. incX must be positive.
func Nrm2Inc(x []float64, n, incX int) float64 {
	if incX == 1 {
		return Nrm2Unitary(x[:n])
	}
	var s float64
	for i, ix := 0, 0; i < n; i, ix = i+1, ix+incX {
		s += x[ix] * x[ix]
	}
	if nrm2SumOK(s) {
		return math.Sqrt(s)
	}
	return nrm2Scaled(x, n, incX)
}

// nrm2Scaled returns the norm of x[i*incX], i < n, as 2ᵉ·sqrt(Σ (x[i]/2ᵉ)²)
// with 2ᵉ just above max|x[i]|. Scaling by a power of two is exact, so this
// is as accurate as the unscaled sum, and it cannot overflow: the scaled
// squares are at most 1. Elements that the scaling sends below the
// subnormal range are smaller than max|x|·2⁻¹⁰²² and their squares are
// negligible. Unlike the one-pass loop of nrm2Ref, it does no division.
func nrm2Scaled(x []float64, n, incX int) float64 {
	var amax float64
	for i, ix := 0, 0; i < n; i, ix = i+1, ix+incX {
		a := math.Abs(x[ix])
		if a != a {
			return math.NaN()
		}
		amax = max(amax, a)
	}
	if amax == 0 || math.IsInf(amax, 1) {
		return amax
	}
	_, e := math.Frexp(amax) // amax = f·2ᵉ, ½ ≤ f < 1
	// 2⁻ᵉ itself overflows for e < -1023 (amax subnormal); then scale in
	// two exact steps, by 2⁶⁰⁰ and by 2⁻ᵉ⁻⁶⁰⁰.
	s1, s2 := math.Ldexp(1, -e), 1.0
	if e < -1000 {
		s1, s2 = 0x1p600, math.Ldexp(1, -e-600)
	}
	var sum float64
	for i, ix := 0, 0; i < n; i, ix = i+1, ix+incX {
		v := x[ix] * s1 * s2
		sum += v * v
	}
	return math.Ldexp(math.Sqrt(sum), e)
}

// nrm2Small is the least unscaled sum of squares that Nrm2 trusts. Below it
// the squares of tiny elements may have lost bits in the subnormal range:
// each square is off by at most 2⁻¹⁰⁷⁵ there, so a sum of n ≤ 2⁶⁴ of them at
// or above 2⁻⁹⁰⁰ is still correct to well under an ulp.
const nrm2Small = 0x1p-900

// nrm2SumOK reports whether an unscaled sum of squares s can be used as is:
// it is finite (so no partial sum overflowed and no element was Inf or NaN)
// and far enough above the subnormal range.
func nrm2SumOK(s float64) bool {
	return s >= nrm2Small && s <= math.MaxFloat64
}

// IamaxUnitary returns the index of the first element of x with the largest
// absolute value, or -1 if x is empty. NaNs follow gonum's Idamax:
//
//	idx, max := 0, math.Abs(x[0])
//	for i, v := range x {
//		if a := math.Abs(v); a > max {
//			idx, max = i, a
//		}
//	}
//	return idx
//
// so a NaN in x[0] gives 0 and a NaN anywhere else is passed over.
func IamaxUnitary(x []float64) int {
	if len(x) > 0 && x[0] != x[0] {
		return 0 // NaN at x[0]: nothing compares greater
	}
	if useAsm && len(x) >= iamaxAsmMin {
		raceRead(x)
		if wide(len(x)) {
			return iamax512(x)
		}
		return iamaxAVX(x)
	}
	return iamaxRef(x)
}

// IamaxInc is IamaxUnitary over n strided elements x[i*incX], i < n; it
// returns i, not i*incX. incX must be positive.
func IamaxInc(x []float64, n, incX int) int {
	if incX == 1 && n > 0 {
		return IamaxUnitary(x[:n])
	}
	return iamaxIncRef(x, n, incX)
}

// Prefetch asks the processor to bring x into its L2 cache ahead of use,
// and returns at once: a hint, with no effect on any value. It does
// nothing without the assembly kernels.
func Prefetch(x []float64) {
	if useAsm && len(x) > 0 {
		prefetchL2(x)
	}
}
