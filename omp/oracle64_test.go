package omp_test

// This file keeps the float64 Batch-OMP coder as it was before the coder
// became generic over float32 and float64: the files codes.go, options.go,
// coder.go, threads.go, gram.go, encode.go and batch.go of package omp,
// verbatim but for the package clause and the merged imports. It is the
// oracle of TestFloat64Unchanged (float64_oracle_test.go), which holds the
// generic coder's float64 codes to this one's bit for bit.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
)

// ---- omp/codes.go as it was ----

// Codes holds the sparse codes of N samples on K atoms in compressed-row
// form: sample i's code has atoms Index[Indptr[i]:Indptr[i+1]] (in the order
// Batch-OMP chose them) with coefficients Value[Indptr[i]:Indptr[i+1]], so
// x_i ≈ Σ_j Value[j]·D[Index[j]].
//
// The zero value is an empty Codes ready for EncodeTo, which reuses its
// slices when they are large enough.
type Codes struct {
	Samples, Atoms int // N, K

	Indptr []int     // len N+1, Indptr[0] = 0
	Index  []int     // atom indices
	Value  []float64 // coefficients

	// Residual holds ||x_i - D a_i|| for every sample when the coder was
	// built WithResiduals; otherwise it is nil.
	Residual []float64
}

// Len returns N, the number of samples.
func (c *Codes) Len() int { return c.Samples }

// Row returns sample i's atom indices and coefficients. The slices alias c.
func (c *Codes) Row(i int) (index []int, value []float64) {
	if i < 0 || i >= c.Samples {
		panic("omp: sample index out of range")
	}
	lo, hi := c.Indptr[i], c.Indptr[i+1]
	return c.Index[lo:hi:hi], c.Value[lo:hi:hi]
}

// Nnz returns the number of stored coefficients.
func (c *Codes) Nnz() int {
	if c.Samples == 0 {
		return 0
	}
	return c.Indptr[c.Samples]
}

// Dense returns the codes as a new N×K matrix, one code per row. For N = 0
// it returns an empty matrix (mat.Dense's zero value).
func (c *Codes) Dense() *mat.Dense {
	if c.Samples == 0 || c.Atoms == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(c.Samples, c.Atoms, nil)
	raw := out.RawMatrix()
	for i := range c.Samples {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c.Atoms]
		for j := c.Indptr[i]; j < c.Indptr[i+1]; j++ {
			row[c.Index[j]] = c.Value[j]
		}
	}
	return out
}

// reset prepares c for n samples on k atoms, keeping the slices' memory.
// capHint is the number of entries to reserve (0: keep what is there).
func (c *Codes) reset(n, k, capHint int, residuals bool) {
	c.Samples, c.Atoms = n, k
	c.Indptr = grow(c.Indptr, n+1)
	c.Indptr[0] = 0
	if cap(c.Index) < capHint {
		c.Index = make([]int, 0, capHint)
	}
	if cap(c.Value) < capHint {
		c.Value = make([]float64, 0, capHint)
	}
	c.Index, c.Value = c.Index[:0], c.Value[:0]
	if residuals {
		c.Residual = grow(c.Residual, n)
	} else {
		c.Residual = nil
	}
}

// grow returns s resized to n, reallocated only when its capacity is short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// ---- omp/options.go as it was ----

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
		b, err := blas.Default()
		if err != nil {
			return fmt.Errorf("%w: %v", ErrOption, err)
		}
		s.backend = b
	}
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	if s.block == 0 {
		s.block = defaultBlock(k)
	}
	if !s.chunkSet {
		s.chunk, s.chunkMax = chunkRows, chunkMaxDict
	}
	return nil
}

