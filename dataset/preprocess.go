package dataset

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/sample"
	"github.com/oddl-go/oddl/preprocess"
)

// Preprocess normalises each row of X in place to zero mean and unit L2
// norm and returns the constant rows, which become all zeros; see
// preprocess.Unit, which the learner applies too.
func Preprocess(X *mat.Dense) (zero []int) { return preprocess.Unit(X) }

// Deskew writes to dst the rows×cols image src straightened and centred by
// its moments; see preprocess.Deskew, which the learner applies too.
func Deskew(dst, src []float64, rows, cols int) { preprocess.Deskew(dst, src, rows, cols) }

// Validate returns an error wrapping ErrValue naming the first element of X
// (row, column) that is NaN or ±Inf, nil if all are finite.
func Validate(X *mat.Dense) error {
	r, _ := X.Dims()
	for i := range r {
		if j, v, bad := sample.NonFinite(X.RawRowView(i)); bad {
			return fmt.Errorf("dataset: row %d, column %d is %v: %w", i, j, v, ErrValue)
		}
	}
	return nil
}
