package oddl

import (
	"errors"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/sample"
)

// colStats are the means and scales of the columns of a training set:
// PreprocessStandard makes each column zero-mean with unit variance over
// the training rows, and the linear rule (linear.go) reads its columns so.
type colStats struct {
	mean, scale []float64
}

// scaleOf returns the scale of a column of mean m and standard deviation
// sd: sd, or 1 for a column without spread (constant on the training
// rows, up to the rounding of its mean), whose values then become 0. The
// bound is relative to the mean alone, so that a column of values all
// far below 1 (measured in a small unit: 1e-15, or 1e-200, which the
// statistics hold without underflow) keeps its spread rather than being
// taken for constant and dropped.
func scaleOf(m, sd float64) float64 {
	if !(sd > 1e-12*math.Abs(m)) {
		return 1
	}
	return sd
}

// statsAcc computes column statistics in two passes over rows of a known
// count n, without overflow for any finite values: the mean as a sum of
// v/n (bounded by the largest |v|), the deviations scaled by the
// column's largest |v|.
type statsAcc struct {
	n             int
	mean, big, ss []float64
}

func newStatsAcc(n, dim int) *statsAcc {
	return &statsAcc{n: n, mean: make([]float64, dim), big: make([]float64, dim), ss: make([]float64, dim)}
}

// first adds a row to the means and the largest magnitudes.
func (a *statsAcc) first(x []float64) {
	inv := float64(a.n)
	for j, v := range x {
		a.mean[j] += v / inv
		a.big[j] = math.Max(a.big[j], math.Abs(v))
	}
}

// second adds a row's squared deviations, scaled.
func (a *statsAcc) second(x []float64) {
	for j, v := range x {
		if b := a.big[j]; b > 0 {
			d := v/b - a.mean[j]/b
			a.ss[j] += d * d
		}
	}
}

// stats returns the statistics after both passes.
func (a *statsAcc) stats() *colStats {
	s := &colStats{mean: a.mean, scale: make([]float64, len(a.mean))}
	for j := range s.scale {
		s.scale[j] = scaleOf(a.mean[j], a.big[j]*math.Sqrt(a.ss[j]/float64(a.n)))
	}
	return s
}

// statsOf returns the column statistics of the rows of X.
func statsOf(X *mat.Dense) *colStats {
	N, n := X.Dims()
	a := newStatsAcc(N, n)
	for i := range N {
		a.first(X.RawRowView(i))
	}
	for i := range N {
		a.second(X.RawRowView(i))
	}
	return a.stats()
}

// sourceStats returns the column statistics of one pass of src, as
// statsOf computes them (the pass's order of the rows rounds the sums),
// holding a block of samples at a time.
func sourceStats(src Source) (*colStats, error) {
	n, N := src.Dim(), src.Len()
	if N < 1 {
		return nil, fmt.Errorf("oddl: %w: no samples to standardize", ErrInput)
	}
	a := newStatsAcc(N, n)
	rows := 256
	buf := make([]float64, rows*n)
	labels := make([]int, rows)
	pass := func(row func(x []float64)) error {
		if err := src.Seek(0, 0); err != nil {
			return err
		}
		total := 0
		for {
			k, err := src.Read(buf, labels)
			for i := range k {
				x := buf[i*n : (i+1)*n]
				if j, v, bad := sample.NonFinite(x); bad {
					return fmt.Errorf("oddl: %w: sample %d, value %d is %v", ErrInput, total+i, j, v)
				}
				row(x)
			}
			total += k
			if errors.Is(err, io.EOF) || k == 0 && err == nil {
				break
			}
			if err != nil {
				return err
			}
		}
		if total != N {
			return fmt.Errorf("oddl: %w: the source gave %d of its %d samples", ErrInput, total, N)
		}
		return nil
	}
	if err := pass(a.first); err != nil {
		return nil, err
	}
	if err := pass(a.second); err != nil {
		return nil, err
	}
	return a.stats(), nil
}

// maxStandard bounds the magnitude of a standardized value: a training
// row's are at most √N, but a new sample far outside the training rows'
// range (or a column whose spread is tiny) could give one whose square
// overflows in the coder's sums.
const maxStandard = 1e100

// apply standardizes the row x in place.
func (s *colStats) apply(x []float64) {
	for j, v := range x {
		// v/scale − mean/scale rather than (v − mean)/scale: the
		// difference of two values near ±MaxFloat64 overflows.
		z := v/s.scale[j] - s.mean[j]/s.scale[j]
		x[j] = math.Max(-maxStandard, math.Min(maxStandard, z))
	}
}
