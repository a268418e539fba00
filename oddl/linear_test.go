package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tabular draws a table of q classes whose columns have unrelated means
// and scales; the class shifts every column by a fraction of its own
// spread, so that a linear model of the standardized columns separates
// them where unit-norm rows (dominated by the largest column) lose it.
func tabular(rng *rand.Rand, rows, n, q int) (*mat.Dense, []int) {
	mean, scale := make([]float64, n), make([]float64, n)
	shift := mat.NewDense(q, n, nil)
	for j := range n {
		mean[j] = math.Pow(10, 4*rng.Float64()-1) * (rng.Float64() + 0.5)
		scale[j] = mean[j] * (0.05 + 0.3*rng.Float64())
		for c := range q {
			shift.Set(c, j, 1.2*rng.NormFloat64())
		}
	}
	X := mat.NewDense(rows, n, nil)
	labels := make([]int, rows)
	for i := range rows {
		c := i % q
		labels[i] = c
		for j := range n {
			X.Set(i, j, mean[j]+scale[j]*(shift.At(c, j)+rng.NormFloat64()))
		}
	}
	return X, labels
}

// The linear rule is the ridge regression of the centred one-hot labels
// on the standardized columns, with the intercept of the label means, in
// both forms of its equations: held against that regression computed
// here from its definition.
func TestLinearRuleFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range []struct{ rows, n int }{{60, 7}, {9, 25}} { // primal, dual
		q := 3
		X, labels := tabular(rng, sh.rows, sh.n, q)
		for i := range sh.rows {
			X.Set(i, 2, 4.5) // a constant column
		}
		lambda := 0.1
		r, err := newLinearData(X, labels, q).fit(lambda)
		if err != nil {
			t.Fatal(err)
		}
		// The reference: Z, Yc and the n×n normal equations.
		N, n := sh.rows, sh.n
		mean, sd := make([]float64, n), make([]float64, n)
		for j := range n {
			col := mat.Col(nil, j, X)
			for _, v := range col {
				mean[j] += v / float64(N)
			}
			for _, v := range col {
				sd[j] += (v - mean[j]) * (v - mean[j]) / float64(N)
			}
			sd[j] = math.Sqrt(sd[j])
			if sd[j] < 1e-9 {
				sd[j] = 1
			}
		}
		Z := mat.NewDense(N, n, nil)
		Z.Apply(func(i, j int, v float64) float64 { return (v - mean[j]) / sd[j] }, X)
		Y := mat.NewDense(N, q, nil)
		ybar := make([]float64, q)
		for i, c := range labels {
			Y.Set(i, c, 1)
			ybar[c] += 1 / float64(N)
		}
		Y.Apply(func(i, c int, v float64) float64 { return v - ybar[c] }, Y)
		var A mat.Dense
		A.Mul(Z.T(), Z)
		for j := range n {
			A.Set(j, j, A.At(j, j)+lambda*float64(N))
		}
		var B, V mat.Dense
		B.Mul(Z.T(), Y)
		if err := V.Solve(&A, &B); err != nil {
			t.Fatal(err)
		}
		// Scores of new rows: r's against Z'·V + ȳ.
		Xn, _ := tabular(rng, 11, n, q)
		got := r.scores(nil, Xn)
		Zn := mat.NewDense(11, n, nil)
		Zn.Apply(func(i, j int, v float64) float64 { return (v - mean[j]) / sd[j] }, Xn)
		var want mat.Dense
		want.Mul(Zn, &V)
		for i := range 11 {
			for c := range q {
				w := want.At(i, c) + ybar[c]
				if g := got.At(i, c); math.Abs(g-w) > 1e-9*(1+math.Abs(w)) {
					t.Fatalf("%d×%d: score (%d, %d) %v, want %v", N, n, i, c, g, w)
				}
			}
		}
	}
	if _, err := newLinearData(mat.NewDense(2, 2, []float64{1, 2, 3, 4}), []int{0, 1}, 2).fit(0); err == nil {
		t.Error("weight 0 fitted")
	}
}

