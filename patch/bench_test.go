package patch

import (
	"context"
	"fmt"
	"testing"

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
