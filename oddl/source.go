package oddl

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/sample"
)

// Source is a stream of labelled training samples, read in passes (epochs).
// The order of a pass is fixed by a key: Seek(key, pos) followed by reads
// gives the samples of that order from position pos on, the same every
// time for the same key and data. Training derives the keys from the seed
// and the epoch, which is how a saved model resumes exactly where it
// stopped.
//
// The samples are raw; training applies the configured preprocessing.
type Source interface {
	// Dim returns the sample dimension n.
	Dim() int
	// Classes returns the number of classes q; labels are 0..q−1.
	Classes() int
	// Len returns the number of samples in one pass.
	Len() int
	// Seek positions the source at sample pos (0 ≤ pos ≤ Len) of the pass
	// ordered by key.
	Seek(key uint64, pos int) error
	// Read fills up to len(labels) samples, row after row, into x (which
	// holds at least len(labels)·Dim values) and their labels, and returns
	// how many it read. At the end of the pass it returns 0, io.EOF.
	Read(x []float64, labels []int) (int, error)
}

// matrixSource is the source of NewMatrixSource.
type matrixSource = sample.Matrix

// NewMatrixSource returns a Source over the rows of X (one sample a row) with
// the given labels in 0..classes−1. The data are not copied and must not
// change while the source is in use. Each pass visits every sample once in a
// random order that depends only on the key passed to Seek; a sample that
// holds NaN or ±Inf fails the Read with an error wrapping ErrInput. Data
// sets read by package dataset have sources of their own that give the same
// passes (dataset.NewSetSource).
func NewMatrixSource(X *mat.Dense, labels []int, classes int) (Source, error) {
	s, err := sample.NewMatrix(X, labels, classes, ErrInput)
	if err != nil {
		return nil, fmt.Errorf("oddl: %w", err)
	}
	return s, nil
}
