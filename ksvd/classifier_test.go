package ksvd

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/omp"
)

// randomCodes returns N random sparse codes on K atoms with up to L entries.
func randomCodes(rng *rand.Rand, N, K, L int) *omp.Codes {
	c := &omp.Codes{Samples: N, Atoms: K, Indptr: make([]int, N+1)}
	for i := 0; i < N; i++ {
		l := 1 + rng.IntN(L)
		for _, j := range rng.Perm(K)[:l] {
			c.Index = append(c.Index, j)
			c.Value = append(c.Value, rng.NormFloat64())
		}
		c.Indptr[i+1] = len(c.Index)
	}
	return c
}

// TestRidgeNormalEquations checks W against the normal equations
// (A Aᵀ + λI) W = A Yᵀ formed densely.
func TestRidgeNormalEquations(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, tc := range []struct {
		N, K, L, q int
		lambda     float64
	}{
		{200, 30, 4, 5, 0.1},
		{50, 64, 3, 3, 1},
		{500, 20, 5, 10, 0}, // every atom used: A Aᵀ is positive definite
		{1, 5, 2, 1, 2},
	} {
		A := randomCodes(rng, tc.N, tc.K, tc.L)
		labels := make([]int, tc.N)
		for i := range labels {
			labels[i] = rng.IntN(tc.q)
		}
		W, err := Ridge(A, labels, tc.q, tc.lambda)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if r, c := W.Dims(); r != tc.K || c != tc.q {
			t.Fatalf("%+v: W is %d×%d", tc, r, c)
		}
		Ad := A.Dense() // N×K
		Y := mat.NewDense(tc.N, tc.q, nil)
		for i, y := range labels {
			Y.Set(i, y, 1)
		}
		var M, B, lhs mat.Dense
		M.Mul(Ad.T(), Ad)
		for j := 0; j < tc.K; j++ {
			M.Set(j, j, M.At(j, j)+tc.lambda)
		}
		B.Mul(Ad.T(), Y)
		lhs.Mul(&M, W)
		lhs.Sub(&lhs, &B)
		res := mat.Norm(&lhs, math.Inf(1))
		scale := mat.Norm(&M, math.Inf(1))*mat.Norm(W, math.Inf(1)) + mat.Norm(&B, math.Inf(1))
		if res > 1e-10*scale {
			t.Errorf("%+v: normal-equation residual %g (scale %g)", tc, res, scale)
		}
	}
}

func TestRidgeErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	A := randomCodes(rng, 10, 6, 2)
	labels := make([]int, 10)
	bad := append([]int(nil), labels...)
	bad[4] = 3
	neg := append([]int(nil), labels...)
	neg[2] = -1
	nanCodes := randomCodes(rng, 10, 6, 2)
	nanCodes.Value[0] = math.NaN()
	badIndex := randomCodes(rng, 10, 6, 2)
	badIndex.Index[1] = 6
	unused := &omp.Codes{Samples: 2, Atoms: 3, Indptr: []int{0, 1, 2}, Index: []int{0, 1}, Value: []float64{1, 2}}
	cases := []struct {
		name    string
		A       *omp.Codes
		labels  []int
		classes int
		lambda  float64
		want    error
	}{
		{"nil codes", nil, labels, 2, 1, ErrData},
		{"label count", A, labels[:9], 2, 1, ErrData},
		{"label too large", A, bad, 2, 1, ErrData},
		{"label negative", A, neg, 2, 1, ErrData},
		{"no classes", A, labels, 0, 1, ErrConfig},
		{"negative lambda", A, labels, 2, -1, ErrConfig},
		{"NaN lambda", A, labels, 2, math.NaN(), ErrConfig},
		{"NaN coefficient", nanCodes, labels, 2, 1, ErrData},
		{"atom out of range", badIndex, labels, 2, 1, ErrData},
		{"singular", unused, []int{0, 1}, 2, 0, ErrNumeric},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Ridge(tc.A, tc.labels, tc.classes, tc.lambda)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want an error wrapping %v", err, tc.want)
			}
			t.Log(err)
		})
	}
}

func TestPerClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	const classes, per, dim, n, apc = 4, 60, 5, 24, 6
	X, labels := subspaceData(rng, classes, per, dim, n)
	var first *mat.Dense
	for _, threads := range []int{1, 3} {
		calls := 0 // counted without a lock: PerClass serialises the calls
		progress := func(int, float64) { calls++ }
		D, err := PerClass(context.Background(), X, labels, classes, apc, Config{L: 2, Iterations: 5, Seed: 1, Threads: threads, Progress: progress})
		if err != nil {
			t.Fatal(err)
		}
		if calls != classes*5 {
			t.Errorf("threads %d: %d progress calls, want %d", threads, calls, classes*5)
		}
		if first == nil {
			first = D
		} else if !mat.Equal(first, D) {
			t.Errorf("threads %d: another dictionary than with 1 thread", threads)
		}
		if r, c := D.Dims(); r != classes*apc || c != n {
			t.Fatalf("D is %d×%d", r, c)
		}
		checkUnitRows(t, D, 1e-12)
		// Class c's atoms lie in class c's coordinates.
		for j := 0; j < classes*apc; j++ {
			c := j / apc
			row := D.RawRowView(j)
			for k, v := range row {
				if (k < c*dim || k >= (c+1)*dim) && math.Abs(v) > 1e-12 {
					t.Fatalf("threads %d: atom %d of class %d has weight %v on coordinate %d", threads, j, c, v, k)
				}
			}
		}
	}
}

func TestPerClassErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	X, labels := subspaceData(rng, 3, 10, 3, 12)
	bad := append([]int(nil), labels...)
	bad[0] = 3
	few := append([]int(nil), labels...)
	for i := range few {
		if few[i] == 2 {
			few[i] = 1
		}
	}
	few[0] = 2 // class 2 has one sample
	ok := Config{L: 2}
	cases := []struct {
		name    string
		X       *mat.Dense
		labels  []int
		classes int
		apc     int
		cfg     Config
		want    error
	}{
		{"nil", nil, labels, 3, 4, ok, ErrData},
		{"label count", X, labels[:5], 3, 4, ok, ErrData},
		{"label range", X, bad, 3, 4, ok, ErrData},
		{"no classes", X, labels, 0, 4, ok, ErrConfig},
		{"no atoms", X, labels, 3, 0, ok, ErrConfig},
		{"too few in a class", X, few, 3, 4, ok, ErrData},
		{"init set", X, labels, 3, 4, Config{L: 2, Init: randomDictionary(rng, 4, 12)}, ErrConfig},
		{"L zero", X, labels, 3, 4, Config{}, ErrConfig},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PerClass(context.Background(), tc.X, tc.labels, tc.classes, tc.apc, tc.cfg)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want an error wrapping %v", err, tc.want)
			}
			t.Log(err)
		})
	}
}

// TestClassifierSeparable: classes living on disjoint coordinate subspaces
// must be classified perfectly by ksvd-linear and by D-KSVD.
func TestClassifierSeparable(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	const classes, dim, n = 5, 4, 32
	Xtr, ytr := subspaceData(rng, classes, 80, dim, n)
	Xte, yte := subspaceData(rng, classes, 40, dim, n)
	for _, disc := range []bool{false, true} {
		c := &Classifier{AtomsPerClass: 6, Config: Config{L: 3, Iterations: 6, Seed: 2}, Discriminative: disc}
		if err := c.Fit(context.Background(), Xtr, ytr, classes); err != nil {
			t.Fatal(err)
		}
		checkUnitRows(t, c.D, 1e-9)
		if r, q := c.W.Dims(); r != classes*6 || q != classes {
			t.Fatalf("W is %d×%d", r, q)
		}
		for _, set := range []struct {
			name string
			X    *mat.Dense
			y    []int
		}{{"train", Xtr, ytr}, {"test", Xte, yte}} {
			rate, err := c.ErrorRate(set.X, set.y)
			if err != nil {
				t.Fatal(err)
			}
			if rate != 0 {
				t.Errorf("discriminative=%v: %s error rate %v, want 0", disc, set.name, rate)
			}
		}
		S, err := c.Scores(Xte)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := c.Predict(Xte)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range pred {
			row := S.RawRowView(i)
			for k, v := range row {
				if v > row[p] {
					t.Fatalf("sample %d: predicted %d with score %v, class %d scores %v", i, p, row[p], k, v)
				}
			}
		}
	}
}

