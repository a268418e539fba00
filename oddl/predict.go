package oddl

import (
	"context"
	"fmt"
	"math"
	"slices"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/omp"
)

// Prediction with class residuals.
//
// With Config.ResidualWeight β > 0 the score of class c is
//
//	s_c = (W a)_c − β·r_c²,
//
// where a is the code of x on all of D (as with β = 0) and r_c² is the
// squared residual ||x − D_c a_c||² of x coded by Batch-OMP (sparsity L) on
// the atoms of class c alone. An atom belongs to the class of the largest
// entry of its column of the training classifier (the W of the stacked
// dictionary, which the stacked codes steer), or to none when no entry is
// positive (an atom reseeded and never used since). A class without atoms
// has r_c² = ||x||².
//
// All the codes come from one product: the atoms are put in class order, so
// that A0 = X Dᵀ of the whole dictionary holds every class's correlations
// as a band of columns, and each class is coded from its band by a coder that
// knows only its block of the Gram matrix. The residual of a least-squares
// code needs no product either: x − D_c a_c is orthogonal to the chosen
// atoms, so r_c² = ||x||² − Σ_{j chosen} a_j·(d_j·x).

// predictor is what Scores codes with, built once per dictionary.
type predictor struct {
	coder *omp.Coder // on D, or with β > 0 on D in class order
	// With β > 0: order[p] is the atom at position p of the class order,
	// class c owns positions bounds[c]..bounds[c+1]−1, and classes[c]
	// codes on them (nil for a class without atoms).
	beta    float64
	collab  []float64     // U of G + λ_c I = UᵀU in class order (Config.Collaborative; cholUpper)
	gram    *mat.Dense    // G in class order, with collab
	impl    gblas.Float64 // the backend that factors and solves with collab
	order   []int
	bounds  []int
	classes []*omp.Coder
	f32     predict32 // the coders of a float32 model (Config.Precision)
}

// atomClasses returns the class of every atom under the training
// classifier: the row of the largest positive entry of its column, or −1.
func (m *Model) atomClasses() []int {
	k, n, q, s := m.st.k, m.st.n, m.st.q, m.st.stride()
	cls := make([]int, k)
	for j := range k {
		w := m.st.dt[j*s+n : j*s+n+q]
		best, bv := -1, 0.0
		for c, v := range w {
			if v > bv {
				best, bv = c, v
			}
		}
		cls[j] = best
	}
	return cls
}

func newPredictor(m *Model, impl gblas.Float64) (*predictor, error) {
	opts := []omp.Option{omp.WithSparsity(m.cfg.L), omp.WithBackend(impl), omp.WithThreads(m.threads())}
	beta := m.cfg.ResidualWeight
	collab := m.cfg.Collaborative
	if beta == 0 && collab == 0 {
		c, err := omp.New(m.Dictionary(), opts...)
		if err != nil {
			return nil, fmt.Errorf("oddl: dictionary: %w", err)
		}
		return &predictor{coder: c}, nil
	}
	k, n, q, s := m.st.k, m.st.n, m.st.q, m.st.stride()
	p := &predictor{beta: beta, classes: make([]*omp.Coder, q)}
	p.order, p.bounds = m.classOrder()
	D := mat.NewDense(k, n, nil)
	for pos, j := range p.order {
		copy(D.RawRowView(pos), m.st.dt[j*s:j*s+n])
	}
	c, err := omp.New(D, opts...)
	if err != nil {
		return nil, fmt.Errorf("oddl: dictionary: %w", err)
	}
	p.coder = c
	G := c.Gram()
	if collab > 0 {
		p.gram = mat.DenseCopyOf(G)
		if err := p.factorCollab(impl, collab); err != nil {
			return nil, err
		}
		return p, nil
	}
	for cl := range q {
		lo, hi := p.bounds[cl], p.bounds[cl+1]
		if lo == hi {
			continue
		}
		l := min(m.cfg.L, hi-lo)
		cc, err := omp.NewGram(G.Slice(lo, hi, lo, hi).(*mat.Dense), omp.WithSparsity(l), omp.WithThreads(m.threads()))
		if err != nil {
			return nil, fmt.Errorf("oddl: atoms of class %d: %w", cl, err)
		}
		p.classes[cl] = cc
	}
	return p, nil
}

