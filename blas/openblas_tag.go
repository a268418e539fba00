//go:build openblas && !cgo

package blas

// openblasMissing explains why the openblas backend is absent although the
// openblas tag was given.
const openblasMissing = "the openblas tag was given but cgo is disabled; " +
	"build with CGO_ENABLED=1 and a C compiler, and install libopenblas-dev"

const openblasTag = true
