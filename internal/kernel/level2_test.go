package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// matrix is an m×n row-major matrix with leading dimension lda inside a
// canary-filled buffer: guards before and after, and the lda-n padding at
// the end of every row, must never be touched or read.
type matrix struct {
	buf       []float64
	start     int
	m, n, lda int
	orig      []float64
	guard     float64
	inside    []bool // inside[k]: buf[k] is an element of the matrix
}

func newMatrix(rng *rand.Rand, m, n, lda, off int, gen func(*rand.Rand) float64) *matrix {
	span := 0
	if m > 0 && n > 0 {
		span = (m-1)*lda + n
	}
	a := &matrix{buf: make([]float64, guardLen+off+span+guardLen), start: guardLen + off, m: m, n: n, lda: lda}
	a.inside = make([]bool, len(a.buf))
	a.guard = canary
	for i := range a.buf {
		a.buf[i] = canary
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			k := a.start + i*lda + j
			a.buf[k] = gen(rng)
			a.inside[k] = true
		}
	}
	a.orig = append([]float64(nil), a.buf...)
	return a
}

// data is the slice the routines get: from element (0,0) on.
func (a *matrix) data() []float64 { return a.buf[a.start:] }

func (a *matrix) at(i, j int) float64 { return a.buf[a.start+i*a.lda+j] }

// output switches the canaries to outCanary, for a matrix that is written.
func (a *matrix) output() *matrix {
	a.guard = outCanary
	for i := range a.buf {
		if !a.inside[i] {
			a.buf[i] = outCanary
		}
	}
	a.orig = append(a.orig[:0], a.buf...)
	return a
}

func (a *matrix) clone() *matrix {
	c := *a
	c.buf = append([]float64(nil), a.buf...)
	return &c
}

func (a *matrix) checkUnchanged(t *testing.T, what ...any) {
	t.Helper()
	for i, v := range a.buf {
		if math.Float64bits(v) != math.Float64bits(a.orig[i]) {
			t.Fatalf("%s: matrix modified at buffer index %d: %v, was %v", fmt.Sprint(what...), i, v, a.orig[i])
		}
	}
}

func (a *matrix) checkGuards(t *testing.T, what ...any) {
	t.Helper()
	for i, v := range a.buf {
		if !a.inside[i] && math.Float64bits(v) != math.Float64bits(a.guard) {
			t.Fatalf("%s: wrote outside the matrix (or into the row padding) at buffer index %d: %v", fmt.Sprint(what...), i, v)
		}
	}
}

// gemvShapes returns the (m, n) pairs to test: a full grid over the
// remainders of the unrolled loops (rows by 4, columns by 32, 16, 8 and 4)
// and a few larger shapes around block edges.
func gemvShapes() [][2]int {
	mMax, nMax := 9, 70
	if testing.Short() {
		mMax, nMax = 5, 20
	}
	var s [][2]int
	for m := 0; m <= mMax; m++ {
		for n := 0; n <= nMax; n++ {
			s = append(s, [2]int{m, n})
		}
	}
	return append(s, [2]int{63, 65}, [2]int{64, 64}, [2]int{65, 129}, [2]int{127, 33}, [2]int{13, 300}, [2]int{300, 7})
}

// gemvCase is one call of GemvN, GemvT or Ger on fresh operands.
type gemvCase struct {
	kind           string // "N", "T" or "Ger"
	m, n, pad, off int
	incX, incY     int
	alpha, beta    float64
}

func (c gemvCase) String() string {
	return fmt.Sprintf("%s m=%d n=%d lda=n+%d off=%d incX=%d incY=%d alpha=%v beta=%v", c.kind, c.m, c.n, c.pad, c.off, c.incX, c.incY, c.alpha, c.beta)
}

// lengths returns the lengths of x and y for the case.
func (c gemvCase) lengths() (lx, ly int) {
	if c.kind == "N" {
		return c.n, c.m
	}
	return c.m, c.n
}

