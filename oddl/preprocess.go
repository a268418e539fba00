package oddl

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/internal/sample"
	"github.com/oddl-go/oddl/preprocess"
)

// preprocessRows applies the preprocessing p to every row of X in place
// (img is the image shape for PreprocessDeskew, std the columns'
// statistics for PreprocessStandard). Rows are independent, so the
// workers take contiguous bands and the result does not depend on their
// number.
func preprocessRows(X *mat.Dense, p Preprocess, img Shape, std *colStats, threads int) {
	prepareRows(X, p, img, std, threads, false, nil)
}

// prepareRows is preprocessRows, first checking, when check is set, that
// every value is finite (the error checkFinite would return, X then
// partly preprocessed), and last, when x32 is not nil, rounding every
// value to float32 and writing it to x32 too (row i at x32[i·n:], n the
// columns of X). Each worker takes its band prepChunk rows at a time
// through all three steps, so that a sample is read from memory once
// rather than once a step; the values are those of the steps one after
// another over the whole of X.
func prepareRows(X *mat.Dense, p Preprocess, img Shape, std *colStats, threads int, check bool, x32 []float32) error {
	r, n := X.Dims()
	if r == 0 || (p == PreprocessNone && !check && x32 == nil) {
		return nil
	}
	workers := max(1, min(threads, r/64))
	// The first non-finite value of each worker's band, as a row index of X
	// (r when none).
	bad := make([]struct {
		row, col int
		v        float64
	}, workers)
	par.Do(workers, func(w int) {
		lo, hi := w*r/workers, (w+1)*r/workers
		bad[w].row = r
		var tmp []float64
		if p == PreprocessDeskew {
			tmp = make([]float64, n)
		}
		for a := lo; a < hi; a += prepChunk {
			b := min(a+prepChunk, hi)
			if check {
				for i := a; i < b; i++ {
					if j, v, nf := sample.NonFinite(X.RawRowView(i)); nf {
						bad[w].row, bad[w].col, bad[w].v = i, j, v
						return
					}
				}
			}
			if p == PreprocessDeskew {
				for i := a; i < b; i++ {
					row := X.RawRowView(i)
					copy(tmp, row)
					preprocess.Deskew(row, tmp, img.Rows, img.Cols)
				}
			}
			switch p {
			case PreprocessNone:
			case PreprocessStandard:
				for i := a; i < b; i++ {
					std.apply(X.RawRowView(i))
				}
			default:
				preprocess.Unit(X.Slice(a, b, 0, n).(*mat.Dense))
			}
			if x32 != nil {
				for i := a; i < b; i++ {
					kernel.Round32To(x32[i*n:(i+1)*n], X.RawRowView(i))
				}
			}
		}
	})
	for _, e := range bad {
		if e.row < r {
			return nonFinite(e.row, e.col, e.v)
		}
	}
	return nil
}

// prepChunk is how many rows prepareRows takes through its steps at once:
// a few tens of kilobytes of samples, which stay in the first-level cache
// or the second from one step to the next. A multiple of four, the rows
// preprocess.Unit takes together.
const prepChunk = 16

// checkFinite returns an error naming the first element of X (row, column)
// that is NaN or ±Inf, nil if all are finite.
func checkFinite(X *mat.Dense) error {
	r, _ := X.Dims()
	for i := range r {
		if j, v, bad := sample.NonFinite(X.RawRowView(i)); bad {
			return nonFinite(i, j, v)
		}
	}
	return nil
}

// nonFinite is the error of checkFinite and prepareRows for the value v,
// NaN or ±Inf, at row i, column j.
func nonFinite(i, j int, v float64) error {
	return fmt.Errorf("row %d, column %d is %v", i, j, v)
}
