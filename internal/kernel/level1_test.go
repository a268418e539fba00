package kernel

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// incPairs are the strides the Inc forms are tested with.
var incPairs = [][2]int{{1, 1}, {2, 3}, {3, 1}, {1, 2}}

func TestDot(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		for n := 0; n <= testN(); n++ {
			for off := 0; off < 4; off++ {
				x := newStrided(rng, n, 1, off, uniform)
				y := newStrided(rng, n, 1, (off+1)%4, uniform)
				got := DotUnitary(x.unit(), y.unit())
				want := dotGo(x.unit(), y.unit())
				if bound := dotBound(x.values(), y.values()); !closeEnough(got, want, bound, sumTol*float64(n)) {
					t.Fatalf("DotUnitary n=%d off=%d: got %v, want %v", n, off, got, want)
				}
				x.checkUnchanged(t, "DotUnitary x")
				y.checkUnchanged(t, "DotUnitary y")
			}
			for _, inc := range incPairs {
				off := n % 4
				x := newStrided(rng, n, inc[0], off, uniform)
				y := newStrided(rng, n, inc[1], 3-off, uniform)
				got := DotInc(x.buf, y.buf, n, inc[0], inc[1], x.start, y.start)
				want := dotIncGo(x.buf, y.buf, n, inc[0], inc[1], x.start, y.start)
				if bound := dotBound(x.values(), y.values()); !closeEnough(got, want, bound, sumTol*float64(n)) {
					t.Fatalf("DotInc n=%d inc=%v: got %v, want %v", n, inc, got, want)
				}
				x.checkUnchanged(t, "DotInc x")
				y.checkUnchanged(t, "DotInc y")
			}
		}
	})
}

// dotBound is Σ|x[i]*y[i]|, the scale of the rounding error of a dot.
func dotBound(x, y []float64) (b float64) {
	for i, v := range x {
		b += math.Abs(v * y[i])
	}
	return b
}

func TestDotSpecial(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	eachKernelPath(t, func(t *testing.T) {
		for _, n := range []int{1, 3, 4, 15, 16, 17, 33, 64, 100} {
			for _, c := range []struct {
				name   string
				xs, ys float64 // values at position k of x and y; all else 1
				want   func(float64) bool
			}{
				{"NaN", nan, 1, math.IsNaN},
				{"Inf", inf, 1, func(v float64) bool { return math.IsInf(v, 1) }},
				{"-Inf", -inf, 2, func(v float64) bool { return math.IsInf(v, -1) }},
				{"Inf*0", inf, 0, math.IsNaN},
			} {
				for _, k := range []int{0, n / 2, n - 1} {
					x, y := ones(n), ones(n)
					x[k], y[k] = c.xs, c.ys
					if got := DotUnitary(x, y); !c.want(got) {
						t.Errorf("DotUnitary %s n=%d at %d: got %v", c.name, n, k, got)
					}
					if got := DotInc(x, y, n, 1, 1, 0, 0); !c.want(got) {
						t.Errorf("DotInc %s n=%d at %d: got %v", c.name, n, k, got)
					}
				}
			}
			// Inf and -Inf in different lanes or partial sums still meet.
			x, y := ones(n), ones(n)
			if n >= 2 {
				x[0], x[n-1] = inf, -inf
				if got := DotUnitary(x, y); !math.IsNaN(got) {
					t.Errorf("DotUnitary Inf-Inf n=%d: got %v, want NaN", n, got)
				}
			}
		}
	})
}

