package blas

import (
	"math"
	"sync"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/oddl-go/oddl/internal/kernel"
)

// Panic messages of the argument checks. They are gonum's, word for word, so
// that a caller (and gonum's conformance tests) cannot tell the backends apart
// by how they reject bad arguments.
const (
	zeroIncX = "blas: zero x index increment"
	zeroIncY = "blas: zero y index increment"

	mLT0 = "blas: m < 0"
	nLT0 = "blas: n < 0"
	kLT0 = "blas: k < 0"

	badUplo      = "blas: illegal triangle"
	badTranspose = "blas: illegal transpose"

	badLdA = "blas: bad leading dimension of A"
	badLdB = "blas: bad leading dimension of B"
	badLdC = "blas: bad leading dimension of C"

	shortX = "blas: insufficient length of x"
	shortY = "blas: insufficient length of y"
	shortA = "blas: insufficient length of a"
	shortB = "blas: insufficient length of b"
	shortC = "blas: insufficient length of c"
)

// Native is gonum's pure-Go BLAS with the routines that dominate oddl's run
// time — Ddot, Daxpy, Dscal, Dnrm2, Idamax, Dgemv, Dger, Dgemm and Dsyrk —
// running on package kernel (the tier kernel.Name() reports: AVX-512 or
// AVX2/FMA assembly where the CPU has it, pure Go otherwise). Every other
// routine is gonum's, through the embedded Implementation. Arguments are
// checked exactly as gonum checks them, with the same panic messages.
//
// The zero value runs its parallel routines on kernel.Threads() goroutines
// (GOMAXPROCS by default); WithThreads returns a value bound to a count of
// its own. Native also offers the packed and half products of PackedGEMM
// and GramUpper, and promises package kernel's rounding (KernelRounding).
type Native struct {
	gonum.Implementation
	threads int // 0: kernel.Threads()
}

var (
	_ gblas.Float64  = Native{}
	_ GramUpper      = Native{}
	_ Threaded       = Native{}
	_ KernelRounding = Native{}
)

// Threads returns how many goroutines the parallel routines use.
func (impl Native) Threads() int {
	if impl.threads > 0 {
		return impl.threads
	}
	return kernel.Threads()
}

// WithThreads returns Native running its parallel routines on at most n
// goroutines, the caller's included (n < 1: kernel.Threads()). The results
// do not depend on n.
func (impl Native) WithThreads(n int) Threaded {
	impl.threads = max(0, n)
	return impl
}

// RoundsAsKernel reports true: every product is package kernel's GEMM.
func (Native) RoundsAsKernel() bool { return true }

// Ddot returns the dot product Σ x[i]·y[i] of the n elements of x and y.
func (impl Native) Ddot(n int, x []float64, incX int, y []float64, incY int) float64 {
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
		return kernel.DotUnitary(x[:n], y[:n])
	}
	if (incX > 0 && (n-1)*incX >= len(x)) || (incX < 0 && (1-n)*incX >= len(x)) {
		panic(shortX)
	}
	if (incY > 0 && (n-1)*incY >= len(y)) || (incY < 0 && (1-n)*incY >= len(y)) {
		panic(shortY)
	}
	if (incX < 0) != (incY < 0) {
		// One vector runs backwards: its first element is at the far end.
		return impl.Implementation.Ddot(n, x, incX, y, incY)
	}
	// Both increments negative pairs the same elements as both positive.
	return kernel.DotInc(x, y, n, abs(incX), abs(incY), 0, 0)
}

// Daxpy computes y = alpha·x + y over n elements.
func (impl Native) Daxpy(n int, alpha float64, x []float64, incX int, y []float64, incY int) {
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
		kernel.AxpyUnitary(alpha, x[:n], y[:n])
		return
	}
	if (incX < 0) != (incY < 0) {
		impl.Implementation.Daxpy(n, alpha, x, incX, y, incY)
		return
	}
	kernel.AxpyInc(alpha, x, y, n, abs(incX), abs(incY), 0, 0)
}

// Dscal computes x = alpha·x over n elements. A negative incX does nothing,
// as in gonum.
func (Native) Dscal(n int, alpha float64, x []float64, incX int) {
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
		kernel.ScalUnitary(alpha, x[:n])
		return
	}
	kernel.ScalInc(alpha, x, n, incX)
}

// Dnrm2 returns the Euclidean norm of the n elements of x, computed without
// undue overflow or underflow. A negative incX gives 0, as in gonum.
func (Native) Dnrm2(n int, x []float64, incX int) float64 {
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
			return math.Abs(x[0])
		}
		if n == 0 {
			return 0
		}
		panic(nLT0)
	}
	if incX == 1 {
		return kernel.Nrm2Unitary(x[:n])
	}
	return kernel.Nrm2Inc(x, n, incX)
}

