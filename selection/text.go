package selection

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteText writes the table as "oddl select" prints it: a heading, a
// Markdown table of the rows with the best and the chosen one marked,
// and the means over the seeds when there are several.
func (t *Table) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %.3g of the training set held out (validation); train flags: %s\n\n", t.Dataset, t.Fraction, strings.Join(t.Base, " "))
	fmt.Fprintf(&b, "| settings | validation error | β | errors of the β grid | training s |\n| --- | ---: | ---: | --- | ---: |\n")
	for i, r := range t.Rows {
		beta := strconv.FormatFloat(r.Beta, 'g', -1, 64)
		if r.BetaChosen {
			beta += " (chosen)"
		}
		grid := "—"
		if len(r.BetaGrid) > 0 {
			grid = fmt.Sprintf("%v: %s", r.BetaGrid, Percents(r.BetaErrors))
		}
		fmt.Fprintf(&b, "| %s%s | %.2f %% | %s | %s | %.1f |\n", strings.Join(r.Args, " "), rowMark(i, t.Best, t.Chosen), 100*r.Error, beta, grid, r.Seconds)
	}
	if t.Means != nil {
		fmt.Fprintf(&b, "\nMean over the seeds (each seed another split and another training):\n\n")
		fmt.Fprintf(&b, "| settings | mean validation error | one standard error | training s |\n| --- | ---: | ---: | ---: |\n")
		for i, r := range t.Means {
			p := r.Error
			fmt.Fprintf(&b, "| %s%s | %.2f %% | %.2f | %.1f |\n", strings.Join(r.Args, " "), rowMark(i, t.MeansBest, t.MeansChosen), 100*p, 100*math.Sqrt(p*(1-p)/float64(max(1, r.Samples))), r.Seconds)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// rowMark says whether row i of a table is the best or the chosen one.
func rowMark(i, best, chosen int) string {
	switch {
	case i == chosen && i == best:
		return " (best, chosen)"
	case i == chosen:
		return " (chosen: within one standard error of the best)"
	case i == best:
		return " (best)"
	}
	return ""
}

// Percents writes error rates as percentages, separated by spaces.
func Percents(v []float64) string {
	s := make([]string, len(v))
	for i, e := range v {
		s[i] = fmt.Sprintf("%.2f%%", 100*e)
	}
	return strings.Join(s, " ")
}
