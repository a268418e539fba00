package dataset

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/kernel"
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
	n := float64(c)
	const rel = 0x1p-40
	tol := rel * math.Sqrt(n)
	for i := range r {
		row := X.RawRowView(i)
		amax := 0.0
		for _, v := range row {
			amax = max(amax, math.Abs(v)) // NaN-propagating
		}
		if math.IsNaN(amax) || math.IsInf(amax, 0) {
			continue
		}
		if amax > 0x1p500 || (amax < 0x1p-500 && amax > 0) {
			// The result does not depend on the scale: bring the row near 1
			// by a power of two (exact) so sums neither overflow nor underflow.
			// Two factors: 2^-e alone overflows for subnormal amax.
			_, e := math.Frexp(amax)
			s1, s2 := math.Ldexp(1, -e/2), math.Ldexp(1, -e-(-e/2))
			for j := range row {
				row[j] = row[j] * s1 * s2
			}
			amax = amax * s1 * s2
		}
		var sum float64
		for _, v := range row {
			sum += v
		}
		mean := sum / n
		// Centre, then correct the mean's rounding error with the sum of the
		// centred values (the corrected two-pass algorithm).
		var sd, ss float64
		for j, v := range row {
			v -= mean
			row[j] = v
			sd += v
			ss += v * v
		}
		corr := sd / n
		ss = max(ss-sd*corr, 0)
		nrm := math.Sqrt(ss)
		if nrm == 0 || nrm <= tol*amax {
			clear(row)
			zero = append(zero, i)
			continue
		}
		inv := 1 / nrm
		for j, v := range row {
			row[j] = (v - corr) * inv
		}
	}
	return zero
}

// Validate returns an error wrapping ErrValue naming the first element of X
// (row, column) that is NaN or ±Inf, nil if all are finite.
func Validate(X *mat.Dense) error {
	r, _ := X.Dims()
	for i := range r {
		row := X.RawRowView(i)
		// A NaN or infinite entry makes the sum of squares NaN or
		// infinite; so may large finite ones, which the scan then clears.
		if s := kernel.SumSqUnitary(row); !math.IsNaN(s) && !math.IsInf(s, 0) {
			continue
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("dataset: row %d, column %d is %v: %w", i, j, v, ErrValue)
			}
		}
	}
	return nil
}
