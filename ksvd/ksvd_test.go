package ksvd

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
)

// TestRecoverPlanted is the classic K-SVD experiment: noiseless samples made
// of L = 3 atoms of a random 20×50 dictionary; K-SVD from random samples must
// find at least 90 % of the atoms to |correlation| ≥ 0.99.
func TestRecoverPlanted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, K, L, N = 20, 50, 3, 1500
	Dtrue := randomDictionary(rng, K, n)
	X := plantedData(rng, Dtrue, N, L, 0)
	dict, err := Train(context.Background(), X, Config{K: K, L: L, Iterations: 40, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	checkUnitRows(t, dict.D, 1e-12)
	got := recovered(Dtrue, dict.D, 0.99)
	t.Logf("recovered %d of %d atoms; rmse %.3g → %.3g; %d atoms replaced",
		got, K, dict.RMSE[0], dict.RMSE[len(dict.RMSE)-1], dict.Replaced)
	if got < K*9/10 {
		t.Errorf("recovered %d of %d atoms, want at least %d", got, K, K*9/10)
	}
}

// TestErrorDecreases checks that the representation error of the codes
// decreases from iteration to iteration (up to the greedy coder's slack) on
// noisy data, and by a clear margin overall.
func TestErrorDecreases(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, K, L, N = 32, 64, 4, 1200
	X := plantedData(rng, randomDictionary(rng, K, n), N, L, 0.02)
	var seen []float64
	dict, err := Train(context.Background(), X, Config{K: K, L: L, Iterations: 15, Seed: 1,
		Progress: func(it int, rmse float64) {
			if it != len(seen)+1 {
				t.Errorf("progress called with iteration %d, want %d", it, len(seen)+1)
			}
			seen = append(seen, rmse)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(dict.RMSE) != 15 || len(seen) != 15 {
		t.Fatalf("got %d errors and %d progress calls, want 15", len(dict.RMSE), len(seen))
	}
	for i, e := range dict.RMSE {
		if e != seen[i] {
			t.Errorf("iteration %d: RMSE %v, progress saw %v", i+1, e, seen[i])
		}
		if i > 0 && e > dict.RMSE[i-1]*(1+1e-3) {
			t.Errorf("error rose from %v to %v at iteration %d", dict.RMSE[i-1], e, i+1)
		}
	}
	t.Logf("rmse by iteration: %.4f", dict.RMSE)
	if first, last := dict.RMSE[0], dict.RMSE[14]; !(last < 0.7*first) {
		t.Errorf("error went from %v to %v, want a drop of at least 30 %%", first, last)
	}
}

// TestUpdateKeepsResidualsExact checks the fast atom update against the
// obvious computation: after updateAtoms the residuals it maintains equal
// X − A·D recomputed from the updated codes and atoms, the atoms have unit
// norm, and the error did not rise.
func TestUpdateKeepsResidualsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, K, L, N = 24, 40, 3, 500
	X := plantedData(rng, randomDictionary(rng, K, n), N, L, 0.02)
	s, err := Config{K: K, L: L, MaxCoherence: 2}.check(X)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := newTrainer(X, s)
	if err != nil {
		t.Fatal(err)
	}
	for it := 0; it < 3; it++ {
		if err := tr.code(); err != nil {
			t.Fatal(err)
		}
		rmse := tr.computeResiduals()
		before := rmse * rmse * float64(N*n)
		if want := reconstructionError(X, &tr.codes, tr.dm); math.Abs(before-want) > 1e-9*want {
			t.Fatalf("iteration %d: residual energy %v, direct %v", it, before, want)
		}
		if err := tr.updateAtoms(context.Background()); err != nil {
			t.Fatal(err)
		}
		checkUnitRows(t, tr.dm, 1e-12)
		after := reconstructionError(X, &tr.codes, tr.dm)
		R := mat.NewDense(N, n, tr.r)
		var AD mat.Dense
		AD.Mul(tr.codes.Dense(), tr.dm)
		var diff mat.Dense
		diff.Sub(X, &AD)
		diff.Sub(&diff, R)
		if d := mat.Norm(&diff, math.Inf(1)); d > 1e-10 {
			t.Errorf("iteration %d: maintained residuals differ from X − A·D by %g", it, d)
		}
		if after > before*(1+1e-12) {
			t.Errorf("iteration %d: atom updates raised the error from %v to %v", it, before, after)
		}
	}
}

// TestDeterministic checks that the seed fixes the result and that the
// number of threads does not change it (on the Go backends; OpenBLAS may
// round blocks of different sizes differently).
func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	X := plantedData(rng, randomDictionary(rng, 60, 30), 800, 3, 0.05)
	var native blas.Native
	run := func(seed uint64, threads int) *Dictionary {
		t.Helper()
		d, err := Train(context.Background(), X, Config{K: 40, L: 3, Iterations: 4, Seed: seed, Threads: threads, Backend: native})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a, b, c := run(1, 1), run(1, 2), run(2, 1)
	if !mat.Equal(a.D, b.D) {
		t.Error("1 and 2 threads gave different dictionaries")
	}
	if mat.Equal(a.D, c.D) {
		t.Error("seeds 1 and 2 gave the same dictionary")
	}
}

// TestInitAndReplacement starts from a given dictionary with duplicated and
// useless atoms; they must be replaced and no atom may end up zero.
func TestInitAndReplacement(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n, K, L, N = 16, 20, 2, 400
	X := plantedData(rng, randomDictionary(rng, K, n), N, L, 0.01)
	init := randomDictionary(rng, K, n)
	// Atoms 1 and 2 copy atom 0 (coherent); the caller's scale must not matter.
	for j := 1; j <= 2; j++ {
		init.SetRow(j, init.RawRowView(0))
	}
	init.Scale(3, init)
	keep := mat.DenseCopyOf(init)
	dict, err := Train(context.Background(), X, Config{L: L, Iterations: 5, Init: init, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(init, keep) {
		t.Error("Train modified Config.Init")
	}
	if r, _ := dict.D.Dims(); r != K {
		t.Fatalf("K taken from Init: got %d atoms, want %d", r, K)
	}
	checkUnitRows(t, dict.D, 1e-12)
	if dict.Replaced < 2 {
		t.Errorf("%d atoms replaced, want at least the 2 duplicates", dict.Replaced)
	}
	G := mat.NewDense(K, K, nil)
	G.Mul(dict.D, dict.D.T())
	for i := 0; i < K; i++ {
		for j := i + 1; j < K; j++ {
			if v := math.Abs(G.At(i, j)); v > 0.999 {
				t.Errorf("atoms %d and %d still have |correlation| %v", i, j, v)
			}
		}
	}
}

// TestTolerance checks the early stop and the exact stop on zero error.
func TestTolerance(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X := plantedData(rng, randomDictionary(rng, 30, 20), 600, 3, 0.05)
	d, err := Train(context.Background(), X, Config{K: 30, L: 3, Iterations: 200, Tolerance: 0.05, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	k := len(d.RMSE)
	if k >= 200 || k < 2 {
		t.Fatalf("ran %d iterations with tolerance 5 %%", k)
	}
	if change := math.Abs(d.RMSE[k-2]-d.RMSE[k-1]) / d.RMSE[k-2]; change >= 0.05 {
		t.Errorf("stopped after a relative change of %v", change)
	}
	for i := 1; i < k-1; i++ {
		if change := math.Abs(d.RMSE[i-1]-d.RMSE[i]) / d.RMSE[i-1]; change < 0.05 {
			t.Errorf("did not stop at iteration %d after a relative change of %v", i+1, change)
		}
	}

	// Samples that are the atoms themselves are coded exactly at once.
	D := randomDictionary(rng, 10, 12)
	e, err := Train(context.Background(), D, Config{K: 10, L: 1, Iterations: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.RMSE) != 1 || e.RMSE[0] > 1e-14 {
		t.Errorf("exact data: errors %v, want one iteration with zero error", e.RMSE)
	}
}

func TestTrainStridedAndBackend(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	X := plantedData(rng, randomDictionary(rng, 30, 20), 300, 2, 0.05)
	big := mat.NewDense(300, 27, nil)
	view := big.Slice(0, 300, 3, 23).(*mat.Dense)
	view.Copy(X)
	for _, name := range blas.Available() {
		impl, err := blas.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{K: 25, L: 2, Iterations: 3, Seed: 5, Backend: impl}
		a, err := Train(context.Background(), X, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Train(context.Background(), view, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(a.D, b.D, 1e-12) {
			t.Errorf("%s: a strided view of the samples gave another dictionary", name)
		}
	}
}

func TestTrainErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	X := plantedData(rng, randomDictionary(rng, 10, 8), 50, 2, 0.1)
	nan := mat.DenseCopyOf(X)
	nan.Set(3, 4, math.NaN())
	fewNonZero := mat.NewDense(20, 8, nil)
	fewNonZero.Set(0, 0, 1)
	zeroAtom := randomDictionary(rng, 6, 8)
	zeroAtom.SetRow(2, make([]float64, 8))
	infInit := randomDictionary(rng, 6, 8)
	infInit.Set(1, 1, math.Inf(1))
	ok := Config{K: 6, L: 2}
	with := func(f func(*Config)) Config { c := ok; f(&c); return c }
	cases := []struct {
		name string
		X    *mat.Dense
		cfg  Config
		want error
	}{
		{"nil samples", nil, ok, ErrData},
		{"empty samples", &mat.Dense{}, ok, ErrData},
		{"NaN sample", nan, ok, ErrData},
		{"K zero", X, with(func(c *Config) { c.K = 0 }), ErrConfig},
		{"K negative", X, with(func(c *Config) { c.K = -1 }), ErrConfig},
		{"L zero", X, with(func(c *Config) { c.L = 0 }), ErrConfig},
		{"L above K", X, with(func(c *Config) { c.L = 7 }), ErrConfig},
		{"L above n", X, Config{K: 20, L: 9}, ErrConfig},
		{"negative iterations", X, with(func(c *Config) { c.Iterations = -1 }), ErrConfig},
		{"NaN tolerance", X, with(func(c *Config) { c.Tolerance = math.NaN() }), ErrConfig},
		{"negative tolerance", X, with(func(c *Config) { c.Tolerance = -1 }), ErrConfig},
		{"negative coherence", X, with(func(c *Config) { c.MaxCoherence = -0.5 }), ErrConfig},
		{"negative threads", X, with(func(c *Config) { c.Threads = -2 }), ErrConfig},
		{"too few non-zero samples", fewNonZero, Config{K: 3, L: 1}, ErrData},
		{"K above samples", X, Config{K: 51, L: 2}, ErrData},
		{"init wrong K", X, with(func(c *Config) { c.Init = randomDictionary(rng, 5, 8) }), ErrConfig},
		{"init wrong n", X, with(func(c *Config) { c.Init = randomDictionary(rng, 6, 9) }), ErrConfig},
		{"init zero atom", X, with(func(c *Config) { c.Init = zeroAtom }), ErrConfig},
		{"init not finite", X, with(func(c *Config) { c.Init = infInit }), ErrConfig},
		{"init empty", X, with(func(c *Config) { c.Init = &mat.Dense{} }), ErrConfig},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Train(context.Background(), tc.X, tc.cfg)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got (%v, %v), want an error wrapping %v", d, err, tc.want)
			}
			t.Log(err)
		})
	}
}

func TestTrainCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	X := plantedData(rng, randomDictionary(rng, 10, 8), 50, 2, 0.1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, X, Config{K: 6, L: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: got %v", err)
	}
	labels := make([]int, 50)
	for i := range labels {
		labels[i] = i % 2
	}
	if _, err := PerClass(ctx, X, labels, 2, 3, Config{L: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("PerClass, cancelled context: got %v", err)
	}
}
