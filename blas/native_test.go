package blas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// The tests below cross-check Native against gonum on the paths gonum's
// conformance suites reach only lightly: long vectors, every stride sign
// combination, sizes around the kernel's block edges, padded leading
// dimensions, and the blocked Dsyrk.

var ref gonum.Implementation

func randSlice(rnd *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 2*rnd.Float64() - 1
	}
	return s
}

// vecLen is the slice length a BLAS vector of n elements at stride inc needs.
func vecLen(n, inc int) int {
	if n == 0 {
		return 0
	}
	return (n-1)*abs(inc) + 1
}

// closeTo reports whether got and want agree to within tol relative to scale,
// counting two NaNs as equal.
func closeTo(got, want, tol, scale float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol*math.Max(1, scale)
}

// checkSlices fails t where got and want differ by more than tol·scale.
func checkSlices(t *testing.T, what string, got, want []float64, tol, scale float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !closeTo(got[i], want[i], tol, scale) {
			t.Errorf("%s: element %d = %v, want %v (diff %.3g)", what, i, got[i], want[i], got[i]-want[i])
			return
		}
	}
}

func TestNativeLevel1(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	var impl Native
	incs := []int{1, 2, 3, -1, -2}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 64, 65, 784, 1001} {
		for _, incX := range incs {
			for _, incY := range incs {
				name := fmt.Sprintf("n=%d,incX=%d,incY=%d", n, incX, incY)
				x := randSlice(rnd, vecLen(n, incX))
				y := randSlice(rnd, vecLen(n, incY))
				scale := float64(n)

				if got, want := impl.Ddot(n, x, incX, y, incY), ref.Ddot(n, x, incX, y, incY); !closeTo(got, want, 1e-14, scale) {
					t.Errorf("Ddot %s = %v, want %v", name, got, want)
				}

				y1 := append([]float64(nil), y...)
				y2 := append([]float64(nil), y...)
				impl.Daxpy(n, -0.75, x, incX, y1, incY)
				ref.Daxpy(n, -0.75, x, incX, y2, incY)
				checkSlices(t, "Daxpy "+name, y1, y2, 1e-15, 1)

				if incY != incs[0] {
					continue // the one-vector routines need only one pass over incX
				}
				x1 := append([]float64(nil), x...)
				x2 := append([]float64(nil), x...)
				impl.Dscal(n, 1.5, x1, incX)
				ref.Dscal(n, 1.5, x2, incX)
				checkSlices(t, "Dscal "+name, x1, x2, 0, 1)

				if got, want := impl.Dnrm2(n, x, incX), ref.Dnrm2(n, x, incX); !closeTo(got, want, 1e-14, want) {
					t.Errorf("Dnrm2 %s = %v, want %v", name, got, want)
				}
				if got, want := impl.Idamax(n, x, incX), ref.Idamax(n, x, incX); got != want {
					t.Errorf("Idamax %s = %d, want %d", name, got, want)
				}
			}
		}
	}
}

// TestNativeDscalZero checks that alpha == 0 writes zeros over NaN and Inf.
func TestNativeDscalZero(t *testing.T) {
	x := []float64{math.NaN(), math.Inf(1), 3, math.NaN(), -1}
	Native{}.Dscal(3, 0, x, 2)
	want := []float64{0, math.Inf(1), 0, math.NaN(), 0}
	checkSlices(t, "Dscal(alpha=0)", x, want, 0, 1)
}

func TestNativeDgemv(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var impl Native
	sizes := []int{0, 1, 3, 4, 17, 64, 65, 130}
	for _, tA := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
		for _, m := range sizes {
			for _, n := range sizes {
				for _, inc := range [][2]int{{1, 1}, {2, 3}, {-1, 1}, {1, -2}, {-2, -1}} {
					for _, ab := range [][2]float64{{1, 0}, {-0.5, 1}, {2, 0.25}, {0, 0.5}, {0, 1}} {
						incX, incY := inc[0], inc[1]
						alpha, beta := ab[0], ab[1]
						lenX, lenY := n, m
						if tA == gblas.Trans {
							lenX, lenY = m, n
						}
						lda := n + 3
						a := randSlice(rnd, max(0, (m-1)*lda+n))
						x := randSlice(rnd, vecLen(lenX, incX))
						y := randSlice(rnd, vecLen(lenY, incY))
						if beta == 0 && len(y) > 0 {
							y[0] = math.NaN() // must be overwritten
						}
						y1 := append([]float64(nil), y...)
						y2 := append([]float64(nil), y...)
						impl.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y1, incY)
						ref.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y2, incY)
						name := fmt.Sprintf("Dgemv tA=%c m=%d n=%d inc=%v alpha=%v beta=%v", tA, m, n, inc, alpha, beta)
						checkSlices(t, name, y1, y2, 1e-14, float64(lenX))
					}
				}
			}
		}
	}
}

