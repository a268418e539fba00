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

// AxpyRowsIamax updates y exactly as AxpyRows does and returns the first
// index of the largest |y[i]| after the update, NaNs passed over: checked
// against AxpyRows and a plain search, with ties in different lanes and in
// the tail, NaNs, and every number of rows.
func TestAxpyRowsIamax(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(19, 2))
		const ld, rows = 61, 10
		g := make([]float64, rows*ld)
		for i := range g {
			g[i] = rng.Float64()*2 - 1
		}
		for n := 0; n <= min(testN(), ld); n++ {
			for p := 0; p <= 9; p++ {
				for variant := range 4 {
					idx := make([]int, p)
					c := make([]float64, p)
					for m := range idx {
						idx[m] = rng.IntN(rows)
						c[m] = rng.Float64()*4 - 2
					}
					y := make([]float64, n)
					for i := range y {
						y[i] = rng.Float64()*2 - 1
					}
					if variant == 1 || variant == 3 {
						clear(c) // the update keeps y's values
					}
					switch {
					case variant == 1 && n > 0:
						// Ties: the same largest value at several places,
						// in different lanes and in the tail.
						for _, i := range []int{n / 3, n - 1, n / 2, n/2 + 8} {
							if i < n {
								y[i] = -7
							}
						}
					case variant == 2 && n > 0:
						y[rng.IntN(n)] = math.NaN()
						y[0] = math.NaN()
					case variant == 3 && n > 0:
						for i := range y {
							y[i] = math.NaN()
						}
					}
					want := append([]float64(nil), y...)
					AxpyRows(c, g, ld, idx, want)
					wantAt := -1
					if n > 0 {
						wantAt = iamaxSkipNaN(want)
					}
					at := AxpyRowsIamax(c, g, ld, idx, y)
					for i := range y {
						if math.Float64bits(y[i]) != math.Float64bits(want[i]) && !(math.IsNaN(y[i]) && math.IsNaN(want[i])) {
							t.Fatalf("n=%d rows=%d variant=%d: y[%d] = %v, want %v", n, p, variant, i, y[i], want[i])
						}
					}
					if at != wantAt {
						t.Fatalf("n=%d rows=%d variant=%d: index %d, want %d", n, p, variant, at, wantAt)
					}
				}
			}
		}
	})
}
