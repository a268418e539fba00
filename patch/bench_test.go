package patch

import (
	"context"
	"fmt"
	"testing"

	"github.com/oddl-go/oddl/dataset"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkFeatures times the patch front end on MNIST digits in both
// precisions: the defaults' front end, its atoms learned on 3000 training
// digits, then the features of 2000 other digits (mnistFront). It reports
// images/s.
func BenchmarkFeatures(b *testing.B) {
	const code = 2000
	f64, X := mnistFront(b, code)
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

// BenchmarkLearn times learning the defaults' patch atoms (DefaultConfig:
// K-SVD on 100 000 patches) from 10 000 MNIST training digits, as a
// training with the front end starts, on 1 and 2 threads.
func BenchmarkLearn(b *testing.B) {
	train, _, err := dataset.MNIST()
	if err != nil {
		b.Skipf("MNIST not available: %v", err)
	}
	dim := train.Rows * train.Cols
	X := mat.DenseCopyOf(train.X.Slice(0, 10000, 0, dim))
	dataset.Preprocess(X)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			for b.Loop() {
				if _, err := Learn(context.Background(), X, train.Rows, train.Cols, DefaultConfig(), threads); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
