package omp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
)

// benchSignals returns the number of signals coded per benchmark
// operation: 4096, or 512 under -short (for a quick run in CI).
func benchSignals() int {
	if testing.Short() {
		return 512
	}
	return 4096
}

// benchShapes are the problem sizes of the benchmarks: MNIST-size digits
// with the paper's K = 960 and a larger dictionary, USPS-size digits, and
// faces (32×32) with L = 15, and the patches of the patch front end (6×6
// pixels, 64 atoms, L = 2).
var benchShapes = []struct{ n, k, l int }{
	{784, 960, 5},
	{784, 2560, 5},
	{256, 960, 5},
	{1024, 228, 15},
	{36, 64, 2},
}

// benchData caches the random dictionary and signals of a shape.
var benchData = map[[2]int][2]*mat.Dense{}

func benchProblem(n, k int) (D, X *mat.Dense) {
	key := [2]int{n, k}
	if p, ok := benchData[key]; ok {
		return p[0], p[1]
	}
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	D, X = randDict(rng, k, n), randSamples(rng, benchSignals(), n, true)
	benchData[key] = [2]*mat.Dense{D, X}
	return D, X
}

// withThreads runs f with the process limited to t cores: GOMAXPROCS = t
// and impl bound to t threads (OpenBLAS, whose count belongs to the
// process, set to t), all restored afterwards.
func withThreads(b *testing.B, impl gblas.Float64, t int, f func(impl gblas.Float64)) {
	prevProcs := runtime.GOMAXPROCS(t)
	defer runtime.GOMAXPROCS(prevProcs)
	if ob, ok := blas.OpenBLASCore(); ok {
		if err := blas.SetOpenBLASThreads(t); err != nil {
			b.Fatal(err)
		}
		defer blas.SetOpenBLASThreads(ob.Threads)
	}
	f(blas.OnThreads(impl, t))
}

// reportCPU reports the process CPU time per operation since cpu0, in
// milliseconds (the sum over all threads).
func reportCPU(b *testing.B, cpu0 float64) {
	if cpu0 > 0 {
		b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
	}
}

// forBench runs body for every backend, shape and thread count 1 and 2
// under the name <backend>/n=…,K=…,L=…/threads=….
func forBench(b *testing.B, body func(b *testing.B, impl gblas.Float64, D, X *mat.Dense, l, threads int)) {
	for _, name := range blas.Available() {
		impl, err := blas.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range benchShapes {
			for _, t := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/n=%d,K=%d,L=%d/threads=%d", name, s.n, s.k, s.l, t), func(b *testing.B) {
					D, X := benchProblem(s.n, s.k)
					withThreads(b, impl, t, func(impl gblas.Float64) { body(b, impl, D, X, s.l, t) })
				})
			}
		}
	}
}

// BenchmarkEncode times EncodeTo of 4096 (512 with -short) unit-norm random
// signals into a reused Codes: the correlation GEMMs and the Batch-OMP
// recurrences. Compare with BenchmarkA0GEMM of the same name for the share
// of the GEMM.
func BenchmarkEncode(b *testing.B) { forBench(b, benchEncode) }

// benchEncode is the body of BenchmarkEncode: a coder of sparsity l on
// impl with threads goroutines, EncodeTo of X timed.
func benchEncode(b *testing.B, impl gblas.Float64, D, X *mat.Dense, l, threads int) {
	benchEncodeWith(b, impl, D, X, l, threads)
}

// benchEncodeWith is benchEncode with more options.
func benchEncodeWith(b *testing.B, impl gblas.Float64, D, X *mat.Dense, l, threads int, opts ...Option) {
	nsig, _ := X.Dims()
	c, err := New(D, append([]Option{WithSparsity(l), WithBackend(impl), WithThreads(threads)}, opts...)...)
	if err != nil {
		b.Fatal(err)
	}
	var dst Codes
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
	b.ReportMetric(float64(nsig*b.N)/b.Elapsed().Seconds(), "signals/s")
}

// BenchmarkEncodeChunks is BenchmarkEncode on the native backend with each
// part's GEMM and pursuits run in chunks of 48 samples (chunks=48) or with
// one GEMM a part (chunks=off), whatever the dictionary's size: the
// measurement behind chunkMaxDict. Run with -count to alternate the two.
func BenchmarkEncodeChunks(b *testing.B) {
	var impl blas.Native
	for _, s := range benchShapes {
		for _, t := range []int{1, 2} {
			for _, on := range []bool{true, false} {
				mode := "off"
				if on {
					mode = fmt.Sprint(chunkRows)
				}
				b.Run(fmt.Sprintf("n=%d,K=%d,L=%d/threads=%d/chunks=%s", s.n, s.k, s.l, t, mode), func(b *testing.B) {
					D, X := benchProblem(s.n, s.k)
					maxDict := 0
					if on {
						maxDict = math.MaxInt
					}
					withThreads(b, impl, t, func(impl gblas.Float64) {
						benchEncodeWith(b, impl, D, X, s.l, t, withChunks(chunkRows, maxDict))
					})
				})
			}
		}
	}
}

