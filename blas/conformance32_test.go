package blas

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/oddl-go/oddl/internal/kernel"
)

// gonum's testblas has no single-precision suites, so the float32 routines
// that oddl uses — Sgemm, Sdot, Saxpy, Sscal — are checked here, against
// every backend compiled in: values against float64 references with the
// BLAS semantics of strides (negative ones start at the far end), the
// memory around every operand left alone, and bad arguments rejected with
// gonum's panic messages.

// canary32 fills the memory around an operand: a NaN with a payload.
var canary32 = math.Float32frombits(0x7fc0_beef)

func each32(t *testing.T, f func(t *testing.T, impl gblas.Float32)) {
	t.Logf("kernel path: %s; backends: %v", kernel.Name(), Available32())
	for _, name := range Available32() {
		impl, err := Lookup32(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { f(t, impl) })
	}
}

// mat32 returns a rows×cols matrix of row stride ld with canaries in the
// padding and 7 more after the last row.
func mat32(rng *rand.Rand, rows, cols, ld int) []float32 {
	s := make([]float32, max(rows*ld, 0)+7)
	for i := range s {
		s[i] = canary32
	}
	for i := range rows {
		for j := range cols {
			s[i*ld+j] = float32(2*rng.Float64() - 1)
		}
	}
	return s
}

func TestConformance32Sgemm(t *testing.T) {
	sizes := []int{0, 1, 2, 5, 6, 7, 15, 16, 17, 63, 64, 65}
	if testing.Short() {
		sizes = []int{0, 1, 6, 7, 16, 17, 65}
	}
	trans := []gblas.Transpose{gblas.NoTrans, gblas.Trans, gblas.ConjTrans}
	scalars := []float32{0, 1, -1, 0.7}
	each32(t, func(t *testing.T, impl gblas.Float32) {
		rng := rand.New(rand.NewPCG(1, 32))
		iter := 0
		for _, tA := range trans {
			for _, tB := range trans {
				for _, m := range sizes {
					for _, n := range sizes {
						for _, k := range []int{0, 1, 7, 16, 65, 300} {
							iter++
							if (m > 17 || n > 17) && iter%3 != 0 {
								continue // the larger shapes in part
							}
							checkSgemm(t, impl, rng, tA, tB, m, n, k, scalars[iter%4], scalars[(iter/4)%4], iter%3)
						}
					}
				}
			}
		}
	})
}

func checkSgemm(t *testing.T, impl gblas.Float32, rng *rand.Rand, tA, tB gblas.Transpose, m, n, k int, alpha, beta float32, pad int) {
	t.Helper()
	ar, ac := m, k
	if tA != gblas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != gblas.NoTrans {
		br, bc = n, k
	}
	lda, ldb, ldc := max(ac, 1)+pad, max(bc, 1)+pad, max(n, 1)+pad
	a, b, c := mat32(rng, ar, ac, lda), mat32(rng, br, bc, ldb), mat32(rng, m, n, ldc)
	a0, b0, c0 := slices.Clone(a), slices.Clone(b), slices.Clone(c)
	impl.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	name := fmt.Sprintf("Sgemm(%c, %c, m=%d, n=%d, k=%d, alpha=%v, beta=%v, pad=%d)", tA, tB, m, n, k, alpha, beta, pad)
	if !bitsEqual32(a, a0) || !bitsEqual32(b, b0) {
		t.Fatalf("%s: A or B modified", name)
	}
	tol := 2 * float64(k+2) * 0x1p-23
	for i, v := range c {
		r, col := i/ldc, i%ldc
		if r >= m || col >= n {
			if math.Float32bits(v) != math.Float32bits(c0[i]) {
				t.Fatalf("%s: wrote outside C at %d", name, i)
			}
			continue
		}
		var s, e float64
		for p := range k {
			ai, bi := r*lda+p, p*ldb+col
			if tA != gblas.NoTrans {
				ai = p*lda + r
			}
			if tB != gblas.NoTrans {
				bi = col*ldb + p
			}
			s += float64(a[ai]) * float64(b[bi])
			e += math.Abs(float64(a[ai]) * float64(b[bi]))
		}
		want, bound := float64(alpha)*s, math.Abs(float64(alpha))*e
		if beta != 0 {
			want += float64(beta) * float64(c0[i])
			bound += math.Abs(float64(beta) * float64(c0[i]))
		}
		if math.Abs(float64(v)-want) > tol*bound+0x1p-140 {
			t.Fatalf("%s: C[%d][%d] = %v, want %v", name, r, col, v, want)
		}
	}
}

func bitsEqual32(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}

// vec32 returns n elements at stride |inc| with canaries around and
// between them, and the index of each element in BLAS order: element i is
// at start + i*inc for inc > 0, at start + (n-1-i)*|inc| for inc < 0.
func vec32(rng *rand.Rand, n, inc int) (buf []float32, at func(i int) int) {
	s := abs(inc)
	buf = make([]float32, max((n-1)*s+1, 0))
	for i := range buf {
		buf[i] = canary32
	}
	at = func(i int) int {
		if inc < 0 {
			return (n - 1 - i) * s
		}
		return i * s
	}
	for i := range n {
		buf[at(i)] = float32(2*rng.Float64() - 1)
	}
	return buf, at
}