// run makes the operands with gen, runs the exported routine and the
// reference on copies, and compares: element-wise within sumTol·n of the
// same computation on absolute values, NaN for NaN, Inf for Inf; inputs
// bit-identical; guards intact.
func (c gemvCase) run(t *testing.T, rng *rand.Rand, gen func(*rand.Rand) float64) {
	t.Helper()
	lx, ly := c.lengths()
	a := newMatrix(rng, c.m, c.n, c.n+c.pad, c.off, gen)
	x := newStrided(rng, lx, c.incX, (c.off+1)%4, gen)
	y := newStrided(rng, ly, c.incY, (c.off+2)%4, gen)
	if c.kind == "Ger" {
		a.output()
	} else {
		y.output()
	}
	ad, xd, yd := a.data(), x.from(), y.from()
	lda := a.lda
	switch c.kind {
	case "N", "T":
		want := y.clone()
		abs := func(s []float64) []float64 {
			r := make([]float64, len(s))
			for i, v := range s {
				r[i] = math.Abs(v)
			}
			return r
		}
		ref, f := gemvNGo, GemvN
		if c.kind == "T" {
			ref, f = gemvTGo, GemvT
		}
		ref(c.m, c.n, c.alpha, ad, lda, xd, c.incX, c.beta, want.from(), c.incY)
		// The error bound: the same product on absolute values.
		bound := abs(y.buf)
		ref(c.m, c.n, math.Abs(c.alpha), abs(ad), lda, abs(xd), c.incX, math.Abs(c.beta), bound[y.start:], c.incY)
		f(c.m, c.n, c.alpha, ad, lda, xd, c.incX, c.beta, yd, c.incY)
		a.checkUnchanged(t, c, " A")
		x.checkUnchanged(t, c, " x")
		y.checkGuards(t, c, " y")
		k := c.n
		if c.kind == "T" {
			k = c.m
		}
		for i := 0; i < ly; i++ {
			g, w := y.elem(i), want.elem(i)
			b := bound[y.start+i*c.incY]
			if !closeEnough(g, w, b, sumTol*float64(k+1)) {
				t.Fatalf("%v: y[%d] = %v, want %v", c, i, g, w)
			}
		}
	case "Ger":
		want := a.clone()
		gerGo(c.m, c.n, c.alpha, xd, c.incX, yd, c.incY, want.data(), lda)
		Ger(c.m, c.n, c.alpha, xd, c.incX, yd, c.incY, ad, lda)
		x.checkUnchanged(t, c, " x")
		y.checkUnchanged(t, c, " y")
		a.checkGuards(t, c, " A")
		for i := 0; i < c.m; i++ {
			for j := 0; j < c.n; j++ {
				g, w := a.at(i, j), want.at(i, j)
				b := math.Abs(c.alpha*x.elem(i)*y.elem(j)) + math.Abs(a.orig[a.start+i*lda+j])
				if !closeEnough(g, w, b, fmaTol) {
					t.Fatalf("%v: A[%d,%d] = %v, want %v", c, i, j, g, w)
				}
			}
		}
	}
}

func TestGemvGer(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(6, 6))
		for _, kind := range []string{"N", "T", "Ger"} {
			for _, s := range gemvShapes() {
				for _, pad := range []int{0, 3} {
					off := (s[0] + s[1] + pad) % 4
					// Every alpha and beta at unit stride; strided x and
					// y with one generic pair.
					for _, alpha := range alphas {
						for _, beta := range alphas {
							if kind == "Ger" && beta != 0 {
								continue
							}
							gemvCase{kind, s[0], s[1], pad, off, 1, 1, alpha, beta}.run(t, rng, uniform)
						}
					}
					for _, inc := range [][2]int{{2, 1}, {1, 3}, {3, 2}} {
						gemvCase{kind, s[0], s[1], pad, off, inc[0], inc[1], 0.7, -1}.run(t, rng, uniform)
					}
				}
			}
		}
	})
}

