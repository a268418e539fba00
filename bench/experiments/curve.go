package experiments

import (
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

// PlotCurve draws a stream's validation curve (the error against the
// samples seen) to path, a PNG or SVG picture by its extension, saved
// atomically.
func PlotCurve(curve []oddl.CurvePoint, path, title string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "samples seen"
	p.Y.Label.Text = "validation error (%)"
	pts := make(plotter.XYs, len(curve))
	for i, c := range curve {
		pts[i] = plotter.XY{X: float64(c.Samples), Y: 100 * c.ValidationError}
	}
	line, dots, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	p.Add(line, dots, plotter.NewGrid())
	w, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return err
	}
	return safefile.Write(path, func(f io.Writer) error {
		_, err := w.WriteTo(f)
		return err
	})
}