func TestNativeDger(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 3))
	var impl Native
	sizes := []int{0, 1, 3, 4, 17, 64, 65}
	for _, m := range sizes {
		for _, n := range sizes {
			for _, inc := range [][2]int{{1, 1}, {2, 3}, {-1, 1}, {1, -2}, {-2, -1}} {
				incX, incY := inc[0], inc[1]
				lda := n + 2
				a := randSlice(rnd, max(0, (m-1)*lda+n))
				x := randSlice(rnd, vecLen(m, incX))
				y := randSlice(rnd, vecLen(n, incY))
				a1 := append([]float64(nil), a...)
				a2 := append([]float64(nil), a...)
				impl.Dger(m, n, 0.7, x, incX, y, incY, a1, lda)
				gerLoop(m, n, 0.7, x, incX, y, incY, a2, lda)
				checkSlices(t, fmt.Sprintf("Dger m=%d n=%d inc=%v", m, n, inc), a1, a2, 1e-15, 1)
			}
		}
	}
}

// gerLoop is the reference BLAS rank-one update, negative strides starting
// at the far end. (gonum v0.17.0's Dger ignores that start and reads outside
// x and y, so it cannot be the reference here.)
func gerLoop(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	kx, ky := 0, 0
	if incX < 0 {
		kx = (1 - m) * incX
	}
	if incY < 0 {
		ky = (1 - n) * incY
	}
	for i := range m {
		for j := range n {
			a[i*lda+j] += alpha * x[kx+i*incX] * y[ky+j*incY]
		}
	}
}

func TestNativeDgemm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 4))
	var impl Native
	sizes := []int{1, 2, 7, 63, 64, 65, 129}
	if testing.Short() {
		sizes = []int{1, 7, 64, 65}
	}
	trans := []gblas.Transpose{gblas.NoTrans, gblas.Trans}
	for _, tA := range trans {
		for _, tB := range trans {
			for _, m := range sizes {
				for _, n := range sizes {
					for _, k := range append([]int{0}, sizes...) {
						alpha, beta := 1.0, 0.0
						switch rnd.IntN(4) {
						case 1:
							alpha, beta = -0.5, 1
						case 2:
							alpha, beta = 2, 0.5
						case 3:
							alpha, beta = 0, 2
						}
						testDgemmOnce(t, rnd, impl, tA, tB, m, n, k, alpha, beta)
					}
				}
			}
		}
	}
	// A size large enough for the kernel to split over goroutines.
	testDgemmOnce(t, rnd, impl, gblas.NoTrans, gblas.Trans, 300, 257, 130, 1, 0)
	testDgemmOnce(t, rnd, impl, gblas.Trans, gblas.NoTrans, 257, 300, 131, -1, 1)
}

func testDgemmOnce(t *testing.T, rnd *rand.Rand, impl gblas.Float64, tA, tB gblas.Transpose, m, n, k int, alpha, beta float64) {
	t.Helper()
	ar, ac := m, k
	if tA == gblas.Trans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB == gblas.Trans {
		br, bc = n, k
	}
	lda, ldb, ldc := ac+1, bc+2, n+3
	a := randSlice(rnd, max(0, (ar-1)*lda+ac))
	b := randSlice(rnd, max(0, (br-1)*ldb+bc))
	c := randSlice(rnd, (m-1)*ldc+n)
	if beta == 0 {
		c[0] = math.NaN() // must be overwritten
	}
	c1 := append([]float64(nil), c...)
	c2 := append([]float64(nil), c...)
	impl.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c1, ldc)
	ref.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c2, ldc)
	name := fmt.Sprintf("Dgemm tA=%c tB=%c m=%d n=%d k=%d alpha=%v beta=%v", tA, tB, m, n, k, alpha, beta)
	checkSlices(t, name, c1, c2, 1e-14, float64(k))
}

