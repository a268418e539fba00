package omp

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gramInputs returns G = D Dᵀ, A0 = X Dᵀ and the squared norms of X.
func gramInputs(D, X *mat.Dense) (G, A0 *mat.Dense, xx []float64) {
	G = mat.NewDense(D.RawMatrix().Rows, D.RawMatrix().Rows, nil)
	G.Mul(D, D.T())
	A0 = &mat.Dense{}
	A0.Mul(X, D.T())
	r, _ := X.Dims()
	xx = make([]float64, r)
	for i := range xx {
		v := X.RawRowView(i)
		xx[i] = mat.Dot(mat.NewVecDense(len(v), v), mat.NewVecDense(len(v), v))
	}
	return G, A0, xx
}

// sameCodes checks that two codings chose the same atoms in the same order
// with coefficients equal within tol relative to the largest.
func sameCodes(t *testing.T, got, want *Codes, tol float64) {
	t.Helper()
	if got.Samples != want.Samples || got.Atoms != want.Atoms {
		t.Fatalf("shape %d×%d, want %d×%d", got.Samples, got.Atoms, want.Samples, want.Atoms)
	}
	for i := range want.Samples {
		gi, gv := got.Row(i)
		wi, wv := want.Row(i)
		if !slices.Equal(gi, wi) {
			t.Fatalf("sample %d: atoms %v, want %v", i, gi, wi)
		}
		scale := 0.0
		for _, v := range wv {
			scale = math.Max(scale, math.Abs(v))
		}
		for p := range wv {
			if math.Abs(gv[p]-wv[p]) > tol*scale {
				t.Fatalf("sample %d, atom %d: coefficient %v, want %v", i, wi[p], gv[p], wv[p])
			}
		}
	}
}

// TestEncodeGram: coding from G, A0 and the norms gives the codes of coding
// the samples, for a Coder built by NewGram and for one with a dictionary,
// in sparsity and tolerance mode, on one and several goroutines; the
// inputs are left as they were.
func TestEncodeGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 4))
	const n, k, N = 40, 90, 300
	D := randDict(rng, k, n)
	X := randSamples(rng, N, n, false)
	X.Set(17, 3, 0) // not unit
	X.SetRow(20, make([]float64, n))
	G, A0, xx := gramInputs(D, X)
	A0copy, xxcopy := mat.DenseCopyOf(A0), slices.Clone(xx)
	for _, opts := range [][]Option{
		{WithSparsity(6)},
		{WithSparsity(12), WithThreads(3), WithBlockSize(50)},
		{WithTolerance(0.05), WithThreads(2)},
	} {
		want := mustEncode(t, mustNew(t, D, opts...), X)
		gc, err := NewGram(G, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var got Codes
		if err := gc.EncodeGramTo(&got, A0, xx); err != nil {
			t.Fatal(err)
		}
		sameCodes(t, &got, want, 1e-10)
		if got.Residual != nil {
			t.Error("Gram coding returned residuals")
		}
		dc := mustNew(t, D, opts...)
		if err := dc.EncodeGramTo(&got, A0, xx); err != nil {
			t.Fatal(err)
		}
		sameCodes(t, &got, want, 1e-10)
	}
	if !mat.Equal(A0, A0copy) || !slices.Equal(xx, xxcopy) {
		t.Error("EncodeGramTo modified its inputs")
	}

	// Scaled far from 1: codes scale with the sample.
	const s = 0x1p-500
	small := mat.NewDense(1, n, nil)
	small.Scale(s, X.Slice(0, 1, 0, n))
	_, a0s, xxs := gramInputs(D, small)
	gc, _ := NewGram(G, WithSparsity(6))
	var got Codes
	if err := gc.EncodeGramTo(&got, a0s, xxs); err != nil {
		t.Fatal(err)
	}
	want := mustEncode(t, mustNew(t, D, WithSparsity(6)), X.Slice(0, 1, 0, n).(*mat.Dense))
	for p := range want.Value {
		want.Value[p] *= s
	}
	sameCodes(t, &got, want, 1e-10)

	// SetGram to another dictionary's G.
	D2 := randDict(rng, k, n)
	G2, A02, _ := gramInputs(D2, X)
	if err := gc.SetGram(G2); err != nil {
		t.Fatal(err)
	}
	if err := gc.EncodeGramTo(&got, A02, xx); err != nil {
		t.Fatal(err)
	}
	sameCodes(t, &got, mustEncode(t, mustNew(t, D2, WithSparsity(6)), X), 1e-10)

	// Only the upper triangle is read.
	Gl := mat.DenseCopyOf(G)
	for i := range k {
		for j := range i {
			Gl.Set(i, j, math.NaN())
		}
	}
	if err := gc.SetGram(Gl); err != nil {
		t.Fatalf("lower triangle read: %v", err)
	}
	if err := gc.EncodeGramTo(&got, A0, xx); err != nil {
		t.Fatal(err)
	}
	sameCodes(t, &got, mustEncode(t, mustNew(t, D, WithSparsity(6)), X), 1e-10)
}

func TestGramErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	D := randDict(rng, 12, 8)
	X := randSamples(rng, 4, 8, true)
	G, A0, xx := gramInputs(D, X)
	nan := mat.DenseCopyOf(G)
	nan.Set(2, 9, math.NaN())
	diag := mat.DenseCopyOf(G)
	diag.Set(5, 5, 1.01)
	for _, tc := range []struct {
		name string
		G    *mat.Dense
		opts []Option
		err  error
		msg  string
	}{
		{"nil", nil, nil, ErrEmpty, "empty"},
		{"not square", mat.NewDense(3, 4, nil), nil, ErrShape, "3×4"},
		{"NaN", nan, nil, ErrNonFinite, "(2, 9) is NaN"},
		{"diagonal", diag, nil, ErrNotUnit, "atom 5"},
		{"normalize", G, []Option{WithNormalize()}, ErrOption, "WithNormalize"},
		{"residuals", G, []Option{WithResiduals()}, ErrOption, "WithResiduals"},
		{"L > K", G, []Option{WithSparsity(13)}, ErrOption, "sparsity 13"},
	} {
		c, err := NewGram(tc.G, tc.opts...)
		if c != nil || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: NewGram: %v; want %v containing %q", tc.name, err, tc.err, tc.msg)
		}
	}

	gc, err := NewGram(G, WithSparsity(3))
	if err != nil {
		t.Fatal(err)
	}
	if gc.Sparsity() != 3 || gc.Atoms() != 12 || gc.Dim() != 0 {
		t.Errorf("sparsity %d atoms %d dim %d", gc.Sparsity(), gc.Atoms(), gc.Dim())
	}
	var c Codes
	if _, err := gc.Encode(X); !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "EncodeGramTo") {
		t.Errorf("Encode on a Gram coder: %v", err)
	}
	if err := gc.SetDictionary(D); !errors.Is(err, ErrShape) {
		t.Errorf("SetDictionary on a Gram coder: %v", err)
	}
	if err := mustNew(t, D).SetGram(G); err == nil {
		t.Error("SetGram on a dictionary coder: no error")
	}
	if err := gc.SetGram(diag); !errors.Is(err, ErrNotUnit) {
		t.Errorf("SetGram(bad diagonal): %v", err)
	}
	if err := gc.SetGram(mat.NewDense(11, 11, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("SetGram(wrong shape): %v", err)
	}
	// The failed SetGram calls kept G.
	if err := gc.EncodeGramTo(&c, A0, xx); err != nil {
		t.Fatal(err)
	}
	sameCodes(t, &c, mustEncode(t, mustNew(t, D, WithSparsity(3)), X), 1e-10)

	badA := mat.DenseCopyOf(A0)
	badA.Set(2, 7, math.Inf(1))
	for _, tc := range []struct {
		name string
		A0   *mat.Dense
		xx   []float64
		err  error
		msg  string
	}{
		{"columns", mat.NewDense(4, 11, nil), xx, ErrShape, "11 columns"},
		{"norms", A0, xx[:3], ErrShape, "3 squared norms for 4 samples"},
		{"Inf correlation", badA, xx, ErrNonFinite, "sample 2 (row 2 of A0), correlation 7 is +Inf"},
		{"NaN norm", A0, []float64{1, 1, math.NaN(), 1}, ErrNonFinite, "sample 2: squared norm is NaN"},
		{"negative norm", A0, []float64{1, -1, 1, 1}, ErrShape, "sample 1: squared norm -1 is negative"},
	} {
		if err := gc.EncodeGramTo(&c, tc.A0, tc.xx); !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v; want %v containing %q", tc.name, err, tc.err, tc.msg)
		}
	}
	if err := gc.EncodeGramTo(&c, nil, nil); err != nil || c.Samples != 0 {
		t.Errorf("empty: %v, %d samples", err, c.Samples)
	}
}

