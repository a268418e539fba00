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

	"gonum.org/v1/gonum/mat"
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
	a := mat.NewSymDense(k, nil)
	for i := range k {
		for j := i; j < k; j++ {
			v := M[i*k+j]
			if i == j {
				v += lambda
			}
			a.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	for f := grow; !ch.Factorize(a); f *= grow {
		if !(grow > 1) || f > maxGrow {
			return nil, ErrNotDefinite
		}
		for i := range k {
			a.SetSym(i, i, M[i*k+i]+lambda*f)
		}
	}
	x := make([]float64, k*q)
	// SolveTo reports a poor condition number as an error but still
	// solves.
	if err := ch.SolveTo(mat.NewDense(k, q, x), mat.NewDense(k, q, C)); err != nil {
		var cond mat.Condition
		if !errors.As(err, &cond) {
			return nil, err
		}
	}
	return x, nil
}
