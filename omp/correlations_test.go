package omp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
)

// CorrelationsTo gives the backend's X·Dᵀ on the coder's atoms bit for bit,
// on every backend compiled in, and follows SetDictionary (the native
// backend's packed copy of D is refreshed); bad shapes and a Gram-only coder
// are errors.
func TestCorrelationsTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 21))
	const n, k, N = 70, 150, 260
	X := randSamples(rng, N, n, false)
	for _, name := range blas.Available() {
		impl, err := blas.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		D := randDict(rng, k, n)
		c := mustNew(t, D, WithBackend(impl), WithThreads(2))
		for round := range 2 {
			if round == 1 {
				D = randDict(rng, k, n)
				if err := c.SetDictionary(D); err != nil {
					t.Fatal(err)
				}
			}
			want := make([]float64, N*k)
			impl.Dgemm(gblas.NoTrans, gblas.Trans, N, k, n, 1, X.RawMatrix().Data, n, D.RawMatrix().Data, n, 0, want, k)
			got := mat.NewDense(N, k, nil)
			if err := c.CorrelationsTo(got, X); err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				if g := got.RawMatrix().Data[i]; math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("%s round %d: A0[%d][%d] = %v, want %v", name, round, i/k, i%k, g, w)
				}
			}
		}
		if err := c.CorrelationsTo(mat.NewDense(N, k+1, nil), X); !errors.Is(err, ErrShape) {
			t.Errorf("%s: wrong dst shape: err = %v", name, err)
		}
		if err := c.CorrelationsTo(mat.NewDense(N, k, nil), mat.NewDense(N, n+1, nil)); !errors.Is(err, ErrShape) {
			t.Errorf("%s: wrong sample length: err = %v", name, err)
		}
		if err := c.CorrelationsTo(nil, X); !errors.Is(err, ErrEmpty) {
			t.Errorf("%s: nil dst: err = %v", name, err)
		}
	}
	G, _, _ := gramInputs(randDict(rng, k, n), X)
	gc, err := NewGram(G)
	if err != nil {
		t.Fatal(err)
	}
	if err := gc.CorrelationsTo(mat.NewDense(N, k, nil), X); !errors.Is(err, ErrShape) {
		t.Errorf("Gram-only coder: err = %v", err)
	}
}
