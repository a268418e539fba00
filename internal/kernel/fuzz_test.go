package kernel

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// The fuzz targets compare every assembly tier the CPU runs (AVX2, AVX-512),
// with every length sent to it, with the reference loops. Without any
// assembly they compare the Go path with the reference, which is trivially
// equal but keeps the targets runnable.

// forFuzzPaths runs f on every tier this machine runs, every length sent
// to its assembly; the tier is logged first, so that a failure names it,
// and so is each tier that cannot run here.
func forFuzzPaths(t *testing.T, f func()) {
	t.Helper()
	ran := false
	for _, p := range kernelPaths() {
		if !p.all {
			continue
		}
		if p.skip != "" {
			t.Log(p.skip)
			continue
		}
		t.Logf("tier %s, every length in assembly", p.name)
		withKernelPath(p, f)
		ran = true
	}
	if !ran {
		withKernelPath(kernelPath{name: TierGo}, f)
	}
}

// boundedFloats decodes two bytes per value into a float of modest size
// (|v| < 2¹⁸), or, when the first byte is 0xff, into one of the special
// values NaN, ±Inf, ±0 and the least subnormal. Sums and products of such
// values cannot overflow, so any two summation orders agree to sumTol.
func boundedFloats(data []byte) []float64 {
	v := make([]float64, len(data)/2)
	for i := range v {
		b0, b1 := data[2*i], data[2*i+1]
		if b0 == 0xff {
			v[i] = [...]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 0x1p-1074}[int(b1)%6]
			continue
		}
		v[i] = (float64(b0) - 127 + float64(b1)/256) * math.Ldexp(1, int(b1%16)-6)
	}
	return v
}

// rawFloats decodes eight bytes per value, any bit pattern: for the
// routines that must cope with every value (Nrm2, Iamax).
func rawFloats(data []byte) []float64 {
	v := make([]float64, len(data)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return v
}

// fromValues returns a generator that hands out vals in turn (cycling), or
// uniform draws when vals is empty.
func fromValues(vals []float64) func(*rand.Rand) float64 {
	k := 0
	return func(r *rand.Rand) float64 {
		if len(vals) == 0 {
			return uniform(r)
		}
		v := vals[k%len(vals)]
		k++
		return v
	}
}

func seedBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func FuzzDot(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{1, 2, 3, 4}, uint8(1))
	f.Add(seedBytes(66, 1), uint8(2))
	f.Add(seedBytes(130, 2), uint8(7))
	f.Add(append(seedBytes(40, 3), 0xff, 0, 0xff, 1), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, incs uint8) {
		vals := boundedFloats(data)
		n := len(vals) / 2
		x, y := vals[:n], vals[n:2*n]
		incX, incY := 1+int(incs%3), 1+int(incs/3%3)
		forFuzzPaths(t, func() {
			want := dotGo(x, y)
			if got := DotUnitary(x, y); !closeEnough(got, want, dotBound(x, y), sumTol*float64(n)) {
				t.Fatalf("DotUnitary(%v, %v) = %v, want %v", x, y, got, want)
			}
			ni := n / max(incX, incY)
			if ni > 0 {
				want := dotIncGo(x, y, ni, incX, incY, 0, 0)
				xs, ys := make([]float64, ni), make([]float64, ni)
				for i := range xs {
					xs[i], ys[i] = x[i*incX], y[i*incY]
				}
				if got := DotInc(x, y, ni, incX, incY, 0, 0); !closeEnough(got, want, dotBound(xs, ys), sumTol*float64(ni)) {
					t.Fatalf("DotInc(n=%d, incX=%d, incY=%d) = %v, want %v", ni, incX, incY, got, want)
				}
			}
			want = sumSqGo(vals)
			if got := SumSqUnitary(vals); !closeEnough(got, want, want, sumTol*float64(len(vals))) {
				t.Fatalf("SumSqUnitary(%v) = %v, want %v", vals, got, want)
			}
		})
	})
}

