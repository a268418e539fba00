package ksvd

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/omp"
)

// randomDictionary returns K random unit-norm atoms of length n (rows).
func randomDictionary(rng *rand.Rand, K, n int) *mat.Dense {
	D := mat.NewDense(K, n, nil)
	for j := 0; j < K; j++ {
		row := D.RawRowView(j)
		for k := range row {
			row[k] = rng.NormFloat64()
		}
		normalize(row)
	}
	return D
}

func normalize(v []float64) {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	s = math.Sqrt(s)
	for k := range v {
		v[k] /= s
	}
}

// plantedData returns N samples, each a combination of L distinct random
// atoms of D with coefficients of magnitude in [0.5, 1.5] and random sign,
// plus Gaussian noise of standard deviation sigma per entry.
func plantedData(rng *rand.Rand, D *mat.Dense, N, L int, sigma float64) *mat.Dense {
	K, n := D.Dims()
	X := mat.NewDense(N, n, nil)
	for i := 0; i < N; i++ {
		xi := X.RawRowView(i)
		perm := rng.Perm(K)
		for _, j := range perm[:L] {
			c := 0.5 + rng.Float64()
			if rng.IntN(2) == 0 {
				c = -c
			}
			dj := D.RawRowView(j)
			for k := range xi {
				xi[k] += c * dj[k]
			}
		}
		for k := range xi {
			xi[k] += sigma * rng.NormFloat64()
		}
	}
	return X
}

// subspaceData returns perClass samples of each class; class c's samples lie
// in dim coordinates owned by class c (the classes' subspaces are disjoint):
// the first of them 1, all of them plus Gaussian noise of deviation 0.3, the
// whole normalised. The common direction gives codes of one sign, which a
// linear classifier needs.
func subspaceData(rng *rand.Rand, classes, perClass, dim, n int) (*mat.Dense, []int) {
	if classes*dim > n {
		panic("subspaceData: n too small")
	}
	X := mat.NewDense(classes*perClass, n, nil)
	labels := make([]int, classes*perClass)
	for c := 0; c < classes; c++ {
		for s := 0; s < perClass; s++ {
			i := c*perClass + s
			labels[i] = c
			xi := X.RawRowView(i)
			xi[c*dim] = 1
			for k := 0; k < dim; k++ {
				xi[c*dim+k] += 0.3 * rng.NormFloat64()
			}
			normalize(xi)
		}
	}
	return X, labels
}

// recovered returns how many atoms of want have an atom of got with
// |correlation| at least thr.
func recovered(want, got *mat.Dense, thr float64) int {
	K, _ := want.Dims()
	G := mat.NewDense(K, got.RawMatrix().Rows, nil)
	G.Mul(want, got.T())
	count := 0
	for j := 0; j < K; j++ {
		best := 0.0
		for _, v := range G.RawRowView(j) {
			best = math.Max(best, math.Abs(v))
		}
		if best >= thr {
			count++
		}
	}
	return count
}

// reconstructionError returns ‖X − A·D‖²_F computed densely.
func reconstructionError(X *mat.Dense, A *omp.Codes, D *mat.Dense) float64 {
	R := mat.DenseCopyOf(X)
	var AD mat.Dense
	AD.Mul(A.Dense(), D)
	R.Sub(R, &AD)
	return mat.Norm(R, 2) * mat.Norm(R, 2)
}

// checkUnitRows fails the test unless every row of D has norm 1 within tol.
func checkUnitRows(t *testing.T, D *mat.Dense, tol float64) {
	t.Helper()
	K, _ := D.Dims()
	for j := 0; j < K; j++ {
		if nrm := mat.Norm(D.RowView(j), 2); math.Abs(nrm-1) > tol {
			t.Errorf("atom %d has norm %v, want 1", j, nrm)
		}
	}
}

// referenceOMP codes x on the rows of D, which need not have unit norm:
// it picks the atom of largest |d_jᵀr|/‖d_j‖ and re-solves the least-squares
// problem on the chosen atoms from scratch at every step. It returns the
// chosen atoms and their coefficients on the rows of D as given.
func referenceOMP(D *mat.Dense, x []float64, L int) ([]int, []float64) {
	K, n := D.Dims()
	r := append([]float64(nil), x...)
	var idx []int
	var coef []float64
	for len(idx) < L {
		best, bestV := -1, 0.0
		for j := 0; j < K; j++ {
			dj := D.RawRowView(j)
			var dot, nn float64
			for k := range dj {
				dot += dj[k] * r[k]
				nn += dj[k] * dj[k]
			}
			if v := math.Abs(dot) / math.Sqrt(nn); v > bestV {
				best, bestV = j, v
			}
		}
		if best < 0 || bestV < 1e-12 {
			break
		}
		idx = append(idx, best)
		S := mat.NewDense(n, len(idx), nil)
		for c, j := range idx {
			S.SetCol(c, D.RawRowView(j))
		}
		var sol mat.VecDense
		if err := sol.SolveVec(S, mat.NewVecDense(n, append([]float64(nil), x...))); err != nil {
			panic(err)
		}
		coef = append(coef[:0], sol.RawVector().Data...)
		copy(r, x)
		for c, j := range idx {
			dj := D.RawRowView(j)
			for k := range r {
				r[k] -= coef[c] * dj[k]
			}
		}
	}
	return idx, coef
}
