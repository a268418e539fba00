package experiments

import (
	"fmt"
	"path/filepath"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// plotTable3 draws the error rate against the dictionary size, one line per
// data set and method, and writes it as table3.png and table3.svg in dir.
func plotTable3(dir string, runs []Result) ([]string, error) {
	p := plot.New()
	p.Title.Text = "Error rate against dictionary size"
	p.X.Label.Text = "K (atoms)"
	p.Y.Label.Text = "test error (%)"
	p.X.Scale = plot.LogScale{}
	p.Legend.Top = true

	var sizes []float64
	seen := map[int]bool{}
	var lines []any
	for _, s := range datasetsIn(runs) {
		for _, m := range SizeMethods {
			var pts plotter.XYs
			for _, r := range runs {
				if r.Dataset == s && r.Method == m {
					pts = append(pts, plotter.XY{X: float64(r.K), Y: r.ErrorPercent})
					if !seen[r.K] {
						seen[r.K] = true
						sizes = append(sizes, float64(r.K))
					}
				}
			}
			if len(pts) == 0 {
				continue
			}
			sort.Slice(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
			lines = append(lines, title(s)+" "+m, pts)
		}
	}
	if len(lines) == 0 {
		return nil, nil
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	sort.Float64s(sizes)
	var ticks []plot.Tick
	for _, k := range sizes {
		ticks = append(ticks, plot.Tick{Value: k, Label: fmt.Sprint(k)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)

	var files []string
	for _, ext := range []string{"png", "svg"} {
		path := filepath.Join(dir, "table3."+ext)
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, path); err != nil {
			return nil, fmt.Errorf("plot: %w", err)
		}
		files = append(files, path)
	}
	return files, nil
}