// A small table whose columns are in unrelated units: the folds choose
// the linear rule, which the model then predicts with, saved and loaded in
// both forms and both precisions; on the training rows' own units the
// dictionary's rules are far behind.
func TestLinearRuleChosen(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	q, n := 3, 12
	all, ys := tabular(rng, 300, n, q)
	X, labels := mat.DenseCopyOf(all.Slice(0, 150, 0, n)), ys[:150]
	Xt, yt := mat.DenseCopyOf(all.Slice(150, 300, 0, n)), ys[150:] // rows of the same law
	base := DefaultConfig()
	base.Preprocess = PreprocessUnit
	cfg, v, err := ChooseSmall(context.Background(), base, Given{}, X, labels, q, WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	row := v.Rows[v.Chosen]
	if row.Linear == 0 || cfg.Linear != row.Linear || cfg.PatchesOn() {
		t.Fatalf("chose %s (%+v), config linear %v", row.Rule(), row, cfg.Linear)
	}
	best := bestOther(v.Rows, func(r ValidationRow) bool { return r.Linear == 0 })
	if !(row.Error < best/2) {
		t.Errorf("linear rule %.3f against the dictionary's best %.3f on the folds", row.Error, best)
	}
	for _, prec := range []Precision{PrecisionFloat64, PrecisionFloat32} {
		c := cfg
		c.Precision = prec
		c, _ = FitToData(c, DataSize{Samples: 150, Classes: q, Dim: n}, Given{})
		m, err := Train(context.Background(), c, mustSource(t, X, labels, q), WithThreads(1))
		if err != nil {
			t.Fatal(err)
		}
		if m.lin == nil {
			t.Fatal("no linear rule fitted")
		}
		pred, err := m.Predict(X)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := m.Evaluate(Xt, yt)
		if err != nil {
			t.Fatal(err)
		}
		if ev.ErrorRate > 0.1 {
			t.Errorf("%s: error %.3f on rows of the same law", prec, ev.ErrorRate)
		}
		for _, form := range []bool{false, true} {
			b, m2 := roundTrip(t, m, X, pred, form)
			if v := binary.LittleEndian.Uint32(b[8:]); v != linVersion {
				t.Fatalf("version %d, want %d", v, linVersion)
			}
			if m2.lin == nil {
				t.Fatalf("%s, prediction form %t: no linear rule after loading", prec, form)
			}
			// A trained model's rule is never zero; zeros there are a
			// corrupt file.
			bad := append([]byte(nil), b...)
			lin := len(bad) - 4 - 8*q*(n+1)
			clear(bad[lin : len(bad)-4])
			binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
			if err := new(Model).UnmarshalBinary(bad); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: zero linear rule: %v", prec, err)
			}
		}
		if err := m.SetResidualWeight(3); err == nil {
			t.Error("a residual weight set on a model of the linear rule")
		}
	}
}

// roundTrip writes m in the whole or the prediction form, loads the file
// and checks that the loaded model predicts the rows of X as m did
// (pred) and is written again byte for byte (the whole form); it returns
// the file and the loaded model.
func roundTrip(t *testing.T, m *Model, X *mat.Dense, pred []int, form bool) ([]byte, *Model) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := m.write(&buf, form); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	m2 := new(Model)
	if err := m2.UnmarshalBinary(b); err != nil {
		t.Fatalf("%s, prediction form %t: %v", m.Config().Precision, form, err)
	}
	p2, err := m2.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pred {
		if pred[i] != p2[i] {
			t.Fatalf("%s: prediction %d after loading %d, before %d", m.Config().Precision, i, p2[i], pred[i])
		}
	}
	again, err := m2.MarshalBinary()
	if err != nil || !form && !bytes.Equal(again, b) {
		t.Fatalf("written again: %v (same bytes: %t)", err, bytes.Equal(again, b))
	}
	return b, m2
}

