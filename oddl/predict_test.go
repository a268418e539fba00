package oddl

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/omp"
)

// classData draws q classes of samples, each a combination of l atoms of
// its class's own k/q random unit atoms, plus noise.
func classData(rng *rand.Rand, k, n, l, q, samples int, noise float64) (X *mat.Dense, labels []int) {
	D, _, _ := planted(rng, k, n, 1, q, 1, 0)
	per := k / q
	X = mat.NewDense(samples, n, nil)
	labels = make([]int, samples)
	for s := range samples {
		c := rng.IntN(q)
		labels[s] = c
		x := X.RawRowView(s)
		for _, a := range rng.Perm(per)[:l] {
			axpy(1+rng.Float64(), D.RawRowView(c*per+a), x)
		}
		for i := range x {
			x[i] += noise * rng.NormFloat64()
		}
	}
	return X, labels
}

// classModel trains smallConfig(k, l), changed by set, on samples drawn
// by classData from PCG(seed, 3) in 4 classes.
func classModel(t *testing.T, seed uint64, k, n, l, samples int, noise float64, set func(*Config)) *Model {
	t.Helper()
	X, labels := classData(rand.New(rand.NewPCG(seed, 3)), k, n, l, 4, samples, noise)
	cfg := smallConfig(k, l)
	if set != nil {
		set(&cfg)
	}
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// wantScores computes the scores of Config.ResidualWeight the slow way:
// codes on all of D with a fresh coder, W·a with the prediction
// classifier, and for every class a coder on that class's atoms alone with
// explicit residuals.
func wantScores(t *testing.T, m *Model, X *mat.Dense) *mat.Dense {
	t.Helper()
	D, W, Wt := m.Dictionary(), m.PredictionClassifier(), m.Classifier()
	k, n := D.Dims()
	q := m.Classes()
	beta := m.Config().ResidualWeight
	c, err := omp.New(D, omp.WithSparsity(m.Config().L))
	if err != nil {
		t.Fatal(err)
	}
	codes, err := c.Encode(X)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := X.Dims()
	S := mat.NewDense(r, q, nil)
	for i := range r {
		idx, val := codes.Row(i)
		for t, j := range idx {
			for cl := range q {
				S.Set(i, cl, S.At(i, cl)+val[t]*W.At(cl, j))
			}
		}
	}
	for cl := range q {
		var rows []int
		for j := range k {
			best, bv := -1, 0.0
			for c2 := range q {
				if v := Wt.At(c2, j); v > bv {
					best, bv = c2, v
				}
			}
			if best == cl {
				rows = append(rows, j)
			}
		}
		res := make([]float64, r)
		if len(rows) == 0 {
			for i := range r {
				res[i] = mat.Norm(X.RowView(i), 2)
			}
		} else {
			Dc := mat.NewDense(len(rows), n, nil)
			for p, j := range rows {
				Dc.SetRow(p, D.RawRowView(j))
			}
			cc, err := omp.New(Dc, omp.WithSparsity(min(m.Config().L, len(rows))), omp.WithResiduals())
			if err != nil {
				t.Fatal(err)
			}
			co, err := cc.Encode(X)
			if err != nil {
				t.Fatal(err)
			}
			res = co.Residual
		}
		for i := range r {
			S.Set(i, cl, S.At(i, cl)-beta*res[i]*res[i])
		}
	}
	return S
}

// The scores with a residual weight are W·a minus β times each class's
// squared residual, a class without atoms counting the whole sample; the
// weight 0 gives W·a alone. Checked against a slow computation, also with
// more samples than scores codes at a time.
func TestResidualScores(t *testing.T) {
	m := classModel(t, 11, 24, 16, 2, 600, 0.05, nil)
	if m.Config().ResidualWeight == 0 {
		t.Fatal("default residual weight is 0")
	}
	Xt, _ := classData(rand.New(rand.NewPCG(11, 3)), 24, 16, 2, 4, scoreRows+37, 0.05)
	check := func(what string) {
		t.Helper()
		got, err := m.Scores(Xt)
		if err != nil {
			t.Fatal(err)
		}
		want := wantScores(t, m, Xt)
		if !mat.EqualApprox(got, want, 1e-9) {
			r, _ := got.Dims()
			for i := range r {
				if !mat.EqualApprox(got.RowView(i), want.RowView(i), 1e-9) {
					t.Fatalf("%s: sample %d: scores %v, want %v", what, i, mat.Formatted(got.RowView(i).T()), mat.Formatted(want.RowView(i).T()))
				}
			}
		}
	}
	check("trained model")

	// Class 1 loses its atoms (no positive classifier entry): its residual
	// is the whole sample. An atom with a zero column belongs to no class.
	n, s := m.st.n, m.st.stride()
	for j := range m.st.k {
		w := m.st.dt[j*s+n : (j+1)*s]
		if argmax(w) == 1 {
			for c := range w {
				w[c] = -math.Abs(w[c]) - 0.01
			}
		}
	}
	clear(m.st.dt[3*s+n : 4*s])
	m.invalidate()
	check("class without atoms")

	if err := m.SetResidualWeight(0); err != nil {
		t.Fatal(err)
	}
	check("weight 0")
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if err := m.SetResidualWeight(bad); !errors.Is(err, ErrConfig) {
			t.Errorf("residual weight %v: %v", bad, err)
		}
	}
	if m.Config().ResidualWeight != 0 {
		t.Fatal("a rejected weight changed the model")
	}
}

