package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The float32 level-1 routines against their Go forms, on every kernel
// path (the "-all" paths push every length through the assembly), at every
// length up to testN(), at four offsets, with canaries before, after and
// between the elements.

// withF32Thresholds runs f with the float32 thresholds at 1 when all is
// set (with the path's dispatch already in place).
func withF32Thresholds(all bool, f func()) {
	ts := []*int{&sdotAsmMin, &saxpyAsmMin, &sscalAsmMin, &ssumSqAsmMin, &isamaxAsmMin, &cvtAsmMin}
	saved := make([]int, len(ts))
	for i, t := range ts {
		saved[i] = *t
		if all {
			*t = 1
		}
	}
	defer func() {
		for i, t := range ts {
			*t = saved[i]
		}
	}()
	f()
}

// eachKernelPath32 is eachKernelPath with the float32 thresholds lowered
// on the "-all" paths.
func eachKernelPath32(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, p := range kernelPaths() {
		t.Run(p.name, func(t *testing.T) {
			if p.skip != "" {
				t.Skip(p.skip)
			}
			withKernelPath(p, func() { withF32Thresholds(p.all, func() { f(t) }) })
		})
	}
}

var (
	canary32    = math.Float32frombits(0x7fc0_cafe)
	outCanary32 = float32(1.5e30)
)

// strided32 is strided (level12_helpers_test.go) for float32.
type strided32 struct {
	buf, orig []float32
	start     int
	n, inc    int
	positions []bool
	guard     float32
}

func newStrided32(rng *rand.Rand, n, inc, off int) *strided32 {
	span := 0
	if n > 0 {
		span = (n-1)*inc + 1
	}
	s := &strided32{buf: make([]float32, guardLen+off+span+guardLen), start: guardLen + off, n: n, inc: inc, guard: canary32}
	s.positions = make([]bool, len(s.buf))
	for i := range s.buf {
		s.buf[i] = canary32
	}
	for i := 0; i < n; i++ {
		k := s.start + i*inc
		s.buf[k] = float32(2*rng.Float64() - 1)
		s.positions[k] = true
	}
	s.orig = append([]float32(nil), s.buf...)
	return s
}

func (s *strided32) output() *strided32 {
	s.guard = outCanary32
	for i := range s.buf {
		if !s.positions[i] {
			s.buf[i] = outCanary32
		}
	}
	s.orig = append(s.orig[:0], s.buf...)
	return s
}

func (s *strided32) unit() []float32 { return s.buf[s.start : s.start+s.n] }

func (s *strided32) elem(i int) float32 { return s.buf[s.start+i*s.inc] }

func (s *strided32) clone() *strided32 {
	c := *s
	c.buf = append([]float32(nil), s.buf...)
	return &c
}

func (s *strided32) checkUnchanged(t *testing.T, what string) {
	t.Helper()
	for i, v := range s.buf {
		if math.Float32bits(v) != math.Float32bits(s.orig[i]) {
			t.Fatalf("%s: input modified at buffer index %d: %v, was %v", what, i, v, s.orig[i])
		}
	}
}

func (s *strided32) checkGuards(t *testing.T, what string) {
	t.Helper()
	for i, v := range s.buf {
		if !s.positions[i] && math.Float32bits(v) != math.Float32bits(s.guard) {
			t.Fatalf("%s: wrote outside the vector at buffer index %d: %v", what, i, v)
		}
	}
}

// A float32 sum of n products in another order differs from the loop by at
// most about 2n·2⁻²⁴·Σ|terms| each; 2n·2⁻²³ allows twice that. An FMA
// against multiply-then-add differs by at most 3 units of 2⁻²⁴ of
// |alpha·x|+|y|.
func close32(got, want float32, bound, tol float64) bool {
	g, w := float64(got), float64(want)
	switch {
	case got == want:
		return true
	case math.IsNaN(w):
		return math.IsNaN(g)
	case math.IsInf(w, 0):
		return g == w
	}
	return math.Abs(g-w) <= tol*bound+0x1p-140
}