// settings collects the options given to New.
type settings struct {
	sparsity  int     // 0: not given
	tol       float64 // residual energy target; valid when hasTol
	hasTol    bool    // WithTolerance was given
	backend   gblas.Float64
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
// ErrOption rather than run another one.
func WithBackend(b gblas.Float64) Option {
	return func(s *settings) error {
		if b == nil {
			return fmt.Errorf("%w: nil backend", ErrOption)
		}
		s.backend = b
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

// ---- omp/coder.go as it was ----

// defaultBlock returns the default number of samples per correlation GEMM
// for K atoms: 1024, or fewer for K > 4096 so that a block's correlations
// take at most 32 MiB, but at least 64.
func defaultBlock(k int) int {
	return max(64, min(1024, (4<<20)/k))
}

// Coder computes sparse codes of samples on a fixed dictionary by Batch-OMP.
// New builds one; SetDictionary replaces its dictionary in place.
//
// A Coder may be used from several goroutines: Encode, EncodeTo and
// SetDictionary take a lock, so calls run one at a time, each using all the
// coder's threads.
type Coder struct {
	mu       sync.Mutex
	settings // the options, completed

	k, n     int  // atoms, dimension
	gramOnly bool // built by NewGram: no dictionary, n = 0
	gramBad  bool // a FillGram failed: no valid Gram matrix

	// dict is K×n, row-major, stride n: the (normalised) atoms, or nil
	// when nothing reads it: with a packed GEMM (packer), and neither
	// normalisation nor residuals, only D's packed copy and G are read
	// after SetDictionary, which makes both from the caller's D.
	dict []float64
	// spare is where a new dictionary is copied while it is checked (then
	// swapped with dict).
	spare    []float64
	gram     []float64 // K×K, row-major: G = D Dᵀ
	diag     []float64 // K: the diagonal of G
	gramView *mat.Dense
	norms    []float64 // K: atom norms, scratch of SetDictionary
	bandErr  []error   // a band's first bad atom, scratch of SetDictionary

	gemms   // what the correlation GEMMs run on
	scratch // Encode's buffers
}

// gemms are the backends of the correlation GEMMs. one is the backend
// bound to one thread, for the GEMMs of a round shared among several
// goroutines (see Coder.gemm). When the backend offers a packed GEMM
// (packer, and onePacker bound to one thread), the correlation GEMMs run
// with D packed once per dictionary (packed holds Dᵀ as the GEMM's second
// operand) instead of once per block of samples.
type gemms struct {
	one       gblas.Float64
	packer    blas.PackedGEMM
	onePacker blas.PackedGEMM
	packed    blas.PackedB
}

// scratch holds Encode's buffers for a round of up to threads×block
// samples, grown on demand and kept.
type scratch struct {
	a0      []float64 // correlations, one row of K per sample
	xx      []float64 // squared sample norms
	scale   []float64 // the power of two applied to each sample
	slotIdx []int     // atom indices, one slot of L per sample
	slotVal []float64 // coefficients, one slot of L per sample
	count   []int     // code lengths
	workers []*worker
	round   round
	partsFn func(w int) // runParts on worker w, for par.Do
}

// New returns a Coder for the dictionary D, a K×n matrix with one atom per
// row. D may be a view into a larger matrix (Stride > n). New copies D, so
// later changes to D have no effect until SetDictionary is called.
//
// Atoms must be finite and of unit norm (within NormTolerance) unless
// WithNormalize is given. New computes G = D Dᵀ once with the backend.
// Errors wrap ErrEmpty, ErrNonFinite, ErrNotUnit, ErrZeroAtom or ErrOption.
func New(D *mat.Dense, opts ...Option) (*Coder, error) {
	if D == nil || D.IsEmpty() {
		return nil, ErrEmpty
	}
	s, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	k, n := D.Dims()
	maxL := min(n, k)
	switch {
	case s.sparsity > maxL:
		return nil, fmt.Errorf("%w: sparsity %d > min(n, K) = min(%d, %d)", ErrOption, s.sparsity, n, k)
	case s.sparsity == 0 && s.hasTol:
		s.sparsity = maxL
	case s.sparsity == 0:
		s.sparsity = min(max(1, n/10), maxL)
	}
	if err := s.complete(k, true); err != nil {
		return nil, err
	}
	c := &Coder{
		settings: s,
		k:        k,
		n:        n,
		gram:     make([]float64, k*k),
		diag:     make([]float64, k),
		norms:    make([]float64, k),
	}
	c.gramView = mat.NewDense(k, k, c.gram)
	c.setBackends()
	if err := c.setDictionary(D); err != nil {
		return nil, err
	}
	return c, nil
}

// SetDictionary replaces the dictionary by D, which must have the shape of
// the current one (K×n; a view is fine), and recomputes G in place. It
// checks D as New does; on error the coder keeps its previous dictionary.
// The coder allocates nothing here but the goroutines that share its work
// (the checks, the copy, the packing and G's triangle; the backend's GEMM
// may allocate).
func (c *Coder) SetDictionary(D *mat.Dense) error {
	if c.gramOnly {
		return errNoDictionary
	}
	if D == nil || D.IsEmpty() {
		return ErrEmpty
	}
	if r, cols := D.Dims(); r != c.k || cols != c.n {
		return fmt.Errorf("%w: dictionary is %d×%d, the coder's is %d×%d", ErrShape, r, cols, c.k, c.n)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.setDictionary(D)
}

// setDictionary validates D, copies (and perhaps normalises) it into c.dict
// and recomputes the Gram matrix. Each atom is checked and copied in one
// go, in bands of atoms on the coder's threads, into the spare buffer,
// which replaces c.dict only when every atom passed; the error is the first
// bad atom's. A direct coder only checks D, then packs it and computes G
// from it.
func (c *Coder) setDictionary(D *mat.Dense) error {
	raw := D.RawMatrix()
	const tile = 64
	bands := (c.k + tile - 1) / tile
	if len(c.bandErr) < bands {
		c.bandErr = make([]error, bands)
	}
	direct := c.packer != nil && !c.normalize && !c.residuals
	if !direct && len(c.spare) < c.k*c.n {
		c.spare = make([]float64, c.k*c.n)
	}
	errs := c.bandErr[:bands]
	forBands(c.threads, bands, func(b int) {
		errs[b] = nil
		for j := b * tile; j < min(b*tile+tile, c.k); j++ {
			row := raw.Data[j*raw.Stride : j*raw.Stride+c.n]
			if err := c.checkAtom(row, j); err != nil {
				errs[b] = err
				return
			}
			if direct {
				continue
			}
			dst := c.spare[j*c.n : (j+1)*c.n]
			copy(dst, row)
			if c.normalize {
				kernel.ScalUnitary(1/c.norms[j], dst)
			}
		}
	})
	if err := firstErr(errs); err != nil {
		return err
	}
	if direct {
		c.computeGram(raw.Data, raw.Stride)
		return nil
	}
	c.dict, c.spare = c.spare, c.dict
	c.computeGram(c.dict, c.n)
	return nil
}

// checkAtom checks atom j (row of D) and stores its norm.
func (c *Coder) checkAtom(row []float64, j int) error {
	nrm := kernel.Nrm2Unitary(row)
	if math.IsNaN(nrm) || math.IsInf(nrm, 0) {
		for i, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: atom %d, entry %d is %v", ErrNonFinite, j, i, v)
			}
		}
		return fmt.Errorf("%w: atom %d has an infinite norm", ErrNonFinite, j)
	}
	switch {
	case nrm == 0:
		return fmt.Errorf("%w: atom %d is zero", ErrZeroAtom, j)
	case !c.normalize && math.Abs(nrm-1) > NormTolerance:
		return fmt.Errorf("%w: atom %d has norm %.17g (tolerance %g; use WithNormalize to normalise)",
			ErrNotUnit, j, nrm, NormTolerance)
	}
	c.norms[j] = nrm
	return nil
}

// computeGram sets G = D Dᵀ for the K×n dictionary d (row stride ld): the
// upper triangle by the backend's Dsyrk, then the lower triangle
// mirrored, so G is exactly symmetric. With a packed GEMM D is packed
// here, once for the Gram matrix and the correlations, and where the
// backend offers it (blas.GramUpper) the upper triangle is one product
// over the micro-tiles that reach it (for Native the values of its Dsyrk).
func (c *Coder) computeGram(d []float64, ld int) {
	k := c.k
	if c.packer != nil {
		c.packer.PackB(&c.packed, gblas.Trans, c.n, c.k, d, ld)
	}
	if g, ok := c.packer.(blas.GramUpper); ok {
		g.DgemmPackedUpper(gblas.NoTrans, 1, d, ld, &c.packed, 0, c.gram, k)
	} else {
		c.backend.Dsyrk(gblas.Upper, gblas.NoTrans, k, c.n, 1, d, ld, 0, c.gram, k)
	}
	mirrorUpper(c.gram, k, c.threads)
	c.setDiag()
}

// mirrorUpper copies the upper triangle of the k×k row-major g to its
// lower triangle on up to threads goroutines: each takes bands of rows and
// fills their lower part in square tiles, so that the column reads stay in
// cache (the upper triangle it reads is not written).
func mirrorUpper(g []float64, k, threads int) {
	bands := (k + gramTile - 1) / gramTile
	forBands(threads, bands, func(b int) {
		mirrorBand(g, g, k, k, b*gramTile, min(b*gramTile+gramTile, k), false)
	})
}

// firstErr returns the first non-nil error of errs (one per band of rows,
// so the first bad row's) and clears them all.
func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			clear(errs)
			return err
		}
	}
	return nil
}