func TestNativeDsyrk(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 5))
	var impl Native
	ns := []int{1, 5, 63, 64, 65, 150, 300}
	ks := []int{0, 1, 37, 70}
	if testing.Short() {
		ns = []int{1, 64, 65, 130}
		ks = []int{0, 37}
	}
	for _, ul := range []gblas.Uplo{gblas.Upper, gblas.Lower} {
		for _, tA := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
			for _, n := range ns {
				for _, k := range ks {
					for _, ab := range [][2]float64{{1, 0}, {-0.5, 1}, {2, 0.5}, {0, 3}} {
						alpha, beta := ab[0], ab[1]
						row, col := n, k
						if tA == gblas.Trans {
							row, col = k, n
						}
						lda, ldc := col+2, n+1
						a := randSlice(rnd, max(0, (row-1)*lda+col))
						c := randSlice(rnd, (n-1)*ldc+n)
						if beta == 0 {
							c[0] = math.NaN()
						}
						c1 := append([]float64(nil), c...)
						impl.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, c1, ldc)
						// The reference is the full product by gonum's Dgemm
						// (gonum's own Dsyrk lets a NaN in C through when
						// beta == 0 in one of its branches).
						c2 := append([]float64(nil), c...)
						if tA == gblas.NoTrans {
							ref.Dgemm(gblas.NoTrans, gblas.Trans, n, n, k, alpha, a, lda, a, lda, beta, c2, ldc)
						} else {
							ref.Dgemm(gblas.Trans, gblas.NoTrans, n, n, k, alpha, a, lda, a, lda, beta, c2, ldc)
						}
						// Outside the triangle (the other triangle and the
						// padding) C must be untouched.
						for i := 0; i < n; i++ {
							for j := 0; j < ldc && i*ldc+j < len(c); j++ {
								inTri := j < n && ((ul == gblas.Upper && j >= i) || (ul == gblas.Lower && j <= i))
								if !inTri {
									if c1[i*ldc+j] != c[i*ldc+j] && !(math.IsNaN(c1[i*ldc+j]) && math.IsNaN(c[i*ldc+j])) {
										t.Fatalf("Dsyrk ul=%c tA=%c n=%d k=%d: wrote outside the triangle at (%d,%d)", ul, tA, n, k, i, j)
									}
									c2[i*ldc+j] = c[i*ldc+j]
								}
							}
						}
						name := fmt.Sprintf("Dsyrk ul=%c tA=%c n=%d k=%d alpha=%v beta=%v", ul, tA, n, k, alpha, beta)
						checkSlices(t, name, c1, c2, 1e-14, float64(k))
					}
				}
			}
		}
	}
}

