package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// DgemmPacked gives Dgemm's result bit for bit, for both orientations of
// B and of A, shapes across the block sizes (several kc and nc blocks),
// alpha and beta edge values, one and several threads (packing too), and
// reuse of a PackedB for another B.
func TestDgemmPacked(t *testing.T) {
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 9))
		oldMin, oldPack := gemmMinWork, packMinPerThread
		defer func() { gemmMinWork, packMinPerThread = oldMin, oldPack }()
		defer setGemmBlocking(0, 16, 24)() // several blocks on small shapes
		gemmMinWork = 64                   // and several goroutines,
		packMinPerThread = 1               // for the packing too
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
						prev := setThreads(threads)
						Dgemm(tr[0], tr[1], s.m, s.n, s.k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
						pb.Pack(tr[1], s.k, s.n, b, ldb)
						clear(b) // the packed copy must not depend on b any more
						DgemmPacked(tr[0], s.m, ab[0], a, lda, &pb, ab[1], got, ldc)
						setThreads(prev)
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

// DgemmPackedUpper gives DgemmPacked's upper triangle bit for bit (the
// diagonal included) and leaves the entries of C that are not in a tile
// reaching the upper triangle untouched, for orders across the micro-tile
// and block sizes, both orientations of A, one and several threads.
func TestDgemmPackedUpper(t *testing.T) {
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 11))
		oldMin := gemmMinWork
		defer func() { gemmMinWork = oldMin }()
		defer setGemmBlocking(0, 16, 24)()
		gemmMinWork = 64
		mr, nr := gemmTierNow().mr, gemmTierNow().nr
		var pb PackedB
		for _, s := range []struct{ n, k int }{{1, 3}, {5, 7}, {6, 8}, {13, 40}, {30, 17}, {49, 33}, {50, 16}} {
			for _, trA := range []bool{false, true} {
				for _, ab := range [][2]float64{{1, 0}, {-0.5, 1}, {2, -1.5}} {
					for _, threads := range []int{1, 3} {
						name := fmt.Sprintf("n=%d k=%d transA=%v alpha,beta=%v threads=%d", s.n, s.k, trA, ab, threads)
						lda, ldb, ldc := s.k+2, s.n+1, s.n+3
						if trA {
							lda = s.n + 2
						}
						a := randSlice(rng, lda*max(s.n, s.k))
						b := randSlice(rng, ldb*s.k)
						c0 := randSlice(rng, ldc*s.n)
						want := append([]float64(nil), c0...)
						got := append([]float64(nil), c0...)
						prev := setThreads(threads)
						pb.Pack(false, s.k, s.n, b, ldb)
						DgemmPacked(trA, s.n, ab[0], a, lda, &pb, ab[1], want, ldc)
						DgemmPackedUpper(trA, ab[0], a, lda, &pb, ab[1], got, ldc)
						setThreads(prev)
						for i := range s.n {
							for j := range s.n {
								g, w, c := got[i*ldc+j], want[i*ldc+j], c0[i*ldc+j]
								switch {
								case j >= i && math.Float64bits(g) != math.Float64bits(w):
									t.Fatalf("%s: c[%d][%d] = %v, want %v", name, i, j, g, w)
								case j < i && g != w && g != c:
									t.Fatalf("%s: c[%d][%d] = %v, neither the product %v nor the old %v", name, i, j, g, w, c)
								case j+nr <= i-i%mr && g != c:
									t.Fatalf("%s: c[%d][%d] below the diagonal's tiles was written", name, i, j)
								}
							}
						}
					}
				}
			}
		}
	})
}

// DgemmOn and DgemmPackedOn give Dgemm's result bit for bit whatever cap
// they are given on the goroutines (below, at and above Threads()).
func TestDgemmOn(t *testing.T) {
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(12, 1))
		oldMin := gemmMinWork
		defer func() { gemmMinWork = oldMin }()
		gemmMinWork = 64 // several goroutines on small shapes
		const m, n, k = 37, 45, 29
		a, b := randSlice(rng, m*k), randSlice(rng, k*n)
		c0 := randSlice(rng, m*n)
		want := append([]float64(nil), c0...)
		Dgemm(false, false, m, n, k, 0.5, a, k, b, n, 1.5, want, n)
		var pb PackedB
		pb.Pack(false, k, n, b, n)
		for _, threads := range []int{0, 1, 2, 5} {
			got := append([]float64(nil), c0...)
			DgemmOn(threads, false, false, m, n, k, 0.5, a, k, b, n, 1.5, got, n)
			got2 := append([]float64(nil), c0...)
			DgemmPackedOn(threads, false, m, 0.5, a, k, &pb, 1.5, got2, n)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(got2[i]) != math.Float64bits(want[i]) {
					t.Fatalf("threads=%d: c[%d] = %v / %v, want %v", threads, i, got[i], got2[i], want[i])
				}
			}
		}
	})
}

