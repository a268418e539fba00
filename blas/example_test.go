package blas_test

import (
	"fmt"
	"log"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
)

// Choosing a backend from a user's setting and computing a small product with
// it. An empty name means ODDL_BLAS, or else the best backend compiled in.
func Example() {
	impl, name, err := blas.Select("")
	if err != nil {
		log.Fatal(err) // ODDL_BLAS names a backend that is not available
	}
	_ = name // "openblas", "native" or "gonum"

	// C = A·Bᵀ for the 2×3 A and B, row-major.
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{1, 0, 1, 0, 1, 0}
	c := make([]float64, 4)
	impl.Dgemm(gblas.NoTrans, gblas.Trans, 2, 2, 3, 1, a, 3, b, 3, 0, c, 2)
	fmt.Println(c)
	// Output: [4 2 10 5]
}

// Asking for a backend that is not there is an error, never another backend.
func ExampleLookup() {
	_, err := blas.Lookup("mkl")
	fmt.Println(err != nil)
	// Output: true
}

// Finding an operation beyond blas.Float64 by type assertion: the product
// runs on a packed B where the backend offers that, and as a plain Dgemm
// otherwise, with the same result.
func ExamplePackedGEMM() {
	impl, err := blas.Lookup(blas.NativeName, blas.WithThreads(1))
	if err != nil {
		log.Fatal(err)
	}
	a := []float64{1, 2, 3, 4, 5, 6} // 2×3
	b := []float64{1, 0, 1, 0, 1, 0} // 2×3, used transposed
	c := make([]float64, 4)
	if p, ok := impl.(blas.PackedGEMM); ok {
		var pb blas.PackedB
		p.PackB(&pb, gblas.Trans, 3, 2, b, 3) // Bᵀ, packed once for many products
		p.DgemmPacked(gblas.NoTrans, 2, 1, a, 3, &pb, 0, c, 2)
	} else {
		impl.Dgemm(gblas.NoTrans, gblas.Trans, 2, 2, 3, 1, a, 3, b, 3, 0, c, 2)
	}
	fmt.Println(c, blas.Threads(impl))
	// Output: [4 2 10 5] 1
}