// TestNativePanics checks that Native rejects bad arguments with exactly
// gonum's panic messages.
func TestNativePanics(t *testing.T) {
	var impl Native
	x := make([]float64, 10)
	y := make([]float64, 10)
	a := make([]float64, 100)
	type call func(gblas.Float64)
	cases := map[string]call{
		"Ddot incX=0":     func(b gblas.Float64) { b.Ddot(3, x, 0, y, 1) },
		"Ddot incY=0":     func(b gblas.Float64) { b.Ddot(3, x, 1, y, 0) },
		"Ddot n<0":        func(b gblas.Float64) { b.Ddot(-1, x, 1, y, 1) },
		"Ddot short x":    func(b gblas.Float64) { b.Ddot(11, x, 1, y, 1) },
		"Ddot short y":    func(b gblas.Float64) { b.Ddot(11, y, 1, make([]float64, 20), 1) },
		"Ddot short xinc": func(b gblas.Float64) { b.Ddot(4, x, -4, y, 1) },
		"Ddot short yinc": func(b gblas.Float64) { b.Ddot(4, x, 2, y, 4) },
		"Daxpy incX=0":    func(b gblas.Float64) { b.Daxpy(3, 1, x, 0, y, 1) },
		"Daxpy n<0":       func(b gblas.Float64) { b.Daxpy(-2, 1, x, 1, y, 1) },
		"Daxpy short x":   func(b gblas.Float64) { b.Daxpy(6, 1, x, 2, y, 1) },
		"Daxpy short y":   func(b gblas.Float64) { b.Daxpy(6, 1, x, 1, y, -2) },
		"Dscal incX=0":    func(b gblas.Float64) { b.Dscal(3, 1, x, 0) },
		"Dscal n<0":       func(b gblas.Float64) { b.Dscal(-1, 1, x, 1) },
		"Dscal short":     func(b gblas.Float64) { b.Dscal(11, 1, x, 1) },
		"Dnrm2 incX=0":    func(b gblas.Float64) { b.Dnrm2(3, x, 0) },
		"Dnrm2 short":     func(b gblas.Float64) { b.Dnrm2(6, x, 2) },
		"Dnrm2 n<0":       func(b gblas.Float64) { b.Dnrm2(-1, x, 1) },
		"Idamax incX=0":   func(b gblas.Float64) { b.Idamax(3, x, 0) },
		"Idamax short":    func(b gblas.Float64) { b.Idamax(11, x, 1) },
		"Idamax n<0":      func(b gblas.Float64) { b.Idamax(-1, x, 1) },
		"Dgemv tA":        func(b gblas.Float64) { b.Dgemv('X', 2, 2, 1, a, 2, x, 1, 0, y, 1) },
		"Dgemv m<0":       func(b gblas.Float64) { b.Dgemv(gblas.NoTrans, -1, 2, 1, a, 2, x, 1, 0, y, 1) },
		"Dgemv n<0":       func(b gblas.Float64) { b.Dgemv(gblas.NoTrans, 2, -1, 1, a, 2, x, 1, 0, y, 1) },
		"Dgemv lda":       func(b gblas.Float64) { b.Dgemv(gblas.NoTrans, 2, 3, 1, a, 2, x, 1, 0, y, 1) },
		"Dgemv incX=0":    func(b gblas.Float64) { b.Dgemv(gblas.NoTrans, 2, 2, 1, a, 2, x, 0, 0, y, 1) },
		"Dgemv incY=0":    func(b gblas.Float64) { b.Dgemv(gblas.NoTrans, 2, 2, 1, a, 2, x, 1, 0, y, 0) },
		"Dgemv short x":   func(b gblas.Float64) { b.Dgemv(gblas.NoTrans, 2, 11, 1, a, 11, x, 1, 0, y, 1) },
		"Dgemv short y":   func(b gblas.Float64) { b.Dgemv(gblas.Trans, 2, 11, 1, a, 11, x, 1, 0, y, 1) },
		"Dgemv short a":   func(b gblas.Float64) { b.Dgemv(gblas.NoTrans, 10, 10, 1, a, 11, x, 1, 0, y, 1) },
		"Dger m<0":        func(b gblas.Float64) { b.Dger(-1, 2, 1, x, 1, y, 1, a, 2) },
		"Dger lda":        func(b gblas.Float64) { b.Dger(2, 3, 1, x, 1, y, 1, a, 2) },
		"Dger incY=0":     func(b gblas.Float64) { b.Dger(2, 2, 1, x, 1, y, 0, a, 2) },
		"Dger short x":    func(b gblas.Float64) { b.Dger(6, 2, 1, x, 2, y, 1, a, 2) },
		"Dger short a":    func(b gblas.Float64) { b.Dger(10, 10, 1, x, 1, y, 1, a, 11) },
		"Dgemm tA":        func(b gblas.Float64) { b.Dgemm('X', gblas.NoTrans, 2, 2, 2, 1, a, 2, a, 2, 0, y, 2) },
		"Dgemm tB":        func(b gblas.Float64) { b.Dgemm(gblas.NoTrans, 'X', 2, 2, 2, 1, a, 2, a, 2, 0, y, 2) },
		"Dgemm k<0":       func(b gblas.Float64) { b.Dgemm(gblas.NoTrans, gblas.NoTrans, 2, 2, -1, 1, a, 2, a, 2, 0, y, 2) },
		"Dgemm lda":       func(b gblas.Float64) { b.Dgemm(gblas.Trans, gblas.NoTrans, 3, 2, 2, 1, a, 2, a, 2, 0, y, 2) },
		"Dgemm ldb":       func(b gblas.Float64) { b.Dgemm(gblas.NoTrans, gblas.Trans, 2, 2, 3, 1, a, 3, a, 2, 0, y, 2) },
		"Dgemm ldc":       func(b gblas.Float64) { b.Dgemm(gblas.NoTrans, gblas.NoTrans, 2, 3, 2, 1, a, 2, a, 3, 0, y, 2) },
		"Dgemm short a":   func(b gblas.Float64) { b.Dgemm(gblas.NoTrans, gblas.NoTrans, 2, 2, 60, 1, a, 60, a, 2, 0, y, 2) },
		"Dgemm short b":   func(b gblas.Float64) { b.Dgemm(gblas.NoTrans, gblas.NoTrans, 2, 2, 60, 1, a, 60, x, 2, 0, y, 2) },
		"Dgemm short c":   func(b gblas.Float64) { b.Dgemm(gblas.NoTrans, gblas.NoTrans, 4, 4, 2, 1, a, 2, a, 4, 0, y, 4) },
		"Dsyrk ul":        func(b gblas.Float64) { b.Dsyrk('X', gblas.NoTrans, 2, 2, 1, a, 2, 0, y, 2) },
		"Dsyrk tA":        func(b gblas.Float64) { b.Dsyrk(gblas.Upper, 'X', 2, 2, 1, a, 2, 0, y, 2) },
		"Dsyrk n<0":       func(b gblas.Float64) { b.Dsyrk(gblas.Upper, gblas.NoTrans, -1, 2, 1, a, 2, 0, y, 2) },
		"Dsyrk k<0":       func(b gblas.Float64) { b.Dsyrk(gblas.Upper, gblas.NoTrans, 2, -1, 1, a, 2, 0, y, 2) },
		"Dsyrk lda":       func(b gblas.Float64) { b.Dsyrk(gblas.Upper, gblas.Trans, 3, 2, 1, a, 2, 0, y, 3) },
		"Dsyrk ldc":       func(b gblas.Float64) { b.Dsyrk(gblas.Upper, gblas.NoTrans, 3, 2, 1, a, 2, 0, y, 2) },
		"Dsyrk short a":   func(b gblas.Float64) { b.Dsyrk(gblas.Lower, gblas.NoTrans, 3, 50, 1, a, 50, 0, y, 3) },
		"Dsyrk short c":   func(b gblas.Float64) { b.Dsyrk(gblas.Lower, gblas.NoTrans, 4, 2, 1, a, 2, 0, y, 4) },
	}
	for name, f := range cases {
		want := panicMsg(func() { f(ref) })
		if want == "" {
			t.Errorf("%s: gonum does not panic; the case is wrong", name)
			continue
		}
		if got := panicMsg(func() { f(impl) }); got != want {
			t.Errorf("%s: Native panics with %q, gonum with %q", name, got, want)
		}
	}
}

