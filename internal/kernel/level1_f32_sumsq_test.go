package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSsumSq holds SsumSqUnitary to the float64 sum of squares at every
// length and offset, on every path, with values whose squares leave
// float32's range (they must not overflow or underflow), and checks that
// Prefetch32 leaves its slice as it was.
func TestSsumSq(t *testing.T) {
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 32))
		for n := 0; n <= testN(); n++ {
			for _, scale := range []float64{1, 3e37, 1e-40} {
				for off := 0; off < 4; off++ {
					x := newStrided32(rng, n, 1, off)
					for i := range n {
						x.buf[x.start+i] = float32(float64(x.buf[x.start+i]) * scale)
					}
					x.orig = append(x.orig[:0], x.buf...)
					var want, abs float64
					for i := range n {
						v := float64(x.elem(i))
						want += v * v
						abs += v * v
					}
					got := SsumSqUnitary(x.unit())
					// Sums of n non-negative float64 terms in any order.
					if math.Abs(got-want) > float64(n+1)*0x1p-52*abs {
						t.Fatalf("SsumSqUnitary n=%d scale=%g off=%d: got %v, want %v", n, scale, off, got, want)
					}
					Prefetch32(x.unit())
					x.checkUnchanged(t, fmt.Sprintf("SsumSqUnitary, Prefetch32 n=%d", n))
				}
			}
		}
		nan := float32(math.NaN())
		for _, n := range []int{1, 5, 16, 17, 100} {
			x := ones32(n)
			x[n/2] = nan
			if got := SsumSqUnitary(x); !math.IsNaN(got) {
				t.Errorf("SsumSqUnitary NaN n=%d: got %v", n, got)
			}
			x[n/2] = float32(math.Inf(-1))
			if got := SsumSqUnitary(x); !math.IsInf(got, 1) {
				t.Errorf("SsumSqUnitary -Inf n=%d: got %v", n, got)
			}
		}
	})
}
