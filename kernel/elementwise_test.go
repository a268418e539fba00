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

// DotsAddDiv gives, bit for bit, DgemmPacked's row of alpha·a·B followed
// by AddDiv, on every kernel path: widths around the four- and eight-wide
// passes, depths from 1 to 256, B's rows apart by more than the width;
// nothing past y changes.
func TestDotsAddDiv(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(21, 4))
		for _, q := range []int{1, 2, 3, 10, 17, 256} {
			for _, n := range []int{1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 40, 44, 63, 64, 76, 101} {
				ldb := n + 3
				a := randSlice(rng, q)
				b := randSlice(rng, (q-1)*ldb+n)
				x := make([]float64, n)
				d := make([]float64, n)
				for i := range x {
					x[i] = rng.Float64()*2 - 1
					d[i] = 0.5 + rng.Float64()
				}
				alpha, c := 0.7+rng.Float64(), 0.5+rng.Float64()
				var pb PackedB
				pb.Pack(false, q, n, b, ldb)
				want := make([]float64, n)
				DgemmPacked(false, 1, alpha, a, q, &pb, 0, want, n)
				AddDiv(want, x, d, c)
				y := make([]float64, n+2)
				y[n], y[n+1] = outCanary, outCanary
				DotsAddDiv(y[:n], x, d, a, b, ldb, alpha, c)
				for j := range n {
					if math.Float64bits(y[j]) != math.Float64bits(want[j]) {
						t.Fatalf("q=%d n=%d: y[%d] = %v, want %v", q, n, j, y[j], want[j])
					}
				}
				if y[n] != outCanary || y[n+1] != outCanary {
					t.Fatalf("q=%d n=%d: wrote past y", q, n)
				}
			}
		}
	})
}

func TestDotsAddDivPanics(t *testing.T) {
	y, x, d := make([]float64, 4), make([]float64, 4), make([]float64, 4)
	for name, f := range map[string]func(){
		"no depth":    func() { DotsAddDiv(y, x, d, nil, make([]float64, 4), 4, 1, 1) },
		"depth > 256": func() { DotsAddDiv(y, x, d, make([]float64, 257), make([]float64, 257*4), 4, 1, 1) },
		"ldb < n":     func() { DotsAddDiv(y, x, d, make([]float64, 2), make([]float64, 8), 3, 1, 1) },
		"b short":     func() { DotsAddDiv(y, x, d, make([]float64, 2), make([]float64, 7), 4, 1, 1) },
		"x short":     func() { DotsAddDiv(y, x[:3], d, make([]float64, 2), make([]float64, 8), 4, 1, 1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			f()
		})
	}
}
