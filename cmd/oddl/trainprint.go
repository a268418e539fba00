package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/job"
)

// printTrainReport writes the summary of a run.
func printTrainReport(w io.Writer, res *job.Result, f *trainFlags) {
	rep, model := res.Report, res.Model
	cfg := model.Config()
	t := model.Times()
	fmt.Fprintf(w, "dataset      %s: %d training samples of dimension %d, %d classes\n", rep.Dataset, rep.NTrain, res.Dim, res.Classes)
	rule := fmt.Sprintf("residual-weight=%g", cfg.ResidualWeight)
	if cfg.Collaborative > 0 {
		rule = fmt.Sprintf("collaborative=%g", cfg.Collaborative)
	}
	fmt.Fprintf(w, "model        K=%d L=%d λ0=%g batch=%d epochs=%d init=%d init-mode=%s coding=%s refit=%t refit-pass=%t task-step=%g %s preprocess=%s\n", cfg.K, cfg.L, cfg.Lambda0, cfg.Batch, cfg.Epochs, cfg.InitSamples, cfg.Init, cfg.Coding, cfg.Refit, cfg.RefitPass, cfg.TaskStep, rule, cfg.Preprocess)
	fmt.Fprintf(w, "updates      %d joint (discriminative) mini-batch updates\n", rep.JointUpdates)
	printPatches(w, cfg)
	if names := model.ClassNames(); !dataset.IdentityNames(names) {
		fmt.Fprintf(w, "classes      %s\n", nameList(names))
	}
	if v := rep.Validation; v != nil && v.Folds > 0 {
		c := v.Rows[v.ChosenRow]
		fmt.Fprintf(w, "validation   %d-fold on the %d training samples: %.2f%% for L=%d λ0=%g %s, chosen from %d settings (best %.2f%%); trained again on all of them\n",
			v.Folds, v.Samples, 100*v.Error, c.L, c.Lambda0, c.Rule(), len(v.Rows), 100*v.Rows[v.BestRow].Error)
	} else if v != nil {
		how := "the residual weight as given"
		if v.Chosen != nil {
			how = fmt.Sprintf("β = %g chosen on them from %v (errors %s)", *v.Chosen, v.Grid, percents(v.Errors))
		}
		kept := "; the model trained again on all training samples"
		if !v.Retrained {
			kept = ""
		}
		fmt.Fprintf(w, "validation   %.2f%% (%d of %d held-out training samples, %.3g of the set); %s%s\n", 100*v.Error, int(math.Round(v.Error*float64(v.Samples))), v.Samples, v.Fraction, how, kept)
	}
	if s := rep.Stream; s != nil && len(s.Curve) > 0 {
		last := s.Curve[len(s.Curve)-1]
		fmt.Fprintf(w, "stream       %d deformed images; validation error %.2f%% on %d held-out training images after %d samples\n", s.Samples, 100*last.ValidationError, s.NValidation, last.Samples)
	}
	if rep.TestError != nil {
		fmt.Fprintf(w, "test error   %.2f%% (%d of %d)\n", 100**rep.TestError, rep.TestErrors, rep.NTest)
	} else {
		fmt.Fprintln(w, "test error   - (no test set, or -test=false)")
	}
	fmt.Fprintf(w, "time         %.2f s this run; all runs: init %.2f s, read %.2f s, coding %.2f s, statistics %.2f s, update %.2f s, refit %.2f s\n",
		rep.TrainSeconds, t.Init.Seconds(), t.Read.Seconds(), t.Coding.Seconds(), t.Statistics.Seconds(), t.Update.Seconds(), t.Refit.Seconds())
	fmt.Fprintf(w, "speed        %.0f samples/s\n", rep.SamplesPerSecond)
	fmt.Fprintf(w, "backend      %s, %d threads\n", rep.Backend, rep.Threads)
	if f.out != "" {
		fmt.Fprintf(w, "saved        %s\n", f.out)
	}
}

// catchSignals returns a context that SIGINT or SIGTERM cancels, its cancel
// function, and a function that tells which signal came (nil if none). The
// first signal stops the run at the next check, which saves a checkpoint
// with -o; it also gives the signals back their default action, so a second
// Ctrl-C ends the process at once (saves are atomic: the model file is then
// the previous one, never a part).
func catchSignals() (context.Context, context.CancelFunc, func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			signal.Stop(ch)
			cancel()
		case <-ctx.Done():
		}
	}()
	stop := func() {
		signal.Stop(ch)
		cancel()
	}
	caught := func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	return ctx, stop, caught
}

// interruptedError is the error of a run stopped by a signal (or by
// interruptHook, taken as SIGINT). The exit status is 128 plus the signal's
// number, as a shell reports a process that the signal ended: 130 for
// Ctrl-C, 143 for SIGTERM.
type interruptedError struct {
	err    error
	status int
}

func (e interruptedError) Error() string { return e.err.Error() }
func (e interruptedError) Unwrap() error { return e.err }

func interrupted(sig os.Signal, err error) error {
	status := 128 + int(syscall.SIGINT)
	if s, ok := sig.(syscall.Signal); ok {
		status = 128 + int(s)
	}
	return interruptedError{err: err, status: status}
}

// dataArgs returns the data flags to repeat on a resume command line.
func dataArgs(d *dataFlags) string {
	var b strings.Builder
	if d.name != "mnist" {
		fmt.Fprintf(&b, " -data %s", d.name)
	}
	if d.dir != "" {
		fmt.Fprintf(&b, " -data-dir %s", d.dir)
	}
	if d.limit > 0 {
		fmt.Fprintf(&b, " -limit %d", d.limit)
	}
	if d.labelColumn != "" {
		fmt.Fprintf(&b, " -label-column %q", d.labelColumn)
	}
	return b.String()
}