func ones(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func TestAxpy(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(2, 2))
		for n := 0; n <= testN(); n++ {
			for _, alpha := range alphas {
				for off := 0; off < 4; off++ {
					x := newStrided(rng, n, 1, off, uniform)
					y := newStrided(rng, n, 1, (off+3)%4, uniform).output()
					want := y.clone()
					axpyGo(alpha, x.unit(), want.unit())
					AxpyUnitary(alpha, x.unit(), y.unit())
					checkAxpy(t, fmt.Sprintf("AxpyUnitary n=%d alpha=%v off=%d", n, alpha, off), alpha, x, y, want)
				}
				for _, inc := range incPairs {
					off := n % 4
					x := newStrided(rng, n, inc[0], off, uniform)
					y := newStrided(rng, n, inc[1], 3-off, uniform).output()
					want := y.clone()
					axpyIncGo(alpha, x.buf, want.buf, n, inc[0], inc[1], x.start, want.start)
					AxpyInc(alpha, x.buf, y.buf, n, inc[0], inc[1], x.start, y.start)
					checkAxpy(t, fmt.Sprintf("AxpyInc n=%d alpha=%v inc=%v", n, alpha, inc), alpha, x, y, want)
				}
			}
		}
	})
}

// checkAxpy compares y after y += alpha*x with the reference result want,
// element by element within fmaTol, and checks the guards.
func checkAxpy(t *testing.T, what string, alpha float64, x, y, want *strided) {
	t.Helper()
	x.checkUnchanged(t, what+" x")
	y.checkGuards(t, what+" y")
	for i := 0; i < y.n; i++ {
		bound := math.Abs(alpha*x.elem(i)) + math.Abs(y.orig[y.start+i*y.inc])
		if g, w := y.elem(i), want.elem(i); !closeEnough(g, w, bound, fmaTol) {
			t.Fatalf("%s: y[%d] = %v, want %v", what, i, g, w)
		}
	}
}

func TestScal(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 3))
		for n := 0; n <= testN(); n++ {
			for _, alpha := range append(alphas, math.NaN(), math.Inf(-1)) {
				for off := 0; off < 4; off++ {
					x := newStrided(rng, n, 1, off, uniform).output()
					want := x.clone()
					scalGo(alpha, want.unit())
					ScalUnitary(alpha, x.unit())
					checkExact(t, fmt.Sprintf("ScalUnitary n=%d alpha=%v off=%d", n, alpha, off), x, want)
				}
				for _, inc := range []int{1, 2, 3} {
					x := newStrided(rng, n, inc, n%4, uniform).output()
					want := x.clone()
					scalIncGo(alpha, want.from(), n, inc)
					ScalInc(alpha, x.from(), n, inc)
					checkExact(t, fmt.Sprintf("ScalInc n=%d alpha=%v inc=%d", n, alpha, inc), x, want)
				}
			}
		}
	})
}

// checkExact requires got to equal want bit for bit, guards included.
func checkExact(t *testing.T, what string, got, want *strided) {
	t.Helper()
	got.checkGuards(t, what)
	for i := range got.buf {
		if g, w := got.buf[i], want.buf[i]; math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
			t.Fatalf("%s: buffer index %d = %v, want %v", what, i, g, w)
		}
	}
}

func TestSumSqNrm2(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(4, 4))
		for n := 0; n <= testN(); n++ {
			for off := 0; off < 4; off++ {
				x := newStrided(rng, n, 1, off, uniform)
				v := x.unit()
				want := sumSqGo(v)
				if got := SumSqUnitary(v); !closeEnough(got, want, want, sumTol*float64(n)) {
					t.Fatalf("SumSqUnitary n=%d off=%d: got %v, want %v", n, off, got, want)
				}
				want = nrm2Ref(v)
				if got := Nrm2Unitary(v); !closeEnough(got, want, want, sumTol*float64(n+1)) {
					t.Fatalf("Nrm2Unitary n=%d off=%d: got %v, want %v", n, off, got, want)
				}
				x.checkUnchanged(t, "SumSq/Nrm2 x")
			}
			for _, inc := range []int{1, 2, 3} {
				x := newStrided(rng, n, inc, n%4, uniform)
				want := nrm2IncRef(x.from(), n, inc)
				if got := Nrm2Inc(x.from(), n, inc); !closeEnough(got, want, want, sumTol*float64(n+1)) {
					t.Fatalf("Nrm2Inc n=%d inc=%d: got %v, want %v", n, inc, got, want)
				}
				x.checkUnchanged(t, "Nrm2Inc x")
			}
		}
	})
}

