package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
	"github.com/oddl-go/oddl/selection"
)

// streamTableOptions are the settings of reproduce -table stream.
type streamTableOptions struct {
	sizes   []int  // stream lengths
	k       int    // atoms of both methods
	largeK  int    // atoms of the extra ODDL and per-class runs at every length (0: none)
	deform  string // -deform of every run
	dataDir string
	threads int
	backend string
	out     string
	// maxMemory is -max-memory as given, passed to every run ("" for
	// none: each run then checks against what the machine has).
	maxMemory string
	log       io.Writer
}

// Methods of the stream table.
const (
	methodODDL     = "oddl"
	methodRec      = "online-rec (λ0 = 0)"
	methodRecClass = "online-rec per class (λ0 = 0)"
)

// streamJob is one run of the stream table: a method on a stream of n
// samples with k atoms.
type streamJob struct {
	method string
	n, k   int
}

// config returns the settings of the job's method and the names of those
// it chooses (selection.Fixed). The two reconstructive methods learn the
// same way (λ0 = 0, the classifier fitted afterwards) and differ in how
// samples are coded: online-rec codes every sample on the whole dictionary
// after the class-block initialisation of 20 000 samples, online-rec per
// class stays in that initialisation for the whole stream (InitSamples n,
// Epochs 0), each sample coded on its class's block of atoms only, so
// every atom keeps its class. The table is of the methods on the pixels
// (no patch front end), as its published figures are; a stream makes no
// refit pass.
func (j streamJob) config() (oddl.Config, selection.Fixed) {
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.Patches, cfg.RefitPass, cfg.Lambda0 = j.k, patch.Config{}, false, 1
	given := selection.Fixed{"k": true, "patches": true, "lambda0": true}
	switch j.method {
	case methodRec:
		cfg.Lambda0 = 0
	case methodRecClass:
		cfg.Lambda0, cfg.InitSamples, cfg.Epochs = 0, j.n, 0
		given["init"], given["epochs"] = true, true
	}
	return cfg, given
}

// streamJobs lists the runs of the table: the three methods at every
// length, then ODDL and the per-class variant with largeK atoms at every
// length (so that each K has its own curve from the shortest stream).
func streamJobs(sizes []int, k, largeK int) []streamJob {
	var jobs []streamJob
	for _, n := range sizes {
		for _, m := range []string{methodODDL, methodRec, methodRecClass} {
			jobs = append(jobs, streamJob{m, n, k})
		}
	}
	if largeK > 0 {
		for _, n := range sizes {
			jobs = append(jobs, streamJob{methodODDL, n, largeK}, streamJob{methodRecClass, n, largeK})
		}
	}
	return jobs
}

// runStreamTable trains ODDL (λ0 = 1) and the two reconstructive variants
// (λ0 = 0) on streams of deformed MNIST images of each length, one
// job.Run after the other in this process (streamTrain), and prints
// their errors, training times and peak memory as a Markdown table.
func runStreamTable(ctx context.Context, o streamTableOptions, stdout io.Writer) error {
	var runs []experiments.StreamRun
	for _, j := range streamJobs(o.sizes, o.k, o.largeK) {
		if o.log != nil {
			fmt.Fprintf(o.log, "stream: %s, K = %d, %d samples ...\n", j.method, j.k, j.n)
		}
		rep, err := streamTrain(ctx, o, j)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("stream: %s, K = %d, %d samples: %w", j.method, j.k, j.n, err)
		}
		runs = append(runs, experiments.StreamRun{Method: j.method, Samples: j.n, K: j.k, Report: rep})
		if o.log != nil && rep.TestError != nil {
			fmt.Fprintf(o.log, "stream: %s, K = %d, %d samples: test error %.2f %%, %.0f s, peak %.0f MiB\n", j.method, j.k, j.n, 100**rep.TestError, rep.TrainSeconds, float64(rep.PeakRSS)/(1<<20))
		}
	}
	experiments.WriteStreamTable(stdout, o.deform, runs)
	if o.out == "" {
		return nil
	}
	return experiments.SaveStream(o.out, runs)
}

// streamTrain reads MNIST and makes the job's run (job.Run), checking its
// settings' memory first as oddl train does. The memory the runs before
// it freed goes back to the system first and the peak resident memory
// starts again from what is in use, so that the report's peak is this
// run's (where the system can reset it).
func streamTrain(ctx context.Context, o streamTableOptions, j streamJob) (*trainReport, error) {
	rt := &runtimeFlags{fs: flag.NewFlagSet("train", flag.ContinueOnError), threads: o.threads, blas: o.backend}
	rt.fs.SetOutput(io.Discard)
	mem := &memoryFlag{text: o.maxMemory}
	d, err := parseDeformation(o.deform)
	if err != nil {
		return nil, usageError{fmt.Errorf("-deform: %w", err)}
	}
	if _, err := rt.check(); err != nil {
		return nil, err
	}
	if err := mem.check(); err != nil {
		return nil, err
	}
	cfg, given := j.config()
	if err := mem.checkTraining(cfg, o.threads, 1, 1, 0, false); err != nil {
		return nil, err
	}
	limit, tooLarge := mem.limitData()
	debug.FreeOSMemory()
	membudget.ResetPeakRSS()
	train, test, err := dataset.LoadSamples(dataset.Request{Name: "mnist", Dir: o.dataDir, Options: []dataset.Option{limit}})
	if err != nil {
		return nil, tooLarge(err)
	}
	res, err := job.Run(ctx, job.Spec{Config: cfg, Given: given, Data: "mnist", Train: train, Test: test, WithTest: true,
		Stream: &job.Stream{Samples: j.n, Deformation: d, Validation: defaultVal}, Backend: o.backend, Threads: o.threads, MaxMemory: mem.bytes})
	if err != nil {
		var me *job.MemoryError
		if errors.As(err, &me) {
			return nil, memoryText(me)
		}
		return nil, err
	}
	return &trainReport{res.Report}, nil
}

// StreamFigures gives the stream table the figures of a run.
func (r *trainReport) StreamFigures() experiments.StreamFigures {
	f := experiments.StreamFigures{TestError: r.TestError, TrainSeconds: r.TrainSeconds, PeakRSS: r.PeakRSS}
	if r.Validation != nil {
		f.ValidationError = &r.Validation.Error
	}
	return f
}