// PackRows, over rows in pieces and in any order, leaves exactly what Pack
// packs, for both orientations of B, shapes across the block sizes, a
// buffer holding another shape or garbage before, and then DgemmPacked on
// it gives Dgemm's result.
func TestPackRows(t *testing.T) {
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 40))
		for _, blocks := range [][2]int{{0, 0}, {16, 24}} {
			defer setGemmBlocking(0, blocks[0], blocks[1])() // {0, 0}: the tier's own
			var got PackedB
			got.Pack(false, 3, 5, randSlice(rng, 15), 5) // another shape first
			for _, s := range []struct{ k, n int }{{1, 1}, {5, 8}, {17, 9}, {40, 50}, {128, 794}} {
				for _, trans := range []bool{false, true} {
					ldb := s.n + 3
					if trans {
						ldb = s.k + 2
					}
					b := randSlice(rng, ldb*max(s.k, s.n))
					var want PackedB
					want.Pack(trans, s.k, s.n, b, ldb)
					got.PackRows(trans, s.k, s.n, b, ldb, 0, 0) // sets the layout
					for i := range got.data {
						got.data[i] = math.NaN()
					}
					// Pieces of random sizes, packed in a shuffled order.
					var cuts []int
					for r := 0; r < s.k; r += 1 + rng.IntN(12) {
						cuts = append(cuts, r)
					}
					cuts = append(cuts, s.k)
					order := rng.Perm(len(cuts) - 1)
					for _, c := range order {
						got.PackRows(trans, s.k, s.n, b, ldb, cuts[c], cuts[c+1])
					}
					name := fmt.Sprintf("kc=%d nc=%d k=%d n=%d trans=%v", gemmTierNow().kc, gemmTierNow().nc, s.k, s.n, trans)
					if got.k != want.k || got.n != want.n || got.kc != want.kc || got.nc != want.nc || fmt.Sprint(got.offs) != fmt.Sprint(want.offs) || len(got.data) != len(want.data) {
						t.Fatalf("%s: layout (%d %d %d %d %v %d), Pack's (%d %d %d %d %v %d)", name,
							got.k, got.n, got.kc, got.nc, got.offs, len(got.data), want.k, want.n, want.kc, want.nc, want.offs, len(want.data))
					}
					for i := range want.data {
						if math.Float64bits(got.data[i]) != math.Float64bits(want.data[i]) {
							t.Fatalf("%s: data[%d] = %v, Pack's %v", name, i, got.data[i], want.data[i])
						}
					}
					m := 7
					a := randSlice(rng, m*s.k)
					c1 := make([]float64, m*s.n)
					c2 := make([]float64, m*s.n)
					DgemmPacked(false, m, 1, a, s.k, &got, 0, c1, s.n)
					Dgemm(false, trans, m, s.n, s.k, 1, a, s.k, b, ldb, 0, c2, s.n)
					for i := range c1 {
						if math.Float64bits(c1[i]) != math.Float64bits(c2[i]) && m*s.n*s.k > 128 {
							t.Fatalf("%s: C[%d] = %v, Dgemm %v", name, i, c1[i], c2[i])
						}
					}
				}
			}
		}
	})
}

// PackRows refuses rows outside 0..k.
func TestPackRowsPanics(t *testing.T) {
	for name, r := range map[string][2]int{"negative": {-1, 2}, "past k": {0, 5}, "reversed": {3, 2}} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			var p PackedB
			p.PackRows(false, 4, 4, make([]float64, 16), 4, r[0], r[1])
		})
	}
}

// A PackedB keeps the layout of the tier that packed it: DgemmPacked and
// DgemmPackedUpper in any other tier give that tier's Dgemm values bit for
// bit, and AxpyRowsPacked in any tier gives that tier's AxpyRowsCSR
// values. (Only tests switch tiers while a program runs.)
func TestPackedBAcrossTiers(t *testing.T) {
	tiers := gemmRunnable()
	for _, tier := range gemmAllTiers {
		if !supported(tier) {
			t.Logf("tier %s not run: this binary or CPU cannot run it", tier)
		}
	}
	rng := rand.New(rand.NewPCG(8, 22))
	const m, n, k = 37, 53, 41
	a, b := randSlice(rng, m*k), randSlice(rng, n*k) // B stored n×k: op(B) = Bᵀ
	c0 := randSlice(rng, m*n)
	for _, packTier := range tiers {
		var pb PackedB
		want := append([]float64(nil), c0...)
		withGemmTier(packTier, func() {
			pb.Pack(true, k, n, b, k)
			Dgemm(false, true, m, n, k, 0.5, a, k, b, k, -1, want, n)
		})
		for _, runTier := range tiers {
			withGemmTier(runTier, func() {
				got := append([]float64(nil), c0...)
				DgemmPacked(false, m, 0.5, a, k, &pb, -1, got, n)
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("packed in %s, run in %s: c[%d] = %v, Dgemm in %s %v", packTier, runTier, i, got[i], packTier, want[i])
					}
				}
				// B's rows as the rows of a k×n matrix, for AxpyRowsCSR.
				bt := make([]float64, k*n)
				for p := range k {
					for j := range n {
						bt[p*n+j] = b[j*k+p]
					}
				}
				ptr, idx, cs := randomCSR(rng, 5, k, 6, 2)
				y := randSlice(rng, 5*n)
				wantY := append([]float64(nil), y...)
				AxpyRowsCSR(5, n, ptr, idx, cs, bt, n, wantY, n)
				AxpyRowsPacked(5, ptr, idx, cs, &pb, y, n)
				for i := range y {
					if math.Float64bits(y[i]) != math.Float64bits(wantY[i]) {
						t.Fatalf("packed in %s, AxpyRowsPacked in %s: y[%d] = %v, AxpyRowsCSR %v", packTier, runTier, i, y[i], wantY[i])
					}
				}
			})
		}
	}
}
