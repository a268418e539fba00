package dataset

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Set is a labelled data set held in memory.
type Set struct {
	Name string
	// X holds one sample a row (N×n), float64 pixels: the raw scale as read
	// (0..255 for byte files) until Preprocess.
	X *mat.Dense
	// Labels holds the class of each sample, 0..Classes-1.
	Labels  []int
	Classes int
	// ClassNames holds the label the data file gives each class (see
	// ClassNames), nil when the file's labels are the classes 0..Classes-1.
	ClassNames []string
	// Rows and Cols are the image size; n = Rows·Cols.
	Rows, Cols int
	// Zero lists, in increasing order, the rows that Preprocess found
	// constant (all-zero included): they were set to zero instead of being
	// normalised.
	Zero []int
	// Columns names the values of a sample, as a CSV file's header names
	// them (the label column left out); nil without a header.
	Columns []string
}

// Len returns the number of samples.
func (s *Set) Len() int { return len(s.Labels) }

// Dim returns the number of values in a sample.
func (s *Set) Dim() int { return s.Rows * s.Cols }

// Subset returns a copy of the samples idx (in that order; repeats allowed).
// Classes, image size and the Zero rows (renumbered) carry over. It panics if
// an index is out of range or idx is empty.
func (s *Set) Subset(idx []int) *Set {
	if len(idx) == 0 {
		panic("dataset: Subset of no samples")
	}
	d := s.Dim()
	data := make([]float64, len(idx)*d)
	labels := make([]int, len(idx))
	zero := map[int]bool{}
	for _, z := range s.Zero {
		zero[z] = true
	}
	var zs []int
	for k, i := range idx {
		if i < 0 || i >= s.Len() {
			panic(fmt.Sprintf("dataset: Subset index %d out of range [0,%d)", i, s.Len()))
		}
		copy(data[k*d:(k+1)*d], s.X.RawRowView(i))
		labels[k] = s.Labels[i]
		if zero[i] {
			zs = append(zs, k)
		}
	}
	return &Set{
		Name: s.Name, X: mat.NewDense(len(idx), d, data), Labels: labels,
		Classes: s.Classes, ClassNames: s.ClassNames, Rows: s.Rows, Cols: s.Cols, Zero: zs, Columns: s.Columns,
	}
}

// Head returns the first n samples (all of them if n >= Len) as a view that
// shares X and Labels with s. It panics if n < 1.
func (s *Set) Head(n int) *Set {
	if n < 1 {
		panic(fmt.Sprintf("dataset: Head(%d)", n))
	}
	if n >= s.Len() {
		c := *s
		return &c
	}
	var zs []int
	for _, z := range s.Zero {
		if z < n {
			zs = append(zs, z)
		}
	}
	return &Set{
		Name: s.Name, X: s.X.Slice(0, n, 0, s.Dim()).(*mat.Dense), Labels: s.Labels[:n:n],
		Classes: s.Classes, ClassNames: s.ClassNames, Rows: s.Rows, Cols: s.Cols, Zero: zs, Columns: s.Columns,
	}
}

// Preprocess applies the package-level Preprocess to X and records the
// constant rows in Zero.
func (s *Set) Preprocess() {
	s.Zero = Preprocess(s.X)
}

// ClassCounts returns the number of samples of each class.
func (s *Set) ClassCounts() []int {
	c := make([]int, s.Classes)
	for _, y := range s.Labels {
		c[y]++
	}
	return c
}

// String describes the set in one line, e.g. "usps-train: 7291 samples of
// 16×16, 10 classes".
func (s *Set) String() string {
	return fmt.Sprintf("%s: %d samples of %d×%d, %d classes", s.Name, s.Len(), s.Rows, s.Cols, s.Classes)
}
