package oddl

import (
	"math"
	"slices"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/internal/ridge"
	"github.com/oddl-go/oddl/omp"
)

// accumulator adds a batch's codes to the statistics M = Σ a aᵀ and
// N = Σ x~ aᵀ (and to P = M·D~ when kept), and measures the objective
// before the update. The samples are added in batch order, so the sums do
// not depend on the number of threads.
type accumulator struct {
	threads int
	rec     []float64   // a chunk's reconstructions D~ᵀa
	obj     []accSample // and objective terms
	res     [][]float64 // a residual scratch per goroutine
	terms   []atomTerms // each goroutine's codes by atom
}

// atomTerms lists the code entries of a run of samples atom by atom, each
// atom's in sample order (compressed sparse rows): atom lo+r has the
// samples idx[ptr[r]:ptr[r+1]] with the coefficients c[ptr[r]:ptr[r+1]].
// With them, a row of N or P gains all its samples in one pass of
// kernel.AxpyRowsCSR rather than a pass a sample, with the same values:
// one fused multiply-add a term and element, in sample order, as
// kernel.AxpyUnitary a sample gives.
type atomTerms struct {
	ptr, at, idx []int
	c            []float64
}

// collect lists the entries of atoms lo..hi−1 in the codes of samples
// r0..r1−1, each sample as its index less r0.
func (t *atomTerms) collect(codes *omp.Codes, r0, r1, lo, hi int) {
	k := hi - lo
	t.ptr = slices.Grow(t.ptr[:0], k+1)[:k+1]
	t.at = slices.Grow(t.at[:0], k)[:k]
	clear(t.ptr)
	for i := r0; i < r1; i++ {
		idx, _ := codes.Row(i)
		for _, j := range idx {
			if j >= lo && j < hi {
				t.ptr[j-lo+1]++
			}
		}
	}
	for r := range k {
		t.ptr[r+1] += t.ptr[r]
	}
	copy(t.at, t.ptr[:k])
	total := t.ptr[k]
	t.idx = slices.Grow(t.idx[:0], total)[:total]
	t.c = slices.Grow(t.c[:0], total)[:total]
	for i := r0; i < r1; i++ {
		idx, val := codes.Row(i)
		for p, j := range idx {
			if j >= lo && j < hi {
				e := t.at[j-lo]
				t.idx[e], t.c[e] = i-r0, val[p]
				t.at[j-lo]++
			}
		}
	}
}

// accChunk is the number of samples accumulate reconstructs before adding
// them to the statistics.
const accChunk = 256

// accSample holds one sample's terms of the objective.
type accSample struct {
	rec, cls float64 // ||x − D a||², ||y − W a||²
	wrong    bool    // argmax W a ≠ y
}

// batchStats are the per-batch figures of step.
type batchStats struct {
	rec, cls, obj float64 // means per sample
	errRate       float64
	unused        int
}

// add adds the codes of the batch to the statistics; lambda0 weighs the
// classification term of the objective it reports.
func (a *accumulator) add(st *state, b *batch, codes *omp.Codes, lambda0 float64) batchStats {
	s := st.stride()
	r := b.rows()
	workers := max(1, min(a.threads, accChunk/16))
	if len(a.rec) < accChunk*s {
		a.rec = make([]float64, accChunk*s)
		a.obj = make([]accSample, accChunk)
	}
	for len(a.res) < workers {
		a.res = append(a.res, make([]float64, st.n))
	}
	for len(a.terms) < workers {
		a.terms = append(a.terms, atomTerms{})
	}
	var bs batchStats
	errs := 0
	for c0 := 0; c0 < r; c0 += accChunk {
		c1 := min(r, c0+accChunk)
		// The reconstructions and the objective's terms, sample by sample
		// (worker w takes c0+w, c0+w+workers, …); then the statistics,
		// atom by atom (worker w takes the rows of its share of atoms),
		// each row in sample order.
		par.Do(workers, func(w int) { a.reconstruct(st, b, codes, c0, c1, w, workers) })
		par.Do(workers, func(w int) {
			lo, hi := w*st.k/workers, (w+1)*st.k/workers
			a.addRows(st, b, codes, c0, c1, lo, hi, &a.terms[w])
		})
		for _, o := range a.obj[:c1-c0] {
			bs.rec += o.rec
			bs.cls += o.cls
			if o.wrong {
				errs++
			}
		}
	}
	// N gains the whole batch's samples at once, atom by atom (the order
	// of each entry's terms is the sample order all the same).
	par.Do(workers, func(w int) {
		lo, hi := w*st.k/workers, (w+1)*st.k/workers
		a.addN(st, b, codes, lo, hi, &a.terms[w])
	})
	fr := float64(r)
	bs.rec /= fr
	bs.cls /= fr
	bs.obj = bs.rec + lambda0*bs.cls
	bs.errRate = float64(errs) / fr
	return bs
}

