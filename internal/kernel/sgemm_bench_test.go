package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// sgemmBenchOperands returns float32 operands for the shape s (as
// gemmBenchOperands does for Dgemm).
func sgemmBenchOperands(s gemmBenchShape) (a, b, c []float32, lda, ldb int) {
	rng := rand.New(rand.NewPCG(1, 2))
	fill := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = rng.Float32()
		}
		return x
	}
	lda, ldb = s.k, s.n
	if s.transB {
		ldb = s.k
	}
	return fill(s.m * s.k), fill(s.k * s.n), fill(s.m * s.n), lda, ldb
}

// BenchmarkSgemm measures Sgemm in each kernel tier at 1 and 2 goroutines
// on Dgemm's shapes (ODDL's products among them: 256×784 samples against
// 960 atoms, A0 = X·Dᵀ, is m=256,n=960,k=784,tB):
// BenchmarkSgemm/<tier>/<shape>/threads=<t>, in GFLOP/s. The avx512 tier
// runs each shape on the kernel it chooses for it (sgemmTierFor); a tier
// this CPU cannot run is skipped by name.
func BenchmarkSgemm(b *testing.B) {
	for _, tier := range gemmAllTiers {
		b.Run(tier, func(b *testing.B) {
			if !supported(tier) {
				b.Skipf("tier %s not run: this binary or CPU cannot run it", tier)
			}
			for _, s := range gemmBenchShapes {
				a, bm, c, lda, ldb := sgemmBenchOperands(s)
				b.Run(s.String(), func(b *testing.B) {
					for _, th := range []int{1, 2} {
						b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
							defer setThreads(setThreads(th))
							withGemmTier(tier, func() {
								b.ReportAllocs()
								gemmBenchRun(b, s, func() {
									Sgemm(false, s.transB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
								})
							})
						})
					}
				})
			}
		})
	}
}

// BenchmarkSgemmGonum is the baseline: gonum's pure-Go Sgemm on the same
// shapes, with GOMAXPROCS limiting its goroutines.
func BenchmarkSgemmGonum(b *testing.B) {
	var impl gonum.Implementation
	for _, s := range gemmBenchShapes {
		a, bm, c, lda, ldb := sgemmBenchOperands(s)
		tB := blas.NoTrans
		if s.transB {
			tB = blas.Trans
		}
		b.Run(s.String(), func(b *testing.B) {
			for _, th := range []int{1, 2} {
				b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(th))
					gemmBenchRun(b, s, func() {
						impl.Sgemm(blas.NoTrans, tB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
					})
				})
			}
		})
	}
}

var benchSink32 float32

// benchLevel1F32 runs f over every path and size as name/<path>/n=<n>.
func benchLevel1F32(b *testing.B, bytesPerElem int64, flopsPerElem float64, f func(x, y []float32)) {
	for _, p := range benchPaths() {
		for _, n := range benchLevel1Sizes {
			b.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(b *testing.B) {
				x, y := make([]float32, n), make([]float32, n)
				rng := rand.New(rand.NewPCG(uint64(n), 3))
				for i := range x {
					x[i], y[i] = rng.Float32(), rng.Float32()
				}
				withKernelPath(p, func() {
					for b.Loop() {
						f(x, y)
					}
				})
				reportFlops(b, bytesPerElem*int64(n), flopsPerElem*float64(n))
			})
		}
	}
}

func BenchmarkSdot(b *testing.B) {
	benchLevel1F32(b, 8, 2, func(x, y []float32) { benchSink32 += SdotUnitary(x, y) })
}

func BenchmarkSaxpy(b *testing.B) {
	benchLevel1F32(b, 12, 2, func(x, y []float32) { SaxpyUnitary(1e-9, x, y) })
}

func BenchmarkSscal(b *testing.B) {
	benchLevel1F32(b, 8, 1, func(x, _ []float32) { SscalUnitary(1, x) })
}

func BenchmarkSnrm2(b *testing.B) {
	benchLevel1F32(b, 4, 2, func(x, _ []float32) { benchSink32 += Snrm2Unitary(x) })
}

