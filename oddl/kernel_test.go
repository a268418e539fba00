package oddl

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/ridge"
)

// rings draws a table of q classes on concentric rings in the first two
// of n columns (the others noise, of unrelated scales): no linear model
// of the columns separates them, a Gaussian kernel does.
func rings(rng *rand.Rand, rows, n, q int) (*mat.Dense, []int) {
	X := mat.NewDense(rows, n, nil)
	labels := make([]int, rows)
	for i := range rows {
		c := i % q
		labels[i] = c
		a := 2 * math.Pi * rng.Float64()
		r := 1 + float64(c) + 0.15*rng.NormFloat64()
		X.Set(i, 0, 100*r*math.Cos(a))
		X.Set(i, 1, 0.01*r*math.Sin(a))
		for j := 2; j < n; j++ {
			X.Set(i, j, float64(j)*rng.NormFloat64())
		}
	}
	return X, labels
}

func TestFastCos(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200000 {
		x := (rng.Float64() - 0.5) * math.Pow(10, float64(i%8))
		if i%1000 == 0 {
			x = math.Pow(2, 30) * (1 + rng.Float64())
		}
		got, want := fastCos(x), math.Cos(x)
		if d := math.Abs(got - want); !(d <= 1e-15+4e-16*math.Abs(x)) {
			t.Fatalf("fastCos(%v) = %v, math.Cos %v (off by %g)", x, got, want, d)
		}
	}
	for _, x := range []float64{math.Inf(1), math.NaN(), 1e300} {
		if got, want := fastCos(x), math.Cos(x); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("fastCos(%v) = %v, want %v", x, got, want)
		}
	}
}

// ridgeFactorSolve is the ridge solution of internal/ridge, on every
// backend, at sizes about its block edges.
func TestRidgeFactorSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range blas.Available() {
		impl, _, err := blas.Select(name, blas.WithThreads(2))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []int{1, 2, 7, cholBlock - 1, cholBlock, cholBlock + 1, 2*cholBlock + 5} {
			q, k := 3, g+4
			G := randomGram(rng, k, g)
			B := make([]float64, g*q)
			for i := range B {
				B[i] = rng.NormFloat64()
			}
			lambda := 0.01 * float64(k)
			orig := append([]float64(nil), G.RawMatrix().Data...)
			got, err := ridgeFactorSolve(impl, g, q, G.RawMatrix().Data, lambda, B)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ridge.Solve(g, q, G.RawMatrix().Data, B, lambda, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
					t.Fatalf("%s, g = %d: x[%d] = %v, want %v", name, g, i, got[i], want[i])
				}
			}
			for i, v := range G.RawMatrix().Data {
				if v != orig[i] {
					t.Fatalf("%s, g = %d: the matrix changed", name, g)
				}
			}
		}
		// A system rounding made indefinite is an error, not a NaN.
		if _, err := ridgeFactorSolve(impl, 2, 1, []float64{1, 2, 2, 1}, 0, []float64{1, 1}); !errors.Is(err, errNotDefinite) {
			t.Errorf("%s: indefinite system: %v", name, err)
		}
	}
}

// The kernel rule is the ridge regression of the centred one-hot labels
// on the centred features √(2/m)·cos(Ω·z + b) of the standardized rows,
// with the label means as intercepts: held against that regression
// computed here from its definition, with more rows than features (the
// m×m equations, summed by blocks) and fewer (the N×N dual).
func TestKernelRuleFit(t *testing.T) {
	impl, _, err := blas.Select("", blas.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ rows, m int }{{kernelBlock + 300, 64}, {90, 200}} {
		rng := rand.New(rand.NewPCG(7, uint64(c.rows)))
		q, n := 3, 5
		X, labels := rings(rng, c.rows, n, q)
		st := statsOf(X)
		fm := newFourierMap(st, c.m, 2, 11)
		lambda := 0.01
		rule, err := newKernelData(impl, X, labels, q, fm).fit(lambda)
		if err != nil {
			t.Fatal(err)
		}
		// The definition.
		F := mat.NewDense(c.rows, c.m, nil)
		mean := make([]float64, c.m)
		for i := range c.rows {
			z := append([]float64(nil), X.RawRowView(i)...)
			st.apply(z)
			for k := range c.m {
				v := 0.0
				for j := range n {
					v += fm.omega[k*n+j] * z[j]
				}
				F.Set(i, k, math.Sqrt(2/float64(c.m))*math.Cos(v+fm.phase[k]))
				mean[k] += F.At(i, k) / float64(c.rows)
			}
		}
		Fc := mat.NewDense(c.rows, c.m, nil)
		Yc := mat.NewDense(c.rows, q, nil)
		ybar := make([]float64, q)
		for _, y := range labels {
			ybar[y] += 1 / float64(c.rows)
		}
		for i := range c.rows {
			for k := range c.m {
				Fc.Set(i, k, F.At(i, k)-mean[k])
			}
			for j := range q {
				Yc.Set(i, j, -ybar[j])
			}
			Yc.Set(i, labels[i], Yc.At(i, labels[i])+1)
		}
		var G, R, V mat.Dense
		G.Mul(Fc.T(), Fc)
		unit := mat.Trace(&G) / float64(c.m)
		for k := range c.m {
			G.Set(k, k, G.At(k, k)+lambda*unit)
		}
		R.Mul(Fc.T(), Yc)
		if err := V.Solve(&G, &R); err != nil {
			t.Fatal(err)
		}
		got := rule.scores(impl, X)
		for i := range c.rows {
			for j := range q {
				want := ybar[j]
				for k := range c.m {
					want += (F.At(i, k) - mean[k]) * V.At(k, j)
				}
				if math.Abs(got.At(i, j)-want) > 1e-8 {
					t.Fatalf("%d rows, m = %d: score (%d, %d) = %v, want %v", c.rows, c.m, i, j, got.At(i, j), want)
				}
			}
		}
	}
}

