package kernel_test

import (
	"fmt"

	"github.com/oddl-go/oddl/internal/kernel"
)

func ExampleGemvN() {
	// A is 2×3, row-major, with leading dimension 3.
	a := []float64{
		1, 2, 3,
		4, 5, 6,
	}
	x := []float64{1, 0, -1}
	y := []float64{10, 20}
	// y = 1*A*x + 0.5*y
	kernel.GemvN(2, 3, 1, a, 3, x, 1, 0.5, y, 1)
	fmt.Println(y)
	// Output: [3 8]
}

func ExampleNrm2Unitary() {
	// The squares of these overflow float64; the norm does not.
	x := []float64{3e200, 4e200}
	fmt.Printf("%.6g %v\n", kernel.Nrm2Unitary(x), kernel.SumSqUnitary(x))
	// Output: 5e+200 +Inf
}

func ExampleIamaxUnitary() {
	// The first of two equal largest magnitudes wins.
	fmt.Println(kernel.IamaxUnitary([]float64{1, -7, 3, 7}))
	// Output: 1
}
