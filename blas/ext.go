package blas

import (
	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/internal/kernel"
)

// The interfaces below are operations beyond gonum's blas.Float64 that a
// backend may offer. Callers find them by type assertion and fall back to
// the plain BLAS routines when a backend lacks them, so every backend runs
// through the same calling code.

// PackedB is the second operand of a GEMM packed once for many products
// with the same B (package kernel's layout). The zero value is empty; a
// PackedGEMM backend's PackB fills it.
type PackedB = kernel.PackedB

// PackedGEMM is implemented by backends whose GEMM can take its second
// operand packed once, for many products with the same B: Batch-OMP's
// correlations X·Dᵀ with one dictionary for block after block of samples.
type PackedGEMM interface {
	gblas.Float64
	// PackB packs op(B), a k×n matrix (B itself when tB is NoTrans, its
	// transpose otherwise; b holds B row-major with stride ldb), into pb,
	// reusing pb's memory. Later changes to b do not affect pb.
	PackB(pb *PackedB, tB gblas.Transpose, k, n int, b []float64, ldb int)
	// DgemmPacked computes C = alpha·op(A)·B + beta·C with B the k×n
	// matrix packed in pb and op(A) m×k: what Dgemm gives with the
	// unpacked B (for Native bit for bit, except products of at most 128
	// multiply-adds, which its Dgemm computes by plain loops).
	DgemmPacked(tA gblas.Transpose, m int, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int)
}

// GramUpper is implemented by PackedGEMM backends that can compute only
// the upper triangle of a square product in about half the work: the Gram
// matrix G = D·Dᵀ when pb holds Dᵀ and op(A) is D.
type GramUpper interface {
	PackedGEMM
	// DgemmPackedUpper gives every C[i][j] with j >= i of the square
	// C = alpha·op(A)·B + beta·C (op(A) n×k, B packed in pb k×n) exactly
	// the value DgemmPacked would give it. Entries below the diagonal are
	// unspecified.
	DgemmPackedUpper(tA gblas.Transpose, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int)
}

// Threaded is implemented by backends whose thread count is part of the
// value, so that two values of one backend can run on different counts at
// the same time without touching each other.
type Threaded interface {
	gblas.Float64
	// Threads returns how many threads the parallel routines use.
	Threads() int
	// WithThreads returns the same backend running its parallel routines
	// on at most n threads (n < 1: the default count).
	WithThreads(n int) Threaded
}

// KernelRounding is implemented by backends whose Dgemm and Dsyrk (and
// the methods above, where they exist) give, entry for entry and bit for
// bit, the values of package kernel's GEMM, on any thread count. A caller
// that can skip work no BLAS call can skip — the zero entries of a sparse
// factor, a division fused into the same pass — may then compute parts of
// a product with package kernel's routines that promise the same rounding
// (kernel.AddRowsSum, kernel.DotsAddDiv, kernel.DgemmPackedOn) and still
// get the backend's results exactly. It is a statement about values, not
// about a name: any backend built on package kernel's GEMM may make it.
type KernelRounding interface {
	gblas.Float64
	// RoundsAsKernel reports whether the promise holds for this value.
	RoundsAsKernel() bool
}

// RoundsAsKernel reports whether impl promises package kernel's rounding
// (see KernelRounding).
func RoundsAsKernel(impl gblas.Float64) bool {
	k, ok := impl.(KernelRounding)
	return ok && k.RoundsAsKernel()
}
