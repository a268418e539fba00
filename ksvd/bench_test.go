package ksvd

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkIteration times one K-SVD iteration (Batch-OMP codes of every
// sample, residuals, approximate update of every atom) and its two halves,
// at MNIST-like (n = 784, K = 960) and USPS-like (n = 256, K = 320) sizes on
// synthetic samples made of L random atoms plus noise.
func BenchmarkIteration(b *testing.B) {
	for _, sz := range []struct{ n, K, L, N int }{
		{256, 320, 5, 5000},
		{784, 960, 5, 10000},
	} {
		rng := rand.New(rand.NewPCG(1, 1))
		X := plantedData(rng, randomDictionary(rng, sz.K, sz.n), sz.N, sz.L, 0.05)
		s, err := Config{K: sz.K, L: sz.L, Seed: 1}.check(X)
		if err != nil {
			b.Fatal(err)
		}
		tr, err := newTrainer(X, s)
		if err != nil {
			b.Fatal(err)
		}
		if err := tr.code(); err != nil {
			b.Fatal(err)
		}
		tr.computeResiduals()
		name := fmt.Sprintf("n=%d,K=%d,L=%d,N=%d", sz.n, sz.K, sz.L, sz.N)
		ctx := context.Background()
		b.Run("iteration/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := tr.code(); err != nil {
					b.Fatal(err)
				}
				tr.computeResiduals()
				if err := tr.updateAtoms(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sz.N*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
		b.Run("code/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := tr.code(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sz.N*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
		tr.computeResiduals()
		b.Run("update/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := tr.updateAtoms(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sz.N*b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}
