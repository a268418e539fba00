package dataset

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Preprocess normalises each row of X in place as the paper does: subtract
// the row's mean, then divide by the row's L2 norm, so every sample has zero
// mean and unit norm.
//
// A row that is constant (its centred norm is at rounding level,
// ≤ 2⁻⁴⁰·√n·max|x|, or exactly zero) has no direction: it is set to all
// zeros and its index is returned in zero, in increasing order; nothing
// becomes NaN. Rows holding NaN or ±Inf are left unchanged and not listed;
// call Validate first to reject them.
func Preprocess(X *mat.Dense) (zero []int) {
	r, c := X.Dims()
	const rel = 0x1p-40
	tol := rel * math.Sqrt(float64(c))
	for i := range r {
		row := X.RawRowView(i)
		var sum, amax float64
		for _, v := range row {
			sum += v
			amax = max(amax, math.Abs(v))
		}
		if math.IsNaN(sum) || math.IsInf(sum, 0) || math.IsInf(amax, 0) {
			continue
		}
		mean := sum / float64(c)
		var ss float64
		for j, v := range row {
			v -= mean
			row[j] = v
			ss += v * v
		}
		nrm := math.Sqrt(ss)
		if math.IsInf(ss, 0) {
			// Values near the float64 range: scale so the sum of squares is finite.
			s := 1 / amax
			ss = 0
			for _, v := range row {
				v *= s
				ss += v * v
			}
			nrm = math.Sqrt(ss) / s
		}
		if nrm == 0 || nrm <= tol*amax {
			clear(row)
			zero = append(zero, i)
			continue
		}
		inv := 1 / nrm
		for j := range row {
			row[j] *= inv
		}
	}
	return zero
}

// Validate returns an error wrapping ErrValue naming the first element of X
// (row, column) that is NaN or ±Inf, nil if all are finite.
func Validate(X *mat.Dense) error {
	r, _ := X.Dims()
	for i := range r {
		for j, v := range X.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("dataset: row %d, column %d is %v: %w", i, j, v, ErrValue)
			}
		}
	}
	return nil
}
