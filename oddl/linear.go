package oddl

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/ridge"
)

// The linear rule (Config.Linear): a ridge classifier on the samples as
// they are given, before the preprocessing, each column made zero-mean
// with unit variance over the training rows, with an intercept. Its
// scores replace the dictionary's. It is what a small set of values in
// unrelated units (a table of measurements) needs where sparse codes of
// unit-norm samples lose the scale of each column: a set's folds may
// choose it (RuleGrid), last, so that it is kept only when it is clearly
// better than every rule of the dictionary (docs/DATA.md, "Small data
// sets").

// DefaultLinearGrid returns the ridge weights of the linear rule that a
// small set's validation compares, relative to the number of training
// rows (the diagonal of the standardized columns' Gram matrix).
func DefaultLinearGrid() []float64 { return []float64{0.01, 0.1, 1} }

// linearRule is a fitted linear rule: the scores of a sample x are
// W·[x; 1], W q×(n+1) row-major (the standardization folded in).
type linearRule struct {
	n, q int
	w    []float64
}

// scores returns the rule's scores of the rows of X (raw samples).
func (r *linearRule) scores(X *mat.Dense) *mat.Dense {
	rows, _ := X.Dims()
	W := mat.NewDense(r.q, r.n+1, r.w)
	S := mat.NewDense(rows, r.q, nil)
	S.Mul(X, W.Slice(0, r.q, 0, r.n).T())
	for i := range rows {
		s := S.RawRowView(i)
		for c := range r.q {
			s[c] += r.w[c*(r.n+1)+r.n]
		}
	}
	return S
}

// linearData holds the training rows of a linear rule standardized, so
// that one set of rows fits the rule for several ridge weights.
type linearData struct {
	n, q        int
	mean, scale []float64 // of the columns
	z           *mat.Dense
	yc          *mat.Dense // one-hot labels less their column means
	ybar        []float64  // the class frequencies
	gram        *mat.SymDense
	primal      bool      // gram is ZᵀZ (n ≤ N), else ZZᵀ
	rhs         []float64 // the right-hand side, row-major: ZᵀYc (n×q), else Yc
}

// newLinearData standardizes the rows of X (labels in 0..q−1). A column
// without spread (constant on the training rows) gets scale 1: its
// standardized value is 0 on them.
func newLinearData(X *mat.Dense, labels []int, q int) *linearData {
	N, n := X.Dims()
	st := statsOf(X)
	d := &linearData{n: n, q: q, mean: st.mean, scale: st.scale, ybar: make([]float64, q)}
	d.z = mat.NewDense(N, n, nil)
	for i := range N {
		z := d.z.RawRowView(i)
		copy(z, X.RawRowView(i))
		st.apply(z)
	}
	for _, y := range labels {
		d.ybar[y]++
	}
	for c := range d.ybar {
		d.ybar[c] /= float64(N)
	}
	d.yc = mat.NewDense(N, q, nil)
	for i, y := range labels {
		row := d.yc.RawRowView(i)
		for c := range row {
			row[c] = -d.ybar[c]
		}
		row[y]++
	}
	d.primal = n <= N
	if d.primal {
		d.gram = mat.NewSymDense(n, nil)
		d.gram.SymOuterK(1, d.z.T())
		var B mat.Dense
		B.Mul(d.z.T(), d.yc)
		d.rhs = B.RawMatrix().Data
	} else {
		d.gram = mat.NewSymDense(N, nil)
		d.gram.SymOuterK(1, d.z)
		d.rhs = d.yc.RawMatrix().Data
	}
	return d
}

// fit returns the rule of ridge weight lambda (relative to the number of
// rows): V minimizes ||Z·V − Yc||² + lambda·N·||V||², by the n×n normal
// equations or, with fewer rows than columns, their N×N dual.
func (d *linearData) fit(lambda float64) (*linearRule, error) {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("oddl: linear rule weight %v, want > 0", lambda)
	}
	N, n := d.z.Dims()
	g := d.gram.SymmetricDim()
	// No retry with a stronger ridge: λ > 0 makes the system definite.
	x, err := ridge.Solve(g, d.q, d.gram.RawSymmetric().Data, d.rhs, lambda*float64(N), 1, 1)
	if err != nil {
		return nil, fmt.Errorf("oddl: the linear rule's equations: %w", err)
	}
	V := mat.NewDense(g, d.q, x) // n×q, or α (N×q) of the dual
	if !d.primal {
		var v mat.Dense
		v.Mul(d.z.T(), V)
		V = &v
	}
	r := &linearRule{n: n, q: d.q, w: make([]float64, d.q*(n+1))}
	for c := range d.q {
		w := r.w[c*(n+1) : (c+1)*(n+1)]
		b := d.ybar[c]
		for j := range n {
			w[j] = V.At(j, c) / d.scale[j]
			b -= w[j] * d.mean[j]
		}
		w[n] = b
	}
	for _, v := range r.w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("oddl: the linear rule's weights are not finite")
		}
	}
	return r, nil
}

// fitLinear fits the linear rule of the model's Config.Linear on one pass
// of src (the samples as given, not preprocessed), or drops it when the
// weight is 0.
func (m *Model) fitLinear(ctx context.Context, src Source) error {
	if m.cfg.Linear == 0 {
		m.lin = nil
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	X, labels, err := readAll(src)
	if err != nil {
		return err
	}
	r, err := newLinearData(X, labels, src.Classes()).fit(m.cfg.Linear)
	if err != nil {
		return err
	}
	m.lin = r
	return nil
}
