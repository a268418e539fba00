package omp_test

import (
	"fmt"
	"log"
	"math"

	"gonum.org/v1/gonum/blas/blas32"

	"github.com/oddl-go/oddl/omp"
)

func ExampleCoder32_Encode() {
	// The atoms of ExampleCoder_Encode in float32.
	s := float32(1 / math.Sqrt2)
	D := blas32.General{Rows: 5, Cols: 4, Stride: 4, Data: []float32{
		1, 0, 0, 0,
		0, 1, 0, 0,
		0, 0, 1, 0,
		0, 0, 0, 1,
		s, s, 0, 0,
	}}
	coder, err := omp.New32(D, omp.WithSparsity(2), omp.WithResiduals())
	if err != nil {
		log.Fatal(err)
	}
	X := blas32.General{Rows: 3, Cols: 4, Stride: 4, Data: []float32{
		3, 3, 0, 1, // 3√2·d4 + d3
		1, 0, 0, 0, // d0
		1, 2, 3, 4, // not 2-sparse
	}}
	codes, err := coder.Encode(X)
	if err != nil {
		log.Fatal(err)
	}
	for i := range codes.Len() {
		index, value := codes.Row(i)
		fmt.Printf("sample %d: atoms %v values %.4f residual %.4f\n", i, index, value, codes.Residual[i])
	}
	// Output:
	// sample 0: atoms [4 3] values [4.2426 1.0000] residual 0.0000
	// sample 1: atoms [0] values [1.0000] residual 0.0000
	// sample 2: atoms [3 2] values [4.0000 3.0000] residual 2.2361
}