// TestFillGram: a Gram matrix written in place by FillGram (upper triangle
// only, the lower left as garbage) codes as SetGram's copy does, on one and
// several goroutines and with more rows than one band; a bad matrix is
// refused by name and leaves the coder without a matrix until a good one
// is set.
func TestFillGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	const n, k, N = 60, 150, 200
	D := randDict(rng, k, n)
	X := randSamples(rng, N, n, true)
	G, A0, xx := gramInputs(D, X)
	D2 := randDict(rng, k, n)
	G2, A02, _ := gramInputs(D2, X)
	upper := func(src *mat.Dense) func(g []float64) {
		return func(g []float64) {
			for i := range k {
				for j := range k {
					if j >= i {
						g[i*k+j] = src.At(i, j)
					} else {
						g[i*k+j] = math.NaN()
					}
				}
			}
		}
	}
	for _, threads := range []int{1, 3} {
		gc, err := NewGram(G, WithSparsity(5), WithThreads(threads))
		if err != nil {
			t.Fatal(err)
		}
		if err := gc.FillGram(upper(G2)); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(gc.Gram(), G2) {
			t.Fatalf("threads %d: the filled matrix is not G2 mirrored", threads)
		}
		var got Codes
		if err := gc.EncodeGramTo(&got, A02, xx); err != nil {
			t.Fatal(err)
		}
		sameCodes(t, &got, mustEncode(t, mustNew(t, D2, WithSparsity(5)), X), 1e-10)

		bad := mat.DenseCopyOf(G)
		bad.Set(70, 131, math.Inf(-1))
		if err := gc.FillGram(upper(bad)); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "(70, 131) is -Inf") {
			t.Errorf("threads %d: FillGram(Inf): %v", threads, err)
		}
		if err := gc.EncodeGramTo(&got, A0, xx); err == nil {
			t.Errorf("threads %d: EncodeGramTo after a failed FillGram: no error", threads)
		}
		bad = mat.DenseCopyOf(G)
		bad.Set(140, 140, 0.9)
		if err := gc.FillGram(upper(bad)); !errors.Is(err, ErrNotUnit) || !strings.Contains(err.Error(), "atom 140") {
			t.Errorf("threads %d: FillGram(bad diagonal): %v", threads, err)
		}
		if err := gc.SetGram(G); err != nil {
			t.Fatal(err)
		}
		if err := gc.EncodeGramTo(&got, A0, xx); err != nil {
			t.Fatal(err)
		}
		sameCodes(t, &got, mustEncode(t, mustNew(t, D, WithSparsity(5)), X), 1e-10)
	}
	if err := mustNew(t, D).FillGram(upper(G)); err == nil {
		t.Error("FillGram on a dictionary coder: no error")
	}

	// NewGramFill: the same coder as NewGram, built on the matrix fill
	// writes; the same refusals.
	for _, threads := range []int{1, 3} {
		gc, err := NewGramFill(k, upper(G2), WithSparsity(5), WithThreads(threads))
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(gc.Gram(), G2) {
			t.Fatalf("threads %d: NewGramFill's matrix is not G2 mirrored", threads)
		}
		var got Codes
		if err := gc.EncodeGramTo(&got, A02, xx); err != nil {
			t.Fatal(err)
		}
		sameCodes(t, &got, mustEncode(t, mustNew(t, D2, WithSparsity(5)), X), 1e-10)
	}
	bad := mat.DenseCopyOf(G)
	bad.Set(140, 140, 0.9)
	if _, err := NewGramFill(k, upper(bad)); !errors.Is(err, ErrNotUnit) || !strings.Contains(err.Error(), "atom 140") {
		t.Errorf("NewGramFill(bad diagonal): %v", err)
	}
	if _, err := NewGramFill(0, upper(G)); !errors.Is(err, ErrEmpty) {
		t.Errorf("NewGramFill(0): %v", err)
	}
	if _, err := NewGramFill(k, upper(G), WithSparsity(k+1)); !errors.Is(err, ErrOption) {
		t.Errorf("NewGramFill, sparsity > K: %v", err)
	}
}

// TestTransposeT checks the transpose of both precisions against its
// definition at every small shape (the float32 form takes eight rows at a
// time, then one), with strides wider than the rows and the values around
// the output left alone.
func TestTransposeT(t *testing.T) {
	for m := 0; m <= 19; m++ {
		for _, n := range []int{0, 1, 3, 8, 17} {
			checkTranspose[float32](t, m, n)
			checkTranspose[float64](t, m, n)
		}
	}
}

func checkTranspose[T Float](t *testing.T, m, n int) {
	t.Helper()
	lda, ldb := n+3, m+2
	a := make([]T, m*lda)
	for i := range a {
		a[i] = T(i + 1)
	}
	b := make([]T, max(1, n)*ldb)
	for i := range b {
		b[i] = -1
	}
	transposeT(m, n, a, lda, b, ldb)
	for j := range max(1, n) {
		for i := range ldb {
			want := T(-1)
			if j < n && i < m {
				want = a[i*lda+j]
			}
			if got := b[j*ldb+i]; got != want {
				t.Fatalf("%T %d×%d: b[%d, %d] = %v, want %v", a, m, n, j, i, got, want)
			}
		}
	}
}
