package dataset_test

import (
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/oddl-go/oddl/dataset"
	"gonum.org/v1/gonum/mat"
)

// Write a tiny data set, read it back, and normalise it.
func ExampleReadIDX() {
	dir, err := os.MkdirTemp("", "idx")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	images := filepath.Join(dir, "toy-images-idx3-ubyte.gz")
	labels := filepath.Join(dir, "toy-labels-idx1-ubyte.gz")
	X := mat.NewDense(3, 4, []float64{
		0, 255, 255, 0,
		9, 9, 9, 9, // constant: becomes zero
		10, 20, 30, 40,
	})
	if err := dataset.WriteIDX(images, labels, X, 2, 2, []int{1, 0, 2}, true); err != nil {
		log.Fatal(err)
	}

	s, err := dataset.ReadIDX(images, labels)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s)
	s.Preprocess()
	fmt.Printf("constant rows: %v\n", s.Zero)
	fmt.Printf("%.4f\n", mat.Formatted(s.X))
	// Output:
	// toy: 3 samples of 2×2, 3 classes
	// constant rows: [1]
	// ⎡-0.5000   0.5000   0.5000  -0.5000⎤
	// ⎢ 0.0000   0.0000   0.0000   0.0000⎥
	// ⎣-0.6708  -0.2236   0.2236   0.6708⎦
}

// Stream a data set in batches, two epochs.
func ExampleOpenIDX() {
	dir, err := os.MkdirTemp("", "idx")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	images, labels := filepath.Join(dir, "images"), filepath.Join(dir, "labels")
	X := mat.NewDense(5, 1, []float64{10, 20, 30, 40, 50})
	if err := dataset.WriteIDX(images, labels, X, 1, 1, []int{0, 1, 0, 1, 1}, false); err != nil {
		log.Fatal(err)
	}

	r, err := dataset.OpenIDX(images, labels)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	x, y := make([]float64, 2*r.Dim()), make([]int, 2)
	for epoch := range 2 {
		if epoch > 0 {
			if err := r.Reset(); err != nil {
				log.Fatal(err)
			}
		}
		sep := ""
		for {
			n, err := r.Next(x, y)
			if err == io.EOF {
				break
			}
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("%s%v→%v", sep, x[:n*r.Dim()], y[:n])
			sep = " "
		}
		fmt.Println()
	}
	// Output:
	// [10 20]→[0 1] [30 40]→[0 1] [50]→[1]
	// [10 20]→[0 1] [30 40]→[0 1] [50]→[1]
}

// The seven patch classes of a 32×32 face.
func ExampleFacePatches() {
	for _, p := range dataset.FacePatches(32, 32) {
		fmt.Printf("%s: rows %d-%d, cols %d-%d\n", p.Name, p.Row0, p.Row0+p.Rows-1, p.Col0, p.Col0+p.Cols-1)
	}
	// Output:
	// h0: rows 0-7, cols 0-31
	// h1: rows 8-15, cols 0-31
	// h2: rows 16-23, cols 0-31
	// h3: rows 24-31, cols 0-31
	// v0: rows 0-31, cols 0-10
	// v1: rows 0-31, cols 11-21
	// v2: rows 0-31, cols 22-31
}

// Half of each class for training, reproducibly.
func ExampleSplitPerClass() {
	labels := []int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	train, test := dataset.SplitPerClass(labels, 0.5, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(len(train), len(test))
	// Output:
	// 5 5
}
