package job

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// EvalReport is what "oddl eval" reports of a saved model on a data set:
// WriteText prints its text, and its JSON form is the -json object. K to
// Batch are the model's settings (oddl.CopySettings fills them by their
// JSON names).
type EvalReport struct {
	Dataset string `json:"dataset"`
	// Set is the part evaluated: test, train or whole (all of a data
	// set given as files).
	Set              string  `json:"set"`
	Model            string  `json:"model"`
	K                int     `json:"k"`
	L                int     `json:"l"`
	Lambda0          float64 `json:"lambda0"`
	ResidualWeight   float64 `json:"residual_weight"`
	Epochs           int     `json:"epochs"`
	Batch            int     `json:"batch"`
	Backend          string  `json:"backend"`
	Threads          int     `json:"threads"`
	TestError        float64 `json:"test_error"`
	Errors           int     `json:"errors"`
	NTest            int     `json:"n_test"`
	Seconds          float64 `json:"seconds"`
	SamplesPerSecond float64 `json:"samples_per_second"`
	Confusion        [][]int `json:"confusion"`
	// Classes names the rows and columns of Confusion: the labels of the
	// data the model was trained on.
	Classes []string `json:"classes"`
}

// Evaluate measures the model on set, a block of samples at a time (byte
// images are made float64 a block at a time, so the memory is the data's
// bytes and a block). The samples must have the model's dimension and
// image shape; their labels are read as the model's classes. name names
// the model in the report and part the part of the data set (test, train
// or whole). The backend and threads reported are the model's runtime
// (oddl.Model.SetRuntime).
func Evaluate(ctx context.Context, m *oddl.Model, name string, set dataset.Samples, part string) (*EvalReport, error) {
	if !set.Present() {
		return nil, fmt.Errorf("data set %s has no samples", set.Name())
	}
	if set.Dim() != m.Dim() {
		return nil, fmt.Errorf("data set %s has samples of dimension %d, the model expects %d", set.Name(), set.Dim(), m.Dim())
	}
	rows, cols := set.Shape()
	if err := m.Config().Image.CheckImages("data set "+set.Name(), rows, cols); err != nil {
		return nil, err
	}
	if err := checkColumns(m, set); err != nil {
		return nil, err
	}
	names := m.ClassNames()
	set, err := set.ToClasses(names)
	if err != nil {
		return nil, err
	}
	backend, threads := m.Runtime()
	if _, backend, err = blas.Select(backend); err != nil {
		return nil, err
	}
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	src, err := Source(set)
	if err != nil {
		return nil, err
	}
	ev, err := m.EvaluateSource(ctx, src)
	if err != nil {
		return nil, err
	}
	el := time.Since(start).Seconds()
	rep := &EvalReport{
		Dataset: set.Name(), Set: part, Model: name, Backend: backend, Threads: threads,
		TestError: ev.ErrorRate, Errors: ev.Errors, NTest: ev.Samples, Seconds: el, Confusion: ev.Confusion,
		Classes: names,
	}
	oddl.CopySettings(rep, m.Config().Settings())
	if el > 0 {
		rep.SamplesPerSecond = float64(ev.Samples) / el
	}
	return rep, nil
}

// WriteText prints the report as "oddl eval" does: the model, the data,
// the error rate, the time and the confusion matrix.
func (r *EvalReport) WriteText(w io.Writer) error {
	part := r.Set + " part"
	if r.Set == "whole" {
		part = "all of it"
	}
	fmt.Fprintf(w, "model        %s: K=%d L=%d λ0=%g, %d epochs, residual weight %g\n", r.Model, r.K, r.L, r.Lambda0, r.Epochs, r.ResidualWeight)
	fmt.Fprintf(w, "data         %s (%s): %d samples\n", r.Dataset, part, r.NTest)
	fmt.Fprintf(w, "error rate   %.2f%% (%d of %d)\n", 100*r.TestError, r.Errors, r.NTest)
	fmt.Fprintf(w, "time         %.2f s (%.0f samples/s, %s, %d threads)\n", r.Seconds, r.SamplesPerSecond, r.Backend, r.Threads)
	return oddl.Evaluation{Confusion: r.Confusion}.WriteConfusion(w, r.Classes)
}

// WriteJSON prints the report as one indented JSON object.
func (r *EvalReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// checkColumns refuses samples whose CSV header names other value columns
// than those the model was trained on, or the same in another order
// (oddl.Model.ColumnNames, dataset.SameColumns): their values would be
// read as if they were in the training file's order. Either side without
// names (images, a file without a header) is not checked.
func checkColumns(m *oddl.Model, set dataset.Samples) error {
	want, got := m.ColumnNames(), set.Columns()
	if want == nil || got == nil {
		return nil
	}
	if err := dataset.SameColumns("the model's", want, got); err != nil {
		return fmt.Errorf("data set %s: %w", set.Name(), err)
	}
	return nil
}
