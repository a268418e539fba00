package oddl

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
)

// randomDense returns a rows×cols matrix of standard normal entries,
// drawn row by row.
func randomDense(rng *rand.Rand, rows, cols int) *mat.Dense {
	D := mat.NewDense(rows, cols, nil)
	for i := range rows {
		for j := range cols {
			D.Set(i, j, rng.NormFloat64())
		}
	}
	return D
}

// randomGram returns DᵀD for a random D of rows×g (randomDense).
func randomGram(rng *rand.Rand, rows, g int) *mat.Dense {
	D := randomDense(rng, rows, g)
	var G mat.Dense
	G.Mul(D.T(), D)
	return &G
}

// TestCholSolveRows holds the blocked solve to gonum's Cholesky solve, on
// every backend, at the edges of the blocks and with a leading dimension
// beyond the columns.
func TestCholSolveRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range blas.Available() {
		impl, _, err := blas.Select(name, blas.WithThreads(2))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []int{1, 5, cholBlock - 1, cholBlock, cholBlock + 1, 3*cholBlock + 7} {
			for _, r := range []int{0, 1, 9} {
				G := randomGram(rng, g+3, g)
				lambda := 0.1
				u, err := cholUpper(impl, g, G.RawMatrix().Data, lambda)
				if err != nil {
					t.Fatal(err)
				}
				ld := g + 3
				X := make([]float64, r*ld)
				for i := range X {
					X[i] = rng.NormFloat64()
				}
				B := mat.NewDense(max(r, 1), g, nil)
				for i := range r {
					for j := range g {
						B.Set(i, j, X[i*ld+j])
					}
				}
				pad := append([]float64(nil), X...)
				cholSolveRows(impl, g, u, r, X, ld)
				if r == 0 {
					continue
				}
				h := mat.NewSymDense(g, nil)
				for i := range g {
					for j := i; j < g; j++ {
						h.SetSym(i, j, G.At(i, j))
					}
					h.SetSym(i, i, G.At(i, i)+lambda)
				}
				var ch mat.Cholesky
				if !ch.Factorize(h) {
					t.Fatal("not positive definite")
				}
				var want mat.Dense
				if err := ch.SolveTo(&want, B.T()); err != nil {
					t.Fatal(err)
				}
				for i := range r {
					for j := range g {
						w := want.At(j, i)
						if got := X[i*ld+j]; math.Abs(got-w) > 1e-9*(1+math.Abs(w)) {
							t.Fatalf("%s, g = %d, r = %d: x[%d][%d] = %v, want %v", name, g, r, i, j, got, w)
						}
					}
					for j := g; j < ld; j++ {
						if X[i*ld+j] != pad[i*ld+j] {
							t.Fatalf("%s, g = %d: the padding of row %d changed", name, g, i)
						}
					}
				}
			}
		}
	}
}

// TestCollabScores holds the collaborative rule's scores to their
// definition: the ridge code a = (G + λ_c I)⁻¹ b of each sample's
// correlations b, and per class −‖x − D_c a_c‖ / ‖a_c‖, computed here from
// the dictionary and the sample themselves; classes of several blocks of
// atoms, a class without atoms (the lowest score) and atoms of no class.
func TestCollabScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n, k, nb := 40, 2*cholBlock+30, 6
	bounds := []int{0, 150, 150, 260, k - 3} // class 1 has no atoms; 3 atoms of no class
	q := len(bounds) - 1
	D := randomDense(rng, k, n)
	var G mat.Dense
	G.Mul(D, D.T())
	X := randomDense(rng, nb, n)
	var A mat.Dense
	A.Mul(X, D.T())
	xx := make([]float64, nb)
	for i := range nb {
		xx[i] = mat.Dot(X.RowView(i), X.RowView(i))
	}
	const lambda = 0.5
	for _, name := range blas.Available() {
		impl, _, err := blas.Select(name, blas.WithThreads(2))
		if err != nil {
			t.Fatal(err)
		}
		p := &predictor{gram: mat.DenseCopyOf(&G), bounds: bounds}
		if err := p.factorCollab(impl, lambda); err != nil {
			t.Fatal(err)
		}
		S := mat.NewDense(nb, q, nil)
		p.collabScores(S, &A, xx)
		for i := range nb {
			// The ridge code from its normal equations.
			h := mat.DenseCopyOf(&G)
			for j := range k {
				h.Set(j, j, h.At(j, j)+lambda)
			}
			var a mat.VecDense
			if err := a.SolveVec(h, A.RowView(i)); err != nil {
				t.Fatal(err)
			}
			for c := range q {
				lo, hi := bounds[c], bounds[c+1]
				got := S.At(i, c)
				if lo == hi {
					if got != -math.MaxFloat64 {
						t.Errorf("%s: sample %d, class %d without atoms: score %v", name, i, c, got)
					}
					continue
				}
				res := mat.VecDenseCopyOf(X.RowView(i))
				var norm float64
				for j := lo; j < hi; j++ {
					res.AddScaledVec(res, -a.AtVec(j), D.RowView(j))
					norm += a.AtVec(j) * a.AtVec(j)
				}
				want := -mat.Norm(res, 2) / math.Sqrt(norm)
				if math.Abs(got-want) > 1e-7*math.Abs(want) {
					t.Errorf("%s: sample %d, class %d: score %v, want %v", name, i, c, got, want)
				}
			}
		}
	}
}
