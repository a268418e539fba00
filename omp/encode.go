package omp

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/kernel"
)

// grain is how many samples a goroutine takes at a time from a block.
const grain = 4

// Squared norms outside [normLo, normHi] are brought near 1 by a power of
// two before coding (exact, and undone on the coefficients), so that very
// small or very large samples neither underflow nor overflow.
const (
	normLo = 0x1p-400
	normHi = 0x1p400
)

// pool holds the state that the goroutines of one block's recurrence phase
// share.
type pool struct {
	next   atomic.Int64 // next sample of the block to hand out
	wg     sync.WaitGroup
	start  int // first sample of the block
	m      int // samples in the block
	x      blas64.General
	scale  []float64 // per sample of the block: the power of two applied
	resOut []float64 // Codes.Residual of the call, or nil
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
	if dst == nil {
		panic("omp: nil destination Codes")
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

	l := c.sparsity
	capHint := 0
	if !c.hasTol {
		capHint = N * l
	}
	dst.reset(N, c.k, capHint, c.residuals)
	if N == 0 {
		return nil
	}
	blk := min(c.block, N)
	c.ensureScratch(blk)
	t := min(c.threads, (blk+grain-1)/grain)
	for len(c.workers) < t {
		c.workers = append(c.workers, newWorker(c.n, l, c.residuals))
	}

	p := &c.pool
	p.x = X.RawMatrix()
	p.resOut = dst.Residual
	defer func() { p.x, p.resOut = blas64.General{}, nil }()
	var work chan struct{}
	if t > 1 {
		work = make(chan struct{}, t-1)
		defer close(work)
		for _, w := range c.workers[1:t] {
			go c.helper(work, w)
		}
	}

	for b0 := 0; b0 < N; b0 += blk {
		m := min(blk, N-b0)
		if err := c.prepareBlock(b0, m); err != nil {
			return err
		}
		x := p.x
		c.backend.Dgemm(gblas.NoTrans, gblas.Trans, m, c.k, c.n,
			1, x.Data[b0*x.Stride:], x.Stride, c.dict, c.n,
			0, c.a0, c.k)

		p.start, p.m = b0, m
		p.next.Store(0)
		if t > 1 {
			p.wg.Add(t - 1)
			for range t - 1 {
				work <- struct{}{}
			}
		}
		c.runBlock(c.workers[0])
		p.wg.Wait()

		for i := range m {
			lo := i * l
			hi := lo + c.count[i]
			dst.Index = append(dst.Index, c.slotIdx[lo:hi]...)
			dst.Value = append(dst.Value, c.slotVal[lo:hi]...)
			dst.Indptr[b0+i+1] = len(dst.Index)
		}
	}
	return nil
}

// ensureScratch sizes the block buffers for blk samples.
func (c *Coder) ensureScratch(blk int) {
	c.a0 = grow(c.a0, blk*c.k)
	c.xx = grow(c.xx, blk)
	c.pool.scale = grow(c.pool.scale, blk)
	c.slotIdx = grow(c.slotIdx, blk*c.sparsity)
	c.slotVal = grow(c.slotVal, blk*c.sparsity)
	c.count = grow(c.count, blk)
}

// prepareBlock checks samples b0..b0+m-1 and stores their squared norms and
// scale factors.
func (c *Coder) prepareBlock(b0, m int) error {
	x := c.pool.x
	for i := range m {
		r := b0 + i
		row := x.Data[r*x.Stride : r*x.Stride+c.n]
		xx := kernel.SumSqUnitary(row)
		scale := 1.0
		if !(xx >= normLo && xx <= normHi) {
			nrm := kernel.Nrm2Unitary(row)
			switch {
			case math.IsNaN(nrm) || math.IsInf(nrm, 0):
				for j, v := range row {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return fmt.Errorf("%w: sample %d (row %d), feature %d is %v", ErrNonFinite, r, r, j, v)
					}
				}
				return fmt.Errorf("%w: sample %d has an infinite norm", ErrNonFinite, r)
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
		c.pool.scale[i] = scale
	}
	return nil
}

// helper runs the recurrence phase of every block it is told to until work
// is closed.
func (c *Coder) helper(work <-chan struct{}, w *worker) {
	for range work {
		c.runBlock(w)
		c.pool.wg.Done()
	}
}

// runBlock codes samples of the current block until none is left.
func (c *Coder) runBlock(w *worker) {
	p := &c.pool
	for {
		s := int(p.next.Add(grain)) - grain
		if s >= p.m {
			return
		}
		for i := s; i < min(s+grain, p.m); i++ {
			c.codeSample(w, i)
		}
	}
}

// codeSample codes sample i of the current block into its slot.
func (c *Coder) codeSample(w *worker, i int) {
	p := &c.pool
	k, l := c.k, c.sparsity
	a0 := c.a0[i*k : (i+1)*k]
	idx := c.slotIdx[i*l : (i+1)*l]
	val := c.slotVal[i*l : (i+1)*l]
	tol := c.tol
	scale := p.scale[i]
	if scale != 1 {
		kernel.ScalUnitary(scale, a0)
		tol *= scale * scale
	}
	cnt := w.batchOMP(c.gram, k, a0, c.xx[i], tol, c.hasTol, idx, val)
	if scale != 1 {
		for j := range val[:cnt] {
			val[j] /= scale
		}
	}
	c.count[i] = cnt
	if p.resOut != nil {
		r := p.start + i
		x := p.x.Data[r*p.x.Stride : r*p.x.Stride+c.n]
		res := w.r
		copy(res, x)
		for j, a := range idx[:cnt] {
			kernel.AxpyUnitary(-val[j], c.dict[a*c.n:(a+1)*c.n], res)
		}
		p.resOut[r] = kernel.Nrm2Unitary(res)
	}
}
