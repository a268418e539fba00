package blas

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/oddl-go/oddl/internal/kernel"
)

// Backend names accepted by Lookup and Select and by the ODDL_BLAS
// environment variable.
const (
	GonumName    = "gonum"    // gonum's pure-Go implementation
	NativeName   = "native"   // gonum with the hot routines on package kernel
	OpenBLASName = "openblas" // OpenBLAS through cgo (build tag openblas)
)

// EnvVar is the environment variable that overrides the automatic choice of
// backend. Its value is a backend name; empty means automatic.
const EnvVar = "ODDL_BLAS"

// names lists every backend this package knows, in preference order.
func names() []string { return []string{OpenBLASName, NativeName, GonumName} }

// ErrNotCompiled is returned (wrapped) by Lookup for a known backend that is
// not part of this binary.
var ErrNotCompiled = errors.New("backend not compiled in")

// ErrUnknown is returned (wrapped) by Lookup for a name that is no backend.
var ErrUnknown = errors.New("unknown backend")

// Available returns the names of the backends compiled into this binary, in
// preference order (best first).
func Available() []string {
	all := names()
	out := make([]string, 0, len(all))
	for _, n := range all {
		if n == OpenBLASName && !openblasCompiled {
			continue
		}
		out = append(out, n)
	}
	return out
}

// Option configures the backend value that Lookup, Select and Default
// return.
type Option func(*options)

type options struct {
	threads int // 0: the backend's default
}

// WithThreads asks for a backend value whose parallel routines (mainly
// Dgemm) use at most n threads; n < 1 means the backend's default. It binds
// the backends that implement Threaded (native). gonum's Dgemm always
// splits its work over GOMAXPROCS goroutines, and OpenBLAS's thread count
// belongs to the whole process (see SetOpenBLASThreads): for them the
// option changes nothing, and Threads reports what they really use.
func WithThreads(n int) Option {
	return func(o *options) { o.threads = max(0, n) }
}

// Lookup returns the backend called name, configured by opts. A backend
// this package knows but that is not compiled in, and a name that is no
// backend at all, are errors (wrapping ErrNotCompiled and ErrUnknown
// respectively); there is no silent fallback to another backend.
func Lookup(name string, opts ...Option) (gblas.Float64, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	switch name {
	case GonumName:
		return gonum.Implementation{}, nil
	case NativeName:
		return Native{threads: o.threads}, nil
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
			name, strings.Join(names(), ", "), strings.Join(Available(), ", ")),
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

// autoName is the backend chosen when nothing overrides the choice: the
// fastest compiled in for this CPU. With a SIMD kernel tier (avx2 or
// avx512) that is native; on the pure-Go kernel it is OpenBLAS, whose own
// assembly then beats native, when it is compiled in.
func autoName() string {
	switch {
	case kernel.Name() != kernel.TierGo:
		return NativeName
	case openblasCompiled:
		return OpenBLASName
	}
	return GonumName
}

// AutoReason says in a few words why the automatic choice is what it is,
// for the command line's reports.
func AutoReason() string {
	switch autoName() {
	case NativeName:
		return "fastest here: kernel tier " + kernel.Name()
	case OpenBLASName:
		return "fastest here: the kernel runs pure Go (tier go), OpenBLAS its own assembly"
	}
	return "the kernel runs pure Go (tier go) and OpenBLAS is not compiled in"
}

// Select resolves a backend choice. A non-empty name is looked up as is; an
// empty name means the value of ODDL_BLAS, and when that is empty too, the
// automatic choice (see the package documentation). It returns the backend,
// its name, and an error if the explicit name or ODDL_BLAS names a backend
// that is unknown or not compiled in; in that case the backend is nil.
func Select(name string, opts ...Option) (gblas.Float64, string, error) {
	if name == "" {
		env := os.Getenv(EnvVar)
		if env == "" {
			name := autoName()
			impl, err := Lookup(name, opts...)
			return impl, name, err
		}
		impl, err := Lookup(env, opts...)
		if err != nil {
			return nil, "", fmt.Errorf("%s=%s: %w", EnvVar, env, err)
		}
		return impl, env, nil
	}
	impl, err := Lookup(name, opts...)
	if err != nil {
		return nil, "", err
	}
	return impl, name, nil
}

// Default returns the backend that oddl uses unless told otherwise: the one
// named by ODDL_BLAS if set, else the fastest compiled in for this CPU. If
// ODDL_BLAS names a backend that is unknown or not compiled in, Default
// returns a nil backend and an error naming the variable: a backend the
// user asked for is never replaced in silence. The environment is read at
// every call; Name tells which backend was chosen.
func Default(opts ...Option) (gblas.Float64, error) {
	impl, _, err := Select("", opts...)
	return impl, err
}

// Name returns the backend name of impl, one of the values of Available, or
// "" if impl is not a backend of this package. It is for reports; code
// that needs an operation asks for it by type assertion (PackedGEMM,
// GramUpper, Threaded, KernelRounding), never by name.
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

// Threads returns how many threads impl's parallel routines use: the bound
// count of a Threaded backend, OpenBLAS's process-wide count, and
// GOMAXPROCS for any other backend (gonum's Dgemm splits its work over
// that many goroutines).
func Threads(impl gblas.Float64) int {
	if t, ok := impl.(Threaded); ok {
		return t.Threads()
	}
	if openblasCompiled && isOpenBLAS(impl) {
		return openblasThreads()
	}
	return runtime.GOMAXPROCS(0)
}

// OnThreads returns impl bound to n threads when it implements Threaded,
// and impl itself otherwise. A caller that runs several products at once on
// goroutines of its own asks for OnThreads(impl, 1), so that each product
// stays on its goroutine's core.
func OnThreads(impl gblas.Float64, n int) gblas.Float64 {
	if t, ok := impl.(Threaded); ok {
		return t.WithThreads(n)
	}
	return impl
}