func TestNrm2Scaling(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	fill := func(n int, v float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	with := func(s []float64, i int, v float64) []float64 { s[i] = v; return s }
	eachKernelPath(t, func(t *testing.T) {
		for _, n := range []int{1, 2, 5, 16, 37, 100, 1000} {
			r := math.Sqrt(float64(n))
			for _, c := range []struct {
				name string
				x    []float64
				want float64
			}{
				{"1e300", fill(n, 1e300), 1e300 * r},
				{"-1e300", fill(n, -1e300), 1e300 * r},
				{"1e-300", fill(n, 1e-300), 1e-300 * r},
				{"1e-160", fill(n, 1e-160), 1e-160 * r},
				{"subnormal", fill(n, 0x1p-1070), 0x1p-1070 * r},
				{"max", with(fill(n, 0), n-1, math.MaxFloat64), math.MaxFloat64},
				{"zeros", fill(n, 0), 0},
				{"-0", fill(n, math.Copysign(0, -1)), 0},
				{"Inf", with(fill(n, 1), n/2, -inf), inf},
				{"NaN", with(fill(n, 1), n-1, nan), nan},
				{"NaN+Inf", with(with(fill(n, 1), 0, inf), n-1, nan), nan},
			} {
				if c.name == "NaN+Inf" && n == 1 {
					continue
				}
				got := Nrm2Unitary(c.x)
				if !closeEnough(got, c.want, c.want, 1e-15*float64(n+1)) {
					t.Errorf("Nrm2Unitary %s n=%d: got %v, want %v", c.name, n, got, c.want)
				}
				sx := make([]float64, 2*n)
				for i, v := range c.x {
					sx[2*i] = v
				}
				if got := Nrm2Inc(sx, n, 2); !closeEnough(got, c.want, c.want, 1e-15*float64(n+1)) {
					t.Errorf("Nrm2Inc %s n=%d: got %v, want %v", c.name, n, got, c.want)
				}
			}
		}
	})
	if got := Nrm2Unitary(nil); got != 0 {
		t.Errorf("Nrm2Unitary(nil) = %v", got)
	}
	// A huge and a tiny element together: the tiny one vanishes in the sum,
	// which is right, and the huge one must not overflow.
	if got, want := Nrm2Unitary([]float64{1e300, 1e-300, 3e300, 4e300}), math.Sqrt(26)*1e300; math.Abs(got-want) > 1e-15*want {
		t.Errorf("Nrm2Unitary mixed: got %v, want %v", got, want)
	}
}

func TestIamax(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	// Few distinct values, so that ties are everywhere; a few NaNs and
	// infinities mixed in.
	gens := map[string]func(*rand.Rand) float64{
		"ties":    func(r *rand.Rand) float64 { return float64(r.IntN(11) - 5) },
		"uniform": uniform,
		"nan": func(r *rand.Rand) float64 {
			if r.IntN(8) == 0 {
				return nan
			}
			return float64(r.IntN(7) - 3)
		},
		"inf": func(r *rand.Rand) float64 {
			switch r.IntN(16) {
			case 0:
				return inf
			case 1:
				return -inf
			case 2:
				return nan
			}
			return uniform(r)
		},
		"allnan": func(r *rand.Rand) float64 { return nan },
	}
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 5))
		for name, gen := range gens {
			for n := 0; n <= testN(); n++ {
				for off := 0; off < 4; off++ {
					x := newStrided(rng, n, 1, off, gen)
					if name == "nan" && off == 1 && n > 0 {
						x.buf[x.start] = 0 // NaNs after a first element that is not
						x.orig[x.start] = 0
					}
					v := x.unit()
					if got, want := IamaxUnitary(v), iamaxGo(v); got != want {
						t.Fatalf("IamaxUnitary %s n=%d off=%d: got %d, want %d (x = %v)", name, n, off, got, want, v)
					}
					x.checkUnchanged(t, "IamaxUnitary x")
				}
				for _, inc := range []int{1, 2, 3} {
					x := newStrided(rng, n, inc, n%4, gen)
					if got, want := IamaxInc(x.from(), n, inc), iamaxIncGo(x.from(), n, inc); got != want {
						t.Fatalf("IamaxInc %s n=%d inc=%d: got %d, want %d (x = %v)", name, n, inc, got, want, x.values())
					}
				}
			}
		}
		// The maximum at every position, and a tie with the maximum after it.
		for n := 1; n <= 70; n++ {
			for k := 0; k < n; k++ {
				x := make([]float64, n)
				x[k] = -2
				if k+1 < n {
					x[n-1] = 2
				}
				if got := IamaxUnitary(x); got != k {
					t.Fatalf("IamaxUnitary n=%d max at %d: got %d", n, k, got)
				}
			}
		}
	})
	if got := IamaxUnitary(nil); got != -1 {
		t.Errorf("IamaxUnitary(nil) = %d, want -1", got)
	}
	if got := IamaxInc(nil, 0, 2); got != -1 {
		t.Errorf("IamaxInc(nil, 0, 2) = %d, want -1", got)
	}
}

