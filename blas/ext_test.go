package blas

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
)

// The packed products of Native give its Dgemm's values bit for bit, for
// every transpose, at block edges, on every thread count, with padded
// strides, and leave everything outside C (and below the diagonal, for
// the upper product, up to what the tiles reach) as the caller's.
func TestNativePacked(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	shapes := []struct{ m, n, k int }{
		{1, 1, 1}, {3, 5, 4}, {7, 9, 129}, {63, 64, 65}, {130, 97, 300}, {200, 260, 513},
	}
	for _, s := range shapes {
		for _, tA := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
			for _, tB := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
				const pad = 3
				ar, ac := s.m, s.k
				if tA != gblas.NoTrans {
					ar, ac = s.k, s.m
				}
				br, bc := s.k, s.n
				if tB != gblas.NoTrans {
					br, bc = s.n, s.k
				}
				lda, ldb, ldc := ac+pad, bc+pad, s.n+pad
				a := randSlice(rnd, ar*lda)
				b := randSlice(rnd, br*ldb)
				c0 := randSlice(rnd, s.m*ldc)
				want := slices.Clone(c0)
				Native{}.Dgemm(tA, tB, s.m, s.n, s.k, 1.5, a, lda, b, ldb, 0.5, want, ldc)
				for _, th := range []int{0, 1, 2, 3} {
					impl := Native{}.WithThreads(th).(Native)
					var pb PackedB
					impl.PackB(&pb, tB, s.k, s.n, b, ldb)
					if k, n := pb.Dims(); k != s.k || n != s.n {
						t.Fatalf("PackB: dims %d×%d, want %d×%d", k, n, s.k, s.n)
					}
					got := slices.Clone(c0)
					impl.DgemmPacked(tA, s.m, 1.5, a, lda, &pb, 0.5, got, ldc)
					if tiny := s.m*s.n*s.k <= 128; !tiny && !sameBits(got, want) {
						t.Fatalf("%v tA=%c tB=%c threads=%d: DgemmPacked differs from Dgemm", s, tA, tB, th)
					} else if tiny && !sliceClose(got, want, 1e-12) {
						t.Fatalf("%v tA=%c tB=%c threads=%d: DgemmPacked far from Dgemm", s, tA, tB, th)
					}
				}
			}
		}
	}
}

func TestNativePackedUpper(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 1))
	for _, n := range []int{1, 5, 64, 65, 200} {
		for _, k := range []int{1, 7, 300} {
			const pad = 2
			ld := k + pad
			d := randSlice(rnd, n*ld)
			want := make([]float64, n*n)
			Native{}.Dgemm(gblas.NoTrans, gblas.Trans, n, n, k, 1, d, ld, d, ld, 0, want, n)
			for _, th := range []int{0, 1, 2} {
				impl := Native{}.WithThreads(th).(Native)
				var pb PackedB
				impl.PackB(&pb, gblas.Trans, k, n, d, ld)
				got := make([]float64, n*n)
				for i := range got {
					got[i] = math.NaN() // beta = 0 must not read C
				}
				impl.DgemmPackedUpper(gblas.NoTrans, 1, d, ld, &pb, 0, got, n)
				for i := range n {
					for j := i; j < n; j++ {
						g, w := got[i*n+j], want[i*n+j]
						if n*n*k > 128 && math.Float64bits(g) != math.Float64bits(w) || math.Abs(g-w) > 1e-12 {
							t.Fatalf("n=%d k=%d threads=%d: G[%d][%d] = %v, want %v", n, k, th, i, j, g, w)
						}
					}
				}
			}
		}
	}
}

func TestNativePackedPanics(t *testing.T) {
	var pb PackedB
	b := make([]float64, 12)
	Native{}.PackB(&pb, gblas.NoTrans, 3, 4, b, 4)
	for _, tc := range []struct {
		want string
		f    func()
	}{
		{badTranspose, func() { Native{}.PackB(&pb, 'x', 3, 4, b, 4) }},
		{kLT0, func() { Native{}.PackB(&pb, gblas.NoTrans, -1, 4, b, 4) }},
		{badLdB, func() { Native{}.PackB(&pb, gblas.NoTrans, 3, 4, b, 3) }},
		{shortB, func() { Native{}.PackB(&pb, gblas.NoTrans, 4, 4, b, 4) }},
		{badLdA, func() {
			Native{}.DgemmPacked(gblas.NoTrans, 2, 1, make([]float64, 6), 2, &pb, 0, make([]float64, 8), 4)
		}},
		{shortA, func() {
			Native{}.DgemmPacked(gblas.NoTrans, 2, 1, make([]float64, 5), 3, &pb, 0, make([]float64, 8), 4)
		}},
		{shortC, func() {
			Native{}.DgemmPacked(gblas.NoTrans, 2, 1, make([]float64, 6), 3, &pb, 0, make([]float64, 7), 4)
		}},
		{badTranspose, func() { Native{}.DgemmPackedUpper('x', 1, make([]float64, 12), 3, &pb, 0, make([]float64, 16), 4) }},
	} {
		func() {
			defer func() {
				if r := recover(); r != tc.want {
					t.Errorf("panic %v, want %q", r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

// Binding a value to a thread count changes neither its results nor any
// other value, and only Native offers the extra operations.
func TestCapabilities(t *testing.T) {
	for _, name := range Available() {
		impl, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		_, packed := impl.(PackedGEMM)
		_, upper := impl.(GramUpper)
		native := name == NativeName
		if packed != native || upper != native || RoundsAsKernel(impl) != native {
			t.Errorf("%s: PackedGEMM %v, GramUpper %v, RoundsAsKernel %v", name, packed, upper, RoundsAsKernel(impl))
		}
	}
	one := Native{}.WithThreads(1)
	if one.Threads() != 1 || (Native{}).threads != 0 {
		t.Errorf("WithThreads(1) gave %d threads", one.Threads())
	}
	if got := one.WithThreads(-4).Threads(); got < 1 {
		t.Errorf("WithThreads(-4).Threads() = %d", got)
	}
}

func sameBits(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

func sliceClose(a, b []float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*(1+math.Abs(b[i])) {
			return false
		}
	}
	return len(a) == len(b)
}
