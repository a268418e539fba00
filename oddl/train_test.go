package oddl

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestConfigValidate(t *testing.T) {
	ok := DefaultConfig()
	if err := ok.Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"K zero", func(c *Config) { c.K = 0 }, "K = 0"},
		{"K huge", func(c *Config) { c.K = MaxAtoms + 1 }, "at most"},
		{"L zero", func(c *Config) { c.L = 0 }, "sparsity L = 0"},
		{"L above K", func(c *Config) { c.K, c.L = 4, 5 }, "larger than the number of atoms"},
		{"lambda0 negative", func(c *Config) { c.Lambda0 = -1 }, "lambda0"},
		{"lambda0 NaN", func(c *Config) { c.Lambda0 = math.NaN() }, "lambda0"},
		{"lambda0 Inf", func(c *Config) { c.Lambda0 = math.Inf(1) }, "lambda0"},
		{"lambda1 negative", func(c *Config) { c.Lambda1 = -1e-3 }, "lambda1"},
		{"forget negative", func(c *Config) { c.Research.Forget = -1 }, "forgetting"},
		{"batch zero", func(c *Config) { c.Batch = 0 }, "batch size = 0"},
		{"epochs negative", func(c *Config) { c.Epochs = -1 }, "epochs"},
		{"init negative", func(c *Config) { c.InitSamples = -5 }, "init samples"},
		{"sweeps zero", func(c *Config) { c.Research.Sweeps = 0 }, "sweeps"},
		{"unused policy", func(c *Config) { c.Research.Unused = "drop" }, "unused-atom policy"},
		{"update form", func(c *Config) { c.Research.Update = "fast" }, "update form"},
		{"coding", func(c *Config) { c.Coding = "both" }, "coding"},
		{"init", func(c *Config) { c.Init = "random" }, "initialisation"},
		{"preprocess", func(c *Config) { c.Preprocess = "whiten" }, "preprocessing"},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an ErrConfig mentioning %q", tc.name, err, tc.want)
		}
	}
	// Checks against the data.
	c := DefaultConfig()
	c.K, c.L = 50, 5
	if err := c.validateData(4, 10, 1000); err == nil || !strings.Contains(err.Error(), "sample dimension") {
		t.Errorf("L > n: got %v", err)
	}
	if err := c.validateData(784, 10, 49); err == nil || !strings.Contains(err.Error(), "only 49 training samples") {
		t.Errorf("K > samples: got %v", err)
	}
	if err := c.validateData(784, 10, 50); err != nil {
		t.Errorf("K = samples: %v", err)
	}
	c.K, c.L, c.Init = 9, 2, InitClass
	if err := c.validateData(784, 10, 1000); err == nil || !strings.Contains(err.Error(), "at least one atom a class") {
		t.Errorf("K < classes with per-class init: got %v", err)
	}
	c.Init = InitShared
	if err := c.validateData(784, 10, 1000); err != nil {
		t.Errorf("K < classes with shared init: %v", err)
	}
}

func TestTrainRejectsBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	_, X, labels := planted(rng, 20, 10, 2, 3, 100, 0)
	cfg := smallConfig(200, 2) // more atoms than samples
	if _, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3)); !errors.Is(err, ErrConfig) {
		t.Errorf("K above the sample count: got %v", err)
	}
	// All samples constant: no atom can start from them.
	Z := mat.NewDense(100, 10, nil)
	cfg = smallConfig(20, 2)
	if _, err := Train(context.Background(), cfg, mustSource(t, Z, labels, 3)); err == nil || !strings.Contains(err.Error(), "not constant") {
		t.Errorf("constant samples: got %v", err)
	}
	if _, err := NewMatrixSource(X, labels[:5], 3); err == nil {
		t.Error("label count mismatch accepted")
	}
	bad := append([]int(nil), labels...)
	bad[7] = 3
	if _, err := NewMatrixSource(X, bad, 3); err == nil || !strings.Contains(err.Error(), "sample 7") {
		t.Errorf("label out of range: got %v", err)
	}
	nan := mat.DenseCopyOf(X)
	nan.Set(3, 4, math.NaN())
	if _, err := Train(context.Background(), smallConfig(20, 2), mustSource(t, nan, labels, 3)); !errors.Is(err, ErrInput) {
		t.Errorf("NaN sample: got %v", err)
	}
}

