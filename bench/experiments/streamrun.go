package experiments

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
	"github.com/oddl-go/oddl/selection"
)

// StreamTable is the stream table (oddl reproduce -table stream): ODDL
// and the two reconstructive variants trained on streams of deformed
// MNIST images of each length.
type StreamTable struct {
	// Sizes are the stream lengths, K the atoms of every method and
	// LargeK those of the extra ODDL and per-class runs at every length
	// (0: none).
	Sizes     []int
	K, LargeK int
	// Deform is the deformation of every stream (dataset.ParseDeformation).
	Deform  string
	DataDir string
	Threads int
	Backend string
	// MaxMemory is each run's memory budget in bytes (0: what the machine
	// has available).
	MaxMemory int64
	// Out, when set, is the folder the runs are saved to (SaveStream).
	Out string
	// Log, when set, is told of each run.
	Log io.Writer
	// Before, when set, is called before each run; its error ends the
	// table as the run's own would.
	Before func() error
}

// Fill sets what is left unset to the table's defaults: stream lengths
// of 60000, 250000, 1000000 and 4000000 images, K = 960 and, when LargeK
// is below 0, LargeK = 2560; with quick, 20000 and 60000 images, K = 240
// and no large K (a run of minutes).
func (t *StreamTable) Fill(quick bool) {
	if len(t.Sizes) == 0 {
		t.Sizes = pick(quick, []int{20000, 60000}, []int{60000, 250000, 1000000, 4000000})
	}
	if t.K == 0 {
		t.K = pick(quick, 240, 960)
	}
	if t.LargeK < 0 {
		t.LargeK = pick(quick, 0, 2560)
	}
}

// pick returns a if quick, else b.
func pick[T any](quick bool, a, b T) T {
	if quick {
		return a
	}
	return b
}

// Check refuses, as a job.UsageError naming the flags of oddl reproduce
// -table stream, atoms or threads beyond oddl's limits and a deformation
// that does not parse.
func (t *StreamTable) Check() error {
	if t.K > oddl.MaxAtoms || t.LargeK > oddl.MaxAtoms || t.Threads > oddl.MaxThreads {
		return job.UsageError{Err: fmt.Errorf("-k %d, -stream-large-k %d: at most %d atoms", t.K, t.LargeK, oddl.MaxAtoms)}
	}
	if _, err := dataset.ParseDeformation(t.Deform); err != nil {
		return job.UsageError{Err: fmt.Errorf("-deform: %w", err)}
	}
	return nil
}

// Methods of the stream table.
const (
	MethodODDL     = "oddl"
	MethodRec      = "online-rec (λ0 = 0)"
	MethodRecClass = "online-rec per class (λ0 = 0)"
)

// StreamJob is one run of the stream table: a method on a stream of
// Samples images with K atoms.
type StreamJob struct {
	Method     string
	Samples, K int
}

// Config returns the settings of the job's method and the names of those
// it chooses (selection.Fixed). The two reconstructive methods learn the
// same way (λ0 = 0, the classifier fitted afterwards) and differ in how
// samples are coded: online-rec codes every sample on the whole dictionary
// after the class-block initialisation of 20 000 samples, online-rec per
// class stays in that initialisation for the whole stream (InitSamples n,
// Epochs 0), each sample coded on its class's block of atoms only, so
// every atom keeps its class. The table is of the methods on the pixels
// (no patch front end), as its published figures are; a stream makes no
// refit pass.
func (j StreamJob) Config() (oddl.Config, selection.Fixed) {
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.Patches, cfg.RefitPass, cfg.Lambda0 = j.K, patch.Config{}, false, 1
	given := selection.Fixed{"k": true, "patches": true, "lambda0": true}
	switch j.Method {
	case MethodRec:
		cfg.Lambda0 = 0
	case MethodRecClass:
		cfg.Lambda0, cfg.InitSamples, cfg.Epochs = 0, j.Samples, 0
		given["init"], given["epochs"] = true, true
	}
	return cfg, given
}

