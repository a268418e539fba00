package omp

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
)

// Sentinel errors. The errors returned by New, SetDictionary, Encode and
// EncodeTo wrap one of them (test with errors.Is) and add the detail: which
// option, atom or sample is at fault.
var (
	// ErrEmpty reports a nil or empty dictionary.
	ErrEmpty = errors.New("omp: empty dictionary")
	// ErrNonFinite reports a NaN or infinite entry in a dictionary or a
	// sample, or a sample whose squared norm overflows float64.
	ErrNonFinite = errors.New("omp: non-finite value")
	// ErrNotUnit reports an atom whose norm differs from 1 by more than
	// NormTolerance (without WithNormalize).
	ErrNotUnit = errors.New("omp: atom is not of unit norm")
	// ErrZeroAtom reports an atom that is zero and cannot be normalised.
	ErrZeroAtom = errors.New("omp: zero atom")
	// ErrShape reports a dictionary or data matrix of the wrong shape.
	ErrShape = errors.New("omp: shape mismatch")
	// ErrOption reports an invalid option value.
	ErrOption = errors.New("omp: invalid option")
)

// NormTolerance is how far an atom's Euclidean norm may be from 1 when New or
// SetDictionary is called without WithNormalize. The coder uses the exact
// diagonal of G = D Dᵀ, so atoms within the tolerance are coded exactly as
// given, not as if their norm were 1.
const NormTolerance = 1e-6

// NormTolerance32 is NormTolerance for a Coder32: atoms normalised in
// float32 are within a few units of 2⁻²⁴ of norm 1, and the diagonal of a
// Gram matrix summed in float32 (NewGram32) is off by up to about n·2⁻²⁴
// for atoms of n entries, more than NormTolerance for n in the hundreds.
const NormTolerance32 = 1e-4

// parseOptions applies opts to fresh settings.
func parseOptions(opts []Option) (settings, error) {
	var s settings
	for _, o := range opts {
		if o == nil {
			return s, fmt.Errorf("%w: nil Option", ErrOption)
		}
		if err := o(&s); err != nil {
			return s, err
		}
	}
	return s, nil
}

// complete fills in the defaults of the options not given, for K atoms:
// blas.Default() when a backend is needed, GOMAXPROCS threads,
// defaultBlock(K). Its error is Default's: ODDL_BLAS names a backend that
// is not there.
func (s *settings) complete(k int, needBackend bool) error {
	if s.backend == nil && needBackend {
		if s.backend32 != nil {
			return fmt.Errorf("%w: WithBackend32 sets the backend of a float32 coder; use WithBackend", ErrOption)
		}
		b, err := blas.Default()
		if err != nil {
			return fmt.Errorf("%w: %v", ErrOption, err)
		}
		s.backend = b
	}
	s.completeRest(k)
	return nil
}

// complete32 is complete for a float32 coder: its backend is the one
// WithBackend32 gave, else the float32 routines of the one WithBackend
// gave, else blas.Default32() (the backend ODDL_BLAS names or the
// automatic choice, as for float64).
func (s *settings) complete32(k int, needBackend bool) error {
	if s.backend32 == nil && needBackend {
		if s.backend != nil {
			b, ok := s.backend.(gblas.Float32)
			if !ok {
				return fmt.Errorf("%w: the backend has no float32 routines (gonum's blas.Float32); use WithBackend32", ErrOption)
			}
			s.backend32 = b
		} else {
			b, err := blas.Default32()
			if err != nil {
				return fmt.Errorf("%w: %v", ErrOption, err)
			}
			s.backend32 = b
		}
	}
	s.completeRest(k)
	return nil
}

// completeRest fills in the defaults of the options other than the
// backend.
func (s *settings) completeRest(k int) {
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	if s.block == 0 {
		s.block = defaultBlock(k)
	}
	if !s.chunkSet {
		s.chunk, s.chunkMax = chunkRows, chunkMaxDict
	}
}

// settings collects the options given to New.
type settings struct {
	sparsity  int     // 0: not given
	tol       float64 // residual energy target; valid when hasTol
	hasTol    bool    // WithTolerance was given
	backend   gblas.Float64
	backend32 gblas.Float32
	threads   int // 0: runtime.GOMAXPROCS(0)
	block     int // 0: defaultBlock(K)
	normalize bool
	residuals bool
	// chunk and chunkMax set the coding in chunks (see runPart):
	// chunkRows and chunkMaxDict unless a test sets them.
	chunk, chunkMax int
	chunkSet        bool
}

