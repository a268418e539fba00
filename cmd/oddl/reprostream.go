package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

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
	largeK  int    // atoms of the ODDL runs on the two longest streams (0: none)
	deform  string // -deform of every run
	dataDir string
	threads int
	backend string
	out     string
	log     io.Writer
}

// runStreamTable trains ODDL (λ0 = 1) and the reconstructive variant
// (λ0 = 0) on streams of deformed MNIST images of each length, each run in
// a process of its own (so that its peak memory is its own), and prints
// their errors, training times and peak memory as a Markdown table.
func runStreamTable(ctx context.Context, o streamTableOptions, stdout io.Writer) error {
	type job struct {
		method  string
		lambda0 string
		n, k    int
	}
	var jobs []job
	for _, n := range o.sizes {
		jobs = append(jobs, job{"oddl", "1", n, o.k}, job{"online-rec (λ0 = 0)", "0", n, o.k})
	}
	if o.largeK > 0 {
		for _, n := range o.sizes[max(0, len(o.sizes)-2):] {
			jobs = append(jobs, job{"oddl", "1", n, o.largeK})
		}
	}
	var runs []streamRun
	for _, j := range jobs {
		args := []string{"train", "-q", "-json", "-stream", strconv.Itoa(j.n), "-k", strconv.Itoa(j.k), "-lambda0", j.lambda0, "-deform", o.deform}
		if o.threads > 0 {
			args = append(args, "-threads", strconv.Itoa(o.threads))
		}
		if o.backend != "" {
			args = append(args, "-blas", o.backend)
		}
		if o.dataDir != "" {
			args = append(args, "-data-dir", o.dataDir)
		}
		if o.log != nil {
			fmt.Fprintf(o.log, "stream: %s, K = %d, %d samples ...\n", j.method, j.k, j.n)
		}
		var out, errb bytes.Buffer
		cmd, err := selfCommand(ctx, args...)
		if err != nil {
			return err
		}
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("oddl %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
		}
		var rep trainReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			return fmt.Errorf("oddl %s: %w", strings.Join(args, " "), err)
		}
		runs = append(runs, streamRun{Method: j.method, Samples: j.n, K: j.k, Report: &rep})
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
	w, err := p.WriterTo(7*vg.Inch, 4.5*vg.Inch, "png")
	if err != nil {
		return err
	}
	return safefile.Write(path, func(f io.Writer) error { _, err := w.WriteTo(f); return err })
}
