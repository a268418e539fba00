package oddl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
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

// The kernel rule (Config.LinearFeatures > 0) is the same ridge classifier
// on random Fourier features of the standardized columns z (Rahimi and
// Recht, NIPS 2007): f(x) = √(2/m)·cos(Ω·z + b), the m rows of Ω drawn
// from N(0, γ/n·I) and b uniform in [0, 2π), so that f(x)·f(x′)
// approaches the Gaussian kernel exp(−γ·|z − z′|²/(2n)); γ = 2 is the
// kernel of scikit-learn's gamma="scale" on standardized columns. A
// linear model of the samples, or of five codes of them, cannot separate
// classes that lie in pockets of a few measurements (letters drawn from
// 16 statistics of their pixels, the soil types of satellite pixels): a
// kernel can. Tables choose it on held-out rows like the other rules
// (SmallGrid; docs/DATA.md).

// DefaultKernelFeatures is m of the kernel rules that tables compare.
const DefaultKernelFeatures = 2048

// MaxKernelFeatures bounds Config.LinearFeatures: its ridge factors an
// m×m matrix.
const MaxKernelFeatures = 1 << 14

// DefaultKernelGrid returns the widths γ of the kernel rules that tables
// compare: scikit-learn's default for standardized columns (2), a
// quarter and four times it.
func DefaultKernelGrid() []float64 { return []float64{0.5, 2, 8} }

// DefaultKernelWeights returns the ridge weights of the kernel rules that
// tables compare, relative to the mean diagonal of the features' Gram
// matrix: m features of a few samples each fit far more than n columns,
// so the weights that do best are smaller than the linear rule's.
func DefaultKernelWeights() []float64 { return []float64{0.0001, 0.001, 0.01} }

// kernelSalt keeps the kernel map's draws apart from the other streams of
// a seed (random.go): the ASCII of "fourier".
const kernelSalt = 0x666f7572696572

// fourierMap is the kernel rule's map from a sample to its m features.
type fourierMap struct {
	m, n  int
	st    *colStats
	omega []float64 // m×n, row-major
	phase []float64 // m
}

// newFourierMap draws the map of m features of width gamma for samples
// of the column statistics st, from seed.
func newFourierMap(st *colStats, m int, gamma float64, seed uint64) *fourierMap {
	n := len(st.mean)
	rng := rand.New(rand.NewPCG(seed^kernelSalt, uint64(m)))
	sd := math.Sqrt(gamma / float64(n))
	f := &fourierMap{m: m, n: n, st: st, omega: make([]float64, m*n), phase: make([]float64, m)}
	for i := range f.omega {
		f.omega[i] = sd * rng.NormFloat64()
	}
	for i := range f.phase {
		f.phase[i] = 2 * math.Pi * rng.Float64()
	}
	return f
}

// kernelBlock is how many samples the kernel map makes features of at a
// time: their features, not all of them, are held.
const kernelBlock = 1024

// features returns the features of the rows lo..hi−1 of X, one a row,
// computed with impl.
func (f *fourierMap) features(impl gblas.Float64, X *mat.Dense, lo, hi int) *mat.Dense {
	rows := hi - lo
	z := make([]float64, rows*f.n)
	for i := lo; i < hi; i++ {
		row := z[(i-lo)*f.n : (i-lo+1)*f.n]
		copy(row, X.RawRowView(i))
		f.st.apply(row)
	}
	F := mat.NewDense(rows, f.m, nil)
	impl.Dgemm(gblas.NoTrans, gblas.Trans, rows, f.m, f.n, 1, z, f.n, f.omega, f.n, 0, F.RawMatrix().Data, f.m)
	s := math.Sqrt(2 / float64(f.m))
	// The cosines, a share of the rows on each of the backend's threads
	// (each value its own: the same whatever their number).
	workers := max(1, min(blas.Threads(impl), rows/64))
	par.Do(workers, func(w int) {
		for i := w * rows / workers; i < (w+1)*rows/workers; i++ {
			row := F.RawRowView(i)
			for k, v := range row {
				row[k] = s * fastCos(v+f.phase[k])
			}
		}
	})
	return F
}

