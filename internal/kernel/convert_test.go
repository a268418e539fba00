package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// convertValues returns n float64 values for the conversions: ordinary
// numbers of every scale, values halfway between two float32 (ties, which
// go to the even one), values past float32's range (which become ±Inf),
// float64 subnormals and float32-subnormal values, ±0, ±Inf and NaNs with
// payloads.
func convertValues(rng *rand.Rand, n int) []float64 {
	special := []float64{
		0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff8_0000_dead_beef), math.Float64frombits(0xfff4_0000_0000_0001),
		math.MaxFloat32, -math.MaxFloat32, 2 * math.MaxFloat32, math.MaxFloat64,
		math.SmallestNonzeroFloat64, 1e-40, -3e-45, 1e-46,
		1 + 0x1p-24, 1 + 0x3p-24, -(1 + 0x1p-24), 0x1.fffffffp127,
	}
	v := make([]float64, n)
	for i := range v {
		switch rng.IntN(4) {
		case 0:
			v[i] = special[rng.IntN(len(special))]
		case 1:
			// Exactly halfway between two float32: a float32 plus half
			// its last place.
			f := float64(float32(rng.NormFloat64()))
			v[i] = f + math.Abs(f)*0x1p-24
		default:
			v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(60)-30))
		}
	}
	return v
}

// guarded returns a slice of n elements at offset off of a buffer whose
// other elements (off before it, eight after) hold fill.
func guarded[T float32 | float64](n, off int, fill T) (buf, s []T) {
	buf = make([]T, n+off+8)
	for i := range buf {
		buf[i] = fill
	}
	return buf, buf[off : off+n]
}

// TestConvert holds the four conversions to Go's conversion of each value,
// bit for bit (NaN payloads included), on every kernel path, every length
// up to testN() and four offsets, and checks that nothing around the
// slices is written.
func TestConvert(t *testing.T) {
	const fill64, fill32 = 7.25, float32(-3.5)
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, 12))
		for n := 0; n <= testN(); n++ {
			for off := 0; off < 4; off++ {
				src := convertValues(rng, n)
				name := fmt.Sprintf("n=%d off=%d", n, off)

				b32, d32 := guarded(n, off, fill32)
				b64, s64 := guarded(n, off, fill64)
				copy(s64, src)
				Float64To32(d32, s64)
				checkBuf(t, "Float64To32 "+name, b32, off, n, fill32, func(i int) float32 { return float32(src[i]) })
				checkBuf(t, "Float64To32 source "+name, b64, off, n, fill64, func(i int) float64 { return src[i] })

				f32 := make([]float32, n)
				for i, v := range src {
					f32[i] = float32(v)
				}
				b64, d64 := guarded(n, off, fill64)
				Float32To64(d64, f32)
				checkBuf(t, "Float32To64 "+name, b64, off, n, fill64, func(i int) float64 { return float64(f32[i]) })

				b32, d32 = guarded(n, off, fill32)
				b64, s64 = guarded(n, off, fill64)
				copy(s64, src)
				Round32To(d32, s64)
				checkBuf(t, "Round32To "+name, b32, off, n, fill32, func(i int) float32 { return float32(src[i]) })
				checkBuf(t, "Round32To in place "+name, b64, off, n, fill64, func(i int) float64 { return float64(float32(src[i])) })

				b64, s64 = guarded(n, off, fill64)
				copy(s64, src)
				Round32(s64)
				checkBuf(t, "Round32 "+name, b64, off, n, fill64, func(i int) float64 { return float64(float32(src[i])) })
			}
		}
	})
}

// checkBuf fails unless buf holds want(i) at off+i for i < n and fill
// everywhere else, bit for bit.
func checkBuf[T float32 | float64](t *testing.T, name string, buf []T, off, n int, fill T, want func(int) T) {
	t.Helper()
	bits := func(v T) uint64 {
		if f, ok := any(v).(float32); ok {
			return uint64(math.Float32bits(f))
		}
		return math.Float64bits(float64(v))
	}
	for i, g := range buf {
		w := fill
		if i >= off && i < off+n {
			w = want(i - off)
		}
		if bits(g) != bits(w) {
			t.Fatalf("%s: element %d of the buffer is %v (%#x), want %v (%#x)", name, i-off, g, bits(g), w, bits(w))
		}
	}
}
