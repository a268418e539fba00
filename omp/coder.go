package omp

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/par"
)

// defaultBlock returns the default number of samples per correlation GEMM
// for K atoms: 1024, or fewer for K > 4096 so that a block's correlations
// take at most 32 MiB, but at least 64.
func defaultBlock(k int) int {
	return max(64, min(1024, (4<<20)/k))
}

// Coder computes sparse codes of samples on a fixed dictionary by Batch-OMP.
// New builds one; SetDictionary replaces its dictionary in place. Coder32
// is its float32 twin.
//
// A Coder may be used from several goroutines: Encode, EncodeTo and
// SetDictionary take a lock, so calls run one at a time, each using all the
// coder's threads.
type Coder struct {
	core[float64]
	gramView *mat.Dense // G as a matrix
}

// core is a coder in precision T: all of Coder and Coder32 but their
// typed entry points.
type core[T Float] struct {
	mu       sync.Mutex
	settings // the options, completed

	k, n     int  // atoms, dimension
	gramOnly bool // built by NewGram: no dictionary, n = 0
	gramBad  bool // a FillGram failed: no valid Gram matrix

	// dict is K×n, row-major, stride n: the (normalised) atoms, or nil
	// when nothing reads it: with a packed GEMM (gm.packed()), and
	// neither normalisation nor residuals, only D's packed copy and G are
	// read after SetDictionary, which makes both from the caller's D.
	dict []T
	// spare is where a new dictionary is copied while it is checked (then
	// swapped with dict).
	spare   []T
	gram    []T         // K×K, row-major: G = D Dᵀ
	diag    gramDiag[T] // the diagonal of G and its square roots
	norms   []float64   // K: atom norms, scratch of SetDictionary
	bandErr []error     // a band's first bad atom, scratch of SetDictionary

	// gm runs the Gram matrix and the correlation GEMMs (see gemms64): on
	// the backend bound to one thread for the GEMMs of a round shared
	// among several goroutines, and, when the backend offers a packed
	// GEMM, with D packed once per dictionary instead of once per block
	// of samples.
	gm         gemmer[T]
	scratch[T] // Encode's buffers
}

// scratch holds Encode's buffers for a round of up to threads×block
// samples, grown on demand and kept.
type scratch[T Float] struct {
	a0      []T       // correlations, one row of K per sample
	xx      []float64 // squared sample norms
	scale   []float64 // the power of two applied to each sample
	slotIdx []int     // atom indices, one slot of L per sample
	slotVal []T       // coefficients, one slot of L per sample
	count   []int     // code lengths
	workers []*worker[T]
	round   round[T]
	partsFn func(w int) // runParts on worker w, for par.Do
}

// general is a row-major matrix of T: blas64.General or blas32.General.
type general[T Float] struct {
	rows, cols, stride int
	data               []T
}

// dense returns the raw matrix of D.
func dense(D *mat.Dense) general[float64] {
	r := D.RawMatrix()
	return general[float64]{r.Rows, r.Cols, r.Stride, r.Data}
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
	if err := newSparsity(&s, k, n); err != nil {
		return nil, err
	}
	if err := s.complete(k, true); err != nil {
		return nil, err
	}
	c := &Coder{}
	c.init(s, k, n, newGemms64(s.backend))
	c.gramView = mat.NewDense(k, k, c.gram)
	if err := c.setDictionary(dense(D)); err != nil {
		return nil, err
	}
	return c, nil
}

// init sets up a coder of k atoms of dimension n (n = 0: of a Gram matrix
// alone) with completed settings s, running its GEMMs on gm.
func (c *core[T]) init(s settings, k, n int, gm gemmer[T]) {
	c.settings, c.k, c.n, c.gm = s, k, n, gm
	c.gramOnly = n == 0
	c.gram = make([]T, k*k)
	c.diag = newGramDiag(make([]T, k))
	if n > 0 {
		c.norms = make([]float64, k)
	}
}

// newSparsity checks and completes the sparsity of settings s for a
// dictionary of k atoms of dimension n (New, New32).
func newSparsity(s *settings, k, n int) error {
	maxL := min(n, k)
	switch {
	case s.sparsity > maxL:
		return fmt.Errorf("%w: sparsity %d > min(n, K) = min(%d, %d)", ErrOption, s.sparsity, n, k)
	case s.sparsity == 0 && s.hasTol:
		s.sparsity = maxL
	case s.sparsity == 0:
		s.sparsity = min(max(1, n/10), maxL)
	}
	return nil
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
	return c.setDictionaryLocked(dense(D))
}

