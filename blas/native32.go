package blas

import (
	"math"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/internal/kernel"
)

// Native's single-precision routines. Native implements gonum's
// blas.Float32 too: Sdot, Saxpy, Sscal, Snrm2, Isamax and Sgemm run on package kernel's
// float32 code (the AVX2/FMA assembly in the avx2 and avx512 tiers, pure
// Go in the go tier), every other float32 routine is gonum's, through the
// embedded Implementation. Arguments are checked exactly as gonum checks
// them, with the same panic messages.

var _ gblas.Float32 = Native{}

// Sdot returns the dot product Σ x[i]·y[i] of the n elements of x and y,
// accumulated in float32.
func (impl Native) Sdot(n int, x []float32, incX int, y []float32, incY int) float32 {
	if incX == 0 {
		panic(zeroIncX)
	}
	if incY == 0 {
		panic(zeroIncY)
	}
	if n <= 0 {
		if n == 0 {
			return 0
		}
		panic(nLT0)
	}
	if incX == 1 && incY == 1 {
		if len(x) < n {
			panic(shortX)
		}
		if len(y) < n {
			panic(shortY)
		}
		return kernel.SdotUnitary(x[:n], y[:n])
	}
	if (incX > 0 && (n-1)*incX >= len(x)) || (incX < 0 && (1-n)*incX >= len(x)) {
		panic(shortX)
	}
	if (incY > 0 && (n-1)*incY >= len(y)) || (incY < 0 && (1-n)*incY >= len(y)) {
		panic(shortY)
	}
	if (incX < 0) != (incY < 0) {
		// One vector runs backwards: its first element is at the far end.
		return impl.Implementation.Sdot(n, x, incX, y, incY)
	}
	// Both increments negative pairs the same elements as both positive.
	return kernel.SdotInc(x, y, n, abs(incX), abs(incY), 0, 0)
}

// Saxpy computes y = alpha·x + y over n elements.
func (impl Native) Saxpy(n int, alpha float32, x []float32, incX int, y []float32, incY int) {
	if incX == 0 {
		panic(zeroIncX)
	}
	if incY == 0 {
		panic(zeroIncY)
	}
	if n < 1 {
		if n == 0 {
			return
		}
		panic(nLT0)
	}
	if (incX > 0 && len(x) <= (n-1)*incX) || (incX < 0 && len(x) <= (1-n)*incX) {
		panic(shortX)
	}
	if (incY > 0 && len(y) <= (n-1)*incY) || (incY < 0 && len(y) <= (1-n)*incY) {
		panic(shortY)
	}
	if alpha == 0 {
		return
	}
	if incX == 1 && incY == 1 {
		kernel.SaxpyUnitary(alpha, x[:n], y[:n])
		return
	}
	if (incX < 0) != (incY < 0) {
		impl.Implementation.Saxpy(n, alpha, x, incX, y, incY)
		return
	}
	kernel.SaxpyInc(alpha, x, y, n, abs(incX), abs(incY), 0, 0)
}

// Sscal computes x = alpha·x over n elements. A negative incX does nothing,
// as in gonum.
func (Native) Sscal(n int, alpha float32, x []float32, incX int) {
	if incX < 1 {
		if incX == 0 {
			panic(zeroIncX)
		}
		return
	}
	if n < 1 {
		if n == 0 {
			return
		}
		panic(nLT0)
	}
	if (n-1)*incX >= len(x) {
		panic(shortX)
	}
	if alpha == 0 {
		// Zero, not 0·x: NaN and Inf in x must not survive.
		if incX == 1 {
			clear(x[:n])
			return
		}
		for i := 0; i < n*incX; i += incX {
			x[i] = 0
		}
		return
	}
	if incX == 1 {
		kernel.SscalUnitary(alpha, x[:n])
		return
	}
	kernel.SscalInc(alpha, x, n, incX)
}

// Snrm2 returns the Euclidean norm of the n elements of x, the sum of
// squares taken in float64 (so without overflow or underflow, and within
// about one unit in the last place). A negative incX gives 0, as in gonum.
func (Native) Snrm2(n int, x []float32, incX int) float32 {
	if incX < 1 {
		if incX == 0 {
			panic(zeroIncX)
		}
		return 0
	}
	if len(x) <= (n-1)*incX {
		panic(shortX)
	}
	if n < 2 {
		if n == 1 {
			return float32(math.Abs(float64(x[0])))
		}
		if n == 0 {
			return 0
		}
		panic(nLT0)
	}
	return kernel.Snrm2Inc(x, n, incX)
}

// Isamax returns the index of the first element of x with the largest
// absolute value, or -1 if n == 0 or incX is negative, as in gonum.
func (Native) Isamax(n int, x []float32, incX int) int {
	if incX < 1 {
		if incX == 0 {
			panic(zeroIncX)
		}
		return -1
	}
	if len(x) <= (n-1)*incX {
		panic(shortX)
	}
	if n < 2 {
		if n == 1 {
			return 0
		}
		if n == 0 {
			return -1
		}
		panic(nLT0)
	}
	return kernel.IsamaxInc(x, n, incX)
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C in single precision for
// row-major matrices, where op(X) is X or Xᵀ as tA and tB say, op(A) is
// m×k, op(B) is k×n and C is m×n. It runs on package kernel's Sgemm, which
// splits large products over the value's threads (see Threads); the result
// does not depend on their number.
func (impl Native) Sgemm(tA, tB gblas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	switch tA {
	default:
		panic(badTranspose)
	case gblas.NoTrans, gblas.Trans, gblas.ConjTrans:
	}
	switch tB {
	default:
		panic(badTranspose)
	case gblas.NoTrans, gblas.Trans, gblas.ConjTrans:
	}
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	aTrans := tA != gblas.NoTrans
	bTrans := tB != gblas.NoTrans
	if aTrans {
		if lda < max(1, m) {
			panic(badLdA)
		}
	} else if lda < max(1, k) {
		panic(badLdA)
	}
	if bTrans {
		if ldb < max(1, k) {
			panic(badLdB)
		}
	} else if ldb < max(1, n) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if aTrans {
		if len(a) < (k-1)*lda+m {
			panic(shortA)
		}
	} else if len(a) < (m-1)*lda+k {
		panic(shortA)
	}
	if bTrans {
		if len(b) < (n-1)*ldb+k {
			panic(shortB)
		}
	} else if len(b) < (k-1)*ldb+n {
		panic(shortB)
	}
	if len(c) < (m-1)*ldc+n {
		panic(shortC)
	}
	kernel.SgemmOn(impl.threads, aTrans, bTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