// A table of rings: the folds choose the kernel rule, far better than
// every other rule; the model keeps it through both forms of its file
// and both precisions; and a table of more rows than a small set
// chooses on one held-out fold.
func TestKernelRuleChosen(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	q, n := 3, 3
	all, ys := rings(rng, 600, n, q)
	X, labels := mat.DenseCopyOf(all.Slice(0, 300, 0, n)), ys[:300]
	Xt, yt := mat.DenseCopyOf(all.Slice(300, 600, 0, n)), ys[300:]
	base := DefaultConfig()
	base.Preprocess = PreprocessUnit
	cfg, v, err := ChooseSmall(context.Background(), base, Given{}, X, labels, q, WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	row := v.Rows[v.Chosen]
	if row.LinearFeatures != DefaultKernelFeatures || cfg.LinearFeatures != row.LinearFeatures || cfg.LinearGamma != row.LinearGamma || cfg.Linear != row.Linear || v.OneFold {
		t.Fatalf("chose %s (%+v); config %v %v %v", row.Rule(), row, cfg.Linear, cfg.LinearFeatures, cfg.LinearGamma)
	}
	best := bestOther(v.Rows, func(r ValidationRow) bool { return r.LinearFeatures == 0 })
	if !(row.Error < best/3) {
		t.Errorf("kernel rule %.3f against the best other rule %.3f on the folds", row.Error, best)
	}
	for _, prec := range []Precision{PrecisionFloat64, PrecisionFloat32} {
		c := cfg
		c.Precision = prec
		c, _ = FitToData(c, DataSize{Samples: 300, Classes: q, Dim: n}, Given{})
		m, err := Train(context.Background(), c, mustSource(t, X, labels, q), WithThreads(2))
		if err != nil {
			t.Fatal(err)
		}
		if m.lin == nil || m.lin.fm == nil {
			t.Fatal("no kernel rule fitted")
		}
		ev, err := m.Evaluate(Xt, yt)
		if err != nil {
			t.Fatal(err)
		}
		if ev.ErrorRate > 0.05 {
			t.Errorf("%s: error %.3f on rows of the same law", prec, ev.ErrorRate)
		}
		pred, err := m.Predict(Xt)
		if err != nil {
			t.Fatal(err)
		}
		f := DefaultKernelFeatures
		for _, form := range []bool{false, true} {
			b, m2 := roundTrip(t, m, Xt, pred, form)
			if got := m2.Config(); got.LinearFeatures != f || got.LinearGamma != c.LinearGamma || got.Linear != c.Linear {
				t.Fatalf("loaded %d features, γ %v, λ %v", got.LinearFeatures, got.LinearGamma, got.Linear)
			}
			// A column scale of zero in the map is a corrupt file, and so
			// is a file cut short of the map.
			bad := append([]byte(nil), b...)
			scale := len(bad) - 4 - 8*((2+f)*n+f) + 8*n
			clear(bad[scale : scale+8])
			binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
			if err := new(Model).UnmarshalBinary(bad); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s: zero scale: %v", prec, err)
			}
			if err := new(Model).UnmarshalBinary(b[:len(b)-8*f]); err == nil {
				t.Errorf("%s: a file cut short of the map loaded", prec)
			}
		}
	}
	// More rows than a small set: one fold of five.
	big, bys := rings(rng, SmallDataBatches*base.Batch+100, n, q)
	if !ChoosesRule(base, len(bys)) || IsSmall(base, len(bys)) {
		t.Fatal("a table of more rows than a small set does not choose its rule")
	}
	cb, vb, err := ChooseSmall(context.Background(), base, Given{}, big, bys, q, WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	rb := vb.Rows[vb.Chosen]
	if !vb.OneFold || rb.Samples > len(bys)/4 || cb.LinearFeatures == 0 {
		t.Errorf("larger table: one fold %t, %d held-out rows of %d, chose %s", vb.OneFold, rb.Samples, len(bys), rb.Rule())
	}
	for _, r := range vb.Rows {
		if r.Collaborative > 0 {
			t.Errorf("the collaborative rule compared on a larger table: %+v", r)
		}
	}
	// Images do not compare the kernel rule.
	img := base
	img.Image = Shape{Rows: 2, Cols: 3}
	if g := SmallGrid(img); len(g.KernelGamma) > 0 || ChoosesRule(img, len(bys)) {
		t.Error("images compare the kernel rule, or choose their rule beyond a small set")
	}
}

func TestKernelRuleConfig(t *testing.T) {
	// Samples of more values than the kernel's features are not given
	// kernel rows.
	X, y := rings(rand.New(rand.NewPCG(4, 4)), 60, 6, 2)
	for _, c := range []struct{ features, rows int }{{4, 1}, {8, 2}} {
		g := ValidationGrid{ResidualWeights: []float64{0}, KernelGamma: []float64{2}, KernelWeights: []float64{0.01}, KernelFeatures: c.features}
		v, err := CrossValidate(context.Background(), smallConfig(20, 2), Given{K: true}, X, y, 2, 3, g, WithThreads(1))
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Rows) != c.rows {
			t.Errorf("%d features for samples of 6 values: %d rows, want %d", c.features, len(v.Rows), c.rows)
		}
	}
	c := DefaultConfig()
	c.Linear, c.LinearFeatures, c.LinearGamma = 0.01, 100, 2
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*Config){
		func(c *Config) { c.Linear = 0 },
		func(c *Config) { c.LinearGamma = 0 },
		func(c *Config) { c.LinearFeatures = 0 },
		func(c *Config) { c.LinearFeatures = -1 },
		func(c *Config) { c.LinearFeatures = MaxKernelFeatures + 1 },
		func(c *Config) { c.LinearGamma = math.Inf(1) },
	} {
		b := c
		bad(&b)
		if err := b.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%d features, γ %v, λ %v: %v", b.LinearFeatures, b.LinearGamma, b.Linear, err)
		}
	}
}

