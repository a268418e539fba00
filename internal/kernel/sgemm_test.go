package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The tests of Sgemm, the float32 twin of gemm_test.go: every tier the CPU
// runs against a float64 triple loop, at every small shape around the
// micro-tile, around every blocking edge, with padded strides and canaries
// after the last row, on 1, 2 and 3 goroutines.

// sgemmCanary fills the padding of every matrix: a NaN with a payload no
// arithmetic produces, compared bit for bit.
var sgemmCanary = math.Float32frombits(0x7fc0_beef)

// sgemmMatrix returns a rows×cols matrix with row stride ld and gemmGuard
// canaries after the last row; elements are uniform in [-1, 1).
func sgemmMatrix(rng *rand.Rand, rows, cols, ld int) []float32 {
	s := make([]float32, rows*ld+gemmGuard)
	for i := range s {
		s[i] = sgemmCanary
	}
	for i := range rows {
		for j := range cols {
			s[i*ld+j] = float32(2*rng.Float64() - 1)
		}
	}
	return s
}

func sgemmCheckCanaries(t *testing.T, name string, s []float32, rows, cols, ld int) {
	t.Helper()
	bad := 0
	for i, v := range s {
		inside := i < rows*ld && i%ld < cols
		if !inside && math.Float32bits(v) != math.Float32bits(sgemmCanary) {
			if bad < 3 {
				t.Errorf("%s: padding element %d (row %d, col %d) overwritten with %v", name, i, i/ld, i%ld, v)
			}
			bad++
		}
	}
	if bad > 3 {
		t.Errorf("%s: %d padding elements overwritten in all", name, bad)
	}
}

type sgemmCase struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	pad            int
}

func (tc sgemmCase) String() string {
	return fmt.Sprintf("tA=%v,tB=%v,m=%d,n=%d,k=%d,alpha=%v,beta=%v,pad=%d",
		tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, tc.beta, tc.pad)
}

func (tc sgemmCase) operands(rng *rand.Rand) (a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ar, ac := tc.m, tc.k
	if tc.transA {
		ar, ac = tc.k, tc.m
	}
	br, bc := tc.k, tc.n
	if tc.transB {
		br, bc = tc.n, tc.k
	}
	lda, ldb, ldc = max(ac, 1)+tc.pad, max(bc, 1)+tc.pad, max(tc.n, 1)+tc.pad
	return sgemmMatrix(rng, ar, ac, lda), lda, sgemmMatrix(rng, br, bc, ldb), ldb, sgemmMatrix(rng, tc.m, tc.n, ldc), ldc
}

// sgemmRef returns alpha*op(A)*op(B) + beta*C computed in float64 (so
// nearly exact for float32 operands), and the bound |alpha|·|op(A)|·|op(B)|
// + |beta|·|C| of each element's rounding error; beta == 0 ignores C.
func sgemmRef(tc sgemmCase, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) (want, bound []float64) {
	want = make([]float64, len(c))
	bound = make([]float64, len(c))
	for i := range tc.m {
		for j := range tc.n {
			var s, e float64
			for p := range tc.k {
				ai, bi := i*lda+p, p*ldb+j
				if tc.transA {
					ai = p*lda + i
				}
				if tc.transB {
					bi = j*ldb + p
				}
				av, bv := a[ai], b[bi]
				s += float64(av) * float64(bv)
				e += math.Abs(float64(av) * float64(bv))
			}
			w, bd := float64(tc.alpha)*s, math.Abs(float64(tc.alpha))*e
			if tc.alpha == 0 {
				w, bd = 0, 0 // A and B unread
			}
			if tc.beta != 0 {
				w += float64(tc.beta) * float64(c[i*ldc+j])
				bd += math.Abs(float64(tc.beta) * float64(c[i*ldc+j]))
			}
			want[i*ldc+j], bound[i*ldc+j] = w, bd
		}
	}
	return want, bound
}

