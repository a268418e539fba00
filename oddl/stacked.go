package oddl

import (
	"fmt"
	"math"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/omp"
)

// stackedCoder codes the stacked batch [x; √λ0·y] on the stacked
// dictionary [D; √λ0·W] with its rows normalised, then rescales the codes
// to the unnormalised rows, so that a refers to D and W as stored
// (CodingStacked in the joint phase).
//
// Neither the stacked dictionary nor the stacked batch is formed: with c_j
// the norm of stacked row j, everything Batch-OMP needs follows from G =
// D Dᵀ and A0 = X Dᵀ, which the codes on D of the task-driven term need
// anyway:
//
//	G~ = C⁻¹ (G + λ0·W Wᵀ) C⁻¹,   A0~_ij = (A0_ij + λ0·w_j[y_i]) / c_j,
//	||x~_i||² = ||x_i||² + λ0,
//
// a K×K×q product and κ×K additions instead of a SYRK and a GEMM over
// n + q columns. The coder keeps A0 and the squared norms of the batch, so
// that codesOnD can code the same batch on D without another GEMM.
type stackedCoder struct {
	c     compute
	l     int
	coder *omp.Coder // on the Gram matrix G~
	snorm []float64  // c_j
	wt    []float64  // q×K: W transposed
	wpack kernel.PackedB
	a0    []float64 // A0 = X Dᵀ of the batch, and
	sa0   []float64 // A0~
	xx    []float64 // ||x_i||², and
	sxx   []float64 // ||x~_i||²
	// valid says that a0 and xx belong to the current batch and D.
	valid bool
	f32   stacked32 // the float32 coder and buffers (compute.single)
}

func newStackedCoder(c compute, l int) *stackedCoder { return &stackedCoder{c: c, l: l} }

// stackedNorms sets the norms of the stacked atoms [d_j; √λ0·w_j] and W
// transposed (q×K: the class's row of W for the stacked correlations, the
// columns of Wᵀ for G~), which both precisions' encode start from.
func (s *stackedCoder) stackedNorms(st *state, lambda0 float64) {
	k, n, q, stride := st.k, st.n, st.q, st.stride()
	for j := range k {
		row := st.dt[j*stride : (j+1)*stride]
		s.snorm[j] = math.Sqrt(kernel.SumSqUnitary(row[:n]) + lambda0*kernel.SumSqUnitary(row[n:]))
	}
	if len(s.wt) < q*k {
		s.wt = make([]float64, q*k)
	}
	for j := range k {
		for c, v := range st.dt[j*stride+n : (j+1)*stride] {
			s.wt[c*k+j] = v
		}
	}
}

// encode writes the codes of the batch into dst; d holds G and D's
// correlations.
func (s *stackedCoder) encode(st *state, d *dictCoder, b *batch, lambda0 float64, dst *omp.Codes) error {
	if s.c.single {
		return s.encode32(st, d, b, lambda0, dst)
	}
	k, n := st.k, st.n
	r := b.rows()
	if len(s.snorm) < k || len(s.xx) < r {
		size := len(b.lab)
		s.snorm = make([]float64, k)
		s.a0 = make([]float64, size*k)
		s.sa0 = make([]float64, size*k)
		s.xx = make([]float64, size)
		s.sxx = make([]float64, size)
	}
	if err := d.sync(st.dictView()); err != nil {
		return err
	}
	G := d.coder.Gram().RawMatrix().Data
	s.stackedNorms(st, lambda0)
	workers := max(1, s.c.threads)
	// Upper triangle of G~ (all the Gram coder reads), rows shared
	// round-robin between the workers; written straight into the Gram
	// coder's matrix once it exists.
	fill := func(gs []float64) { s.fillGram(st, G, gs, lambda0, workers) }
	if s.coder == nil {
		c, err := omp.NewGramFill(k, fill, omp.WithSparsity(s.l), omp.WithBackend(s.c.impl), omp.WithThreads(s.c.threads))
		if err != nil {
			return diverged(err, "stacked dictionary")
		}
		s.coder = c
	} else if err := s.coder.FillGram(fill); err != nil {
		return diverged(err, "stacked dictionary")
	}
	// A0 = X Dᵀ (on the coder's copy of D, packed once with the native
	// backend), the norms and the stacked correlations (the class's row
	// of W read from a transposed copy), samples shared between workers.
	x := b.x.RawMatrix()
	if err := d.coder.CorrelationsTo(mat.NewDense(r, k, s.a0[:r*k]), b.x); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	sw := max(1, min(workers, r))
	par.Do(sw, func(w int) {
		lo, hi := w*r/sw, (w+1)*r/sw
		for i := lo; i < hi; i++ {
			xx := kernel.SumSqUnitary(x.Data[i*x.Stride : i*x.Stride+n])
			s.xx[i] = xx
			s.sxx[i] = xx + lambda0
			// sa[j] = (a[j] + λ0·w_j[y_i]) / c_j.
			wy := s.wt[b.lab[i]*k : (b.lab[i]+1)*k]
			kernel.AxpyDiv(s.sa0[i*k:(i+1)*k], s.a0[i*k:(i+1)*k], wy, s.snorm, lambda0)
		}
	})
	if err := s.coder.EncodeGramTo(dst, mat.NewDense(r, k, s.sa0[:r*k]), s.sxx[:r]); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	for p, j := range dst.Index {
		dst.Value[p] /= s.snorm[j]
	}
	s.valid = true
	return nil
}

// fillGram writes the upper triangle of G~ into gs.
func (s *stackedCoder) fillGram(st *state, G, gs []float64, lambda0 float64, workers int) {
	k, n, q, stride := st.k, st.n, st.q, st.stride()
	if blas.RoundsAsKernel(s.c.impl) && q <= 256 {
		// The values of the backend's Dsyrk followed by the division, row
		// by row in one pass: each entry's dot product over the classes as
		// the kernel's GEMM rounds it.
		par.Do(workers, func(w int) {
			for i := w; i < k; i += workers {
				kernel.DotsAddDiv(gs[i*k+i:(i+1)*k], G[i*k+i:(i+1)*k], s.snorm[i:],
					st.dt[i*stride+n:(i+1)*stride], s.wt[i:], k, lambda0, s.snorm[i])
			}
		})
		return
	}
	if g, ok := s.c.impl.(blas.GramUpper); ok {
		g.PackB(&s.wpack, gblas.Trans, q, k, st.dt[n:], stride)
		g.DgemmPackedUpper(gblas.NoTrans, lambda0, st.dt[n:], stride, &s.wpack, 0, gs, k)
	} else {
		s.c.impl.Dsyrk(gblas.Upper, gblas.NoTrans, k, q, lambda0, st.dt[n:], stride, 0, gs, k)
	}
	par.Do(workers, func(w int) {
		for i := w; i < k; i += workers {
			// srow[j] = (srow[j] + grow[j]) / (c_i·c_j), j ≥ i.
			kernel.AddDiv(gs[i*k+i:(i+1)*k], G[i*k+i:(i+1)*k], s.snorm[i:], s.snorm[i])
		}
	})
}

// codesOnD codes the batch b on D into dst, from the correlations and
// norms that encode kept; encode must have coded b on the current
// dictionary (valid).
func (s *stackedCoder) codesOnD(d *dictCoder, b *batch, dst *omp.Codes) error {
	if s.c.single {
		return s.codesOnD32(d, b, dst)
	}
	k := len(s.snorm)
	r := b.rows()
	if err := d.coder.EncodeGramTo(dst, mat.NewDense(r, k, s.a0[:r*k]), s.xx[:r]); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	return nil
}