func TestSdot(t *testing.T) {
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		for n := 0; n <= testN(); n++ {
			tol := 4 * float64(n+1) * 0x1p-24
			for off := 0; off < 4; off++ {
				x := newStrided32(rng, n, 1, off)
				y := newStrided32(rng, n, 1, (off+1)%4)
				got := SdotUnitary(x.unit(), y.unit())
				want := sdotGo(x.unit(), y.unit())
				if b := sdotBound(x, y); !close32(got, want, b, tol) {
					t.Fatalf("SdotUnitary n=%d off=%d: got %v, want %v", n, off, got, want)
				}
				x.checkUnchanged(t, "SdotUnitary x")
				y.checkUnchanged(t, "SdotUnitary y")
			}
			for _, inc := range incPairs {
				off := n % 4
				x := newStrided32(rng, n, inc[0], off)
				y := newStrided32(rng, n, inc[1], 3-off)
				got := SdotInc(x.buf, y.buf, n, inc[0], inc[1], x.start, y.start)
				want := sdotIncGo(x.buf, y.buf, n, inc[0], inc[1], x.start, y.start)
				if b := sdotBound(x, y); !close32(got, want, b, tol) {
					t.Fatalf("SdotInc n=%d inc=%v: got %v, want %v", n, inc, got, want)
				}
				x.checkUnchanged(t, "SdotInc x")
				y.checkUnchanged(t, "SdotInc y")
			}
		}
		// NaN and Inf reach the sum from any lane and from the tail.
		nan, inf := float32(math.NaN()), float32(math.Inf(1))
		for _, n := range []int{1, 7, 8, 9, 31, 32, 33, 100} {
			for _, k := range []int{0, n / 2, n - 1} {
				x, y := ones32(n), ones32(n)
				x[k] = nan
				if got := SdotUnitary(x, y); !isNaN32(got) {
					t.Errorf("SdotUnitary NaN n=%d at %d: got %v", n, k, got)
				}
				x[k] = inf
				if got := SdotUnitary(x, y); !math.IsInf(float64(got), 1) {
					t.Errorf("SdotUnitary Inf n=%d at %d: got %v", n, k, got)
				}
			}
			if n >= 2 {
				x, y := ones32(n), ones32(n)
				x[0], x[n-1] = inf, -inf
				if got := SdotUnitary(x, y); !isNaN32(got) {
					t.Errorf("SdotUnitary Inf-Inf n=%d: got %v, want NaN", n, got)
				}
			}
		}
	})
}

func sdotBound(x, y *strided32) (b float64) {
	for i := range x.n {
		b += math.Abs(float64(x.elem(i)) * float64(y.elem(i)))
	}
	return b
}

func ones32(n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

var alphas32 = []float32{0, 1, -1, 0.7}

func TestSaxpy(t *testing.T) {
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(2, 2))
		for n := 0; n <= testN(); n++ {
			for _, alpha := range alphas32 {
				for off := 0; off < 4; off++ {
					x := newStrided32(rng, n, 1, off)
					y := newStrided32(rng, n, 1, (off+3)%4).output()
					want := y.clone()
					saxpyGo(alpha, x.unit(), want.unit())
					SaxpyUnitary(alpha, x.unit(), y.unit())
					checkSaxpy(t, fmt.Sprintf("SaxpyUnitary n=%d alpha=%v off=%d", n, alpha, off), alpha, x, y, want)
				}
				for _, inc := range incPairs {
					off := n % 4
					x := newStrided32(rng, n, inc[0], off)
					y := newStrided32(rng, n, inc[1], 3-off).output()
					want := y.clone()
					saxpyIncGo(alpha, x.buf, want.buf, n, inc[0], inc[1], x.start, want.start)
					SaxpyInc(alpha, x.buf, y.buf, n, inc[0], inc[1], x.start, y.start)
					checkSaxpy(t, fmt.Sprintf("SaxpyInc n=%d alpha=%v inc=%v", n, alpha, inc), alpha, x, y, want)
				}
			}
		}
	})
}

func checkSaxpy(t *testing.T, name string, alpha float32, x, y, want *strided32) {
	t.Helper()
	x.checkUnchanged(t, name+" x")
	y.checkGuards(t, name+" y")
	for i := range y.n {
		b := math.Abs(float64(alpha)*float64(x.elem(i))) + math.Abs(float64(want.orig[want.start+i*want.inc]))
		if g, w := y.elem(i), want.elem(i); !close32(g, w, b, 0x1p-22) {
			t.Fatalf("%s: y[%d] = %v, want %v", name, i, g, w)
		}
	}
}

// TestSscal: a product rounds once whichever way it is computed, so the
// assembly must match the Go form bit for bit.
func TestSscal(t *testing.T) {
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 3))
		for n := 0; n <= testN(); n++ {
			for _, alpha := range alphas32 {
				for off := 0; off < 4; off++ {
					x := newStrided32(rng, n, 1, off).output()
					want := x.clone()
					sscalGo(alpha, want.unit())
					SscalUnitary(alpha, x.unit())
					name := fmt.Sprintf("SscalUnitary n=%d alpha=%v off=%d", n, alpha, off)
					x.checkGuards(t, name)
					for i := range n {
						if g, w := x.elem(i), want.elem(i); math.Float32bits(g) != math.Float32bits(w) {
							t.Fatalf("%s: x[%d] = %v, want %v", name, i, g, w)
						}
					}
				}
				for _, inc := range []int{1, 2, 3} {
					x := newStrided32(rng, n, inc, n%4).output()
					want := x.clone()
					for i := range n {
						want.buf[want.start+i*inc] *= alpha
					}
					SscalInc(alpha, x.buf[x.start:], n, inc)
					name := fmt.Sprintf("SscalInc n=%d alpha=%v inc=%d", n, alpha, inc)
					x.checkGuards(t, name)
					for i := range n {
						if g, w := x.elem(i), want.elem(i); math.Float32bits(g) != math.Float32bits(w) {
							t.Fatalf("%s: x[%d] = %v, want %v", name, i, g, w)
						}
					}
				}
			}
		}
	})
}

