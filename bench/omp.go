package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/omp"
)

// OMPShape is a Batch-OMP problem: samples of dimension Dim coded with at
// most Sparsity of Atoms unit-norm atoms.
type OMPShape struct {
	Dim      int `json:"n"`
	Atoms    int `json:"k"`
	Sparsity int `json:"l"`
}

// String returns the shape as "(n, K, L)".
func (s OMPShape) String() string { return fmt.Sprintf("(%d, %d, %d)", s.Dim, s.Atoms, s.Sparsity) }

// OMPShapes returns the Batch-OMP problems of ODDL on digits: MNIST
// (784, 960, 5) and USPS-sized samples (256, 960, 5).
func OMPShapes() []OMPShape {
	return []OMPShape{{784, 960, 5}, {256, 960, 5}}
}

// OMPCase is a seeded random Batch-OMP problem: a dictionary of Gaussian
// atoms scaled to unit norm and signals that are each a combination of
// Sparsity random atoms with Gaussian weights plus 10% Gaussian noise,
// scaled to unit norm (so the pursuit runs its full L steps, as on real
// data).
type OMPCase struct {
	Shape OMPShape
	D     *mat.Dense // Atoms×Dim, one atom a row
	X     *mat.Dense // N×Dim, one signal a row
	Codes omp.Codes  // the output of Encode, reused
	a0    []float64  // OMPBlock×Atoms, the output of A0
}

// OMPBlock is the number of signals whose correlations with the atoms are
// computed by one GEMM, in the coder (omp.WithBlockSize, its default) and in
// A0.
const OMPBlock = 1024

// NewOMPCase returns a problem of the given shape with signals signals.
func NewOMPCase(s OMPShape, signals int, seed uint64) *OMPCase {
	if s.Dim < 1 || s.Atoms < 1 || s.Sparsity < 1 || signals < 1 {
		panic(fmt.Sprintf("bench: bad OMP problem %v with %d signals", s, signals))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6f6d70))
	d := make([]float64, s.Atoms*s.Dim)
	for i := range d {
		d[i] = rng.NormFloat64()
	}
	for j := range s.Atoms {
		unit(d[j*s.Dim : (j+1)*s.Dim])
	}
	x := make([]float64, signals*s.Dim)
	for i := range signals {
		xi := x[i*s.Dim : (i+1)*s.Dim]
		for t := range xi {
			xi[t] = 0.1 * rng.NormFloat64() / math.Sqrt(float64(s.Dim))
		}
		for range s.Sparsity {
			w := rng.NormFloat64()
			dj := d[rng.IntN(s.Atoms)*s.Dim:]
			for t := range xi {
				xi[t] += w * dj[t]
			}
		}
		unit(xi)
	}
	return &OMPCase{
		Shape: s,
		D:     mat.NewDense(s.Atoms, s.Dim, d),
		X:     mat.NewDense(signals, s.Dim, x),
		a0:    make([]float64, min(signals, OMPBlock)*s.Atoms),
	}
}

// unit scales x to unit Euclidean norm (a zero x stays zero).
func unit(x []float64) {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	if s == 0 {
		return
	}
	s = 1 / math.Sqrt(s)
	for i := range x {
		x[i] *= s
	}
}

// Signals returns N, the number of signals.
func (c *OMPCase) Signals() int { r, _ := c.X.Dims(); return r }

// Coder returns a Batch-OMP coder for the problem's dictionary on impl with
// threads goroutines.
func (c *OMPCase) Coder(impl gblas.Float64, threads int) (*omp.Coder, error) {
	return omp.New(c.D, omp.WithSparsity(c.Shape.Sparsity), omp.WithBackend(impl),
		omp.WithThreads(threads), omp.WithBlockSize(OMPBlock))
}

// Encode codes every signal with coder into c.Codes.
func (c *OMPCase) Encode(coder *omp.Coder) error { return coder.EncodeTo(&c.Codes, c.X) }