// Option configures a Coder. Options are validated when New applies them;
// an invalid value makes New return an error wrapping ErrOption.
type Option func(*settings) error

// WithSparsity sets L, the largest number of atoms in a sample's code.
// L must be at least 1 and at most min(n, K) for a K×n dictionary.
//
// Without WithSparsity and WithTolerance, L is scikit-learn's default,
// max(1, n/10) capped at min(n, K). With WithTolerance alone, L is min(n, K),
// so the residual target alone decides when to stop.
func WithSparsity(L int) Option {
	return func(s *settings) error {
		if L < 1 {
			return fmt.Errorf("%w: sparsity %d < 1", ErrOption, L)
		}
		s.sparsity = L
		return nil
	}
}

// WithTolerance sets a target for the residual energy: coding of a sample
// stops as soon as ||x - D a||² <= eps. With WithSparsity too, coding stops
// at whichever of the two is reached first. eps must be finite and >= 0.
func WithTolerance(eps float64) Option {
	return func(s *settings) error {
		if !(eps >= 0) || math.IsInf(eps, 1) {
			return fmt.Errorf("%w: tolerance %g is not a finite number >= 0", ErrOption, eps)
		}
		s.tol, s.hasTol = eps, true
		return nil
	}
}

// WithBackend sets the BLAS implementation for the large products
// (G = D Dᵀ and the per-block correlations X Dᵀ). The default is
// blas.Default() of package github.com/oddl-go/oddl/blas; when ODDL_BLAS
// names a backend that is not there, New fails with an error wrapping
// ErrOption rather than run another one. A float32 coder (New32) runs the
// backend's float32 routines (gonum's blas.Float32), which every backend
// of package blas has.
func WithBackend(b gblas.Float64) Option {
	return func(s *settings) error {
		if b == nil {
			return fmt.Errorf("%w: nil backend", ErrOption)
		}
		s.backend = b
		return nil
	}
}

// WithBackend32 sets the BLAS implementation of a float32 coder (New32,
// NewGram32) when it is not one of package blas's, which all implement
// gonum's blas.Float32 beside blas.Float64 and can be given by
// WithBackend. New refuses it: it sets no float64 routines.
func WithBackend32(b gblas.Float32) Option {
	return func(s *settings) error {
		if b == nil {
			return fmt.Errorf("%w: nil backend", ErrOption)
		}
		s.backend32 = b
		return nil
	}
}

// WithThreads sets the number of goroutines Encode runs, each on its own
// part of the samples (its own GEMM and recurrences); the default is
// runtime.GOMAXPROCS(0). With more than one, each part's GEMM runs on the
// backend bound to one thread (blas.OnThreads), where the backend can be
// bound (see the package documentation). n must be >= 1.
func WithThreads(n int) Option {
	return func(s *settings) error {
		if n < 1 {
			return fmt.Errorf("%w: threads %d < 1", ErrOption, n)
		}
		s.threads = n
		return nil
	}
}

// WithBlockSize sets how many samples share one GEMM for their correlations
// X_blk Dᵀ. Larger blocks make the GEMM more efficient and cost
// blockSize×K floats of memory per thread. The default is 1024, or fewer
// for K > 4096 so that a block takes at most 32 MiB (at least 64). n must
// be >= 1.
func WithBlockSize(n int) Option {
	return func(s *settings) error {
		if n < 1 {
			return fmt.Errorf("%w: block size %d < 1", ErrOption, n)
		}
		s.block = n
		return nil
	}
}

// WithNormalize makes the coder divide every atom by its norm instead of
// rejecting atoms that are not of unit norm. The coder then works on the
// normalised dictionary: codes, Gram and residuals refer to it. Zero atoms
// are still an error (ErrZeroAtom). The caller's matrix is not modified.
func WithNormalize() Option {
	return func(s *settings) error {
		s.normalize = true
		return nil
	}
}

// WithResiduals makes Encode and EncodeTo fill Codes.Residual with the
// residual norm ||x_i - D a_i|| of every sample, computed from the codes
// (n·(|I|+1) flops per sample).
func WithResiduals() Option {
	return func(s *settings) error {
		s.residuals = true
		return nil
	}
}
