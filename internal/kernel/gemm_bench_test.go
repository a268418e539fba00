package kernel

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemmBenchShape is one benchmarked product: op(A) m×k, op(B) k×n.
type gemmBenchShape struct {
	m, n, k int
	transB  bool
}

func (s gemmBenchShape) String() string {
	name := fmt.Sprintf("m=%d,n=%d,k=%d", s.m, s.n, s.k)
	if s.transB {
		name += ",tB"
	}
	return name
}

// gemmBenchShapes are the sizes the project cares about: powers of two,
// A0 = X·Dᵀ for 960 atoms of 784 pixels against 4096 samples (either
// layout of the second operand) and the Gram matrix D·Dᵀ.
var gemmBenchShapes = []gemmBenchShape{
	{64, 64, 64, false},
	{256, 256, 256, false},
	{1024, 1024, 1024, false},
	{960, 4096, 784, false},
	{960, 4096, 784, true},
	{960, 960, 784, true},
	{256, 960, 784, true},
	{1024, 960, 784, true},
}

func gemmBenchOperands(s gemmBenchShape) (a, b, c []float64, lda, ldb int) {
	rng := rand.New(rand.NewPCG(1, 2))
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64()
		}
		return x
	}
	lda, ldb = s.k, s.n
	if s.transB {
		ldb = s.k
	}
	return fill(s.m * s.k), fill(s.k * s.n), fill(s.m * s.n), lda, ldb
}

// gemmBenchRun runs f b.N times and reports GFLOP/s of wall time and, where
// the process CPU time can be read, GFLOP per CPU-second: on a shared
// machine the second shows the code's own speed (per core in use) when
// other processes take turns on the cores.
func gemmBenchRun(b *testing.B, s gemmBenchShape, f func()) {
	cpu0 := processCPUSeconds()
	for b.Loop() {
		f()
	}
	cpu := processCPUSeconds() - cpu0
	gflop := 2 * float64(s.m) * float64(s.n) * float64(s.k) * float64(b.N) / 1e9
	b.ReportMetric(gflop/b.Elapsed().Seconds(), "GFLOP/s")
	if cpu0 >= 0 && cpu > 0 {
		b.ReportMetric(gflop/cpu, "GFLOP/cpu-s")
	}
}

// BenchmarkDgemm measures Dgemm in each kernel tier at 1 and 2 goroutines:
// BenchmarkDgemm/<tier>/<shape>/threads=<t>, in GFLOP/s. A tier this CPU
// cannot run is skipped by name.
func BenchmarkDgemm(b *testing.B) {
	for _, tier := range gemmAllTiers {
		b.Run(tier, func(b *testing.B) {
			if !supported(tier) {
				b.Skipf("tier %s not run: this binary or CPU cannot run it", tier)
			}
			for _, s := range gemmBenchShapes {
				a, bm, c, lda, ldb := gemmBenchOperands(s)
				b.Run(s.String(), func(b *testing.B) {
					for _, th := range []int{1, 2} {
						b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
							defer setThreads(setThreads(th))
							withGemmTier(tier, func() {
								b.ReportAllocs()
								gemmBenchRun(b, s, func() {
									Dgemm(false, s.transB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
								})
							})
						})
					}
				})
			}
		})
	}
}

// BenchmarkDgemmGonum is the baseline: gonum's pure-Go Dgemm on the same
// shapes, with GOMAXPROCS limiting its goroutines.
func BenchmarkDgemmGonum(b *testing.B) {
	var impl gonum.Implementation
	for _, s := range gemmBenchShapes {
		a, bm, c, lda, ldb := gemmBenchOperands(s)
		tB := blas.NoTrans
		if s.transB {
			tB = blas.Trans
		}
		b.Run(s.String(), func(b *testing.B) {
			for _, th := range []int{1, 2} {
				b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(th))
					gemmBenchRun(b, s, func() {
						impl.Dgemm(blas.NoTrans, tB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
					})
				})
			}
		})
	}
}

// BenchmarkDgemmBlocking explores cache-blocking choices for each
// assembly tier on one goroutine:
// BenchmarkDgemmBlocking/<tier>/<shape>/mc=..,kc=..,nc=..
func BenchmarkDgemmBlocking(b *testing.B) {
	defer setThreads(setThreads(1))
	shapes := []gemmBenchShape{{1024, 1024, 1024, false}, {960, 4096, 784, true}, {256, 960, 784, true}, {1024, 960, 784, true}}
	for _, tier := range []string{TierAVX512, TierAVX2} {
		b.Run(tier, func(b *testing.B) {
			if !supported(tier) {
				b.Skipf("tier %s not run: this binary or CPU cannot run it", tier)
			}
			for _, s := range shapes {
				a, bm, c, lda, ldb := gemmBenchOperands(s)
				b.Run(s.String(), func(b *testing.B) {
					for _, mc := range []int{96, 144, 192, 256, 384} {
						for _, kc := range []int{128, 256, 384, 512, 800} {
							for _, nc := range []int{960, 4080} {
								b.Run(fmt.Sprintf("mc=%d,kc=%d,nc=%d", mc, kc, nc), func(b *testing.B) {
									withGemmTier(tier, func() {
										withGemmBlocking(mc, kc, nc, func() {
											gemmBenchRun(b, s, func() {
												Dgemm(false, s.transB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
											})
										})
									})
								})
							}
						}
					}
				})
			}
		})
	}
}

// BenchmarkAxpyRowsPacked measures AxpyRowsPacked in each tier at the
// dictionary update's shape: a block of 128 changed atoms of 794 values
// (784 pixels and 10 classes) packed, added to 960 rows with a few terms
// each: BenchmarkAxpyRowsPacked/<tier>/terms=<per row>.
func BenchmarkAxpyRowsPacked(b *testing.B) {
	const rows, k, n = 960, 128, 794
	for _, tier := range gemmAllTiers {
		b.Run(tier, func(b *testing.B) {
			if !supported(tier) {
				b.Skipf("tier %s not run: this binary or CPU cannot run it", tier)
			}
			for _, terms := range []int{2, 8} {
				b.Run(fmt.Sprintf("terms=%d", terms), func(b *testing.B) {
					rng := rand.New(rand.NewPCG(3, 4))
					bm := make([]float64, k*n)
					for i := range bm {
						bm[i] = rng.Float64()
					}
					ptr := make([]int, rows+1)
					var idx []int
					var c []float64
					for r := range rows {
						for range terms {
							idx = append(idx, rng.IntN(k))
							c = append(c, rng.Float64())
						}
						ptr[r+1] = len(idx)
					}
					y := make([]float64, rows*n)
					withGemmTier(tier, func() {
						var pb PackedB
						pb.Pack(false, k, n, bm, n)
						b.SetBytes(int64(8 * 2 * rows * n)) // y read and written
						cpu0 := processCPUSeconds()
						for b.Loop() {
							AxpyRowsPacked(rows, ptr, idx, c, &pb, y, n)
						}
						if cpu := processCPUSeconds() - cpu0; cpu0 >= 0 && cpu > 0 {
							b.ReportMetric(cpu*1e9/float64(b.N), "cpu-ns/op")
						}
					})
				})
			}
		})
	}
}
