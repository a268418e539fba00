package omp_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/omp"
)

// oracleDict returns k random atoms of dimension n (Gaussian directions),
// of unit norm when unit is set and of norms in [0.5, 2.5) otherwise.
func oracleDict(rng *rand.Rand, k, n int, unit bool) *mat.Dense {
	D := mat.NewDense(k, n, nil)
	for j := range k {
		row := D.RawRowView(j)
		var s float64
		for i := range row {
			row[i] = rng.NormFloat64()
			s += row[i] * row[i]
		}
		s = math.Sqrt(s)
		if !unit {
			s /= 0.5 + 2*rng.Float64()
		}
		for i := range row {
			row[i] /= s
		}
	}
	return D
}

// oracleSamples returns N samples of dimension n, each a combination of a
// few atoms of D plus noise, of norms spread over many scales: most near
// 1, some far enough from it (1e±70, beyond 2^±200) that the coders scale
// them, and a zero sample.
func oracleSamples(rng *rand.Rand, D *mat.Dense, N int) *mat.Dense {
	k, n := D.Dims()
	X := mat.NewDense(N, n, nil)
	for i := range N {
		row := X.RawRowView(i)
		for t := range row {
			row[t] = 0.2 * rng.NormFloat64() / math.Sqrt(float64(n))
		}
		for range 1 + rng.IntN(6) {
			w := rng.NormFloat64()
			d := D.RawRowView(rng.IntN(k))
			for t := range row {
				row[t] += w * d[t]
			}
		}
		s := 0.3 + 3*rng.Float64()
		switch i % 37 {
		case 5:
			s = 1e-70
		case 11:
			s = 1e70
		case 17:
			s = 0
		}
		for t := range row {
			row[t] *= s
		}
	}
	return X
}

// sameBits fails unless got and want are the same codes bit for bit:
// shapes, atoms, coefficients and residual norms.
func sameBits(t *testing.T, what string, got, want *omp.Codes) {
	t.Helper()
	if got.Samples != want.Samples || got.Atoms != want.Atoms {
		t.Fatalf("%s: %d×%d codes, the float64 oracle's are %d×%d", what, got.Samples, got.Atoms, want.Samples, want.Atoms)
	}
	if len(got.Index) != len(want.Index) || len(got.Value) != len(want.Value) {
		t.Fatalf("%s: %d/%d entries, the oracle's %d/%d", what, len(got.Index), len(got.Value), len(want.Index), len(want.Value))
	}
	for i := range want.Samples + 1 {
		if got.Indptr[i] != want.Indptr[i] {
			t.Fatalf("%s: Indptr[%d] = %d, the oracle's %d", what, i, got.Indptr[i], want.Indptr[i])
		}
	}
	for e := range want.Index {
		if got.Index[e] != want.Index[e] || math.Float64bits(got.Value[e]) != math.Float64bits(want.Value[e]) {
			t.Fatalf("%s: entry %d is atom %d = %.17g, the oracle's atom %d = %.17g",
				what, e, got.Index[e], got.Value[e], want.Index[e], want.Value[e])
		}
	}
	if (got.Residual == nil) != (want.Residual == nil) || len(got.Residual) != len(want.Residual) {
		t.Fatalf("%s: %d residuals, the oracle's %d", what, len(got.Residual), len(want.Residual))
	}
	for i := range want.Residual {
		if math.Float64bits(got.Residual[i]) != math.Float64bits(want.Residual[i]) {
			t.Fatalf("%s: residual %d is %.17g, the oracle's %.17g", what, i, got.Residual[i], want.Residual[i])
		}
	}
}

// sameMatrix fails unless got and want hold the same bits.
func sameMatrix(t *testing.T, what string, got, want mat.Matrix) {
	t.Helper()
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: %d×%d, the oracle's %d×%d", what, gr, gc, r, c)
	}
	for i := range r {
		for j := range c {
			if g, w := got.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("%s: entry (%d, %d) is %.17g, the oracle's %.17g", what, i, j, g, w)
			}
		}
	}
}

