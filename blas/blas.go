package blas

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/oddl-go/oddl/kernel"
)

// Backend names accepted by Lookup, Select, SetThreads and Threads and by the
// ODDL_BLAS environment variable.
const (
	GonumName    = "gonum"    // gonum's pure-Go implementation
	NativeName   = "native"   // gonum with the hot routines on package kernel
	OpenBLASName = "openblas" // OpenBLAS through cgo (build tag openblas)
)

// EnvVar is the environment variable that overrides the automatic choice of
// backend. Its value is a backend name; empty means automatic.
const EnvVar = "ODDL_BLAS"

// names lists every backend this package knows, in preference order.
var names = []string{OpenBLASName, NativeName, GonumName}

// ErrNotCompiled is returned (wrapped) by Lookup for a known backend that is
// not part of this binary.
var ErrNotCompiled = errors.New("backend not compiled in")

// ErrUnknown is returned (wrapped) by Lookup for a name that is no backend.
var ErrUnknown = errors.New("unknown backend")

// ErrThreadsFixed is returned (wrapped) by SetThreads for a backend whose
// thread count cannot be set.
var ErrThreadsFixed = errors.New("thread count cannot be set")

// Available returns the names of the backends compiled into this binary, in
// preference order (best first).
func Available() []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n == OpenBLASName && !openblasCompiled {
			continue
		}
		out = append(out, n)
	}
	return out
}

// Lookup returns the backend called name. A backend this package knows but
// that is not compiled in, and a name that is no backend at all, are errors
// (wrapping ErrNotCompiled and ErrUnknown respectively); there is no silent
// fallback to another backend.
func Lookup(name string) (gblas.Float64, error) {
	switch name {
	case GonumName:
		return gonum.Implementation{}, nil
	case NativeName:
		return Native{}, nil
	case OpenBLASName:
		if openblasCompiled {
			return openblasImpl, nil
		}
		return nil, &lookupError{
			msg:  fmt.Sprintf("blas: backend %q is not compiled in: %s", name, openblasMissing),
			kind: ErrNotCompiled,
		}
	}
	return nil, &lookupError{
		msg: fmt.Sprintf("blas: unknown backend %q (choices: %s; compiled in: %s)",
			name, strings.Join(names, ", "), strings.Join(Available(), ", ")),
		kind: ErrUnknown,
	}
}

// lookupError is a Lookup failure: a message for the user and the sentinel
// error it matches with errors.Is.
type lookupError struct {
	msg  string
	kind error
}

func (e *lookupError) Error() string { return e.msg }
func (e *lookupError) Unwrap() error { return e.kind }

// autoName is the backend chosen when nothing overrides the choice.
func autoName() string {
	switch {
	case kernel.Name() != kernel.TierGo:
		return NativeName
	case openblasCompiled:
		return OpenBLASName
	}
	return GonumName
}

// Select resolves a backend choice. A non-empty name is looked up as is; an
// empty name means the value of ODDL_BLAS, and when that is empty too, the
// automatic choice (see the package documentation). It returns the backend,
// its name, and an error if the explicit name or ODDL_BLAS names a backend
// that is unknown or not compiled in; in that case the backend is nil.
func Select(name string) (gblas.Float64, string, error) {
	if name == "" {
		env := os.Getenv(EnvVar)
		if env == "" {
			name := autoName()
			impl, err := Lookup(name)
			return impl, name, err
		}
		impl, err := Lookup(env)
		if err != nil {
			return nil, "", fmt.Errorf("%s=%s: %w", EnvVar, env, err)
		}
		return impl, env, nil
	}
	impl, err := Lookup(name)
	if err != nil {
		return nil, "", err
	}
	return impl, name, nil
}

// Default returns the backend that oddl uses unless told otherwise: the one
// named by ODDL_BLAS if set, else the best compiled in and supported by the
// CPU. It never fails: if ODDL_BLAS names a backend that is unknown or not
// compiled in, Default ignores it and returns the automatic choice, and
// DefaultErr reports the problem. The environment is read at every call.
func Default() gblas.Float64 {
	impl, _, err := Select("")
	if err != nil {
		impl, _ = Lookup(autoName())
	}
	return impl
}

// DefaultName returns the name of the backend Default returns.
func DefaultName() string {
	_, name, err := Select("")
	if err != nil {
		return autoName()
	}
	return name
}

// DefaultErr reports whether ODDL_BLAS holds a value Default had to ignore.
// It returns nil when ODDL_BLAS is empty or valid.
func DefaultErr() error {
	_, _, err := Select("")
	return err
}

// Name returns the backend name of impl, one of the values of Available, or
// "" if impl is not a backend of this package.
func Name(impl gblas.Float64) string {
	switch impl.(type) {
	case gonum.Implementation, *gonum.Implementation:
		return GonumName
	case Native, *Native:
		return NativeName
	}
	if openblasCompiled && isOpenBLAS(impl) {
		return OpenBLASName
	}
	return ""
}

// SetThreads sets the number of threads the named backend uses for its
// parallel routines and returns nil, or an error if the name is not a backend
// compiled in. n < 1 selects runtime.GOMAXPROCS(0).
//
// native: the goroutines of package kernel's parallel routines (GEMM);
// openblas: openblas_set_num_threads; gonum: its DGEMM always splits work
// over GOMAXPROCS goroutines and cannot be told otherwise, so SetThreads
// returns an error wrapping ErrThreadsFixed unless n already equals
// GOMAXPROCS.
func SetThreads(name string, n int) error {
	if _, err := Lookup(name); err != nil {
		return err
	}
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	switch name {
	case NativeName:
		kernel.SetThreads(n)
	case OpenBLASName:
		openblasSetThreads(n)
	case GonumName:
		if p := runtime.GOMAXPROCS(0); n != p {
			return fmt.Errorf("blas: gonum: %w: it uses GOMAXPROCS (%d) goroutines; set GOMAXPROCS instead of asking for %d",
				ErrThreadsFixed, p, n)
		}
	}
	return nil
}

// Threads returns the number of threads the named backend uses for its
// parallel routines, or 0 if name is not a backend compiled in. For gonum it
// is GOMAXPROCS, which gonum's DGEMM splits its work over.
func Threads(name string) int {
	if _, err := Lookup(name); err != nil {
		return 0
	}
	switch name {
	case NativeName:
		return kernel.Threads()
	case OpenBLASName:
		return openblasThreads()
	}
	return runtime.GOMAXPROCS(0)
}
