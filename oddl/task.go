package oddl

import (
	"math"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/omp"
)

// taskTerm is the supervised (task-driven) term of the dictionary update
// (Config.TaskStep): it adds −η·∂ℓ/∂D of the batch, ℓ = Σ ½||W a − y||²
// with a the codes on D, to the dictionary part of N, so that the next
// sweep minimises the surrogate plus η times the task loss linearised at
// the current D.
//
// For a sample with support Λ, code a and classifier residual r = W a − y,
// the code on its support is a_Λ = (D_Λᵀ D_Λ)⁻¹ D_Λᵀ x, and
//
//	β_Λ = (D_Λᵀ D_Λ)⁻¹ W_Λᵀ r,   ∂ℓ/∂d_j = −a_j·D_Λ β_Λ + β_j·(x − D a)
//
// for j ∈ Λ (zero for the other atoms). The per-sample gradients of a chunk
// of taskChunk samples are computed on up to threads goroutines, then
// added in batch order, so N does not depend on the thread count.
type taskTerm struct {
	threads int
	l       int
	scratch []taskScratch // one a goroutine
	grads   []float64     // a chunk's gradients, L·n values a sample
}

// add adds the term of the batch b, coded on D in codes, with step eta.
func (tt *taskTerm) add(st *state, b *batch, codes *omp.Codes, eta float64) {
	n, s, l := st.n, st.stride(), tt.l
	r := b.rows()
	workers := max(1, min(tt.threads, taskChunk/8))
	tt.ensure(st, workers)
	for c0 := 0; c0 < r; c0 += taskChunk {
		c1 := min(r, c0+taskChunk)
		grads := tt.grads[:(c1-c0)*l*n]
		// Compute: worker w takes samples c0+w, c0+w+workers, …
		par.Do(workers, func(w int) {
			tt.gradients(st, b, codes, c0, c1, w, workers, grads)
		})
		// Add, in batch order: worker w adds to the rows of N of its
		// share of the atoms, so each row sees the same additions in the
		// same order whatever the number of workers.
		par.Do(workers, func(w int) {
			lo, hi := w*st.k/workers, (w+1)*st.k/workers
			for i := c0; i < c1; i++ {
				idx, _ := codes.Row(i)
				g := grads[(i-c0)*l*n:]
				for p, j := range idx {
					if j >= lo && j < hi {
						kernel.AxpyUnitary(-eta, g[p*n:(p+1)*n], st.nt[j*s:j*s+n])
					}
				}
			}
		})
	}
}

// taskChunk is the number of samples whose task gradients are computed
// before they are added to N.
const taskChunk = 64

// gradients writes the gradients of samples c0+w, c0+w+step, … (< c1)
// into their slots of grads (L·n values a sample).
func (tt *taskTerm) gradients(st *state, b *batch, codes *omp.Codes, c0, c1, w, step int, grads []float64) {
	n, l := st.n, tt.l
	for i := c0 + w; i < c1; i += step {
		idx, val := codes.Row(i)
		if len(idx) == 0 {
			continue
		}
		taskSample(st, b.x.RawRowView(i), b.lab[i], idx, val, &tt.scratch[w], grads[(i-c0)*l*n:])
	}
}

// taskScratch holds the per-sample buffers of taskSample.
type taskScratch struct {
	gram, beta, z, e, db []float64
}

func (tt *taskTerm) ensure(st *state, workers int) {
	l := tt.l
	if tt.grads == nil {
		tt.grads = make([]float64, taskChunk*l*st.n)
	}
	for len(tt.scratch) < workers {
		tt.scratch = append(tt.scratch, taskScratch{
			gram: make([]float64, l*l), beta: make([]float64, l),
			z: make([]float64, st.q), e: make([]float64, st.n),
			db: make([]float64, st.n),
		})
	}
}

// taskSample writes ∂ℓ/∂d_j for the atoms j = idx[p] of one sample into
// rows p of grad (n values each).
func taskSample(st *state, x []float64, y int, idx []int, val []float64, ts *taskScratch, grad []float64) {
	n, s := st.n, st.stride()
	l := len(idx)
	// z = W a, residual e = x − D a.
	z, e := ts.z, ts.e
	clear(z)
	copy(e, x)
	for p, j := range idx {
		row := st.dt[j*s : (j+1)*s]
		axpy(val[p], row[n:], z)
		kernel.AxpyUnitary(-val[p], row[:n], e)
	}
	z[y]--
	// β = (D_Λᵀ D_Λ)⁻¹ W_Λᵀ r by Cholesky of the small Gram matrix.
	g, beta := ts.gram[:l*l], ts.beta[:l]
	for p, j := range idx {
		row := st.dt[j*s : (j+1)*s]
		beta[p] = dot(row[n:], z)
		for p2 := 0; p2 <= p; p2++ {
			g[p*l+p2] = kernel.DotUnitary(row[:n], st.dt[idx[p2]*s:idx[p2]*s+n])
		}
	}
	if !cholSolve(g, l, beta) {
		clear(grad[:l*n])
		return
	}
	// Dβ, then the gradients.
	db := ts.db
	clear(db)
	for p, j := range idx {
		kernel.AxpyUnitary(beta[p], st.dt[j*s:j*s+n], db)
	}
	for p := range idx {
		kernel.Axpby(grad[p*n:(p+1)*n], db, e, -val[p], beta[p])
	}
}

// cholSolve solves G·x = b in place for the symmetric positive definite
// l×l matrix G given by its lower triangle (row-major, overwritten by the
// factor). It reports false when G is not numerically definite.
func cholSolve(g []float64, l int, b []float64) bool {
	for j := range l {
		d := g[j*l+j]
		for k := range j {
			d -= g[j*l+k] * g[j*l+k]
		}
		if !(d > 1e-12) {
			return false
		}
		d = math.Sqrt(d)
		g[j*l+j] = d
		for i := j + 1; i < l; i++ {
			v := g[i*l+j]
			for k := range j {
				v -= g[i*l+k] * g[j*l+k]
			}
			g[i*l+j] = v / d
		}
	}
	for i := range l {
		v := b[i]
		for k := range i {
			v -= g[i*l+k] * b[k]
		}
		b[i] = v / g[i*l+i]
	}
	for i := l - 1; i >= 0; i-- {
		v := b[i]
		for k := i + 1; k < l; k++ {
			v -= g[k*l+i] * b[k]
		}
		b[i] = v / g[i*l+i]
	}
	return true
}

func dot(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}