// Idamax returns the index of the first element of x with the largest
// absolute value, or -1 if n == 0 or incX is negative, as in gonum.
func (Native) Idamax(n int, x []float64, incX int) int {
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
	if incX == 1 {
		return kernel.IamaxUnitary(x[:n])
	}
	return kernel.IamaxInc(x, n, incX)
}

// Dgemv computes y = alpha·A·x + beta·y (tA == NoTrans) or
// y = alpha·Aᵀ·x + beta·y (Trans, ConjTrans) for the m×n row-major A.
func (impl Native) Dgemv(tA gblas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if tA != gblas.NoTrans && tA != gblas.Trans && tA != gblas.ConjTrans {
		panic(badTranspose)
	}
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	if lda < max(1, n) {
		panic(badLdA)
	}
	if incX == 0 {
		panic(zeroIncX)
	}
	if incY == 0 {
		panic(zeroIncY)
	}
	lenX, lenY := m, n
	if tA == gblas.NoTrans {
		lenX, lenY = n, m
	}
	if m == 0 || n == 0 {
		return
	}
	if (incX > 0 && (lenX-1)*incX >= len(x)) || (incX < 0 && (1-lenX)*incX >= len(x)) {
		panic(shortX)
	}
	if (incY > 0 && (lenY-1)*incY >= len(y)) || (incY < 0 && (1-lenY)*incY >= len(y)) {
		panic(shortY)
	}
	if len(a) < lda*(m-1)+n {
		panic(shortA)
	}
	if alpha == 0 && beta == 1 {
		return
	}
	if incX < 0 || incY < 0 {
		impl.Implementation.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	if alpha == 0 {
		impl.Dscal(lenY, beta, y, incY)
		return
	}
	if tA == gblas.NoTrans {
		kernel.GemvN(m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	kernel.GemvT(m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Dger computes the rank-one update A += alpha·x·yᵀ of the m×n row-major A.
func (impl Native) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if m < 0 {
		panic(mLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	if lda < max(1, n) {
		panic(badLdA)
	}
	if incX == 0 {
		panic(zeroIncX)
	}
	if incY == 0 {
		panic(zeroIncY)
	}
	if m == 0 || n == 0 {
		return
	}
	if (incX > 0 && len(x) <= (m-1)*incX) || (incX < 0 && len(x) <= (1-m)*incX) {
		panic(shortX)
	}
	if (incY > 0 && len(y) <= (n-1)*incY) || (incY < 0 && len(y) <= (1-n)*incY) {
		panic(shortY)
	}
	if len(a) < lda*(m-1)+n {
		panic(shortA)
	}
	if alpha == 0 {
		return
	}
	if incX < 0 || incY < 0 {
		// Negative strides start at the far end (x_i = x[(1−m)·incX +
		// i·incX]). gonum v0.17.0's Dger does not apply that offset and
		// reads outside x and y, so this rare case is done here.
		kx, ky := 0, 0
		if incX < 0 {
			kx = (1 - m) * incX
		}
		if incY < 0 {
			ky = (1 - n) * incY
		}
		for i, ix := 0, kx; i < m; i, ix = i+1, ix+incX {
			t := alpha * x[ix]
			row := a[i*lda : i*lda+n]
			for j, jy := 0, ky; j < n; j, jy = j+1, jy+incY {
				row[j] += t * y[jy]
			}
		}
		return
	}
	kernel.Ger(m, n, alpha, x, incX, y, incY, a, lda)
}

// Dgemm computes C = alpha·op(A)·op(B) + beta·C for row-major matrices, where
// op(X) is X or Xᵀ as tA and tB say, op(A) is m×k, op(B) is k×n and C is m×n.
// It runs on package kernel's GEMM, which splits large products over the
// value's threads (see Threads).
func (impl Native) Dgemm(tA, tB gblas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
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
	if alpha == 0 || k == 0 {
		scaleRect(m, n, beta, c, ldc)
		return
	}
	kernel.DgemmOn(impl.threads, aTrans, bTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dsyrk computes the triangle ul of the symmetric n×n C = alpha·A·Aᵀ + beta·C
// (tA == NoTrans, A n×k) or C = alpha·Aᵀ·A + beta·C (Trans, ConjTrans, A k×n).
// The other triangle of C is not touched. The off-diagonal blocks of the
// triangle are products of the kernel's GEMM; each diagonal block goes
// through a small scratch square, so about half the work of a full product
// is done.
func (impl Native) Dsyrk(ul gblas.Uplo, tA gblas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if ul != gblas.Lower && ul != gblas.Upper {
		panic(badUplo)
	}
	if tA != gblas.Trans && tA != gblas.NoTrans && tA != gblas.ConjTrans {
		panic(badTranspose)
	}
	if n < 0 {
		panic(nLT0)
	}
	if k < 0 {
		panic(kLT0)
	}
	row, col := k, n
	if tA == gblas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) {
		panic(badLdA)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if n == 0 {
		return
	}
	if len(a) < lda*(row-1)+col {
		panic(shortA)
	}
	if len(c) < ldc*(n-1)+n {
		panic(shortC)
	}
	if alpha == 0 || k == 0 {
		scaleTriangle(ul, n, beta, c, ldc)
		return
	}
	syrkRec(impl.threads, ul, tA, n, k, alpha, a, lda, beta, c, ldc)
}

// syrkRec computes the triangle ul of Dsyrk recursively: the two diagonal
// halves, then the off-diagonal rectangle between them in one GEMM. The
// rectangles are large (the first is a quarter of C), so the GEMMs run
// near peak on every thread, and only the diagonal blocks of at most
// syrkBlock rows do the redundant half of their product. The products run
// on at most threads goroutines (< 1: kernel.Threads()).
func syrkRec(threads int, ul gblas.Uplo, tA gblas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if n <= syrkBlock {
		syrkDiag(threads, ul, tA, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	h := (n/2 + 7) &^ 7
	trans := tA != gblas.NoTrans
	// a2 holds rows h..n of op(A), which is n×k: columns h.. of A when
	// transposed.
	var a2 []float64
	if trans {
		a2 = a[h:]
	} else {
		a2 = a[h*lda:]
	}
	syrkRec(threads, ul, tA, h, k, alpha, a, lda, beta, c, ldc)
	syrkRec(threads, ul, tA, n-h, k, alpha, a2, lda, beta, c[h*ldc+h:], ldc)
	// Upper: C[0:h, h:n] = alpha·op(A)[0:h]·op(A)[h:n]ᵀ + beta·C;
	// Lower: C[h:n, 0:h] = alpha·op(A)[h:n]·op(A)[0:h]ᵀ + beta·C.
	x, y, cb := a, a2, c[h:]
	m, nn := h, n-h
	if ul == gblas.Lower {
		x, y, cb = a2, a, c[h*ldc:]
		m, nn = n-h, h
	}
	kernel.DgemmOn(threads, trans, !trans, m, nn, k, alpha, x, lda, y, lda, beta, cb, ldc)
}

// syrkBlock is the order of Dsyrk's diagonal blocks: small enough that the
// redundant half of each block costs little, large enough for GEMM speed.
const syrkBlock = 64

// syrkPool holds the scratch squares of syrkDiag.
var syrkPool = sync.Pool{New: func() any { return new([syrkBlock * syrkBlock]float64) }}

// syrkDiag computes the triangle ul of an n×n (n <= syrkBlock) diagonal
// block of Dsyrk through a scratch square, so the other triangle of c is left
// as it was.
func syrkDiag(threads int, ul gblas.Uplo, tA gblas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	buf := syrkPool.Get().(*[syrkBlock * syrkBlock]float64)
	defer syrkPool.Put(buf)
	tmp := buf[:n*n]
	if tA == gblas.NoTrans {
		kernel.DgemmOn(threads, false, true, n, n, k, alpha, a, lda, a, lda, 0, tmp, n)
	} else {
		kernel.DgemmOn(threads, true, false, n, n, k, alpha, a, lda, a, lda, 0, tmp, n)
	}
	for i := 0; i < n; i++ {
		lo, hi := i, n
		if ul == gblas.Lower {
			lo, hi = 0, i+1
		}
		ci := c[i*ldc+lo : i*ldc+hi]
		ti := tmp[i*n+lo : i*n+hi]
		switch beta {
		case 0:
			copy(ci, ti)
		case 1:
			for j, v := range ti {
				ci[j] += v
			}
		default:
			for j, v := range ti {
				ci[j] = beta*ci[j] + v
			}
		}
	}
}

// scaleRect computes C = beta·C for the m×n C; beta == 0 writes zeros.
func scaleRect(m, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(ci)
			continue
		}
		for j := range ci {
			ci[j] *= beta
		}
	}
}

// scaleTriangle computes C = beta·C on the triangle ul of the n×n C.
func scaleTriangle(ul gblas.Uplo, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < n; i++ {
		ci := c[i*ldc+i : i*ldc+n]
		if ul == gblas.Lower {
			ci = c[i*ldc : i*ldc+i+1]
		}
		if beta == 0 {
			clear(ci)
			continue
		}
		for j := range ci {
			ci[j] *= beta
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
