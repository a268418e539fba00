//go:build amd64 && !purego

package kernel

// Assembly stubs for the level-1 and level-2 routines (AVX2 + FMA3). They
// are unchecked: the exported wrappers slice their arguments to the exact
// extent first, so the bounds are checked in Go before any call. Every
// routine reads and writes only inside the slices it is given.

// dotAVX returns Σ x[i]*y[i], i < len(x); len(y) ≥ len(x).
//
//go:noescape
func dotAVX(x, y []float64) float64

// dotIncAVX returns Σ x[i*incX]*y[i*incY], i < n.
//
//go:noescape
func dotIncAVX(x, y []float64, n, incX, incY int) float64

// axpyAVX computes y[i] += alpha*x[i], i < len(x), with one FMA per element.
//
//go:noescape
func axpyAVX(alpha float64, x, y []float64)

// axpyIncAVX computes y[i*incY] += alpha*x[i*incX], i < n, in order of i.
//
//go:noescape
func axpyIncAVX(alpha float64, x, y []float64, n, incX, incY int)

// scalAVX computes x[i] *= alpha.
//
//go:noescape
func scalAVX(alpha float64, x []float64)

// sumSqAVX returns Σ x[i]².
//
//go:noescape
func sumSqAVX(x []float64) float64

// iamaxAVX returns the first index of the largest |x[i]|, NaNs passed over;
// len(x) ≥ 1 and x[0] is not NaN.
//
//go:noescape
func iamaxAVX(x []float64) int

// gemvNAVX computes y[i*incY] += alpha * Σ_j a[i*lda+j]*x[j], i < m, j < n;
// m, n ≥ 1.
//
//go:noescape
func gemvNAVX(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int)

// gemvTAVX computes y[j] += Σ_i (alpha*x[i*incX]) * a[i*lda+j], i < m,
// j < n, row after row; m, n ≥ 1.
//
//go:noescape
func gemvTAVX(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, y []float64)

// gerAVX computes a[i*lda+j] += (alpha*x[i*incX]) * y[j], i < m, j < n;
// m, n ≥ 1.
//
//go:noescape
func gerAVX(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int)

// axpy4AVX computes y[i] += c[0]*x0[i] + c[1]*x1[i] + c[2]*x2[i] +
// c[3]*x3[i], i < len(y), as four FMAs in that order; every x is at least
// as long as y.
//
//go:noescape
func axpy4AVX(c *[4]float64, x0, x1, x2, x3, y []float64)

// axpy2AVX is axpy4AVX with two rows.
//
//go:noescape
func axpy2AVX(c *[2]float64, x0, x1, y []float64)

// axpyCSR24x2AVX adds to 24 columns of each of rows rows of y (rows ldy
// apart) their terms' rows of a packed B, three panels pstride elements
// apart from b on, two rows at a time: see AxpyRowsPacked. Every bound
// has been checked.
//
//go:noescape
func axpyCSR24x2AVX(rows int, ptr, idx []int, c, b []float64, pstride int, y []float64, ldy int)

// axpyCSRPartAVX is axpyCSR24x2AVX on one panel and one row at a time, on the columns of y whose
// lanes are set in mask (all ones), the first few or all eight: y is read
// and written under it.
//
//go:noescape
func axpyCSRPartAVX(rows int, ptr, idx []int, c, b []float64, mask *[8]int64, y []float64, ldy int)

// axpy4IamaxAVX is axpy4AVX on the first 8·⌊len(y)/8⌋ elements of y that
// also folds the updated |y[i]| into lanes (see iamaxLanes).
//
//go:noescape
func axpy4IamaxAVX(c *[4]float64, x0, x1, x2, x3, y []float64, lanes *iamaxLanes)

// axpy3IamaxAVX is axpy4IamaxAVX with three rows.
//
//go:noescape
func axpy3IamaxAVX(c *[3]float64, x0, x1, x2, y []float64, lanes *iamaxLanes)

// axpy2IamaxAVX is axpy4IamaxAVX with two rows.
//
//go:noescape
func axpy2IamaxAVX(c *[2]float64, x0, x1, y []float64, lanes *iamaxLanes)

// axpy1IamaxAVX is axpy4IamaxAVX with one row.
//
//go:noescape
func axpy1IamaxAVX(c float64, x0, y []float64, lanes *iamaxLanes)

// compressAVX is CompressNonzero on a multiple of four elements (every
// slice that long).
//
//go:noescape
func compressAVX(x []float64, idx []int, val []float64, tab *[16]compressEntry) int

// dotsAddDivAVX is DotsAddDiv on the first 4·⌊len(y)/4⌋ elements.
//
//go:noescape
func dotsAddDivAVX(y, x, d, a, b []float64, ldb int, alpha, c float64)

// addDivAVX is AddDiv on the first 4·⌊len(y)/4⌋ elements.
//
//go:noescape
func addDivAVX(y, x, d []float64, c float64)

// axpyDivAVX is AxpyDiv on the first 4·⌊len(dst)/4⌋ elements.
//
//go:noescape
func axpyDivAVX(dst, a, w, d []float64, alpha float64)

// axpbyAVX is Axpby on the first 4·⌊len(dst)/4⌋ elements.
//
//go:noescape
func axpbyAVX(dst, x, y []float64, a, b float64)

// prefetchL2 asks for every cache line of x, len(x) ≥ 1, to be brought
// into the L2 cache, without waiting for any of them.
//
//go:noescape
func prefetchL2(x []float64)

// transpose4AVX transposes the 4m4×4n4 top left of a into b, 4×4 blocks
// at a time (see Transpose). m4, n4 ≥ 1; every bound has been checked.
//
//go:noescape
func transpose4AVX(m4, n4 int, a []float64, lda int, b []float64, ldb int)
