package job

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// Predict reads the samples of r once, as dataset.ReadSamples reads them
// (IDX images or CSV, told apart by their first bytes; name names r in
// errors), refuses images of another shape than the model's and a CSV
// header that names other columns than the model's (checkColumns), and writes
// the label the model gives each sample to w, one a line, in order, as the
// model names its classes. It predicts a bounded block of samples at a
// time (oddl.Model.PredictBlocks).
func Predict(ctx context.Context, m *oddl.Model, r io.Reader, name string, w io.Writer, opts ...dataset.Option) error {
	if want := m.ColumnNames(); want != nil {
		opts = append(opts, dataset.WithColumns(func(got []string) error {
			return dataset.SameColumns("the model's", want, got)
		}))
	}
	X, rows, cols, err := dataset.ReadSamples(r, name, m.Dim(), opts...)
	if err != nil {
		return err
	}
	if err := m.Config().Image.CheckImages(name, rows, cols); err != nil {
		return err
	}
	labels, err := m.PredictBlocks(ctx, X)
	if err != nil {
		return err
	}
	names := m.ClassNames()
	bw := bufio.NewWriter(w)
	for _, l := range labels {
		fmt.Fprintln(bw, names[l])
	}
	return bw.Flush()
}
