package oddl

import (
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
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
	parallel(workers, func(w int) {
		lo, hi := w*r/workers, (w+1)*r/workers
		band := X.Slice(lo, hi, 0, n).(*mat.Dense)
		if p == PreprocessDeskew {
			tmp := make([]float64, n)
			for i := range hi - lo {
				row := band.RawRowView(i)
				copy(tmp, row)
				dataset.Deskew(row, tmp, img.Rows, img.Cols)
			}
		}
		dataset.Preprocess(band)
	})
}
