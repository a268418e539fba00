package kernel

import "math"

// The single-precision level-1 routines: the float32 forms of DotUnitary,
// DotInc, AxpyUnitary, AxpyInc, ScalUnitary, ScalInc, Nrm2Unitary,
// Nrm2Inc, IamaxUnitary and IamaxInc, with the same contracts. The unit-stride forms run the AVX2/FMA assembly in the avx2
// and avx512 tiers (IsamaxUnitary, and the fused update and search of
// Batch-OMP, in their AVX-512 form in the avx512 tier) and their Go forms
// in the go tier; the strided forms are Go loops.

// Below these lengths the unit-stride routines run the Go loop (see
// dotAsmMin). The values are not measured crossovers yet; they are
// variables so that the tests can lower them to 1.
var (
	sdotAsmMin   = 8
	saxpyAsmMin  = 8
	sscalAsmMin  = 8
	ssumSqAsmMin = 8
	isamaxAsmMin = 8
)

// SdotUnitary returns the dot product of x and y, accumulated in float32:
//
//	for i, v := range x {
//		sum += v * y[i]
//	}
//	return sum
//
// len(y) must be at least len(x). The assembly keeps several partial sums
// and fuses each multiply-add, so it rounds differently from the loop.
func SdotUnitary(x, y []float32) float32 {
	return sdot(x, y[:len(x)])
}

// SdotInc returns the dot product of n strided elements of x and y:
//
//	for i := 0; i < n; i++ {
//		sum += x[ix] * y[iy]
//		ix += incX
//		iy += incY
//	}
//	return sum
//
// incX and incY must be positive.
func SdotInc(x, y []float32, n, incX, incY, ix, iy int) float32 {
	if incX == 1 && incY == 1 {
		return SdotUnitary(x[ix:ix+n], y[iy:iy+n])
	}
	return sdotIncGo(x, y, n, incX, incY, ix, iy)
}

// Snrm2Unitary returns the Euclidean norm of x, sqrt(Σ x[i]²), with the
// sum of squares taken in float64: a float32's square neither overflows
// nor underflows there, so no scaling is needed, and the norm is within
// about one unit in the last place of float32. A NaN in x gives NaN, and
// otherwise an infinity gives +Inf.
func Snrm2Unitary(x []float32) float32 {
	return float32(math.Sqrt(ssumSq(x)))
}

// Snrm2Inc returns the Euclidean norm of x[i*incX], i < n, as
// Snrm2Unitary does. incX must be positive.
func Snrm2Inc(x []float32, n, incX int) float32 {
	if incX == 1 {
		return Snrm2Unitary(x[:n])
	}
	var sum float64
	for i := 0; i < n; i++ {
		v := float64(x[i*incX])
		sum += v * v
	}
	return float32(math.Sqrt(sum))
}

// IsamaxUnitary returns the index of the first element of x with the
// largest absolute value, or -1 if x is empty. As gonum's Isamax: a NaN at
// x[0] gives 0, a NaN anywhere else is passed over.
func IsamaxUnitary(x []float32) int {
	if len(x) > 0 && x[0] != x[0] {
		return 0 // NaN at x[0]: nothing compares greater
	}
	if len(x) == 0 {
		return -1
	}
	return isamax(x)
}

