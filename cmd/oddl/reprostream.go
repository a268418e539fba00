package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/internal/safefile"
)

// streamRun is one run of the stream table: a train -stream report.
type streamRun struct {
	Method  string       `json:"method"`
	Samples int          `json:"samples"`
	K       int          `json:"k"`
	Report  *trainReport `json:"report"`
}

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
// of atoms only, so every atom keeps its class.
func (j streamJob) args() []string {
	a := []string{"-stream", strconv.Itoa(j.n), "-k", strconv.Itoa(j.k)}
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
	var runs []streamRun
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
		runs = append(runs, streamRun{Method: j.method, Samples: j.n, K: j.k, Report: rep})
		if o.log != nil && rep.TestError != nil {
			fmt.Fprintf(o.log, "stream: %s, K = %d, %d samples: test error %.2f %%, %.0f s, peak %.0f MiB\n", j.method, j.k, j.n, 100**rep.TestError, rep.TrainSeconds, float64(rep.PeakRSS)/(1<<20))
		}
	}
	fmt.Fprintf(stdout, "## Table stream: one pass over deformed MNIST images (-deform %s)\n\n", o.deform)
	fmt.Fprintln(stdout, "| method | K | samples | validation error | test error | training s | peak RSS MiB |")
	fmt.Fprintln(stdout, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range runs {
		val, test := "—", "—"
		if v := r.Report.Validation; v != nil {
			val = fmt.Sprintf("%.2f %%", 100*v.Error)
		}
		if r.Report.TestError != nil {
			test = fmt.Sprintf("%.2f %%", 100**r.Report.TestError)
		}
		fmt.Fprintf(stdout, "| %s | %d | %d | %s | %s | %.1f | %.0f |\n", r.Method, r.K, r.Samples, val, test, r.Report.TrainSeconds, float64(r.Report.PeakRSS)/(1<<20))
	}
	if o.out == "" {
		return nil
	}
	if err := os.MkdirAll(o.out, 0o777); err != nil {
		return err
	}
	b, err := json.MarshalIndent(runs, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.Write(filepath.Join(o.out, "stream.json"), func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return err
	}
	return plotStream(filepath.Join(o.out, "stream.png"), runs)
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
	rep, _, err := f.run(io.Discard)
	return &rep, err
}

// plotStream draws the test error against the stream's length, a line a
// method and K.
func plotStream(path string, runs []streamRun) error {
	p := plot.New()
	p.Title.Text = "Test error against samples seen (one pass over deformed MNIST)"
	p.X.Label.Text = "samples"
	p.Y.Label.Text = "test error (%)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	lines := map[string]plotter.XYs{}
	var order []string
	for _, r := range runs {
		if r.Report.TestError == nil {
			continue
		}
		key := fmt.Sprintf("%s, K = %d", r.Method, r.K)
		if _, ok := lines[key]; !ok {
			order = append(order, key)
		}
		lines[key] = append(lines[key], plotter.XY{X: float64(r.Samples), Y: 100 * *r.Report.TestError})
	}
	var args []any
	for _, k := range order {
		args = append(args, k, lines[k])
	}
	if len(args) == 0 {
		return nil
	}
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		return err
	}
	// Room above the lines for the legend.
	p.Y.Max += 0.1 * float64(len(order)) * (p.Y.Max - p.Y.Min)
	w, err := p.WriterTo(7*vg.Inch, 4.5*vg.Inch, "png")
	if err != nil {
		return err
	}
	return safefile.Write(path, func(f io.Writer) error { _, err := w.WriteTo(f); return err })
}