// classOrder returns the atoms in class order (see predictor) and where
// each class's atoms start.
func (m *Model) classOrder() (order, bounds []int) {
	k, q := m.st.k, m.st.q
	cls := m.atomClasses()
	order, bounds = make([]int, 0, k), make([]int, q+1)
	for c := range q {
		bounds[c] = len(order)
		for j, cj := range cls {
			if cj == c {
				order = append(order, j)
			}
		}
	}
	bounds[q] = len(order)
	for j, cj := range cls {
		if cj < 0 {
			order = append(order, j)
		}
	}
	return order, bounds
}

// factorCollab factorises G + λ_c I, G the Gram matrix in class order
// held in p.gram, for the collaborative rule, on the backend impl, which
// then solves with the factor (collabScores): a small set's K is its
// number of training samples, and a table of a few thousand rows
// compares the rule on every fold, so these are systems of thousands.
func (p *predictor) factorCollab(impl gblas.Float64, collab float64) error {
	// The ridge code's matrix: G + λ_c I is positive definite for any
	// λ_c > 0, so its Cholesky factor exists but where rounding spoils it.
	k, _ := p.gram.Dims()
	u, err := cholUpper(impl, k, p.gram.RawMatrix().Data, collab)
	if err != nil {
		return fmt.Errorf("oddl: collaborative rule: G + %g·I is not positive definite", collab)
	}
	p.collab, p.impl = u, impl
	return nil
}

// scoreRows is how many samples scores codes at a time with β > 0 (it
// holds their correlations with every atom), fewer for large K so that
// those take at most scoreFloats values.
const (
	scoreRows   = 2048
	scoreFloats = 1 << 22
)

// scores returns the class scores of the preprocessed samples Xc.
func (p *predictor) scores(ctx context.Context, m *Model, Xc *mat.Dense) (*mat.Dense, error) {
	if p.f32.coder != nil {
		return p.scores32(ctx, m, Xc)
	}
	r, _ := Xc.Dims()
	q := m.st.q
	S := mat.NewDense(r, q, nil)
	if p.beta == 0 && p.collab == nil {
		var codes omp.Codes
		if err := p.coder.EncodeToContext(ctx, &codes, Xc); err != nil {
			return nil, codingError(ctx, err)
		}
		linearScores(m, S, &codes)
		return S, nil
	}
	k := m.st.k
	rows := min(r, scoreRows, max(16, scoreFloats/k))
	A0 := mat.NewDense(rows, k, nil)
	xx := make([]float64, rows)
	var codes, cc omp.Codes
	for lo := 0; lo < r; lo += rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+rows, r)
		nb := hi - lo
		X := Xc.Slice(lo, hi, 0, Xc.RawMatrix().Cols).(*mat.Dense)
		A := A0.Slice(0, nb, 0, k).(*mat.Dense)
		if err := p.coder.CorrelationsTo(A, X); err != nil {
			return nil, fmt.Errorf("oddl: coding: %w", err)
		}
		for i := range nb {
			x := X.RawRowView(i)
			xx[i] = dot(x, x)
		}
		if p.collab != nil {
			p.collabScores(S.Slice(lo, hi, 0, q).(*mat.Dense), A, xx[:nb])
			continue
		}
		if err := p.coder.EncodeGramTo(&codes, A, xx[:nb]); err != nil {
			return nil, fmt.Errorf("oddl: coding: %w", err)
		}
		for i := range nb {
			idx, val := codes.Row(i)
			row := S.RawRowView(lo + i)
			for t, pos := range idx {
				axpy(val[t], m.predW(p.order[pos]), row)
			}
		}
		for c := range q {
			a, b := p.bounds[c], p.bounds[c+1]
			if p.classes[c] == nil {
				for i := range nb {
					S.Set(lo+i, c, S.At(lo+i, c)-p.beta*xx[i])
				}
				continue
			}
			if err := p.classes[c].EncodeGramTo(&cc, A.Slice(0, nb, a, b).(*mat.Dense), xx[:nb]); err != nil {
				return nil, fmt.Errorf("oddl: coding on the atoms of class %d: %w", c, err)
			}
			for i := range nb {
				idx, val := cc.Row(i)
				arow := A.RawRowView(i)[a:b]
				r2 := xx[i]
				for t, j := range idx {
					r2 -= val[t] * arow[j]
				}
				// Rounding may leave a tiny negative residual of a sample
				// that its class's atoms span exactly.
				r2 = math.Max(r2, 0)
				S.Set(lo+i, c, S.At(lo+i, c)-p.beta*r2)
			}
		}
	}
	return S, nil
}