// StreamJobs lists the runs of the table: the three methods at every
// length, then ODDL and the per-class variant with largeK atoms at every
// length (so that each K has its own curve from the shortest stream).
func StreamJobs(sizes []int, k, largeK int) []StreamJob {
	var jobs []StreamJob
	for _, n := range sizes {
		for _, m := range []string{MethodODDL, MethodRec, MethodRecClass} {
			jobs = append(jobs, StreamJob{m, n, k})
		}
	}
	if largeK > 0 {
		for _, n := range sizes {
			jobs = append(jobs, StreamJob{MethodODDL, n, largeK}, StreamJob{MethodRecClass, n, largeK})
		}
	}
	return jobs
}

// StreamValidation is the number of validation images of a stream.
const StreamValidation = 10000

// Run trains the table's jobs one after the other (job.Run), writes their
// errors, training times and peak memory as a Markdown table to w and
// saves the runs to t.Out. A memory error is worded by job.Explain.
func (t StreamTable) Run(ctx context.Context, w io.Writer) error {
	d, err := dataset.ParseDeformation(t.Deform)
	if err != nil {
		return fmt.Errorf("-deform: %w", err)
	}
	var runs []StreamRun
	for _, j := range StreamJobs(t.Sizes, t.K, t.LargeK) {
		if t.Log != nil {
			fmt.Fprintf(t.Log, "stream: %s, K = %d, %d samples ...\n", j.Method, j.K, j.Samples)
		}
		rep, err := t.train(ctx, j, d)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("stream: %s, K = %d, %d samples: %w", j.Method, j.K, j.Samples, job.Explain(err))
		}
		runs = append(runs, StreamRun{Method: j.Method, Samples: j.Samples, K: j.K, Report: rep})
		if t.Log != nil && rep.TestError != nil {
			fmt.Fprintf(t.Log, "stream: %s, K = %d, %d samples: test error %.2f %%, %.0f s, peak %.0f MiB\n", j.Method, j.K, j.Samples, 100**rep.TestError, rep.TrainSeconds, float64(rep.PeakRSS)/(1<<20))
		}
	}
	WriteStreamTable(w, t.Deform, runs)
	if t.Out == "" {
		return nil
	}
	return SaveStream(t.Out, runs)
}

// train reads MNIST and makes the job's run, checking its settings'
// memory first as oddl train does. The memory the runs before it freed
// goes back to the system first and the peak resident memory starts
// again from what is in use, so that the report's peak is this run's
// (where the system can reset it).
func (t StreamTable) train(ctx context.Context, j StreamJob, d dataset.Deformation) (*StreamJobReport, error) {
	if t.Before != nil {
		if err := t.Before(); err != nil {
			return nil, err
		}
	}
	cfg, given := j.Config()
	if err := job.CheckMemory(cfg, t.Threads, 1, 1, 0, false, t.MaxMemory); err != nil {
		return nil, err
	}
	limit, tooLarge := job.DataLimit(t.MaxMemory)
	debug.FreeOSMemory()
	membudget.ResetPeakRSS()
	train, test, err := dataset.LoadSamples(dataset.Request{Name: "mnist", Dir: t.DataDir, Options: []dataset.Option{limit}})
	if err != nil {
		return nil, tooLarge(err)
	}
	res, err := job.Run(ctx, job.Spec{Config: cfg, Given: given, Data: "mnist", Train: train, Test: test, WithTest: true,
		Stream: &job.Stream{Samples: j.Samples, Deformation: d, Validation: StreamValidation}, Backend: t.Backend, Threads: t.Threads, MaxMemory: t.MaxMemory})
	if err != nil {
		return nil, err
	}
	return &StreamJobReport{res.Report}, nil
}

// StreamJobReport is the report of a run of the stream table (job.Report).
type StreamJobReport struct{ job.Report }

// StreamFigures gives the stream table the figures of a run.
func (r *StreamJobReport) StreamFigures() StreamFigures {
	f := StreamFigures{TestError: r.TestError, TrainSeconds: r.TrainSeconds, PeakRSS: r.PeakRSS}
	if r.Validation != nil {
		f.ValidationError = &r.Validation.Error
	}
	return f
}