// TestSnrm2 holds Snrm2Unitary and Snrm2Inc to nrm2Ref (the reference
// BLAS's scaled loop, in float64) within one unit in the last place of
// float32, on ordinary, huge and subnormal values, and checks NaN and Inf.
func TestSnrm2(t *testing.T) {
	scales := []float64{1, 3e37, 1e-40}
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(4, 4))
		for n := 0; n <= testN(); n++ {
			for _, scale := range scales {
				for off := 0; off < 4; off++ {
					x := newStrided32(rng, n, 1, off)
					for i := range n {
						x.buf[x.start+i] = float32(float64(x.buf[x.start+i]) * scale)
					}
					x.orig = append(x.orig[:0], x.buf...)
					checkSnrm2(t, fmt.Sprintf("Snrm2Unitary n=%d scale=%g off=%d", n, scale, off), Snrm2Unitary(x.unit()), x)
					x.checkUnchanged(t, "Snrm2Unitary x")
				}
				for _, inc := range []int{1, 2, 3} {
					x := newStrided32(rng, n, inc, n%4)
					for i := range n {
						x.buf[x.start+i*inc] = float32(float64(x.buf[x.start+i*inc]) * scale)
					}
					checkSnrm2(t, fmt.Sprintf("Snrm2Inc n=%d scale=%g inc=%d", n, scale, inc), Snrm2Inc(x.buf[x.start:], n, inc), x)
				}
			}
		}
		nan, inf := float32(math.NaN()), float32(math.Inf(1))
		for _, n := range []int{1, 3, 4, 5, 15, 16, 17, 100} {
			for _, k := range []int{0, n / 2, n - 1} {
				x := ones32(n)
				x[k] = nan
				if got := Snrm2Unitary(x); !isNaN32(got) {
					t.Errorf("Snrm2Unitary NaN n=%d at %d: got %v", n, k, got)
				}
				x[k] = -inf
				if got := Snrm2Unitary(x); !math.IsInf(float64(got), 1) {
					t.Errorf("Snrm2Unitary -Inf n=%d at %d: got %v", n, k, got)
				}
				if n > 1 {
					x[(k+1)%n] = nan
					if got := Snrm2Unitary(x); !isNaN32(got) {
						t.Errorf("Snrm2Unitary Inf and NaN n=%d: got %v, want NaN", n, got)
					}
				}
			}
		}
	})
}

func checkSnrm2(t *testing.T, name string, got float32, x *strided32) {
	t.Helper()
	v := make([]float64, x.n)
	for i := range v {
		v[i] = float64(x.elem(i))
	}
	want := nrm2Ref(v)
	// One unit in the last place; among float32's subnormals that unit is
	// 2⁻¹⁴⁹ whatever the value.
	if math.Abs(float64(got)-want) > max(0x1p-23*want, 0x1p-149) {
		t.Fatalf("%s: got %v, want %v", name, got, want)
	}
}

// isamaxGens are the values TestIsamax and TestSaxpyRows draw vectors
// from: random values, values with many ties, NaNs with infinities and
// signed zeros, and random values with a few NaNs.
var isamaxGens = func() []struct {
	name string
	f    func(rng *rand.Rand) float32
} {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	return []struct {
		name string
		f    func(rng *rand.Rand) float32
	}{
		{"uniform", func(rng *rand.Rand) float32 { return float32(2*rng.Float64() - 1) }},
		{"ties", func(rng *rand.Rand) float32 { return float32(rng.IntN(5) - 2) }},
		{"specials", func(rng *rand.Rand) float32 {
			return []float32{nan, inf, -inf, 0, float32(math.Copysign(0, -1)), 1, -1, 3e38}[rng.IntN(8)]
		}},
		{"sparse NaN", func(rng *rand.Rand) float32 {
			if rng.IntN(10) == 0 {
				return nan
			}
			return float32(2*rng.Float64() - 1)
		}},
	}
}()

