package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The level-1/2 benchmarks: each routine in every tier this machine runs
// ("avx512", "avx2", "go": the exported function as that tier dispatches
// it), the tier in the sub-benchmark's name. The per-backend comparisons
// (gonum, native, OpenBLAS) live in package blas.

var (
	benchLevel1Sizes = []int{64, 784, 4096}
	benchGemvShapes  = [][2]int{{64, 64}, {784, 960}, {960, 784}}
	benchSink        float64
	benchSinkInt     int
)

// benchPaths returns the tiers this machine runs, widest first, each with
// its default thresholds.
func benchPaths() []kernelPath {
	var ps []kernelPath
	for _, p := range kernelPaths() {
		if !p.all && p.skip == "" {
			ps = append([]kernelPath{p}, ps...)
		}
	}
	return ps
}

func benchVec(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, seed))
	v := make([]float64, n)
	for i := range v {
		v[i] = uniform(rng)
	}
	return v
}

// reportFlops sets the bytes touched per call and reports GFLOP/s for
// flops floating-point operations per call.
func reportFlops(b *testing.B, bytes int64, flops float64) {
	b.SetBytes(bytes)
	b.ReportAllocs()
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// benchLevel1 runs f over every path and size as name/<path>/n=<n>.
func benchLevel1(b *testing.B, bytesPerElem int64, flopsPerElem float64, f func(b *testing.B, x, y []float64)) {
	for _, p := range benchPaths() {
		for _, n := range benchLevel1Sizes {
			b.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(b *testing.B) {
				x, y := benchVec(n, 1), benchVec(n, 2)
				withKernelPath(p, func() {
					for b.Loop() {
						f(b, x, y)
					}
				})
				reportFlops(b, bytesPerElem*int64(n), flopsPerElem*float64(n))
			})
		}
	}
}

func BenchmarkDdot(b *testing.B) {
	benchLevel1(b, 16, 2, func(b *testing.B, x, y []float64) { benchSink += DotUnitary(x, y) })
}

func BenchmarkDaxpy(b *testing.B) {
	// alpha and -alpha in turn keep y bounded over billions of calls.
	alpha := 1e-3
	benchLevel1(b, 24, 2, func(b *testing.B, x, y []float64) {
		AxpyUnitary(alpha, x, y)
		alpha = -alpha
	})
}

func BenchmarkDscal(b *testing.B) {
	alpha := 1.0000001
	benchLevel1(b, 16, 1, func(b *testing.B, x, _ []float64) {
		ScalUnitary(alpha, x)
		alpha = 1 / alpha
	})
}

func BenchmarkDnrm2(b *testing.B) {
	benchLevel1(b, 8, 2, func(b *testing.B, x, _ []float64) { benchSink += Nrm2Unitary(x) })
}

func BenchmarkIdamax(b *testing.B) {
	benchLevel1(b, 8, 1, func(b *testing.B, x, _ []float64) { benchSinkInt += IamaxUnitary(x) })
}

func BenchmarkDdotInc(b *testing.B) {
	for _, p := range benchPaths() {
		for _, n := range benchLevel1Sizes {
			b.Run(fmt.Sprintf("%s/n=%d,inc=3", p.name, n), func(b *testing.B) {
				x, y := benchVec(3*n, 1), benchVec(3*n, 2)
				withKernelPath(p, func() {
					for b.Loop() {
						benchSink += DotInc(x, y, n, 3, 3, 0, 0)
					}
				})
				reportFlops(b, 16*int64(n), 2*float64(n))
			})
		}
	}
}

// BenchmarkGemv is y = A*x (N) and y = Aᵀ*x (T), A m×n, beta = 0. Bytes
// are those of A, which dominates.
func BenchmarkGemv(b *testing.B) {
	for _, kind := range []string{"N", "T"} {
		f := GemvN
		if kind == "T" {
			f = GemvT
		}
		for _, p := range benchPaths() {
			for _, s := range benchGemvShapes {
				m, n := s[0], s[1]
				b.Run(fmt.Sprintf("%s/%s/m=%d,n=%d", kind, p.name, m, n), func(b *testing.B) {
					a, x, y := benchVec(m*n, 1), benchVec(max(m, n), 2), benchVec(max(m, n), 3)
					withKernelPath(p, func() {
						for b.Loop() {
							f(m, n, 1, a, n, x, 1, 0, y, 1)
						}
					})
					reportFlops(b, 8*int64(m*n), 2*float64(m*n))
				})
			}
		}
	}
}

