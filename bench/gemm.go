package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
)

// GemmShape is one matrix product C = op(A)·op(B), C m×n, of inner
// dimension k, with row-major operands as ODDL stores them.
type GemmShape struct {
	Name   string `json:"name"`
	What   string `json:"what"` // the product in ODDL's terms
	TransA bool   `json:"trans_a"`
	TransB bool   `json:"trans_b"`
	M      int    `json:"m"`
	N      int    `json:"n"`
	K      int    `json:"k"`
}

// Flops returns 2·m·n·k, the floating-point operations of the product.
func (s GemmShape) Flops() float64 { return 2 * float64(s.M) * float64(s.N) * float64(s.K) }

// String returns the shape as "name (m×k·k×n)".
func (s GemmShape) String() string {
	return fmt.Sprintf("%s (%d×%d·%d×%d)", s.Name, s.M, s.K, s.K, s.N)
}

// GemmShapes returns the products that dominate ODDL on samples of dimension
// n with K atoms and q classes, coding mini-batches of each size in batches:
//
//	A0-<b>  A0 = X·Dᵀ, the correlations of b samples with the atoms (Batch-OMP)
//	Gram    G = D·Dᵀ, once per dictionary (Batch-OMP)
//	BCD-P   P = D~ᵀ·M, the (n+q)×K start of a blocked dictionary sweep
func GemmShapes(n, K, q int, batches ...int) []GemmShape {
	var out []GemmShape
	for _, b := range batches {
		out = append(out, GemmShape{
			Name: fmt.Sprintf("A0-%d", b), What: "A0 = X·Dᵀ",
			TransB: true, M: b, N: K, K: n,
		})
	}
	return append(out,
		GemmShape{Name: "Gram", What: "G = D·Dᵀ", TransB: true, M: K, N: K, K: n},
		GemmShape{Name: ShapeBCDP, What: "P = D~ᵀ·M", TransA: true, M: n + q, N: K, K: K},
	)
}

// MNISTGemmShapes returns GemmShapes for MNIST with the paper's K = 960:
// n = 784, q = 10, batches of 256 and 1024 samples.
func MNISTGemmShapes() []GemmShape { return GemmShapes(784, 960, 10, 256, 1024) }

// ShapeBCDP is the name of the dictionary update's product in GemmShapes.
const ShapeBCDP = "BCD-P"

// SgemmShapes returns the products of GemmShapes that a float32 training
// runs in float32 (oddl.PrecisionFloat32): the correlations A0 and the
// Gram matrix of Batch-OMP. The dictionary update's P = D~ᵀ·M stays a
// DGEMM there, its statistics being float64.
func SgemmShapes(n, K, q int, batches ...int) []GemmShape {
	return slices.DeleteFunc(GemmShapes(n, K, q, batches...), func(s GemmShape) bool { return s.Name == ShapeBCDP })
}

// MNISTSgemmShapes returns SgemmShapes for MNIST with the paper's K = 960.
func MNISTSgemmShapes() []GemmShape { return SgemmShapes(784, 960, 10, 256, 1024) }

// GemmCase holds the operands of one GemmShape, filled with seeded uniform
// values in [-1, 1), and their float32 roundings for Run32.
type GemmCase struct {
	Shape         GemmShape
	a, b, c       []float64
	a32, b32, c32 []float32
	lda, ldb, ldc int
}

// NewGemmCase allocates and fills the operands of s.
func NewGemmCase(s GemmShape, seed uint64) *GemmCase {
	rng := rand.New(rand.NewPCG(seed, 0x6e6d))
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 2*rng.Float64() - 1
		}
		return x
	}
	g := &GemmCase{Shape: s, lda: s.K, ldb: s.N, ldc: s.N}
	if s.TransA {
		g.lda = s.M // A is stored k×m
	}
	if s.TransB {
		g.ldb = s.K // B is stored n×k
	}
	g.a = fill(s.M * s.K)
	g.b = fill(s.K * s.N)
	g.c = fill(s.M * s.N)
	return g
}

// Run computes C = op(A)·op(B) with impl.
func (g *GemmCase) Run(impl gblas.Float64) {
	s := g.Shape
	impl.Dgemm(trans(s.TransA), trans(s.TransB), s.M, s.N, s.K,
		1, g.a, g.lda, g.b, g.ldb, 0, g.c, g.ldc)
}