// BenchmarkA0GEMM times the correlation GEMMs alone, A0 = X_blk·Dᵀ for the
// same blocks of the same 4096 signals as BenchmarkEncode, so that the
// ratio of the two is the cost of everything but the GEMM.
func BenchmarkA0GEMM(b *testing.B) {
	forBench(b, func(b *testing.B, impl gblas.Float64, D, X *mat.Dense, l, threads int) {
		nsig, _ := X.Dims()
		k, n := D.Dims()
		blk := defaultBlock(k)
		a0 := make([]float64, blk*k)
		x := X.RawMatrix()
		d := D.RawMatrix()
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := cpuSeconds()
		for b.Loop() {
			for b0 := 0; b0 < nsig; b0 += blk {
				m := min(blk, nsig-b0)
				impl.Dgemm(gblas.NoTrans, gblas.Trans, m, k, n, 1, x.Data[b0*x.Stride:], x.Stride, d.Data, d.Stride, 0, a0, k)
			}
		}
		reportCPU(b, cpu0)
		sec := b.Elapsed().Seconds()
		b.ReportMetric(float64(nsig*b.N)/sec, "signals/s")
		b.ReportMetric(2*float64(nsig)*float64(k)*float64(n)*float64(b.N)/sec/1e9, "GFLOP/s")
	})
}

// BenchmarkSetDictionary times SetDictionary (checks, copy and G = D Dᵀ),
// which the online learner calls once a mini-batch.
func BenchmarkSetDictionary(b *testing.B) {
	for _, name := range blas.Available() {
		impl, err := blas.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range benchShapes[:2] {
			b.Run(fmt.Sprintf("%s/n=%d,K=%d", name, s.n, s.k), func(b *testing.B) {
				D, _ := benchProblem(s.n, s.k)
				c, err := New(D, WithSparsity(s.l), WithBackend(impl))
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := c.SetDictionary(D); err != nil {
						b.Fatal(err)
					}
				}
				sec := b.Elapsed().Seconds()
				b.ReportMetric(float64(s.k)*float64(s.k)*float64(s.n)*float64(b.N)/sec/1e9, "GFLOP/s")
			})
		}
	}
}

// recurrenceCase is the problem of the recurrence benchmarks for a shape:
// a coder, the correlations A0 = X·Dᵀ of its signals (one row each), their
// squared norms, and a worker with a scratch vector for one signal's
// correlations (which the recurrence overwrites) and room for its code.
type recurrenceCase struct {
	c    *Coder
	w    *worker[float64]
	a0   []float64
	xx   []float64
	a    []float64
	idx  []int
	val  []float64
	k    int
	nsig int
}

func newRecurrenceCase(b *testing.B, n, k, l int) *recurrenceCase {
	D, X := benchProblem(n, k)
	nsig, _ := X.Dims()
	c, err := New(D, WithSparsity(l))
	if err != nil {
		b.Fatal(err)
	}
	var a0 mat.Dense
	a0.Mul(X, D.T())
	r := &recurrenceCase{
		c: c, w: newWorker[float64](n, k, l, false), a0: a0.RawMatrix().Data,
		xx: make([]float64, nsig), a: make([]float64, k),
		idx: make([]int, l), val: make([]float64, l),
		k: k, nsig: nsig,
	}
	for i := range r.xx {
		r.xx[i] = mat.Dot(X.RowView(i), X.RowView(i))
	}
	return r
}

// load copies the correlations of signal i into the scratch vector.
func (r *recurrenceCase) load(i int) { copy(r.a, r.a0[i*r.k:(i+1)*r.k]) }

// code runs the recurrence on the scratch vector as signal i and returns
// the number of atoms chosen (in r.idx).
func (r *recurrenceCase) code(i int) int {
	return r.w.batchOMP(r.c.gram, &r.c.diag, r.k, r.a, kernel.IamaxUnitary(r.a), r.xx[i], 0, false, r.idx, r.val)
}

// BenchmarkRecurrence times the Batch-OMP recurrences alone, one goroutine,
// on correlations computed beforehand: the part of BenchmarkEncode that is
// not the GEMM (plus one copy of each sample's correlations, which the
// recurrence overwrites).
func BenchmarkRecurrence(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(fmt.Sprintf("n=%d,K=%d,L=%d", s.n, s.k, s.l), func(b *testing.B) {
			r := newRecurrenceCase(b, s.n, s.k, s.l)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuSeconds()
			for b.Loop() {
				for i := range r.nsig {
					r.load(i)
					r.code(i)
				}
			}
			reportCPU(b, cpu0)
			b.ReportMetric(float64(r.nsig*b.N)/b.Elapsed().Seconds(), "signals/s")
		})
	}
}