// TestNrm2Exact compares Nrm2 with the exactly rounded norm (math/big) on
// vectors whose magnitudes sit near the overflow or underflow threshold or
// spread over the whole exponent range: the unscaled fast path must hand
// over to the scaled one in all of these, and lose nothing.
func TestNrm2Exact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	exact := func(x []float64) float64 {
		sum := new(big.Float).SetPrec(4096)
		for _, v := range x {
			b := new(big.Float).SetPrec(4096).SetFloat64(v)
			sum.Add(sum, b.Mul(b, b))
		}
		r, _ := new(big.Float).SetPrec(4096).Sqrt(sum).Float64()
		return r
	}
	kinds := map[string]func() float64{
		"huge":   func() float64 { return uniform(rng) * 1e300 },
		"tiny":   func() float64 { return uniform(rng) * 1e-300 },
		"1e-160": func() float64 { return uniform(rng) * 1e-160 },
		"subnormal": func() float64 {
			return uniform(rng) * 0x1p-1060
		},
		"spread": func() float64 { return uniform(rng) * math.Ldexp(1, rng.IntN(2000)-1000) },
	}
	eachKernelPath(t, func(t *testing.T) {
		for name, gen := range kinds {
			for _, n := range []int{1, 2, 7, 16, 33, 100, 513} {
				x := make([]float64, n)
				for i := range x {
					x[i] = gen()
				}
				want := exact(x)
				// A few ulps of rounding in n squares and sums, relative
				// to the result; subnormal results are exact to 2⁻¹⁰⁷⁴.
				tol := float64(n+2) * 0x1p-52 * want
				if got := Nrm2Unitary(x); math.Abs(got-want) > tol+0x1p-1074 {
					t.Errorf("Nrm2Unitary %s n=%d: got %v, want %v (diff %v ulps)", name, n, got, want, (got-want)/(want*0x1p-52))
				}
				if got := nrm2Scaled(x, n, 1); math.Abs(got-want) > tol+0x1p-1074 {
					t.Errorf("nrm2Scaled %s n=%d: got %v, want %v", name, n, got, want)
				}
			}
		}
	})
}

// TestPrefetch asks for slices at every alignment and of short and long
// lengths, the empty one included: a hint that must not change a value.
func TestPrefetch(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		x := make([]float64, 300)
		for i := range x {
			x[i] = float64(i) + 0.5
		}
		want := append([]float64(nil), x...)
		for off := range 9 {
			for _, n := range []int{0, 1, 7, 8, 9, 64, 120, 291 - off} {
				Prefetch(x[off : off+n])
			}
		}
		for i := range x {
			if x[i] != want[i] {
				t.Fatalf("x[%d] = %v after Prefetch, want %v", i, x[i], want[i])
			}
		}
	})
}
