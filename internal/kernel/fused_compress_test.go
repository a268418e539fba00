package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// CompressNonzero lists exactly the elements that are not zero (NaN and
// infinities included, either sign of zero excluded), in order, for every
// length across the groups of four, and writes nothing past len(x).
func TestCompressNonzero(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 3))
		special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324}
		const guard = 3
		for n := 0; n <= testN(); n++ {
			for _, density := range []float64{0, 0.2, 0.5, 1} {
				off := int(density*3) % 4
				x := make([]float64, n+off)[off:]
				for i := range x {
					switch u := rng.Float64(); {
					case u < 0.1:
						x[i] = special[rng.IntN(len(special))]
					case u < 0.1+density:
						x[i] = rng.Float64() - 0.5
					}
				}
				var want []int
				for i, v := range x {
					if v != 0 || math.IsNaN(v) {
						want = append(want, i)
					}
				}
				idx := make([]int, n+guard)
				val := make([]float64, n+guard)
				for i := n; i < n+guard; i++ {
					idx[i], val[i] = -7, -7
				}
				c := CompressNonzero(x, idx[:n], val[:n])
				if c != len(want) {
					t.Fatalf("n=%d: count %d, want %d", n, c, len(want))
				}
				for m, i := range want {
					if idx[m] != i || math.Float64bits(val[m]) != math.Float64bits(x[i]) {
						t.Fatalf("n=%d: entry %d = (%d, %v), want (%d, %v)", n, m, idx[m], val[m], i, x[i])
					}
				}
				for i := n; i < n+guard; i++ {
					if idx[i] != -7 || val[i] != -7 {
						t.Fatalf("n=%d: wrote past len(x) at %d", n, i)
					}
				}
			}
		}
	})
	defer func() {
		if recover() == nil {
			t.Error("short idx: no panic")
		}
	}()
	CompressNonzero(make([]float64, 4), make([]int, 3), make([]float64, 4))
}

func BenchmarkCompressNonzero(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 960*128)
	for i := range x {
		if rng.Float64() < 0.2 {
			x[i] = rng.Float64()
		}
	}
	idx := make([]int, 128)
	val := make([]float64, 128)
	for b.Loop() {
		for r := 0; r < len(x); r += 128 {
			CompressNonzero(x[r:r+128], idx, val)
		}
	}
}
