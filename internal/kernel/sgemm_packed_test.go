package kernel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSgemmPacked: a product on a packed B gives Sgemm's result bit for
// bit, on 1, 2 and 3 goroutines, across block edges (small blocks make
// every loop turn several times), and the upper-triangle form gives those
// values on and above the diagonal.
func TestSgemmPacked(t *testing.T) {
	savedWork, savedPack := gemmMinWork, packMinPerThread
	gemmMinWork, packMinPerThread = 1, 1
	defer func() { gemmMinWork, packMinPerThread = savedWork, savedPack }()
	defer setThreads(setThreads(1))
	shapes := [][3]int{{13, 17, 9}, {70, 90, 300}, {6, 16, 257}, {97, 33, 45}, {40, 40, 31}}
	eachSgemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(10, 10))
		for _, bl := range [][3]int{{0, 0, 0}, {12, 16, 32}} {
			withSgemmBlocking(bl[0], bl[1], bl[2], func() {
				for i, s := range shapes {
					for _, tr := range gemmTrans {
						tc := sgemmCase{tr[0], tr[1], s[0], s[1], s[2], 0.7, -1, i % 3}
						a, lda, b, ldb, c, ldc := tc.operands(rng)
						want := slices.Clone(c)
						Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, want, ldc)
						var pb PackedB32
						for _, th := range []int{1, 2, 3} {
							setThreads(th)
							pb.Pack(tc.transB, tc.k, tc.n, b, ldb)
							got := slices.Clone(c)
							SgemmPacked(tc.transA, tc.m, tc.alpha, a, lda, &pb, tc.beta, got, ldc)
							name := fmt.Sprintf("%v blocking %v threads %d", tc, bl, th)
							if !slices.Equal(math32bits(got), math32bits(want)) {
								t.Errorf("%s: SgemmPacked differs from Sgemm", name)
							}
							got2 := slices.Clone(c)
							SgemmPackedOn(2, tc.transA, tc.m, tc.alpha, a, lda, &pb, tc.beta, got2, ldc)
							if !slices.Equal(math32bits(got2), math32bits(want)) {
								t.Errorf("%s: SgemmPackedOn(2) differs from Sgemm", name)
							}
							sgemmCheckCanaries(t, name, got, tc.m, tc.n, ldc)
						}
						if k, n := pb.Dims(); k != tc.k || n != tc.n {
							t.Errorf("%v: Dims() = %d, %d", tc, k, n)
						}
						// The Gram-like square product's upper triangle.
						sq := sgemmCase{tc.transA, tc.transB, tc.n, tc.n, tc.k, 0.7, 0.5, 1}
						a2, lda2, _, _, c2, ldc2 := sq.operands(rng)
						full := slices.Clone(c2)
						SgemmPacked(sq.transA, sq.m, sq.alpha, a2, lda2, &pb, sq.beta, full, ldc2)
						up := slices.Clone(c2)
						SgemmPackedUpperOn(2, sq.transA, sq.alpha, a2, lda2, &pb, sq.beta, up, ldc2)
						for r := range sq.n {
							for col := r; col < sq.n; col++ {
								if up[r*ldc2+col] != full[r*ldc2+col] {
									t.Fatalf("%v: upper C[%d][%d] = %v, want %v", sq, r, col, up[r*ldc2+col], full[r*ldc2+col])
								}
							}
						}
						sgemmCheckCanaries(t, "upper", up, sq.n, sq.n, ldc2)
					}
				}
			})
		}
	})
}

// TestSgemmPackedSmall: the small products that SgemmPacked computes
// without setting a call up (one goroutine, one block, few column panels)
// give Sgemm's values bit for bit, partial row and column panels
// included, in every tier the CPU runs (but the products of at most
// gemmTinyWork multiply-adds, which Sgemm computes by plain loops).
func TestSgemmPackedSmall(t *testing.T) {
	eachSgemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(14, 14))
		for _, m := range []int{1, 5, 6, 7, 13, 48, 50} {
			for _, n := range []int{1, 15, 16, 17, 64, 70} {
				for _, k := range []int{1, 4, 9, 36, 40} {
					if m*n*k <= gemmTinyWork {
						continue // Sgemm's plain loops
					}
					for _, transB := range []bool{false, true} {
						tc := sgemmCase{false, transB, m, n, k, []float32{1, 0.7}[k%2], []float32{0, -1}[n%2], m % 3}
						a, lda, b, ldb, c, ldc := tc.operands(rng)
						want := slices.Clone(c)
						Sgemm(false, transB, m, n, k, tc.alpha, a, lda, b, ldb, tc.beta, want, ldc)
						var pb PackedB32
						pb.Pack(transB, k, n, b, ldb)
						got := slices.Clone(c)
						SgemmPacked(false, m, tc.alpha, a, lda, &pb, tc.beta, got, ldc)
						if !slices.Equal(math32bits(got), math32bits(want)) {
							t.Errorf("%v: SgemmPacked differs from Sgemm", tc)
						}
						sgemmCheckCanaries(t, tc.String(), got, m, n, ldc)
					}
				}
			}
		}
	})
}
