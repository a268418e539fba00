package main

import (
	"context"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// samples is a training or test set of a run (dataset.Samples): byte
// images when its files hold bytes, so that a run costs the data's bytes
// and a mini-batch of float64 rows at a time.
type samples = dataset.Samples

// imageOf returns the image size of the samples' files (oddl.FitImage
// tells whether it is one).
func imageOf(s samples) oddl.Shape {
	r, c := s.Shape()
	return oddl.Shape{Rows: r, Cols: c}
}

// toModel returns the samples with their labels as the classes of a model
// named names (a resumed model): dataset.Samples.ToClasses.
func toModel(s samples, names []string) (samples, error) { return s.ToClasses(names) }

// sourceOf returns a training source over the samples (job.Source).
func sourceOf(s samples) (oddl.Source, error) { return job.Source(s) }

// evaluateOn is m.EvaluateSource over the samples: byte images are turned
// into float64 a block at a time.
func evaluateOn(ctx context.Context, s samples, m *oddl.Model) (oddl.Evaluation, error) {
	src, err := sourceOf(s)
	if err != nil {
		return oddl.Evaluation{}, err
	}
	return m.EvaluateSource(ctx, src)
}
