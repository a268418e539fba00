package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// AxpyRows equals, bit for bit, the AxpyUnitary calls it stands for, for
// every number of rows (groups of 4, 2 and 1), lengths across the block
// edges and rows anywhere in g, and writes nothing outside y.
func TestAxpyRows(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 4))
		const ld, rows, guard = 53, 12, 3
		g := make([]float64, rows*ld)
		for i := range g {
			g[i] = rng.Float64()*2 - 1
		}
		for n := 0; n <= min(testN(), ld); n++ {
			for p := 0; p <= 9; p++ {
				idx := make([]int, p)
				c := make([]float64, p+1) // longer than idx: allowed
				for m := range idx {
					idx[m] = rng.IntN(rows)
					c[m] = rng.Float64()*4 - 2
				}
				if p > 1 {
					idx[1] = idx[0] // a row twice
				}
				buf := make([]float64, n+2*guard)
				for i := range buf {
					buf[i] = rng.Float64()*2 - 1
				}
				want := append([]float64(nil), buf...)
				for m, r := range idx {
					AxpyUnitary(c[m], g[r*ld:r*ld+n], want[guard:guard+n])
				}
				gcopy := append([]float64(nil), g...)
				AxpyRows(c, g, ld, idx, buf[guard:guard+n])
				for i := range buf {
					if math.Float64bits(buf[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n=%d rows=%d: element %d (y starts at %d) = %v, want %v", n, p, i, guard, buf[i], want[i])
					}
				}
				for i := range g {
					if g[i] != gcopy[i] {
						t.Fatalf("n=%d rows=%d: g[%d] changed", n, p, i)
					}
				}
			}
		}
	})
}

func BenchmarkAxpyRows(b *testing.B) {
	const k = 960
	rng := rand.New(rand.NewPCG(1, 1))
	g := make([]float64, 64*k)
	for i := range g {
		g[i] = rng.Float64()
	}
	y := make([]float64, k)
	for _, p := range []int{1, 2, 4} {
		idx := make([]int, p)
		c := make([]float64, p)
		for m := range idx {
			idx[m], c[m] = 7*m+3, 1e-3
		}
		b.Run(fmt.Sprintf("rows=%d/separate", p), func(b *testing.B) {
			for b.Loop() {
				for m, r := range idx {
					AxpyUnitary(c[m], g[r*k:r*k+k], y)
				}
			}
		})
		b.Run(fmt.Sprintf("rows=%d/fused", p), func(b *testing.B) {
			for b.Loop() {
				AxpyRows(c, g, k, idx, y)
			}
		})
	}
}
