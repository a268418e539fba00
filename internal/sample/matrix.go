package sample

import (
	"errors"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
)

// Matrix is a source over samples held in memory, one a row of X with
// labels in 0..Classes−1; each pass visits them in a random order drawn
// from the key. Bad is the error a Read wraps when it meets a value that
// is not finite.
type Matrix struct {
	X       *mat.Dense
	Labels  []int
	classes int
	bad     error
	Shuffled
}

// NewMatrix checks X and labels and returns the source over them; bad is
// the error a Read wraps when it meets a value that is not finite. The
// errors carry no package prefix.
func NewMatrix(X *mat.Dense, labels []int, classes int, bad error) (*Matrix, error) {
	if X == nil {
		return nil, errors.New("no samples")
	}
	r, c := X.Dims()
	if r != len(labels) {
		return nil, fmt.Errorf("%d samples but %d labels", r, len(labels))
	}
	if r == 0 || c == 0 {
		return nil, errors.New("empty sample matrix")
	}
	if err := CheckLabels(labels, classes); err != nil {
		return nil, err
	}
	return &Matrix{X: X, Labels: labels, classes: classes, bad: bad}, nil
}

// CheckLabels refuses fewer than one class and a label outside
// 0..classes−1.
func CheckLabels(labels []int, classes int) error {
	if classes < 1 {
		return fmt.Errorf("%d classes, need at least 1", classes)
	}
	for i, l := range labels {
		if l < 0 || l >= classes {
			return fmt.Errorf("label %d of sample %d is outside 0..%d", l, i, classes-1)
		}
	}
	return nil
}

func (s *Matrix) Dim() int     { _, c := s.X.Dims(); return c }
func (s *Matrix) Classes() int { return s.classes }
func (s *Matrix) Len() int     { return len(s.Labels) }

// Seek positions the source at sample pos of the pass ordered by key.
func (s *Matrix) Seek(key uint64, pos int) error {
	return s.Shuffled.Seek(key, len(s.Labels), pos)
}

// Read fills up to len(labels) samples into x and their labels.
func (s *Matrix) Read(x []float64, labels []int) (int, error) {
	cnt, err := s.Next(len(labels))
	if err != nil {
		return 0, err
	}
	n := s.Dim()
	for i := range cnt {
		j := s.Order[s.Pos+i]
		row := s.X.RawRowView(j)
		if i+2 < cnt {
			// The rows come in shuffled order, which the hardware does
			// not foresee: ask for the one after next.
			kernel.Prefetch(s.X.RawRowView(s.Order[s.Pos+i+2]))
		}
		// Checked here, where the row number is the sample's: training
		// sees the samples shuffled.
		if c, v, bad := NonFinite(row); bad {
			s.Pos += i
			return i, fmt.Errorf("%w: row %d, column %d is %v", s.bad, j, c, v)
		}
		copy(x[i*n:(i+1)*n], row)
		labels[i] = s.Labels[j]
	}
	s.Pos += cnt
	return cnt, nil
}

// NextLabels gives the labels of up to len(labels) samples and moves the
// pass past them, as Read does, without copying or checking their values:
// for a reader that keeps what it made of each sample (by Upcoming) the
// first time it read it.
func (s *Matrix) NextLabels(labels []int) (int, error) {
	cnt, err := s.Next(len(labels))
	if err != nil {
		return 0, err
	}
	for i, j := range s.Order[s.Pos : s.Pos+cnt] {
		labels[i] = s.Labels[j]
	}
	s.Pos += cnt
	return cnt, nil
}

// ReadAt reads up to len(labels) samples from position pos of their
// stored order (the rows of X), as Read does but without moving the pass:
// 0, io.EOF at the end.
func (s *Matrix) ReadAt(x []float64, labels []int, pos int) (int, error) {
	cnt, err := StoredAt(pos, s.Len(), len(labels))
	if err != nil {
		return 0, err
	}
	n := s.Dim()
	for i := range cnt {
		copy(x[i*n:(i+1)*n], s.X.RawRowView(pos+i))
		labels[i] = s.Labels[pos+i]
	}
	return cnt, nil
}

// Fingerprint hashes the dimensions, every label and a few samples (see
// the package's Fingerprint).
func (s *Matrix) Fingerprint() uint64 {
	r, c := s.X.Dims()
	return Fingerprint(r, c, s.classes, s.Labels, func(i int, _ []float64) []float64 { return s.X.RawRowView(i) })
}

// StoredAt returns how many of want samples a read in stored order from
// pos of n samples gives: io.EOF at the end, an error outside 0..n.
func StoredAt(pos, n, want int) (int, error) {
	if err := CheckPos(pos, n); err != nil {
		return 0, err
	}
	if pos == n {
		return 0, io.EOF
	}
	return min(want, n-pos), nil
}