// The linear rule excludes the collaborative rule and a front end, and a
// configuration with it has nothing for the folds to compare.
func TestLinearRuleConfig(t *testing.T) {
	c := DefaultConfig()
	c.Linear = 0.1
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Config){
		func(c *Config) { c.Collaborative = 0.1 },
		func(c *Config) { c.Image = Shape{Rows: 28, Cols: 28}; c.Patches = DefaultFront(1) },
		func(c *Config) { c.Linear = -1 },
		func(c *Config) { c.Linear = math.NaN() },
	} {
		b := c
		bad(&b)
		if err := b.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v", b, err)
		}
	}
	X, labels := tabular(rand.New(rand.NewPCG(1, 1)), 40, 4, 2)
	if _, err := CrossValidate(context.Background(), c, Given{}, X, labels, 2, 4, RuleGrid()); !errors.Is(err, ErrConfig) {
		t.Errorf("cross-validation of a configuration with the linear rule: %v", err)
	}
	// A front end the caller fixed leaves the linear rule out of the
	// folds' choice: it would drop the front end.
	fc := frontConfig()
	Xi, yi := bars(rand.New(rand.NewPCG(2, 2)), 60, 12)
	v, err := CrossValidate(context.Background(), fc, Given{Patches: true}, Xi, yi, 3, 3, RuleGrid(), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range v.Rows {
		if r.Linear > 0 {
			t.Fatalf("a linear rule among the rows of a fixed front end: %+v", r)
		}
	}
	// Images of a large set get no front end with the linear rule.
	c.Image = Shape{Rows: 28, Cols: 28}
	if f, _ := FitToData(c, DataSize{Samples: 60000, Classes: 10, Dim: 784}, Given{}); f.PatchesOn() {
		t.Error("front end put beside the linear rule")
	}
}

// linearModelBytes returns the file of a small model with the linear
// rule (a seed of the decoders' fuzzing).
func linearModelBytes(t testing.TB) []byte {
	X, labels := tabular(rand.New(rand.NewPCG(8, 9)), 40, 5, 2)
	c := smallConfig(10, 2)
	c.Linear = 0.1
	return trainedBytes(t, c, X, labels)
}

