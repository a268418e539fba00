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
//	          Dgemm and Dsyrk on package kernel. Always compiled in.
//	openblas  OpenBLAS through cgo (gonum.org/v1/netlib/blas/netlib). Only in
//	          binaries built with -tags openblas and cgo enabled; needs the
//	          library and headers (Debian/Ubuntu: apt-get install
//	          libopenblas-dev). The package links -lopenblas itself, so no
//	          CGO_LDFLAGS is needed (setting CGO_LDFLAGS=-lopenblas works too).
//
// # Single precision
//
// Every backend implements gonum's blas.Float32 as well: gonum's float32
// routines; native with Sdot, Saxpy, Sscal, Snrm2, Isamax and Sgemm on package kernel's
// float32 code (gonum's for the rest); OpenBLAS's through the same cgo
// binding (sgemm and the rest). Lookup32, Select32 and Default32 take the
// same names, environment variable, options and rule as their float64
// forms and return the blas.Float32 of the same value; Name32, Threads32
// and OnThreads32 are Name, Threads and OnThreads for it. Native's float32
// routines check their arguments as gonum does, with its panic messages,
// and its Sgemm, like Dgemm, gives the same bits on any thread count.
// Of the operations beyond blas.Float64 below, PackedGEMM and GramUpper
// have float32 forms (PackedGEMM32, GramUpper32: PackB32, SgemmPacked,
// SgemmPackedUpper), which native implements; Threaded binds its float32
// routines too. KernelRounding has no float32 form yet.
//
// # Kernel tiers
//
// Native runs on one of package kernel's tiers, chosen once at start-up
// from the CPU's features: avx512 (512-bit registers, mask registers for
// the tails), avx2 (AVX2/FMA) or go (the pure-Go reference, also under
// -tags purego). A CPU with AVX-512 (F, DQ, VL, BW) runs avx512 on every
// vendor, unless it is listed among the cores where the avx512 tier was
// measured slower (none so far); one with AVX2 and FMA3 runs avx2. No
// timing takes part. ODDL_KERNEL=avx512|avx2|go forces a tier, and one the
// CPU cannot run is an error (kernel.TierError), never a silent fallback.
// Results are the same bit for bit on any thread count within a tier, not
// across tiers.
//
// # Selection
//
// Default, and Select with an empty name, pick in this order:
//
//  1. the backend named by the environment variable ODDL_BLAS
//     (gonum, native or openblas), if it is set; one that is unknown or
//     not compiled in is an error, never replaced by another;
//  2. native, if the kernel runs a SIMD tier (kernel.Name() is avx512 or
//     avx2): its tiers are built to match OpenBLAS's GEMM at oddl's
//     shapes, and oddl's training and Batch-OMP use operations only it
//     offers (below);
//  3. openblas, if compiled in: on the pure-Go kernel its own assembly is
//     faster than native;
//  4. gonum.
//
// AutoReason says which case applied. Lookup("native") returns native on
// any tier all the same.
//
// # Operations beyond blas.Float64
//
// Some of oddl's fast paths need more than a BLAS call: a GEMM whose second
// operand is packed once for many products (PackedGEMM), the upper
// triangle of a Gram matrix in half the work (GramUpper), a value bound to
// its own thread count (Threaded), and the promise that every product
// rounds as package kernel's GEMM, which lets a caller skip zero terms
// with kernel routines and still get the backend's values (KernelRounding).
// Each is a small interface that a backend may implement; callers find it
// by type assertion and take the plain BLAS route when a backend lacks it,
// never by comparing backend names. Native implements all four; gonum and
// OpenBLAS run the plain route through the same calling code.
//
// # Threads
//
// A thread count belongs to a backend value, not to the process:
// Lookup(name, WithThreads(n)) and Native's WithThreads method return a
// value whose parallel routines use at most n threads, and OnThreads(impl,
// 1) is how a caller that runs several products at once on goroutines of
// its own keeps each on its core. Two values with different counts can
// run at the same time without touching each other. gonum's Dgemm always
// splits its work over GOMAXPROCS goroutines. OpenBLAS keeps one count
// for the whole process inside the C library and offers no per-call
// setting: SetOpenBLASThreads sets it, once, from a main program (the oddl
// command does so from -threads); Threads reports what each backend uses.
//
// Native and gonum reduce every element of a product over k in one order
// however the work is split, so their results do not depend on the thread
// count. OpenBLAS's Haswell and Zen DGEMM kernels round an element
// differently depending on the rows of the call it belongs to and on the
// library's own thread count: with OpenBLAS, a result is repeatable at one
// thread count, not across counts.
//
// # OpenBLAS's core
//
// OpenBLAS picks its kernels from the CPU when it loads, and a release
// older than the CPU falls back to old ones without a word: Debian's
// OpenBLAS 0.3.21 takes Intel's Emerald Rapids Xeons for "Prescott" (SSE3
// kernels). OpenBLASCore reports the core it runs and its build
// configuration, and CoreAdvice, given the CPU's features, says when that
// core is older than the CPU supports — also when OPENBLAS_CORETYPE forces
// it — and what to do: for a build with DYNAMIC_ARCH, set
// OPENBLAS_CORETYPE=SkylakeX (AVX-512, any vendor), Zen (AMD with AVX2) or
// Haswell (other AVX2 CPUs). "oddl env" and "oddl bench" print both, and
// the commands that compute warn once on stderr.
//
// # Build tags
//
//	(none)              gonum and native; native uses the kernel's SIMD tiers on amd64
//	-tags purego        the kernel uses its pure-Go reference everywhere
//	-tags openblas      adds the openblas backend (needs cgo and libopenblas-dev)
package blas