// A0 computes the correlations A0 = X·Dᵀ of every signal with every atom on
// impl, OMPBlock signals per GEMM (the coder's block size) into one reused
// block: the part of Batch-OMP no implementation can avoid, and the bound
// its throughput is compared with. (One GEMM over all signals is slower: its
// N×K result does not stay in cache.)
func (c *OMPCase) A0(impl gblas.Float64) {
	s := c.Shape
	x, d := c.X.RawMatrix().Data, c.D.RawMatrix().Data
	for i, n := 0, c.Signals(); i < n; i += OMPBlock {
		m := min(OMPBlock, n-i)
		impl.Dgemm(gblas.NoTrans, gblas.Trans, m, s.Atoms, s.Dim,
			1, x[i*s.Dim:], s.Dim, d, s.Dim, 0, c.a0, s.Atoms)
	}
}

// OMPResult is the measured throughput of Batch-OMP on one backend.
type OMPResult struct {
	Backend string   `json:"backend"`
	Kernel  string   `json:"kernel"` // the kernel tier that ran (kernel.Name())
	Shape   OMPShape `json:"shape"`
	Signals int      `json:"signals"`
	Threads int      `json:"threads"`
	Timing
	SignalsPerS float64 `json:"signals_per_s"` // Signals / Best
	// A0 is the timing of A0 = X·Dᵀ (OMPBlock signals per GEMM) for the
	// same signals on the same backend and threads; GemmBoundPerS = Signals / A0.Best is the
	// throughput if Batch-OMP cost nothing beyond that GEMM, and
	// OverBound = GemmBoundPerS / SignalsPerS how far the coder is from it
	// (1 would be perfect).
	A0            Timing  `json:"a0"`
	A0GFLOPS      float64 `json:"a0_gflops"`
	GemmBoundPerS float64 `json:"gemm_bound_signals_per_s"`
	OverBound     float64 `json:"over_bound"`
}

// openblasIdle is how long OpenBLAS's threads may keep spinning after a
// GEMM before they sleep (its default THREAD_TIMEOUT, 2²⁸ cycles, is about
// 0.1 s at 2.6 GHz), with a margin.
const openblasIdle = 200 * time.Millisecond

// MeasureOMP times Batch-OMP on signals random signals of shape s on the
// named backend, the coder and the backend both running threads threads, for
// at least minTime each for the coder and for A0 alone, in turn
// (MeasurePair), except with OpenBLAS on several threads.
func MeasureOMP(backend string, s OMPShape, signals, threads int, minTime time.Duration) (OMPResult, error) {
	if _, err := blas.Lookup(backend); err != nil {
		return OMPResult{}, err
	}
	c := NewOMPCase(s, signals, 1)
	r := OMPResult{Backend: backend, Kernel: kernel.Name(), Shape: s, Signals: signals, Threads: threads}
	var err error
	werr := WithThreads(backend, threads, func(impl gblas.Float64) {
		var coder *omp.Coder
		coder, err = c.Coder(impl, threads)
		if err != nil {
			return
		}
		encode := func() {
			if e := c.Encode(coder); e != nil && err == nil {
				err = e
			}
		}
		if backend == blas.OpenBLASName && threads > 1 {
			// OpenBLAS's threads spin for a while after each of A0's
			// GEMMs and would take the cores from the coder's goroutines
			// run next: one after the other, the coder first, once the
			// threads of the GEMMs measured before have gone to sleep.
			time.Sleep(openblasIdle)
			r.Timing = Measure(minTime, 3, 0, encode)
			r.A0 = Measure(minTime, 3, 0, func() { c.A0(impl) })
		} else {
			r.Timing, r.A0 = MeasurePair(minTime, 3, encode, func() { c.A0(impl) })
		}
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return OMPResult{}, fmt.Errorf("bench: Batch-OMP %v on %s: %w", s, backend, err)
	}
	r.SignalsPerS = float64(signals) / r.Best
	r.GemmBoundPerS = float64(signals) / r.A0.Best
	r.A0GFLOPS = 2 * float64(signals*s.Atoms*s.Dim) / r.A0.Best / 1e9
	r.OverBound = r.GemmBoundPerS / r.SignalsPerS
	return r, nil
}