// BenchmarkGer is A += alpha*x*yᵀ; A is read and written.
func BenchmarkGer(b *testing.B) {
	for _, p := range benchPaths() {
		for _, s := range benchGemvShapes {
			m, n := s[0], s[1]
			b.Run(fmt.Sprintf("%s/m=%d,n=%d", p.name, m, n), func(b *testing.B) {
				a, x, y := benchVec(m*n, 1), benchVec(m, 2), benchVec(n, 3)
				alpha := 1e-3
				withKernelPath(p, func() {
					for b.Loop() {
						Ger(m, n, alpha, x, 1, y, 1, a, n)
						alpha = -alpha
					}
				})
				reportFlops(b, 16*int64(m*n), 2*float64(m*n))
			})
		}
	}
}

// BenchmarkCrossover times tiny lengths with every length sent to the
// assembly ("asm-all") and on the Go loop, to choose the *AsmMin
// thresholds in level1.go.
func BenchmarkCrossover(b *testing.B) {
	if !canAsm {
		b.Skip("assembly not available")
	}
	var paths []kernelPath
	for _, p := range runnablePaths() {
		if p.all || p.name == TierGo {
			paths = append(paths, p)
		}
	}
	routines := []struct {
		name string
		f    func(x, y []float64)
	}{
		{"dot", func(x, y []float64) { benchSink += DotUnitary(x, y) }},
		{"axpy", func(x, y []float64) { AxpyUnitary(1e-3, x, y) }},
		{"scal", func(x, _ []float64) { ScalUnitary(-1, x) }},
		{"sumsq", func(x, _ []float64) { benchSink += SumSqUnitary(x) }},
		{"iamax", func(x, _ []float64) { benchSinkInt += IamaxUnitary(x) }},
		{"dotinc", func(x, y []float64) { benchSink += DotInc(x, y, len(x)/2, 2, 2, 0, 0) }},
		{"gemvN", func(x, y []float64) { GemvN(2, len(x)/2, 1, x, len(x)/2, y, 1, 0, y[len(x)/2:], 1) }},
		{"gemvT", func(x, y []float64) { GemvT(2, len(x)/2, 1, x, len(x)/2, y, 1, 0, y[2:], 1) }},
	}
	for _, r := range routines {
		for _, n := range []int{2, 4, 6, 8, 12, 16, 24, 32} {
			for _, p := range paths {
				b.Run(fmt.Sprintf("%s/n=%d/%s", r.name, n, p.name), func(b *testing.B) {
					x, y := benchVec(n, 1), benchVec(2*n, 2)
					withKernelPath(p, func() {
						for b.Loop() {
							r.f(x, y)
						}
					})
				})
			}
		}
	}
}

// BenchmarkAxpyRowsIamax is Batch-OMP's fused correlation update and atom
// choice: y += Σ c[m]·g[idx[m]], then the largest |y[i]|, on K = 960
// correlations (the learner's coder) and K = 64 (the patch front end's,
// where a call's fixed cost shows) with the rows of G in cache.
func BenchmarkAxpyRowsIamax(b *testing.B) {
	for _, k := range []int{960, 64} {
		benchAxpyRowsIamax(b, k)
	}
}

func benchAxpyRowsIamax(b *testing.B, k int) {
	g := benchVec(16*k, 1)
	for _, p := range benchPaths() {
		for _, rows := range []int{1, 2, 3, 4, 5} {
			b.Run(fmt.Sprintf("%s/rows=%d/n=%d", p.name, rows, k), func(b *testing.B) {
				y := benchVec(k, 2)
				idx := make([]int, rows)
				c := make([]float64, rows)
				for m := range idx {
					idx[m], c[m] = 3*m+1, 1e-3
				}
				withKernelPath(p, func() {
					for b.Loop() {
						benchSinkInt += AxpyRowsIamax(c, g, k, idx, y)
						for m := range c {
							c[m] = -c[m]
						}
					}
				})
				reportFlops(b, int64(8*(2*k+rows*k)), 2*float64(rows*k))
			})
		}
	}
}