// Training on data drawn from a planted dictionary lowers the objective and
// recovers most planted atoms.
func TestRecoverPlanted(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	k, n, l := 30, 24, 3
	samples := 3000
	if testing.Short() {
		samples = 2000
	}
	D0, X, labels := planted(rng, k, n, l, 3, samples, 0.01)
	cfg := smallConfig(k, l)
	cfg.Epochs = 8
	cfg.Batch = 128
	cfg.InitSamples = 0
	cfg.Research.Forget = 4
	// Recovery is a property of the reconstructive algorithm: one shared
	// dictionary, codes on D. (The planted labels are not tied to blocks of
	// atoms, so per-class blocks could not recover it.)
	cfg.Init, cfg.Coding, cfg.Lambda0 = InitShared, CodingDictionary, 1
	// Nor are the atoms of a class a model of it: linear scores only.
	cfg.ResidualWeight = 0
	var objs []float64
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithProgress(func(p Progress) {
		objs = append(objs, p.Reconstruction)
	}))
	if err != nil {
		t.Fatal(err)
	}
	// The objective decreases: the mean over the last tenth of the batches
	// is well below the mean over the first tenth.
	tenth := max(1, len(objs)/10)
	first, last := mean(objs[:tenth]), mean(objs[len(objs)-tenth:])
	if !(last < 0.3*first) {
		t.Errorf("reconstruction error went from %.4g to %.4g, want a clear decrease", first, last)
	}
	D := m.Dictionary()
	found := 0
	for j := range k {
		best := 0.0
		for i := range k {
			best = max(best, math.Abs(mat.Dot(D0.RowView(j), D.RowView(i))))
		}
		if best >= 0.99 {
			found++
		}
	}
	if found < k*8/10 {
		t.Errorf("recovered %d of %d planted atoms with |corr| ≥ 0.99, want at least 80%%", found, k)
	}
	t.Logf("recovered %d/%d atoms; reconstruction %.4g -> %.4g", found, k, first, last)
	// The labels follow the dominant atom, so the classifier learns them.
	ev, err := m.Evaluate(X, labels)
	if err != nil {
		t.Fatal(err)
	}
	if ev.ErrorRate > 0.2 {
		t.Errorf("training error rate %.3f, want ≤ 0.2", ev.ErrorRate)
	}
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// Training for two epochs in one go equals training one epoch, saving,
// loading and training one more — bit for bit. So does a run cancelled in
// the middle of an epoch (and one cancelled during the initialisation),
// saved and resumed.
func TestResumeExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	_, X, labels := planted(rng, 24, 16, 3, 4, 700, 0.05)
	ctx := context.Background()
	for _, coding := range []Coding{CodingDictionary, CodingStacked} {
		for _, lambda0 := range []float64{1, 0} {
			cfg := smallConfig(24, 3)
			cfg.Coding, cfg.Lambda0 = coding, lambda0
			cfg.Research.Forget = 0.5
			cfg.Epochs = 2
			full, err := Train(ctx, cfg, mustSource(t, X, labels, 4))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()

			cfg.Epochs = 1
			half, err := Train(ctx, cfg, mustSource(t, X, labels, 4))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "half.oddl")
			if err := half.Save(path); err != nil {
				t.Fatal(err)
			}
			loaded, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := loaded.Continue(ctx, mustSource(t, X, labels, 4), 1); err != nil {
				t.Fatal(err)
			}
			sameModel(t, full, loaded)

			// Cancel after a few batches (during the initialisation, then in
			// the middle of an epoch), save, load and resume.
			for _, stopAt := range []int64{2, 9} {
				cfg.Epochs = 2
				cctx, cancel := context.WithCancel(ctx)
				part, err := Train(cctx, cfg, mustSource(t, X, labels, 4), WithProgress(func(p Progress) {
					if p.Batches == stopAt {
						cancel()
					}
				}))
				cancel()
				if !errors.Is(err, context.Canceled) || part == nil {
					t.Fatalf("cancelled run: model %v, error %v", part != nil, err)
				}
				if part.Done() {
					t.Fatal("cancelled run claims to be done")
				}
				p := filepath.Join(dir, "part.oddl")
				if err := part.Save(p); err != nil {
					t.Fatal(err)
				}
				resumed, err := Load(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := resumed.Resume(ctx, mustSource(t, X, labels, 4)); err != nil {
					t.Fatal(err)
				}
				sameModel(t, full, resumed)
				if !resumed.Done() {
					t.Fatal("resumed run not done")
				}
			}
		}
	}
}

// The result does not depend on the number of threads (on the native
// backend; OpenBLAS may round differently with another thread count).
func TestDeterministicAcrossThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	_, X, labels := planted(rng, 40, 30, 4, 5, 1200, 0.05)
	var models []*Model
	for _, th := range []int{1, 2, 3} {
		cfg := smallConfig(40, 4)
		cfg.Batch = 300
		m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 5), WithThreads(th), WithBackend("native"))
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	sameModel(t, models[0], models[1])
	sameModel(t, models[0], models[2])
}

