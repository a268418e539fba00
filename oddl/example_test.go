package oddl_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/oddl"
)

// Train a small model on synthetic data in two classes and classify new
// samples with it.
func Example() {
	rng := rand.New(rand.NewPCG(1, 1))
	// Two classes of 16-dimensional samples around two prototypes.
	sample := func(class int) []float64 {
		x := make([]float64, 16)
		for i := range x {
			x[i] = 0.3 * rng.NormFloat64()
		}
		x[class*8] += 3
		x[class*8+1] += 2
		return x
	}
	const N = 400
	X := mat.NewDense(N, 16, nil)
	labels := make([]int, N)
	for i := range N {
		labels[i] = i % 2
		X.SetRow(i, sample(labels[i]))
	}
	src, err := oddl.NewMatrixSource(X, labels, 2)
	if err != nil {
		log.Fatal(err)
	}
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.L = 8, 2
	cfg.Batch, cfg.InitSamples, cfg.Epochs = 50, 100, 2
	model, err := oddl.Train(context.Background(), cfg, src)
	if err != nil {
		log.Fatal(err)
	}
	test := mat.NewDense(2, 16, nil)
	test.SetRow(0, sample(1))
	test.SetRow(1, sample(0))
	pred, err := model.Predict(test)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pred)
	// Output: [1 0]
}
