package omp

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/blas/blas32"
)

// Coder32 is Coder in single precision: the dictionary, its Gram matrix,
// the correlations and the codes are float32, and the GEMMs run on the
// backend's float32 routines (gonum's blas.Float32; with the native
// backend its SGEMM, packed once per dictionary, and its half Gram
// product). The recurrence of each sample keeps its small numbers in
// float64 (see the package documentation), so only the work that grows
// with K and n runs in float32. New32 and NewGram32 build one, with the
// options of New and NewGram.
//
// Matrices are gonum's blas32.General: row-major, Stride ≥ Cols, a view
// into a larger matrix is fine. A Coder32 may be used from several
// goroutines as a Coder.
type Coder32 struct {
	core[float32]
}

// raw32 returns the raw form of A, checking that its fields describe a
// matrix its data holds (rows = 0 for an empty A).
func raw32(A blas32.General, what string) (general[float32], error) {
	if A.Rows == 0 || A.Cols == 0 {
		if A.Rows < 0 || A.Cols < 0 {
			return general[float32]{}, fmt.Errorf("%w: %s is %d×%d", ErrShape, what, A.Rows, A.Cols)
		}
		return general[float32]{}, nil
	}
	if A.Rows < 0 || A.Cols < 0 || A.Stride < A.Cols || len(A.Data) < (A.Rows-1)*A.Stride+A.Cols {
		return general[float32]{}, fmt.Errorf("%w: %s is %d×%d with stride %d in %d values",
			ErrShape, what, A.Rows, A.Cols, A.Stride, len(A.Data))
	}
	return general[float32]{A.Rows, A.Cols, A.Stride, A.Data}, nil
}

// New32 returns a Coder32 for the dictionary D, a K×n matrix with one atom
// per row, as New does for float64: D is copied and checked (finite,
// unit-norm atoms within NormTolerance32 unless WithNormalize is given),
// and G = D Dᵀ computed once. WithBackend gives a backend of package blas
// (its float32 routines run), WithBackend32 any gonum blas.Float32; the
// default is blas.Default32(). Errors wrap ErrEmpty, ErrShape,
// ErrNonFinite, ErrNotUnit, ErrZeroAtom or ErrOption.
func New32(D blas32.General, opts ...Option) (*Coder32, error) {
	d, err := raw32(D, "dictionary")
	if err != nil {
		return nil, err
	}
	if d.rows == 0 {
		return nil, ErrEmpty
	}
	s, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	k, n := d.rows, d.cols
	if err := newSparsity(&s, k, n); err != nil {
		return nil, err
	}
	if err := s.complete32(k, true); err != nil {
		return nil, err
	}
	c := &Coder32{}
	c.init(s, k, n, newGemms32(s.backend32))
	if err := c.setDictionary(d); err != nil {
		return nil, err
	}
	return c, nil
}

// NewGramFill32 is NewGram32 with G written by fill into the coder's own
// matrix, as NewGramFill does for float64.
func NewGramFill32(k int, fill func(g []float32), opts ...Option) (*Coder32, error) {
	if k < 1 {
		return nil, ErrEmpty
	}
	c, err := newGramCoder32(k, k, opts)
	if err != nil {
		return nil, err
	}
	if err := c.fillGram(fill); err != nil {
		return nil, err
	}
	return c, nil
}

// newGramCoder32 is newGramCoder for NewGram32 and NewGramFill32.
func newGramCoder32(k, cols int, opts []Option) (*Coder32, error) {
	s, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	if err := gramSettings(&s, k, cols); err != nil {
		return nil, err
	}
	if err := s.complete32(k, false); err != nil {
		return nil, err
	}
	c := &Coder32{}
	c.init(s, k, 0, nil)
	return c, nil
}

// NewGram32 returns a Coder32 that knows only G = D Dᵀ (K×K, float32), as
// NewGram does for float64; its diagonal must be within NormTolerance32
// of 1. Code with EncodeGramTo.
func NewGram32(G blas32.General, opts ...Option) (*Coder32, error) {
	g, err := raw32(G, "Gram matrix")
	if err != nil {
		return nil, err
	}
	if g.rows == 0 {
		return nil, ErrEmpty
	}
	c, err := newGramCoder32(g.rows, g.cols, opts)
	if err != nil {
		return nil, err
	}
	if err := c.setGram(g); err != nil {
		return nil, err
	}
	return c, nil
}

