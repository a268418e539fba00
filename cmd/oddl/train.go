package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{
		name:  "train",
		short: "learn a dictionary and classifier (ODDL) and report the test error",
		run:   runTrain,
	})
}

// trainReport is the JSON object of "oddl train -json" (job.Report).
type trainReport struct{ job.Report }

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
	res, err := f.run(stderr)
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(stdout, res.Report)
	}
	// A write error is the checked standard output's to report.
	_ = res.WriteText(stdout)
	return nil
}

// run does the work of train with the flags parsed: it checks them, reads
// the data and makes one job.Run. oddl select and oddl reproduce -table
// stream call it for each of their runs.
func (f *trainFlags) run(stderr io.Writer) (res *job.Result, err error) {
	if _, err := f.check(); err != nil {
		return nil, err
	}
	if err := sameInput("-resume", f.resume, "-data", f.data.paths()); err != nil {
		return nil, err
	}
	if f.out != "" {
		// One writer per model, locked before -resume reads it.
		release, err := lockModel("-o", f.out)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	model, addEpochs, err := f.resumeModel()
	if err != nil {
		return nil, err
	}
	tooLarge, err := f.checkResources(model != nil)
	if err != nil {
		return nil, err
	}
	stop, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		return nil, err
	}
	defer stop(&err)
	train, test, err := f.data.loadSamples(f.cfg.Seed)
	if err != nil {
		return nil, tooLarge(err)
	}
	if model == nil && train.NumClasses() < 2 {
		// A classifier of one class answers without looking: most often
		// the label column is not the one meant.
		return nil, fmt.Errorf("data set %s: one class (%s) in %d training samples: a classifier needs two at least (is the label column the right one? see -label-column)", train.Name(), strings.Join(train.Names(), ""), train.Len())
	}
	ctx, cancel, caught := catchSignals()
	defer cancel()
	var prog *job.ProgressPrinter
	if !f.quiet {
		prog = job.NewProgressPrinter(stderr)
	}
	if !f.set["epochs"] {
		addEpochs = oddl.AutoEpochs
	}
	spec := job.Spec{Config: f.cfg, Given: f.set, Data: f.data.name, Train: train, Test: test, WithTest: f.withTest,
		Resume: model, AddEpochs: addEpochs, NewData: f.newData,
		Validate: f.validate, ValidateKeep: f.validateKeep, ValidateGrid: f.validateGrid, FoldsBelow: foldsBelow,
		Stream: f.stream.spec(), Out: f.out, Checkpoint: f.every, Backend: f.rt.blas, Threads: f.rt.threads, MaxMemory: f.mem.bytes,
		Progress: func(p oddl.Progress) {
			prog.Update(p)
			if interruptHook != nil && interruptHook(p.Batches) {
				cancel()
			}
		},
		Fitted: func(c oddl.Fitted) {
			prog.Done()
			fmt.Fprintf(stderr, "oddl train: %s (set -%s to choose)\n", c, flagOf[c.Setting])
		},
		Chose: func(k int, v oddl.Validation) {
			prog.Done()
			if c := v.Rows[v.Chosen]; !f.quiet {
				fmt.Fprintf(stderr, "oddl train: %d-fold validation chose L = %d, λ0 = %g, %s (%.2f%% of %d; best %.2f%%)\n", k, c.L, c.Lambda0, c.Rule(), 100*c.Error, c.Samples, 100*v.Rows[v.Best].Error)
			}
		},
		Trained: func(m *oddl.Model, curve []oddl.CurvePoint) error {
			prog.Done()
			return f.trained(ctx, m, curve, train.Name(), test.Present())
		},
	}
	res, err = job.Run(ctx, spec)
	prog.Done()
	if err != nil {
		return nil, f.explain(err, caught)
	}
	return res, nil
}

// settingError is a *job.SettingError in the command's words: the
// setting is its flag; a usage error when the setting must change.
func settingError(err error) error {
	var se *job.SettingError
	if !errors.As(err, &se) {
		return err
	}
	err = errors.New("-" + se.Error())
	if se.Err != nil {
		err = fmt.Errorf("-%s: %w", se.Setting, se.Err)
	}
	if se.Usage {
		return usageError{err}
	}
	return err
}

// flagOf names the flag of each setting oddl.FitToData fits.
var flagOf = map[string]string{"K": "k", "L": "l", "Epochs": "epochs", "Patches": "patches"}

// trained writes what -plot and -memprofile ask for once the model is
// trained and saved.
func (f *trainFlags) trained(ctx context.Context, m *oddl.Model, curve []oddl.CurvePoint, name string, test bool) error {
	if f.stream.plot != "" {
		cfg := m.Config()
		if err := experiments.PlotCurve(curve, f.stream.plot, fmt.Sprintf("%s, K = %d, λ0 = %g: %s", name, cfg.K, cfg.Lambda0, "validation error along the stream")); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	if f.memProfile != "" {
		runtime.GC()
		if err := safefile.Write(f.memProfile, pprof.WriteHeapProfile); err != nil {
			return fmt.Errorf("-memprofile: %w", err)
		}
	}
	if evaluateHook != nil && f.withTest && test {
		evaluateHook(ctx)
	}
	return nil
}

// explain turns an error of job.Run into the command's words: the flags to
// change, the command that resumes an interrupted run.
func (f *trainFlags) explain(err error, caught func() os.Signal) error {
	var ie *job.Interrupted
	var se *job.SettingError
	var me *job.MemoryError
	switch {
	case errors.As(err, &ie):
		return interrupted(caught(), errors.New(ie.Explain(dataArgs(f.data)+f.stream.args())))
	case errors.As(err, &se):
		return settingError(se)
	case errors.As(err, &me):
		return memoryText(me)
	case errors.Is(err, oddl.ErrNewData):
		return fmt.Errorf("%w (check -data and -limit; -resume-new-data goes on with this data on purpose)", err)
	case errors.Is(err, oddl.ErrTooFewSamples) && f.resume == "":
		return fmt.Errorf("%w (set -k below it, or leave -k out to have it chosen)", err)
	}
	return err
}
