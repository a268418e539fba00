package patch

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

// BenchmarkFeatures times the patch front end on MNIST digits in both
// precisions: the defaults' front end (64 atoms of 6×6 pixels, L = 2,
// 3×3 cells), its atoms learned on 3000 training digits, then the
// features of 2000 other digits, deskewed as oddl train prepares them.
// It reports images/s.
func BenchmarkFeatures(b *testing.B) {
	train, _, err := dataset.MNIST()
	if err != nil {
		b.Skipf("MNIST not available: %v", err)
	}
	const learn, code = 3000, 2000
	rows, cols := train.Rows, train.Cols
	dim := rows * cols
	L := mat.DenseCopyOf(train.X.Slice(0, learn, 0, dim))
	X := mat.DenseCopyOf(train.X.Slice(learn, learn+code, 0, dim))
	dataset.Preprocess(L)
	dataset.Preprocess(X)
	cfg := Config{Size: 6, Stride: 1, Atoms: 64, L: 2, Cells: 3, Samples: 30000, Iterations: 5, Seed: 1}
	f64, err := Learn(context.Background(), L, rows, cols, cfg, 0)
	if err != nil {
		b.Fatal(err)
	}
	f32, err := f64.Float32()
	if err != nil {
		b.Fatal(err)
	}
	F := mat.NewDense(code, f64.Dim(), nil)
	for _, prec := range []struct {
		name string
		f    *Front
	}{{"float64", f64}, {"float32", f32}} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", prec.name, threads), func(b *testing.B) {
				for b.Loop() {
					if err := prec.f.FeaturesTo(context.Background(), F, X, threads); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(code*b.N)/b.Elapsed().Seconds(), "images/s")
			})
		}
	}
}
