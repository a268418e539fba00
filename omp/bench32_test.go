package omp

import (
	"fmt"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
)

// The float32 twins of BenchmarkEncode, BenchmarkA0GEMM and
// BenchmarkRecurrence: the same signals and dictionaries (benchProblem),
// rounded to float32, under the same names, so that a run of
//
//	go test -run '^$' -bench 'Encode(32)?$' ./omp/
//
// sets each float32 figure beside its float64 one.

// benchProblem32 returns benchProblem's dictionary and signals rounded to
// float32.
func benchProblem32(n, k int) (D, X blas32.General) {
	D64, X64 := benchProblem(n, k)
	D, _ = to32(D64)
	X, _ = to32(X64)
	return D, X
}

// BenchmarkEncode32 is BenchmarkEncode for Coder32: EncodeTo of 4096 (512
// with -short) unit-norm random signals into reused Codes32, on each
// backend's float32 routines.
func BenchmarkEncode32(b *testing.B) {
	forBench(b, func(b *testing.B, impl gblas.Float64, D64, X64 *mat.Dense, l, threads int) {
		k, n := D64.Dims()
		D, X := benchProblem32(n, k)
		c, err := New32(D, WithSparsity(l), WithBackend(impl), WithThreads(threads))
		if err != nil {
			b.Fatal(err)
		}
		var dst Codes32
		if err := c.EncodeTo(&dst, X); err != nil { // warm up the buffers
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := cpuSeconds()
		for b.Loop() {
			if err := c.EncodeTo(&dst, X); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu0)
		b.ReportMetric(float64(X.Rows*b.N)/b.Elapsed().Seconds(), "signals/s")
	})
}

// BenchmarkA0GEMM32 is BenchmarkA0GEMM in float32: the correlation SGEMMs
// alone, for the blocks of BenchmarkEncode32.
func BenchmarkA0GEMM32(b *testing.B) {
	forBench(b, func(b *testing.B, impl64 gblas.Float64, D64, X64 *mat.Dense, l, threads int) {
		k, n := D64.Dims()
		D, X := benchProblem32(n, k)
		impl := impl64.(gblas.Float32)
		blk := defaultBlock(k)
		a0 := make([]float32, blk*k)
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := cpuSeconds()
		for b.Loop() {
			for b0 := 0; b0 < X.Rows; b0 += blk {
				m := min(blk, X.Rows-b0)
				impl.Sgemm(gblas.NoTrans, gblas.Trans, m, k, n, 1, X.Data[b0*X.Stride:], X.Stride, D.Data, D.Stride, 0, a0, k)
			}
		}
		reportCPU(b, cpu0)
		sec := b.Elapsed().Seconds()
		b.ReportMetric(float64(X.Rows*b.N)/sec, "signals/s")
		b.ReportMetric(2*float64(X.Rows)*float64(k)*float64(n)*float64(b.N)/sec/1e9, "GFLOP/s")
	})
}

// BenchmarkRecurrence32 is BenchmarkRecurrence for the float32 worker: the
// recurrences alone, one goroutine, on correlations computed beforehand.
func BenchmarkRecurrence32(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(fmt.Sprintf("n=%d,K=%d,L=%d", s.n, s.k, s.l), func(b *testing.B) {
			D, X := benchProblem32(s.n, s.k)
			c, err := New32(D, WithSparsity(s.l))
			if err != nil {
				b.Fatal(err)
			}
			a0 := blas32.General{Rows: X.Rows, Cols: s.k, Stride: s.k, Data: make([]float32, X.Rows*s.k)}
			if err := c.CorrelationsTo(a0, X); err != nil {
				b.Fatal(err)
			}
			xx := make([]float64, X.Rows)
			for i := range xx {
				xx[i] = kernel.SsumSqUnitary(X.Data[i*X.Stride : i*X.Stride+s.n])
			}
			w := newWorker[float32](s.n, s.k, s.l, false)
			a := make([]float32, s.k)
			idx, val := make([]int, s.l), make([]float32, s.l)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuSeconds()
			for b.Loop() {
				for i := range X.Rows {
					copy(a, a0.Data[i*s.k:(i+1)*s.k])
					w.batchOMP(c.gram, &c.diag, s.k, a, kernel.IsamaxUnitary(a), xx[i], 0, false, idx, val)
				}
			}
			reportCPU(b, cpu0)
			b.ReportMetric(float64(X.Rows*b.N)/b.Elapsed().Seconds(), "signals/s")
		})
	}
}
