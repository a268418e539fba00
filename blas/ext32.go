package blas

import (
	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/internal/kernel"
)

// The single-precision forms of the operations beyond gonum's BLAS (see
// ext.go), found by type assertion in the same way. Native implements
// them; gonum and OpenBLAS take the plain Sgemm route.

// PackedB32 is the second operand of a float32 GEMM packed once for many
// products with the same B (package kernel's layout). The zero value is
// empty; a PackedGEMM32 backend's PackB32 fills it.
type PackedB32 = kernel.PackedB32

// PackedGEMM32 is PackedGEMM for single precision.
type PackedGEMM32 interface {
	gblas.Float32
	// PackB32 packs op(B), a k×n matrix (B itself when tB is NoTrans, its
	// transpose otherwise; b holds B row-major with stride ldb), into pb,
	// reusing pb's memory. Later changes to b do not affect pb.
	PackB32(pb *PackedB32, tB gblas.Transpose, k, n int, b []float32, ldb int)
	// SgemmPacked computes C = alpha·op(A)·B + beta·C with B the k×n
	// matrix packed in pb and op(A) m×k: what Sgemm gives with the
	// unpacked B (for Native bit for bit, except products of at most 128
	// multiply-adds, which its Sgemm computes by plain loops).
	SgemmPacked(tA gblas.Transpose, m int, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int)
}

// GramUpper32 is GramUpper for single precision.
type GramUpper32 interface {
	PackedGEMM32
	// SgemmPackedUpper gives every C[i][j] with j >= i of the square
	// C = alpha·op(A)·B + beta·C (op(A) n×k, B packed in pb k×n) exactly
	// the value SgemmPacked would give it. Entries below the diagonal are
	// unspecified.
	SgemmPackedUpper(tA gblas.Transpose, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int)
}

var _ GramUpper32 = Native{}

// PackB32 packs op(B), a k×n matrix, into pb for SgemmPacked and
// SgemmPackedUpper, on at most the value's threads; the packed bytes are
// the same on any number.
func (impl Native) PackB32(pb *PackedB32, tB gblas.Transpose, k, n int, b []float32, ldb int) {
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
	pb.PackOn(impl.threads, trans, k, n, b, ldb)
}

// SgemmPacked computes C = alpha·op(A)·B + beta·C with B the k×n matrix
// packed in pb and op(A) m×k: the values of Sgemm with the unpacked B, bit
// for bit, on the value's threads.
func (impl Native) SgemmPacked(tA gblas.Transpose, m int, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int) {
	k, n := pb.Dims()
	checkPacked32(tA, m, n, k, a, lda, c, ldc)
	kernel.SgemmPackedOn(impl.threads, tA != gblas.NoTrans, m, alpha, a, lda, pb, beta, c, ldc)
}

// SgemmPackedUpper computes the upper triangle (j >= i) of the square
// C = alpha·op(A)·B + beta·C, op(A) n×k with B packed in pb (k×n), in about
// half the work of SgemmPacked and with its values. Some entries below the
// diagonal, near it, are written too.
func (impl Native) SgemmPackedUpper(tA gblas.Transpose, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int) {
	k, n := pb.Dims()
	checkPacked32(tA, n, n, k, a, lda, c, ldc)
	kernel.SgemmPackedUpperOn(impl.threads, tA != gblas.NoTrans, alpha, a, lda, pb, beta, c, ldc)
}

// checkPacked32 is checkPacked for float32 operands.
func checkPacked32(tA gblas.Transpose, m, n, k int, a []float32, lda int, c []float32, ldc int) {
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