// fastCos returns cos x within a few units in the last place of math.Cos
// for |x| up to 2³⁰ (math.Cos beyond; the reduction's rounding grows
// with |x|): x is reduced to [−π, π] by a multiple of 2π, then to
// [−π/2, π/2] by π (cos(r ∓ π) = −cos r), and cos is its Taylor
// polynomial to the 22nd power there. A table's choice makes hundreds of
// millions of features; math.Cos took most of their time.
func fastCos(x float64) float64 {
	if !(math.Abs(x) <= 1<<30) {
		return math.Cos(x)
	}
	r := x - 2*math.Pi*math.Floor(x*(1/(2*math.Pi))+0.5)
	sign := 1.0
	switch {
	case r > math.Pi/2:
		r, sign = r-math.Pi, -1
	case r < -math.Pi/2:
		r, sign = r+math.Pi, -1
	}
	r2 := r * r
	// Horner on r², the coefficients (−1)ᵏ/(2k)! from k = 11 down.
	p := -1.0/1124000727777607680000*r2 + 1.0/2432902008176640000
	p = p*r2 - 1.0/6402373705728000
	p = p*r2 + 1.0/20922789888000
	p = p*r2 - 1.0/87178291200
	p = p*r2 + 1.0/479001600
	p = p*r2 - 1.0/3628800
	p = p*r2 + 1.0/40320
	p = p*r2 - 1.0/720
	p = p*r2 + 1.0/24
	p = p*r2 - 1.0/2
	return sign * (p*r2 + 1)
}

// DefaultLinearGrid returns the ridge weights of the linear rule that a
// small set's validation compares, relative to the number of training
// rows (the diagonal of the standardized columns' Gram matrix).
func DefaultLinearGrid() []float64 { return []float64{0.01, 0.1, 1} }

// DefaultHingeGrid returns the weights of the linear rule fitted by the
// hinge loss (Config.LinearHinge) that tables compare, relative to the
// number of training rows N as the least-squares rule's: C = 1/(2·λ·N)
// in the usual form ½|w|² + C·Σ ξ², so that on 500 rows they are C = 1,
// 0.1 and 0.01.
func DefaultHingeGrid() []float64 { return []float64{0.0001, 0.001, 0.01, 0.1} }

// The hinge loss's dual coordinate descent stops when the spread of the
// projected gradients falls below hingeTol, or after hingeEpochs passes
// (Hsieh et al., ICML 2008, as liblinear runs it).
const (
	hingeTol    = 0.1
	hingeEpochs = 1000
)

// linearRule is a fitted linear rule: the scores of a sample x are
// W·[x; 1], W q×(n+1) row-major (the standardization folded in); of the
// kernel rule, W·[f(x); 1] (n = m, the features').
type linearRule struct {
	n, q int
	w    []float64
	fm   *fourierMap // the kernel rule's map, nil for the linear rule
}

// scores returns the rule's scores of the rows of X (raw samples); the
// kernel rule's features are computed with impl.
func (r *linearRule) scores(impl gblas.Float64, X *mat.Dense) *mat.Dense {
	rows, _ := X.Dims()
	W := mat.NewDense(r.q, r.n+1, r.w)
	S := mat.NewDense(rows, r.q, nil)
	if r.fm == nil {
		S.Mul(X, W.Slice(0, r.q, 0, r.n).T())
	} else {
		for lo := 0; lo < rows; lo += kernelBlock {
			hi := min(rows, lo+kernelBlock)
			// On the backend: a product of thousands of columns into a
			// few classes is slow in gonum's pure-Go GEMM.
			F := r.fm.features(impl, X, lo, hi)
			impl.Dgemm(gblas.NoTrans, gblas.Trans, hi-lo, r.q, r.n, 1, F.RawMatrix().Data, r.n, r.w, r.n+1, 0, S.RawMatrix().Data[lo*r.q:], r.q)
		}
	}
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
	y           []int      // the labels
	gram        *mat.SymDense
	primal      bool      // gram is ZᵀZ (n ≤ N), else ZZᵀ
	rhs         []float64 // the right-hand side, row-major: ZᵀYc (n×q), else Yc
	unit        float64   // the ridge weight's unit: N, or the kernel's mean diagonal
	fm          *fourierMap
	impl        gblas.Float64 // the kernel rule's backend
	threads     int           // the hinge loss's goroutines, a class each at a time
}

