package ridge

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The solution satisfies (M + λI)·X = C to rounding, reading only M's
// upper triangle.
func TestSolveResidual(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, k := range []int{1, 7, 64} {
		const q, lambda = 3, 0.5
		a := make([]float64, k*(k+2))
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		M := make([]float64, k*k)
		for i := range k {
			for j := range k {
				var s float64
				for p := range k + 2 {
					s += a[i*(k+2)+p] * a[j*(k+2)+p]
				}
				if j >= i {
					M[i*k+j] = s
				} else {
					M[i*k+j] = math.NaN() // the lower triangle is not read
				}
			}
		}
		C := make([]float64, k*q)
		for i := range C {
			C[i] = rng.NormFloat64()
		}
		X, err := Solve(k, q, M, C, lambda, 0, 0)
		if err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		for i := range k {
			for c := range q {
				r := lambda*X[i*q+c] - C[i*q+c]
				for j := range k {
					m := M[min(i, j)*k+max(i, j)]
					r += m * X[j*q+c]
				}
				if math.Abs(r) > 1e-9 {
					t.Fatalf("k=%d: residual %g at (%d, %d)", k, r, i, c)
				}
			}
		}
	}
}

// A system that is not definite at λ is an error without growth, and is
// solved at the first grown ridge that makes it definite with it.
func TestSolveGrow(t *testing.T) {
	M := []float64{1, 0, 0, -5e-4}
	C := []float64{1, 1}
	if _, err := Solve(2, 1, M, C, 1e-6, 0, 0); !errors.Is(err, ErrNotDefinite) {
		t.Fatalf("without growth: %v", err)
	}
	if _, err := Solve(2, 1, M, C, 1e-6, 1e3, 1e2); !errors.Is(err, ErrNotDefinite) {
		t.Fatalf("growth capped below the ridge needed: %v", err)
	}
	X, err := Solve(2, 1, M, C, 1e-6, 1e3, 1e12)
	if err != nil {
		t.Fatal(err)
	}
	// λ·10³ = 10⁻³: the second diagonal entry is 5·10⁻⁴.
	if want := 1 / (1 + 1e-3); math.Abs(X[0]-want) > 1e-12 || math.Abs(X[1]-2000) > 1e-6 {
		t.Fatalf("X = %v, want [%v 2000]", X, want)
	}
}

// A system that fails late in the factorisation, after the off-diagonal
// entries of the first rows have been overwritten, is solved with the
// grown ridge on M itself: the solution is that of the first definite
// M + λ·f·I, f a power of grow.
func TestSolveGrowRefactors(t *testing.T) {
	const k = 3
	M := []float64{
		4, 2, 1,
		2, 3, 1,
		1, 1, 0.1, // its Schur complement is negative
	}
	C := []float64{1, -2, 0.5, 3, 1, -1}
	const lambda, grow = 1e-3, 10.0
	// The first ridge that makes M + λ·f·I definite, found with gonum.
	f := 1.0
	var a *mat.SymDense
	for ; ; f *= grow {
		a = mat.NewSymDense(k, slices.Clone(M))
		for i := range k {
			a.SetSym(i, i, M[i*k+i]+lambda*f)
		}
		var ch mat.Cholesky
		if ch.Factorize(a) {
			break
		}
	}
	if f == 1 {
		t.Fatal("the test's M is definite with the first ridge")
	}
	X, err := Solve(k, 2, M, C, lambda, grow, 1e12)
	if err != nil {
		t.Fatal(err)
	}
	var want mat.Dense
	if err := want.Solve(a, mat.NewDense(k, 2, C)); err != nil {
		t.Fatal(err)
	}
	for i, v := range X {
		if w := want.RawMatrix().Data[i]; math.Abs(v-w) > 1e-10*(1+math.Abs(w)) {
			t.Fatalf("X = %v, want %v (ridge λ·%g)", X, want.RawMatrix().Data, f)
		}
	}
}

// SolveInPlace gives Solve's solution bit for bit, on a definite system
// and on one that needs a grown ridge (factored again from the lower
// triangle), and leaves the lower triangle as it was.
func TestSolveInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	const k, q = 40, 3
	a := make([]float64, k*(k/2))
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	M := make([]float64, k*k)
	for i := range k {
		for j := range k {
			for p := range k / 2 { // rank k/2
				M[i*k+j] += a[i*(k/2)+p] * a[j*(k/2)+p]
			}
		}
	}
	M[k*k-1] -= 1e-3 // indefinite: a larger ridge is needed
	C := make([]float64, k*q)
	for i := range C {
		C[i] = rng.NormFloat64()
	}
	if _, err := Solve(k, q, M, C, 1e-14, 0, 0); err == nil {
		t.Fatal("the test's M is definite at the smaller ridge: no retry is tested")
	}
	for _, lambda := range []float64{1, 1e-14} {
		want, err := Solve(k, q, M, C, lambda, 10, 1e20)
		if err != nil {
			t.Fatal(err)
		}
		in := slices.Clone(M)
		got, err := SolveInPlace(k, q, in, C, lambda, 10, 1e20)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("λ = %g: X[%d] = %v, want Solve's %v", lambda, i, got[i], want[i])
			}
		}
		for i := range k {
			for j := range i {
				if in[i*k+j] != M[i*k+j] {
					t.Fatalf("λ = %g: lower triangle changed at (%d, %d)", lambda, i, j)
				}
			}
		}
	}
}