var incs32 = [][2]int{{1, 1}, {2, 3}, {-1, -1}, {-2, 3}, {1, -2}, {-3, -2}}

func TestConformance32Level1(t *testing.T) {
	each32(t, func(t *testing.T, impl gblas.Float32) {
		rng := rand.New(rand.NewPCG(2, 32))
		for n := 0; n <= 70; n++ {
			for _, inc := range incs32 {
				x, ax := vec32(rng, n, inc[0])
				y, ay := vec32(rng, n, inc[1])
				x0, y0 := slices.Clone(x), slices.Clone(y)
				name := fmt.Sprintf("n=%d inc=%v", n, inc)

				// Sdot.
				var want, bound float64
				for i := range n {
					p := float64(x[ax(i)]) * float64(y[ay(i)])
					want += p
					bound += math.Abs(p)
				}
				if got := impl.Sdot(n, x, inc[0], y, inc[1]); math.Abs(float64(got)-want) > 4*float64(n+1)*0x1p-24*bound+0x1p-140 {
					t.Fatalf("Sdot %s: got %v, want %v", name, got, want)
				}
				if !bitsEqual32(x, x0) || !bitsEqual32(y, y0) {
					t.Fatalf("Sdot %s: modified its operands", name)
				}

				// Saxpy.
				for _, alpha := range []float32{0, 1, -0.7} {
					yy := slices.Clone(y0)
					impl.Saxpy(n, alpha, x, inc[0], yy, inc[1])
					if !bitsEqual32(x, x0) {
						t.Fatalf("Saxpy %s: modified x", name)
					}
					for j := range yy {
						if math.Float32bits(y0[j]) == math.Float32bits(canary32) && math.Float32bits(yy[j]) != math.Float32bits(canary32) {
							t.Fatalf("Saxpy %s: wrote outside y at %d", name, j)
						}
					}
					for i := range n {
						w := float64(alpha)*float64(x[ax(i)]) + float64(y0[ay(i)])
						b := math.Abs(float64(alpha)*float64(x[ax(i)])) + math.Abs(float64(y0[ay(i)]))
						if got := float64(yy[ay(i)]); math.Abs(got-w) > 0x1p-22*b+0x1p-140 {
							t.Fatalf("Saxpy %s alpha=%v: y[%d] = %v, want %v", name, alpha, i, got, w)
						}
					}
				}

				// Snrm2: a negative increment gives 0, as in gonum.
				var ss float64
				for i := range n {
					ss += float64(x[ax(i)]) * float64(x[ax(i)])
				}
				wantNrm := math.Sqrt(ss)
				if inc[0] < 0 {
					wantNrm = 0
				}
				if got := impl.Snrm2(n, x, inc[0]); math.Abs(float64(got)-wantNrm) > 4*0x1p-24*wantNrm+0x1p-140 {
					t.Fatalf("Snrm2 %s: got %v, want %v", name, got, wantNrm)
				}

				// Isamax: the first largest |x|, -1 for a negative
				// increment, as in gonum; ties made likely.
				xi := slices.Clone(x0)
				for i := range n {
					xi[ax(i)] = float32(rng.IntN(7) - 3)
				}
				wantI := -1
				if inc[0] > 0 && n > 0 {
					wantI = 0
					for i := 1; i < n; i++ {
						if math.Abs(float64(xi[ax(i)])) > math.Abs(float64(xi[ax(wantI)])) {
							wantI = i
						}
					}
				}
				if got := impl.Isamax(n, xi, inc[0]); got != wantI {
					t.Fatalf("Isamax %s: got %d, want %d", name, got, wantI)
				}

				// Sscal: a negative increment does nothing, as in gonum.
				for _, alpha := range []float32{0, 1, -0.7} {
					xx := slices.Clone(x0)
					impl.Sscal(n, alpha, xx, inc[0])
					for j := range xx {
						want := x0[j]
						if inc[0] > 0 && j%inc[0] == 0 && j/inc[0] < n {
							want = alpha * x0[j]
							if alpha == 0 {
								want = 0 // zero, not 0·x: NaN and Inf do not survive
							}
						}
						if math.Float32bits(xx[j]) != math.Float32bits(want) {
							t.Fatalf("Sscal %s alpha=%v: x[%d] = %v, want %v", name, alpha, j, xx[j], want)
						}
					}
				}
			}
		}
	})
}

