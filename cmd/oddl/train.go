package main

import (
	"context"
	"fmt"
	"io"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{
		name:  "train",
		short: "learn a dictionary and classifier (ODDL) and report the test error",
		run:   runTrain,
	})
}

// trainReport is the JSON object of "oddl train -json".
type trainReport struct {
	Dataset string `json:"dataset"`
	// The model's settings (the residual weight the one it ends with).
	oddl.Settings
	Backend          string   `json:"backend"`
	Threads          int      `json:"threads"`
	TrainSeconds     float64  `json:"train_seconds"`
	SamplesPerSecond float64  `json:"samples_per_second"`
	Times            timesRep `json:"times"`
	// JointUpdates is the number of joint (discriminative) mini-batch
	// updates the model has made.
	JointUpdates int64    `json:"joint_updates"`
	TestError    *float64 `json:"test_error"`
	TestErrors   int      `json:"test_errors"`
	NTrain       int      `json:"n_train"`
	NTest        int      `json:"n_test"`
	Model        string   `json:"model,omitempty"`
	Resumed      bool     `json:"resumed"`
	// Classes names the model's classes: the labels of the training data.
	Classes []string `json:"classes,omitempty"`
	// PeakRSS is the process's peak resident memory, in bytes (0 where
	// the system does not tell).
	PeakRSS int64 `json:"peak_rss_bytes"`
	// Stream describes a -stream run.
	Stream *streamReport `json:"stream,omitempty"`
	// Validation reports the held-out training samples of -validate (or
	// of -stream).
	Validation *validationReport `json:"validation,omitempty"`
}

// streamReport is the part of the report of a -stream run.
type streamReport struct {
	Samples     int                 `json:"samples"`
	Deformation dataset.Deformation `json:"deformation"`
	NValidation int                 `json:"n_validation"`
	Curve       []oddl.CurvePoint   `json:"curve"`
}

// timesRep is the time split in seconds.
type timesRep struct {
	Init       float64 `json:"init"`
	Read       float64 `json:"read"`
	Coding     float64 `json:"coding"`
	Statistics float64 `json:"statistics"`
	Update     float64 `json:"update"`
	Refit      float64 `json:"refit"`
}

func secondsOf(t oddl.Times) timesRep {
	return timesRep{t.Init.Seconds(), t.Read.Seconds(), t.Coding.Seconds(), t.Statistics.Seconds(), t.Update.Seconds(), t.Refit.Seconds()}
}

// interruptHook, when set (by tests), is asked after every mini-batch
// whether to act as if the user pressed Ctrl-C.
var interruptHook func(batches int64) bool

// evaluateHook, when set (by tests), is called with the run's context just
// before the final evaluation.
var evaluateHook func(ctx context.Context)

func runTrain(args []string, stdout, stderr io.Writer) error {
	f, err := parseTrainFlags(args, stderr)
	if err != nil {
		return err
	}
	rep, res, err := f.run(stderr)
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(stdout, rep)
	}
	printTrainReport(stdout, rep, res.model, res.data, f)
	return nil
}

// trainResult is what a training run leaves besides its report: the model
// and the data, for the summary.
type trainResult struct {
	model *oddl.Model
	data  *trainData
}

// run does the work of train with the flags parsed: oddl select and
// oddl reproduce -table stream call it for each of their runs.
func (f *trainFlags) run(stderr io.Writer) (rep trainReport, res trainResult, err error) {
	backendName, err := f.check()
	if err != nil {
		return rep, res, err
	}
	if err := sameInput("-resume", f.resume, "-data", f.data.paths()); err != nil {
		return rep, res, err
	}
	if f.out != "" {
		// One writer per model, locked before -resume reads it.
		release, err := lockModel("-o", f.out)
		if err != nil {
			return rep, res, err
		}
		defer release()
	}
	model, addEpochs, err := f.resumeModel()
	if err != nil {
		return rep, res, err
	}
	tooLarge, err := f.checkResources(model != nil)
	if err != nil {
		return rep, res, err
	}
	stop, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		return rep, res, err
	}
	defer stop(&err)

	d, err := f.loadData(model, tooLarge, stderr)
	if err != nil {
		return rep, res, err
	}
	ctx, cancel, caught := catchSignals()
	defer cancel()
	r := &trainSession{f: f, ctx: ctx, cancel: cancel, caught: caught, model: model}
	var vrep *validationReport
	if model == nil && f.validate > 0 && !d.held.Present() {
		// k-fold: the settings are chosen first, then trained on all rows.
		if vrep, err = r.crossValidate(d, stderr); err != nil {
			return rep, res, err
		}
	} else if f.chooseSmall(model, d.train) {
		// A small set: the representation and the rule chosen on folds.
		if vrep, err = r.chooseSmall(d, stderr); err != nil {
			return rep, res, err
		}
	}
	elapsed, seen0, err := r.train(d, addEpochs, stderr)
	if err != nil {
		return rep, res, err
	}
	if vrep == nil {
		if vrep, err = r.validate(d); err != nil {
			return rep, res, err
		}
	}
	if vrep != nil && d.held.Present() && d.tr == nil && model == nil && !f.validateKeep {
		// The chosen β on a model of all the training rows.
		more, err := r.retrainAll(d, vrep, addEpochs, stderr)
		if err != nil {
			return rep, res, err
		}
		elapsed += more
	}
	for _, n := range f.notes {
		fmt.Fprintln(stderr, n)
	}
	if err := r.finish(d); err != nil {
		return rep, res, err
	}
	rep = f.report(r.model, d, backendName, elapsed, seen0)
	if err := r.test(d, &rep); err != nil {
		return rep, res, err
	}
	rep.JointUpdates = r.model.JointUpdates()
	rep.PeakRSS = membudget.PeakRSS()
	rep.Validation = vrep
	rep.ResidualWeight = r.model.Config().ResidualWeight
	return rep, trainResult{model: r.model, data: d}, nil
}