// trainedBytes returns the file of the model c trains on X (two
// classes).
func trainedBytes(t testing.TB, c Config, X *mat.Dense, labels []int) []byte {
	m, err := Train(context.Background(), c, mustSource(t, X, labels, 2), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bestOther returns the lowest error of the rows that other keeps.
func bestOther(rows []ValidationRow, other func(ValidationRow) bool) float64 {
	best := 1.0
	for _, r := range rows {
		if other(r) {
			best = min(best, r.Error)
		}
	}
	return best
}

// PreprocessStandard: the columns' statistics of one pass of the source
// are those of the rows (and make every column zero-mean with unit
// variance, a constant one zero); the model keeps them, in both forms of
// its file, and predicts alike after loading; a set of values without an
// image shape compares it on its folds.
func TestStandardize(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	q, n := 3, 9
	X, labels := tabular(rng, 120, n, q)
	for i := range 120 {
		X.Set(i, 4, 7.25)
	}
	s, err := sourceStats(mustSource(t, X, labels, q))
	if err != nil {
		t.Fatal(err)
	}
	ref := statsOf(X)
	for j := range n {
		// The pass visits the rows in another order: the sums' rounding.
		if math.Abs(s.mean[j]-ref.mean[j]) > 1e-12*math.Abs(ref.mean[j]) || math.Abs(s.scale[j]-ref.scale[j]) > 1e-12*ref.scale[j] {
			t.Fatalf("column %d: mean %v scale %v from the source, %v %v from the rows", j, s.mean[j], s.scale[j], ref.mean[j], ref.scale[j])
		}
	}
	Z := mat.DenseCopyOf(X)
	preprocessRows(Z, PreprocessStandard, Shape{}, s, 2)
	for j := range n {
		var m, v float64
		for i := range 120 {
			m += Z.At(i, j) / 120
		}
		for i := range 120 {
			v += (Z.At(i, j) - m) * (Z.At(i, j) - m) / 120
		}
		want := 1.0
		if j == 4 {
			want = 0
		}
		if math.Abs(m) > 1e-12 || math.Abs(v-want) > 1e-9 {
			t.Errorf("standardized column %d: mean %v, variance %v", j, m, v)
		}
	}
	c := smallConfig(30, 3)
	c.Preprocess = PreprocessStandard
	m, err := Train(context.Background(), c, mustSource(t, X, labels, q), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range []bool{false, true} {
		var buf bytes.Buffer
		if _, err := m.write(&buf, form); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		var m2 Model
		if err := m2.UnmarshalBinary(b); err != nil {
			t.Fatalf("prediction form %t: %v", form, err)
		}
		if m2.std == nil || m2.Config().Preprocess != PreprocessStandard {
			t.Fatalf("prediction form %t: statistics %v, preprocessing %q after loading", form, m2.std, m2.Config().Preprocess)
		}
		p2, err := m2.Predict(X)
		if err != nil {
			t.Fatal(err)
		}
		for i := range pred {
			if pred[i] != p2[i] {
				t.Fatalf("prediction %d after loading %d, before %d", i, p2[i], pred[i])
			}
		}
		// A zero scale is a corrupt file.
		bad := append([]byte(nil), b...)
		sc := len(bad) - 4 - 8*n
		clear(bad[sc : sc+8])
		binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
		if err := new(Model).UnmarshalBinary(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("zero scale: %v", err)
		}
	}
	// Values near ±MaxFloat64: statistics and standardized values finite,
	// a model trained on them.
	H := mat.NewDense(40, 3, nil)
	hl := make([]int, 40)
	for i := range 40 {
		hl[i] = i % 2
		H.Set(i, 0, math.MaxFloat64*float64(1-2*(i%2)))
		H.Set(i, 1, 1e307*float64(i%5))
		H.Set(i, 2, float64(i))
	}
	hs, err := sourceStats(mustSource(t, H, hl, 2))
	if err != nil {
		t.Fatal(err)
	}
	Hz := mat.DenseCopyOf(H)
	preprocessRows(Hz, PreprocessStandard, Shape{}, hs, 1)
	for i := range 40 {
		for j := range 3 {
			if v := Hz.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 10 {
				t.Fatalf("standardized huge value (%d, %d) = %v (mean %v, scale %v)", i, j, v, hs.mean[j], hs.scale[j])
			}
		}
	}
	if math.Abs(Hz.At(0, 0)-1) > 1e-12 || math.Abs(Hz.At(1, 0)+1) > 1e-12 {
		t.Errorf("±MaxFloat64 standardized to %v, %v, want ±1", Hz.At(0, 0), Hz.At(1, 0))
	}
	hc := smallConfig(10, 2)
	hc.Preprocess = PreprocessStandard
	if _, err := Train(context.Background(), hc, mustSource(t, H, hl, 2), WithThreads(1)); err != nil {
		t.Errorf("training on huge values: %v", err)
	}
	if g := SmallGrid(DefaultConfig()); len(g.Preprocess) != 2 || g.Preprocess[1] != PreprocessStandard {
		t.Errorf("small grid of values: preprocessings %v", g.Preprocess)
	}
	img := DefaultConfig()
	img.Image = Shape{Rows: 16, Cols: 16}
	if g := SmallGrid(img); g.Preprocess != nil {
		t.Errorf("small grid of images: preprocessings %v", g.Preprocess)
	}
}

// PreprocessStandard keeps the spread of columns in small units: values
// of the order of 1e-15 and of 1e-200 are standardized like any others
// (they used to be taken for constant, their spread being below an
// absolute 1e-12, and become zeros), while a column constant up to its
// mean's rounding still becomes zeros.
func TestStandardizeSmallUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	const N = 100
	X := mat.NewDense(N, 4, nil)
	for i := range N {
		X.Set(i, 0, 1e-15*rng.NormFloat64())
		X.Set(i, 1, 1e-200*(3+rng.NormFloat64()))
		X.Set(i, 2, 0.1) // constant, its mean rounded
		X.Set(i, 3, rng.NormFloat64())
	}
	s := statsOf(X)
	Z := mat.DenseCopyOf(X)
	preprocessRows(Z, PreprocessStandard, Shape{}, s, 1)
	for j, want := range []float64{1, 1, 0, 1} {
		var m, v float64
		for i := range N {
			m += Z.At(i, j) / N
		}
		for i := range N {
			v += (Z.At(i, j) - m) * (Z.At(i, j) - m) / N
		}
		if math.Abs(m) > 1e-12 || math.Abs(v-want) > 1e-9 {
			t.Errorf("column %d: mean %v, variance %v, want 0 and %v", j, m, v, want)
		}
	}
}
