//go:build amd64 && !purego

package kernel

// Assembly stubs of the AVX-512 tier's level-1, level-2 and fused routines:
// zmm registers, and mask registers for the last elements instead of
// scalar loops. Like the AVX2 stubs they are unchecked; the exported
// wrappers slice every argument to its exact extent first.

// axpy512 is axpyAVX on zmm registers: y[i] += alpha*x[i], one FMA an
// element.
//
//go:noescape
func axpy512(alpha float64, x, y []float64)

// axpy4x512 is axpy4AVX on zmm registers.
//
//go:noescape
func axpy4x512(c *[4]float64, x0, x1, x2, x3, y []float64)

// axpy2x512 is axpy2AVX on zmm registers.
//
//go:noescape
func axpy2x512(c *[2]float64, x0, x1, y []float64)

// axpy4Iamax512 is axpy4x512 that also returns the first index of the
// largest updated |y[i]|, NaNs passed over, 0 if all are NaN; len(y) ≥ 1.
//
//go:noescape
func axpy4Iamax512(c *[4]float64, x0, x1, x2, x3, y []float64) int

// axpy3Iamax512 is axpy4Iamax512 with three rows.
//
//go:noescape
func axpy3Iamax512(c *[3]float64, x0, x1, x2, y []float64) int

// axpy2Iamax512 is axpy4Iamax512 with two rows.
//
//go:noescape
func axpy2Iamax512(c *[2]float64, x0, x1, y []float64) int

// axpy1Iamax512 is axpy4Iamax512 with one row.
//
//go:noescape
func axpy1Iamax512(c float64, x0, y []float64) int

// dot512 is dotAVX on zmm registers (its own order of partial sums).
//
//go:noescape
func dot512(x, y []float64) float64

// sumSq512 is sumSqAVX on zmm registers.
//
//go:noescape
func sumSq512(x []float64) float64

// scal512 is scalAVX on zmm registers: x[i] *= alpha.
//
//go:noescape
func scal512(alpha float64, x []float64)

// iamax512 is iamaxAVX on zmm registers: len(x) ≥ 1, x[0] not NaN.
//
//go:noescape
func iamax512(x []float64) int

// addDiv512 is AddDiv on all of y.
//
//go:noescape
func addDiv512(y, x, d []float64, c float64)

// axpyDiv512 is AxpyDiv on all of dst.
//
//go:noescape
func axpyDiv512(dst, a, w, d []float64, alpha float64)

// axpby512 is Axpby on all of dst.
//
//go:noescape
func axpby512(dst, x, y []float64, a, b float64)

// dotsAddDiv512 is DotsAddDiv on all of y (the assembly's fused dots).
//
//go:noescape
func dotsAddDiv512(y, x, d, a, b []float64, ldb int, alpha, c float64)

// compress512 is CompressNonzero on all of x; idx and val are as long.
//
//go:noescape
func compress512(x []float64, idx []int, val []float64) int

// gemvN512 is gemvNAVX on zmm registers.
//
//go:noescape
func gemvN512(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int)

// gemvT512 is gemvTAVX on zmm registers (the same values).
//
//go:noescape
func gemvT512(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, y []float64)

// ger512 is gerAVX on zmm registers (the same values).
//
//go:noescape
func ger512(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int)
