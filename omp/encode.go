package omp

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
)

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