func BenchmarkIsamax(b *testing.B) {
	benchLevel1F32(b, 4, 1, func(x, _ []float32) { benchSink32 += float32(IsamaxUnitary(x)) })
}

// BenchmarkSaxpyRowsIamax is Batch-OMP's float32 correlation update and
// atom choice on 960 atoms: five rows of a 960×960 Gram matrix, then the
// largest element.
func BenchmarkSaxpyRowsIamax(b *testing.B) {
	const n, rows = 960, 5
	rng := rand.New(rand.NewPCG(4, 4))
	g := make([]float32, n*n)
	for i := range g {
		g[i] = rng.Float32()
	}
	y := make([]float32, n)
	c := []float32{1e-9, -1e-9, 2e-9, -2e-9, 1e-9}
	idx := []int{3, 100, 512, 700, 959}
	for _, p := range benchPaths() {
		b.Run(p.name, func(b *testing.B) {
			withKernelPath(p, func() {
				for b.Loop() {
					benchSink32 += float32(SaxpyRowsIamax(c, g, n, idx, y))
				}
			})
			reportFlops(b, 4*(rows+2)*n, 2*rows*n)
		})
	}
}

// sgemmSmallShapes are the small products of the patch front end:
// correlations of 48 patches of 6×6 pixels (k = 36) with 64 atoms, the
// same at other numbers of rows and depths.
var sgemmSmallShapes = []gemmBenchShape{
	{48, 64, 36, true},
	{6, 64, 36, true},
	{96, 64, 36, true},
	{288, 64, 36, true},
	{48, 64, 16, true},
	{48, 64, 64, true},
	{48, 128, 36, true},
	{48, 64, 100, true},
}

// BenchmarkSgemmPackedSmall measures SgemmPacked on one goroutine at the
// patch front end's shapes: A row-major m×k, B (n atoms of k values, the
// rows of a row-major n×k matrix) packed once, beta = 0, in GFLOP/s.
func BenchmarkSgemmPackedSmall(b *testing.B) {
	for _, tier := range gemmAllTiers {
		b.Run(tier, func(b *testing.B) {
			if !supported(tier) {
				b.Skipf("tier %s not run: this binary or CPU cannot run it", tier)
			}
			for _, s := range sgemmSmallShapes {
				a, bm, c, lda, ldb := sgemmBenchOperands(s)
				b.Run(s.String(), func(b *testing.B) {
					defer setThreads(setThreads(1))
					withGemmTier(tier, func() {
						var pb PackedB32
						pb.Pack(s.transB, s.k, s.n, bm, ldb)
						b.ReportAllocs()
						gemmBenchRun(b, s, func() {
							SgemmPacked(false, s.m, 1, a, lda, &pb, 0, c, s.n)
						})
					})
				})
			}
		})
	}
}

// BenchmarkSgemmKernels measures SgemmPacked on one goroutine, B packed
// once, with each kernel of the avx512 tier forced in turn on the widths
// where the rule of sgemmWidePad chooses between them:
// BenchmarkSgemmKernels/<shape>/<kernel>, in GFLOP/s. Run it several
// times (-count) and compare the kernels run by run: the three of one
// shape run one after the other, under the same load.
//
//	go test -run '^$' -bench SgemmKernels -count 5 ./internal/kernel/
func BenchmarkSgemmKernels(b *testing.B) {
	if !supported(TierAVX512) {
		b.Skip("tier avx512 not run: this binary or CPU cannot run it")
	}
	kernels := []struct {
		name string
		kern int
	}{{"avx2-6x16", sgemmKernelAVX2ID}, {"avx512-6x32", sgemmKernelAVX512NarrowID}, {"avx512-6x48", sgemmKernelAVX512ID}}
	var shapes []gemmBenchShape
	for _, n := range []int{24, 32, 48, 64, 80, 96} {
		shapes = append(shapes, gemmBenchShape{48, n, 36, true})
	}
	for _, n := range []int{24, 32, 48, 64, 80, 96, 112, 128, 160, 480, 960} {
		shapes = append(shapes, gemmBenchShape{1024, n, 784, true})
	}
	for _, s := range shapes {
		a, bm, c, lda, ldb := sgemmBenchOperands(s)
		b.Run(s.String(), func(b *testing.B) {
			for _, kc := range kernels {
				b.Run(kc.name, func(b *testing.B) {
					defer setThreads(setThreads(1))
					withGemmTier(TierAVX512, func() {
						defer withSgemmForced(kc.kern)()
						var pb PackedB32
						pb.Pack(s.transB, s.k, s.n, bm, ldb)
						b.ReportAllocs()
						gemmBenchRun(b, s, func() {
							SgemmPacked(false, s.m, 1, a, lda, &pb, 0, c, s.n)
						})
					})
				})
			}
		})
	}
}

