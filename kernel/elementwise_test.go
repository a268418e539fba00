package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// AddDiv, AxpyDiv and Axpby round exactly as their Go expressions (each operation
// on its own), for every length across the groups of four and for special
// values, and write nothing past len(y).
func TestElementwiseKernels(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(6, 6))
		special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), 5e-324, 1e308}
		val := func() float64 {
			if rng.IntN(8) == 0 {
				return special[rng.IntN(len(special))]
			}
			return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
		}
		vec := func(n int) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = val()
			}
			return v
		}
		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b) }
		for n := 0; n <= 37; n++ {
			x, d, w := vec(n), vec(n), vec(n)
			c := val()
			y := append(vec(n), 7, 7)
			want := append([]float64(nil), y...)
			for i := range n {
				want[i] = float64(want[i]+x[i]) / float64(c*d[i])
			}
			AddDiv(y[:n], x, d, c)
			for i := range y {
				if !same(y[i], want[i]) {
					t.Fatalf("AddDiv n=%d: y[%d] = %v, want %v", n, i, y[i], want[i])
				}
			}
			a := vec(n)
			dst := append(vec(n), 7, 7)
			want = append([]float64(nil), dst...)
			for i := range n {
				want[i] = float64(a[i]+float64(c*w[i])) / d[i]
			}
			AxpyDiv(dst[:n], a, w, d, c)
			for i := range dst {
				if !same(dst[i], want[i]) {
					t.Fatalf("AxpyDiv n=%d: dst[%d] = %v, want %v", n, i, dst[i], want[i])
				}
			}
			b := val()
			dst = append(vec(n), 7, 7)
			want = append([]float64(nil), dst...)
			for i := range n {
				want[i] = float64(c*x[i]) + float64(b*w[i])
			}
			Axpby(dst[:n], x, w, c, b)
			for i := range dst {
				if !same(dst[i], want[i]) {
					t.Fatalf("Axpby n=%d: dst[%d] = %v, want %v", n, i, dst[i], want[i])
				}
			}
		}
	})
}
