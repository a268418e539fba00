package oddl

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/internal/sample"
	"github.com/oddl-go/oddl/preprocess"
)

// preprocessRows applies the preprocessing p to every row of X in place
// (img is the image shape for PreprocessDeskew). Rows are independent, so
// the workers take contiguous bands and the result does not depend on
// their number.
func preprocessRows(X *mat.Dense, p Preprocess, img Shape, threads int) {
	if p == PreprocessNone {
		return
	}
	r, n := X.Dims()
	if r == 0 {
		return
	}
	workers := max(1, min(threads, r/64))
	par.Do(workers, func(w int) {
		lo, hi := w*r/workers, (w+1)*r/workers
		band := X.Slice(lo, hi, 0, n).(*mat.Dense)
		if p == PreprocessDeskew {
			tmp := make([]float64, n)
			for i := range hi - lo {
				row := band.RawRowView(i)
				copy(tmp, row)
				preprocess.Deskew(row, tmp, img.Rows, img.Cols)
			}
		}
		preprocess.Unit(band)
	})
}

// checkFinite returns an error naming the first element of X (row, column)
// that is NaN or ±Inf, nil if all are finite.
func checkFinite(X *mat.Dense) error {
	r, _ := X.Dims()
	for i := range r {
		if j, v, bad := sample.NonFinite(X.RawRowView(i)); bad {
			return fmt.Errorf("row %d, column %d is %v", i, j, v)
		}
	}
	return nil
}