// TestIsamax holds IsamaxUnitary and IsamaxInc to the Go loop exactly, on
// the vectors of isamaxGens (NaNs at x[0] and elsewhere).
func TestIsamax(t *testing.T) {
	gens := isamaxGens
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 5))
		for n := 0; n <= testN(); n++ {
			for _, g := range gens {
				for off := 0; off < 4; off++ {
					x := newStrided32(rng, n, 1, off)
					for i := range n {
						x.buf[x.start+i] = g.f(rng)
					}
					x.orig = append(x.orig[:0], x.buf...)
					got, want := IsamaxUnitary(x.unit()), isamaxGo(x.unit())
					if got != want {
						t.Fatalf("IsamaxUnitary %s n=%d off=%d: got %d, want %d (x = %v)", g.name, n, off, got, want, x.unit())
					}
					x.checkUnchanged(t, "IsamaxUnitary x")
				}
				for _, inc := range []int{1, 2, 3} {
					x := newStrided32(rng, n, inc, n%4)
					vals := make([]float32, n)
					for i := range n {
						vals[i] = g.f(rng)
						x.buf[x.start+i*inc] = vals[i]
					}
					if got, want := IsamaxInc(x.buf[x.start:], n, inc), isamaxGo(vals); got != want {
						t.Fatalf("IsamaxInc %s n=%d inc=%d: got %d, want %d", g.name, n, inc, got, want)
					}
				}
			}
		}
	})
}

// TestSaxpyRows holds SaxpyRows to one SaxpyUnitary a row, bit for bit,
// and SaxpyRowsIamax's values to the same and its index to the Go loop
// over the result, on every path, length and number of rows up to 6, with
// canaries around y. The rows and y are drawn from isamaxGens: ties (small
// integers, whose updates stay exact and tie), NaNs and infinities.
func TestSaxpyRows(t *testing.T) {
	eachKernelPath32(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(6, 6))
		for n := 0; n <= testN(); n++ {
			for rows := 0; rows <= 6; rows++ {
				gen := isamaxGens[(n+rows)%len(isamaxGens)]
				ld := n + rng.IntN(5)
				grows := 9
				g := make([]float32, grows*ld+n)
				for i := range g {
					g[i] = gen.f(rng)
				}
				idx := make([]int, rows)
				c := make([]float32, rows+1)
				for m := range idx {
					idx[m] = rng.IntN(grows + 1)
					c[m] = float32(rng.IntN(5) - 2)
					if gen.name == "uniform" {
						c[m] = float32(2*rng.Float64() - 1)
					}
				}
				y := newStrided32(rng, n, 1, rows%4)
				for i := range n {
					y.buf[y.start+i] = gen.f(rng)
				}
				y.output()
				want := y.clone()
				for m, r := range idx {
					SaxpyUnitary(c[m], g[r*ld:r*ld+n], want.unit())
				}
				for _, fused := range []bool{false, true} {
					y := y.clone()
					name := fmt.Sprintf("SaxpyRows n=%d rows=%d %s", n, rows, gen.name)
					got := -2
					if !fused {
						SaxpyRows(c, g, ld, idx, y.unit())
					} else {
						got = SaxpyRowsIamax(c, g, ld, idx, y.unit())
						name = "SaxpyRowsIamax" + name[len("SaxpyRows"):]
					}
					y.checkGuards(t, name)
					for i := range n {
						if a, b := y.elem(i), want.elem(i); math.Float32bits(a) != math.Float32bits(b) {
							t.Fatalf("%s: y[%d] = %v, want %v (one SaxpyUnitary a row)", name, i, a, b)
						}
					}
					if fused {
						w := -1
						if n > 0 {
							w = isamaxSkipNaN32Go(want.unit())
						}
						if got != w {
							t.Fatalf("%s: index %d, want %d (y = %v)", name, got, w, want.unit())
						}
					}
				}
			}
		}
		// NaNs are passed over, at y[0] too; all NaN gives 0.
		nan := float32(math.NaN())
		for _, n := range []int{1, 7, 8, 9, 40} {
			y := make([]float32, n)
			for i := range y {
				y[i] = nan
			}
			if got := SaxpyRowsIamax(nil, nil, 0, nil, y); got != 0 {
				t.Errorf("all NaN n=%d: got %d, want 0", n, got)
			}
			if n > 1 {
				y[n-1] = -2
				if got := SaxpyRowsIamax(nil, nil, 0, nil, y); got != n-1 {
					t.Errorf("NaN then -2 n=%d: got %d, want %d", n, got, n-1)
				}
			}
		}
		// A row outside g panics before anything is written.
		defer func() {
			if recover() == nil {
				t.Errorf("SaxpyRows with a row outside g did not panic")
			}
		}()
		SaxpyRows([]float32{1}, make([]float32, 40), 10, []int{4}, make([]float32, 10))
	})
}
