package blas

import (
	"fmt"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Single precision. Every backend of this package implements gonum's
// blas.Float32 as well as blas.Float64 — gonum's own float32 routines,
// Native with Sdot, Saxpy, Sscal, Snrm2, Isamax and Sgemm on package kernel, OpenBLAS's
// through cgo — and is chosen by the same names, environment variable and
// rule: Lookup32, Select32 and Default32 are Lookup, Select and Default
// returning the float32 interface of the same value.

var _ gblas.Float32 = gonum.Implementation{}

// Available32 returns the names of the backends compiled into this binary
// that offer single precision, in preference order: all of Available.
func Available32() []string { return Available() }

// Lookup32 returns the single-precision interface of the backend called
// name, configured by opts, with Lookup's errors.
func Lookup32(name string, opts ...Option) (gblas.Float32, error) {
	impl, err := Lookup(name, opts...)
	if err != nil {
		return nil, err
	}
	return as32(impl, name)
}

// Select32 is Select for single precision: the backend named, else the
// one ODDL_BLAS names, else the automatic choice.
func Select32(name string, opts ...Option) (gblas.Float32, string, error) {
	impl, chosen, err := Select(name, opts...)
	if err != nil {
		return nil, "", err
	}
	f, err := as32(impl, chosen)
	if err != nil {
		return nil, "", err
	}
	return f, chosen, nil
}

// Default32 is Default for single precision.
func Default32(opts ...Option) (gblas.Float32, error) {
	impl, _, err := Select32("", opts...)
	return impl, err
}

// as32 returns impl's single-precision interface. Every backend has one
// (the assertions next to their types say so); the error is for a backend
// added later without it.
func as32(impl gblas.Float64, name string) (gblas.Float32, error) {
	if f, ok := impl.(gblas.Float32); ok {
		return f, nil
	}
	return nil, &lookupError{msg: fmt.Sprintf("blas: backend %q has no single-precision routines", name), kind: ErrNotCompiled}
}

// Name32 returns the backend name of the single-precision impl, one of the
// values of Available32, or "" if impl is not a backend of this package.
func Name32(impl gblas.Float32) string {
	if f, ok := impl.(gblas.Float64); ok {
		return Name(f)
	}
	return ""
}

// Threads32 returns how many threads impl's parallel routines use (see
// Threads).
func Threads32(impl gblas.Float32) int {
	if f, ok := impl.(gblas.Float64); ok {
		return Threads(f)
	}
	return Threads(nil)
}

// OnThreads32 returns impl bound to n threads when it implements Threaded,
// and impl itself otherwise (see OnThreads).
func OnThreads32(impl gblas.Float32, n int) gblas.Float32 {
	if t, ok := impl.(Threaded); ok {
		if f, ok := t.WithThreads(n).(gblas.Float32); ok {
			return f
		}
	}
	return impl
}
