package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// trainData is the data of a run: what it trains on, what it holds out
// and what it tests on.
type trainData struct {
	train, held, test samples
	all               samples // the training samples before -validate held some out
	src               oddl.Source
	tr                *oddl.Tracker // the validation tracker of -stream
	trVal             samples       // its held-out images
}

// loadData reads the data set, checks its memory, holds out -validate's
// share, adapts the size-dependent defaults to it (for a new model) or
// maps its labels to the model's classes (resumed), and makes the
// training source.
func (f *trainFlags) loadData(model *oddl.Model, tooLarge func(error) error, stderr io.Writer) (*trainData, error) {
	train, test, err := f.data.loadSamples(f.cfg.Seed)
	if err != nil {
		return nil, tooLarge(err)
	}
	if model == nil && train.NumClasses() < 2 {
		// A classifier of one class answers without looking: most often
		// the label column is not the one meant.
		return nil, fmt.Errorf("data set %s: one class (%s) in %d training samples: a classifier needs two at least (is the label column the right one? see -label-column)", train.Name(), strings.Join(train.Names(), ""), train.Len())
	}
	loaded := train.Bytes()
	if test.Present() {
		loaded += test.Bytes()
	}
	d := &trainData{train: train, test: test}
	if model != nil {
		if d.train, err = toModel(train, model.ClassNames()); err != nil {
			return nil, err
		}
		if test.Present() {
			if d.test, err = toModel(test, model.ClassNames()); err != nil {
				return nil, err
			}
		}
	}
	d.all = d.train
	if f.validate > 0 && (model != nil || !f.useFolds(d.train.Len())) {
		if d.train, d.held, err = holdOut(d.train, f.validate, f.cfg.Seed); err != nil {
			return nil, err
		}
	}
	if model == nil {
		if err := f.fitDefaults(d.train); err != nil {
			return nil, err
		}
	}
	held := loaded
	if !f.stream.on() {
		held += f.cfg.FrontCacheBytes(d.train.Len())
	}
	if err := f.mem.checkTraining(f.cfg, f.rt.threads, train.Dim(), train.NumClasses(), held, model != nil); err != nil {
		return nil, err
	}
	// Settings that do not fit on their own are named first; then the
	// folds' copies of the rows and the second model they hold.
	if model == nil && (f.useFolds(d.train.Len()) || f.chooseSmall(model, d.train)) {
		cv := held + f.cfg.CrossValidationBytes(d.train.Len(), train.Dim(), train.NumClasses(), f.rt.threads)
		if err := f.mem.checkTraining(f.cfg, f.rt.threads, train.Dim(), train.NumClasses(), cv, false); err != nil {
			return nil, err
		}
	}
	if !f.stream.on() {
		d.src, err = sourceOf(d.train)
		return d, err
	}
	imgs, err := imagesOf(d.train)
	if err != nil {
		return nil, err
	}
	var val *dataset.Images
	if d.src, val, err = f.stream.source(imgs, f.cfg.Seed); err != nil {
		return nil, err
	}
	d.trVal = samples{Images: val}
	d.tr, err = f.stream.newTracker(d.trVal)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// fitDefaults fits the settings the flags left at their defaults to the
// training set (oddl.FitImage: the image shape and, unless -preprocess
// is given, deskew for the digit sets; then oddl.FitToData: K, L and the
// passes of a small set), keeps the settings before the size fit for
// -validate's folds, and notes what it chose, said on stderr once
// training has accepted the settings (so that a refused setting gets a
// one-line error). An explicit flag always wins.
func (f *trainFlags) fitDefaults(train samples) error {
	info, err := f.dataInfo(train)
	if err != nil {
		return err
	}
	f.cfg = oddl.FitImage(f.cfg, info, f.given())
	if f.cfg.Preprocess == oddl.PreprocessDeskew && f.cfg.Image == (oddl.Shape{}) {
		return usageError{fmt.Errorf("-preprocess deskew needs images (IDX files, whose header gives their size): the samples of %s have no image size", train.Name())}
	}
	if err := f.patches.checkImage(&f.cfg, train.Name()); err != nil {
		return err
	}
	f.base = f.cfg
	var fitted []oddl.Fitted
	f.cfg, fitted = oddl.FitToData(f.cfg, info.Size, f.given())
	f.notes = f.notes[:0]
	for _, c := range fitted {
		f.notes = append(f.notes, fmt.Sprintf("oddl train: %s (set -%s to choose)", c, flagOf[c.Setting]))
	}
	return nil
}

// flagOf names the flag of each setting FitToData fits.
var flagOf = map[string]string{"K": "k", "L": "l", "Epochs": "epochs", "Patches": "patches"}

// dataInfo describes the training samples to oddl.FitImage and
// oddl.FitToData (oddl.Describe counts them).
func (f *trainFlags) dataInfo(train samples) (oddl.DataInfo, error) {
	src, err := sourceOf(train)
	if err != nil {
		return oddl.DataInfo{}, err
	}
	size, err := oddl.Describe(src)
	return oddl.DataInfo{Name: f.data.name, Image: imageOf(train), Size: size}, err
}

// given marks the size-dependent settings whose flags were given.
func (f *trainFlags) given() oddl.Given {
	return oddl.Given{K: f.set["k"], L: f.set["l"], Epochs: f.set["epochs"], Preprocess: f.set["preprocess"], Patches: f.patches.given(f.set)}
}