// BenchmarkRecurrenceRows splits the time of the Batch-OMP recurrence
// between its own work and waiting for the rows of G. Each signal's
// correlations are copied into a scratch vector first; with rows=warm the
// rows of G of the atoms the signal will choose (known from a first
// coding) are read too, so that they are in cache. Only the recurrences
// are timed, one by one (the clock's own cost, a few tens of nanoseconds,
// is in both); the metric is their mean in microseconds a signal.
func BenchmarkRecurrenceRows(b *testing.B) {
	for _, s := range benchShapes {
		for _, rows := range []string{"cold", "warm"} {
			b.Run(fmt.Sprintf("n=%d,K=%d,L=%d/rows=%s", s.n, s.k, s.l, rows), func(b *testing.B) {
				r := newRecurrenceCase(b, s.n, s.k, s.l)
				atoms := make([][]int, r.nsig)
				for i := range atoms {
					r.load(i)
					atoms[i] = append([]int(nil), r.idx[:r.code(i)]...)
				}
				var sink float64
				var spent time.Duration
				b.ResetTimer()
				for b.Loop() {
					for i := range r.nsig {
						r.load(i)
						if rows == "warm" {
							for _, j := range atoms[i] {
								sink += kernel.SumSqUnitary(r.c.gram[j*r.k : (j+1)*r.k])
							}
						}
						t0 := time.Now()
						r.code(i)
						spent += time.Since(t0)
					}
				}
				if sink < 0 {
					b.Fatal("negative sum of squares")
				}
				b.ReportMetric(spent.Seconds()*1e6/float64(r.nsig*b.N), "µs/signal")
			})
		}
	}
}

// BenchmarkEncodeBest estimates what Encode and the correlation GEMM cost on
// an idle core, even on a busy machine: it times Encode (one thread) and the
// GEMM alone on small batches of different signals, alternately, and keeps
// the fastest batch of each (a batch of about 2 ms of work is rarely
// preempted). The batch is also the block size, so both sides run the same
// GEMMs. Metrics: microseconds per signal of each, their ratio, and the
// Encode throughput of the best batch.
func BenchmarkEncodeBest(b *testing.B) {
	for _, name := range blas.Available() {
		impl, err := blas.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range benchShapes {
			b.Run(fmt.Sprintf("%s/n=%d,K=%d,L=%d", name, s.n, s.k, s.l), func(b *testing.B) {
				D, X := benchProblem(s.n, s.k)
				nsig, _ := X.Dims()
				batch := max(16, min(256, int(2e-3*40e9/(2*float64(s.n)*float64(s.k)))))
				reps := 100
				if testing.Short() {
					reps = 10
				}
				withThreads(b, impl, 1, func(impl gblas.Float64) {
					c, err := New(D, WithSparsity(s.l), WithBackend(impl), WithThreads(1), WithBlockSize(batch))
					if err != nil {
						b.Fatal(err)
					}
					a0 := make([]float64, batch*s.k)
					x, d := X.RawMatrix(), D.RawMatrix()
					var dst Codes
					bestE, bestG := math.Inf(1), math.Inf(1)
					b.ResetTimer()
					for b.Loop() {
						for rep := range reps {
							start := (2 * rep * batch) % (nsig - 2*batch)
							t0 := time.Now()
							if err := c.EncodeTo(&dst, X.Slice(start, start+batch, 0, s.n).(*mat.Dense)); err != nil {
								b.Fatal(err)
							}
							bestE = min(bestE, time.Since(t0).Seconds())
							start += batch
							t0 = time.Now()
							impl.Dgemm(gblas.NoTrans, gblas.Trans, batch, s.k, s.n, 1, x.Data[start*x.Stride:], x.Stride,
								d.Data, d.Stride, 0, a0, s.k)
							bestG = min(bestG, time.Since(t0).Seconds())
						}
					}
					b.ReportMetric(bestE/float64(batch)*1e6, "encode-µs/signal")
					b.ReportMetric(bestG/float64(batch)*1e6, "gemm-µs/signal")
					b.ReportMetric(bestE/bestG, "encode/gemm")
					b.ReportMetric(float64(batch)/bestE, "signals/s")
				})
			})
		}
	}
}

// withChunks makes a coder code in chunks of rows samples the dictionaries
// of at most maxDict entries (n·K; 0: none).
func withChunks(rows, maxDict int) Option {
	return func(s *settings) error {
		s.chunk, s.chunkMax, s.chunkSet = rows, maxDict, true
		return nil
	}
}
