package ksvd

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/ridge"
	"github.com/oddl-go/oddl/omp"
)

// Ridge returns the linear classifier fitted by ridge regression to the
// sparse codes A (one code a_i per sample) and their labels, with one-hot
// targets y_i ∈ {0, 1}^q (1 in the row of the sample's class, 0 elsewhere):
//
//	W = argmin Σ_i ‖y_i − Wᵀa_i‖² + λ‖W‖²_F = (A Aᵀ + λI)⁻¹ A Yᵀ,
//
// the transpose of the usual Y Aᵀ (A Aᵀ + λI)⁻¹. W is K×q, stored like the
// dictionary: row j holds atom j's weight for every class, so the score of
// class c for a code a is Σ_j a_j·W[j][c] and the predicted label is the
// class with the largest score. λ must be ≥ 0; with λ = 0 every atom must be
// used (A Aᵀ positive definite), otherwise the error wraps ErrNumeric.
func Ridge(A *omp.Codes, labels []int, classes int, lambda float64) (*mat.Dense, error) {
	if A == nil || A.Samples == 0 {
		return nil, dataErr("ridge: no codes")
	}
	K, N := A.Atoms, A.Samples
	switch {
	case K < 1:
		return nil, dataErr("ridge: codes on %d atoms", K)
	case K > maxAtoms:
		return nil, configErr("ridge: %d atoms, at most %d are supported", K, maxAtoms)
	case len(labels) != N:
		return nil, dataErr("ridge: %d labels for %d codes", len(labels), N)
	case classes < 1:
		return nil, configErr("ridge: %d classes, need at least 1", classes)
	case !(lambda >= 0) || math.IsInf(lambda, 0):
		return nil, configErr("ridge: λ = %v, need a finite value ≥ 0", lambda)
	case len(A.Indptr) != N+1:
		return nil, dataErr("ridge: codes have %d row pointers for %d samples", len(A.Indptr), N)
	}
	if err := checkLabels(labels, classes); err != nil {
		return nil, err
	}
	// M = A·Aᵀ (upper triangle) and B = A·Yᵀ, accumulated sample by sample:
	// L² and L work per sample.
	m := make([]float64, K*K)
	b := mat.NewDense(K, classes, nil)
	braw := b.RawMatrix()
	for i := 0; i < N; i++ {
		lo, hi := A.Indptr[i], A.Indptr[i+1]
		if lo < 0 || hi < lo || hi > len(A.Index) || hi > len(A.Value) {
			return nil, dataErr("ridge: code %d has a bad extent [%d, %d)", i, lo, hi)
		}
		idx, val := A.Index[lo:hi], A.Value[lo:hi]
		y := labels[i]
		for p, j := range idx {
			if j < 0 || j >= K {
				return nil, dataErr("ridge: code %d uses atom %d, outside 0..%d", i, j, K-1)
			}
			v := val[p]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, dataErr("ridge: code %d has coefficient %v", i, v)
			}
			braw.Data[j*braw.Stride+y] += v
			for q, k := range idx {
				if k >= j {
					m[j*K+k] += v * val[q]
				}
			}
		}
	}
	// λ as given, and a system that is not definite is the caller's to
	// fix: no stronger ridge behind its back.
	w, err := ridge.Solve(K, classes, m, braw.Data, lambda, 0, 0)
	switch {
	case errors.Is(err, ridge.ErrNotDefinite):
		return nil, fmt.Errorf("ksvd: %w: ridge system A·Aᵀ + λI (λ = %v) is not positive definite; some atoms are unused, use λ > 0", ErrNumeric, lambda)
	case err != nil:
		return nil, fmt.Errorf("ksvd: %w: ridge solve: %v", ErrNumeric, err)
	}
	return mat.NewDense(K, classes, w), nil
}

// checkLabels returns an error naming the first label outside 0..classes-1.
func checkLabels(labels []int, classes int) error {
	for i, y := range labels {
		if y < 0 || y >= classes {
			return dataErr("label %d of sample %d is outside 0..%d", y, i, classes-1)
		}
	}
	return nil
}
