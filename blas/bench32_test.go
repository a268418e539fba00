package blas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	gblas "gonum.org/v1/gonum/blas"
)

// The single-precision benchmarks: every backend compiled in, one and two
// threads, GFLOP/s (2 flops per multiply-add). With -tags openblas they
// set the kernel's Sgemm beside OpenBLAS's sgemm in one run:
//
//	go test -tags openblas -run '^$' -bench 'Sgemm|Sdot|Saxpy' -benchtime 3x ./blas/

func benchRand32(n int) []float32 {
	rnd := rand.New(rand.NewPCG(uint64(n), 32))
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(2*rnd.Float64() - 1)
	}
	return s
}

// sgemmBenchShapes are ODDL's products — A0 = X·Dᵀ for a batch of 256 or
// 1024 samples of 784 pixels against 960 atoms (Dᵀ read transposed), the
// Gram matrix D·Dᵀ; the same on the default patch front end's 2048
// features (4×4 cells) against 960 atoms, and on its former 1152 features
// (3×3 cells) against 480 — and two square ones. BenchmarkSgemmPaired
// takes the first seven.
var sgemmBenchShapes = []struct {
	m, n, k int
	tB      gblas.Transpose
}{
	{256, 960, 784, gblas.Trans},
	{1024, 960, 784, gblas.Trans},
	{960, 960, 784, gblas.Trans},
	{1024, 960, 2048, gblas.Trans},
	{960, 960, 2048, gblas.Trans},
	{1024, 480, 1152, gblas.Trans},
	{480, 480, 1152, gblas.Trans},
	{960, 4096, 784, gblas.NoTrans},
	{256, 256, 256, gblas.NoTrans},
	{1024, 1024, 1024, gblas.NoTrans},
}

func BenchmarkSgemm(b *testing.B) {
	forBackends(b, func(b *testing.B, name string, impl gblas.Float64) {
		for _, s := range sgemmBenchShapes {
			label := fmt.Sprintf("m=%d,n=%d,k=%d", s.m, s.n, s.k)
			ldb := s.n
			if s.tB == gblas.Trans {
				label += ",NT"
				ldb = s.k
			}
			b.Run(label, func(b *testing.B) {
				a := benchRand32(s.m * s.k)
				bm := benchRand32(s.k * s.n)
				c := make([]float32, s.m*s.n)
				for _, th := range benchThreads {
					withThreads(b, impl, th, func(b *testing.B, impl gblas.Float64) {
						f := impl.(gblas.Float32)
						b.SetBytes(int64(4 * (len(a) + len(bm) + 2*len(c))))
						for b.Loop() {
							f.Sgemm(gblas.NoTrans, s.tB, s.m, s.n, s.k, 1, a, s.k, bm, ldb, 0, c, s.n)
						}
						reportGFLOPS(b, 2*float64(s.m)*float64(s.n)*float64(s.k))
					})
				}
			})
		}
	})
}

func BenchmarkSdot(b *testing.B) {
	const n = 784
	x, y := benchRand32(n), benchRand32(n + 1)[:n]
	var sink float32
	forBackends(b, func(b *testing.B, name string, impl gblas.Float64) {
		f := impl.(gblas.Float32)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				sink += f.Sdot(n, x, 1, y, 1)
			}
			reportGFLOPS(b, 2*n)
		})
	})
	_ = sink
}

func BenchmarkSaxpy(b *testing.B) {
	const n = 784
	x, y := benchRand32(n), benchRand32(n + 1)[:n]
	forBackends(b, func(b *testing.B, name string, impl gblas.Float64) {
		f := impl.(gblas.Float32)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(12 * n)
			for b.Loop() {
				f.Saxpy(n, 1e-9, x, 1, y, 1)
			}
			reportGFLOPS(b, 2*n)
		})
	})
}

// BenchmarkSgemmPaired sets the native Sgemm against OpenBLAS's sgemm by
// turns inside one process — one product by native, then the same product
// by OpenBLAS, for each of b.N pairs — on one thread each and on two, and
// reports the median of the pairs' speed ratios (native/openblas, above 1
// when native is faster) beside each side's best GFLOP/s. Pairing keeps
// the ratio meaningful on a machine whose speed drifts, which a comparison
// of two separate benchmark lines is not. On two threads a turn is a block
// of calls: after a pause (pairPause) on an idle machine, one untimed call
// wakes the side's threads, and the median of the next pairBlock calls is
// the turn's time. OpenBLAS's threads keep spinning for a while after a
// call (about 2²⁸ cycles by default) and would slow native calls that
// followed at once; and the first call after an idle spell, on either side,
// pays for waking the other thread, which a training, calling back to
// back, does not. The pauses and the first calls are not timed, and both
// sides get them. Without -tags openblas it is skipped.
//
//	OPENBLAS_CORETYPE=Haswell go test -tags openblas -run '^$' -bench SgemmPaired -benchtime 21x ./blas/
func BenchmarkSgemmPaired(b *testing.B) {
	nat, err := Lookup(NativeName)
	if err != nil {
		b.Fatal(err)
	}
	ob, err := Lookup(OpenBLASName)
	if err != nil {
		b.Skipf("no OpenBLAS in this build: %v", err)
	}
	o32 := ob.(gblas.Float32)
	for _, threads := range []int{1, 2} {
		if err := SetOpenBLASThreads(threads); err != nil {
			b.Fatal(err)
		}
		n32 := OnThreads(nat, threads).(gblas.Float32)
		for _, s := range sgemmBenchShapes[:7] {
			label := fmt.Sprintf("threads=%d/m=%d,n=%d,k=%d,NT", threads, s.m, s.n, s.k)
			b.Run(label, func(b *testing.B) {
				a := benchRand32(s.m * s.k)
				bm := benchRand32(s.k * s.n)
				c := make([]float32, s.m*s.n)
				call := func(f gblas.Float32) time.Duration {
					t0 := time.Now()
					f.Sgemm(gblas.NoTrans, s.tB, s.m, s.n, s.k, 1, a, s.k, bm, s.k, 0, c, s.n)
					return time.Since(t0)
				}
				run := func(f gblas.Float32) time.Duration {
					if threads == 1 {
						return call(f)
					}
					time.Sleep(pairPause)
					call(f)
					var ts [pairBlock]time.Duration
					for i := range ts {
						ts[i] = call(f)
					}
					slices.Sort(ts[:])
					return ts[pairBlock/2]
				}
				run(n32)
				run(o32)
				var ratios []float64
				bestN, bestO := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
				for b.Loop() {
					dn, do := run(n32), run(o32)
					ratios = append(ratios, float64(do)/float64(dn))
					bestN, bestO = min(bestN, dn), min(bestO, do)
				}
				slices.Sort(ratios)
				flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
				b.ReportMetric(ratios[len(ratios)/2], "native/openblas")
				b.ReportMetric(ratios[0], "lowest-ratio")
				b.ReportMetric(ratios[len(ratios)-1], "highest-ratio")
				b.ReportMetric(flops/bestN.Seconds()/1e9, "native-GFLOP/s")
				b.ReportMetric(flops/bestO.Seconds()/1e9, "openblas-GFLOP/s")
			})
		}
	}
}

// pairPause is the idle time before each call of BenchmarkSgemmPaired on
// two threads: longer than OpenBLAS's threads spin after a call by default
// (2²⁸ cycles, about 0.1 s at 2.5 GHz).
const pairPause = 250 * time.Millisecond

// pairBlock is the number of timed calls of a turn on two threads.
const pairBlock = 5