// forBands runs band(0), …, band(bands−1) on up to threads goroutines (the
// caller's included), goroutine w taking bands w, w+workers, …
func forBands(threads, bands int, band func(b int)) {
	workers := min(max(1, threads), bands)
	par.Do(workers, func(w int) {
		for b := w; b < bands; b += workers {
			band(b)
		}
	})
}

// setDiag copies the diagonal of G into c.diag, where the recurrence reads
// it without touching a row of G.
func (c *Coder) setDiag() {
	for j := range c.k {
		c.diag[j] = c.gram[j*c.k+j]
	}
}

// Atoms returns K, the number of atoms.
func (c *Coder) Atoms() int { return c.k }

// Dim returns n, the dimension of atoms and samples.
func (c *Coder) Dim() int { return c.n }

// Sparsity returns L, the largest number of atoms in a code.
func (c *Coder) Sparsity() int { return c.sparsity }

// Gram returns G = D Dᵀ (K×K) as a view of the coder's own matrix. The
// caller must not modify it; SetDictionary overwrites it.
func (c *Coder) Gram() *mat.Dense { return c.gramView }

// ---- omp/threads.go as it was ----

// setBackends derives from c.backend what the GEMMs of a round run on: the
// backend bound to one thread, for rounds whose parts each run their own
// GEMM on their own goroutine, and the packed GEMMs where the backend and
// its one-thread value both offer them. Binding is a property of a value
// (blas.Threaded), so no other caller of the backend sees it. A backend
// that cannot be bound keeps its own threads: gonum's goroutines, which
// the Go scheduler fits into GOMAXPROCS, and OpenBLAS's process-wide count
// (blas.SetOpenBLASThreads).
func (c *Coder) setBackends() {
	c.one = blas.OnThreads(c.backend, 1)
	c.packer, _ = c.backend.(blas.PackedGEMM)
	c.onePacker, _ = c.one.(blas.PackedGEMM)
	if c.onePacker == nil {
		c.packer = nil
	}
}

// gemm returns what the correlation GEMMs of a round of parts parts run
// on: the backend itself with one part, so that its threads share the one
// product, and the one-thread value with several. The packed GEMM is nil
// when the backend has none.
func (c *Coder) gemm(parts int) (gblas.Float64, blas.PackedGEMM) {
	if parts > 1 {
		return c.one, c.onePacker
	}
	return c.backend, c.packer
}

// ---- omp/gram.go as it was ----

// errNoDictionary is returned by the calls that need the atoms themselves
// on a Coder built by NewGram.
var errNoDictionary = fmt.Errorf("%w: the coder was built from a Gram matrix and has no dictionary: use EncodeGramTo", ErrShape)

// errNoGram is returned by EncodeGramTo after a failed FillGram.
var errNoGram = errors.New("omp: the coder has no valid Gram matrix: the last FillGram failed")

// NewGram returns a Coder that knows only G = D Dᵀ, the K×K Gram matrix of
// a dictionary of unit-norm atoms, and codes samples from their
// correlations with EncodeGramTo (the inputs of scikit-learn's
// orthogonal_mp_gram). It serves callers who get G and A0 = X Dᵀ cheaper
// than by a SYRK and a GEMM, for instance from those of a related
// dictionary.
//
// Only the upper triangle of G is read (the coder mirrors it). Its entries
// must be finite and its diagonal within NormTolerance of 1 (atom norms
// squared). WithSparsity (default max(1, K/10)), WithTolerance, WithThreads
// and WithBlockSize apply; WithNormalize and WithResiduals need the atoms and
// are refused.
func NewGram(G *mat.Dense, opts ...Option) (*Coder, error) {
	if G == nil || G.IsEmpty() {
		return nil, ErrEmpty
	}
	s, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	k, cols := G.Dims()
	switch {
	case k != cols:
		return nil, fmt.Errorf("%w: Gram matrix is %d×%d, not square", ErrShape, k, cols)
	case s.normalize:
		return nil, fmt.Errorf("%w: WithNormalize needs the dictionary", ErrOption)
	case s.residuals:
		return nil, fmt.Errorf("%w: WithResiduals needs the dictionary", ErrOption)
	case s.sparsity > k:
		return nil, fmt.Errorf("%w: sparsity %d > K = %d", ErrOption, s.sparsity, k)
	case s.sparsity == 0 && s.hasTol:
		s.sparsity = k
	case s.sparsity == 0:
		s.sparsity = max(1, k/10)
	}
	if err := s.complete(k, false); err != nil {
		return nil, err
	}
	c := &Coder{
		settings: s,
		k:        k,
		gramOnly: true,
		gram:     make([]float64, k*k),
		diag:     make([]float64, k),
	}
	c.gramView = mat.NewDense(k, k, c.gram)
	if err := c.setGram(G); err != nil {
		return nil, err
	}
	return c, nil
}

