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
			S.Slice(lo, hi, 0, r.q).(*mat.Dense).Mul(r.fm.features(impl, X, lo, hi), W.Slice(0, r.q, 0, r.n).T())
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
	gram        *mat.SymDense
	primal      bool      // gram is ZᵀZ (n ≤ N), else ZZᵀ
	rhs         []float64 // the right-hand side, row-major: ZᵀYc (n×q), else Yc
	unit        float64   // the ridge weight's unit: N, or the kernel's mean diagonal
	fm          *fourierMap
	impl        gblas.Float64 // the kernel rule's backend
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
		var v mat.Dense
		v.Mul(d.z.T(), V)
		V = &v
	}
	r := &linearRule{n: n, q: d.q, w: make([]float64, d.q*(n+1)), fm: d.fm}
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
	var d *linearData
	if m.cfg.LinearFeatures > 0 {
		impl, _, err := m.backend()
		if err != nil {
			return err
		}
		d = newKernelData(impl, X, labels, src.Classes(), newFourierMap(statsOf(X), m.cfg.LinearFeatures, m.cfg.LinearGamma, m.cfg.Seed))
	} else {
		d = newLinearData(X, labels, src.Classes())
	}
	r, err := d.fit(m.cfg.Linear)
	if err != nil {
		return err
	}
	m.lin = r
	return nil
}