// SetDictionary replaces the dictionary by D, of the current shape, as
// Coder.SetDictionary does.
func (c *Coder32) SetDictionary(D blas32.General) error {
	if c.gramOnly {
		return errNoDictionary
	}
	d, err := raw32(D, "dictionary")
	if err != nil {
		return err
	}
	if d.rows == 0 {
		return ErrEmpty
	}
	return c.setDictionaryLocked(d)
}

// SetGram replaces the Gram matrix of a Coder32 built by NewGram32, as
// Coder.SetGram does.
func (c *Coder32) SetGram(G blas32.General) error {
	if !c.gramOnly {
		return errSetGram
	}
	g, err := raw32(G, "Gram matrix")
	if err != nil {
		return err
	}
	if g.rows == 0 {
		return ErrEmpty
	}
	return c.setGramLocked(g)
}

// FillGram replaces the Gram matrix of a Coder32 built by NewGram32 in
// place, as Coder.FillGram does: fill writes the upper triangle of the
// coder's own K×K row-major matrix.
func (c *Coder32) FillGram(fill func(g []float32)) error { return c.fillGram(fill) }

// Gram returns G = D Dᵀ (K×K) as a view of the coder's own matrix. The
// caller must not modify it; SetDictionary overwrites it.
func (c *Coder32) Gram() blas32.General {
	return blas32.General{Rows: c.k, Cols: c.k, Stride: c.k, Data: c.gram}
}

// Encode returns the codes of the samples in X, an N×n matrix with one
// sample per row, as Coder.Encode does.
func (c *Coder32) Encode(X blas32.General) (*Codes32, error) {
	var dst Codes32
	if err := c.EncodeTo(&dst, X); err != nil {
		return nil, err
	}
	return &dst, nil
}

// EncodeTo is Encode writing into dst, whose slices are reused when large
// enough, as Coder.EncodeTo.
func (c *Coder32) EncodeTo(dst *Codes32, X blas32.General) error {
	return c.EncodeToContext(context.Background(), dst, X)
}

// EncodeToContext is EncodeTo that gives up when ctx is done, as
// Coder.EncodeToContext.
func (c *Coder32) EncodeToContext(ctx context.Context, dst *Codes32, X blas32.General) error {
	if dst == nil {
		panic("omp: nil destination Codes32")
	}
	x, err := raw32(X, "sample matrix")
	if err != nil {
		return err
	}
	return c.encodeSamples(ctx, dst, x)
}

// EncodeGramTo codes N samples given by their correlations A0 = X Dᵀ
// (N×K) and squared norms xx, as Coder.EncodeGramTo does. The squared
// norms are float64: the residual energy that the tolerance and the
// stopping rule test is xx minus the energy of the code, a difference
// that float32 norms would leave with an error of 2⁻²⁴·||x||².
func (c *Coder32) EncodeGramTo(dst *Codes32, A0 blas32.General, xx []float64) error {
	if dst == nil {
		panic("omp: nil destination Codes32")
	}
	a0, err := raw32(A0, "correlation matrix")
	if err != nil {
		return err
	}
	return c.encodeGram(dst, a0, xx)
}

// CorrelationsTo writes A0 = X·Dᵀ of the samples X (N×n) into dst (N×K),
// as Coder.CorrelationsTo does, by the backend's SGEMM (on the dictionary
// packed once, where the backend offers it).
func (c *Coder32) CorrelationsTo(dst, X blas32.General) error {
	if c.gramOnly {
		return errNoDictionary
	}
	x, err := raw32(X, "sample matrix")
	if err != nil {
		return err
	}
	d, err := raw32(dst, "correlation matrix")
	if err != nil {
		return err
	}
	if x.rows == 0 || d.rows == 0 {
		return ErrEmpty
	}
	return c.correlations(d, x)
}
