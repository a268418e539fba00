// Package blas selects the BLAS backend that oddl runs on.
//
// Every backend implements gonum's blas.Float64 interface
// (gonum.org/v1/gonum/blas), so code written against it — directly or
// through gonum's blas64 and mat packages — runs unchanged on any of them:
//
//	gonum     gonum.org/v1/gonum/blas/gonum: pure Go, always compiled in.
//	          Its Dger (v0.17.0) ignores where a negative stride starts and
//	          reads outside x and y: give it positive strides (oddl never
//	          calls Dger; native computes that case itself).
//	native    Native: gonum with Ddot, Daxpy, Dscal, Dnrm2, Idamax, Dgemv, Dger,
//	          Dgemm and Dsyrk on package kernel (AVX2/FMA assembly, or the
//	          pure-Go reference where the CPU lacks AVX2 and FMA3, under
//	          -tags purego, or with ODDL_KERNEL=go). Always compiled in.
//	openblas  OpenBLAS through cgo (gonum.org/v1/netlib/blas/netlib). Only in
//	          binaries built with -tags openblas and cgo enabled; needs the
//	          library and headers (Debian/Ubuntu: apt-get install
//	          libopenblas-dev). The package links -lopenblas itself, so no
//	          CGO_LDFLAGS is needed (setting CGO_LDFLAGS=-lopenblas works too).
//
// # Selection
//
// Default picks, in this order:
//
//  1. the backend named by the environment variable ODDL_BLAS
//     (gonum, native or openblas), if it is set and that backend is
//     compiled in;
//  2. native, if the kernel runs its AVX2/FMA path (kernel.Name() is not "go");
//  3. openblas, if compiled in;
//  4. gonum.
//
// On an AVX2/FMA machine native comes first even when OpenBLAS is compiled
// in: its GEMM matches OpenBLAS's at the shapes oddl uses, and oddl's
// training and Batch-OMP use kernel entry points that no BLAS interface
// offers (a Gram matrix on a dictionary packed once, shared with the
// correlation products), so they run faster on it. The native backend on
// the pure-Go kernel is correct but no faster than gonum, which is why it
// is not chosen automatically then; Lookup("native") returns it all the
// same.
//
// A name is never silently replaced by another backend: Lookup and Select
// return an error for an unknown name (listing the choices) and for a known
// backend that is not compiled in (saying how to build it). Default cannot
// return an error, so when ODDL_BLAS is invalid it ignores the variable and
// returns the automatic choice; DefaultErr reports the bad value, and a
// program that takes a backend choice from its user should call
// Select(flagValue) and report the error, as "oddl env -blas" does.
//
// # Threads
//
// SetThreads and Threads control how many threads a backend's parallel
// routines (mainly Dgemm) use: for native the goroutines of package kernel,
// for openblas openblas_set_num_threads / openblas_get_num_threads. gonum's
// Dgemm always splits its work over GOMAXPROCS goroutines and has no setting
// of its own; Threads reports GOMAXPROCS for it and SetThreads refuses any
// other count. When the caller runs its own goroutines on every core, set
// the backend to one thread so the two do not compete for the same cores.
//
// # Build tags
//
//	(none)              gonum and native; native uses the AVX2/FMA assembly on amd64
//	-tags purego        the kernel uses its pure-Go reference everywhere
//	-tags openblas      adds the openblas backend (needs cgo and libopenblas-dev)
package blas
