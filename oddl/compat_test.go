package oddl

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
)

// TestLoadVersion6 loads a model file of version 6, the last version that
// stored the BLAS backend and the thread count, written by the oddl of that
// version: a model trained (gonum backend, one thread) on planted data with
// K = 24, L = 3, q = 4, n = 16 (the first 600 of 640 samples), its residual
// weight chosen on the training samples. testdata/model-v6.json holds the
// other 40 samples, their labels and the scores that oddl computed for them
// (on the AVX-512 kernel tier); the file must load into a model that gives
// the same scores on the same backend, to the rounding of the kernel tier
// (TestVersion6Bytes checks that the model is the same bit for bit).
func TestLoadVersion6(t *testing.T) {
	// The file's backend and thread count are read and dropped.
	m, err := Load("testdata/model-v6.oddl")
	if err != nil {
		t.Fatal(err)
	}
	if b, th := m.Runtime(); b != "" || th != 0 {
		t.Errorf("loaded without options, the model runs on backend %q, %d threads", b, th)
	}
	// On the backend of the run that saved it, the same scores.
	m, err = Load("testdata/model-v6.oddl", WithBackend("gonum"), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	if b, th := m.Runtime(); b != "gonum" || th != 1 {
		t.Errorf("loaded with gonum on 1 thread, the model runs on backend %q, %d threads", b, th)
	}
	checkVersion6(t, m)
	f, err := os.Open("testdata/model-v6.oddl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err = LoadFrom(f, WithBackend("gonum"))
	if err != nil {
		t.Fatal(err)
	}
	checkVersion6(t, m)
}

// The run-time options are checked where they are given: a thread count
// outside 0..MaxThreads or a backend this binary lacks is an error
// wrapping ErrConfig, from Train, Load and SetRuntime alike.
func TestRuntimeOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	_, X, labels := planted(rng, 12, 8, 2, 3, 120, 0.05)
	cfg := smallConfig(12, 2)
	for _, tc := range []struct {
		name string
		opt  Option
		want error
	}{
		{"negative threads", WithThreads(-1), ErrConfig},
		{"too many threads", WithThreads(MaxThreads + 1), ErrConfig},
		{"unknown backend", WithBackend("nope"), blas.ErrUnknown},
	} {
		if _, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), tc.opt); !errors.Is(err, ErrConfig) || !errors.Is(err, tc.want) {
			t.Errorf("Train, %s: %v", tc.name, err)
		}
		if _, err := Load("testdata/model-v6.oddl", tc.opt); !errors.Is(err, ErrConfig) || !errors.Is(err, tc.want) {
			t.Errorf("Load, %s: %v", tc.name, err)
		}
	}
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithThreads(2), WithBackend("gonum"))
	if err != nil {
		t.Fatal(err)
	}
	if b, th := m.Runtime(); b != "gonum" || th != 2 {
		t.Errorf("trained with gonum on 2 threads, the model runs on backend %q, %d threads", b, th)
	}
	if err := m.SetRuntime("nope", 0); !errors.Is(err, ErrConfig) {
		t.Errorf("SetRuntime with an unknown backend: %v", err)
	}
	if b, th := m.Runtime(); b != "gonum" || th != 2 {
		t.Errorf("a refused SetRuntime changed the runtime to %q, %d threads", b, th)
	}
}

func checkVersion6(t *testing.T, m *Model) {
	t.Helper()
	b, err := os.ReadFile("testdata/model-v6.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		X, Scores [][]float64
		Labels    []int
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	c := m.Config()
	if c.K != 24 || c.L != 3 || c.Batch != 64 || c.InitSamples != 256 || c.Seed != 1 || c.ResidualWeight != 1 ||
		c.Coding != CodingStacked || c.Init != InitClass || c.Preprocess != PreprocessUnit || !c.Refit || !c.RefitPass {
		t.Errorf("config %+v", c)
	}
	if m.Dim() != 16 || m.Classes() != 4 || !m.Done() || !m.Refitted() || len(m.ResidualChoice().Grid) != 3 {
		t.Errorf("model: n %d q %d done %t refitted %t choice %+v", m.Dim(), m.Classes(), m.Done(), m.Refitted(), m.ResidualChoice())
	}
	X := mat.NewDense(len(g.X), 16, nil)
	for i, row := range g.X {
		copy(X.RawRowView(i), row)
	}
	S, err := m.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range g.Scores {
		for c, v := range want {
			if got := S.At(i, c); math.Abs(got-v) > 1e-12*(1+math.Abs(v)) {
				t.Fatalf("score (%d, %d) = %v, the version 6 oddl computed %v", i, c, got, v)
			}
		}
		if p := argmax(S.RawRowView(i)); p != argmax(want) {
			t.Fatalf("sample %d: class %d, the version 6 oddl predicted %d", i, p, argmax(want))
		}
	}
	ev, err := m.Evaluate(X, g.Labels)
	if err != nil {
		t.Fatal(err)
	}
	if ev.ErrorRate > 0.5 {
		t.Errorf("error rate %v on planted data", ev.ErrorRate)
	}
}