// reconstruct computes rec = D~ᵀa = [D a; W a] of samples c0+w,
// c0+w+step, … (< c1) into a.rec and their objective terms into a.obj.
func (a *accumulator) reconstruct(st *state, b *batch, codes *omp.Codes, c0, c1, w, step int) {
	n, s := st.n, st.stride()
	res := a.res[w]
	for i := c0 + w; i < c1; i += step {
		x := b.x.RawRowView(i)
		y := b.lab[i]
		idx, val := codes.Row(i)
		rec := a.rec[(i-c0)*s : (i-c0+1)*s]
		clear(rec)
		// One AxpyUnitary an atom, in the code's order, with rec held in
		// registers through them.
		kernel.AxpyRows(val, st.dt, s, idx, rec)
		for i, v := range x {
			res[i] = v - rec[i]
		}
		z := rec[n:]
		var c float64
		for cl, v := range z {
			if cl == y {
				v -= 1
			}
			c += v * v
		}
		a.obj[i-c0] = accSample{rec: kernel.DotUnitary(res, res), cls: c, wrong: argmax(z) != y}
	}
}

// addRows adds the codes of samples c0..c1−1, in order, to the rows
// lo..hi−1 of M, of N's label part, and (when kept) of P = M·D~, which
// gains a aᵀD~: row j gets a_j·rec. t is the goroutine's scratch.
func (a *accumulator) addRows(st *state, b *batch, codes *omp.Codes, c0, c1, lo, hi int, t *atomTerms) {
	k, n, s := st.k, st.n, st.stride()
	for i := c0; i < c1; i++ {
		y := b.lab[i]
		idx, val := codes.Row(i)
		for p, j := range idx {
			if j < lo || j >= hi {
				continue
			}
			v := val[p]
			mrow := st.m[j*k : (j+1)*k]
			for p2, j2 := range idx {
				mrow[j2] += v * val[p2]
			}
			st.nt[j*s+n+y] += v
		}
	}
	if st.pValid && hi > lo {
		t.collect(codes, c0, c1, lo, hi)
		kernel.AxpyRowsCSR(hi-lo, s, t.ptr, t.idx, t.c, a.rec, s, st.p[lo*s:], s)
	}
}

// addN adds the batch's samples, scaled by their codes, to the rows
// lo..hi−1 of N's sample part: row j gets Σ_i a_ij·x_i, in sample order.
func (a *accumulator) addN(st *state, b *batch, codes *omp.Codes, lo, hi int, t *atomTerms) {
	if hi <= lo {
		return
	}
	x := b.x.RawMatrix()
	t.collect(codes, 0, b.rows(), lo, hi)
	kernel.AxpyRowsCSR(hi-lo, st.n, t.ptr, t.idx, t.c, x.Data, x.Stride, st.nt[lo*st.stride():], st.stride())
}

// forget down-weights the statistics before the t-th mini-batch (counted
// over both phases) is added: M, N, P and the running statistics are
// multiplied by (1 − 1/t)^ρ (Config.Research.Forget), so that older codes,
// computed with older dictionaries, count less.
func forget(st *state, rho float64, t int64) {
	beta := math.Pow(1-1/float64(t), rho)
	kernel.ScalUnitary(beta, st.m)
	kernel.ScalUnitary(beta, st.nt)
	if st.pValid {
		kernel.ScalUnitary(beta, st.p)
	}
	if st.ra != nil {
		kernel.ScalUnitary(beta, st.ra)
		kernel.ScalUnitary(beta, st.ry)
	}
}

