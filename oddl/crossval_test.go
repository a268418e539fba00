package oddl

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

func TestCrossValidate(t *testing.T) {
	_, X, labels := planted(rand.New(rand.NewPCG(3, 3)), 24, 12, 2, 3, 120, 0.1)
	base := smallConfig(24, 2)
	base.Seed = 5
	grid := ValidationGrid{L: []int{2, 4}, Lambda0: []float64{1, 0}, ResidualWeights: []float64{0, 30}}
	v, err := CrossValidate(context.Background(), base, Given{K: true}, X, labels, 3, 4, grid, WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	if v.Folds != 4 || len(v.Rows) != 8 {
		t.Fatalf("%d folds, %d rows, want 4 and 8", v.Folds, len(v.Rows))
	}
	for i, r := range v.Rows {
		// Every row is scored on every training sample once.
		if r.Samples != 120 || r.Errors < 0 || r.Errors > 120 || math.Abs(r.Error-float64(r.Errors)/120) > 1e-12 {
			t.Errorf("row %d: %d errors of %d samples, rate %v", i, r.Errors, r.Samples, r.Error)
		}
	}
	// The grid's order: L slowest, β fastest.
	if r := v.Rows[5]; r.L != 4 || r.Lambda0 != 1 || r.ResidualWeight != 30 {
		t.Errorf("row 5 is %+v, want L 4, λ0 1, β 30", r)
	}
	best, chosen := v.Rows[v.Best], v.Rows[v.Chosen]
	se := math.Sqrt(best.Error * (1 - best.Error) / 120)
	if v.Chosen > v.Best || chosen.Error > best.Error+se {
		t.Errorf("chosen row %d (%.3f) is not the first within one standard error of the best %d (%.3f)", v.Chosen, chosen.Error, v.Best, best.Error)
	}
	for i := range v.Chosen {
		if v.Rows[i].Error <= best.Error+se {
			t.Errorf("row %d (%.3f) is within one standard error and before the chosen %d", i, v.Rows[i].Error, v.Chosen)
		}
	}
	c := v.Apply(base, grid)
	if c.L != chosen.L || c.Lambda0 != chosen.Lambda0 || c.ResidualWeight != chosen.ResidualWeight || c.K != base.K {
		t.Errorf("Apply gave L %d λ0 %g β %g K %d for row %+v", c.L, c.Lambda0, c.ResidualWeight, c.K, chosen)
	}
	// The same data and seed give the same validation.
	w, err := CrossValidate(context.Background(), base, Given{K: true}, X, labels, 3, 4, grid, WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	for i := range v.Rows {
		if v.Rows[i] != w.Rows[i] {
			t.Errorf("row %d differs between two runs: %+v, %+v", i, v.Rows[i], w.Rows[i])
		}
	}
	// Bad input: a clear error.
	if _, err := CrossValidate(context.Background(), base, Given{}, X, labels, 3, 1, grid); err == nil {
		t.Error("1 fold accepted")
	}
	if _, err := CrossValidate(context.Background(), base, Given{}, X, labels[:10], 3, 4, grid); err == nil {
		t.Error("10 labels for 120 samples accepted")
	}
}
