package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/internal/membudget"
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

// args returns the train arguments of the job's method. The two
// reconstructive methods learn the same way (λ0 = 0, the classifier fitted
// afterwards) and differ in how samples are coded: online-rec codes every
// sample on the whole dictionary after the class-block initialisation of
// 20 000 samples, online-rec per class stays in that initialisation for the
// whole stream (-init n -epochs 0), each sample coded on its class's block
// of atoms only, so every atom keeps its class. The table is of the
// methods on the pixels (-patches=false), as its published figures are.
func (j streamJob) args() []string {
	a := []string{"-stream", strconv.Itoa(j.n), "-k", strconv.Itoa(j.k), "-patches=false"}
	switch j.method {
	case methodRec:
		a = append(a, "-lambda0", "0")
	case methodRecClass:
		a = append(a, "-lambda0", "0", "-init", strconv.Itoa(j.n), "-epochs", "0")
	default:
		a = append(a, "-lambda0", "1")
	}
	return a
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
// (λ0 = 0) on streams of deformed MNIST images of each length, one run
// after the other in this process (streamTrain), and prints
// their errors, training times and peak memory as a Markdown table.
func runStreamTable(ctx context.Context, o streamTableOptions, stdout io.Writer) error {
	var runs []experiments.StreamRun
	for _, j := range streamJobs(o.sizes, o.k, o.largeK) {
		args := append([]string{"-q", "-deform", o.deform}, j.args()...)
		if o.threads > 0 {
			args = append(args, "-threads", strconv.Itoa(o.threads))
		}
		if o.backend != "" {
			args = append(args, "-blas", o.backend)
		}
		if o.dataDir != "" {
			args = append(args, "-data-dir", o.dataDir)
		}
		if o.maxMemory != "" {
			args = append(args, "-max-memory", o.maxMemory)
		}
		if o.log != nil {
			fmt.Fprintf(o.log, "stream: %s, K = %d, %d samples ...\n", j.method, j.k, j.n)
		}
		rep, err := streamTrain(args)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("oddl train %s: %w", strings.Join(args, " "), err)
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

// streamTrain runs train with args in this process and returns its
// report. The memory the runs before it freed goes back to the system
// first and the peak resident memory starts again from what is in use, so
// that the report's peak is this run's (where the system can reset it).
func streamTrain(args []string) (*trainReport, error) {
	f, err := parseTrainFlags(args, io.Discard)
	if err != nil {
		return nil, err
	}
	debug.FreeOSMemory()
	membudget.ResetPeakRSS()
	res, err := f.run(io.Discard)
	if err != nil {
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
