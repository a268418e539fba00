package oddl

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lineClasses returns rows of n values whose three classes lie one after
// the other along the first value (centres −4, 0 and 4, unit spread; the
// other values noise of their own scales): least squares masks the middle
// class, which no one-hot regression line scores highest anywhere.
func lineClasses(rng *rand.Rand, rows, n int) (*mat.Dense, []int) {
	X := mat.NewDense(rows, n, nil)
	labels := make([]int, rows)
	for i := range rows {
		c := i % 3
		labels[i] = c
		X.Set(i, 0, 4*float64(c-1)+rng.NormFloat64())
		for j := 1; j < n; j++ {
			X.Set(i, j, float64(j)*10*rng.NormFloat64())
		}
	}
	return X, labels
}

// hingeGradient returns the gradient of class c's primal objective
// λN|v|² + Σ max(0, 1 − y_i·v·[z_i; 1])² at the weights of rule r
// (brought back to the standardized columns), and the objective.
func hingeGradient(d *linearData, r *linearRule, c int, lambda float64) ([]float64, float64) {
	N, n := d.z.Dims()
	w := r.w[c*(n+1) : (c+1)*(n+1)]
	v := make([]float64, n+1)
	v[n] = w[n]
	for j := range n {
		v[j] = w[j] * d.scale[j]
		v[n] += w[j] * d.mean[j]
	}
	grad := make([]float64, n+1)
	obj := 0.0
	for j, x := range v {
		grad[j] = 2 * lambda * float64(N) * x
		obj += lambda * float64(N) * x * x
	}
	for i := range N {
		y := -1.0
		if d.y[i] == c {
			y = 1
		}
		z := d.z.RawRowView(i)
		m := v[n]
		for j := range n {
			m += v[j] * z[j]
		}
		if xi := 1 - y*m; xi > 0 {
			obj += xi * xi
			for j := range n {
				grad[j] -= 2 * xi * y * z[j]
			}
			grad[n] -= 2 * xi * y
		}
	}
	return grad, obj
}

// TestHingeFit holds the hinge loss's coordinate descent to the primal
// problem it solves: run to a tight tolerance its gradient vanishes, and
// at the default tolerance (liblinear's, a loose one) its objective is
// within a few hundredths of that.
func TestHingeFit(t *testing.T) {
	X, labels := lineClasses(rand.New(rand.NewPCG(1, 2)), 150, 4)
	d := newLinearData(X, labels, 3)
	for _, lambda := range []float64{0.0001, 0.01, 1} {
		tight, err := d.fitHingeTol(lambda, 1e-10, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		loose, err := d.fitHinge(lambda)
		if err != nil {
			t.Fatal(err)
		}
		for c := range 3 {
			g, best := hingeGradient(d, tight, c, lambda)
			norm := 0.0
			for _, x := range g {
				norm += x * x
			}
			// The gradient at v = 0 is of the order of N·|z|.
			if math.Sqrt(norm) > 1e-6*float64(len(labels)) {
				t.Errorf("λ %g, class %d: gradient %.3g at the tight fit", lambda, c, math.Sqrt(norm))
			}
			if _, obj := hingeGradient(d, loose, c, lambda); obj > best*1.03+1e-12 || obj < best*(1-1e-9) {
				t.Errorf("λ %g, class %d: objective %.6g at the default tolerance, %.6g at the tight one", lambda, c, obj, best)
			}
		}
	}
	if _, err := d.fitHinge(0); err == nil {
		t.Error("weight 0 accepted")
	}
	// A class a goroutine: the same weights on any number of them.
	one, err := d.fitHinge(0.001)
	if err != nil {
		t.Fatal(err)
	}
	d.threads = 3
	three, err := d.fitHinge(0.001)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.w {
		if one.w[i] != three.w[i] {
			t.Fatalf("weight %d: %v on one goroutine, %v on three", i, one.w[i], three.w[i])
		}
	}
}

// TestHingeRuleChosen: on classes one after the other along a column the
// folds choose the linear SVM rule, far below least squares, and the
// model keeps it through both file forms and its settings.
func TestHingeRuleChosen(t *testing.T) {
	X, labels := lineClasses(rand.New(rand.NewPCG(3, 4)), 300, 3)
	base := DefaultConfig()
	base.Preprocess = PreprocessUnit
	cfg, v, err := ChooseSmall(context.Background(), base, Given{}, X, labels, 3, WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	row := v.Rows[v.Chosen]
	if !row.LinearHinge || !cfg.LinearHinge || cfg.Linear != row.Linear || cfg.LinearFeatures != 0 {
		t.Fatalf("chose %s (%+v)", row.Rule(), row)
	}
	ridge := bestOther(v.Rows, func(r ValidationRow) bool { return r.Linear > 0 && !r.LinearHinge && r.LinearFeatures == 0 })
	if !(row.Error < ridge/4) {
		t.Errorf("linear SVM rule %.3f against least squares %.3f on the folds", row.Error, ridge)
	}
	for _, prec := range []Precision{PrecisionFloat64, PrecisionFloat32} {
		c := cfg
		c.Precision = prec
		c, _ = FitToData(c, DataSize{Samples: 300, Classes: 3, Dim: 3}, Given{})
		m, err := Train(context.Background(), c, mustSource(t, X, labels, 3), WithThreads(2))
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(X)
		if err != nil {
			t.Fatal(err)
		}
		wrong := 0
		for i, p := range pred {
			if p != labels[i] {
				wrong++
			}
		}
		if wrong > 30 {
			t.Errorf("%s: %d of 300 training rows wrong", prec, wrong)
		}
		for _, form := range []bool{false, true} {
			_, m2 := roundTrip(t, m, X, pred, form)
			if !m2.Config().LinearHinge {
				t.Errorf("%s, prediction form %t: the hinge loss lost in the file", prec, form)
			}
		}
		if !m.Config().Settings().Apply(DefaultConfig()).LinearHinge {
			t.Error("the hinge loss lost in the settings")
		}
	}
	// Images compare no linear SVM rows.
	img := DefaultConfig()
	img.Image = Shape{Rows: 3, Cols: 3}
	if g := SmallGrid(img); len(g.Hinge) != 0 {
		t.Errorf("images' grid has hinge weights %v", g.Hinge)
	}
}

func TestHingeRuleConfig(t *testing.T) {
	c := DefaultConfig()
	c.Linear, c.LinearHinge = 0.01, true
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Config){
		func(c *Config) { c.Linear = 0 },
		func(c *Config) { c.LinearFeatures, c.LinearGamma = 8, 2 },
	} {
		b := c
		bad(&b)
		if err := b.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("hinge with λ %v, %d features: %v", b.Linear, b.LinearFeatures, err)
		}
	}
}
