package blas

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
)

// The benchmarks run every backend compiled in at one and two threads and
// report GFLOP/s (2 flops per multiply-add). Compare backends within one run:
//
//	go test -run '^$' -bench . -benchtime 2x ./blas/
//	go test -tags openblas -run '^$' -bench . -benchtime 2x ./blas/

var benchThreads = []int{1, 2}

// forBackends runs bench as a sub-benchmark per backend compiled in.
func forBackends(b *testing.B, bench func(b *testing.B, name string, impl gblas.Float64)) {
	for _, name := range Available() {
		impl, err := Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) { bench(b, name, impl) })
	}
}

// withThreads runs f on impl bound to n threads. gonum has no thread
// setting of its own and splits DGEMM over GOMAXPROCS goroutines, so for it
// GOMAXPROCS is set to n instead; OpenBLAS's count belongs to the process
// and is set, then restored, around f (nothing else runs meanwhile).
func withThreads(b *testing.B, impl gblas.Float64, n int, f func(b *testing.B, impl gblas.Float64)) {
	b.Run(fmt.Sprintf("threads=%d", n), func(b *testing.B) {
		switch {
		case Name(impl) == GonumName:
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
		case Name(impl) == OpenBLASName:
			prev := Threads(impl)
			if err := SetOpenBLASThreads(n); err != nil {
				b.Fatal(err)
			}
			defer SetOpenBLASThreads(prev)
		}
		f(b, OnThreads(impl, n))
	})
}

func reportGFLOPS(b *testing.B, flopsPerOp float64) {
	b.ReportMetric(flopsPerOp*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func benchRand(n int) []float64 {
	rnd := rand.New(rand.NewPCG(uint64(n), 7))
	return randSlice(rnd, n)
}

func BenchmarkDgemm(b *testing.B) {
	shapes := []struct {
		m, n, k int
		tB      gblas.Transpose
	}{
		{64, 64, 64, gblas.NoTrans},
		{256, 256, 256, gblas.NoTrans},
		{1024, 1024, 1024, gblas.NoTrans},
		{960, 4096, 784, gblas.NoTrans},
		// The Gram matrix D·Dᵀ of a 960-atom dictionary of 784-pixel atoms.
		{960, 960, 784, gblas.Trans},
	}
	forBackends(b, func(b *testing.B, name string, impl gblas.Float64) {
		for _, s := range shapes {
			label := fmt.Sprintf("m=%d,n=%d,k=%d", s.m, s.n, s.k)
			ldb := s.n
			if s.tB == gblas.Trans {
				label += ",NT"
				ldb = s.k
			}
			b.Run(label, func(b *testing.B) {
				a := benchRand(s.m * s.k)
				bm := benchRand(s.k * s.n)
				c := make([]float64, s.m*s.n)
				for _, th := range benchThreads {
					withThreads(b, impl, th, func(b *testing.B, impl gblas.Float64) {
						b.SetBytes(int64(8 * (len(a) + len(bm) + 2*len(c))))
						for b.Loop() {
							impl.Dgemm(gblas.NoTrans, s.tB, s.m, s.n, s.k, 1, a, s.k, bm, ldb, 0, c, s.n)
						}
						reportGFLOPS(b, 2*float64(s.m)*float64(s.n)*float64(s.k))
					})
				}
			})
		}
	})
}

func BenchmarkDgemv(b *testing.B) {
	const m, n = 784, 960
	a := benchRand(m * n)
	x := benchRand(max(m, n))
	y := make([]float64, max(m, n))
	forBackends(b, func(b *testing.B, name string, impl gblas.Float64) {
		for _, tA := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
			b.Run(fmt.Sprintf("%c/m=%d,n=%d", tA, m, n), func(b *testing.B) {
				for _, th := range benchThreads {
					withThreads(b, impl, th, func(b *testing.B, impl gblas.Float64) {
						b.SetBytes(8 * (m*n + m + n))
						for b.Loop() {
							impl.Dgemv(tA, m, n, 1, a, n, x, 1, 0, y, 1)
						}
						reportGFLOPS(b, 2*m*n)
					})
				}
			})
		}
	})
}

func BenchmarkDdot(b *testing.B) {
	const n = 784
	x, y := benchRand(n), benchRand(n + 1)[:n]
	var sink float64
	forBackends(b, func(b *testing.B, name string, impl gblas.Float64) {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(16 * n)
			for b.Loop() {
				sink += impl.Ddot(n, x, 1, y, 1)
			}
			reportGFLOPS(b, 2*n)
		})
	})
	_ = sink
}

func BenchmarkDaxpy(b *testing.B) {
	const n = 784
	x, y := benchRand(n), benchRand(n + 1)[:n]
	forBackends(b, func(b *testing.B, name string, impl gblas.Float64) {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(24 * n)
			for b.Loop() {
				impl.Daxpy(n, 1e-9, x, 1, y, 1)
			}
			reportGFLOPS(b, 2*n)
		})
	})
}
