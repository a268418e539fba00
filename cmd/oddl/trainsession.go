package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

// trainSession is a training run under way: the context that Ctrl-C
// cancels and the model.
type trainSession struct {
	f      *trainFlags
	ctx    context.Context
	cancel context.CancelFunc
	caught func() os.Signal
	model  *oddl.Model
}

// train trains (or resumes) the model on the data; it returns how long it
// took and how many samples the model had seen before. An interrupted run
// saves its checkpoint (with -o) and returns an interruptedError.
func (r *trainSession) train(d *trainData, addEpochs int, stderr io.Writer) (elapsed time.Duration, seen0 int64, err error) {
	f := r.f
	var prog *progressPrinter
	if !f.quiet {
		prog = newProgressPrinter(stderr)
	}
	names := d.train.Names()
	opts := []oddl.Option{oddl.WithProgress(func(p oddl.Progress) {
		if prog != nil {
			prog.update(p)
		}
		if interruptHook != nil && interruptHook(p.Batches) {
			r.cancel()
		}
	})}
	save := func(m *oddl.Model) error {
		if err := m.NameClasses(names); err != nil {
			return err
		}
		return m.Save(f.out)
	}
	if n, cb := oddl.CheckpointSchedule(f.every, f.cfg.Batch, d.tr, save); n > 0 {
		opts = append(opts, oddl.WithCheckpoint(n, cb))
	}
	if f.newData {
		opts = append(opts, oddl.WithNewData())
	}
	start := time.Now()
	if r.model != nil {
		seen0 = r.model.Seen()
		if !f.set["epochs"] {
			addEpochs = oddl.AutoEpochs
		}
		err = r.model.TrainMore(r.ctx, d.src, addEpochs, opts...)
	} else {
		r.model, err = oddl.Train(r.ctx, f.cfg, d.src, append(opts, oddl.WithBackend(f.rt.blas), oddl.WithThreads(f.rt.threads))...)
	}
	elapsed = time.Since(start)
	if prog != nil {
		prog.done()
	}
	if nerr := r.model.NameClasses(names); nerr != nil && err == nil {
		err = nerr
	}
	return elapsed, seen0, r.trainError(err)
}

// trainError explains an error of training; an interrupted run saves its
// checkpoint.
func (r *trainSession) trainError(err error) error {
	f, model := r.f, r.model
	if errors.Is(err, oddl.ErrNewData) {
		return fmt.Errorf("%w (check -data and -limit; -resume-new-data goes on with this data on purpose)", err)
	}
	if err == nil || r.ctx.Err() == nil {
		if errors.Is(err, oddl.ErrTooFewSamples) && f.resume == "" {
			return fmt.Errorf("%w (set -k below it, or leave -k out to have it chosen)", err)
		}
		return err
	}
	switch {
	case model == nil:
		return interrupted(r.caught(), errors.New("interrupted before training started; nothing saved"))
	case f.out == "":
		return interrupted(r.caught(), errors.New("interrupted; nothing saved (give -o to save a checkpoint)"))
	}
	if serr := model.Save(f.out); serr != nil {
		return fmt.Errorf("interrupted; saving the checkpoint failed: %w", serr)
	}
	return interrupted(r.caught(), fmt.Errorf("interrupted after %d samples; checkpoint saved to %s; continue with: oddl train -resume %s%s",
		model.Seen(), f.out, f.out, dataArgs(f.data)+f.stream.args()))
}

// validate measures the model on the held-out samples (of -validate, or of
// -stream) and chooses its residual weight on them.
func (r *trainSession) validate(d *trainData) (*validationReport, error) {
	f := r.f
	if d.tr != nil && !f.set["residual-weight"] {
		d.held, f.validate = d.trVal, float64(d.trVal.Len())/float64(d.train.Len()+d.trVal.Len())
	}
	if !d.held.Present() {
		return nil, nil
	}
	vrep, err := validate(r.ctx, r.model, d.held, f.validate, f.set["residual-weight"])
	if err != nil && r.ctx.Err() != nil {
		return nil, interrupted(r.caught(), errors.New("interrupted while validating; nothing saved"))
	}
	return vrep, err
}

// finish saves the model and writes what -stream and -memprofile ask for.
func (r *trainSession) finish(d *trainData) error {
	f := r.f
	if f.out != "" {
		if err := r.model.Save(f.out); err != nil {
			return err
		}
	}
	if d.tr != nil {
		if err := d.tr.Observe(context.Background(), r.model, true); err != nil {
			return err
		}
		if f.stream.plot != "" {
			cfg := r.model.Config()
			if err := drawCurve(d.tr.Curve(), f.stream.plot, fmt.Sprintf("%s, K = %d, λ0 = %g: %s", d.train.Name(), cfg.K, cfg.Lambda0, "validation error along the stream")); err != nil {
				return fmt.Errorf("-plot: %w", err)
			}
		}
	}
	if f.memProfile != "" {
		runtime.GC()
		if err := safefile.Write(f.memProfile, pprof.WriteHeapProfile); err != nil {
			return fmt.Errorf("-memprofile: %w", err)
		}
	}
	return nil
}

// report is the run's report before the test evaluation.
func (f *trainFlags) report(model *oddl.Model, d *trainData, backendName string, elapsed time.Duration, seen0 int64) trainReport {
	cfg := model.Config()
	_, threads := model.Runtime()
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	rep := trainReport{
		Dataset: d.train.Name(), Settings: cfg.Settings(),
		Backend: backendName, Threads: threads,
		TrainSeconds: elapsed.Seconds(), Times: secondsOf(model.Times()),
		NTrain: d.train.Len(), Model: f.out, Resumed: f.resume != "", Classes: model.ClassNames(),
	}
	if d.tr != nil {
		rep.Stream = &streamReport{Samples: f.stream.n, Deformation: f.stream.d, NValidation: d.trVal.Len(), Curve: d.tr.Curve()}
	}
	if s := elapsed.Seconds(); s > 0 {
		rep.SamplesPerSecond = float64(model.Seen()-seen0) / s
	}
	return rep
}

// test evaluates the model on the test set, if there is one and -test
// asks for it, into the report.
func (r *trainSession) test(d *trainData, rep *trainReport) error {
	if !r.f.withTest {
		d.test = samples{}
	}
	if !d.test.Present() {
		return nil
	}
	// Training's buffers are garbage now: collecting them before the
	// evaluation allocates its own keeps the peak memory to the larger of
	// the two phases instead of their sum.
	runtime.GC()
	if evaluateHook != nil {
		evaluateHook(r.ctx)
	}
	ev, err := evaluateOn(r.ctx, d.test, r.model)
	if err != nil {
		if r.ctx.Err() != nil {
			saved := "not saved (no -o)"
			if r.f.out != "" {
				saved = "saved to " + r.f.out
			}
			return interrupted(r.caught(), fmt.Errorf("interrupted during the test evaluation; the trained model is %s", saved))
		}
		return err
	}
	rep.TestError, rep.TestErrors, rep.NTest = &ev.ErrorRate, ev.Errors, ev.Samples
	return nil
}
