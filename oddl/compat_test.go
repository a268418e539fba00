package oddl

import (
	"encoding/json"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLoadVersion6 loads a model file of version 6, the last version that
// stored the BLAS backend and the thread count, written by the oddl of that
// version: a model trained (gonum backend, one thread) on planted data with
// K = 24, L = 3, q = 4, n = 16 (the first 600 of 640 samples), its residual
// weight chosen on the training samples. testdata/model-v6.json holds the
// other 40 samples, their labels and the scores that oddl computed for them; the file must load into the same model and give the
// same scores bit for bit on the same backend.
func TestLoadVersion6(t *testing.T) {
	m, err := Load("testdata/model-v6.oddl")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetRuntime("gonum", 1); err != nil {
		t.Fatal(err)
	}
	checkVersion6(t, m)
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
			if got := S.At(i, c); got != v {
				t.Fatalf("score (%d, %d) = %v, the version 6 oddl computed %v", i, c, got, v)
			}
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
