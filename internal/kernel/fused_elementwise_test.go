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
		// out returns an output of n elements at offset off in a buffer
		// with guards of outCanary on both sides, and the buffer.
		const guard = 4
		out := func(n, off int) ([]float64, []float64) {
			buf := make([]float64, guard+off+n+guard)
			for i := range buf {
				buf[i] = outCanary
			}
			v := buf[guard+off : guard+off+n]
			copy(v, vec(n))
			return v, buf
		}
		check := func(name string, n, off int, buf, want []float64) {
			t.Helper()
			for i := range buf {
				if !same(buf[i], want[i]) {
					t.Fatalf("%s n=%d off=%d: buffer element %d (the vector starts at %d) = %v, want %v", name, n, off, i, guard+off, buf[i], want[i])
				}
			}
		}
		for n := 0; n <= testN(); n++ {
			off := n % 4
			x, d, w := vec(n + off)[off:], vec(n + off)[off:], vec(n)
			c := val()
			y, buf := out(n, off)
			want := append([]float64(nil), buf...)
			for i := range n {
				want[guard+off+i] = float64(y[i]+x[i]) / float64(c*d[i])
			}
			AddDiv(y, x, d, c)
			check("AddDiv", n, off, buf, want)
			a := vec(n)
			dst, buf := out(n, off)
			want = append([]float64(nil), buf...)
			for i := range n {
				want[guard+off+i] = float64(a[i]+float64(c*w[i])) / d[i]
			}
			AxpyDiv(dst, a, w, d, c)
			check("AxpyDiv", n, off, buf, want)
			b := val()
			dst, buf = out(n, off)
			want = append([]float64(nil), buf...)
			for i := range n {
				want[guard+off+i] = float64(c*x[i]) + float64(b*w[i])
			}
			Axpby(dst, x, w, c, b)
			check("Axpby", n, off, buf, want)
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
			for n := 1; n <= 101; n++ {
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
