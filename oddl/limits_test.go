package oddl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/omp"
)

// uncheckedBytes encodes m without the checks of WriteTo, to make files the
// decoder must refuse.
func uncheckedBytes(m *Model) []byte {
	var b bytes.Buffer
	if _, err := m.writeTo(&b, false); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// TestLimitsShared: every bound of the limit table is accepted at its value
// and refused one step above, by Validate and by the decoder alike, and a
// model at the bound saves and loads again.
func TestLimitsShared(t *testing.T) {
	base, _ := trainedModel(t)
	cases := []struct {
		name string
		set  func(c *Config, over bool)
	}{
		{"L", func(c *Config, over bool) { c.K, c.L = MaxSparsity+1, MaxSparsity+b2i(over) }},
		{"batch", func(c *Config, over bool) { c.Batch = MaxBatch + b2i(over) }},
		{"epochs", func(c *Config, over bool) { c.Epochs = MaxEpochs + b2i(over) }},
		{"init", func(c *Config, over bool) { c.InitSamples = MaxInitSamples + b2i(over) }},
		{"sweeps", func(c *Config, over bool) { c.Research.Sweeps = MaxSweeps + b2i(over) }},
		{"lambda0", func(c *Config, over bool) { c.Lambda0 = nextUp(MaxWeight, over) }},
		{"lambda1", func(c *Config, over bool) { c.Lambda1 = nextUp(MaxWeight, over) }},
		{"task step", func(c *Config, over bool) { c.TaskStep = nextUp(MaxWeight, over) }},
		{"residual weight", func(c *Config, over bool) { c.ResidualWeight = nextUp(MaxWeight, over) }},
		{"forget", func(c *Config, over bool) { c.Research.Forget = nextUp(MaxForget, over) }},
	}
	for _, tc := range cases {
		for _, over := range []bool{false, true} {
			c := base.cfg
			tc.set(&c, over)
			verr := c.Validate()
			if over != (verr != nil) {
				t.Errorf("%s over=%v: Validate gave %v", tc.name, over, verr)
				continue
			}
			if over && !errors.Is(verr, ErrConfig) {
				t.Errorf("%s: %v does not wrap ErrConfig", tc.name, verr)
			}
			if c.K != base.cfg.K {
				continue // the file would need K atoms of data
			}
			m := &Model{cfg: c, st: base.st, cur: base.cur, times: base.times, avg: base.avg, pw: base.pw}
			b, err := m.MarshalBinary()
			if over {
				if err == nil {
					t.Errorf("%s: a model over the limit was encoded", tc.name)
				}
				if _, derr := decode(uncheckedBytes(m)); !errors.Is(derr, ErrCorrupt) {
					t.Errorf("%s: decoding a file over the limit gave %v", tc.name, derr)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s at the limit: %v", tc.name, err)
				continue
			}
			got, err := decode(b)
			if err != nil {
				t.Errorf("%s at the limit: saved but not loaded: %v", tc.name, err)
				continue
			}
			if got.cfg != c {
				t.Errorf("%s at the limit: loaded %+v, saved %+v", tc.name, got.cfg, c)
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nextUp(v float64, over bool) float64 {
	if over {
		return math.Nextafter(v, math.Inf(1))
	}
	return v
}

// TestSaveRefusesNonFinite: a model with a NaN is not written, and the error
// says why; the bytes are not produced.
func TestSaveRefusesNonFinite(t *testing.T) {
	for _, where := range []string{"dictionary", "statistics", "classifier"} {
		m, _ := trainedModel(t)
		switch where {
		case "dictionary":
			m.st.dt[3] = math.NaN()
		case "statistics":
			m.st.m[5] = math.Inf(1)
		case "classifier":
			if m.pw == nil {
				t.Fatal("trained model without a refitted classifier")
			}
			m.pw[0] = math.Inf(-1)
		}
		var buf bytes.Buffer
		n, err := m.WriteTo(&buf)
		if !errors.Is(err, ErrNotFinite) || n != 0 || buf.Len() != 0 {
			t.Errorf("%s: WriteTo wrote %d bytes, error %v", where, n, err)
		}
		path := t.TempDir() + "/m.oddl"
		if err := m.Save(path); !errors.Is(err, ErrNotFinite) {
			t.Errorf("%s: Save gave %v", where, err)
		}
	}
}

// TestSaveRefusesNonUnitAtom: an atom the decoder would refuse (norm not 1)
// is not written either.
func TestSaveRefusesNonUnitAtom(t *testing.T) {
	m, _ := trainedModel(t)
	m.st.dt[0] *= 2
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err == nil || !strings.Contains(err.Error(), "norm") || buf.Len() != 0 {
		t.Errorf("WriteTo of a model with a non-unit atom: %v, %d bytes", err, buf.Len())
	}
}

// TestContinueBound: Continue cannot push Epochs past the limit that the
// decoder enforces.
func TestContinueBound(t *testing.T) {
	m, _ := trainedModel(t)
	before := m.cfg.Epochs
	err := m.Continue(context.Background(), nil, MaxEpochs)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("Continue past the limit: %v", err)
	}
	if m.cfg.Epochs != before {
		t.Errorf("a refused Continue changed Epochs from %d to %d", before, m.cfg.Epochs)
	}
}

// TestMemoryEstimate: the estimate grows with each setting that sizes
// memory and names the one that dominates.
func TestMemoryEstimate(t *testing.T) {
	c := DefaultConfig()
	base, _ := c.MemoryEstimate(784, 10, 1)
	// The K×K matrices alone: five of them at K = 960.
	if min := int64(5 * 960 * 960 * 8); base < min {
		t.Errorf("estimate %d below the K×K matrices' %d bytes", base, min)
	}
	grow := []struct {
		name    string
		set     func(*Config)
		setting string
	}{
		{"K", func(c *Config) { c.K = MaxAtoms }, "K"},
		{"batch", func(c *Config) { c.Batch = MaxBatch }, "Batch"},
	}
	for _, g := range grow {
		c := DefaultConfig()
		g.set(&c)
		got, setting := c.MemoryEstimate(784, 10, 1)
		if got <= base {
			t.Errorf("%s: estimate %d not above the default's %d", g.name, got, base)
		}
		if setting != g.setting {
			t.Errorf("%s: dominant setting %q, want %q", g.name, setting, g.setting)
		}
	}
	// Many threads on a small dictionary: their scratch space dominates.
	small := DefaultConfig()
	small.K, small.Batch = 16, 1
	one, _ := small.MemoryEstimate(784, 10, 1)
	if got, setting := small.MemoryEstimate(784, 10, MaxThreads); got <= one || setting != "Threads" {
		t.Errorf("threads: estimate %d (one thread: %d), dominant %q, want Threads", got, one, setting)
	}
	// At K = 2¹⁶ the five K×K matrices are 160 GiB.
	c.K = MaxAtoms
	if got, _ := c.MemoryEstimate(784, 10, 1); got < 5<<35 {
		t.Errorf("K = 2¹⁶: estimate %d, want at least 160 GiB", got)
	}
}

// doneAfter is a context whose Err is nil for its first after calls and
// context.Canceled from then on: a cancellation at a chosen point of the
// work, without timing.
type doneAfter struct {
	context.Context
	calls, after int
}

func (c *doneAfter) Err() error {
	c.calls++
	if c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestCancelBetweenSweeps: with many sweeps per mini-batch, a cancellation
// stops the sweeps of the batch under way rather than at the end of the
// batch, and the model so far is consistent: it saves, loads and resumes.
func TestCancelBetweenSweeps(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	_, X, labels := planted(rng, 12, 8, 2, 3, 400, 0.05)
	cfg := smallConfig(12, 2)
	cfg.Research.Sweeps = MaxSweeps
	src := mustSource(t, X, labels, 3)
	ctx := &doneAfter{Context: context.Background(), after: 40}
	m, err := Train(ctx, cfg, src)
	if !errors.Is(err, context.Canceled) || m == nil {
		t.Fatalf("Train: model %v, error %v; want the model so far and context.Canceled", m != nil, err)
	}
	if m.cur.batches != 1 {
		t.Errorf("%d mini-batches done after the cancellation came inside the first one's sweeps", m.cur.batches)
	}
	if ctx.calls > ctx.after+2 {
		t.Errorf("training went on for %d checks after the context was done", ctx.calls-ctx.after)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatalf("the interrupted model does not load: %v", err)
	}
	back.cfg.Research.Sweeps = 1 // finish quickly: the position is what matters
	if err := back.Resume(context.Background(), src); err != nil {
		t.Fatalf("resuming the interrupted model: %v", err)
	}
	if !back.Done() {
		t.Error("the resumed model is not done")
	}
}

// TestEvaluateContext: evaluation with a live context is Evaluate's; a done
// one stops it with the context's error, with the residual scores too.
func TestEvaluateContext(t *testing.T) {
	m, _ := trainedModel(t)
	rng := rand.New(rand.NewPCG(7, 7))
	_, X, labels := planted(rng, 12, 8, 2, 3, 300, 0.05)
	for _, beta := range []float64{0, 1} {
		if err := m.SetResidualWeight(beta); err != nil {
			t.Fatal(err)
		}
		want, err := m.Evaluate(X, labels)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.EvaluateContext(&doneAfter{Context: context.Background(), after: 1 << 30}, X, labels)
		if err != nil || got.Errors != want.Errors {
			t.Errorf("β = %g: live context: %d errors, %v; Evaluate: %d", beta, got.Errors, err, want.Errors)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := m.EvaluateContext(ctx, X, labels); !errors.Is(err, context.Canceled) {
			t.Errorf("β = %g: cancelled context: %v", beta, err)
		}
	}
}

// TestDivergedMessage: a non-finite dictionary found by the coder is
// reported as a diverged training, not as an internal Gram matrix error;
// other coder errors keep their words.
func TestDivergedMessage(t *testing.T) {
	err := diverged(fmt.Errorf("%w: Gram matrix entry (1, 2) is NaN", omp.ErrNonFinite), "stacked dictionary")
	if !errors.Is(err, ErrNotFinite) || strings.Contains(err.Error(), "Gram") || !strings.Contains(err.Error(), "diverged") {
		t.Errorf("non-finite: %v", err)
	}
	other := diverged(omp.ErrShape, "dictionary")
	if errors.Is(other, ErrNotFinite) || !errors.Is(other, omp.ErrShape) {
		t.Errorf("shape error became %v", other)
	}
}