// Checkpoints come every N batches with a model that resumes exactly.
func TestCheckpoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	_, X, labels := planted(rng, 20, 12, 2, 3, 500, 0.05)
	cfg := smallConfig(20, 2)
	cfg.Epochs = 2
	var saved []int64
	dir := t.TempDir()
	full, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithCheckpoint(5, func(m *Model) error {
		saved = append(saved, m.cur.batches)
		if m.cur.batches == 10 {
			return m.Save(filepath.Join(dir, "ck.oddl"))
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) == 0 || saved[0] != 5 || saved[1] != 10 {
		t.Fatalf("checkpoints after batches %v, want 5, 10, ...", saved)
	}
	m, err := Load(filepath.Join(dir, "ck.oddl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Resume(context.Background(), mustSource(t, X, labels, 3)); err != nil {
		t.Fatal(err)
	}
	sameModel(t, full, m)

	boom := errors.New("disk full")
	_, err = Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithCheckpoint(3, func(*Model) error { return boom }))
	if !errors.Is(err, boom) {
		t.Fatalf("checkpoint error: got %v", err)
	}
}

func TestPredictInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	_, X, labels := planted(rng, 20, 12, 2, 3, 400, 0.05)
	m, err := Train(context.Background(), smallConfig(20, 2), mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(mat.NewDense(3, 11, nil)); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "expects 12") {
		t.Errorf("wrong width: got %v", err)
	}
	bad := mat.DenseCopyOf(X.Slice(0, 5, 0, 12))
	bad.Set(2, 2, math.Inf(1))
	if _, err := m.Predict(bad); !errors.Is(err, ErrInput) {
		t.Errorf("Inf: got %v", err)
	}
	if _, err := m.Predict(nil); !errors.Is(err, ErrInput) {
		t.Errorf("nil samples: got %v", err)
	}
	if p, err := m.Predict(mat.NewDense(1, 12, nil).Slice(0, 0, 0, 12).(*mat.Dense)); err != nil || len(p) != 0 {
		t.Errorf("no samples: got %v, %v", p, err)
	}
	if _, err := m.Evaluate(X, labels[:4]); !errors.Is(err, ErrInput) {
		t.Errorf("label count: got %v", err)
	}
	lab := append([]int(nil), labels...)
	lab[0] = 9
	if _, err := m.Evaluate(X, lab); !errors.Is(err, ErrInput) {
		t.Errorf("label range: got %v", err)
	}
	// Scores and Predict agree, and the confusion matrix adds up.
	S, err := m.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pred {
		if p != argmax(S.RawRowView(i)) {
			t.Fatalf("sample %d: Predict %d, argmax of Scores %d", i, p, argmax(S.RawRowView(i)))
		}
	}
	ev, err := m.Evaluate(X, labels)
	if err != nil {
		t.Fatal(err)
	}
	total, diag := 0, 0
	for i, row := range ev.Confusion {
		for j, v := range row {
			total += v
			if i == j {
				diag += v
			}
		}
	}
	if total != len(labels) || total-diag != ev.Errors {
		t.Fatalf("confusion matrix sums to %d (diagonal %d), %d samples, %d errors", total, diag, len(labels), ev.Errors)
	}
	// With λ0 = 0 the classifier comes from the ridge regression and
	// classifies as well.
	cfg0 := smallConfig(20, 2)
	cfg0.Lambda0 = 0
	m0, err := Train(context.Background(), cfg0, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	ev0, err := m0.Evaluate(X, labels)
	if err != nil {
		t.Fatal(err)
	}
	if ev0.ErrorRate > 0.3 {
		t.Errorf("λ0 = 0: training error rate %.3f, want ≤ 0.3", ev0.ErrorRate)
	}
	// The model applies its preprocessing itself: scaling and shifting the
	// samples does not change the prediction under PreprocessUnit.
	cfg := smallConfig(20, 2)
	cfg.Preprocess = PreprocessUnit
	mu, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := mu.Predict(X)
	Y := mat.DenseCopyOf(X)
	r, c := Y.Dims()
	for i := range r {
		for j := range c {
			Y.Set(i, j, 3*Y.At(i, j)+7)
		}
	}
	p2, _ := mu.Predict(Y)
	diff := 0
	for i := range p1 {
		if p1[i] != p2[i] {
			diff++
		}
	}
	if diff > len(p1)/100 {
		t.Errorf("%d of %d predictions changed under scaling and shift", diff, len(p1))
	}
}
