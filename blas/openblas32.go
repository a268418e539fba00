//go:build openblas && cgo

package blas

import gblas "gonum.org/v1/gonum/blas"

// OpenBLAS's single-precision routines (sgemm and the rest) come through
// the same cgo binding.
var _ gblas.Float32 = OpenBLAS{}
