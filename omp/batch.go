package omp

import (
	"math"

	"github.com/oddl-go/oddl/internal/kernel"
)

// tiny is the relative threshold of the stopping tests: a correlation whose
// square is at most tiny·||x||² is rounding noise, and an atom whose
// distance² to the span of the chosen ones is at most tiny·G_kk depends on
// them. It is float64's machine epsilon, scikit-learn's threshold for unit
// signals; float32 coders take float32's (tinyOf).
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
// The recurrence's own numbers — the Cholesky factor, y, the coefficients
// and the residual energy — are float64 in both precisions (see
// batchOMP); the correlations and the rows of G it reads, and the buffers
// of the updates that run over them, are of the coder's type T.
type worker[T Float] struct {
	lc   []float64 // L(L+1)/2: the Cholesky factor of G[I,I], packed by rows
	y    []float64 // L: lc⁻¹·a0[I], grown by one entry a step
	c    []float64 // L: the coefficients of the current step
	prev []float64 // L: the coefficients of the previous step
	u    []T       // copies of the rows of G of the first chosen atoms, or nil
	dc   []T       // the change of their coefficients
	dc2  []T       // L: the change of the others' coefficients
	r    []T       // n: residual, only with WithResiduals
	a0   []T       // chunk×K: the correlations of a chunk, reused by each
	tiny float64   // the stopping threshold of T (tinyOf)
	// inv holds 1/lc's diagonal in a float32 worker, nil in a float64 one:
	// see batchOMP.
	inv []float64
	// short holds the samples' states of codeShort.
	short []shortState

	err    error // first bad sample of the worker's part in this round
	errRow int
}

// fail records a bad sample: the first of the round's, as a worker may run
// several parts and find one in each.
func (w *worker[T]) fail(err error, row int) {
	if w.err == nil || row < w.errRow {
		w.err, w.errRow = err, row
	}
}

// newWorker returns the scratch space of a goroutine coding samples of n
// entries on K atoms with at most l of them. Only float64 workers take the
// GEMV update: there is no float32 GEMV kernel, and SaxpyRowsIamax does
// the float32 update.
func newWorker[T Float](n, k, l int, residuals bool) *worker[T] {
	w := &worker[T]{
		lc:   make([]float64, l*(l+1)/2),
		y:    make([]float64, l),
		c:    make([]float64, l),
		prev: make([]float64, l),
		dc2:  make([]T, l),
		tiny: tinyOf[T](),
	}
	if _, f64 := any(T(0)).(float64); f64 && l >= gemvMinL && k <= gemvMaxK {
		rows := min(l, gemvMaxRows)
		w.u = make([]T, rows*k)
		w.dc = make([]T, rows)
	}
	if _, f32 := any(T(0)).(float32); f32 {
		w.inv = make([]float64, l)
	}
	if residuals {
		w.r = make([]T, n)
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
// In float32 (T) only the O(K) work a step runs in float32: the
// correlations a, the rows of G and their update. The O(L²) rest is
// float64 in both precisions: a Cholesky factor of float32 Gram entries
// loses digits in G_kk − wᵀw, which for nearly dependent atoms is a
// difference of nearly equal numbers, and the residual energy
// ||x||² − yᵀy, on which the tolerance and the stopping rule decide, is
// one too; a float32 sum would add an error of 2⁻²⁴·||x||² at each step
// on top of the error of the float32 correlations, enough to stop a
// pursuit early or late near the target, while in float64 its rounding is
// negligible. The coefficients are rounded to T once, at the end. A
// float32 worker multiplies by the reciprocals of the factor's diagonal
// (inv, one division a step) where a float64 one divides by it: the
// divisions and square roots form the latency chain of a short pursuit
// (the patch front end's), and the reciprocal's extra rounding, 2⁻⁵³,
// is nothing against float32's; the float64 coder keeps its divisions
// and so its results bit for bit.
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
func (w *worker[T]) batchOMP(g []T, diag *gramDiag[T], k int, a []T, j int, xx, tol float64, hasTol bool, idx []int, val []T) int {
	l := len(idx)
	if hasTol && xx <= tol {
		return 0
	}
	lc, y, prev, inv := w.lc, w.y, w.prev, w.inv
	tiny := w.tiny
	noise := tiny * xx
	r2 := xx
	p := 0
	for {
		aj := float64(a[j])
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
			prefetchT(gj)
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
			if inv != nil {
				row[m] = (float64(g[idx[m]*k+j]) - dot(rm[:m], row[:m])) * inv[m]
			} else {
				row[m] = (float64(g[idx[m]*k+j]) - dot(rm[:m], row[:m])) / rm[m]
			}
		}
		gjj := float64(diag.g[j])
		var yp float64
		if p == 0 {
			// The first atom: the factor is sqrt(G_jj), from the table (the
			// same value as below, G_jj − 0 being G_jj).
			if !(gjj > tiny*gjj) {
				break
			}
			row[0] = diag.root[j]
			if inv != nil {
				inv[0] = diag.rroot[j]
				yp = aj * inv[0]
			} else {
				yp = aj / row[0]
			}
		} else {
			d := gjj - dot(row[:p], row[:p])
			if !(d > tiny*gjj) {
				break // j depends on the chosen atoms
			}
			row[p] = math.Sqrt(d)
			if inv != nil {
				inv[p] = 1 / row[p]
				yp = aj * inv[p]
			} else {
				yp = aj / row[p]
			}
		}
		y[p] = yp
		idx[p] = j
		p++
		r2 -= yp * yp

		// Back substitution lcᵀ·c = y, by rows of lc.
		c := w.c[:p]
		copyShort(c, y[:p])
		for m := p - 1; m >= 0; m-- {
			om := m * (m + 1) / 2
			rm := lc[om : om+m+1]
			if inv != nil {
				c[m] *= inv[m]
			} else {
				c[m] /= rm[m]
			}
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
				dc[m] = T(prev[m] - c[m])
			}
			gemvT(rows, k, u, dc, a)
		}
		// The next atom: argmax |a|, found by the last pass of the update.
		if rows < p {
			dc := w.dc2[:p-rows]
			for m := range dc {
				dc[m] = T(prev[rows+m] - c[rows+m])
			}
			j = axpyRowsIamaxT(dc, g, k, idx[rows:p], a)
		} else {
			j = iamaxT(a)
		}
		copyShort(prev[:p], c)
	}
	for m, v := range w.c[:p] {
		val[m] = T(v)
	}
	return p
}

// copyShort is copy(dst, src) for the few coefficients of a pursuit,
// where a call of memmove costs more than the loop.
func copyShort(dst, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = v
	}
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