// TestConformance32Panics: every backend rejects bad arguments; native
// with gonum's messages, word for word.
func TestConformance32Panics(t *testing.T) {
	x, y := make([]float32, 10), make([]float32, 10)
	a := make([]float32, 12)
	cases := []struct {
		name string
		f    func(impl gblas.Float32)
	}{
		{"Sdot incX=0", func(impl gblas.Float32) { impl.Sdot(3, x, 0, y, 1) }},
		{"Sdot n<0", func(impl gblas.Float32) { impl.Sdot(-1, x, 1, y, 1) }},
		{"Sdot short x", func(impl gblas.Float32) { impl.Sdot(11, x, 1, y, 1) }},
		{"Sdot short y strided", func(impl gblas.Float32) { impl.Sdot(4, x, 1, y, -4) }},
		{"Saxpy incY=0", func(impl gblas.Float32) { impl.Saxpy(3, 1, x, 1, y, 0) }},
		{"Saxpy short x", func(impl gblas.Float32) { impl.Saxpy(6, 1, x, 2, y, 1) }},
		{"Snrm2 incX=0", func(impl gblas.Float32) { impl.Snrm2(3, x, 0) }},
		{"Snrm2 short x", func(impl gblas.Float32) { impl.Snrm2(4, x, 4) }},
		{"Isamax incX=0", func(impl gblas.Float32) { impl.Isamax(3, x, 0) }},
		{"Isamax short x", func(impl gblas.Float32) { impl.Isamax(4, x, 4) }},
		{"Sscal incX=0", func(impl gblas.Float32) { impl.Sscal(3, 1, x, 0) }},
		{"Sscal short x", func(impl gblas.Float32) { impl.Sscal(4, 1, x, 4) }},
		{"Sgemm bad trans", func(impl gblas.Float32) { impl.Sgemm('x', gblas.NoTrans, 2, 2, 2, 1, a, 2, a, 2, 0, a, 2) }},
		{"Sgemm m<0", func(impl gblas.Float32) { impl.Sgemm(gblas.NoTrans, gblas.NoTrans, -1, 2, 2, 1, a, 2, a, 2, 0, a, 2) }},
		{"Sgemm bad lda", func(impl gblas.Float32) { impl.Sgemm(gblas.NoTrans, gblas.NoTrans, 2, 2, 3, 1, a, 2, a, 2, 0, a, 2) }},
		{"Sgemm short a", func(impl gblas.Float32) { impl.Sgemm(gblas.NoTrans, gblas.NoTrans, 4, 2, 4, 1, a, 4, a, 2, 0, a, 2) }},
		{"Sgemm short c", func(impl gblas.Float32) { impl.Sgemm(gblas.NoTrans, gblas.Trans, 3, 4, 2, 1, a, 2, a, 2, 0, a, 5) }},
	}
	catch := func(f func()) (msg any) {
		defer func() { msg = recover() }()
		f()
		return nil
	}
	each32(t, func(t *testing.T, impl gblas.Float32) {
		for _, c := range cases {
			got := catch(func() { c.f(impl) })
			if got == nil {
				t.Errorf("%s: no panic", c.name)
				continue
			}
			if Name32(impl) == NativeName {
				if want := catch(func() { c.f(gonum.Implementation{}) }); got != want {
					t.Errorf("%s: panic %q, gonum's is %q", c.name, got, want)
				}
			}
		}
	})
}

// TestSelect32 checks the float32 selection: the same names and errors as
// the float64 one, and values that are the same backends.
func TestSelect32(t *testing.T) {
	for _, name := range Available32() {
		impl, err := Lookup32(name)
		if err != nil {
			t.Fatalf("Lookup32(%q): %v", name, err)
		}
		if got := Name32(impl); got != name {
			t.Errorf("Name32(Lookup32(%q)) = %q", name, got)
		}
	}
	if _, err := Lookup32("nosuch"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Lookup32(nosuch): %v, want ErrUnknown", err)
	}
	if !openblasCompiled {
		if _, err := Lookup32(OpenBLASName); !errors.Is(err, ErrNotCompiled) {
			t.Errorf("Lookup32(openblas) without the backend: %v, want ErrNotCompiled", err)
		}
	}
	t.Setenv(EnvVar, "")
	impl, name, err := Select32("")
	if err != nil || name != autoName() || Name32(impl) != name {
		t.Errorf("Select32(\"\") = %v, %q, %v; want the automatic choice %q", impl, name, err, autoName())
	}
	t.Setenv(EnvVar, GonumName)
	if impl, err := Default32(); err != nil || Name32(impl) != GonumName {
		t.Errorf("Default32 with %s=gonum: %v, %v", EnvVar, Name32(impl), err)
	}
	t.Setenv(EnvVar, "nosuch")
	if impl, err := Default32(); err == nil || impl != nil {
		t.Errorf("Default32 with %s=nosuch: %v, %v; want an error and no backend", EnvVar, impl, err)
	}
	// A thread count binds native's float32 routines as its float64 ones.
	n, _ := Lookup32(NativeName, WithThreads(3))
	if got := Threads32(n); got != 3 {
		t.Errorf("Threads32(native, WithThreads(3)) = %d", got)
	}
	if got := Threads32(OnThreads32(n, 1)); got != 1 {
		t.Errorf("Threads32(OnThreads32(native, 1)) = %d", got)
	}
}
