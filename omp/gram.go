package omp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

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
	k, cols := G.Dims()
	c, err := newGramCoder(k, cols, opts)
	if err != nil {
		return nil, err
	}
	if err := c.setGram(dense(G)); err != nil {
		return nil, err
	}
	return c, nil
}

// NewGramFill is NewGram with G written by fill into the coder's own
// K×K matrix (its upper triangle, as for FillGram), so that no second K×K
// matrix is made for it: the caller that computes G needs none of its
// own. The checks are NewGram's.
func NewGramFill(k int, fill func(g []float64), opts ...Option) (*Coder, error) {
	if k < 1 {
		return nil, ErrEmpty
	}
	c, err := newGramCoder(k, k, opts)
	if err != nil {
		return nil, err
	}
	if err := c.fillGram(fill); err != nil {
		return nil, err
	}
	return c, nil
}

// newGramCoder returns the Coder of NewGram and NewGramFill for a k×cols
// Gram matrix, its settings checked, before its matrix is set.
func newGramCoder(k, cols int, opts []Option) (*Coder, error) {
	s, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	if err := gramSettings(&s, k, cols); err != nil {
		return nil, err
	}
	if err := s.complete(k, false); err != nil {
		return nil, err
	}
	c := &Coder{}
	c.init(s, k, 0, nil)
	c.gramView = mat.NewDense(k, k, c.gram)
	return c, nil
}

// gramSettings checks and completes the settings s of a coder of the
// k×cols Gram matrix (NewGram, NewGram32).
func gramSettings(s *settings, k, cols int) error {
	switch {
	case k != cols:
		return fmt.Errorf("%w: Gram matrix is %d×%d, not square", ErrShape, k, cols)
	case s.normalize:
		return fmt.Errorf("%w: WithNormalize needs the dictionary", ErrOption)
	case s.residuals:
		return fmt.Errorf("%w: WithResiduals needs the dictionary", ErrOption)
	case s.sparsity > k:
		return fmt.Errorf("%w: sparsity %d > K = %d", ErrOption, s.sparsity, k)
	case s.sparsity == 0 && s.hasTol:
		s.sparsity = k
	case s.sparsity == 0:
		s.sparsity = max(1, k/10)
	}
	return nil
}

// SetGram replaces the Gram matrix of a Coder built by NewGram by G, which
// must have its shape and pass its checks; on error the coder keeps its
// previous matrix. It allocates nothing but the goroutines that
// share the copy.
func (c *Coder) SetGram(G *mat.Dense) error {
	if !c.gramOnly {
		return errSetGram
	}
	if G == nil || G.IsEmpty() {
		return ErrEmpty
	}
	return c.setGramLocked(dense(G))
}

// errSetGram is SetGram's error on a coder with a dictionary.
var errSetGram = errors.New("omp: SetGram on a coder with a dictionary: use SetDictionary")

// setGramLocked is SetGram on the raw matrix G, not empty, of a coder
// built from a Gram matrix.
func (c *core[T]) setGramLocked(G general[T]) error {
	if G.rows != c.k || G.cols != c.k {
		return fmt.Errorf("%w: Gram matrix is %d×%d, the coder's is %d×%d", ErrShape, G.rows, G.cols, c.k, c.k)
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
func (c *Coder) FillGram(fill func(g []float64)) error { return c.fillGram(fill) }

// fillGram is FillGram.
func (c *core[T]) fillGram(fill func(g []T)) error {
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
// NormTolerance (NormTolerance32) of 1.
func checkGramRows[T Float](src []T, k, ld, i0, i1 int) error {
	for i := i0; i < i1; i++ {
		row := src[i*ld : i*ld+k]
		// One vectorised sum of squares finds a non-finite entry (or a
		// finite one large enough to overflow it, which the scan clears).
		if ss := sumSqT(row[i:]); math.IsNaN(ss) || math.IsInf(ss, 0) {
			for j := i; j < k; j++ {
				if v := row[j]; isNaNOrInf(v) {
					return fmt.Errorf("%w: Gram matrix entry (%d, %d) is %v", ErrNonFinite, i, j, v)
				}
			}
		}
		if d := float64(row[i]); !(math.Abs(math.Sqrt(d)-1) <= normTolOf[T]()) {
			return fmt.Errorf("%w: atom %d has squared norm %.17g in the Gram matrix (tolerance %g on the norm)",
				ErrNotUnit, i, d, normTolOf[T]())
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
func mirrorBand[T Float](g, src []T, k, ld, i0, i1 int, upper bool) {
	if upper {
		for i := i0; i < i1; i++ {
			copy(g[i*k+i:(i+1)*k], src[i*ld+i:i*ld+k])
		}
	}
	for j0 := 0; j0 < i0; j0 += gramTile {
		transposeT(gramTile, i1-i0, src[j0*ld+i0:], ld, g[i0*k+j0:], k)
	}
	for i := i0; i < i1; i++ {
		for j := i0; j < i; j++ {
			g[i*k+j] = src[j*ld+i]
		}
	}
}

// setGram checks G's upper triangle and copies it, mirrored, into c.gram.
// The checks come first, so that on error the coder keeps its matrix.
func (c *core[T]) setGram(raw general[T]) error {
	k := c.k
	bands := (k + gramTile - 1) / gramTile
	if len(c.bandErr) < bands {
		c.bandErr = make([]error, bands)
	}
	errs := c.bandErr[:bands]
	forBands(c.threads, bands, func(b int) {
		errs[b] = checkGramRows(raw.data, k, raw.stride, b*gramTile, min(b*gramTile+gramTile, k))
	})
	if err := firstErr(errs); err != nil {
		return err
	}
	forBands(c.threads, bands, func(b int) {
		mirrorBand(c.gram, raw.data, k, raw.stride, b*gramTile, min(b*gramTile+gramTile, k), true)
	})
	c.setDiag()
	c.gramBad = false
	return nil
}