// addRunning adds the codes on D of the batch to the running statistics
// Σ a aᵀ, Σ a yᵀ that the refit without a pass fits (Config.RefitPass
// false), in batch order (so the sums do not depend on the thread count),
// allocating them at the first joint mini-batch. A model that reached the
// joint phase without them (a version 2 file) keeps refitting by the pass.
func addRunning(st *state, b *batch, codes *omp.Codes, jointSeen int64) {
	k, q := st.k, st.q
	if st.ra == nil {
		if jointSeen > 0 {
			return
		}
		st.ra = make([]float64, k*k)
		st.ry = make([]float64, k*q)
	}
	for i := range b.rows() {
		idx, val := codes.Row(i)
		addCode(st.ra, st.ry, k, q, idx, val, b.lab[i])
	}
}

// addCode adds a code (atoms idx, coefficients val) of a sample of class y
// to the statistics aa += a aᵀ (K×K) and ya += a yᵀ (K×q, atom-major).
func addCode(aa, ya []float64, k, q int, idx []int, val []float64, y int) {
	for p, j := range idx {
		v := val[p]
		row := aa[j*k : (j+1)*k]
		for p2, j2 := range idx {
			row[j2] += v * val[p2]
		}
		ya[j*q+y] += v
	}
}

// fitW sets W to the ridge regression of the labels on the codes seen so
// far: W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹ with A Aᵀ = M, Y Aᵀ the label part of N
// and μ the mean diagonal of M. W stays zero before any statistics, and
// as it was when no ridge makes the system definite. The classifier
// columns of P = M·D~ follow W.
func fitW(st *state, lambda1 float64, impl gblas.Float64) {
	k, n, q, s := st.k, st.n, st.q, st.stride()
	c := make([]float64, k*q)
	for j := range k {
		copy(c[j*q:(j+1)*q], st.nt[j*s+n:(j+1)*s])
	}
	w, ok := ridgeSolve(k, q, st.m, c, lambda1)
	if !ok {
		return
	}
	for j := range k {
		copy(st.dt[j*s+n:(j+1)*s], w[j*q:(j+1)*q])
		if st.single {
			kernel.Round32(st.dt[j*s+n : (j+1)*s])
		}
	}
	if st.pValid {
		impl.Dgemm(gblas.NoTrans, gblas.NoTrans, k, q, k, 1, st.m, k, st.dt[n:], s, 0, st.p[n:], s)
	}
}

// ridgeSolve returns the ridge regression Wᵀ = (M + λ1·μ·I)⁻¹ C, K×q
// row-major, for M = A Aᵀ (K×K) and C = A Yᵀ (K×q, row-major), with
// μ = trace(M)/K: λ1 is relative to the scale of the codes and does not
// depend on the number of samples. Without statistics (μ = 0) it returns
// zeros. Unused atoms have zero rows in M; a floor of 10⁻¹⁰ on λ1 keeps
// the system definite and gives them w_j = 0, and a system that rounding
// makes indefinite is solved with the ridge strengthened a thousandfold at
// a time (up to 10¹²); ok is false only when none made it definite.
func ridgeSolve(k, q int, M, C []float64, lambda1 float64) (w []float64, ok bool) {
	return ridgeWith(ridge.Solve, k, q, M, C, lambda1)
}

// ridgeSolveInPlace is ridgeSolve on a full symmetric M that the caller
// no longer needs: it is overwritten (ridge.SolveInPlace), and no copy of
// it is made. The result is ridgeSolve's, bit for bit.
func ridgeSolveInPlace(k, q int, M, C []float64, lambda1 float64) (w []float64, ok bool) {
	return ridgeWith(ridge.SolveInPlace, k, q, M, C, lambda1)
}

func ridgeWith(solve func(k, q int, M, C []float64, lambda, grow, maxGrow float64) ([]float64, error), k, q int, M, C []float64, lambda1 float64) (w []float64, ok bool) {
	var tr float64
	for j := range k {
		tr += M[j*k+j]
	}
	mu := tr / float64(k)
	if !(mu > 0) {
		return make([]float64, k*q), true
	}
	w, err := solve(k, q, M, C, max(lambda1, 1e-10)*mu, 1e3, 1e12)
	return w, err == nil
}
