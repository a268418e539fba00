package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
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
	// Folds is k of a k-fold cross-validation (0: one hold-out); Rows
	// its settings with their errors pooled over the folds, BestRow the
	// lowest and ChosenRow the one kept.
	Folds     int                  `json:"folds,omitempty"`
	Rows      []oddl.ValidationRow `json:"rows,omitempty"`
	BestRow   int                  `json:"best_row,omitempty"`
	ChosenRow int                  `json:"chosen_row,omitempty"`
	// Retrained says the model was trained again, on all the training
	// samples, with the settings chosen.
	Retrained bool `json:"retrained"`
}

// foldsBelow is selection.FoldsBelow (the tests lower it).
var foldsBelow = selection.FoldsBelow

// useFolds says whether -validate cross-validates a new model's n
// training samples by folds rather than one hold-out.
func (f *trainFlags) useFolds(n int) bool {
	return f.resume == "" && !f.stream.on() && selection.Folds(f.validate, n, foldsBelow) > 0
}

// validationGrid returns the grid of k-fold -validate: -validate-grid, or
// oddl.DefaultValidationGrid without the settings whose flags were given
// (an explicit flag always wins).
func (f *trainFlags) validationGrid() (oddl.ValidationGrid, error) {
	if strings.TrimSpace(f.validateGrid) == "" {
		g := oddl.DefaultValidationGrid(f.cfg)
		if f.set["l"] {
			g.L = nil
		}
		if f.set["lambda0"] {
			g.Lambda0 = nil
		}
		if f.set["residual-weight"] || f.set["collaborative"] {
			g.ResidualWeights, g.Collaborative = []float64{f.cfg.ResidualWeight}, nil
		}
		if f.set["patches"] {
			g.Patches = nil
		}
		return g, nil
	}
	var g oddl.ValidationGrid
	if strings.TrimSpace(f.validateGrid) == "residual-weight" {
		g.ResidualWeights = oddl.DefaultResidualGrid()
		if f.set["residual-weight"] {
			g.ResidualWeights = []float64{f.cfg.ResidualWeight}
		}
		return g, nil
	}
	dims, err := selection.ParseGrid(f.validateGrid)
	if err != nil {
		return g, err
	}
	for _, d := range dims {
		if f.set[d.Name] {
			return g, fmt.Errorf("%s is given as -%s too", d.Name, d.Name)
		}
		one, err := selection.ValidationGrid([]selection.Dim{d})
		if err != nil {
			return g, err
		}
		g.K, g.L = append(g.K, one.K...), append(g.L, one.L...)
		g.Lambda0, g.ResidualWeights = append(g.Lambda0, one.Lambda0...), append(g.ResidualWeights, one.ResidualWeights...)
		g.Collaborative = append(g.Collaborative, one.Collaborative...)
	}
	if len(g.ResidualWeights) == 0 {
		g.ResidualWeights = []float64{f.cfg.ResidualWeight}
	}
	return g, nil
}

// chooseSmall says whether a new model of n training samples chooses its
// representation and prediction rule on folds (oddl.ChooseSmall): a small
// set (oddl.IsSmall) trained without -validate, -stream, or flags that fix
// both.
func (f *trainFlags) chooseSmall(model *oddl.Model, n int) bool {
	if model != nil || f.validate > 0 || f.stream.on() || !oddl.IsSmall(f.cfg, n) {
		return false
	}
	g := f.smallGrid()
	return len(g.ResidualWeights)+len(g.Collaborative) > 1 || len(g.Patches) > 1
}

// smallGrid returns oddl.SmallGrid without what the flags fixed.
func (f *trainFlags) smallGrid() oddl.ValidationGrid {
	g := oddl.SmallGrid(f.base)
	if f.set["residual-weight"] || f.set["collaborative"] {
		g.ResidualWeights, g.Collaborative = nil, nil
	}
	if f.set["patches"] {
		g.Patches = nil
	}
	return g
}