// BenchmarkSgemmPackA measures the packing of one 288×256 block of a
// row-major A (row stride 784, as X in A0 = X·Dᵀ) by the Go form and by
// the assembly, in GB/s of A read.
func BenchmarkSgemmPackA(b *testing.B) {
	const mb, kb, lda = 288, 256, 784
	a, _, _, _, _ := sgemmBenchOperands(gemmBenchShape{m: mb, n: 1, k: lda})
	dst := make([]float32, mb*kb)
	forms := []struct {
		name string
		tier sgemmTier
	}{{"go", sgemmTiers[sgemmKernelGoID]}, {"avx2", sgemmTiers[sgemmKernelAVX2ID]}}
	for _, f := range forms {
		b.Run(f.name, func(b *testing.B) {
			if f.tier.kernel != sgemmKernelGoID && !canAsm {
				b.Skip("no assembly in this binary or CPU")
			}
			b.SetBytes(4 * mb * kb)
			for b.Loop() {
				sgemmPackA(&f.tier, false, a, lda, 0, mb, 0, kb, dst)
			}
		})
	}
}

// BenchmarkSgemmTiles measures the float32 micro-kernel alone, as the
// driver calls it: one column of 48 tiles (a packed 288×256 block of A)
// against each packed column panel of B of a 960-wide product, C of row
// stride 960, so that A stays in L2 and each panel of B in L1 —
// BenchmarkSgemmTiles/<kernel>, in GFLOP/s. Beside BenchmarkSgemm it tells
// the kernel's rate from the driver's (packing, edges, threads).
//
//	go test -run '^$' -bench SgemmTiles -benchtime 2000x ./internal/kernel/
func BenchmarkSgemmTiles(b *testing.B) {
	const k, nt, n = 256, 48, 960
	for _, kc := range []struct {
		name string
		tier string
		kern int
	}{{"avx512-6x48", TierAVX512, sgemmKernelAVX512ID}, {"avx512-6x32", TierAVX512, sgemmKernelAVX512NarrowID}, {"avx2-6x16", TierAVX2, sgemmKernelAVX2ID}, {"go-6x16", TierGo, sgemmKernelGoID}} {
		b.Run(kc.name, func(b *testing.B) {
			if !supported(kc.tier) {
				b.Skipf("tier %s not run: this binary or CPU cannot run it", kc.tier)
			}
			nr := sgemmTiers[kc.kern].nr
			rng := rand.New(rand.NewPCG(1, 2))
			a := make([]float32, 6*k*nt)
			bp := make([]float32, k*n)
			for i := range a {
				a[i] = rng.Float32()
			}
			for i := range bp {
				bp[i] = rng.Float32()
			}
			c := make([]float32, 6*nt*n)
			b.ReportAllocs()
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				for j := 0; j < n; j += nr {
					sgemmTiles(kc.kern, k, a, bp[j*k:], nt, c[j:], n, 1, 0)
				}
				best = min(best, time.Since(t0))
			}
			flops := 2 * float64(6*nt) * n * k
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			// The fastest pass, as oddl bench reports its products: on a
			// shared machine the mean also counts the time others took.
			b.ReportMetric(flops/best.Seconds()/1e9, "best-GFLOP/s")
		})
	}
}