// setDictionaryLocked is SetDictionary on the raw matrix D, not empty,
// of a coder with a dictionary.
func (c *core[T]) setDictionaryLocked(D general[T]) error {
	if D.rows != c.k || D.cols != c.n {
		return fmt.Errorf("%w: dictionary is %d×%d, the coder's is %d×%d", ErrShape, D.rows, D.cols, c.k, c.n)
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
func (c *core[T]) setDictionary(raw general[T]) error {
	const tile = 64
	bands := (c.k + tile - 1) / tile
	if len(c.bandErr) < bands {
		c.bandErr = make([]error, bands)
	}
	direct := c.gm.packed() && !c.normalize && !c.residuals
	if !direct && len(c.spare) < c.k*c.n {
		c.spare = make([]T, c.k*c.n)
	}
	errs := c.bandErr[:bands]
	forBands(c.threads, bands, func(b int) {
		errs[b] = nil
		for j := b * tile; j < min(b*tile+tile, c.k); j++ {
			row := raw.data[j*raw.stride : j*raw.stride+c.n]
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
				scalT(T(1/c.norms[j]), dst)
			}
		}
	})
	if err := firstErr(errs); err != nil {
		return err
	}
	if direct {
		c.computeGram(raw.data, raw.stride)
		return nil
	}
	c.dict, c.spare = c.spare, c.dict
	c.computeGram(c.dict, c.n)
	return nil
}

// checkAtom checks atom j (row of D) and stores its norm.
func (c *core[T]) checkAtom(row []T, j int) error {
	nrm := nrm2T(row)
	if math.IsNaN(nrm) || math.IsInf(nrm, 0) {
		for i, v := range row {
			if isNaNOrInf(v) {
				return fmt.Errorf("%w: atom %d, entry %d is %v", ErrNonFinite, j, i, v)
			}
		}
		return fmt.Errorf("%w: atom %d has an infinite norm", ErrNonFinite, j)
	}
	switch {
	case nrm == 0:
		return fmt.Errorf("%w: atom %d is zero", ErrZeroAtom, j)
	case !c.normalize && math.Abs(nrm-1) > normTolOf[T]():
		return fmt.Errorf("%w: atom %d has norm %.17g (tolerance %g; use WithNormalize to normalise)",
			ErrNotUnit, j, nrm, normTolOf[T]())
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
func (c *core[T]) computeGram(d []T, ld int) {
	c.gm.gram(c.k, c.n, d, ld, c.gram)
	mirrorUpper(c.gram, c.k, c.threads)
	c.setDiag()
}

// mirrorUpper copies the upper triangle of the k×k row-major g to its
// lower triangle on up to threads goroutines: each takes bands of rows and
// fills their lower part in square tiles, so that the column reads stay in
// cache (the upper triangle it reads is not written).
func mirrorUpper[T Float](g []T, k, threads int) {
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
func (c *core[T]) setDiag() {
	for j := range c.k {
		c.diag.g[j] = c.gram[j*c.k+j]
	}
	c.diag.setRoots()
}

// gramDiag is the diagonal of a Gram matrix G as the recurrence reads it:
// G_jj, and sqrt(G_jj) with its reciprocal, which are the Cholesky factor
// of G[I,I] (and its inverse) when I is atom j alone: the first step of a
// pursuit reads them instead of computing a square root and a division on
// its latency chain, with the same values.
type gramDiag[T Float] struct {
	g     []T       // G_jj
	root  []float64 // sqrt(G_jj)
	rroot []float64 // 1/sqrt(G_jj)
}

// newGramDiag returns the gramDiag of the diagonal g (kept, not copied).
func newGramDiag[T Float](g []T) gramDiag[T] {
	d := gramDiag[T]{g: g, root: make([]float64, len(g)), rroot: make([]float64, len(g))}
	d.setRoots()
	return d
}

// setRoots sets root and rroot from g.
func (d *gramDiag[T]) setRoots() {
	for j, v := range d.g {
		d.root[j] = math.Sqrt(float64(v))
		d.rroot[j] = 1 / d.root[j]
	}
}

// Atoms returns K, the number of atoms.
func (c *core[T]) Atoms() int { return c.k }

// Dim returns n, the dimension of atoms and samples (0 for a coder built
// from a Gram matrix).
func (c *core[T]) Dim() int { return c.n }

// Sparsity returns L, the largest number of atoms in a code.
func (c *core[T]) Sparsity() int { return c.sparsity }

// Gram returns G = D Dᵀ (K×K) as a view of the coder's own matrix. The
// caller must not modify it; SetDictionary overwrites it.
func (c *Coder) Gram() *mat.Dense { return c.gramView }