// TestFloat64Unchanged holds the float64 coder to the coder as it was
// before it became generic (oracle64_test.go), bit for bit: the same
// atoms and coefficients, residual norms, Gram matrices and correlations,
// on every backend, on 1, 2 and 3 goroutines, with and without the
// options that take other paths (tolerance, normalisation, residuals, the
// GEMV update for L >= 6, the short pursuits of codeShort for L <= 2,
// dictionaries small enough to be coded in chunks and one that is not,
// samples that are scaled), from samples, from
// correlations, and after SetDictionary.
func TestFloat64Unchanged(t *testing.T) {
	type problem struct {
		n, k, l   int
		tol       float64
		unit      bool // unit atoms; otherwise WithNormalize
		residuals bool
	}
	problems := []problem{
		{n: 20, k: 50, l: 5, unit: true},
		{n: 16, k: 16, l: 16, unit: true, residuals: true},
		{n: 40, k: 24, l: 12, residuals: true},
		{n: 30, k: 90, l: 10, tol: 0.05, unit: true},
		{n: 25, k: 60, tol: 1e-3, unit: true},
		{n: 64, k: 300, l: 8, unit: true},       // GEMV update
		{n: 784, k: 960, l: 5, unit: true},      // MNIST's shape: not chunked
		{n: 100, k: 700, l: 6, residuals: true}, // GEMV update beyond gemvMaxK
		{n: 256, k: 960, l: 5, tol: 1e-2, unit: true},
		{n: 36, k: 64, l: 2, unit: true}, // the patch front end's shape: codeShort
		{n: 36, k: 64, l: 1, unit: true},
		{n: 36, k: 64, l: 2},
	}
	N := 300
	if testing.Short() {
		N = 120
	}
	for pi, p := range problems {
		rng := rand.New(rand.NewPCG(uint64(pi)+1, 64))
		D := oracleDict(rng, p.k, p.n, p.unit)
		D2 := oracleDict(rng, p.k, p.n, p.unit)
		X := oracleSamples(rng, D, N)
		var opts []omp.Option
		var oldOpts []Option
		if p.l > 0 {
			opts, oldOpts = append(opts, omp.WithSparsity(p.l)), append(oldOpts, WithSparsity(p.l))
		}
		if p.tol > 0 {
			opts, oldOpts = append(opts, omp.WithTolerance(p.tol)), append(oldOpts, WithTolerance(p.tol))
		}
		if !p.unit {
			opts, oldOpts = append(opts, omp.WithNormalize()), append(oldOpts, WithNormalize())
		}
		if p.residuals {
			opts, oldOpts = append(opts, omp.WithResiduals()), append(oldOpts, WithResiduals())
		}
		for _, name := range blas.Available() {
			impl, err := blas.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, th := range []int{1, 2, 3} {
				for _, block := range []int{16, 0} {
					t.Run(fmt.Sprintf("n=%d,K=%d,L=%d/%s/threads=%d/block=%d", p.n, p.k, p.l, name, th, block), func(t *testing.T) {
						oracleCase(t, impl, th, block, D, D2, X, opts, oldOpts)
					})
					if testing.Short() {
						break
					}
				}
			}
		}
	}
}

// oracleCase runs one case of TestFloat64Unchanged.
func oracleCase(t *testing.T, impl gblas.Float64, threads, block int, D, D2, X *mat.Dense, opts []omp.Option, oldOpts []Option) {
	opts = append(opts[:len(opts):len(opts)], omp.WithBackend(impl), omp.WithThreads(threads))
	oldOpts = append(oldOpts[:len(oldOpts):len(oldOpts)], WithBackend(impl), WithThreads(threads))
	if block > 0 {
		opts, oldOpts = append(opts, omp.WithBlockSize(block)), append(oldOpts, WithBlockSize(block))
	}
	c, err := omp.New(D, opts...)
	if err != nil {
		t.Fatal(err)
	}
	old, err := New(D, oldOpts...)
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, "Gram", c.Gram(), old.Gram())
	if c.Sparsity() != old.Sparsity() {
		t.Fatalf("Sparsity() = %d, the oracle's %d", c.Sparsity(), old.Sparsity())
	}

	var got, want omp.Codes
	var wantOld Codes
	encode := func(what string) {
		t.Helper()
		if err := c.EncodeTo(&got, X); err != nil {
			t.Fatal(err)
		}
		if err := old.EncodeTo(&wantOld, X); err != nil {
			t.Fatal(err)
		}
		want = omp.Codes(wantOld)
		sameBits(t, what, &got, &want)
	}
	encode("EncodeTo")
	encode("EncodeTo again") // into reused Codes

	// From correlations: those of CorrelationsTo, on both coders.
	N, _ := X.Dims()
	k := c.Atoms()
	A0, A0old := mat.NewDense(N, k, nil), mat.NewDense(N, k, nil)
	if err := c.CorrelationsTo(A0, X); err != nil {
		t.Fatal(err)
	}
	if err := old.CorrelationsTo(A0old, X); err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, "CorrelationsTo", A0, A0old)
	xx := make([]float64, N)
	for i := range N {
		xx[i] = mat.Dot(X.RowView(i), X.RowView(i))
	}
	if err := c.EncodeGramTo(&got, A0, xx); err != nil {
		t.Fatal(err)
	}
	if err := old.EncodeGramTo(&wantOld, A0, xx); err != nil {
		t.Fatal(err)
	}
	want = omp.Codes(wantOld)
	sameBits(t, "EncodeGramTo", &got, &want)

	// A coder of the Gram matrix alone (its options without the atoms').
	var gOpts []omp.Option
	var gOld []Option
	gOpts = append(gOpts, omp.WithSparsity(c.Sparsity()), omp.WithThreads(threads))
	gOld = append(gOld, WithSparsity(c.Sparsity()), WithThreads(threads))
	if block > 0 {
		gOpts, gOld = append(gOpts, omp.WithBlockSize(block)), append(gOld, WithBlockSize(block))
	}
	gc, err := omp.NewGram(c.Gram(), gOpts...)
	if err != nil {
		t.Fatal(err)
	}
	gOldC, err := NewGram(old.Gram(), gOld...)
	if err != nil {
		t.Fatal(err)
	}
	if err := gc.EncodeGramTo(&got, A0, xx); err != nil {
		t.Fatal(err)
	}
	if err := gOldC.EncodeGramTo(&wantOld, A0, xx); err != nil {
		t.Fatal(err)
	}
	want = omp.Codes(wantOld)
	sameBits(t, "NewGram, EncodeGramTo", &got, &want)

	// Another dictionary in the same coders.
	if err := c.SetDictionary(D2); err != nil {
		t.Fatal(err)
	}
	if err := old.SetDictionary(D2); err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, "Gram after SetDictionary", c.Gram(), old.Gram())
	encode("EncodeTo after SetDictionary")
}