// TestDKSVDRenormalisation checks the last step of D-KSVD: dividing D and W
// by the norms of D's atoms makes D unit-norm and leaves the scores, hence
// the predictions, unchanged. The scores before the division are computed by
// a reference OMP that codes on the raw (not unit-norm) atoms.
func TestDKSVDRenormalisation(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const classes, dim, n, apc, L = 3, 6, 20, 5, 3
	X, labels := subspaceData(rng, classes, 50, dim, n)
	// Noise across the subspaces makes the problem less trivial.
	for i := 0; i < 150; i++ {
		row := X.RawRowView(i)
		for k := range row {
			row[k] += 0.2 * rng.NormFloat64()
		}
		normalize(row)
	}
	D0, err := PerClass(context.Background(), X, labels, classes, apc, Config{L: L, Iterations: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	c0 := &Classifier{Config: Config{L: L}}
	if err := c0.FitLinear(D0, X, labels, classes); err != nil {
		t.Fatal(err)
	}
	const gamma = 2.0
	sg := math.Sqrt(gamma)
	dict, err := Train(context.Background(), stackSamples(X, labels, classes, sg), Config{L: L, Iterations: 5, Init: stackAtoms(D0, c0.W, sg), Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	S := dict.D
	checkUnitRows(t, S, 1e-12)
	D, W := splitStacked(S, n, sg, D0)
	checkUnitRows(t, D, 1e-12)
	c := &Classifier{Config: Config{L: L}, D: D, W: W}
	after, err := c.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	predAfter, err := c.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	Draw := S.Slice(0, apc*classes, 0, n).(*mat.Dense)
	Wraw := S.Slice(0, apc*classes, n, n+classes).(*mat.Dense)
	stretched := 0
	for j := 0; j < apc*classes; j++ {
		if nrm := mat.Norm(Draw.RowView(j), 2); nrm < 0.99 {
			stretched++
		}
	}
	if stretched == 0 {
		t.Fatal("no atom has a D part shorter than 1; the test would not test the division")
	}
	for i := 0; i < 150; i++ {
		idx, coef := referenceOMP(Draw, X.RawRowView(i), L)
		before := make([]float64, classes)
		for p, j := range idx {
			for k := range before {
				before[k] += coef[p] * Wraw.At(j, k) / sg
			}
		}
		best := 0
		for k, v := range before {
			if math.Abs(v-after.At(i, k)) > 1e-8 {
				t.Fatalf("sample %d class %d: score %v before the division, %v after", i, k, v, after.At(i, k))
			}
			if v > before[best] {
				best = k
			}
		}
		if best != predAfter[i] {
			t.Errorf("sample %d: predicted %d before the division, %d after", i, best, predAfter[i])
		}
	}
}

func TestClassifierErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	X, labels := subspaceData(rng, 2, 20, 3, 10)
	var empty Classifier
	if _, err := empty.Predict(X); !errors.Is(err, ErrNotFitted) {
		t.Errorf("unfitted Predict: got %v", err)
	}
	for _, c := range []*Classifier{
		{AtomsPerClass: 3, Config: Config{L: 2}, Lambda: -1},
		{AtomsPerClass: 3, Config: Config{L: 2}, Gamma: math.Inf(1)},
		{AtomsPerClass: 3, Config: Config{L: 2}, DiscriminativeIterations: -1},
		{AtomsPerClass: 0, Config: Config{L: 2}},
		{AtomsPerClass: 3, Config: Config{L: 7}},  // L > K
		{AtomsPerClass: 9, Config: Config{L: 11}}, // L > n
	} {
		if err := c.Fit(context.Background(), X, labels, 2); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: got %v, want ErrConfig", c, err)
		}
	}
	// L above the atoms of one class is fine: the classes' own runs use fewer.
	c := &Classifier{AtomsPerClass: 3, Config: Config{L: 4, Iterations: 2}}
	if err := c.Fit(context.Background(), X, labels, 2); err != nil {
		t.Fatal(err)
	}
	wide := mat.NewDense(3, 11, nil)
	if _, err := c.Predict(wide); !errors.Is(err, ErrData) {
		t.Errorf("wrong dimension: got %v", err)
	}
	nan := mat.DenseCopyOf(X)
	nan.Set(1, 1, math.NaN())
	if _, err := c.Scores(nan); !errors.Is(err, ErrData) {
		t.Errorf("NaN sample: got %v", err)
	}
	if _, err := c.ErrorRate(X, labels[:3]); !errors.Is(err, ErrData) {
		t.Errorf("label count: got %v", err)
	}
	if err := (&Classifier{Config: Config{L: 9}}).FitLinear(c.D, X, labels, 2); !errors.Is(err, ErrConfig) {
		t.Errorf("FitLinear with L > K: got %v", err)
	}
	if err := (&Classifier{Config: Config{L: 2}}).FitLinear(c.D, wide, labels, 2); !errors.Is(err, ErrData) {
		t.Errorf("FitLinear with wrong dimension: got %v", err)
	}
}
