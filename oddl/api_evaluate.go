package oddl

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"
)

// EvalBlock is how many samples EvaluateSource turns into float64 rows at
// once for a source that does not hold them so: a block's copies (the
// rows, their preprocessed copy, their correlations with every atom) stay
// small beside the model, and blocks of this size code as fast as larger
// ones.
const EvalBlock = 512

// predictFloats is about how many values PredictBlocks hands to the model
// at once (32 MiB of float64).
const predictFloats = 1 << 22

// SampleReaderAt is a Source that also gives its samples in their stored
// order: ReadAt reads up to len(labels) samples from position pos on, as
// Read does, without moving the pass. EvaluateSource reads a source that
// has it in that order.
type SampleReaderAt interface {
	Source
	ReadAt(x []float64, labels []int, pos int) (int, error)
}

// Add adds the counts of o (of the same model's classes) to e, as if
// the samples of both had been evaluated at once.
func (e *Evaluation) Add(o Evaluation) {
	e.Samples += o.Samples
	e.Errors += o.Errors
	if e.Confusion == nil && o.Confusion != nil {
		e.Confusion = make([][]int, len(o.Confusion))
		for t := range e.Confusion {
			e.Confusion[t] = make([]int, len(o.Confusion[t]))
		}
	}
	for t, row := range o.Confusion {
		for p, c := range row {
			e.Confusion[t][p] += c
		}
	}
	e.ErrorRate = 0
	if e.Samples > 0 {
		e.ErrorRate = float64(e.Errors) / float64(e.Samples)
	}
}

// EvaluateSource classifies every sample of src and compares the labels
// with src's (see EvaluateContext), in bounded memory: samples held as
// float64 rows (NewMatrixSource) at once, others EvalBlock at a time —
// in their stored order for a SampleReaderAt (dataset's sources over sets
// and images in memory), else one pass of src. The counts do not depend on the blocks: each sample is
// coded on its own. This is the score of scikit-learn's estimators, as
// an error rate with its confusion matrix.
func (m *Model) EvaluateSource(ctx context.Context, src Source) (Evaluation, error) {
	if src == nil {
		return Evaluation{}, fmt.Errorf("oddl: %w: no samples", ErrInput)
	}
	if s, ok := src.(*matrixSource); ok {
		return m.EvaluateContext(ctx, s.X, s.Labels)
	}
	n, d := src.Len(), src.Dim()
	at, ordered := src.(SampleReaderAt)
	if !ordered {
		if err := src.Seek(0, 0); err != nil {
			return Evaluation{}, err
		}
	}
	rows := min(n, EvalBlock)
	buf := make([]float64, rows*d)
	labels := make([]int, rows)
	var ev Evaluation
	for pos := 0; pos < n; {
		want := min(rows, n-pos)
		var k int
		var err error
		if ordered {
			k, err = at.ReadAt(buf[:want*d], labels[:want], pos)
		} else {
			k, err = src.Read(buf[:want*d], labels[:want])
		}
		if k == 0 && (err == nil || errors.Is(err, io.EOF)) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Evaluation{}, err
		}
		e, eerr := m.EvaluateContext(ctx, mat.NewDense(k, d, buf[:k*d]), labels[:k])
		if eerr != nil {
			return Evaluation{}, eerr
		}
		ev.Add(e)
		pos += k
	}
	if ev.Confusion == nil {
		// No samples: the matrix of the model's classes, all zero.
		ev.Confusion = make([][]int, m.Classes())
		for t := range ev.Confusion {
			ev.Confusion[t] = make([]int, m.Classes())
		}
	}
	return ev, nil
}

// PredictBlocks is PredictContext over the rows of X a block at a time:
// the model preprocesses a copy of what it codes, so a block's copy is
// all that is added to the samples (the labels are the same, each sample
// being coded on its own).
func (m *Model) PredictBlocks(ctx context.Context, X *mat.Dense) ([]int, error) {
	if X == nil {
		return nil, fmt.Errorf("oddl: %w: no samples", ErrInput)
	}
	r, c := X.Dims()
	labels := make([]int, 0, r)
	rows := max(256, predictFloats/max(c, 1))
	for lo := 0; lo < r; lo += rows {
		hi := min(lo+rows, r)
		l, err := m.PredictContext(ctx, X.Slice(lo, hi, 0, c).(*mat.Dense))
		if err != nil {
			return nil, err
		}
		labels = append(labels, l...)
	}
	return labels, nil
}