// newLinearData standardizes the rows of X (labels in 0..q−1). A column
// without spread (constant on the training rows) gets scale 1: its
// standardized value is 0 on them.
func newLinearData(X *mat.Dense, labels []int, q int) *linearData {
	N, n := X.Dims()
	st := statsOf(X)
	d := &linearData{n: n, q: q, mean: st.mean, scale: st.scale, unit: float64(N)}
	d.z = mat.NewDense(N, n, nil)
	for i := range N {
		z := d.z.RawRowView(i)
		copy(z, X.RawRowView(i))
		st.apply(z)
	}
	d.labels(labels)
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

// labels sets the class frequencies and the centred one-hot labels.
func (d *linearData) labels(labels []int) {
	N := len(labels)
	d.y = labels
	d.ybar = make([]float64, d.q)
	for _, y := range labels {
		d.ybar[y]++
	}
	for c := range d.ybar {
		d.ybar[c] /= float64(N)
	}
	d.yc = mat.NewDense(N, d.q, nil)
	for i, y := range labels {
		row := d.yc.RawRowView(i)
		for c := range row {
			row[c] = -d.ybar[c]
		}
		row[y]++
	}
}

// newKernelData makes the features of the rows of X by fm and holds what
// the kernel rule's ridge needs: with at least m rows the m×m Gram matrix
// of the centred features, summed a block of rows at a time (the
// features are not all held), else the centred features and their N×N
// Gram matrix.
func newKernelData(impl gblas.Float64, X *mat.Dense, labels []int, q int, fm *fourierMap) *linearData {
	N, _ := X.Dims()
	m := fm.m
	d := &linearData{n: m, q: q, fm: fm, impl: impl, mean: make([]float64, m), scale: make([]float64, m)}
	for j := range d.scale {
		d.scale[j] = 1
	}
	d.labels(labels)
	d.primal = m <= N
	if d.primal {
		d.gram = mat.NewSymDense(m, nil)
		g, rhs := d.gram.RawSymmetric().Data, make([]float64, m*q)
		yc := d.yc.RawMatrix().Data
		for lo := 0; lo < N; lo += kernelBlock {
			hi := min(N, lo+kernelBlock)
			F := fm.features(impl, X, lo, hi)
			f := F.RawMatrix().Data
			impl.Dsyrk(gblas.Upper, gblas.Trans, m, hi-lo, 1, f, m, 1, g, m)
			impl.Dgemm(gblas.Trans, gblas.NoTrans, m, q, hi-lo, 1, f, m, yc[lo*q:hi*q], q, 1, rhs, q)
			for i := range hi - lo {
				for j, v := range F.RawRowView(i) {
					d.mean[j] += v
				}
			}
		}
		for j := range d.mean {
			d.mean[j] /= float64(N)
		}
		// The centred features' Gram matrix; the right-hand side needs
		// no centring, as the columns of Yc sum to zero.
		d.gram.SymRankOne(d.gram, -float64(N), mat.NewVecDense(m, d.mean))
		d.rhs = rhs
	} else {
		d.z = fm.features(impl, X, 0, N)
		for i := range N {
			for j, v := range d.z.RawRowView(i) {
				d.mean[j] += v
			}
		}
		for j := range d.mean {
			d.mean[j] /= float64(N)
		}
		for i := range N {
			row := d.z.RawRowView(i)
			for j := range row {
				row[j] -= d.mean[j]
			}
		}
		d.gram = mat.NewSymDense(N, nil)
		impl.Dsyrk(gblas.Upper, gblas.NoTrans, N, m, 1, d.z.RawMatrix().Data, m, 0, d.gram.RawSymmetric().Data, N)
		d.rhs = d.yc.RawMatrix().Data
	}
	g := d.gram.SymmetricDim()
	tr := 0.0
	for i := range g {
		tr += d.gram.At(i, i)
	}
	d.unit = tr / float64(m)
	if !(d.unit > 0) {
		d.unit = 1 // features constant on the rows: any weight will do
	}
	return d
}

// fit returns the rule of ridge weight lambda (relative to the number of
// rows, or for the kernel rule to the mean diagonal of its Gram matrix):
// V minimizes ||Z·V − Yc||² + lambda·unit·||V||², by the n×n normal
// equations or, with fewer rows than columns, their N×N dual (Z the
// standardized rows, or the centred features).
func (d *linearData) fit(lambda float64) (*linearRule, error) {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("oddl: linear rule weight %v, want > 0", lambda)
	}
	n, g := d.n, d.gram.SymmetricDim()
	// No retry with a stronger ridge: λ > 0 makes the system definite.
	var x []float64
	var err error
	if d.fm != nil {
		x, err = ridgeFactorSolve(d.impl, g, d.q, d.gram.RawSymmetric().Data, lambda*d.unit, d.rhs)
	} else {
		x, err = ridge.Solve(g, d.q, d.gram.RawSymmetric().Data, d.rhs, lambda*d.unit, 1, 1)
	}
	if err != nil {
		return nil, fmt.Errorf("oddl: the linear rule's equations: %w", err)
	}
	V := mat.NewDense(g, d.q, x) // n×q, or α (N×q) of the dual
	if !d.primal {
		// v = Zᵀ·α, the weights of the columns (m×q).
		v := mat.NewDense(n, d.q, nil)
		if d.impl != nil {
			d.impl.Dgemm(gblas.Trans, gblas.NoTrans, n, d.q, g, 1, d.z.RawMatrix().Data, n, x, d.q, 0, v.RawMatrix().Data, d.q)
		} else {
			v.Mul(d.z.T(), V)
		}
		V = v
	}
	r := &linearRule{n: n, q: d.q, w: make([]float64, d.q*(n+1)), fm: d.fm}
	for c := range d.q {
		d.setClass(r, c, func(j int) float64 { return V.At(j, c) }, d.ybar[c])
	}
	if err := r.finite(); err != nil {
		return nil, err
	}
	return r, nil
}