// panicMsg runs f and returns the message it panics with, or "".
func panicMsg(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// Native.Dsyrk (upper triangle of α·A·Aᵀ, β = 0) has the values of the
// kernel's DgemmPackedUpper on Aᵀ packed, bit for bit, on one thread or
// more: oddl builds the classifier's part of the stacked Gram matrix
// either way depending on the backend and relies on them agreeing.
func TestNativeDsyrkIsPackedUpper(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	for _, s := range []struct{ n, k int }{{1, 1}, {7, 10}, {65, 3}, {130, 10}, {300, 37}, {960, 10}} {
		for _, threads := range []int{1, 2} {
			impl := Native{}.WithThreads(threads).(Native)
			lda := s.k + 3
			a := randSlice(rnd, (s.n-1)*lda+s.k)
			want := make([]float64, s.n*s.n)
			got := make([]float64, s.n*s.n)
			impl.Dsyrk(gblas.Upper, gblas.NoTrans, s.n, s.k, 0.7, a, lda, 0, want, s.n)
			var pb PackedB
			impl.PackB(&pb, gblas.Trans, s.k, s.n, a, lda)
			impl.DgemmPackedUpper(gblas.NoTrans, 0.7, a, lda, &pb, 0, got, s.n)
			for i := range s.n {
				for j := i; j < s.n; j++ {
					if math.Float64bits(got[i*s.n+j]) != math.Float64bits(want[i*s.n+j]) {
						t.Fatalf("n=%d k=%d threads=%d: C[%d][%d] = %v packed, %v Dsyrk", s.n, s.k, threads, i, j, got[i*s.n+j], want[i*s.n+j])
					}
				}
			}
		}
	}
}
