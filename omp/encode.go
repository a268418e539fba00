package omp

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

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
type round[T Float] struct {
	next   atomic.Int64 // next part to hand out
	start  int          // first sample of the round
	m      int          // samples in the round
	parts  int
	x      general[T] // the samples, or
	a0     general[T] // their correlations (EncodeGramTo)
	xx     []float64  // and squared norms
	resOut []T        // Codes.Residual of the call, or nil
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
	var x general[float64]
	if X != nil && !X.IsEmpty() {
		x = dense(X)
	}
	return c.encodeSamples(ctx, dst, x)
}

// encodeSamples is EncodeToContext on the raw matrix x (rows = 0: no
// samples).
func (c *core[T]) encodeSamples(ctx context.Context, dst *SparseCodes[T], x general[T]) error {
	if c.gramOnly {
		return errNoDictionary
	}
	N := x.rows
	if N > 0 && x.cols != c.n {
		return fmt.Errorf("%w: samples have %d features, the dictionary's atoms %d", ErrShape, x.cols, c.n)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if N == 0 {
		x = general[T]{}
	}
	return c.encode(ctx, dst, N, x, general[T]{}, nil, c.residuals)
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
	var a0 general[float64]
	if A0 != nil && !A0.IsEmpty() {
		a0 = dense(A0)
	}
	return c.encodeGram(dst, a0, xx)
}

// encodeGram is EncodeGramTo on the raw matrix a0 (rows = 0: no samples).
func (c *core[T]) encodeGram(dst *SparseCodes[T], a0 general[T], xx []float64) error {
	N := a0.rows
	if N > 0 && a0.cols != c.k {
		return fmt.Errorf("%w: correlations have %d columns, the coder has %d atoms", ErrShape, a0.cols, c.k)
	}
	if N == 0 {
		a0 = general[T]{}
	}
	if len(xx) != N {
		return fmt.Errorf("%w: %d squared norms for %d samples", ErrShape, len(xx), N)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gramBad {
		return errNoGram
	}
	return c.encode(context.Background(), dst, N, general[T]{}, a0, xx, false)
}

// encode codes N samples, from x or (when a0.Data is set) from the
// correlations a0 and squared norms xx, checking ctx between rounds.
func (c *core[T]) encode(ctx context.Context, dst *SparseCodes[T], N int, x, a0 general[T], xx []float64, residuals bool) error {
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
	c.ensureScratch(size, a0.data != nil || !c.chunked())
	for len(c.workers) < t {
		c.workers = append(c.workers, newWorker[T](c.n, c.k, l, c.residuals))
	}

	r := &c.round
	r.x, r.a0, r.xx = x, a0, xx
	r.resOut = dst.Residual
	r.parts = t
	defer func() { r.x, r.a0, r.xx, r.resOut = general[T]{}, general[T]{}, nil, nil }()
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
func (c *core[T]) ensureScratch(size int, withA0 bool) {
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
func (c *core[T]) runParts(w *worker[T]) {
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
// chunkRows is a multiple of the GEMM micro-kernel's six rows (DGEMM's
// and SGEMM's). The float32 coder takes the same bound in entries, which
// has not been measured in float32: its dictionaries take half the bytes.
const (
	chunkRows    = 48
	chunkMaxDict = 5 << 16 // n·K entries
)

// chunked reports whether Encode computes the correlations a chunk at a
// time.
func (c *core[T]) chunked() bool { return c.gm.packed() && c.n*c.k <= c.chunkMax }

// runPart codes samples lo..hi-1 of the current round: checks and norms,
// the correlations by one GEMM, then the recurrences — all at once, or a
// chunk at a time. A bad sample stops the part where it is found.
func (c *core[T]) runPart(w *worker[T], lo, hi int) {
	r := &c.round
	if r.a0.data != nil {
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
		c.gm.corr(r.parts, e-g, c.k, c.n, x.data[(r.start+g)*x.stride:], x.stride, c.dict, a, c.k)
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
func (c *core[T]) codeSamples(w *worker[T], a []T, lo, hi, pf0, pf1 int, inL2 bool) {
	if c.shortPursuits() && !noShort {
		c.codeShort(w, a, lo, hi, pf0, pf1)
		return
	}
	k := c.k
	corr := func(i int) []T { return a[(i-lo)*k : (i-lo+1)*k] }
	j := c.firstAtom(corr(lo), lo)
	x := c.round.x
	for i := lo; i < hi; i++ {
		if q := pf0 + i - lo; q < pf1 {
			row := (c.round.start + q) * x.stride
			prefetchT(x.data[row : row+c.n])
		}
		next := -1
		if i+2 < hi && !inL2 {
			// The correlations of the sample after next, which the
			// part's GEMM wrote long before (out of L2 by now), so that
			// its first atom does not wait for them.
			prefetchT(corr(i + 2))
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
func (c *core[T]) firstAtom(a []T, i int) int {
	k := c.k
	if s := c.scale[i]; s != 1 {
		scalT(T(s), a)
	}
	j := iamaxT(a)
	if len(c.gram) > gramInCache {
		prefetchT(c.gram[j*k : (j+1)*k])
	}
	return j
}

// gramInCache is the size (entries) up to which G is not prefetched a row
// at a time: a Gram matrix this small (the patch front end's, 64 atoms)
// stays in the first levels of cache through the pursuits, and asking
// for its rows again costs more than it saves.
const gramInCache = 1 << 13

// prepare checks sample row (slot i of the round) and stores its squared
// norm and scale factor. A float32 sample's squared norm is summed in
// float64, where it neither overflows nor underflows, so only float64
// samples are ever scaled.
func (c *core[T]) prepare(i, row int) error {
	x := c.round.x
	v := x.data[row*x.stride : row*x.stride+c.n]
	xx := sumSqT(v)
	scale := 1.0
	if !(xx >= normLo && xx <= normHi) {
		nrm := nrm2T(v)
		switch {
		case math.IsNaN(nrm) || math.IsInf(nrm, 0):
			for j, e := range v {
				if isNaNOrInf(e) {
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
func (c *core[T]) prepareGram(i, row int) error {
	r := &c.round
	src := r.a0.data[row*r.a0.stride : row*r.a0.stride+c.k]
	dst := c.a0[i*c.k : (i+1)*c.k]
	copy(dst, src)
	xx := r.xx[row]
	switch {
	case math.IsNaN(xx) || math.IsInf(xx, 0):
		return fmt.Errorf("%w: sample %d: squared norm is %v", ErrNonFinite, row, xx)
	case xx < 0:
		return fmt.Errorf("%w: sample %d: squared norm %v is negative", ErrShape, row, xx)
	}
	if s := sumSqT(dst); math.IsNaN(s) || math.IsInf(s, 0) {
		for j, v := range dst {
			if isNaNOrInf(v) {
				return fmt.Errorf("%w: sample %d (row %d of A0), correlation %d is %v", ErrNonFinite, row, row, j, v)
			}
		}
	}
	scale := 1.0
	// Float32 correlations are never scaled: every square the recurrence
	// takes of them is float64, where it cannot overflow or underflow, and
	// a power of two far from 1 could take them out of float32's range.
	if _, f32 := any(T(0)).(float32); !f32 && xx != 0 && !(xx >= normLo && xx <= normHi) {
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
func (c *core[T]) codeSample(w *worker[T], a []T, i, j int) {
	r := &c.round
	k, l := c.k, c.sparsity
	idx := c.slotIdx[i*l : (i+1)*l]
	val := c.slotVal[i*l : (i+1)*l]
	tol := c.tol
	scale := c.scale[i]
	if scale != 1 {
		tol *= scale * scale
	}
	cnt := w.batchOMP(c.gram, &c.diag, k, a, j, c.xx[i], tol, c.hasTol, idx, val)
	if scale != 1 {
		for j := range val[:cnt] {
			val[j] /= T(scale)
		}
	}
	c.count[i] = cnt
	if r.resOut != nil {
		row := r.start + i
		x := r.x.data[row*r.x.stride : row*r.x.stride+c.n]
		res := w.r
		copy(res, x)
		for j, a := range idx[:cnt] {
			axpyT(-val[j], c.dict[a*c.n:(a+1)*c.n], res)
		}
		r.resOut[row] = T(nrm2T(res))
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
	return c.correlations(dense(dst), dense(X))
}

// correlations is CorrelationsTo on raw matrices, not empty, of a coder
// with a dictionary.
func (c *core[T]) correlations(d, x general[T]) error {
	N := x.rows
	if x.cols != c.n {
		return fmt.Errorf("%w: samples have %d features, the dictionary's atoms %d", ErrShape, x.cols, c.n)
	}
	if d.rows != N || d.cols != c.k {
		return fmt.Errorf("%w: correlations are %d×%d, want %d×%d", ErrShape, d.rows, d.cols, N, c.k)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gm.corr(1, N, c.k, c.n, x.data, x.stride, c.dict, d.data, d.stride)
	return nil
}
