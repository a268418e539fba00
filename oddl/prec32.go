package oddl

import (
	"context"
	"fmt"
	"math"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/omp"
)

// Single precision (Config.Precision = PrecisionFloat32).
//
// The learner keeps its arrays in float64 slices in both precisions, so
// that one code path serves both and the float64 path stays as it was; in
// float32 the dictionary D~ holds float32 values only (every atom is
// rounded as the update writes it, so the change Δ that the blocked sweep
// carries to P = M·D~ is that of the rounded atom, and P stays exact), the
// samples are rounded to float32 as they are read, and every coding runs
// on omp.Coder32: the Gram matrix, the correlations A0 = X·Dᵀ and their
// updates in float32, on float32 copies of D and of the batch. The codes'
// coefficients are float32 values; their products with each other and
// with the samples are exact in float64, so M = Σ a aᵀ and N = Σ x~ aᵀ,
// summed in float64, lose only the rounding of the sums.

// grow32 returns s with room for n values.
func grow32(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// grow64 returns s with room for n values.
func grow64(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// matrix32 copies the rows of A into buf as float32 and returns them as a
// blas32.General (stride = columns).
func matrix32(buf *[]float32, A *mat.Dense) blas32.General {
	r, c := A.Dims()
	*buf = grow32(*buf, r*c)
	raw := A.RawMatrix()
	for i := range r {
		kernel.Float64To32((*buf)[i*c:(i+1)*c], raw.Data[i*raw.Stride:i*raw.Stride+c])
	}
	return blas32.General{Rows: r, Cols: c, Stride: c, Data: *buf}
}

// codesFrom32 copies the float32 codes src into dst.
func codesFrom32(dst *omp.Codes, src *omp.Codes32) {
	dst.Samples, dst.Atoms, dst.Residual = src.Samples, src.Atoms, nil
	dst.Indptr = append(dst.Indptr[:0], src.Indptr...)
	dst.Index = append(dst.Index[:0], src.Index...)
	dst.Value = grow64(dst.Value, len(src.Value))
	kernel.Float32To64(dst.Value, src.Value)
	if src.Residual != nil {
		dst.Residual = grow64(dst.Residual, len(src.Residual))
		kernel.Float32To64(dst.Residual, src.Residual)
	}
}

// coderOn32 returns a float32 Batch-OMP coder of sparsity l on D (float32
// values) with the run's backend and threads.
func (c compute) coderOn32(D blas32.General, l int) (*omp.Coder32, error) {
	return omp.New32(D, c.options32(l)...)
}

// options32 returns the options of a float32 coder of sparsity l.
func (c compute) options32(l int) []omp.Option {
	o := []omp.Option{omp.WithSparsity(l), omp.WithThreads(c.threads)}
	if c.impl32 != nil {
		o = append(o, omp.WithBackend32(c.impl32))
	}
	return o
}

// dict32 is the float32 side of a dictCoder: the coder and the float32
// copies of D, of the samples and of the codes.
type dict32 struct {
	coder *omp.Coder32
	d, x  []float32
	codes omp.Codes32
}

// sync32 makes the float32 coder code on D.
func (d *dictCoder) sync32(D *mat.Dense) error {
	if d.f32.coder != nil && !d.dirty {
		// The coder holds D already (the refit's chunks, the codings
		// between two updates): no copy to make.
		return nil
	}
	g := matrix32(&d.f32.d, D)
	if d.f32.coder == nil {
		c, err := d.c.coderOn32(g, d.l)
		if err != nil {
			return diverged(err, "dictionary")
		}
		d.f32.coder, d.dirty = c, false
	}
	if d.dirty {
		if err := d.f32.coder.SetDictionary(g); err != nil {
			return diverged(err, "dictionary")
		}
		d.dirty = false
	}
	return nil
}

// encode32 codes the samples x on D in float32 into dst; x32, if not nil,
// holds them as float32.
func (d *dictCoder) encode32(ctx context.Context, dst *omp.Codes, D, x *mat.Dense, x32 []float32) error {
	if err := d.sync32(D); err != nil {
		return err
	}
	if err := d.f32.coder.EncodeToContext(ctx, &d.f32.codes, d.samples32(x, x32)); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return fmt.Errorf("oddl: coding: %w", err)
	}
	codesFrom32(dst, &d.f32.codes)
	return nil
}

// samples32 returns the samples x as float32: x32 when not nil, else a
// copy in the coder's buffer.
func (d *dictCoder) samples32(x *mat.Dense, x32 []float32) blas32.General {
	if x32 == nil {
		return matrix32(&d.f32.x, x)
	}
	r, c := x.Dims()
	return blas32.General{Rows: r, Cols: c, Stride: c, Data: x32[:r*c]}
}

// stacked32 is the float32 side of a stackedCoder.
type stacked32 struct {
	coder   *omp.Coder32 // on G~
	a0, sa0 []float32    // A0 and A0~
	rows    [][]float64  // a row of λ0·W Wᵀ per goroutine
	codes   omp.Codes32
}

// encode32 is encode in float32: G and A0 come from the float32 coder on
// D; each entry of G~ and A0~ is formed from them in float64 (the O(K²q)
// and O(κK) work of the stacking) and rounded to float32 for the float32
// coder on G~, so that no K×K or κ×K matrix is held in float64.
func (s *stackedCoder) encode32(st *state, d *dictCoder, b *batch, lambda0 float64, dst *omp.Codes) error {
	k, n, stride := st.k, st.n, st.stride()
	r := b.rows()
	f := &s.f32
	if len(s.snorm) < k || len(s.xx) < r {
		size := len(b.lab)
		s.snorm = make([]float64, k)
		s.xx = make([]float64, size)
		s.sxx = make([]float64, size)
		f.a0 = make([]float32, size*k)
		f.sa0 = make([]float32, size*k)
	}
	if err := d.sync32(st.dictView()); err != nil {
		return err
	}
	G := d.f32.coder.Gram().Data
	s.stackedNorms(st, lambda0)
	workers := max(1, s.c.threads)
	for len(f.rows) < workers {
		f.rows = append(f.rows, make([]float64, k))
	}
	// The upper triangle of G~, rows shared round-robin: row i of
	// λ0·W Wᵀ from j = i on as q axpys over the rows of Wᵀ.
	fill := func(g []float32) {
		par.Do(workers, func(w int) {
			for i := w; i < k; i += workers {
				acc := f.rows[w][i:k]
				clear(acc)
				for c, v := range st.dt[i*stride+n : (i+1)*stride] {
					if v != 0 {
						kernel.AxpyUnitary(v, s.wt[c*k+i:(c+1)*k], acc)
					}
				}
				gi, out, ci := G[i*k+i:(i+1)*k], g[i*k+i:(i+1)*k], s.snorm[i]
				for t, v := range acc {
					out[t] = float32((float64(gi[t]) + lambda0*v) / (ci * s.snorm[i+t]))
				}
			}
		})
	}
	if f.coder == nil {
		c, err := omp.NewGramFill32(k, fill, s.c.options32(s.l)...)
		if err != nil {
			return diverged(err, "stacked dictionary")
		}
		f.coder = c
	} else if err := f.coder.FillGram(fill); err != nil {
		return diverged(err, "stacked dictionary")
	}
	x := b.x.RawMatrix()
	if err := d.f32.coder.CorrelationsTo(blas32.General{Rows: r, Cols: k, Stride: k, Data: f.a0[:r*k]}, d.samples32(b.x, b.samples32())); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	sw := max(1, min(workers, r))
	par.Do(sw, func(w int) {
		for i := w * r / sw; i < (w+1)*r/sw; i++ {
			xx := kernel.SumSqUnitary(x.Data[i*x.Stride : i*x.Stride+n])
			s.xx[i] = xx
			s.sxx[i] = xx + lambda0
			// sa[j] = (a[j] + λ0·w_j[y_i]) / c_j.
			wy := s.wt[b.lab[i]*k : (b.lab[i]+1)*k]
			a, sa := f.a0[i*k:(i+1)*k], f.sa0[i*k:(i+1)*k]
			for j, v := range a {
				sa[j] = float32((float64(v) + lambda0*wy[j]) / s.snorm[j])
			}
		}
	})
	if err := f.coder.EncodeGramTo(&f.codes, blas32.General{Rows: r, Cols: k, Stride: k, Data: f.sa0[:r*k]}, s.sxx[:r]); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	codesFrom32(dst, &f.codes)
	for p, j := range dst.Index {
		dst.Value[p] /= s.snorm[j]
	}
	s.valid = true
	return nil
}

// codesOnD32 is codesOnD in float32.
func (s *stackedCoder) codesOnD32(d *dictCoder, b *batch, dst *omp.Codes) error {
	k := len(s.snorm)
	r := b.rows()
	if err := d.f32.coder.EncodeGramTo(&s.f32.codes, blas32.General{Rows: r, Cols: k, Stride: k, Data: s.f32.a0[:r*k]}, s.xx[:r]); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	codesFrom32(dst, &s.f32.codes)
	return nil
}

// encodeClass32 is encodeClass in float32.
func (cc *classCoder) encodeClass32(c int, D *mat.Dense, l, a, b, n int) error {
	g := matrix32(&cc.d32, D)
	if cc.coders32[c] == nil {
		cd, err := cc.c.coderOn32(g, l)
		if err != nil {
			return fmt.Errorf("oddl: dictionary of class %d: %w", c, err)
		}
		cc.coders32[c] = cd
	} else if err := cc.coders32[c].SetDictionary(g); err != nil {
		return fmt.Errorf("oddl: dictionary of class %d: %w", c, err)
	}
	x := matrix32(&cc.x32, mat.NewDense(b-a, n, cc.x[a*n:b*n]))
	if err := cc.coders32[c].EncodeTo(&cc.codes32, x); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	codesFrom32(&cc.codes[c], &cc.codes32)
	return nil
}

// predict32 is the float32 side of a predictor: the coder on D (in class
// order with β > 0 or the collaborative rule) and the class coders.
type predict32 struct {
	coder   *omp.Coder32
	classes []*omp.Coder32
}

// newPredictor32 is newPredictor for a float32 model: the coders are
// float32; the collaborative rule's ridge system is factorised in float64
// from the float32 Gram matrix.
func newPredictor32(m *Model, impl32 gblas.Float32, impl gblas.Float64) (*predictor, error) {
	c := compute{threads: m.threads(), single: true, impl32: impl32}
	beta, collab := m.cfg.ResidualWeight, m.cfg.Collaborative
	k, n, q, s := m.st.k, m.st.n, m.st.q, m.st.stride()
	p := &predictor{beta: beta}
	var order []int
	if beta != 0 || collab != 0 {
		p.order, p.bounds = m.classOrder()
		order = p.order
	}
	D := make([]float32, k*n)
	for pos := range k {
		j := pos
		if order != nil {
			j = order[pos]
		}
		kernel.Float64To32(D[pos*n:(pos+1)*n], m.st.dt[j*s:j*s+n])
	}
	cd, err := c.coderOn32(blas32.General{Rows: k, Cols: n, Stride: n, Data: D}, m.cfg.L)
	if err != nil {
		return nil, fmt.Errorf("oddl: dictionary: %w", err)
	}
	p.f32.coder = cd
	if beta == 0 && collab == 0 {
		return p, nil
	}
	G := cd.Gram()
	if collab > 0 {
		g := make([]float64, k*k)
		kernel.Float32To64(g, G.Data[:k*k])
		p.gram = mat.NewDense(k, k, g)
		return p, p.factorCollab(impl, collab)
	}
	p.f32.classes = make([]*omp.Coder32, q)
	for cl := range q {
		lo, hi := p.bounds[cl], p.bounds[cl+1]
		if lo == hi {
			continue
		}
		l := min(m.cfg.L, hi-lo)
		sub := blas32.General{Rows: hi - lo, Cols: hi - lo, Stride: k, Data: G.Data[lo*k+lo:]}
		cc, err := omp.NewGram32(sub, omp.WithSparsity(l), omp.WithThreads(m.threads()))
		if err != nil {
			return nil, fmt.Errorf("oddl: atoms of class %d: %w", cl, err)
		}
		p.f32.classes[cl] = cc
	}
	return p, nil
}

// scores32 is scores for a float32 model: the samples are coded in
// float32 and the scores summed in float64 from the float32 codes.
func (p *predictor) scores32(ctx context.Context, m *Model, Xc *mat.Dense) (*mat.Dense, error) {
	r, _ := Xc.Dims()
	k, q := m.st.k, m.st.q
	S := mat.NewDense(r, q, nil)
	var x32 []float32
	var codes omp.Codes32
	if p.beta == 0 && p.gram == nil {
		if err := p.f32.coder.EncodeToContext(ctx, &codes, matrix32(&x32, Xc)); err != nil {
			return nil, codingError(ctx, err)
		}
		linearScores(m, S, &codes)
		return S, nil
	}
	rows := min(r, scoreRows, max(16, scoreFloats/k))
	A32 := make([]float32, rows*k)
	var A0 *mat.Dense // the correlations in float64, for the collaborative rule
	if p.gram != nil {
		A0 = mat.NewDense(rows, k, nil)
	}
	xx := make([]float64, rows)
	var cc omp.Codes32
	for lo := 0; lo < r; lo += rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+rows, r)
		nb := hi - lo
		X := Xc.Slice(lo, hi, 0, Xc.RawMatrix().Cols).(*mat.Dense)
		A := blas32.General{Rows: nb, Cols: k, Stride: k, Data: A32[:nb*k]}
		X32 := matrix32(&x32, X)
		if err := p.f32.coder.CorrelationsTo(A, X32); err != nil {
			return nil, fmt.Errorf("oddl: coding: %w", err)
		}
		for i := range nb {
			var v float64
			for _, e := range X32.Data[i*X32.Stride : i*X32.Stride+X32.Cols] {
				v += float64(e) * float64(e)
			}
			xx[i] = v
		}
		if p.gram != nil {
			kernel.Float32To64(A0.RawMatrix().Data[:nb*k], A32[:nb*k])
			p.collabScores(S.Slice(lo, hi, 0, q).(*mat.Dense), A0.Slice(0, nb, 0, k).(*mat.Dense), xx[:nb])
			continue
		}
		if err := p.f32.coder.EncodeGramTo(&codes, A, xx[:nb]); err != nil {
			return nil, fmt.Errorf("oddl: coding: %w", err)
		}
		for i := range nb {
			idx, val := codes.Row(i)
			row := S.RawRowView(lo + i)
			for t, pos := range idx {
				axpy(float64(val[t]), m.predW(p.order[pos]), row)
			}
		}
		for c := range q {
			a, b := p.bounds[c], p.bounds[c+1]
			if p.f32.classes[c] == nil {
				for i := range nb {
					S.Set(lo+i, c, S.At(lo+i, c)-p.beta*xx[i])
				}
				continue
			}
			band := blas32.General{Rows: nb, Cols: b - a, Stride: k, Data: A32[a:]}
			if err := p.f32.classes[c].EncodeGramTo(&cc, band, xx[:nb]); err != nil {
				return nil, fmt.Errorf("oddl: coding on the atoms of class %d: %w", c, err)
			}
			for i := range nb {
				idx, val := cc.Row(i)
				arow := A32[i*k+a : i*k+b]
				r2 := xx[i]
				for t, j := range idx {
					r2 -= float64(val[t]) * float64(arow[j])
				}
				r2 = math.Max(r2, 0)
				S.Set(lo+i, c, S.At(lo+i, c)-p.beta*r2)
			}
		}
	}
	return S, nil
}
