//go:build !openblas

package blas

// openblasMissing explains why the openblas backend is absent.
const openblasMissing = "build with -tags openblas and install libopenblas-dev"
const openblasTag = false
