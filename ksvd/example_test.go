package ksvd_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/ksvd"
)

// signals returns perClass unit-norm samples of each class: class c's
// samples point near coordinate 3c, with noise on coordinates 3c..3c+2.
func signals(rng *rand.Rand, classes, perClass, n int) (*mat.Dense, []int) {
	X := mat.NewDense(classes*perClass, n, nil)
	labels := make([]int, classes*perClass)
	for i := range labels {
		c := i / perClass
		labels[i] = c
		x := X.RawRowView(i)
		x[3*c] = 1
		for k := 3 * c; k < 3*c+3; k++ {
			x[k] += 0.3 * rng.NormFloat64()
		}
		norm := mat.Norm(mat.NewVecDense(n, x), 2)
		for k := range x {
			x[k] /= norm
		}
	}
	return X, labels
}

// Example trains ksvd-linear (one K-SVD dictionary per class and a ridge
// classifier on the codes) and measures its test error.
func Example() {
	rng := rand.New(rand.NewPCG(1, 1))
	Xtrain, ytrain := signals(rng, 3, 50, 12)
	Xtest, ytest := signals(rng, 3, 20, 12)

	c := &ksvd.Classifier{
		AtomsPerClass: 4,
		Config:        ksvd.Config{L: 2, Iterations: 5, Seed: 1},
	}
	if err := c.Fit(context.Background(), Xtrain, ytrain, 3); err != nil {
		log.Fatal(err)
	}
	rate, err := c.ErrorRate(Xtest, ytest)
	if err != nil {
		log.Fatal(err)
	}
	K, n := c.D.Dims()
	fmt.Printf("dictionary: %d atoms of length %d\n", K, n)
	fmt.Printf("test error: %.0f%%\n", 100*rate)
	// Output:
	// dictionary: 12 atoms of length 12
	// test error: 0%
}

// ExampleTrain learns a dictionary with K-SVD and follows the
// representation error over the iterations.
func ExampleTrain() {
	rng := rand.New(rand.NewPCG(2, 2))
	X, _ := signals(rng, 4, 100, 12)

	dict, err := ksvd.Train(context.Background(), X, ksvd.Config{K: 8, L: 2, Iterations: 6, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	first, last := dict.RMSE[0], dict.RMSE[len(dict.RMSE)-1]
	fmt.Println("iterations:", len(dict.RMSE))
	fmt.Println("error decreased:", last < first)
	fmt.Println("first atom has unit norm:", math.Abs(mat.Norm(dict.D.RowView(0), 2)-1) < 1e-12)
	// Output:
	// iterations: 6
	// error decreased: true
	// first atom has unit norm: true
}
