// Package ridge solves the ridge-regression systems of the linear
// classifiers of packages oddl and ksvd:
//
//	(M + λ·I)·X = C,
//
// M = A Aᵀ the K×K Gram matrix of the codes, C = A Yᵀ (K×q) their
// correlations with the one-hot labels, and X = Wᵀ the classifier, one row
// of class weights an atom. The callers differ in how they choose λ (ksvd:
// as given; oddl: relative to the mean diagonal of M, with a floor) and in
// what a system that is not definite means (ksvd: an error; oddl: a larger
// ridge), which they express through Solve's arguments.
package ridge

import (
	"errors"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// ErrNotDefinite reports that M + λ·I is not numerically positive definite
// at any ridge tried.
var ErrNotDefinite = errors.New("ridge system is not positive definite")

// Solve returns X = (M + λ·I)⁻¹ C, K×q row-major, for M symmetric K×K
// (row-major; only its upper triangle is read) and C K×q row-major. When
// M + λ·I is not definite and grow > 1, Solve retries with the ridge λ·f
// for f = grow, grow², … up to maxGrow, so rounding in a nearly singular M
// is absorbed by a stronger ridge; the error wraps ErrNotDefinite when no
// ridge tried made the system definite. A poor condition number is not an
// error: the floor on the ridge bounds how poor it can be.
func Solve(k, q int, M, C []float64, lambda, grow, maxGrow float64) ([]float64, error) {
	a := make([]float64, k*k)
	for i := range k {
		copy(a[i*k+i:(i+1)*k], M[i*k+i:(i+1)*k])
		for j := i + 1; j < k; j++ {
			a[j*k+i] = M[i*k+j]
		}
	}
	return SolveInPlace(k, q, a, C, lambda, grow, maxGrow)
}

// SolveInPlace is Solve on a full symmetric M (both triangles set) that
// the caller no longer needs: the factor overwrites M's upper triangle, so
// that no second K×K matrix is made (the large dictionaries' K×K matrices
// set their peak memory), and a retry with a stronger ridge reads M from
// the lower triangle, which stays as it was. The result is Solve's, bit
// for bit.
func SolveInPlace(k, q int, M, C []float64, lambda, grow, maxGrow float64) ([]float64, error) {
	diag := make([]float64, k)
	for i := range k {
		diag[i] = M[i*k+i]
	}
	a := blas64.Symmetric{N: k, Stride: k, Uplo: blas.Upper, Data: M[:k*k]}
	for f := 1.0; ; f *= grow {
		for i := range k {
			a.Data[i*k+i] = diag[i] + lambda*f
		}
		if _, ok := lapack64.Potrf(a); ok {
			break
		}
		if !(grow > 1) || f*grow > maxGrow {
			return nil, ErrNotDefinite
		}
		// Potrf has overwritten part of the upper triangle: it is filled
		// again from the lower.
		for i := range k {
			for j := i + 1; j < k; j++ {
				a.Data[i*k+j] = a.Data[j*k+i]
			}
		}
	}
	x := slices.Clone(C[:k*q])
	lapack64.Potrs(blas64.Triangular{N: k, Stride: k, Uplo: blas.Upper, Diag: blas.NonUnit, Data: a.Data},
		blas64.General{Rows: k, Cols: q, Stride: q, Data: x})
	return x, nil
}
