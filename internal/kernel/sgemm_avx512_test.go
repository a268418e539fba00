//go:build amd64 && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSgemmKernelAVX512 checks the AVX-512 micro-kernels (6×48 and 6×32)
// and their two multi-tile forms against the AVX2 ones, bit for bit: a
// 6×48 tile is three 6×16 tiles side by side, each an AVX2 call on its
// third of the packed panel of B, with the same fused multiply-adds in the
// same order (6×32: two). Depths around the loop's unrolling and past a
// block, C inside a padded matrix, beta zero or not, canaries around it.
func TestSgemmKernelAVX512(t *testing.T) {
	if !can512 {
		t.Skipf("the AVX-512 kernels are not run: this binary or CPU cannot (tiers here: %v)", Tiers())
	}
	for _, f := range []sgemm512Forms{
		{48, sgemmKernel6x48AVX512, sgemmTiles6x48AVX512, sgemmDirect6x48AVX512},
		{32, sgemmKernel6x32AVX512, sgemmTiles6x32AVX512, sgemmDirect6x32AVX512},
	} {
		t.Run(fmt.Sprintf("6x%d", f.nr), func(t *testing.T) { testSgemmKernelAVX512(t, f) })
	}
}

// sgemm512Forms is one AVX-512 micro-kernel, nr columns wide, in its three
// forms.
type sgemm512Forms struct {
	nr     int
	kernel func(k int, a, b, c []float32, ldc int, alpha, beta float32)
	tiles  func(k int, a, b []float32, nt int, c []float32, ldc int, alpha, beta float32)
	direct func(k int, a []float32, lda int, b []float32, np int, c []float32, ldc int, alpha, beta float32)
}

func testSgemmKernelAVX512(t *testing.T, f sgemm512Forms) {
	nr, kernel, tiles, direct := f.nr, f.kernel, f.tiles, f.direct
	rng := rand.New(rand.NewPCG(14, 14))
	const mr, nr2 = 6, 16
	for _, k := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 64, 257} {
		for _, ab := range [][2]float32{{1, 0}, {0.7, -1}, {-1, 0.5}, {0.5, 0}} {
			for _, nt := range []int{1, 3} {
				ldc := nr*nt + 3
				a := sgemmMatrix(rng, 1, mr*k*nt, mr*k*nt)[:mr*k*nt]
				b := sgemmMatrix(rng, 1, nr*k*nt, nr*k*nt)[:nr*k*nt]
				c := sgemmMatrix(rng, mr*nt, nr*nt, ldc)
				if ab[1] == 0 {
					for i := range mr * nt {
						for j := range nr * nt {
							c[i*ldc+j] = float32(math.NaN())
						}
					}
				}
				// want: tile (r, q) of C from row panel r of A and column
				// panel q of B, by the AVX2 kernel on each 16 columns of it.
				want := slices.Clone(c)
				b2 := make([]float32, nr2*k)
				for r := range nt {
					for q := range nt {
						for v := range nr / nr2 {
							for p := range k {
								copy(b2[p*nr2:(p+1)*nr2], b[q*nr*k+p*nr+v*nr2:])
							}
							o := r*mr*ldc + q*nr + v*nr2
							sgemmKernel6x16AVX2(k, a[r*mr*k:], b2, want[o:o+(mr-1)*ldc+nr2], ldc, ab[0], ab[1])
						}
					}
				}
				name := fmt.Sprintf("k=%d nt=%d alpha,beta=%v", k, nt, ab)
				// The micro-kernel, tile by tile.
				got := slices.Clone(c)
				for r := range nt {
					for q := range nt {
						o := r*mr*ldc + q*nr
						kernel(k, a[r*mr*k:], b[q*nr*k:], got[o:o+(mr-1)*ldc+nr], ldc, ab[0], ab[1])
					}
				}
				if !slices.Equal(math32bits(got), math32bits(want)) {
					t.Errorf("%s: the micro-kernel differs from the AVX2 one", name)
				}
				sgemmCheckCanaries(t, name, got, mr*nt, nr*nt, ldc)
				// A column of tiles a call.
				got = slices.Clone(c)
				for q := range nt {
					o := q * nr
					tiles(k, a, b[q*nr*k:], nt, got[o:o+(mr*nt-1)*ldc+nr], ldc, ab[0], ab[1])
				}
				if !slices.Equal(math32bits(got), math32bits(want)) {
					t.Errorf("%s: the column of tiles differs from the AVX2 kernel", name)
				}
				// A row of tiles a call, A read in place.
				got = slices.Clone(c)
				lda := k + 2
				ar := make([]float32, mr*nt*lda)
				for r := range nt {
					for p := range k {
						for i := range mr {
							ar[(r*mr+i)*lda+1+p] = a[r*mr*k+p*mr+i]
						}
					}
				}
				for r := range nt {
					o := (r*mr)*lda + 1
					direct(k, ar[o:o+5*lda+k], lda, b, nt, got[r*mr*ldc:r*mr*ldc+5*ldc+nr*nt], ldc, ab[0], ab[1])
				}
				if !slices.Equal(math32bits(got), math32bits(want)) {
					t.Errorf("%s: the in-place form differs from the AVX2 kernel", name)
				}
				sgemmCheckCanaries(t, name, got, mr*nt, nr*nt, ldc)
			}
		}
	}
}