// kernelModelBytes returns the file of a small model with the kernel
// rule (a seed of the decoders' fuzzing).
func kernelModelBytes(t testing.TB) []byte {
	X, labels := rings(rand.New(rand.NewPCG(8, 9)), 40, 3, 2)
	c := smallConfig(10, 2)
	c.Linear, c.LinearFeatures, c.LinearGamma = 0.01, 8, 2
	return trainedBytes(t, c, X, labels)
}

// The kernel rows replace the other rows' choice only where it is not
// within one standard error of them, and do not move that choice.
func TestChooseKernelLast(t *testing.T) {
	rows := []ValidationRow{{}, {}, {}, {LinearFeatures: 8}, {LinearFeatures: 8}}
	n := []int{100}
	for _, c := range []struct {
		errs         []float64
		best, chosen int
	}{
		// The others choose row 0 (within the standard error, 0.046, of
		// row 1); the kernel rows are within one standard error of it
		// and stay out.
		{[]float64{0.33, 0.31, 0.40, 0.30, 0.29}, 4, 0},
		// The others choose row 1; ranked with them, the kernel row would
		// have made row 2 the choice (row 1 is beyond its standard
		// error): compared apart, it replaces row 1.
		{[]float64{0.20, 0.16, 0.15, 0.125, 0.30}, 3, 3},
		// Clearly better: the first kernel row within one standard error
		// of the kernel's best.
		{[]float64{0.33, 0.31, 0.40, 0.12, 0.10}, 4, 3},
		// No kernel row better.
		{[]float64{0.20, 0.31, 0.40, 0.28, 0.30}, 0, 0},
	} {
		best, chosen := chooseKernelLast(rows, c.errs, n)
		if best != c.best || chosen != c.chosen {
			t.Errorf("%v: best %d, chosen %d; want %d, %d", c.errs, best, chosen, c.best, c.chosen)
		}
	}
	// Without kernel rows, the one-standard-error rule itself.
	errs := []float64{0.33, 0.31, 0.40}
	b0, c0 := OneStandardError(errs, n)
	if b, c := chooseKernelLast(rows[:3], errs, n); b != b0 || c != c0 {
		t.Errorf("no kernel rows: %d, %d; OneStandardError %d, %d", b, c, b0, c0)
	}
}
