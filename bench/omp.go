package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
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

	// The same problem in float32 (D and X rounded), made by
	// Coder32 when first needed.
	D32, X32 blas32.General
	Codes32  omp.Codes32 // the output of Encode32, reused
	a032     []float32   // OMPBlock×Atoms, the output of A032
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

// Coder32 returns a float32 Batch-OMP coder (omp.Coder32) for the
// problem's dictionary rounded to float32, on impl's float32 routines with
// threads goroutines.
func (c *OMPCase) Coder32(impl gblas.Float32, threads int) (*omp.Coder32, error) {
	c.round32()
	return omp.New32(c.D32, omp.WithSparsity(c.Shape.Sparsity), omp.WithBackend32(impl),
		omp.WithThreads(threads), omp.WithBlockSize(OMPBlock))
}

// round32 makes the float32 copies of D and X, once.
func (c *OMPCase) round32() {
	if c.D32.Data != nil {
		return
	}
	c.D32, c.X32 = general32(c.D), general32(c.X)
	c.a032 = make([]float32, len(c.a0))
}

// general32 returns M rounded to float32.
func general32(M *mat.Dense) blas32.General {
	r, k := M.Dims()
	g := blas32.General{Rows: r, Cols: k, Stride: k, Data: make([]float32, r*k)}
	for i := range r {
		for j, v := range M.RawRowView(i) {
			g.Data[i*k+j] = float32(v)
		}
	}
	return g
}

// Encode32 codes every signal, rounded to float32, with coder into
// c.Codes32.
func (c *OMPCase) Encode32(coder *omp.Coder32) error {
	c.round32()
	return coder.EncodeTo(&c.Codes32, c.X32)
}

// A032 is A0 in float32: the correlation SGEMMs on impl, OMPBlock signals
// per GEMM.
func (c *OMPCase) A032(impl gblas.Float32) {
	c.round32()
	s := c.Shape
	x, d := c.X32.Data, c.D32.Data
	for i, n := 0, c.Signals(); i < n; i += OMPBlock {
		m := min(OMPBlock, n-i)
		impl.Sgemm(gblas.NoTrans, gblas.Trans, m, s.Atoms, s.Dim,
			1, x[i*s.Dim:], s.Dim, d, s.Dim, 0, c.a032, s.Atoms)
	}
}

// Precision32 is OMPResult.Precision of the float32 coder's rows.
const Precision32 = "float32"

// OMPResult is the measured throughput of Batch-OMP on one backend.
type OMPResult struct {
	Backend string `json:"backend"`
	// Precision is Precision32 for the float32 coder (omp.Coder32, A0 by
	// SGEMM), empty for float64.
	Precision string   `json:"precision,omitempty"`
	Kernel    string   `json:"kernel"` // the kernel tier that ran (kernel.Name())
	Shape     OMPShape `json:"shape"`
	Signals   int      `json:"signals"`
	Threads   int      `json:"threads"`
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
	return measureOMP(backend, s, signals, threads, minTime, false)
}

// MeasureOMP32 is MeasureOMP for the float32 coder (omp.Coder32) on the
// backend's float32 routines, on the same signals rounded to float32, with
// A0 by SGEMM. Its result has Precision Precision32.
func MeasureOMP32(backend string, s OMPShape, signals, threads int, minTime time.Duration) (OMPResult, error) {
	return measureOMP(backend, s, signals, threads, minTime, true)
}

// measureOMP is MeasureOMP, or MeasureOMP32 when f32 is set.
func measureOMP(backend string, s OMPShape, signals, threads int, minTime time.Duration, f32 bool) (OMPResult, error) {
	if _, err := blas.Lookup(backend); err != nil {
		return OMPResult{}, err
	}
	c := NewOMPCase(s, signals, 1)
	r := OMPResult{Backend: backend, Kernel: kernel.Name(), Shape: s, Signals: signals, Threads: threads}
	var err error
	werr := WithThreads(backend, threads, func(impl gblas.Float64) {
		var encode, a0 func()
		if f32 {
			r.Precision = Precision32
			impl32, ok := impl.(gblas.Float32)
			if !ok {
				err = fmt.Errorf("backend %s has no float32 routines", backend)
				return
			}
			var coder *omp.Coder32
			if coder, err = c.Coder32(impl32, threads); err != nil {
				return
			}
			encode = func() {
				if e := c.Encode32(coder); e != nil && err == nil {
					err = e
				}
			}
			a0 = func() { c.A032(impl32) }
		} else {
			var coder *omp.Coder
			if coder, err = c.Coder(impl, threads); err != nil {
				return
			}
			encode = func() {
				if e := c.Encode(coder); e != nil && err == nil {
					err = e
				}
			}
			a0 = func() { c.A0(impl) }
		}
		if backend == blas.OpenBLASName && threads > 1 {
			// OpenBLAS's threads spin for a while after each of A0's
			// GEMMs and would take the cores from the coder's goroutines
			// run next: one after the other, the coder first, once the
			// threads of the GEMMs measured before have gone to sleep.
			time.Sleep(openblasIdle)
			r.Timing = Measure(minTime, 3, 0, encode)
			r.A0 = Measure(minTime, 3, 0, a0)
		} else {
			r.Timing, r.A0 = MeasurePair(minTime, 3, encode, a0)
		}
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return OMPResult{}, fmt.Errorf("bench: Batch-OMP %v on %s: %w", s, r.Label(), err)
	}
	r.SignalsPerS = float64(signals) / r.Best
	r.GemmBoundPerS = float64(signals) / r.A0.Best
	r.A0GFLOPS = 2 * float64(signals*s.Atoms*s.Dim) / r.A0.Best / 1e9
	r.OverBound = r.GemmBoundPerS / r.SignalsPerS
	return r, nil
}

// Label returns the backend's name, followed by the precision for the
// float32 rows: the backend column of the report's Batch-OMP table.
func (o OMPResult) Label() string {
	if o.Precision != "" {
		return o.Backend + " " + o.Precision
	}
	return o.Backend
}