// IsamaxInc is IsamaxUnitary over n strided elements x[i*incX], i < n; it
// returns i, not i*incX. incX must be positive.
func IsamaxInc(x []float32, n, incX int) int {
	if incX == 1 && n > 0 {
		return IsamaxUnitary(x[:n])
	}
	if n == 0 {
		return -1
	}
	idx, max := 0, abs32(x[0])
	for i := 1; i < n; i++ {
		if a := abs32(x[i*incX]); a > max {
			idx, max = i, a
		}
	}
	return idx
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

func isamaxGo(x []float32) int {
	if len(x) == 0 {
		return -1
	}
	idx, max := 0, abs32(x[0])
	for i, v := range x {
		if a := abs32(v); a > max {
			idx, max = i, a
		}
	}
	return idx
}

// SaxpyRows adds to y the rows idx[m] of the row-major matrix g (leading
// dimension ld), scaled by c[m], in order of m:
//
//	for m, r := range idx {
//		SaxpyUnitary(c[m], g[r*ld:r*ld+len(y)], y)
//	}
//
// with the same rounding as those calls, but reading and writing y once:
// the float32 form of AxpyRows, Batch-OMP's correlation update. len(c)
// must be at least len(idx); a row outside g panics.
func SaxpyRows(c, g []float32, ld int, idx []int, y []float32) {
	saxpyRows(c[:len(idx)], g, ld, idx, y)
}

// SaxpyRowsIamax is SaxpyRows followed by the index of the largest |y[i]|
// after the update — the first such index, NaNs passed over, 0 if every
// element is NaN, −1 for an empty y — as AxpyRowsIamax.
func SaxpyRowsIamax(c, g []float32, ld int, idx []int, y []float32) int {
	if len(y) == 0 {
		SaxpyRows(c, g, ld, idx, y)
		return -1
	}
	return saxpyRowsIamax(c[:len(idx)], g, ld, idx, y)
}

// saxpyRowsGo is SaxpyRows by its definition, one saxpyGo a row.
func saxpyRowsGo(c, g []float32, ld int, idx []int, y []float32) {
	n := len(y)
	for m, r := range idx {
		saxpyGo(c[m], g[r*ld:r*ld+n], y)
	}
}

// isamaxSkipNaN32Go returns the first index of the largest |x[i]|, NaNs
// passed over, 0 if every element is NaN; x is not empty.
func isamaxSkipNaN32Go(x []float32) int {
	best, at := float32(-1), 0
	for i, v := range x {
		if a := abs32(v); a > best {
			best, at = a, i
		}
	}
	return at
}

// SaxpyUnitary adds alpha*x to y:
//
//	for i, v := range x {
//		y[i] += alpha * v
//	}
//
// len(y) must be at least len(x).
func SaxpyUnitary(alpha float32, x, y []float32) {
	saxpy(alpha, x, y[:len(x)])
}

// SaxpyInc adds alpha times n strided elements of x to y:
//
//	for i := 0; i < n; i++ {
//		y[iy] += alpha * x[ix]
//		ix += incX
//		iy += incY
//	}
//
// incX and incY must be positive.
func SaxpyInc(alpha float32, x, y []float32, n, incX, incY, ix, iy int) {
	if incX == 1 && incY == 1 {
		SaxpyUnitary(alpha, x[ix:ix+n], y[iy:iy+n])
		return
	}
	saxpyIncGo(alpha, x, y, n, incX, incY, ix, iy)
}

// SscalUnitary multiplies x by alpha:
//
//	for i := range x {
//		x[i] *= alpha
//	}
func SscalUnitary(alpha float32, x []float32) {
	sscal(alpha, x)
}

// SscalInc multiplies n strided elements of x by alpha:
//
//	for i := 0; i < n; i++ {
//		x[i*incX] *= alpha
//	}
//
// incX must be positive.
func SscalInc(alpha float32, x []float32, n, incX int) {
	if incX == 1 {
		SscalUnitary(alpha, x[:n])
		return
	}
	for i := 0; i < n; i++ {
		x[i*incX] *= alpha
	}
}

// The Go forms: the references of the tests and the go tier's code.

func sdotGo(x, y []float32) float32 {
	var sum float32
	y = y[:len(x)]
	for i, v := range x {
		sum += v * y[i]
	}
	return sum
}

func sdotIncGo(x, y []float32, n, incX, incY, ix, iy int) float32 {
	var sum float32
	for i := 0; i < n; i++ {
		sum += x[ix] * y[iy]
		ix += incX
		iy += incY
	}
	return sum
}

func ssumSqGo(x []float32) float64 {
	var sum float64
	for _, v := range x {
		w := float64(v)
		sum += w * w
	}
	return sum
}

func saxpyGo(alpha float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

func saxpyIncGo(alpha float32, x, y []float32, n, incX, incY, ix, iy int) {
	for i := 0; i < n; i++ {
		y[iy] += alpha * x[ix]
		ix += incX
		iy += incY
	}
}

func sscalGo(alpha float32, x []float32) {
	for i := range x {
		x[i] *= alpha
	}
}