// sgemmCompare checks got against want within 2(k+2)·2⁻²³·bound, NaN for
// NaN and the same infinity for an infinity.
func sgemmCompare(t *testing.T, name string, got []float32, want, bound []float64, m, n, ldc, k int) {
	t.Helper()
	tol := 2 * float64(k+2) * 0x1p-23
	bad := 0
	for i := range m {
		for j := range n {
			g, w, e := float64(got[i*ldc+j]), want[i*ldc+j], bound[i*ldc+j]
			var ok bool
			switch {
			case math.IsNaN(w):
				ok = math.IsNaN(g)
			case math.IsInf(w, 0):
				ok = g == w
			default:
				ok = math.Abs(g-w) <= tol*e+0x1p-140
			}
			if !ok {
				if bad < 3 {
					t.Errorf("%s: C[%d][%d] = %v, want %v (bound %g)", name, i, j, g, w, tol*e)
				}
				bad++
			}
		}
	}
	if bad > 3 {
		t.Errorf("%s: %d elements wrong in all", name, bad)
	}
}

func math32bits(s []float32) []uint32 {
	r := make([]uint32, len(s))
	for i, v := range s {
		r[i] = math.Float32bits(v)
	}
	return r
}

// runSgemmCase checks Sgemm against sgemmRef on tc with random operands.
func runSgemmCase(t *testing.T, rng *rand.Rand, tc sgemmCase) {
	t.Helper()
	a, lda, b, ldb, c, ldc := tc.operands(rng)
	a0, b0 := slices.Clone(a), slices.Clone(b)
	want, bound := sgemmRef(tc, a, lda, b, ldb, c, ldc)
	Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
	name := tc.String()
	sgemmCompare(t, name, c, want, bound, tc.m, tc.n, ldc, tc.k)
	sgemmCheckCanaries(t, name+" C", c, tc.m, tc.n, ldc)
	if !slices.Equal(math32bits(a), math32bits(a0)) || !slices.Equal(math32bits(b), math32bits(b0)) {
		t.Errorf("%s: A or B modified", name)
	}
}

// withSgemmBlocking runs f with the blocking of every float32 tier set to
// mc, kc, nc (0 keeps a tier's own).
func withSgemmBlocking(mc, kc, nc int, f func()) {
	saved := sgemmTiers
	defer func() { sgemmTiers = saved }()
	for i := range sgemmTiers {
		t := &sgemmTiers[i]
		if mc > 0 {
			t.mc = mc
		}
		if kc > 0 {
			t.kc = kc
		}
		if nc > 0 {
			t.nc = nc
		}
	}
	f()
}

// The float32 GEMM of each tier: its own kernel, but for products narrow
// against the AVX-512 kernel's 48 columns, which the avx512 tier runs on
// the AVX2 kernel.
func TestSgemmTierSelected(t *testing.T) {
	eachGemmTier(t, func(t *testing.T) {
		for _, n := range []int{64, 960} {
			want := map[string]int{TierGo: sgemmKernelGoID, TierAVX2: sgemmKernelAVX2ID, TierAVX512: sgemmKernelAVX512ID}[Name()]
			if want == sgemmKernelAVX512ID && n == 64 {
				want = sgemmKernelAVX512NarrowID
			}
			if got := sgemmTierFor(n).kernel; got != want {
				t.Errorf("tier %s runs float32 kernel %d for n = %d, want %d", Name(), got, n, want)
			}
			var pb PackedB32
			pb.Pack(false, 3, n, make([]float32, 3*n), n)
			if got := pb.tier.kernel; got != want {
				t.Errorf("tier %s packs B for float32 kernel %d for n = %d, want %d", Name(), got, n, want)
			}
		}
	})
}

// TestSgemm512For checks the avx512 tier's rule between its kernels: the
// widest whose tiles compute at most 1.4 times the columns of 16-wide
// ones.
func TestSgemm512For(t *testing.T) {
	const w48, w32, w16 = sgemmKernelAVX512ID, sgemmKernelAVX512NarrowID, sgemmKernelAVX2ID
	for _, c := range []struct{ n, kern int }{
		{1, w16}, {15, w16}, {16, w16}, {17, w32}, {32, w32}, {33, w48}, {48, w48},
		{49, w32}, {63, w32}, {64, w32}, {65, w48}, {80, w48}, {96, w48}, {112, w48},
		{200, w48}, {300, w48}, {480, w48}, {960, w48}, {1000, w48},
	} {
		if got := sgemm512For(c.n); got != c.kern {
			t.Errorf("sgemm512For(%d) = kernel %d, want %d", c.n, got, c.kern)
		}
	}
}

