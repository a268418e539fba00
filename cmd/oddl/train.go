package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
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

// foldsBelow is selection.FoldsBelow (the tests lower it).
var foldsBelow = selection.FoldsBelow

// interruptHook, when set (by tests), is asked after every mini-batch
// whether to act as if the user pressed Ctrl-C.
var interruptHook func(batches int64) bool

// evaluateHook, when set (by tests), is called with the run's context just
// before the final evaluation.
var evaluateHook func(ctx context.Context)

// runTrain parses the flags (job.BindTrain), makes one job.Run with
// progress and the settings fitted on stderr, and prints the report.
func runTrain(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("train", stderr)
	f := job.BindTrain(fs)
	f.Runtime.OpenBLAS = func() { cli.WarnOpenBLAS(stderr) }
	setUsage(fs, stderr, "oddl train [flags]", fmt.Sprintf(help("train"), oddl.DefaultConfig().Lambda0))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := f.Check(); err != nil {
		return err
	}
	release, err := f.Open()
	defer release()
	if err != nil {
		return err
	}
	stop, err := startCPUProfile(f.CPUProfile)
	if err != nil {
		return err
	}
	defer stop(&err)
	train, test, err := f.Load()
	if err != nil {
		return err
	}
	if side := train.ImageSide(); side > 0 && f.Resume == "" {
		fmt.Fprintf(stderr, "oddl train: the samples look like %d×%d images (%d values a row, integers from 0 to 255): -image %dx%d trains them as images (the patch front end on 4096 samples or more; -preprocess deskew for handwriting)\n", side, side, side*side, side, side)
	}
	ctx, cancel, caught := catchSignals()
	defer cancel()
	var prog *job.ProgressPrinter
	if !f.Quiet {
		prog = job.NewProgressPrinter(stderr)
	}
	spec := f.Spec(train, test)
	spec.FoldsBelow = foldsBelow
	spec.Progress = func(p oddl.Progress) {
		prog.Update(p)
		if interruptHook != nil && interruptHook(p.Batches) {
			cancel()
		}
	}
	spec.Fitted = func(c oddl.Fitted) {
		prog.Done()
		fmt.Fprintf(stderr, "oddl train: %s (set -%s to choose)\n", c, job.FlagOf[c.Setting])
	}
	spec.Chose = func(k int, v oddl.Validation) {
		prog.Done()
		if c := v.Rows[v.Chosen]; !f.Quiet {
			how := fmt.Sprintf("%d-fold validation", k)
			if v.OneFold {
				how = fmt.Sprintf("validation on one fold of %d", k)
			}
			fmt.Fprintf(stderr, "oddl train: %s chose L = %d, λ0 = %g, %s (%.2f%% of %d; best %.2f%%)\n", how, c.L, c.Lambda0, c.Rule(), 100*c.Error, c.Samples, 100*v.Rows[v.Best].Error)
		}
	}
	spec.Trained = func(m *oddl.Model, curve []oddl.CurvePoint) error {
		prog.Done()
		return trained(ctx, f, m, curve, train.Name(), test.Present())
	}
	res, err := job.Run(ctx, spec)
	prog.Done()
	if err != nil {
		return interruptedOr(f.Explain(err), caught)
	}
	if f.JSON {
		return writeJSON(stdout, res.Report)
	}
	// A write error is the checked standard output's to report.
	_ = res.WriteText(stdout)
	return nil
}

// trained writes what -plot and -memprofile ask for once the model is
// trained and saved.
func trained(ctx context.Context, f *job.TrainFlags, m *oddl.Model, curve []oddl.CurvePoint, name string, test bool) error {
	if f.Stream.Plot != "" {
		cfg := m.Config()
		if err := experiments.PlotCurve(curve, f.Stream.Plot, fmt.Sprintf("%s, K = %d, λ0 = %g: %s", name, cfg.K, cfg.Lambda0, "validation error along the stream")); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	if f.MemProfile != "" {
		runtime.GC()
		if err := safefile.Write(f.MemProfile, pprof.WriteHeapProfile); err != nil {
			return fmt.Errorf("-memprofile: %w", err)
		}
	}
	if evaluateHook != nil && f.Test && test {
		evaluateHook(ctx)
	}
	return nil
}

// startCPUProfile starts the profile of -cpuprofile (if given); stop ends
// it and sets *err if the file cannot be written (the profile of a failed
// run is kept too: it may say why).
func startCPUProfile(path string) (stop func(err *error), err error) {
	if path == "" {
		return func(*error) {}, nil
	}
	f, err := safefile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Abort()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func(err *error) {
		pprof.StopCPUProfile()
		if cerr := f.Commit(); cerr != nil && *err == nil {
			*err = fmt.Errorf("-cpuprofile: %w", cerr)
		}
	}, nil
}

// interruptedOr is err with the exit status of the signal that stopped
// the run when it is a *job.Interrupted.
func interruptedOr(err error, caught func() os.Signal) error {
	if errors.As(err, new(*job.Interrupted)) {
		return interrupted(caught(), err)
	}
	return err
}