// setClass sets class c's row of r from its weights on the standardized
// columns, at(j), and intercept b: the standardization folded in.
func (d *linearData) setClass(r *linearRule, c int, at func(j int) float64, b float64) {
	n := r.n
	w := r.w[c*(n+1) : (c+1)*(n+1)]
	for j := range n {
		w[j] = at(j) / d.scale[j]
		b -= w[j] * d.mean[j]
	}
	w[n] = b
}

// finite returns an error if a weight of r is not finite.
func (r *linearRule) finite() error {
	for _, v := range r.w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("oddl: the linear rule's weights are not finite")
		}
	}
	return nil
}

// fitHinge returns the linear rule of weight lambda fitted by the squared
// hinge loss: for each class c the weights v (on the standardized
// columns, and an intercept) minimizing lambda·N·|v|² + Σ_i max(0, 1 −
// y_i·(v·[z_i; 1]))², y_i = +1 for the rows of class c and −1 for the
// others, by coordinate descent on the dual, a row at a time in an order
// drawn anew each pass (Hsieh et al. 2008). The intercept is a column of
// ones and is weighed as the others are.
func (d *linearData) fitHinge(lambda float64) (*linearRule, error) {
	return d.fitHingeTol(lambda, hingeTol, hingeEpochs)
}

// fitHingeTol is fitHinge stopping at a spread of tol or after epochs
// passes.
func (d *linearData) fitHingeTol(lambda, tol float64, epochs int) (*linearRule, error) {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("oddl: linear rule weight %v, want > 0", lambda)
	}
	if d.fm != nil {
		return nil, errors.New("oddl: the hinge loss is the linear rule's, not the kernel rule's")
	}
	N, n := d.z.Dims()
	diag := lambda * float64(N) // 1/(2C)
	z := d.z.RawMatrix()
	row := func(i int) []float64 { return z.Data[i*z.Stride : i*z.Stride+n] }
	qii := make([]float64, N)
	for i := range N {
		qii[i] = kernel.DotUnitary(row(i), row(i)) + 1 + diag
	}
	r := &linearRule{n: n, q: d.q, w: make([]float64, d.q*(n+1))}
	// The classes' problems are apart: each goroutine takes every
	// workers-th, with scratch of its own, and the result is the same on
	// any number of them.
	workers := max(1, min(d.threads, d.q))
	par.Do(workers, func(wk int) {
		alpha, order := make([]float64, N), make([]int, N)
		v := make([]float64, n+1)
		for c := wk; c < d.q; c += workers {
			d.hingeClass(c, diag, qii, tol, epochs, alpha, order, v)
			d.setClass(r, c, func(j int) float64 { return v[j] }, v[n])
		}
	})
	if err := r.finite(); err != nil {
		return nil, err
	}
	return r, nil
}

