package kernel_test

import (
	"fmt"

	"github.com/oddl-go/oddl/internal/kernel"
)

// Dgemm multiplies row-major matrices; here the Gram matrix G = D·Dᵀ of
// two atoms of length 3, stored one per row, using the transposed form of
// the second operand so that D is read in place.
func ExampleDgemm() {
	d := []float64{
		1, 2, 2,
		0, 3, 4,
	}
	g := make([]float64, 2*2)
	kernel.Dgemm(false, true, 2, 2, 3, 1, d, 3, d, 3, 0, g, 2)
	fmt.Println(g)
	// Output: [9 14 14 25]
}
