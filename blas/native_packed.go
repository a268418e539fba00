package blas

import (
	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
)

// packPerThread is the number of elements of B per goroutine below which
// PackB uses fewer goroutines: packing is a copy, and starting a goroutine
// costs about as much as moving a few thousand elements.
const packPerThread = 1 << 16

// PackB packs op(B), a k×n matrix, into pb for DgemmPacked and
// DgemmPackedUpper. A value bound to a thread count (WithThreads) shares
// the rows among at most that many goroutines; the packed bytes are the
// same on any number.
func (impl Native) PackB(pb *PackedB, tB gblas.Transpose, k, n int, b []float64, ldb int) {
	if tB != gblas.NoTrans && tB != gblas.Trans && tB != gblas.ConjTrans {
		panic(badTranspose)
	}
	if k < 0 {
		panic(kLT0)
	}
	if n < 0 {
		panic(nLT0)
	}
	trans := tB != gblas.NoTrans
	rows, cols := k, n // of B as stored
	if trans {
		rows, cols = n, k
	}
	if ldb < max(1, cols) {
		panic(badLdB)
	}
	if rows > 0 && cols > 0 && len(b) < (rows-1)*ldb+cols {
		panic(shortB)
	}
	if impl.threads == 0 {
		pb.Pack(trans, k, n, b, ldb)
		return
	}
	w := min(impl.threads, max(1, k*n/packPerThread))
	if w == 1 {
		pb.PackRows(trans, k, n, b, ldb, 0, k)
		return
	}
	// Lay pb out first, so that the goroutines only fill their rows.
	pb.PackRows(trans, k, n, b, ldb, 0, 0)
	par.Do(w, func(i int) {
		pb.PackRows(trans, k, n, b, ldb, i*k/w, (i+1)*k/w)
	})
}

// DgemmPacked computes C = alpha·op(A)·B + beta·C with B the k×n matrix
// packed in pb and op(A) m×k: the values of Dgemm with the unpacked B, bit
// for bit, on the value's threads.
func (impl Native) DgemmPacked(tA gblas.Transpose, m int, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	k, n := pb.Dims()
	checkPacked(tA, m, n, k, a, lda, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleRect(m, n, beta, c, ldc)
		return
	}
	kernel.DgemmPackedOn(impl.threads, tA != gblas.NoTrans, m, alpha, a, lda, pb, beta, c, ldc)
}

// DgemmPackedUpper computes the upper triangle (j >= i) of the square
// C = alpha·op(A)·B + beta·C, op(A) n×k with B packed in pb (k×n), in about
// half the work of DgemmPacked and with its values. Some entries below the
// diagonal, near it, are written too.
func (impl Native) DgemmPackedUpper(tA gblas.Transpose, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	k, n := pb.Dims()
	checkPacked(tA, n, n, k, a, lda, c, ldc)
	if n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleTriangle(gblas.Upper, n, beta, c, ldc)
		return
	}
	kernel.DgemmPackedUpperOn(impl.threads, tA != gblas.NoTrans, alpha, a, lda, pb, beta, c, ldc)
}

// checkPacked checks the arguments of a product of op(A) (m×k) with a
// packed k×n B into the m×n C, as Dgemm checks them.
func checkPacked(tA gblas.Transpose, m, n, k int, a []float64, lda int, c []float64, ldc int) {
	if tA != gblas.NoTrans && tA != gblas.Trans && tA != gblas.ConjTrans {
		panic(badTranspose)
	}
	if m < 0 {
		panic(mLT0)
	}
	rows, cols := m, k // of A as stored
	if tA != gblas.NoTrans {
		rows, cols = k, m
	}
	if lda < max(1, cols) {
		panic(badLdA)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if rows > 0 && cols > 0 && len(a) < (rows-1)*lda+cols {
		panic(shortA)
	}
	if len(c) < (m-1)*ldc+n {
		panic(shortC)
	}
}
