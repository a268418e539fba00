package oddl

import "gonum.org/v1/gonum/mat"

// state is the learner's numeric state: the stacked dictionary and the
// accumulated statistics, all row-major in flat slices.
type state struct {
	k, n, q int // atoms, sample dimension, classes
	// dt is the stacked dictionary, atom-major: K rows of length n+q,
	// row j = [d_j, w_j] with ||d_j|| = 1.
	dt []float64
	// m is M = Σ a aᵀ, K×K, symmetric (both triangles kept).
	m []float64
	// nt is N = Σ [x; y] aᵀ stored atom-major: K rows of length n+q,
	// row j = Σ_i a_ij [x_i, y_i].
	nt []float64
	// ra and ry are the running statistics of the codes on D that the
	// joint phase computes (Σ a aᵀ, K×K, and Σ a yᵀ, K×q atom-major), or
	// nil while it has computed none: the prediction classifier is their
	// ridge regression (Config.Refit without RefitPass).
	ra, ry []float64
	// p is P = M·D~ (K×(n+q), row j = Σ_k M_jk d~_k) when pValid. The
	// blocked sweep keeps it exact through its own changes of D~, and
	// accumulate through the batch's additions to M, so a sweep need not
	// recompute it; anything else that changes M or D~ clears pValid (or,
	// like the ridge fit of W, recomputes the columns it changed).
	p      []float64
	pValid bool
	// single says that dt holds float32 values (Config.Precision): every
	// write of an atom or of W rounds to float32.
	single bool
}

func newState(k, n, q int) *state {
	s := n + q
	return &state{
		k: k, n: n, q: q,
		dt: make([]float64, k*s),
		m:  make([]float64, k*k),
		nt: make([]float64, k*s),
	}
}

// stride is the row length of dt and nt.
func (st *state) stride() int { return st.n + st.q }

// dictView returns D as a K×n view of the stacked dictionary.
func (st *state) dictView() *mat.Dense {
	return mat.NewDense(st.k, st.stride(), st.dt).Slice(0, st.k, 0, st.n).(*mat.Dense)
}

// block returns the atoms [lo, hi) of class c under InitClass: the K atoms
// split into q consecutive blocks whose sizes differ by at most one.
func (st *state) block(c int) (lo, hi int) {
	return c * st.k / st.q, (c + 1) * st.k / st.q
}

// classOf returns the class whose block holds atom j.
func (st *state) classOf(j int) int {
	// The largest c with c·K/q ≤ j.
	c := (j*st.q + st.q - 1) / st.k
	for c > 0 && c*st.k/st.q > j {
		c--
	}
	for c+1 < st.q && (c+1)*st.k/st.q <= j {
		c++
	}
	return c
}
