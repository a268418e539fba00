//go:build openblas && cgo

package blas

// The library is named here so that "go build -tags openblas" links without
// CGO_LDFLAGS; setting CGO_LDFLAGS=-lopenblas as well does no harm.

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int num_threads);
// int openblas_get_num_threads(void);
// char* openblas_get_corename(void);
// char* openblas_get_config(void);
import "C"

import (
	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/netlib/blas/netlib"
)

// OpenBLAS is the OpenBLAS backend: gonum's cgo binding to the CBLAS
// interface, linked against libopenblas. It exists only in binaries built
// with the openblas tag and cgo. Its thread count belongs to the process,
// not to the value (see SetOpenBLASThreads).
type OpenBLAS = netlib.Implementation

var _ gblas.Float64 = OpenBLAS{}

const (
	openblasCompiled = true
	openblasMissing  = ""
)

var openblasImpl gblas.Float64 = OpenBLAS{}

func isOpenBLAS(impl gblas.Float64) bool {
	switch impl.(type) {
	case OpenBLAS, *OpenBLAS:
		return true
	}
	return false
}

func openblasSetThreads(n int) { C.openblas_set_num_threads(C.int(n)) }

func openblasThreads() int { return int(C.openblas_get_num_threads()) }

// The strings are the library's own, static: they are copied, never freed.
func openblasCoreName() string { return C.GoString(C.openblas_get_corename()) }

func openblasConfig() string { return C.GoString(C.openblas_get_config()) }

const openblasTag = true
