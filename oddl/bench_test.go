package oddl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

// benchTrainer returns a trainer on a K-atom model of n-dimensional samples
// in the joint phase, with statistics already accumulated, and a batch of
// samples loaded.
func benchTrainer(b *testing.B, cfg Config, n, q int) *trainer {
	rng := rand.New(rand.NewPCG(1, 1))
	N := max(cfg.K, cfg.Batch)
	_, X, labels := planted(rng, cfg.K, n, cfg.L, q, N, 0.1)
	src, err := NewMatrixSource(X, labels, q)
	if err != nil {
		b.Fatal(err)
	}
	m := &Model{cfg: cfg, st: newState(cfg.K, n, q)}
	m.st.single = cfg.single()
	t, err := newTrainer(m, src, options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := startAtoms(m.st, src, t.b, cfg); err != nil {
		b.Fatal(err)
	}
	m.cur.phase = phaseJoint
	if err := src.Seek(1, 0); err != nil {
		b.Fatal(err)
	}
	if _, err := t.b.read(src, cfg.Batch, 1); err != nil {
		b.Fatal(err)
	}
	// A few steps so that the statistics are those of a running model.
	for range 2 {
		if _, err := t.step(cfg.Lambda0, true); err != nil {
			b.Fatal(err)
		}
	}
	return t
}

// BenchmarkTrainBatch measures one mini-batch step (coding, statistics,
// update) at the MNIST shape: K = 960, n = 784, q = 10, L = 5.
func BenchmarkTrainBatch(b *testing.B) {
	for _, bc := range []struct {
		batch  int
		update Update
		prec   Precision
	}{{256, UpdateBlocked, ""}, {1024, UpdateBlocked, ""}, {1024, UpdateColumn, ""}, {1024, UpdateBlocked, PrecisionFloat32}} {
		name := fmt.Sprintf("batch=%d/update=%s", bc.batch, bc.update)
		if bc.prec != "" {
			name += "/" + string(bc.prec)
		}
		b.Run(name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Batch, cfg.Research.Update = bc.batch, bc.update
			if bc.prec != "" {
				cfg.Precision = bc.prec
			}
			t := benchTrainer(b, cfg, 784, 10)
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			var before Times = t.m.times
			for range b.N {
				if _, err := t.step(cfg.Lambda0, true); err != nil {
					b.Fatal(err)
				}
			}
			el := time.Since(start).Seconds()
			b.ReportMetric(float64(b.N*bc.batch)/el, "samples/s")
			d := t.m.times
			per := func(x, y time.Duration) float64 { return (x - y).Seconds() * 1e3 / float64(b.N) }
			b.ReportMetric(per(d.Coding, before.Coding), "coding-ms/op")
			b.ReportMetric(per(d.Statistics, before.Statistics), "stats-ms/op")
			b.ReportMetric(per(d.Update, before.Update), "update-ms/op")
		})
	}
}

// BenchmarkEpoch trains on the first samples of MNIST with the default
// configuration (the initialisation shortened in proportion) and reports
// the throughput of the whole run. It is skipped when MNIST is not found.
func BenchmarkEpoch(b *testing.B) {
	train, _, err := dataset.MNIST()
	if err != nil {
		b.Skipf("MNIST not available: %v", err)
	}
	const N = 10240
	X := train.X.Slice(0, N, 0, train.Dim()).(*mat.Dense)
	src, err := NewMatrixSource(X, train.Labels[:N], train.Classes)
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.InitSamples = DefaultInitSamples * N / 60000
	b.ReportAllocs()
	b.ResetTimer()
	var times Times
	start := time.Now()
	for range b.N {
		m, err := Train(context.Background(), cfg, src)
		if err != nil {
			b.Fatal(err)
		}
		t := m.Times()
		times.Init += t.Init
		times.Coding += t.Coding
		times.Statistics += t.Statistics
		times.Update += t.Update
		times.Read += t.Read
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N*(N+cfg.InitSamples))/el, "samples/s")
	b.ReportMetric(el/float64(b.N)*60000/float64(N), "s/mnist-epoch")
	for name, d := range map[string]time.Duration{"init": times.Init, "coding": times.Coding, "stats": times.Statistics, "update": times.Update} {
		b.ReportMetric(d.Seconds()/float64(b.N), name+"-s/op")
	}
}

// BenchmarkSweep measures one blocked block-coordinate descent sweep at
// the MNIST shape (K = 960, n + q = 794) with the statistics of a running
// model (so with the product P = M·D~ kept from the previous mini-batch),
// and reports its GEMM-equivalent rate (2·K²·(n+q) flops, one K×K×(n+q)
// product).
func BenchmarkSweep(b *testing.B) {
	cfg := DefaultConfig()
	t := benchTrainer(b, cfg, 784, 10)
	st := t.m.st
	saved := append([]float64(nil), st.dt...)
	savedP := append([]float64(nil), st.p...)
	b.ResetTimer()
	for range b.N {
		copy(st.dt, saved)
		copy(st.p, savedP)
		t.up.sweep(st, true)
	}
	flops := 2 * float64(st.k) * float64(st.k) * float64(st.stride())
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkSweepMNIST measures one sweep of the dictionary update on the
// statistics of a real model: the default training, without the
// initialisation phase, on the first 30 720 MNIST training images at
// mini-batch 256 (half of `oddl bench`'s pass), after which about a
// quarter of M is nonzero and most blocks' products run sparse. The
// training takes a few seconds before the timed loop; the sweep runs as the
// trainer's own (the look-ahead form with the native backend on two
// threads). It is skipped when MNIST is not found.
func BenchmarkSweepMNIST(b *testing.B) {
	train, _, err := dataset.MNIST()
	if err != nil {
		b.Skipf("MNIST not available: %v", err)
	}
	src, err := dataset.NewSetSource(train.Head(30720))
	if err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Batch, cfg.InitSamples = 256, 0
	m, err := Train(context.Background(), cfg, src)
	if err != nil {
		b.Fatal(err)
	}
	t, err := newTrainer(m, src, options{})
	if err != nil {
		b.Fatal(err)
	}
	st := m.st
	t.up.updateW = true
	t.up.prepareBlocked(st)
	dt := append([]float64(nil), st.dt...)
	p := append([]float64(nil), st.p...)
	for b.Loop() {
		copy(st.dt, dt)
		copy(st.p, p)
		t.up.sweep(st, true)
	}
}
