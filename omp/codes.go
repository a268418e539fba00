package omp

import "gonum.org/v1/gonum/mat"

// SparseCodes holds the sparse codes of N samples on K atoms in
// compressed-row form, with coefficients of type T: sample i's code has atoms Index[Indptr[i]:Indptr[i+1]] (in the order
// Batch-OMP chose them) with coefficients Value[Indptr[i]:Indptr[i+1]], so
// x_i ≈ Σ_j Value[j]·D[Index[j]].
//
// The zero value is empty and ready for EncodeTo, which reuses its slices
// when they are large enough. Codes and Codes32 are its two forms.
type SparseCodes[T Float] struct {
	Samples, Atoms int // N, K

	Indptr []int // len N+1, Indptr[0] = 0
	Index  []int // atom indices
	Value  []T   // coefficients

	// Residual holds ||x_i - D a_i|| for every sample when the coder was
	// built WithResiduals; otherwise it is nil.
	Residual []T
}

// Codes holds the codes of a Coder (float64).
type Codes = SparseCodes[float64]

// Codes32 holds the codes of a Coder32 (float32).
type Codes32 = SparseCodes[float32]

// Len returns N, the number of samples.
func (c *SparseCodes[T]) Len() int { return c.Samples }

// Row returns sample i's atom indices and coefficients. The slices alias c.
func (c *SparseCodes[T]) Row(i int) (index []int, value []T) {
	if i < 0 || i >= c.Samples {
		panic("omp: sample index out of range")
	}
	lo, hi := c.Indptr[i], c.Indptr[i+1]
	return c.Index[lo:hi:hi], c.Value[lo:hi:hi]
}

// Nnz returns the number of stored coefficients.
func (c *SparseCodes[T]) Nnz() int {
	if c.Samples == 0 {
		return 0
	}
	return c.Indptr[c.Samples]
}

// Dense returns the codes as a new N×K float64 matrix, one code per row.
// For N = 0 it returns an empty matrix (mat.Dense's zero value).
func (c *SparseCodes[T]) Dense() *mat.Dense {
	if c.Samples == 0 || c.Atoms == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(c.Samples, c.Atoms, nil)
	raw := out.RawMatrix()
	for i := range c.Samples {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c.Atoms]
		for j := c.Indptr[i]; j < c.Indptr[i+1]; j++ {
			row[c.Index[j]] = float64(c.Value[j])
		}
	}
	return out
}

// reset prepares c for n samples on k atoms, keeping the slices' memory.
// capHint is the number of entries to reserve (0: keep what is there).
func (c *SparseCodes[T]) reset(n, k, capHint int, residuals bool) {
	c.Samples, c.Atoms = n, k
	c.Indptr = grow(c.Indptr, n+1)
	c.Indptr[0] = 0
	if cap(c.Index) < capHint {
		c.Index = make([]int, 0, capHint)
	}
	if cap(c.Value) < capHint {
		c.Value = make([]T, 0, capHint)
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
