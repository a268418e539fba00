package bench

import (
	"context"
	"fmt"
	"sync"
	"testing"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// The benchmarks below report custom metrics (GFLOP/s, signals/s,
// samples/s) so that benchstat can compare runs and backends. Each is sized
// so that CI can run it once (-benchtime=1x); the training and prediction
// ones on the gonum backend are the slowest.

// benchThreads are the thread counts of the GEMM and Batch-OMP benchmarks:
// one core and all of them.
func benchThreads() []int {
	if c := Cores(); c > 1 {
		return []int{1, c}
	}
	return []int{1}
}

// BenchmarkGemm measures DGEMM at ODDL's shapes on every backend.
func BenchmarkGemm(b *testing.B) {
	for _, name := range blas.Available() {
		for _, s := range MNISTGemmShapes() {
			g := NewGemmCase(s, 1)
			for _, t := range benchThreads() {
				b.Run(fmt.Sprintf("%s/%s/threads=%d", name, s.Name, t), func(b *testing.B) {
					b.ReportAllocs()
					err := WithThreads(name, t, func(impl gblas.Float64) {
						for b.Loop() {
							g.Run(impl)
						}
					})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(s.Flops()*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}

// benchSignals is the number of signals coded per operation of BenchmarkOMP.
const benchSignals = 2048

// BenchmarkOMP measures Batch-OMP ("encode") beside A0 = X·Dᵀ alone
// ("a0", the GEMM bound) on the same signals, on every backend.
func BenchmarkOMP(b *testing.B) {
	for _, name := range blas.Available() {
		for _, s := range OMPShapes() {
			c := NewOMPCase(s, benchSignals, 1)
			for _, t := range benchThreads() {
				prefix := fmt.Sprintf("%s/n=%d,K=%d,L=%d/threads=%d", name, s.Dim, s.Atoms, s.Sparsity, t)
				b.Run(prefix+"/encode", func(b *testing.B) {
					err := WithThreads(name, t, func(impl gblas.Float64) {
						coder, err := c.Coder(impl, t)
						if err != nil {
							b.Fatal(err)
						}
						b.ReportAllocs()
						for b.Loop() {
							if err := c.Encode(coder); err != nil {
								b.Fatal(err)
							}
						}
					})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(benchSignals*b.N)/b.Elapsed().Seconds(), "signals/s")
				})
				b.Run(prefix+"/a0", func(b *testing.B) {
					err := WithThreads(name, t, func(impl gblas.Float64) {
						b.ReportAllocs()
						for b.Loop() {
							c.A0(impl)
						}
					})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(benchSignals*b.N)/b.Elapsed().Seconds(), "signals/s")
				})
			}
		}
	}
}

var mnist struct {
	once        sync.Once
	train, test *dataset.Set
	err         error
}

// mnistSets loads MNIST once per test binary, or skips b when it is not in
// the module cache.
func mnistSets(tb testing.TB) (train, test *dataset.Set) {
	mnist.once.Do(func() { mnist.train, mnist.test, mnist.err = dataset.MNIST() })
	if mnist.err != nil {
		tb.Skipf("MNIST not available: %v", mnist.err)
	}
	return mnist.train, mnist.test
}

// BenchmarkTrainStep measures one ODDL mini-batch step on MNIST (K = 960,
// L = 5, batch 256): coding, statistics and dictionary update, reported
// apart in milliseconds a step beside the total samples/s. A model is
// trained on the first K images (rounded up to whole mini-batches); each
// operation then continues it by one epoch over a source of exactly one
// mini-batch of other images. samples/s is the mini-batch over the step's
// three parts; ns/op also counts what every call of Continue pays besides
// the step (reading the batch, starting and ending the session).
func BenchmarkTrainStep(b *testing.B) {
	train, _ := mnistSets(b)
	for _, name := range blas.Available() {
		b.Run(name, func(b *testing.B) {
			s := MNISTTrainSettings()
			s.Backend = name
			cfg := trainConfig(s)
			start := (s.K + s.Batch - 1) / s.Batch * s.Batch
			first, err := dataset.NewSetSource(train.Head(start))
			if err != nil {
				b.Fatal(err)
			}
			m, err := oddl.Train(context.Background(), cfg, first)
			if err != nil {
				b.Fatal(err)
			}
			src, err := dataset.NewSetSource(train.Subset(seq(start, start+s.Batch)))
			if err != nil {
				b.Fatal(err)
			}
			t0 := m.Times()
			b.ResetTimer()
			for range b.N {
				// One more mini-batch of new samples each time: online
				// learning on new data, on purpose.
				if err := m.Continue(context.Background(), src, 1, oddl.WithNewData()); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			t1 := m.Times()
			n := float64(b.N)
			step := (t1.Coding - t0.Coding + t1.Statistics - t0.Statistics + t1.Update - t0.Update).Seconds() / n
			b.ReportMetric(float64(s.Batch)/step, "samples/s")
			b.ReportMetric((t1.Coding-t0.Coding).Seconds()*1e3/n, "coding-ms/step")
			b.ReportMetric((t1.Statistics-t0.Statistics).Seconds()*1e3/n, "statistics-ms/step")
			b.ReportMetric((t1.Update-t0.Update).Seconds()*1e3/n, "update-ms/step")
		})
	}
}

// benchPassSamples is the length of BenchmarkTrainPass's pass: 10
// mini-batches of 256.
const benchPassSamples = 2560

// BenchmarkTrainPass measures a training pass over the first 2560 MNIST
// images, start-up included, in samples/s.
func BenchmarkTrainPass(b *testing.B) {
	train, _ := mnistSets(b)
	for _, name := range blas.Available() {
		b.Run(fmt.Sprintf("%s/samples=%d", name, benchPassSamples), func(b *testing.B) {
			s := MNISTTrainSettings()
			s.Backend, s.Samples = name, benchPassSamples
			for range b.N {
				if _, _, err := MeasureTrain(context.Background(), train, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.Samples*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

var model struct {
	once sync.Once
	m    *oddl.Model
	err  error
}

// BenchmarkPredict measures the classification of the 10000 MNIST test
// images (preprocessing, Batch-OMP, scores, argmax) by a model trained on
// 2560 training images, on every backend, with the default scores (class
// residuals) and with the linear scores W·a alone.
func BenchmarkPredict(b *testing.B) {
	train, test := mnistSets(b)
	model.once.Do(func() {
		s := MNISTTrainSettings()
		s.Samples = benchPassSamples
		_, model.m, model.err = MeasureTrain(context.Background(), train, s)
	})
	if model.err != nil {
		b.Fatal(model.err)
	}
	for _, name := range blas.Available() {
		for _, sc := range []struct {
			name string
			beta float64
		}{{"residual", oddl.DefaultResidual}, {"linear", 0}} {
			b.Run(name+"/scores="+sc.name, func(b *testing.B) {
				if err := model.m.SetRuntime(name, 0); err != nil {
					b.Fatal(err)
				}
				if err := model.m.SetResidualWeight(sc.beta); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := model.m.Predict(test.X); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(test.Len()*b.N)/b.Elapsed().Seconds(), "samples/s")
			})
		}
	}
}

// seq returns the integers lo, lo+1, ..., hi-1.
func seq(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}