// SetGram replaces the Gram matrix of a Coder built by NewGram by G, which
// must have its shape and pass its checks; on error the coder keeps its
// previous matrix. It allocates nothing but the goroutines that
// share the copy.
func (c *Coder) SetGram(G *mat.Dense) error {
	if !c.gramOnly {
		return errors.New("omp: SetGram on a coder with a dictionary: use SetDictionary")
	}
	if G == nil || G.IsEmpty() {
		return ErrEmpty
	}
	if r, cols := G.Dims(); r != c.k || cols != c.k {
		return fmt.Errorf("%w: Gram matrix is %d×%d, the coder's is %d×%d", ErrShape, r, cols, c.k, c.k)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.setGram(G)
}

// FillGram replaces the Gram matrix of a Coder built by NewGram in place,
// without a copy: fill receives the coder's own K×K row-major matrix and
// must write its upper triangle (entries (i, j) with i ≤ j); the coder then
// checks it as SetGram does and mirrors it to the lower triangle. fill runs
// under the coder's lock and must not call the coder. On error the coder
// has no Gram matrix, and EncodeGramTo fails, until a SetGram or FillGram
// succeeds.
func (c *Coder) FillGram(fill func(g []float64)) error {
	if !c.gramOnly {
		return errors.New("omp: FillGram on a coder with a dictionary: use SetDictionary")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gramBad = true
	fill(c.gram)
	k := c.k
	bands := (k + gramTile - 1) / gramTile
	if len(c.bandErr) < bands {
		c.bandErr = make([]error, bands)
	}
	errs := c.bandErr[:bands]
	// Rows are checked and mirrored band by band: a band's mirror reads
	// upper-triangle entries of earlier rows, which nothing writes.
	forBands(c.threads, bands, func(b int) {
		i0, i1 := b*gramTile, min(b*gramTile+gramTile, k)
		errs[b] = checkGramRows(c.gram, k, k, i0, i1)
		if errs[b] == nil {
			mirrorBand(c.gram, c.gram, k, k, i0, i1, false)
		}
	})
	if err := firstErr(errs); err != nil {
		return err
	}
	c.setDiag()
	c.gramBad = false
	return nil
}

// gramTile is the side of the square tiles in which Gram matrices are
// mirrored, and the height of the bands of rows the threads share.
const gramTile = 64

// checkGramRows checks rows i0..i1-1 of the upper triangle of the k×k
// Gram matrix src (row stride ld): finite entries, diagonal within
// NormTolerance of 1.
func checkGramRows(src []float64, k, ld, i0, i1 int) error {
	for i := i0; i < i1; i++ {
		row := src[i*ld : i*ld+k]
		// One vectorised sum of squares finds a non-finite entry (or a
		// finite one large enough to overflow it, which the scan clears).
		if ss := kernel.SumSqUnitary(row[i:]); math.IsNaN(ss) || math.IsInf(ss, 0) {
			for j := i; j < k; j++ {
				if v := row[j]; math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%w: Gram matrix entry (%d, %d) is %v", ErrNonFinite, i, j, v)
				}
			}
		}
		if d := row[i]; !(math.Abs(math.Sqrt(d)-1) <= NormTolerance) {
			return fmt.Errorf("%w: atom %d has squared norm %.17g in the Gram matrix (tolerance %g on the norm)",
				ErrNotUnit, i, d, NormTolerance)
		}
	}
	return nil
}

// mirrorBand writes rows i0..i1-1 of the k×k row-major g from the upper
// triangle of src (row stride ld): G[i, j] = src[j, i] for j < i, in
// square tiles so that the column reads stay in cache, and, with upper,
// G[i, i:] = src[i, i:] too. g and src may be the same matrix (ld = k).
// i0 is a multiple of gramTile: the tiles left of the diagonal one are
// whole, and kernel.Transpose moves them.
func mirrorBand(g, src []float64, k, ld, i0, i1 int, upper bool) {
	if upper {
		for i := i0; i < i1; i++ {
			copy(g[i*k+i:(i+1)*k], src[i*ld+i:i*ld+k])
		}
	}
	for j0 := 0; j0 < i0; j0 += gramTile {
		kernel.Transpose(gramTile, i1-i0, src[j0*ld+i0:], ld, g[i0*k+j0:], k)
	}
	for i := i0; i < i1; i++ {
		for j := i0; j < i; j++ {
			g[i*k+j] = src[j*ld+i]
		}
	}
}

// setGram checks G's upper triangle and copies it, mirrored, into c.gram.
// The checks come first, so that on error the coder keeps its matrix.
func (c *Coder) setGram(G *mat.Dense) error {
	k := c.k
	raw := G.RawMatrix()
	bands := (k + gramTile - 1) / gramTile
	if len(c.bandErr) < bands {
		c.bandErr = make([]error, bands)
	}
	errs := c.bandErr[:bands]
	forBands(c.threads, bands, func(b int) {
		errs[b] = checkGramRows(raw.Data, k, raw.Stride, b*gramTile, min(b*gramTile+gramTile, k))
	})
	if err := firstErr(errs); err != nil {
		return err
	}
	forBands(c.threads, bands, func(b int) {
		mirrorBand(c.gram, raw.Data, k, raw.Stride, b*gramTile, min(b*gramTile+gramTile, k), true)
	})
	c.setDiag()
	c.gramBad = false
	return nil
}

// ---- omp/encode.go as it was ----

// Squared norms outside [normLo, normHi] are brought near 1 by a power of
// two before coding (exact, and undone on the coefficients), so that very
// small or very large samples neither underflow nor overflow.
const (
	normLo = 0x1p-400
	normHi = 0x1p400
)

// round is the state that the goroutines of one round share. A round is
// up to threads×block samples, cut into one contiguous part per goroutine.
type round struct {
	next   atomic.Int64 // next part to hand out
	start  int          // first sample of the round
	m      int          // samples in the round
	parts  int
	x      blas64.General // the samples, or
	a0     blas64.General // their correlations (EncodeGramTo)
	xx     []float64      // and squared norms
	resOut []float64      // Codes.Residual of the call, or nil
}

// Encode returns the codes of the samples in X, an N×n matrix with one sample
// per row (a view is fine). A sample with a NaN or infinite entry is an error
// wrapping ErrNonFinite that names its row; a width other than n is an error
// wrapping ErrShape. An empty X gives empty Codes.
func (c *Coder) Encode(X *mat.Dense) (*Codes, error) {
	var dst Codes
	if err := c.EncodeTo(&dst, X); err != nil {
		return nil, err
	}
	return &dst, nil
}

// EncodeTo is Encode writing into dst, whose slices are reused when large
// enough: coding the same number of samples again allocates nothing but the
// goroutines of the call. On error dst's contents are unspecified.
func (c *Coder) EncodeTo(dst *Codes, X *mat.Dense) error {
	return c.EncodeToContext(context.Background(), dst, X)
}

// EncodeToContext is EncodeTo that gives up when ctx is done: it checks ctx
// between rounds of samples (a few thousand at most) and then returns
// ctx.Err(), dst's contents unspecified.
func (c *Coder) EncodeToContext(ctx context.Context, dst *Codes, X *mat.Dense) error {
	if dst == nil {
		panic("omp: nil destination Codes")
	}
	if c.gramOnly {
		return errNoDictionary
	}
	var N int
	if X != nil && !X.IsEmpty() {
		var cols int
		N, cols = X.Dims()
		if cols != c.n {
			return fmt.Errorf("%w: samples have %d features, the dictionary's atoms %d", ErrShape, cols, c.n)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var x blas64.General
	if N > 0 {
		x = X.RawMatrix()
	}
	return c.encode(ctx, dst, N, x, blas64.General{}, nil, c.residuals)
}

// EncodeGramTo codes N samples given by their correlations with the atoms,
// A0 = X Dᵀ (N×K, row i holds d_j·x_i; a view is fine), and their squared
// norms xx (len N), instead of the samples themselves: Batch-OMP needs
// nothing else besides G. It works for any Coder, and is the only way to
// code with one built by NewGram. A0 and xx are not modified; the codes are
// those EncodeTo gives for the same X up to rounding, without residuals.
//
// A NaN or infinite correlation or norm, or a negative norm, is an error
// wrapping ErrNonFinite or ErrShape that names the sample.
func (c *Coder) EncodeGramTo(dst *Codes, A0 *mat.Dense, xx []float64) error {
	if dst == nil {
		panic("omp: nil destination Codes")
	}
	var N int
	var a0 blas64.General
	if A0 != nil && !A0.IsEmpty() {
		var cols int
		N, cols = A0.Dims()
		if cols != c.k {
			return fmt.Errorf("%w: correlations have %d columns, the coder has %d atoms", ErrShape, cols, c.k)
		}
		a0 = A0.RawMatrix()
	}
	if len(xx) != N {
		return fmt.Errorf("%w: %d squared norms for %d samples", ErrShape, len(xx), N)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gramBad {
		return errNoGram
	}
	return c.encode(context.Background(), dst, N, blas64.General{}, a0, xx, false)
}

// encode codes N samples, from x or (when a0.Data is set) from the
// correlations a0 and squared norms xx, checking ctx between rounds.
func (c *Coder) encode(ctx context.Context, dst *Codes, N int, x, a0 blas64.General, xx []float64, residuals bool) error {
	l := c.sparsity
	capHint := 0
	if !c.hasTol {
		capHint = N * l
	}
	dst.reset(N, c.k, capHint, residuals)
	if N == 0 {
		return nil
	}
	// One part of at least minPart samples per goroutine.
	const minPart = 8
	t := max(1, min(c.threads, N/minPart))
	size := min(t*c.block, N)
	c.ensureScratch(size, a0.Data != nil || !c.chunked())
	for len(c.workers) < t {
		c.workers = append(c.workers, newWorker(c.n, c.k, l, c.residuals))
	}

	r := &c.round
	r.x, r.a0, r.xx = x, a0, xx
	r.resOut = dst.Residual
	r.parts = t
	defer func() { r.x, r.a0, r.xx, r.resOut = blas64.General{}, blas64.General{}, nil, nil }()
	if c.partsFn == nil {
		c.partsFn = func(w int) { c.runParts(c.workers[w]) }
	}

	for r0 := 0; r0 < N; r0 += size {
		if err := ctx.Err(); err != nil {
			return err
		}
		m := min(size, N-r0)
		r.start, r.m = r0, m
		r.next.Store(0)
		par.Do(t, c.partsFn)

		// The first bad sample of the round, if any: parts are contiguous
		// and each stops at its first bad sample.
		var err error
		bad := N
		for _, w := range c.workers[:t] {
			if w.err != nil && w.errRow < bad {
				err, bad = w.err, w.errRow
			}
			w.err = nil
		}
		if err != nil {
			return err
		}

		for i := range m {
			lo := i * l
			hi := lo + c.count[i]
			dst.Index = append(dst.Index, c.slotIdx[lo:hi]...)
			dst.Value = append(dst.Value, c.slotVal[lo:hi]...)
			dst.Indptr[r0+i+1] = len(dst.Index)
		}
	}
	return nil
}

// ensureScratch sizes the round buffers for size samples, with room for
// their correlations when withA0 (when they are not computed a chunk at a
// time into the workers' own buffers).
func (c *Coder) ensureScratch(size int, withA0 bool) {
	if withA0 {
		c.a0 = grow(c.a0, size*c.k)
	}
	c.xx = grow(c.xx, size)
	c.scale = grow(c.scale, size)
	c.slotIdx = grow(c.slotIdx, size*c.sparsity)
	c.slotVal = grow(c.slotVal, size*c.sparsity)
	c.count = grow(c.count, size)
}

// runParts runs parts of the current round until none is left.
func (c *Coder) runParts(w *worker) {
	r := &c.round
	for {
		part := int(r.next.Add(1)) - 1
		if part >= r.parts {
			return
		}
		lo, hi := part*r.m/r.parts, (part+1)*r.m/r.parts
		if hi > lo {
			c.runPart(w, lo, hi)
		}
	}
}

// With a packed GEMM and a dictionary of at most chunkMaxDict entries
// (n·K), a part's correlations are computed and coded chunkRows samples at
// a time: a chunk's correlations are then still in L2 when the pursuits
// read them, instead of coming back from memory after the whole part's
// GEMM, while the packed dictionary, read again by every chunk's GEMM,
// stays in cache. Every chunk of a worker writes them to the same buffer
// (worker.a0), which thus stays in L2 and is not written back to L3, where
// it would evict rows of G that the pursuits read again; and there is no
// round-size buffer of correlations. While a chunk is coded, the samples of
// the next one are requested from memory, a row a sample, so that their
// checks and GEMM find them in cache. For larger dictionaries re-reading
// the packed dictionary costs more than the correlations save, hence the
// bound. BenchmarkEncodeChunks measures both ways; docs/benchmarks/omp.md
// (its design choices) has the figures behind the two constants.
// chunkRows is a multiple of the GEMM micro-kernel's six rows.
const (
	chunkRows    = 48
	chunkMaxDict = 5 << 16 // n·K entries
)

// chunked reports whether Encode computes the correlations a chunk at a
// time.
func (c *Coder) chunked() bool { return c.packer != nil && c.n*c.k <= c.chunkMax }

// runPart codes samples lo..hi-1 of the current round: checks and norms,
// the correlations by one GEMM, then the recurrences — all at once, or a
// chunk at a time. A bad sample stops the part where it is found.
func (c *Coder) runPart(w *worker, lo, hi int) {
	r := &c.round
	if r.a0.Data != nil {
		for i := lo; i < hi; i++ {
			if err := c.prepareGram(i, r.start+i); err != nil {
				w.fail(err, r.start+i)
				return
			}
		}
		c.codeSamples(w, c.a0[lo*c.k:], lo, hi, 0, 0, false)
		return
	}
	x := r.x
	chunked := c.chunked()
	step := hi - lo
	if chunked {
		step = c.chunk
		w.a0 = grow(w.a0, c.chunk*c.k)
	}
	for g := lo; g < hi; g += step {
		e := min(hi, g+step)
		for i := g; i < e; i++ {
			if err := c.prepare(i, r.start+i); err != nil {
				w.fail(err, r.start+i)
				return
			}
		}
		a := w.a0 // the correlations of samples g..e-1
		if !chunked {
			a = c.a0[g*c.k:]
		}
		b, p := c.gemm(r.parts)
		if p != nil {
			p.DgemmPacked(gblas.NoTrans, e-g, 1, x.Data[(r.start+g)*x.Stride:], x.Stride, &c.packed, 0, a, c.k)
		} else {
			b.Dgemm(gblas.NoTrans, gblas.Trans, e-g, c.k, c.n,
				1, x.Data[(r.start+g)*x.Stride:], x.Stride, c.dict, c.n,
				0, a, c.k)
		}
		c.codeSamples(w, a, g, e, e, min(hi, e+step), chunked)
	}
}

// codeSamples codes samples lo..hi-1 of the current round. Each sample's
// first atom is found, and its row of G requested from memory, while the
// previous sample is coded: the recurrence otherwise waits for that row.
// Samples pf0..pf1-1 (the next chunk's, pf1 <= pf0 for none) are requested
// too, one with each sample coded. Sample i's correlations are
// a[(i-lo)·K:], overwritten; inL2 says they were just computed (a
// chunk's), so that they need not be requested ahead.
func (c *Coder) codeSamples(w *worker, a []float64, lo, hi, pf0, pf1 int, inL2 bool) {
	k := c.k
	corr := func(i int) []float64 { return a[(i-lo)*k : (i-lo+1)*k] }
	j := c.firstAtom(corr(lo), lo)
	x := c.round.x
	for i := lo; i < hi; i++ {
		if q := pf0 + i - lo; q < pf1 {
			row := (c.round.start + q) * x.Stride
			kernel.Prefetch(x.Data[row : row+c.n])
		}
		next := -1
		if i+2 < hi && !inL2 {
			// The correlations of the sample after next, which the
			// part's GEMM wrote long before (out of L2 by now), so that
			// its first atom does not wait for them.
			kernel.Prefetch(corr(i + 2))
		}
		if i+1 < hi {
			next = c.firstAtom(corr(i+1), i+1)
		}
		c.codeSample(w, corr(i), i, j)
		j = next
	}
}

// firstAtom scales a, the correlations of sample i of the round (by the
// power of two that prepare chose), and returns the sample's first atom,
// argmax |a0|, having asked for its row of G to be brought into cache.
func (c *Coder) firstAtom(a []float64, i int) int {
	k := c.k
	if s := c.scale[i]; s != 1 {
		kernel.ScalUnitary(s, a)
	}
	j := kernel.IamaxUnitary(a)
	kernel.Prefetch(c.gram[j*k : (j+1)*k])
	return j
}

// prepare checks sample row (slot i of the round) and stores its squared
// norm and scale factor.
func (c *Coder) prepare(i, row int) error {
	x := c.round.x
	v := x.Data[row*x.Stride : row*x.Stride+c.n]
	xx := kernel.SumSqUnitary(v)
	scale := 1.0
	if !(xx >= normLo && xx <= normHi) {
		nrm := kernel.Nrm2Unitary(v)
		switch {
		case math.IsNaN(nrm) || math.IsInf(nrm, 0):
			for j, e := range v {
				if math.IsNaN(e) || math.IsInf(e, 0) {
					return fmt.Errorf("%w: sample %d (row %d of X), feature %d is %v", ErrNonFinite, row, row, j, e)
				}
			}
			return fmt.Errorf("%w: sample %d has an infinite norm", ErrNonFinite, row)
		case nrm == 0:
			xx = 0
		default:
			_, e := math.Frexp(nrm)
			scale = math.Ldexp(1, -e)
			xx = nrm * scale
			xx *= xx
		}
	}
	c.xx[i] = xx
	c.scale[i] = scale
	return nil
}

// prepareGram copies the correlations of sample row (slot i of the round)
// and stores its squared norm and scale factor, checking both.
func (c *Coder) prepareGram(i, row int) error {
	r := &c.round
	src := r.a0.Data[row*r.a0.Stride : row*r.a0.Stride+c.k]
	dst := c.a0[i*c.k : (i+1)*c.k]
	copy(dst, src)
	xx := r.xx[row]
	switch {
	case math.IsNaN(xx) || math.IsInf(xx, 0):
		return fmt.Errorf("%w: sample %d: squared norm is %v", ErrNonFinite, row, xx)
	case xx < 0:
		return fmt.Errorf("%w: sample %d: squared norm %v is negative", ErrShape, row, xx)
	}
	if s := kernel.SumSqUnitary(dst); math.IsNaN(s) || math.IsInf(s, 0) {
		for j, v := range dst {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: sample %d (row %d of A0), correlation %d is %v", ErrNonFinite, row, row, j, v)
			}
		}
	}
	scale := 1.0
	if xx != 0 && !(xx >= normLo && xx <= normHi) {
		_, e := math.Frexp(math.Sqrt(xx))
		scale = math.Ldexp(1, -e)
		xx *= scale * scale
	}
	c.xx[i] = xx
	c.scale[i] = scale
	return nil
}

// codeSample codes sample i of the current round, whose correlations are a
// (overwritten) and first atom j (firstAtom), into its slot.
func (c *Coder) codeSample(w *worker, a []float64, i, j int) {
	r := &c.round
	k, l := c.k, c.sparsity
	idx := c.slotIdx[i*l : (i+1)*l]
	val := c.slotVal[i*l : (i+1)*l]
	tol := c.tol
	scale := c.scale[i]
	if scale != 1 {
		tol *= scale * scale
	}
	cnt := w.batchOMP(c.gram, c.diag, k, a, j, c.xx[i], tol, c.hasTol, idx, val)
	if scale != 1 {
		for j := range val[:cnt] {
			val[j] /= scale
		}
	}
	c.count[i] = cnt
	if r.resOut != nil {
		row := r.start + i
		x := r.x.Data[row*r.x.Stride : row*r.x.Stride+c.n]
		res := w.r
		copy(res, x)
		for j, a := range idx[:cnt] {
			kernel.AxpyUnitary(-val[j], c.dict[a*c.n:(a+1)*c.n], res)
		}
		r.resOut[row] = kernel.Nrm2Unitary(res)
	}
}

// CorrelationsTo writes the correlations A0 = X·Dᵀ of the samples X (N×n)
// with the coder's atoms (normalised, with WithNormalize) into dst, which
// must be N×K: the first product of Batch-OMP, for callers that combine it
// with other terms before EncodeGramTo. With a packed GEMM (blas.PackedGEMM)
// it runs on the dictionary packed once (for Native the same values as its
// Dgemm, bit for bit). It checks shapes only: non-finite inputs propagate.
func (c *Coder) CorrelationsTo(dst, X *mat.Dense) error {
	if c.gramOnly {
		return errNoDictionary
	}
	if X == nil || X.IsEmpty() || dst == nil || dst.IsEmpty() {
		return ErrEmpty
	}
	N, cols := X.Dims()
	if cols != c.n {
		return fmt.Errorf("%w: samples have %d features, the dictionary's atoms %d", ErrShape, cols, c.n)
	}
	if r, k := dst.Dims(); r != N || k != c.k {
		return fmt.Errorf("%w: correlations are %d×%d, want %d×%d", ErrShape, r, k, N, c.k)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	x, d := X.RawMatrix(), dst.RawMatrix()
	if c.packer != nil {
		c.packer.DgemmPacked(gblas.NoTrans, N, 1, x.Data, x.Stride, &c.packed, 0, d.Data, d.Stride)
		return nil
	}
	c.backend.Dgemm(gblas.NoTrans, gblas.Trans, N, c.k, c.n, 1, x.Data, x.Stride, c.dict, c.n, 0, d.Data, d.Stride)
	return nil
}

// ---- omp/batch.go as it was ----

// tiny is the relative threshold of the stopping tests: a correlation whose
// square is at most tiny·||x||² is rounding noise, and an atom whose
// distance² to the span of the chosen ones is at most tiny·G_kk depends on
// them. It is float64's machine epsilon, scikit-learn's threshold for unit
// signals.
const tiny = 0x1p-52

// With L >= gemvMinL and K <= gemvMaxK, the correlation update runs as one
// GEMV over copies of the chosen rows of G (for up to gemvMaxRows atoms)
// instead of one axpy per atom: for short rows and many atoms the fewer
// calls pay for the copies. The bounds come from BenchmarkRecurrence at
// L = 15 over a range of K.
const (
	gemvMinL    = 6
	gemvMaxK    = 512
	gemvMaxRows = 64
)

// worker is the scratch space of one goroutine of the recurrence phase.
type worker struct {
	lc   []float64 // L(L+1)/2: the Cholesky factor of G[I,I], packed by rows
	y    []float64 // L: lc⁻¹·a0[I], grown by one entry a step
	prev []float64 // L: the coefficients of the previous step
	u    []float64 // copies of the rows of G of the first chosen atoms, or nil
	dc   []float64 // the change of their coefficients
	dc2  []float64 // L: the change of the others' coefficients
	r    []float64 // n: residual, only with WithResiduals
	a0   []float64 // chunk×K: the correlations of a chunk, reused by each

	err    error // first bad sample of the worker's part in this round
	errRow int
}

// fail records a bad sample: the first of the round's, as a worker may run
// several parts and find one in each.
func (w *worker) fail(err error, row int) {
	if w.err == nil || row < w.errRow {
		w.err, w.errRow = err, row
	}
}

func newWorker(n, k, l int, residuals bool) *worker {
	w := &worker{
		lc:   make([]float64, l*(l+1)/2),
		y:    make([]float64, l),
		prev: make([]float64, l),
		dc2:  make([]float64, l),
	}
	if l >= gemvMinL && k <= gemvMaxK {
		rows := min(l, gemvMaxRows)
		w.u = make([]float64, rows*k)
		w.dc = make([]float64, rows)
	}
	if residuals {
		w.r = make([]float64, n)
	}
	return w
}

// batchOMP codes one sample by Batch-OMP. a holds a0 = D·x (len K) and is
// overwritten with the correlations of the residual; j is the first index
// of the largest |a0[j]| (kernel.IamaxUnitary(a)); xx = ||x||², tol the
// residual energy target (used when hasTol). It writes the chosen atoms into
// idx and their coefficients into val, both in selection order, and returns
// how many there are (at most len(idx)). It allocates nothing.
//
// The recurrence (Rubinstein, Zibulevsky & Elad 2008) keeps the Cholesky
// factor lc of G[I,I], grown by one row a step: the new row w solves
// lc·w = G[I,k] and its diagonal is sqrt(G_kk − wᵀw). Since lc only grows,
// y = lc⁻¹·a0[I] grows by one entry too, and the least-squares coefficients
// are c = lc⁻ᵀ·y (one back substitution). The new entry of y is the
// component of x along the new atom's direction orthogonal to the chosen
// ones, which is a_k/sqrt(G_kk − wᵀw) with a_k the current correlation. The
// residual energy is ||x||² − yᵀy, so each step lowers it by the new entry
// squared, never raises it. The correlations a = a0 − G[I,:]ᵀ·c are updated
// in place by the change of c, |I| axpys over rows of G a step.
func (w *worker) batchOMP(g, diag []float64, k int, a []float64, j int, xx, tol float64, hasTol bool, idx []int, val []float64) int {
	l := len(idx)
	if hasTol && xx <= tol {
		return 0
	}
	lc, y, prev := w.lc, w.y, w.prev
	noise := tiny * xx
	r2 := xx
	p := 0
	for {
		aj := a[j]
		if aj*aj <= noise || contains(idx[:p], j) {
			break
		}
		gj := g[j*k : j*k+k]
		if p > 0 && p < l-1 {
			// Row j is read whole by this step's update, after the
			// substitutions below: ask for all of it at once, which
			// brings it from L3 sooner than the hardware's prefetcher
			// following the reads. (firstAtom asked for the first
			// atom's row while the previous sample was coded; the last
			// atom's row is not read, only its entries at I, from the
			// other atoms' rows.)
			kernel.Prefetch(gj)
		}
		// Row p of the factor: forward substitution lc[:p,:p]·row = G[I,j].
		// G[i,j] is read as G[j,i] from the rows of the chosen atoms, which
		// the updates keep in cache (G is exactly symmetric); row j itself
		// is first read whole by the next update.
		off := p * (p + 1) / 2
		row := lc[off : off+p+1]
		for m := range p {
			om := m * (m + 1) / 2
			rm := lc[om : om+m+1]
			row[m] = (g[idx[m]*k+j] - dot(rm[:m], row[:m])) / rm[m]
		}
		gjj := diag[j]
		d := gjj - dot(row[:p], row[:p])
		if !(d > tiny*gjj) {
			break // j depends on the chosen atoms
		}
		row[p] = math.Sqrt(d)
		yp := aj / row[p]
		y[p] = yp
		idx[p] = j
		p++
		r2 -= yp * yp

		// Back substitution lcᵀ·c = y, by rows of lc.
		c := val[:p]
		copy(c, y[:p])
		for m := p - 1; m >= 0; m-- {
			om := m * (m + 1) / 2
			rm := lc[om : om+m+1]
			c[m] /= rm[m]
			if cm := c[m]; m > 0 {
				axpy(-cm, rm[:m], c[:m])
			}
		}
		if p == l || (hasTol && r2 <= tol) {
			break
		}
		// a −= G[I,:]ᵀ·(c − c_prev), c_prev = 0 for the new atom.
		prev[p-1] = 0
		rows := 0
		if u := w.u; len(u) > 0 {
			// One GEMV over the copies of the chosen rows of G, four rows
			// a pass, then axpys for any atoms beyond the copies.
			rows = min(p, len(u)/k)
			if p <= rows {
				copy(u[(p-1)*k:p*k], gj)
			}
			dc := w.dc[:rows]
			for m := range dc {
				dc[m] = prev[m] - c[m]
			}
			kernel.GemvT(rows, k, 1, u, k, dc, 1, 1, a, 1)
		}
		// The next atom: argmax |a|, found by the last pass of the update.
		if rows < p {
			dc := w.dc2[:p-rows]
			for m := range dc {
				dc[m] = prev[rows+m] - c[rows+m]
			}
			j = kernel.AxpyRowsIamax(dc, g, k, idx[rows:p], a)
		} else {
			j = kernel.IamaxUnitary(a)
		}
		copy(prev[:p], c)
	}
	return p
}

// contains reports whether s holds v.
func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// shortVec is the length below which dot and axpy run a Go loop: for the
// few-element vectors of the Cholesky factor a call costs more than the work.
const shortVec = 16

// dot returns xᵀy for len(y) >= len(x).
func dot(x, y []float64) float64 {
	if len(x) >= shortVec {
		return kernel.DotUnitary(x, y)
	}
	var s float64
	y = y[:len(x)]
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// axpy adds alpha·x to y, len(y) >= len(x).
func axpy(alpha float64, x, y []float64) {
	if len(x) >= shortVec {
		kernel.AxpyUnitary(alpha, x, y)
		return
	}
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}
