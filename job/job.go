// Package job runs a whole training the way the oddl command does, as one
// call: the data-fitted defaults, a fresh training or the continuation
// of a saved model, the choice of settings on held-out training samples
// (one hold-out or k folds, then the chosen settings trained on all the
// rows), a stream of deformed images tracked on its validation images,
// checkpoints, the memory check, and the test evaluation, with the report
// the command prints.
//
// Package oddl is the learner and knows nothing of data sets; this package
// sits above it and package dataset, and is what a Go program calls to get
// the command's model and figures:
//
//	res, err := job.Run(ctx, job.Spec{Config: oddl.DefaultConfig(), Data: "mnist", Train: train, Test: test, WithTest: true})
//
// BindTrain binds all of the command's train flags to a Spec, with the
// checks between them, and Select is "oddl select": a grid of train
// flags, each combination trained on the training set less a held-out
// share and compared on it.
package job

import (
	"fmt"
	"math"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// Spec is what a run does.
type Spec struct {
	// Config holds the settings of a new model; those not in Given are
	// fitted to the data (oddl.FitImage, oddl.FitToData). With Resume it
	// is not used: the model keeps its own.
	Config oddl.Config
	// Given names the settings chosen by the caller, by the names of
	// the command's flags (k, l, lambda0, epochs, preprocess, patches,
	// residual-weight, collaborative): they are neither fitted to the
	// data nor searched, since an explicit choice always wins.
	Given selection.Fixed
	// Data names the data set (mnist and usps are deskewed by default,
	// oddl.DataInfo).
	Data string
	// Train and Test are the samples; Test may be absent.
	Train, Test dataset.Samples
	// WithTest asks for the test error (when Test is present).
	WithTest bool

	// Resume is a saved model to go on training (nil: a new model); its
	// runtime is the caller's to set. AddEpochs is the passes to add to
	// it (oddl.AutoEpochs: finish those it has), and NewData allows a
	// training set other than the one it started on (oddl.WithNewData).
	Resume    *oddl.Model
	AddEpochs int
	NewData   bool

	// Validate is the share of the training set held out to choose
	// settings on (0: none): by k = 1/Validate folds when the held-out
	// share is under FoldsBelow samples (the grid of ValidateGrid,
	// selection.GridFor), else one hold-out choosing the residual
	// weight. The chosen settings are trained again on all the rows
	// unless ValidateKeep (one hold-out only).
	Validate     float64
	ValidateKeep bool
	ValidateGrid string
	// FoldsBelow is the held-out size under which Validate uses folds
	// (0: selection.FoldsBelow).
	FoldsBelow int

	// Stream, when set, trains on one pass over deformed training images
	// instead of the training set.
	Stream *Stream

	// Out is where the model is saved at the end, at the checkpoints
	// (every Checkpoint mini-batches, 0: none) and when the context is
	// cancelled during training ("": nowhere).
	Out        string
	Checkpoint int

	// Backend and Threads are oddl.WithBackend and oddl.WithThreads of a
	// new model.
	Backend string
	Threads int
	// MaxMemory is the memory the run may plan to use, in bytes (0: what
	// the machine has available). A run above it fails with a
	// *MemoryError before it trains.
	MaxMemory int64

	// Progress, when set, is called as training goes (oddl.WithProgress).
	Progress func(oddl.Progress)
	// Fitted, when set, is told each setting fitted to the data, once
	// training has accepted them.
	Fitted func(oddl.Fitted)
	// Chose, when set, is told the choice of a k-fold validation.
	Chose func(folds int, v oddl.Validation)
	// Trained, when set, is called with the final model once it is saved
	// and before the test evaluation, with the stream's validation
	// curve (nil without Stream); its error ends the run.
	Trained func(m *oddl.Model, curve []oddl.CurvePoint) error
}

// Stream is a pass over deformed training images (dataset.NewDeformSource),
// tracked on validation images held out of the training images.
type Stream struct {
	// Samples is the length of the pass.
	Samples     int
	Deformation dataset.Deformation
	// Validation is the number of training images held out (a seeded
	// draw) to measure the error on, every Every samples (0: twenty
	// times a pass).
	Validation int
	Every      int
}

// Report is what a run did: the JSON object of "oddl train -json".
type Report struct {
	Dataset string `json:"dataset"`
	// The model's settings (the residual weight the one it ends with).
	oddl.Settings
	Backend          string  `json:"backend"`
	Threads          int     `json:"threads"`
	TrainSeconds     float64 `json:"train_seconds"`
	SamplesPerSecond float64 `json:"samples_per_second"`
	Times            Times   `json:"times"`
	// JointUpdates is the number of joint (discriminative) mini-batch
	// updates the model has made.
	JointUpdates int64    `json:"joint_updates"`
	TestError    *float64 `json:"test_error"`
	TestErrors   int      `json:"test_errors"`
	// BaselineError is the test error of naming the training set's most
	// frequent class (BaselineClass) for every test sample: what a model
	// that learned nothing from the values gets, so that a test error near
	// it reads as one.
	BaselineError *float64 `json:"baseline_error,omitempty"`
	BaselineClass string   `json:"baseline_class,omitempty"`
	// TrainBaselineError is the error of naming that class for every
	// training sample, the share of the others (given with a validation,
	// whose stratified held-out samples have about that share too).
	TrainBaselineError *float64 `json:"train_baseline_error,omitempty"`
	// AtBaseline is set when the validation's error is no lower than
	// TrainBaselineError: the chosen setting did not beat naming the most
	// frequent class on held-out training samples, so the model has
	// likely learned nothing that carries over (too few rows, or values
	// that do not tell the classes apart), and the report says so.
	AtBaseline bool   `json:"at_baseline,omitempty"`
	NTrain     int    `json:"n_train"`
	NTest      int    `json:"n_test"`
	Model      string `json:"model,omitempty"`
	Resumed    bool   `json:"resumed"`
	// Classes names the model's classes: the labels of the training data.
	Classes []string `json:"classes,omitempty"`
	// LookAlikeClasses lists the groups of classes whose names differ
	// only in letter case (dataset.LookAlike): kept as different classes,
	// and the report warns of them, as they are more often one class
	// written two ways.
	LookAlikeClasses [][]string `json:"look_alike_classes,omitempty"`
	// UntrainedClasses names the classes without a training sample — the
	// classes of a data set are the labels of its training and test parts
	// together, so a label of the test part alone is one — which the
	// model never predicts; the report warns of them (not for a resumed
	// model, whose new data need not have every class).
	UntrainedClasses []string `json:"untrained_classes,omitempty"`
	// SingleSampleClasses counts the classes with one training sample.
	// Where they are more than half of the classes the report warns:
	// most often the label column is a measurement or an identifier
	// rather than the classes (one-shot sets have them by design).
	SingleSampleClasses int `json:"single_sample_classes,omitempty"`
	// FractionalLabels counts the class labels that are numbers with a
	// fractional part, every label being a number
	// (dataset.FractionalLabels): each value is a class, and the report
	// warns, as such labels are more often a measurement than classes.
	FractionalLabels int `json:"fractional_labels,omitempty"`
	// TestInTraining counts the test samples that have exactly the values
	// of a training sample (dataset.SharedRows). Where they are half of
	// the test samples or more the report warns that the test error is
	// not that of new data (the training file given again as the test
	// file, or a test file cut from the training rows); tables of few
	// distinct values share some rows between any two parts.
	TestInTraining int `json:"test_in_training,omitempty"`
	// MissingMarkerClasses lists the classes whose label is a common
	// mark of a missing value (dataset.MissingMarkers: `?`, `NA`, `NaN`,
	// `null`, …) with their training samples: a class here, as any word
	// is, and the report warns, as such labels are more often missing.
	MissingMarkerClasses []LabelCount `json:"missing_marker_classes,omitempty"`
	// RowNumberColumns lists the value columns of a training table that
	// number its rows (dataset.Set.RowNumberColumns): learned from as
	// values, though they tell nothing of a sample; the report warns.
	RowNumberColumns []RowNumberColumn `json:"row_number_columns,omitempty"`
	// PeakRSS is the process's peak resident memory, in bytes (0 where
	// the system does not tell).
	PeakRSS int64 `json:"peak_rss_bytes"`
	// Stream describes a Stream run.
	Stream *StreamReport `json:"stream,omitempty"`
	// Validation reports the held-out training samples of Validate (or
	// of Stream).
	Validation *selection.Report `json:"validation,omitempty"`
}

// LabelCount is a label and its number of training samples.
type LabelCount struct {
	Label   string `json:"label"`
	Samples int    `json:"samples"`
}

// RowNumberColumn names a value column: its place among the value
// columns (1-based, the label column left out) and its header name, if
// the file has a header.
type RowNumberColumn struct {
	Column int    `json:"column"`
	Name   string `json:"name,omitempty"`
}

// StreamReport is the part of the report of a Stream run.
type StreamReport struct {
	Samples     int                 `json:"samples"`
	Deformation dataset.Deformation `json:"deformation"`
	NValidation int                 `json:"n_validation"`
	Curve       []oddl.CurvePoint   `json:"curve"`
}

// Times is the time split of oddl.Times in seconds.
type Times struct {
	Init       float64 `json:"init"`
	Read       float64 `json:"read"`
	Coding     float64 `json:"coding"`
	Statistics float64 `json:"statistics"`
	Update     float64 `json:"update"`
	Refit      float64 `json:"refit"`
}

func secondsOf(t oddl.Times) Times {
	return Times{t.Init.Seconds(), t.Read.Seconds(), t.Coding.Seconds(), t.Statistics.Seconds(), t.Update.Seconds(), t.Refit.Seconds()}
}

// Result is a run's report with its model and the shape of the samples it
// was trained on.
type Result struct {
	Report Report
	Model  *oddl.Model
	// Dim and Classes are the training samples' dimension and number of
	// classes.
	Dim, Classes int
}

// MaxStream bounds Stream.Samples: a pass of 2⁴⁰ samples is years of
// computing, and the count stays far from overflowing the model's
// counters; a 32-bit build is bounded by its int (2³¹ − 1 samples).
const MaxStream = min(1<<40, math.MaxInt)

// Check checks the stream's counts; its errors are usage *SettingErrors
// naming them as the command's flags do (stream, val, val-every).
func (s *Stream) Check() error {
	switch {
	case s.Samples < 1:
		return &SettingError{Setting: "stream", Msg: fmt.Sprintf("%d: need a count ≥ 1", s.Samples), Usage: true}
	case int64(s.Samples) > MaxStream:
		return &SettingError{Setting: "stream", Msg: fmt.Sprintf("%d: at most %d", s.Samples, int64(MaxStream)), Usage: true}
	case s.Validation < 1:
		return &SettingError{Setting: "val", Msg: fmt.Sprintf("%d: need at least one validation image", s.Validation), Usage: true}
	case s.Every < 0:
		return &SettingError{Setting: "val-every", Msg: fmt.Sprintf("%d: need a count ≥ 0", s.Every), Usage: true}
	}
	return nil
}
