package kernel

import "math"

// Below these lengths the exported routines run the Go loop: an assembly
// call (ABI0, never inlined, with its slicing and set-up) costs more than it
// saves on a few elements. The values are the crossovers that
// BenchmarkCrossover measures; they are variables only so that the tests
// can lower them to 1 and push every length through the assembly.
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
	// min512x32 is the same for the float32 one-pass searches
	// (saxpyRowsIamax, isamax): from one 512-bit vector on, shorter
	// vectors going straight to the scalar tail.
	min512x32 = 16
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
	return dot(x, y[:len(x)])
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
	return dotInc(x, y, n, incX, incY, ix, iy)
}

// AxpyUnitary adds alpha*x to y:
//
//	for i, v := range x {
//		y[i] += alpha * v
//	}
//
// len(y) must be at least len(x).
func AxpyUnitary(alpha float64, x, y []float64) {
	axpy(alpha, x, y[:len(x)])
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
	axpyInc(alpha, x, y, n, incX, incY, ix, iy)
}

// ScalUnitary multiplies x by alpha:
//
//	for i := range x {
//		x[i] *= alpha
//	}
func ScalUnitary(alpha float64, x []float64) {
	scal(alpha, x)
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
	scalIncGo(alpha, x, n, incX)
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
	return sumSq(x)
}

// Nrm2Unitary returns the Euclidean norm of x, sqrt(Σ x[i]²), without
// overflow or underflow for huge or tiny elements. A NaN in x gives NaN, and
// otherwise an infinity gives +Inf. The tests hold it to nrm2Ref, the scaled
// one-pass loop of the reference BLAS.
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
// negligible. Unlike the reference BLAS's one-pass loop, it does no
// division.
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
	return iamax(x)
}

// IamaxInc is IamaxUnitary over n strided elements x[i*incX], i < n; it
// returns i, not i*incX. incX must be positive.
func IamaxInc(x []float64, n, incX int) int {
	if incX == 1 && n > 0 {
		return IamaxUnitary(x[:n])
	}
	return iamaxIncGo(x, n, incX)
}

// Prefetch asks the processor to bring x into its L2 cache ahead of use,
// and returns at once: a hint, with no effect on any value. It does
// nothing without the assembly kernels.
func Prefetch(x []float64) {
	if len(x) > 0 {
		prefetch(x)
	}
}

// The Go forms. Each is the plain Go definition of its routine, the loop
// in its doc comment: the Go tier runs it, the assembly tiers run it below
// their thresholds, and the tests compare the assembly with it.

// dotGo returns Σ x[i]*y[i] for i < len(x).
func dotGo(x, y []float64) (sum float64) {
	y = y[:len(x)]
	for i, v := range x {
		sum += v * y[i]
	}
	return sum
}

// dotIncGo returns Σ x[ix+i*incX]*y[iy+i*incY] for i < n.
func dotIncGo(x, y []float64, n, incX, incY, ix, iy int) (sum float64) {
	for i := 0; i < n; i++ {
		sum += x[ix] * y[iy]
		ix += incX
		iy += incY
	}
	return sum
}

// axpyGo computes y[i] += alpha*x[i] for i < len(x).
func axpyGo(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// axpyIncGo computes y[iy+i*incY] += alpha*x[ix+i*incX] for i < n.
func axpyIncGo(alpha float64, x, y []float64, n, incX, incY, ix, iy int) {
	for i := 0; i < n; i++ {
		y[iy] += alpha * x[ix]
		ix += incX
		iy += incY
	}
}

// scalGo computes x[i] *= alpha.
func scalGo(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

// scalIncGo computes x[i*incX] *= alpha for i < n.
func scalIncGo(alpha float64, x []float64, n, incX int) {
	for i, ix := 0, 0; i < n; i, ix = i+1, ix+incX {
		x[ix] *= alpha
	}
}

// sumSqGo returns Σ x[i]².
func sumSqGo(x []float64) (sum float64) {
	for _, v := range x {
		sum += v * v
	}
	return sum
}

// iamaxGo returns the index of the first largest |x[i]|, or -1 if x is
// empty. It is gonum's Idamax loop: the running maximum starts at |x[0]| and
// moves only on a strictly greater value, so a NaN at x[0] gives 0 and a NaN
// anywhere else is passed over.
func iamaxGo(x []float64) int {
	if len(x) == 0 {
		return -1
	}
	idx, max := 0, math.Abs(x[0])
	for i, v := range x {
		if a := math.Abs(v); a > max {
			idx, max = i, a
		}
	}
	return idx
}

// iamaxIncGo is iamaxGo over x[i*incX], i < n.
func iamaxIncGo(x []float64, n, incX int) int {
	if n <= 0 {
		return -1
	}
	idx, max := 0, math.Abs(x[0])
	for i, ix := 1, incX; i < n; i, ix = i+1, ix+incX {
		if a := math.Abs(x[ix]); a > max {
			idx, max = i, a
		}
	}
	return idx
}