// sgemm512Kernels are the kernels of the avx512 tier that the tests force
// in turn on every shape.
var sgemm512Kernels = []struct {
	name string
	kern int
}{{"6x48", sgemmKernelAVX512ID}, {"6x32", sgemmKernelAVX512NarrowID}}

// eachSgemmTier is eachGemmTier for the float32 tests: in the avx512 tier
// f runs once for each of its AVX-512 kernels, which every product then
// takes whatever its width, so that the tests reach each kernel's driver
// on their small shapes (the products of up to 16 columns of that tier run
// the AVX2 kernel, which the avx2 tier tests).
func eachSgemmTier(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	eachGemmTier(t, func(t *testing.T) {
		if Name() != TierAVX512 {
			f(t)
			return
		}
		for _, k := range sgemm512Kernels {
			t.Run(k.name, func(t *testing.T) {
				defer withSgemmForced(k.kern)()
				f(t)
			})
		}
	})
}

// withSgemmForced makes every product of the avx512 tier run on kernel
// kern, and returns the function that restores the rule.
func withSgemmForced(kern int) func() {
	saved := sgemmForce512
	sgemmForce512 = kern
	return func() { sgemmForce512 = saved }
}

// TestSgemmSmall runs every small shape around the 6×16 micro-tile, each
// transpose combination and the alpha/beta values 0, 1, -1, 0.7 in turn.
func TestSgemmSmall(t *testing.T) {
	sizes := []int{0, 1, 2, 3, 5, 6, 7, 8, 9, 12, 13, 15, 16, 17, 23, 31, 32, 33}
	if testing.Short() {
		sizes = []int{0, 1, 5, 6, 7, 13, 15, 16, 17, 33}
	}
	scalars := []float32{0, 1, -1, 0.7}
	eachSgemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		iter := 0
		for _, tr := range gemmTrans {
			for _, m := range sizes {
				for _, n := range sizes {
					for _, k := range sizes {
						iter++
						runSgemmCase(t, rng, sgemmCase{
							transA: tr[0], transB: tr[1], m: m, n: n, k: k,
							alpha: scalars[iter%4], beta: scalars[(iter/4)%4], pad: iter % 3,
						})
					}
				}
			}
		}
	})
}

// TestSgemmBlocking runs sizes around the default blocking, around small
// blocks set for the test (every loop of the driver takes several turns),
// and one more and one less than each of the tier's sizes.
func TestSgemmBlocking(t *testing.T) {
	type shape struct{ m, n, k int }
	defaults := []shape{
		{63, 64, 65}, {64, 65, 63}, {65, 63, 64}, {127, 129, 128},
		{289, 31, 257}, {287, 33, 255}, {150, 17, 513}, {13, 4097, 9},
	}
	small := []shape{
		{11, 31, 15}, {12, 32, 16}, {13, 33, 17}, {35, 47, 33}, {37, 49, 49}, {61, 73, 50},
	}
	eachSgemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 3))
		for i, s := range defaults {
			tr := gemmTrans[i%4]
			runSgemmCase(t, rng, sgemmCase{tr[0], tr[1], s.m, s.n, s.k, 0.7, -1, i % 2})
		}
		withSgemmBlocking(12, 16, 32, func() {
			for i, s := range small {
				for _, tr := range gemmTrans {
					runSgemmCase(t, rng, sgemmCase{tr[0], tr[1], s.m, s.n, s.k, -1, 0.7, i % 3})
				}
			}
		})
		g := sgemmTierFor(sgemmTiers[sgemmKernelAVX512ID].nr)
		edges := []shape{
			{g.mr - 1, g.nr + 1, 3}, {g.mr + 1, g.nr - 1, g.kc - 1}, {g.mr, g.nr, g.kc + 1},
			{g.mc - 1, g.nr + 1, 5}, {g.mc + 1, 2*g.nr - 1, g.kc + 1}, {g.mc, g.nr, g.kc},
			{3, g.nc + 1, 7}, {g.mr + 1, g.nc - 1, 2}, {2*g.mr - 1, g.nc, g.kc + 1},
		}
		for i, s := range edges {
			tr := gemmTrans[i%4]
			runSgemmCase(t, rng, sgemmCase{tr[0], tr[1], s.m, s.n, s.k, 0.7, -1, i % 2})
		}
	})
}