// On classes that are unions of their own subspaces the residuals decide
// better than the linear scores alone: with the default weight the error on
// fresh samples is lower than with weight 0.
func TestResidualScoresHelp(t *testing.T) {
	m := classModel(t, 5, 40, 20, 3, 2000, 0.3, func(c *Config) { c.InitSamples = 1000 })
	// The same generator, seeded alike, draws the same class subspaces and
	// the same first 2000 samples; the next 2000 are fresh.
	Xt, lt := classData(rand.New(rand.NewPCG(5, 3)), 40, 20, 3, 4, 4000, 0.3)
	Xt, lt = mat.DenseCopyOf(Xt.Slice(2000, 4000, 0, 20)), lt[2000:]
	res, err := m.Evaluate(Xt, lt)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetResidualWeight(0); err != nil {
		t.Fatal(err)
	}
	lin, err := m.Evaluate(Xt, lt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("error with residuals %.3f, linear %.3f", res.ErrorRate, lin.ErrorRate)
	if !(res.ErrorRate < lin.ErrorRate) {
		t.Errorf("error with residuals %.3f, not below the linear scores' %.3f", res.ErrorRate, lin.ErrorRate)
	}
}

// Scores and Predict may run from several goroutines at once on one model,
// also while its first call builds the predictor; every call gives the
// serial result (run with -race in CI).
func TestScoresConcurrent(t *testing.T) {
	m := classModel(t, 8, 24, 16, 2, 600, 0.05, nil)
	if err := m.SetRuntime("", 2); err != nil {
		t.Fatal(err)
	}
	X, _ := classData(rand.New(rand.NewPCG(8, 3)), 24, 16, 2, 4, 600, 0.05)
	want, err := m.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	m.invalidate() // the goroutines race to build the predictor again
	const g = 4
	got := make([]*mat.Dense, g)
	errs := make([]error, g)
	var wg sync.WaitGroup
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = m.Scores(X)
		}()
	}
	wg.Wait()
	for i := range g {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !mat.Equal(got[i], want) {
			t.Fatalf("goroutine %d: scores differ from the serial ones", i)
		}
	}
}

// Predict and Evaluate work through sets larger than predictRows a block
// at a time: the labels are the argmax of Scores (one call on the whole
// set) for every sample, in both precisions and with the residual rule,
// and a cancelled context stops them.
func TestPredictInBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const n, k, q = 2100, 24, 4
	_, X, labels := planted(rng, k, n, 3, q, 1300, 0.05)
	if rows := predictRows(n); rows >= 1300/2 {
		t.Fatalf("predictRows(%d) = %d: the set would not span several blocks", n, rows)
	}
	for _, prec := range []Precision{PrecisionFloat64, PrecisionFloat32} {
		cfg := smallConfig(k, 3)
		cfg.Precision = prec
		cfg.ResidualWeight = 10
		m, err := Train(context.Background(), cfg, mustSource(t, X, labels, q), WithThreads(2))
		if err != nil {
			t.Fatal(err)
		}
		S, err := m.Scores(X)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(X)
		if err != nil {
			t.Fatal(err)
		}
		errs := 0
		for i := range pred {
			if want := argmax(S.RawRowView(i)); pred[i] != want {
				t.Fatalf("%v: sample %d: label %d, the argmax of its scores %d", prec, i, pred[i], want)
			}
			if pred[i] != labels[i] {
				errs++
			}
		}
		ev, err := m.Evaluate(X, labels)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Samples != len(labels) || ev.Errors != errs {
			t.Errorf("%v: Evaluate counts %d errors of %d, the labels %d of %d", prec, ev.Errors, ev.Samples, errs, len(labels))
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := m.PredictContext(ctx, X); !errors.Is(err, context.Canceled) {
			t.Errorf("%v: cancelled: %v", prec, err)
		}
	}
}
