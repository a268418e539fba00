package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// AxpyRows equals, bit for bit, the AxpyUnitary calls it stands for, for
// every number of rows (groups of 4, 2 and 1), every length up to 300,
// y at four offsets and rows anywhere in g, and writes nothing outside y.
func TestAxpyRows(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 4))
		const rows, guard = 12, 8
		ld := testN() + 3
		g := make([]float64, rows*ld)
		for i := range g {
			g[i] = rng.Float64()*2 - 1
		}
		gcopy := append([]float64(nil), g...)
		for n := 0; n <= testN(); n++ {
			for p := 0; p <= 9; p++ {
				off := (n + p) % 4
				idx := make([]int, p)
				c := make([]float64, p+1) // longer than idx: allowed
				for m := range idx {
					idx[m] = rng.IntN(rows)
					c[m] = rng.Float64()*4 - 2
				}
				if p > 1 {
					idx[1] = idx[0] // a row twice
				}
				buf := make([]float64, off+n+2*guard)
				for i := range buf {
					buf[i] = rng.Float64()*2 - 1
				}
				lo := guard + off
				want := append([]float64(nil), buf...)
				for m, r := range idx {
					AxpyUnitary(c[m], g[r*ld+off:r*ld+off+n], want[lo:lo+n])
				}
				AxpyRows(c, g[off:], ld, idx, buf[lo:lo+n])
				for i := range buf {
					if math.Float64bits(buf[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n=%d rows=%d off=%d: element %d (y starts at %d) = %v, want %v", n, p, off, i, lo, buf[i], want[i])
					}
				}
			}
		}
		for i := range g {
			if g[i] != gcopy[i] {
				t.Fatalf("g[%d] changed", i)
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
		const rows, guard = 10, 8
		ld := testN() + 3
		g := make([]float64, rows*ld)
		for i := range g {
			g[i] = rng.Float64()*2 - 1
		}
		for n := 0; n <= testN(); n++ {
			for p := 0; p <= 9; p++ {
				for variant := range 4 {
					off := (n + p + variant) % 4
					idx := make([]int, p)
					c := make([]float64, p)
					for m := range idx {
						idx[m] = rng.IntN(rows)
						c[m] = rng.Float64()*4 - 2
					}
					buf := make([]float64, off+n+2*guard)
					for i := range buf {
						buf[i] = outCanary
					}
					lo := guard + off
					y := buf[lo : lo+n]
					for i := range y {
						y[i] = rng.Float64()*2 - 1
					}
					if variant == 1 || variant == 3 {
						clear(c) // the update keeps y's values
					}
					switch {
					case variant == 1 && n > 0:
						// Ties: the same largest value at several places,
						// in one lane and in different ones, in the
						// tail, with either sign.
						for k, i := range []int{n - 1, n / 3, n / 2, n/2 + 8, n/2 + 16, n/3 + 1, n/3 + 16} {
							if i < n {
								y[i] = 7 * float64(1-2*(k%2))
							}
						}
					case variant == 2 && n > 0:
						y[rng.IntN(n)] = math.NaN()
						y[0] = math.NaN()
						if n > 20 {
							y[n-rng.IntN(16)-1] = math.Inf(-1)
						}
					case variant == 3 && n > 0:
						for i := range y {
							y[i] = math.NaN()
						}
					}
					want := append([]float64(nil), buf...)
					AxpyRows(c, g[off:], ld, idx, want[lo:lo+n])
					wantAt := -1
					if n > 0 {
						wantAt = iamaxSkipNaN(want[lo : lo+n])
					}
					at := AxpyRowsIamax(c, g[off:], ld, idx, y)
					for i := range buf {
						if math.Float64bits(buf[i]) != math.Float64bits(want[i]) && !(math.IsNaN(buf[i]) && math.IsNaN(want[i])) {
							t.Fatalf("n=%d rows=%d variant=%d off=%d: element %d (y starts at %d) = %v, want %v", n, p, variant, off, i, lo, buf[i], want[i])
						}
					}
					if at != wantAt {
						t.Fatalf("n=%d rows=%d variant=%d off=%d: index %d, want %d", n, p, variant, off, at, wantAt)
					}
				}
			}
		}
	})
}