// TestSgemmSpecialValues checks reference-BLAS semantics for NaN and Inf:
// beta == 0 ignores C, alpha == 0 ignores A and B, and NaN or Inf in A or
// B reach exactly the elements of C they touch.
func TestSgemmSpecialValues(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	eachSgemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(4, 4))
		for _, tr := range gemmTrans {
			for _, sz := range [][3]int{{13, 19, 7}, {6, 16, 20}, {7, 33, 9}} {
				tc := sgemmCase{tr[0], tr[1], sz[0], sz[1], sz[2], 0.7, 0, 1}
				m, n, k := tc.m, tc.n, tc.k
				a, lda, b, ldb, c, ldc := tc.operands(rng)
				setA := func(i, p int, v float32) {
					if tc.transA {
						a[p*lda+i] = v
					} else {
						a[i*lda+p] = v
					}
				}
				setB := func(p, j int, v float32) {
					if tc.transB {
						b[j*ldb+p] = v
					} else {
						b[p*ldb+j] = v
					}
				}
				setA(m-1, k/2, nan)
				setA(0, 0, inf)
				setB(k-1, n-1, -inf)
				setB(1, 2, nan)
				for i := range m {
					for j := range n {
						c[i*ldc+j] = nan // beta == 0: must not leak
					}
				}
				run := func(name string, alpha, beta float32, c []float32) {
					tc := sgemmCase{tc.transA, tc.transB, m, n, k, alpha, beta, 1}
					want, bound := sgemmRef(tc, a, lda, b, ldb, c, ldc)
					Sgemm(tc.transA, tc.transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
					sgemmCompare(t, name+" "+tc.String(), c, want, bound, m, n, ldc, k)
					sgemmCheckCanaries(t, name+" C", c, m, n, ldc)
				}
				c2 := slices.Clone(c)
				run("beta=0 over NaN C", 0.7, 0, c)
				if !isNaN32(c[(m-1)*ldc+3]) || !isNaN32(c[5*ldc+2]) {
					t.Errorf("%v: NaN in A or B did not propagate", tc)
				}
				if v := c[1*ldc+0]; isNaN32(v) || math.IsInf(float64(v), 0) {
					t.Errorf("%v: C[1][0] = %v, want finite", tc, v)
				}
				for i := range m {
					for j := range n {
						c2[i*ldc+j] = float32(i - j)
					}
				}
				run("alpha=0", 0, -1, c2)
				if c2[1*ldc+3] != 2 {
					t.Errorf("%v: alpha=0: C[1][3] = %v, want 2", tc, c2[1*ldc+3])
				}
				run("alpha=0,beta=0", 0, 0, c2)
			}
		}
	})
}

func isNaN32(v float32) bool { return v != v }