func FuzzNrm2(f *testing.F) {
	enc := func(v ...float64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return b
	}
	f.Add([]byte{})
	f.Add(enc(3, 4))
	f.Add(enc(1e300, 1e300, -1e300, 1e-300, 5))
	f.Add(enc(1e-300, 1e-310, 0x1p-1074, 0, 1e-200))
	f.Add(enc(math.MaxFloat64, math.MaxFloat64))
	f.Add(enc(1, math.Inf(-1), 2, math.NaN()))
	f.Add(seedBytes(8*37, 4))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := rawFloats(data)
		forFuzzPaths(t, func() {
			want := nrm2Ref(x)
			if got := Nrm2Unitary(x); !closeEnough(got, want, want, sumTol*float64(len(x)+1)) {
				t.Fatalf("Nrm2Unitary(%v) = %v, want %v", x, got, want)
			}
			if n := len(x) / 2; n > 0 {
				want := nrm2IncRef(x, n, 2)
				if got := Nrm2Inc(x, n, 2); !closeEnough(got, want, want, sumTol*float64(n+1)) {
					t.Fatalf("Nrm2Inc(%v, %d, 2) = %v, want %v", x, n, got, want)
				}
			}
		})
	})
}

func FuzzIamax(f *testing.F) {
	f.Add([]byte{}, uint8(1))
	f.Add(seedBytes(8*20, 5), uint8(1))
	f.Add(seedBytes(8*41, 6), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, inc uint8) {
		x := rawFloats(data)
		forFuzzPaths(t, func() {
			if got, want := IamaxUnitary(x), iamaxGo(x); got != want {
				t.Fatalf("IamaxUnitary(%v) = %d, want %d", x, got, want)
			}
			incX := 1 + int(inc%4)
			n := (len(x) + incX - 1) / incX
			if got, want := IamaxInc(x, n, incX), iamaxIncGo(x, n, incX); got != want {
				t.Fatalf("IamaxInc(%v, %d, %d) = %d, want %d", x, n, incX, got, want)
			}
		})
	})
}

func FuzzAxpy(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0))
	f.Add(seedBytes(70, 7), uint8(3), uint8(1))
	f.Add(append(seedBytes(34, 8), 0xff, 0, 0xff, 2), uint8(2), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, a, incs uint8) {
		vals := boundedFloats(data)
		n := len(vals) / 2
		alpha := alphas[a%4]
		incX, incY := 1+int(incs%3), 1+int(incs/3%3)
		forFuzzPaths(t, func() {
			rng := rand.New(rand.NewPCG(uint64(len(data)), 9))
			x := newStrided(rng, n, 1, int(a/4%4), fromValues(vals[:n]))
			y := newStrided(rng, n, 1, int(a/16%4), fromValues(vals[n:2*n])).output()
			want := y.clone()
			axpyGo(alpha, x.unit(), want.unit())
			AxpyUnitary(alpha, x.unit(), y.unit())
			checkAxpy(t, "AxpyUnitary", alpha, x, y, want)

			x = newStrided(rng, n/3, incX, 0, fromValues(vals))
			y = newStrided(rng, n/3, incY, 1, fromValues(vals[n:])).output()
			want = y.clone()
			axpyIncGo(alpha, x.buf, want.buf, n/3, incX, incY, x.start, want.start)
			AxpyInc(alpha, x.buf, y.buf, n/3, incX, incY, x.start, y.start)
			checkAxpy(t, "AxpyInc", alpha, x, y, want)

			s := newStrided(rng, len(vals), 1, int(a%4), fromValues(vals)).output()
			want = s.clone()
			scalGo(alpha, want.unit())
			ScalUnitary(alpha, s.unit())
			checkExact(t, "ScalUnitary", s, want)
		})
	})
}

func FuzzGemv(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0), uint8(0), uint8(0))
	f.Add(seedBytes(64, 10), uint8(5), uint8(19), uint8(1), uint8(0x5))
	f.Add(seedBytes(200, 11), uint8(8), uint8(33), uint8(2), uint8(0x32))
	f.Add(append(seedBytes(30, 12), 0xff, 0, 0xff, 1, 0xff, 2), uint8(4), uint8(16), uint8(0), uint8(0x11))
	f.Fuzz(func(t *testing.T, data []byte, m, n, shape, scalars uint8) {
		gen := fromValues(boundedFloats(data))
		c := gemvCase{
			m: int(m % 24), n: int(n % 40),
			pad: int(shape % 4), off: int(shape / 4 % 4),
			incX: 1 + int(shape/16%3), incY: 1 + int(shape/48%3),
			alpha: alphas[scalars%4], beta: alphas[scalars/4%4],
		}
		forFuzzPaths(t, func() {
			rng := rand.New(rand.NewPCG(uint64(len(data)), 13))
			for _, kind := range []string{"N", "T", "Ger"} {
				c.kind = kind
				c.run(t, rng, gen)
			}
		})
	})
}
