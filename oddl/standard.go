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
// rows, up to the rounding of its mean), whose values then become 0.
func scaleOf(m, sd float64) float64 {
	if !(sd > 1e-12*math.Max(1, math.Abs(m))) {
		return 1
	}
	return sd
}

// statsOf returns the column statistics of the rows of X.
func statsOf(X *mat.Dense) *colStats {
	N, n := X.Dims()
	s := &colStats{mean: make([]float64, n), scale: make([]float64, n)}
	for i := range N {
		for j, v := range X.RawRowView(i) {
			s.mean[j] += v
		}
	}
	for j := range s.mean {
		s.mean[j] /= float64(N)
	}
	for i := range N {
		for j, v := range X.RawRowView(i) {
			e := v - s.mean[j]
			s.scale[j] += e * e
		}
	}
	for j, ss := range s.scale {
		s.scale[j] = scaleOf(s.mean[j], math.Sqrt(ss/float64(N)))
	}
	return s
}

// sourceStats returns the column statistics of one pass of src, as
// statsOf computes them (two passes: the means, then the deviations from
// them; the pass's order of the rows rounds the sums), holding a block of
// samples at a time.
func sourceStats(src Source) (*colStats, error) {
	n := src.Dim()
	s := &colStats{mean: make([]float64, n), scale: make([]float64, n)}
	rows := 256
	buf := make([]float64, rows*n)
	labels := make([]int, rows)
	total := 0
	pass := func(row func(x []float64)) error {
		if err := src.Seek(0, 0); err != nil {
			return err
		}
		total = 0
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
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	if err := pass(func(x []float64) {
		for j, v := range x {
			s.mean[j] += v
		}
	}); err != nil {
		return nil, err
	}
	if total == 0 {
		return nil, fmt.Errorf("oddl: %w: no samples to standardize", ErrInput)
	}
	for j := range s.mean {
		s.mean[j] /= float64(total)
	}
	if err := pass(func(x []float64) {
		for j, v := range x {
			e := v - s.mean[j]
			s.scale[j] += e * e
		}
	}); err != nil {
		return nil, err
	}
	for j, ss := range s.scale {
		s.scale[j] = scaleOf(s.mean[j], math.Sqrt(ss/float64(total)))
	}
	return s, nil
}

// apply standardizes the row x in place.
func (s *colStats) apply(x []float64) {
	for j, v := range x {
		x[j] = (v - s.mean[j]) / s.scale[j]
	}
}