// TestSgemmThreads checks that 1, 2 and 3 goroutines give bitwise equal
// results, with the tier's blocking and with small blocks.
func TestSgemmThreads(t *testing.T) {
	savedWork := gemmMinWork
	gemmMinWork = 1
	defer func() { gemmMinWork = savedWork }()
	defer setThreads(setThreads(1))
	shapes := [][3]int{{70, 90, 300}, {6, 200, 40}, {200, 16, 33}, {13, 7, 5}, {97, 101, 103}}
	eachSgemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 5))
		for i, s := range shapes {
			tr := gemmTrans[i%4]
			tc := sgemmCase{tr[0], tr[1], s[0], s[1], s[2], 0.7, -1, 2}
			a, lda, b, ldb, c, ldc := tc.operands(rng)
			for _, bl := range [][3]int{{0, 0, 0}, {12, 64, 32}} {
				withSgemmBlocking(bl[0], bl[1], bl[2], func() {
					var first []float32
					for _, th := range []int{1, 2, 3} {
						setThreads(th)
						got := slices.Clone(c)
						Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, got, ldc)
						sgemmCheckCanaries(t, tc.String(), got, tc.m, tc.n, ldc)
						if th == 1 {
							first = got
							want, bound := sgemmRef(tc, a, lda, b, ldb, c, ldc)
							sgemmCompare(t, tc.String(), got, want, bound, tc.m, tc.n, ldc, tc.k)
							continue
						}
						if !slices.Equal(math32bits(got), math32bits(first)) {
							t.Errorf("%v, blocking %v: %d goroutines differ from 1", tc, bl, th)
						}
					}
					// SgemmOn caps the goroutines whatever Threads says.
					got := slices.Clone(c)
					SgemmOn(2, tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, got, ldc)
					if !slices.Equal(math32bits(got), math32bits(first)) {
						t.Errorf("%v, blocking %v: SgemmOn(2) differs from 1 goroutine", tc, bl)
					}
				})
			}
		}
	})
}

// TestSgemmAllocs checks that steady-state calls allocate nothing, on one
// goroutine and on two.
func TestSgemmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	savedWork := gemmMinWork
	gemmMinWork = 1
	defer func() { gemmMinWork = savedWork }()
	rng := rand.New(rand.NewPCG(7, 7))
	tc := sgemmCase{false, false, 40, 50, 60, 1, 1, 0}
	a, lda, b, ldb, c, ldc := tc.operands(rng)
	for _, th := range []int{1, 2} {
		prev := setThreads(th)
		allocs := testing.AllocsPerRun(20, func() {
			Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
		})
		setThreads(prev)
		if allocs != 0 {
			t.Errorf("threads=%d: %v allocations per call, want 0", th, allocs)
		}
	}
	// A small packed product on one goroutine, with a partial row panel
	// (the patch front end's last chunk of a part).
	gemmMinWork = savedWork
	var pb PackedB32
	pb.Pack(true, 36, 64, sgemmMatrix(rng, 64, 36, 36), 36)
	xa, xc := sgemmMatrix(rng, 48, 36, 36), sgemmMatrix(rng, 48, 64, 64)
	for _, m := range []int{47, 48} {
		allocs := testing.AllocsPerRun(20, func() {
			SgemmPacked(false, m, 1, xa, 36, &pb, 0, xc, 64)
		})
		if allocs != 0 {
			t.Errorf("SgemmPacked m=%d: %v allocations per call, want 0", m, allocs)
		}
	}
}

// TestSgemmMicroKernels checks each float32 micro-kernel the CPU runs on
// its own against the definition, at depths around the loop's unrolling,
// with C inside a larger padded matrix.
func TestSgemmMicroKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, kern := range sgemmKernelsRun() {
		mr, nr := sgemmTiers[kern].mr, sgemmTiers[kern].nr
		ldc := nr + 5
		for k := 0; k <= 13; k++ {
			for _, ab := range [][2]float32{{1, 0}, {0.7, -1}, {-1, 0.5}} {
				a := sgemmMatrix(rng, 1, mr*k, mr*k)[:mr*k]
				b := sgemmMatrix(rng, 1, nr*k, nr*k)[:nr*k]
				c := sgemmMatrix(rng, mr, nr, ldc)
				if ab[1] == 0 {
					for i := range mr {
						for j := range nr {
							c[i*ldc+j] = float32(math.NaN())
						}
					}
				}
				want := make([]float64, len(c))
				bound := make([]float64, len(c))
				for i := range mr {
					for j := range nr {
						var s, e float64
						for p := range k {
							v := float64(a[p*mr+i]) * float64(b[p*nr+j])
							s += v
							e += math.Abs(v)
						}
						w := float64(ab[0]) * s
						bd := math.Abs(float64(ab[0])) * e
						if ab[1] != 0 {
							w += float64(ab[1]) * float64(c[i*ldc+j])
							bd += math.Abs(float64(ab[1]) * float64(c[i*ldc+j]))
						}
						want[i*ldc+j], bound[i*ldc+j] = w, bd
					}
				}
				sgemmMicro(kern, k, a, b, c[:(mr-1)*ldc+nr], ldc, ab[0], ab[1])
				name := fmt.Sprintf("kernel %d k=%d alpha,beta=%v", kern, k, ab)
				sgemmCompare(t, name, c, want, bound, mr, nr, ldc, k)
				sgemmCheckCanaries(t, name, c, mr, nr, ldc)
			}
		}
	}
}