// Run32 computes C = op(A)·op(B) in float32 with impl, on the operands
// rounded to float32 (made on the first call).
func (g *GemmCase) Run32(impl gblas.Float32) {
	if g.a32 == nil {
		g.a32, g.b32, g.c32 = round32(g.a), round32(g.b), round32(g.c)
	}
	s := g.Shape
	impl.Sgemm(trans(s.TransA), trans(s.TransB), s.M, s.N, s.K,
		1, g.a32, g.lda, g.b32, g.ldb, 0, g.c32, g.ldc)
}

func round32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}

func trans(t bool) gblas.Transpose {
	if t {
		return gblas.Trans
	}
	return gblas.NoTrans
}

// GemmResult is the measured speed of one product on one backend.
type GemmResult struct {
	Backend string    `json:"backend"`
	Kernel  string    `json:"kernel"` // the kernel tier that ran (kernel.Name())
	Shape   GemmShape `json:"shape"`
	Threads int       `json:"threads"`
	Timing
	GFLOPS float64 `json:"gflops"` // Flops / Best
	// PctPeak is 100·GFLOPS / Machine.Peak(Threads) for DGEMM, and
	// against Machine.Peak32(Threads) for SGEMM.
	PctPeak float64 `json:"pct_peak"`
}

// MeasureGemm times the product s on the named backend running threads
// threads (see WithThreads) for about minTime, and relates the rate to the
// machine's peak for that many cores.
func MeasureGemm(m *Machine, backend string, s GemmShape, threads int, minTime time.Duration) (GemmResult, error) {
	g := NewGemmCase(s, 1)
	r := GemmResult{Backend: backend, Kernel: kernel.Name(), Shape: s, Threads: threads}
	err := WithThreads(backend, threads, func(impl gblas.Float64) {
		r.Timing = Measure(minTime, 3, 0, func() { g.Run(impl) })
	})
	if err != nil {
		return GemmResult{}, err
	}
	r.GFLOPS = s.Flops() / r.Best / 1e9
	if p := m.Peak(threads); p > 0 {
		r.PctPeak = 100 * r.GFLOPS / p
	}
	return r, nil
}

// MeasureSgemm is MeasureGemm for SGEMM: the product s in float32 on the
// named backend's float32 routines, related to the machine's FP32 peak.
func MeasureSgemm(m *Machine, backend string, s GemmShape, threads int, minTime time.Duration) (GemmResult, error) {
	g := NewGemmCase(s, 1)
	r := GemmResult{Backend: backend, Kernel: kernel.Name(), Shape: s, Threads: threads}
	var err error
	werr := WithThreads(backend, threads, func(impl gblas.Float64) {
		impl32, ok := impl.(gblas.Float32)
		if !ok {
			err = fmt.Errorf("bench: backend %s has no float32 routines", backend)
			return
		}
		r.Timing = Measure(minTime, 3, 0, func() { g.Run32(impl32) })
	})
	if werr != nil {
		return GemmResult{}, werr
	}
	if err != nil {
		return GemmResult{}, err
	}
	r.GFLOPS = s.Flops() / r.Best / 1e9
	if p := m.Peak32(threads); p > 0 {
		r.PctPeak = 100 * r.GFLOPS / p
	}
	return r, nil
}

// WithThreads runs f on the named backend bound to n threads
// (blas.WithThreads). A backend that cannot be bound runs with the process
// limited instead: GOMAXPROCS set to n (gonum's GEMM splits its work over
// that many goroutines) and, when OpenBLAS is compiled in, OpenBLAS's
// process-wide count set to n (blas.SetOpenBLASThreads); both are restored
// afterwards. They belong to the whole process: nothing else should run
// meanwhile, as befits a measurement.
func WithThreads(backend string, n int, f func(impl gblas.Float64)) error {
	if n < 1 {
		return fmt.Errorf("bench: %d threads: need at least 1", n)
	}
	impl, err := blas.Lookup(backend, blas.WithThreads(n))
	if err != nil {
		return err
	}
	if _, bound := impl.(blas.Threaded); !bound {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	}
	if ob, ok := blas.OpenBLASCore(); ok {
		if err := blas.SetOpenBLASThreads(n); err != nil {
			return err
		}
		defer blas.SetOpenBLASThreads(ob.Threads)
	}
	f(impl)
	return nil
}
