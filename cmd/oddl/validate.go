package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// validationReport is the part of the train report on held-out training
// samples (selection.Report).
type validationReport = selection.Report

// foldsBelow is selection.FoldsBelow (the tests lower it).
var foldsBelow = selection.FoldsBelow

// useFolds says whether -validate cross-validates a new model's n
// training samples by folds rather than one hold-out.
func (f *trainFlags) useFolds(n int) bool {
	return f.resume == "" && !f.stream.on() && selection.Folds(f.validate, n, foldsBelow) > 0
}

// validationGrid returns the grid of k-fold -validate (selection.GridFor:
// an explicit flag always wins).
func (f *trainFlags) validationGrid() (oddl.ValidationGrid, error) {
	return selection.GridFor(f.validateGrid, f.cfg, f.set)
}

// chooseSmall says whether a new model of the training samples chooses its
// representation and prediction rule on folds (selection.ChoosesSmall,
// oddl.CanChooseSmall),
// trained without -validate or -stream.
func (f *trainFlags) chooseSmall(model *oddl.Model, train samples) bool {
	return model == nil && f.validate == 0 && !f.stream.on() && selection.ChoosesSmall(f.cfg, f.base, train.Len(), f.set) &&
		oddl.CanChooseSmall(f.cfg, f.given(), train.Labels(), train.NumClasses())
}

// chooseSmall chooses a small set's representation and prediction rule by
// oddl.RuleFolds-fold cross-validation on its training samples, as
// oddl.ChooseSmall does, and sets them for the training that follows.
func (r *trainSession) chooseSmall(d *trainData, stderr io.Writer) (*validationReport, error) {
	f := r.f
	return r.crossValidateGrid(d, selection.SmallGrid(f.base, f.set), min(oddl.RuleFolds, d.train.Len()), stderr)
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
	return r.crossValidateGrid(d, grid, selection.Folds(f.validate, d.train.Len(), foldsBelow), stderr)
}

// crossValidateGrid compares grid by k-fold cross-validation and sets the
// chosen settings, fitted to the whole set.
func (r *trainSession) crossValidateGrid(d *trainData, grid oddl.ValidationGrid, k int, stderr io.Writer) (*validationReport, error) {
	f := r.f
	X, labels := d.train.Dense()
	var err error
	v, err := oddl.CrossValidate(r.ctx, f.base, f.given(), X, labels, d.train.NumClasses(), k, grid, oddl.WithBackend(f.rt.blas), oddl.WithThreads(f.rt.threads))
	if err != nil {
		if r.ctx.Err() != nil {
			return nil, interrupted(r.caught(), errors.New("interrupted while validating; nothing saved"))
		}
		return nil, r.trainError(err)
	}
	info, err := f.dataInfo(d.train)
	if err != nil {
		return nil, err
	}
	f.cfg = selection.Fitted(v, f.base, f.given(), grid, info.Size)
	if d.src, err = sourceOf(d.train); err != nil {
		return nil, err
	}
	rep := selection.FoldsReport(v, grid, k, f.validate)
	c := v.Rows[v.Chosen]
	if !f.quiet {
		fmt.Fprintf(stderr, "oddl train: %d-fold validation chose L = %d, λ0 = %g, %s (%.2f%% of %d; best %.2f%%)\n", k, c.L, c.Lambda0, c.Rule(), 100*c.Error, c.Samples, 100*v.Rows[v.Best].Error)
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
	if d.src, err = sourceOf(d.train); err != nil {
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
	keep, out := dataset.HoldOut(train.Labels(), frac, seed)
	if len(keep) == 0 || len(out) == 0 {
		return samples{}, samples{}, fmt.Errorf("-validate %v: the %d training samples leave nothing to hold out or to train on", frac, train.Len())
	}
	return train.Subset(keep), train.Subset(out), nil
}

// validate measures the model on the held-out samples and, unless fixed
// (the residual weight given on the command line), chooses the residual
// weight on them (selection.HoldOut).
func validate(ctx context.Context, m *oddl.Model, held samples, frac float64, fixed bool) (*validationReport, error) {
	var X *mat.Dense
	var labels []int
	if !fixed {
		X, labels = held.Dense()
	}
	src, err := sourceOf(held)
	if err != nil {
		return nil, err
	}
	return selection.HoldOut(ctx, m, X, labels, src, frac, fixed)
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
