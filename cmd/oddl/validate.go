package main

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// validationReport is the part of the train report on held-out training
// samples: their error, and how the residual weight was chosen on them.
type validationReport struct {
	Fraction float64   `json:"fraction"`
	Samples  int       `json:"samples"`
	Error    float64   `json:"error"`
	Grid     []float64 `json:"residual_weight_grid,omitempty"`
	Errors   []float64 `json:"residual_weight_errors,omitempty"`
	Chosen   *float64  `json:"residual_weight_chosen,omitempty"`
}

// checkValidate checks -validate's value.
func checkValidate(f float64, stream bool) error {
	switch {
	case math.IsNaN(f) || f < 0 || f >= 1:
		return usageError{fmt.Errorf("-validate %v: want a fraction of the training set from 0 (off) to below 1", f)}
	case f > 0 && stream:
		return usageError{fmt.Errorf("-validate with -stream: the stream holds out its own validation images (-val)")}
	}
	return nil
}

// holdOut splits the training samples class by class: a seeded random
// share frac of each class is held out, the rest trains. The split is the
// same for the same data, fraction and seed.
func holdOut(train samples, frac float64, seed uint64) (rest, held samples, err error) {
	var labels []int
	if train.img != nil {
		labels = train.img.Labels
	} else {
		labels = train.set.Labels
	}
	keep, out := dataset.HoldOut(labels, frac, seed)
	if len(keep) == 0 || len(out) == 0 {
		return samples{}, samples{}, fmt.Errorf("-validate %v: the %d training samples leave nothing to hold out or to train on", frac, len(labels))
	}
	if train.img != nil {
		return samples{img: train.img.Subset(keep)}, samples{img: train.img.Subset(out)}, nil
	}
	return samples{set: train.set.Subset(keep)}, samples{set: train.set.Subset(out)}, nil
}

// dense returns the samples as a float64 matrix and their labels.
func (s samples) dense() (*mat.Dense, []int) {
	if s.img != nil {
		set := s.img.Set()
		return set.X, set.Labels
	}
	return s.set.X, s.set.Labels
}

// validate measures the model on the held-out samples and, unless fixed
// (the residual weight given on the command line), chooses the residual
// weight on them.
func validate(ctx context.Context, m *oddl.Model, held samples, frac float64, fixed bool) (*validationReport, error) {
	rep := &validationReport{Fraction: frac}
	if !fixed {
		X, labels := held.dense()
		ch, err := m.ChooseResidualWeight(ctx, X, labels, nil, frac)
		if err != nil {
			return nil, err
		}
		rep.Grid, rep.Errors, rep.Chosen = ch.Grid, ch.Errors, &ch.Chosen
	}
	ev, err := held.evaluate(ctx, m)
	if err != nil {
		return nil, err
	}
	rep.Samples, rep.Error = ev.Samples, ev.ErrorRate
	return rep, nil
}

// percents formats error rates as percentages.
func percents(v []float64) string {
	s := ""
	for i, e := range v {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.2f%%", 100*e)
	}
	return s
}