// collabScores writes the collaborative rule's scores (Config.Collaborative)
// of the samples whose correlations with the atoms (in class order) are
// the rows of A and squared norms xx into S. With the ridge code a of a
// sample and its correlations b = D x, the residual of class c's part is
// ||x||² − 2 a_cᵀ b_c + a_cᵀ G_cc a_c, read from G without the samples.
//
// The codes, A·(G + λ_c I)⁻¹, and the products G_cc·a_c of every class are
// matrix products of the whole chunk on the backend.
func (p *predictor) collabScores(S, A *mat.Dense, xx []float64) {
	nb, k := A.Dims()
	ra := A.RawMatrix()
	codes := make([]float64, nb*k)
	for i := range nb {
		copy(codes[i*k:(i+1)*k], ra.Data[i*ra.Stride:i*ra.Stride+k])
	}
	cholSolveRows(p.impl, k, p.collab, nb, codes, k)
	_, q := S.Dims()
	g := p.gram.RawMatrix()
	var ga []float64
	for c := range q {
		lo, hi := p.bounds[c], p.bounds[c+1]
		if lo == hi {
			for i := range nb {
				S.Set(i, c, -math.MaxFloat64)
			}
			continue
		}
		kc := hi - lo
		ga = slices.Grow(ga[:0], nb*kc)[:nb*kc]
		// Row i of ga is G_cc·a_c of sample i (G is symmetric).
		p.impl.Dgemm(gblas.NoTrans, gblas.NoTrans, nb, kc, kc, 1, codes[lo:], k, g.Data[lo*g.Stride+lo:], g.Stride, 0, ga, kc)
		for i := range nb {
			ac := codes[i*k+lo : i*k+hi]
			r2 := xx[i] - 2*kernel.DotUnitary(ac, ra.Data[i*ra.Stride+lo:i*ra.Stride+hi]) + kernel.DotUnitary(ac, ga[i*kc:(i+1)*kc])
			norm := math.Sqrt(kernel.DotUnitary(ac, ac))
			if !(norm > 0) {
				S.Set(i, c, -math.MaxFloat64)
				continue
			}
			S.Set(i, c, -math.Sqrt(math.Max(r2, 0))/norm)
		}
	}
}

// codeRows is the sparse codes of either precision (omp.Codes,
// omp.Codes32), row by row.
type codeRows[T float32 | float64] interface {
	Row(i int) ([]int, []T)
}

// linearScores sets each row of S, zero on entry, to the linear scores
// Σ_t a_t·w_{j_t} of the code of that row: the paper's rule in either
// precision.
func linearScores[T float32 | float64, C codeRows[T]](m *Model, S *mat.Dense, codes C) {
	r, _ := S.Dims()
	for i := range r {
		idx, val := codes.Row(i)
		row := S.RawRowView(i)
		for t, j := range idx {
			axpy(float64(val[t]), m.predW(j), row)
		}
	}
}

// codingError is err of a coder, or the context's error when the coding
// stopped because the context ended.
func codingError(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("oddl: coding: %w", err)
}
