// Package blas selects the BLAS backend that oddl runs on.
package blas

import (
	"fmt"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Available returns the names of the backends compiled in.
func Available() []string { return []string{"gonum"} }

// Lookup returns the backend with the given name.
func Lookup(name string) (gblas.Float64, error) {
	if name == "gonum" {
		return gonum.Implementation{}, nil
	}
	return nil, fmt.Errorf("blas: backend %q is not compiled in (available: %v)", name, Available())
}

// Default returns the best backend compiled in.
func Default() gblas.Float64 { return gonum.Implementation{} }
