package main

import (
	"context"
	"errors"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// samples is a training or test set of a run: byte images when its files
// hold bytes (an eighth of the memory of float64 pixels: a run then costs
// the data's bytes, a mini-batch of float64 rows at a time), else a Set.
type samples struct {
	img *dataset.Images
	set *dataset.Set
}

func (s samples) name() string {
	if s.img != nil {
		return s.img.Name
	}
	return s.set.Name
}

func (s samples) len() int {
	if s.img != nil {
		return s.img.Len()
	}
	return s.set.Len()
}

func (s samples) dim() int {
	if s.img != nil {
		return s.img.Dim()
	}
	return s.set.Dim()
}

// image returns the image size of the samples' files (rows and columns
// of an IDX header; oddl.FitImage tells whether it is one).
func (s samples) image() oddl.Shape {
	if s.img != nil {
		return oddl.Shape{Rows: s.img.Rows, Cols: s.img.Cols}
	}
	return oddl.Shape{Rows: s.set.Rows, Cols: s.set.Cols}
}

func (s samples) classes() int {
	if s.img != nil {
		return s.img.Classes
	}
	return s.set.Classes
}

// names returns the label of each class, as the data file writes it.
func (s samples) names() []string {
	if s.img != nil {
		return s.img.Names()
	}
	return s.set.Names()
}

// labels returns the class of each sample.
func (s samples) labels() []int {
	if s.img != nil {
		return s.img.Labels
	}
	return s.set.Labels
}

// toModel returns the samples with their labels as the classes of a model
// named names (a resumed model): a copy of the labels where they differ.
func (s samples) toModel(names []string) (samples, error) {
	labels, err := toModelClasses(s.name(), s.labels(), s.names(), names)
	if err != nil {
		return samples{}, err
	}
	var own []string
	if !dataset.IdentityNames(names) {
		own = names
	}
	if s.img != nil {
		c := *s.img
		c.Labels, c.Classes, c.ClassNames = labels, len(names), own
		return samples{img: &c}, nil
	}
	c := *s.set
	c.Labels, c.Classes, c.ClassNames = labels, len(names), own
	return samples{set: &c}, nil
}

// bytes is the memory the samples take.
func (s samples) bytes() int64 {
	if s.img != nil {
		return int64(len(s.img.Pix))
	}
	return 8 * int64(s.set.Len()) * int64(s.set.Dim())
}

// source returns a training source over the samples.
func (s samples) source() (oddl.Source, error) {
	if s.img != nil {
		return dataset.NewImageSource(s.img)
	}
	return dataset.NewSetSource(s.set)
}

// images returns the samples as byte images (the base of a -stream run).
func (s samples) images() (*dataset.Images, error) {
	if s.img == nil {
		return nil, errors.New("-stream needs images of one byte a pixel")
	}
	return s.img, nil
}

// evaluate is m.EvaluateSource over the samples: byte images are turned
// into float64 a block at a time.
func (s samples) evaluate(ctx context.Context, m *oddl.Model) (oddl.Evaluation, error) {
	src, err := s.source()
	if err != nil {
		return oddl.Evaluation{}, err
	}
	return m.EvaluateSource(ctx, src)
}

// loadSamples reads the data set, as byte images where its files hold
// bytes, and applies the limits and the yaleb split as load does.
func (d *dataFlags) loadSamples(seed uint64) (train, test samples, err error) {
	var tr, te *dataset.Images
	err = dataset.ErrNotBytes // streams are read once, as they come
	if !d.streamed() {
		tr, te, err = dataset.LoadImages(d.name, d.dir, d.opts...)
	}
	if errors.Is(err, dataset.ErrNotBytes) {
		trs, tes, err := d.load(seed)
		if err != nil {
			return samples{}, samples{}, err
		}
		train.set, test.set = trs, tes
		return train, test, nil
	}
	if err != nil {
		return samples{}, samples{}, err
	}
	train.img, test.img = splitAndLimit(d, seed, tr, te, tr.Labels)
	return train, test, nil
}

// present reports whether the set exists (a folder without test files has
// no test set).
func (s samples) present() bool { return s.img != nil || s.set != nil }