// FuzzSgemm compares Sgemm with sgemmRef on small shapes drawn from the
// fuzz input, in every tier the CPU runs, with the tier's blocking and with
// small blocks.
func FuzzSgemm(f *testing.F) {
	f.Add(uint8(6), uint8(16), uint8(5), uint8(0), uint8(0), uint64(1))
	f.Add(uint8(13), uint8(33), uint8(3), uint8(3), uint8(7), uint64(2))
	f.Fuzz(func(t *testing.T, m, n, k, flags, pad uint8, seed uint64) {
		tc := sgemmCase{
			transA: flags&1 != 0, transB: flags&2 != 0,
			m: int(m % 70), n: int(n % 70), k: int(k % 70),
			alpha: []float32{1, -1, 0.7, 0}[(flags>>2)&3], beta: []float32{0, 1, -0.5, 2}[(flags>>4)&3],
			pad: int(pad % 5),
		}
		for _, tier := range gemmRunnable() {
			withGemmTier(tier, func() {
				kernels := []int{-1} // the rule
				if tier == TierAVX512 {
					kernels = kernels[:0]
					for _, k := range sgemm512Kernels {
						kernels = append(kernels, k.kern)
					}
				}
				for _, kern := range kernels {
					restore := withSgemmForced(kern)
					for _, bl := range [][3]int{{0, 0, 0}, {12, 8, 32}} {
						withSgemmBlocking(bl[0], bl[1], bl[2], func() {
							runSgemmCase(t, rand.New(rand.NewPCG(seed, 9)), tc)
						})
					}
					restore()
				}
			})
		}
	})
}

// TestSgemmPackPanelB checks the packing of full column panels of B by the
// assembly against the Go forms, bit for bit, for the 16-wide panels of
// the AVX2 kernel and the 48-wide ones of the AVX-512 kernel, at every
// depth up to 40 (the transposing form takes eight columns a step, the
// rest in Go), with padded strides and canaries after the panel.
func TestSgemmPackPanelB(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, nr := range []int{16, 32, 48} {
		for _, trans := range []bool{false, true} {
			for k := 0; k <= 40; k++ {
				for _, pad := range []int{0, 3, 16} {
					rows, cols := k, nr
					if trans {
						rows, cols = nr, k
					}
					ld := max(cols, 1) + pad
					src := sgemmMatrix(rng, rows, cols, ld)
					src0 := slices.Clone(src)
					want := sgemmMatrix(rng, 1, nr*k, nr*k)
					got := slices.Clone(want)
					n := max((rows-1)*ld+cols, 0)
					sgemmPackPanelB(false, trans, nr, k, src[:n], ld, want)
					sgemmPackPanelB(canAsm && !raceEnabled, trans, nr, k, src[:n], ld, got)
					name := fmt.Sprintf("nr=%d trans=%v k=%d pad=%d", nr, trans, k, pad)
					if !slices.Equal(math32bits(got), math32bits(want)) {
						t.Errorf("%s: the assembly packs differently from the Go form", name)
					}
					sgemmCheckCanaries(t, name, got, 1, nr*k, nr*k)
					if !slices.Equal(math32bits(src), math32bits(src0)) {
						t.Errorf("%s: source modified", name)
					}
					// The Go form is the definition.
					for p := range k {
						for j := range nr {
							i := p*ld + j
							if trans {
								i = j*ld + p
							}
							v := src[i]
							if math.Float32bits(want[p*nr+j]) != math.Float32bits(v) {
								t.Fatalf("%s: Go form: dst[%d] = %v, want %v", name, p*nr+j, want[p*nr+j], v)
							}
						}
					}
				}
			}
		}
	}
}

