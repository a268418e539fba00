package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// DgemmPacked gives Dgemm's result bit for bit, for both orientations of
// B and of A, shapes across the block sizes (several kc and nc blocks),
// alpha and beta edge values, one and several threads, and reuse of a
// PackedB for another B.
func TestDgemmPacked(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 9))
		oldKC, oldNC, oldMin := gemmKC, gemmNC, gemmMinWork
		defer func() { gemmKC, gemmNC, gemmMinWork = oldKC, oldNC, oldMin }()
		gemmKC, gemmNC = 16, 24 // several blocks on small shapes
		gemmMinWork = 64        // and several goroutines
		var pb PackedB
		for _, s := range []struct{ m, n, k int }{{7, 9, 5}, {13, 33, 40}, {50, 24, 16}, {6, 8, 17}, {31, 50, 3}} {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				for _, ab := range [][2]float64{{1, 0}, {-0.5, 1}, {2, -1.5}, {0, 2}} {
					for _, threads := range []int{1, 3} {
						name := fmt.Sprintf("m=%d n=%d k=%d trans=%v alpha,beta=%v threads=%d", s.m, s.n, s.k, tr, ab, threads)
						lda, ldb, ldc := s.k+2, s.n+1, s.n+3
						if tr[0] {
							lda = s.m + 2
						}
						if tr[1] {
							ldb = s.k + 1
						}
						a := randSlice(rng, lda*max(s.m, s.k))
						b := randSlice(rng, ldb*max(s.k, s.n))
						c0 := randSlice(rng, ldc*s.m)
						want := append([]float64(nil), c0...)
						got := append([]float64(nil), c0...)
						prev := SetThreads(threads)
						Dgemm(tr[0], tr[1], s.m, s.n, s.k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
						pb.Pack(tr[1], s.k, s.n, b, ldb)
						clear(b) // the packed copy must not depend on b any more
						DgemmPacked(tr[0], s.m, ab[0], a, lda, &pb, ab[1], got, ldc)
						SetThreads(prev)
						for i := range want {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("%s: c[%d] = %v, want %v", name, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	})
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.Float64()*2 - 1
	}
	return s
}