// chooseSmall chooses a small set's representation and prediction rule by
// oddl.RuleFolds-fold cross-validation on its training samples, as
// oddl.ChooseSmall does, and sets them for the training that follows.
func (r *trainSession) chooseSmall(d *trainData, stderr io.Writer) (*validationReport, error) {
	f := r.f
	return r.crossValidateGrid(d, f.smallGrid(), min(oddl.RuleFolds, d.train.len()), stderr)
}

// crossValidate chooses a new model's settings by k-fold
// cross-validation on its training samples (oddl.CrossValidate) and
// sets them, fitted to the whole set, for the training that follows.
func (r *trainSession) crossValidate(d *trainData, stderr io.Writer) (*validationReport, error) {
	f := r.f
	grid, err := f.validationGrid()
	if err != nil {
		return nil, usageError{fmt.Errorf("-validate-grid: %w", err)}
	}
	return r.crossValidateGrid(d, grid, selection.Folds(f.validate, d.train.len(), foldsBelow), stderr)
}

// crossValidateGrid compares grid by k-fold cross-validation and sets the
// chosen settings, fitted to the whole set.
func (r *trainSession) crossValidateGrid(d *trainData, grid oddl.ValidationGrid, k int, stderr io.Writer) (*validationReport, error) {
	f := r.f
	X, labels := d.train.dense()
	var err error
	v, err := oddl.CrossValidate(r.ctx, f.base, f.given(), X, labels, d.train.classes(), k, grid, oddl.WithBackend(f.rt.blas), oddl.WithThreads(f.rt.threads))
	if err != nil {
		if r.ctx.Err() != nil {
			return nil, interrupted(r.caught(), errors.New("interrupted while validating; nothing saved"))
		}
		return nil, r.trainError(err)
	}
	g := f.given()
	g.K = g.K || len(grid.K) > 0
	g.L = g.L || len(grid.L) > 0
	g.Patches = g.Patches || len(grid.Patches) > 0
	info, err := f.dataInfo(d.train)
	if err != nil {
		return nil, err
	}
	f.cfg, _ = oddl.FitToData(v.Apply(f.base, grid), info.Size, g)
	f.cfg.L = min(f.cfg.L, f.cfg.K)
	if d.src, err = d.train.source(); err != nil {
		return nil, err
	}
	c := v.Rows[v.Chosen]
	if !f.quiet {
		fmt.Fprintf(stderr, "oddl train: %d-fold validation chose L = %d, λ0 = %g, %s (%.2f%% of %d; best %.2f%%)\n", k, c.L, c.Lambda0, c.Rule(), 100*c.Error, c.Samples, 100*v.Rows[v.Best].Error)
	}
	beta := c.ResidualWeight
	rep := &validationReport{Fraction: f.validate, Samples: c.Samples, Error: c.Error, Folds: k, Rows: v.Rows, BestRow: v.Best, ChosenRow: v.Chosen, Retrained: true}
	if len(grid.ResidualWeights) > 1 {
		rep.Chosen = &beta
	}
	return rep, nil
}

// retrainAll trains the model again on all the training samples (those
// -validate held out included) with the residual weight chosen on the
// hold-out, as -validate does unless -validate-keep.
func (r *trainSession) retrainAll(d *trainData, v *validationReport, addEpochs int, stderr io.Writer) (time.Duration, error) {
	f := r.f
	beta := r.model.Config().ResidualWeight
	f.cfg = f.base
	f.cfg.ResidualWeight = beta
	if err := f.fitDefaults(d.all); err != nil {
		return 0, err
	}
	d.train, d.held = d.all, samples{}
	var err error
	if d.src, err = d.train.source(); err != nil {
		return 0, err
	}
	r.model = nil
	elapsed, _, err := r.train(d, addEpochs, stderr)
	if err != nil {
		return elapsed, err
	}
	v.Retrained = true
	return elapsed, nil
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