// TestSgemmDirect checks the micro-kernel that reads six rows of A in place
// against the packed micro-kernel of the same tier, bit for bit: at every
// depth up to 40, on 1 to 4 column panels, with A at an offset inside a
// padded matrix, C inside a padded one, beta zero or not, and canaries
// around both.
func TestSgemmDirect(t *testing.T) {
	type form struct {
		name string
		kern int
	}
	forms := []form{{"go", sgemmKernelGoID}}
	if canAsm {
		forms = append(forms, form{"avx2", sgemmKernelAVX2ID})
	}
	if can512 {
		forms = append(forms, form{"avx512", sgemmKernelAVX512ID}, form{"avx512-6x32", sgemmKernelAVX512NarrowID})
	}
	rng := rand.New(rand.NewPCG(11, 11))
	for _, f := range forms {
		mr, nr := sgemmTiers[f.kern].mr, sgemmTiers[f.kern].nr
		for k := 0; k <= 40; k++ {
			for np := 1; np <= 4; np++ {
				for _, pad := range []int{0, 5} {
					ab := [][2]float32{{1, 0}, {0.7, -1}, {-1, 0.5}}[(k+np)%3]
					lda, ldc := k+3+pad, nr*np+pad
					off := 1 + pad // A's first column in its rows
					a := sgemmMatrix(rng, mr+1, k+off, lda)
					a0 := slices.Clone(a)
					b := sgemmMatrix(rng, 1, nr*np*k, nr*np*k)[:nr*np*k]
					c := sgemmMatrix(rng, mr, nr*np, ldc)
					if ab[1] == 0 {
						for i := range mr {
							for j := range nr * np {
								c[i*ldc+j] = float32(math.NaN())
							}
						}
					}
					want := slices.Clone(c)
					ap := make([]float32, mr*k)
					packRowsF32(a, lda, 1, mr, off, k, mr, ap)
					for q := range np {
						sgemmMicro(f.kern, k, ap, b[nr*k*q:], want[nr*q:], ldc, ab[0], ab[1])
					}
					got := slices.Clone(c)
					o := lda + off
					sgemmDirect(f.kern, k, a[o:o+5*lda+k], lda, b, np, got[:5*ldc+nr*np], ldc, ab[0], ab[1])
					name := fmt.Sprintf("%s k=%d np=%d pad=%d alpha,beta=%v", f.name, k, np, pad, ab)
					if !slices.Equal(math32bits(got), math32bits(want)) {
						t.Errorf("%s: differs from the packed micro-kernel", name)
					}
					sgemmCheckCanaries(t, name, got, mr, nr*np, ldc)
					if !slices.Equal(math32bits(a), math32bits(a0)) {
						t.Errorf("%s: A modified", name)
					}
				}
			}
		}
	}
}