// hingeClass runs the coordinate descent of class c's problem of
// fitHingeTol from α = 0, leaving the weights on the standardized columns
// and the intercept in v; alpha and order are scratch of N each.
func (d *linearData) hingeClass(c int, diag float64, qii []float64, tol float64, epochs int, alpha []float64, order []int, v []float64) {
	N, n := d.z.Dims()
	z := d.z.RawMatrix()
	row := func(i int) []float64 { return z.Data[i*z.Stride : i*z.Stride+n] }
	clear(alpha)
	clear(v)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(uint64(c), svmSalt))
	for range epochs {
		rng.Shuffle(N, func(a, b int) { order[a], order[b] = order[b], order[a] })
		hi, lo := math.Inf(-1), math.Inf(1)
		for _, i := range order {
			y := -1.0
			if d.y[i] == c {
				y = 1
			}
			zi := row(i)
			g := y*(kernel.DotUnitary(v[:n], zi)+v[n]) - 1 + diag*alpha[i]
			pg := g
			if alpha[i] == 0 {
				pg = min(g, 0)
			}
			hi, lo = max(hi, pg), min(lo, pg)
			if pg == 0 {
				continue
			}
			old := alpha[i]
			alpha[i] = max(old-g/qii[i], 0)
			if s := (alpha[i] - old) * y; s != 0 {
				kernel.AxpyUnitary(s, zi, v[:n])
				v[n] += s
			}
		}
		if hi-lo < tol {
			break
		}
	}
}

// fitRule fits the rule of weight lambda by least squares or, with hinge,
// by the hinge loss.
func (d *linearData) fitRule(lambda float64, hinge bool) (*linearRule, error) {
	if hinge {
		return d.fitHinge(lambda)
	}
	return d.fit(lambda)
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
	var d *linearData
	if m.cfg.LinearFeatures > 0 {
		impl, _, err := m.backend()
		if err != nil {
			return err
		}
		d = newKernelData(impl, X, labels, src.Classes(), newFourierMap(statsOf(X), m.cfg.LinearFeatures, m.cfg.LinearGamma, m.cfg.Seed))
	} else {
		d = newLinearData(X, labels, src.Classes())
		d.threads = m.threads()
	}
	r, err := d.fitRule(m.cfg.Linear, m.cfg.LinearHinge)
	if err != nil {
		return err
	}
	m.lin = r
	return nil
}
