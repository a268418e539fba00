package experiments

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/oddl-go/oddl/internal/safefile"
)

// StreamRun is one run of the stream table (oddl reproduce -table
// stream): a method trained on one pass over Samples deformed images with
// K atoms, and its report.
type StreamRun struct {
	Method  string       `json:"method"`
	Samples int          `json:"samples"`
	K       int          `json:"k"`
	Report  StreamReport `json:"report"`
}

// StreamReport is the report of a stream run: saved whole in stream.json,
// its figures in the table.
type StreamReport interface {
	StreamFigures() StreamFigures
}

// StreamFigures are the figures of a stream run the table shows: the
// error rates (nil when not measured), the training time and the peak
// resident memory in bytes.
type StreamFigures struct {
	ValidationError *float64
	TestError       *float64
	TrainSeconds    float64
	PeakRSS         int64
}

// WriteStreamTable writes the stream runs as a Markdown table.
func WriteStreamTable(w io.Writer, deform string, runs []StreamRun) {
	fmt.Fprintf(w, "## Table stream: one pass over deformed MNIST images (-deform %s)\n\n", deform)
	fmt.Fprintln(w, "| method | K | samples | validation error | test error | training s | peak RSS MiB |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range runs {
		f := r.Report.StreamFigures()
		val, test := "—", "—"
		if f.ValidationError != nil {
			val = fmt.Sprintf("%.2f %%", 100**f.ValidationError)
		}
		if f.TestError != nil {
			test = fmt.Sprintf("%.2f %%", 100**f.TestError)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %.1f | %.0f |\n", r.Method, r.K, r.Samples, val, test, f.TrainSeconds, float64(f.PeakRSS)/(1<<20))
	}
}

// SaveStream writes the runs to stream.json in dir (created if need be)
// and their test errors to stream.png.
func SaveStream(dir string, runs []StreamRun) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	b, err := json.MarshalIndent(runs, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.Write(filepath.Join(dir, "stream.json"), func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return err
	}
	return plotStream(filepath.Join(dir, "stream.png"), runs)
}

// plotStream draws the test error against the stream's length, a line a
// method and K.
func plotStream(path string, runs []StreamRun) error {
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
		f := r.Report.StreamFigures()
		if f.TestError == nil {
			continue
		}
		key := fmt.Sprintf("%s, K = %d", r.Method, r.K)
		if _, ok := lines[key]; !ok {
			order = append(order, key)
		}
		lines[key] = append(lines[key], plotter.XY{X: float64(r.Samples), Y: 100 * *f.TestError})
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