// TestSgemmPackPanelA checks the packing of A's row panels by the assembly
// against the Go forms, bit for bit: full six-row panels alone at every
// depth up to 40, then whole blocks of 1 to 13 rows (partial panels too)
// at offsets inside padded matrices, with canaries after the panels.
func TestSgemmPackPanelA(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	asm := canAsm && !raceEnabled
	for k := 0; k <= 40; k++ {
		for _, pad := range []int{0, 3, 16} {
			ld := max(k, 1) + pad
			src := sgemmMatrix(rng, 6, k, ld)
			src0 := slices.Clone(src)
			want := sgemmMatrix(rng, 1, 6*k, 6*k)
			got := slices.Clone(want)
			n := 5*ld + k
			sgemmPackPanelA(false, k, src[:n], ld, want)
			sgemmPackPanelA(asm, k, src[:n], ld, got)
			name := fmt.Sprintf("k=%d pad=%d", k, pad)
			if !slices.Equal(math32bits(got), math32bits(want)) {
				t.Errorf("%s: the assembly packs differently from the Go form", name)
			}
			sgemmCheckCanaries(t, name, got, 1, 6*k, 6*k)
			if !slices.Equal(math32bits(src), math32bits(src0)) {
				t.Errorf("%s: source modified", name)
			}
			for p := range k {
				for i := range 6 {
					if math.Float32bits(want[p*6+i]) != math.Float32bits(src[i*ld+p]) {
						t.Fatalf("%s: Go form: dst[%d] = %v, want %v", name, p*6+i, want[p*6+i], src[i*ld+p])
					}
				}
			}
		}
	}
	goTier, asmTier := sgemmTiers[sgemmKernelGoID], sgemmTiers[sgemmKernelAVX2ID]
	if !asm {
		asmTier = goTier
	}
	for mb := 1; mb <= 13; mb++ {
		for _, k := range []int{1, 7, 8, 9, 17, 40} {
			const i0, p0, pad = 2, 3, 5
			ld := p0 + k + pad
			a := sgemmMatrix(rng, i0+mb, p0+k, ld)
			np := ceilDiv(mb, 6)
			want := sgemmMatrix(rng, 1, 6*k*np, 6*k*np)
			got := slices.Clone(want)
			sgemmPackA(&goTier, false, a, ld, i0, mb, p0, k, want)
			sgemmPackA(&asmTier, false, a, ld, i0, mb, p0, k, got)
			name := fmt.Sprintf("block mb=%d k=%d", mb, k)
			if !slices.Equal(math32bits(got), math32bits(want)) {
				t.Errorf("%s: the assembly tier packs differently from the Go tier", name)
			}
			sgemmCheckCanaries(t, name, got, 1, 6*k*np, 6*k*np)
			for r := range 6 * np {
				for p := range k {
					w := float32(0)
					if r < mb {
						w = a[(i0+r)*ld+p0+p]
					}
					if v := want[(r/6)*6*k+p*6+r%6]; math.Float32bits(v) != math.Float32bits(w) {
						t.Fatalf("%s: Go tier: row %d step %d = %v, want %v", name, r, p, v, w)
					}
				}
			}
		}
	}
}

// TestSgemmTiles checks the micro-kernel run on a column of tiles in one
// call against one call a tile, bit for bit, in each kernel the CPU runs:
// at every depth up to 40, 1 to 4 tiles, C inside a padded matrix, beta
// zero or not, with canaries.
func TestSgemmTiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for _, kern := range sgemmKernelsRun() {
		mr, nr := sgemmTiers[kern].mr, sgemmTiers[kern].nr
		for k := 0; k <= 40; k++ {
			for nt := 1; nt <= 4; nt++ {
				ab := [][2]float32{{1, 0}, {0.7, -1}, {-1, 0.5}, {0.5, 0}}[(k+nt)%4]
				ldc := nr + 3 + k%5
				a := sgemmMatrix(rng, 1, mr*k*nt, mr*k*nt)[:mr*k*nt]
				b := sgemmMatrix(rng, 1, nr*k, nr*k)[:nr*k]
				c := sgemmMatrix(rng, mr*nt, nr, ldc)
				if ab[1] == 0 {
					for i := range mr * nt {
						for j := range nr {
							c[i*ldc+j] = float32(math.NaN())
						}
					}
				}
				want := slices.Clone(c)
				for r := range nt {
					sgemmMicro(kern, k, a[mr*k*r:], b, want[mr*r*ldc:], ldc, ab[0], ab[1])
				}
				got := slices.Clone(c)
				sgemmTiles(kern, k, a, b, nt, got[:(mr*nt-1)*ldc+nr], ldc, ab[0], ab[1])
				name := fmt.Sprintf("kernel %d k=%d nt=%d alpha,beta=%v", kern, k, nt, ab)
				if !slices.Equal(math32bits(got), math32bits(want)) {
					t.Errorf("%s: differs from one call a tile", name)
				}
				sgemmCheckCanaries(t, name, got, mr*nt, nr, ldc)
			}
		}
	}
}

// sgemmKernelsRun lists the float32 micro-kernels this binary and CPU run.
func sgemmKernelsRun() []int {
	kernels := []int{sgemmKernelGoID}
	if canAsm {
		kernels = append(kernels, sgemmKernelAVX2ID)
	}
	if can512 {
		kernels = append(kernels, sgemmKernelAVX512ID, sgemmKernelAVX512NarrowID)
	}
	return kernels
}
