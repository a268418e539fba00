package oddl

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestChooseResidualWeight(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	_, X, labels := planted(rng, 40, 30, 3, 4, 1400, 0.05)
	trX := X.Slice(0, 1000, 0, 30).(*mat.Dense)
	vaX := X.Slice(1000, 1400, 0, 30).(*mat.Dense)
	m, err := Train(context.Background(), smallConfig(24, 3), mustSource(t, trX, labels[:1000], 4))
	if err != nil {
		t.Fatal(err)
	}
	if ch := m.ResidualChoice(); ch.Samples != 0 || ch.Grid != nil {
		t.Fatalf("a model not chosen on data records %+v", ch)
	}
	grid := []float64{30, 0, 10}
	ch, err := m.ChooseResidualWeight(context.Background(), vaX, labels[1000:], grid, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ch.Grid, []float64{0, 10, 30}) || len(ch.Errors) != 3 || ch.Samples != 400 || ch.Fraction != 0.25 {
		t.Fatalf("choice %+v", ch)
	}
	// Each error is the model's error with that weight.
	for i, b := range ch.Grid {
		mb, _ := m.MarshalBinary()
		var copyM Model
		if err := copyM.UnmarshalBinary(mb); err != nil {
			t.Fatal(err)
		}
		copyM.SetResidualWeight(b)
		ev, _ := copyM.Evaluate(vaX, labels[1000:])
		if ev.ErrorRate != ch.Errors[i] {
			t.Errorf("β %v: recorded error %v, evaluated %v", b, ch.Errors[i], ev.ErrorRate)
		}
	}
	// The rule: the smallest β within one standard error of the best.
	best := slices.Min(ch.Errors)
	se := math.Sqrt(best * (1 - best) / 400)
	var want float64
	for i, e := range ch.Errors {
		if e <= best+se {
			want = ch.Grid[i]
			break
		}
	}
	if ch.Chosen != want || m.Config().ResidualWeight != want {
		t.Errorf("chosen %v (model %v), want %v from errors %v", ch.Chosen, m.Config().ResidualWeight, want, ch.Errors)
	}
	// Saved and loaded with the model; a weight set by hand clears it.
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if got := back.ResidualChoice(); !slices.Equal(got.Grid, ch.Grid) || !slices.Equal(got.Errors, ch.Errors) || got.Chosen != ch.Chosen || got.Samples != 400 {
		t.Errorf("loaded choice %+v, saved %+v", got, ch)
	}
	if err := back.SetResidualWeight(5); err != nil {
		t.Fatal(err)
	}
	if got := back.ResidualChoice(); got.Grid != nil {
		t.Errorf("after SetResidualWeight the choice is still %+v", got)
	}
	// Bad calls.
	if _, err := m.ChooseResidualWeight(context.Background(), vaX, labels[1000:], []float64{}, 0); err == nil {
		t.Error("an empty grid accepted")
	}
	if _, err := m.ChooseResidualWeight(context.Background(), vaX, labels[1000:], []float64{-1}, 0); err == nil {
		t.Error("a negative weight accepted")
	}
	if _, err := m.ChooseResidualWeight(context.Background(), vaX, labels[1000:], nil, 1); err == nil {
		t.Error("fraction 1 accepted")
	}
	var zero Model
	if _, err := zero.ChooseResidualWeight(context.Background(), vaX, labels[1000:], nil, 0); !errors.Is(err, ErrEmptyModel) {
		t.Errorf("zero model: %v", err)
	}
}