func TestGemvSpecial(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	eachKernelPath(t, func(t *testing.T) {
		for _, kind := range []string{"N", "T"} {
			f := GemvN
			if kind == "T" {
				f = GemvT
			}
			for _, s := range [][2]int{{1, 1}, {4, 16}, {5, 19}, {9, 37}, {33, 70}} {
				m, n := s[0], s[1]
				lx, ly := n, m
				if kind == "T" {
					lx, ly = m, n
				}
				a, x := ones(m*n), ones(lx)
				// beta == 0 overwrites NaN in y.
				y := make([]float64, ly)
				for i := range y {
					y[i] = nan
				}
				f(m, n, 1, a, n, x, 1, 0, y, 1)
				for i, v := range y {
					if v != float64(len(x)) {
						t.Fatalf("Gemv%s %dx%d beta=0: y[%d] = %v, want %v (NaN in y must not survive)", kind, m, n, i, v, float64(len(x)))
					}
				}
				// beta == 1 keeps it.
				for i := range y {
					y[i] = nan
				}
				f(m, n, 1, a, n, x, 1, 1, y, 1)
				for i, v := range y {
					if !math.IsNaN(v) {
						t.Fatalf("Gemv%s %dx%d beta=1: y[%d] = %v, want NaN", kind, m, n, i, v)
					}
				}
				// alpha == 0 skips A*x: NaN and Inf there do not reach y.
				a[len(a)-1], x[0] = nan, inf
				y = ones(ly)
				f(m, n, 0, a, n, x, 1, 2, y, 1)
				for i, v := range y {
					if v != 2 {
						t.Fatalf("Gemv%s %dx%d alpha=0: y[%d] = %v, want 2", kind, m, n, i, v)
					}
				}
				// alpha != 0: the NaN in the last element of A reaches the
				// last y; Inf·0 is NaN, not skipped.
				x[0] = 1
				y = ones(ly)
				f(m, n, 1, a, n, x, 1, 1, y, 1)
				if !math.IsNaN(y[ly-1]) {
					t.Fatalf("Gemv%s %dx%d: NaN in A did not propagate: y = %v", kind, m, n, y)
				}
				a[len(a)-1] = inf
				x = make([]float64, lx)
				y = ones(ly)
				f(m, n, 1, a, n, x, 1, 1, y, 1)
				if !math.IsNaN(y[ly-1]) {
					t.Fatalf("Gemv%s %dx%d: Inf*0 gave y = %v, want NaN last", kind, m, n, y)
				}
			}
		}
		// Ger: alpha == 0 leaves A, NaN in x reaches its row.
		a := ones(6 * 7)
		x, y := ones(6), ones(7)
		x[2] = nan
		Ger(6, 7, 0, x, 1, y, 1, a, 7)
		for i, v := range a {
			if v != 1 {
				t.Fatalf("Ger alpha=0: A[%d] = %v", i, v)
			}
		}
		Ger(6, 7, 1, x, 1, y, 1, a, 7)
		for i, v := range a {
			if math.IsNaN(v) != (i/7 == 2) {
				t.Fatalf("Ger NaN in x[2]: A[%d] = %v", i, v)
			}
		}
	})
}

// special draws mostly ordinary values with some NaN and ±Inf, for the
// propagation sweep.
func special(r *rand.Rand) float64 {
	switch r.IntN(40) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1)
	case 2:
		return math.Inf(-1)
	case 3:
		return 0
	}
	return uniform(r)
}

func TestGemvGerPropagation(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 7))
		for _, kind := range []string{"N", "T", "Ger"} {
			for _, s := range [][2]int{{3, 5}, {4, 16}, {7, 23}, {12, 40}} {
				for _, alpha := range alphas {
					for _, beta := range alphas {
						for rep := 0; rep < 4; rep++ {
							gemvCase{kind, s[0], s[1], 1, rep, 1, 1, alpha, beta}.run(t, rng, special)
							gemvCase{kind, s[0], s[1], 0, rep, 2, 3, alpha, beta}.run(t, rng, special)
						}
					}
				}
			}
		}
	})
}
