package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gemmCanary fills the padding of every matrix; a NaN with a payload no
// arithmetic produces, compared bit for bit.
var gemmCanary = math.Float64frombits(0x7ff8_dead_beef_0001)

// gemmGuard is how many canaries follow the last row of C.
const gemmGuard = 19

// gemmMatrix returns a rows×cols matrix with row stride ld (ld >= cols)
// and gemmGuard extra elements after the last row. Elements are uniform in
// [-1, 1); the padding holds gemmCanary.
func gemmMatrix(rng *rand.Rand, rows, cols, ld int) []float64 {
	s := make([]float64, rows*ld+gemmGuard)
	for i := range s {
		s[i] = gemmCanary
	}
	for i := range rows {
		for j := range cols {
			s[i*ld+j] = 2*rng.Float64() - 1
		}
	}
	return s
}

// gemmCheckCanaries reports every element outside the rows×cols matrix in
// s that no longer holds the canary.
func gemmCheckCanaries(t *testing.T, name string, s []float64, rows, cols, ld int) {
	t.Helper()
	bad := 0
	for i, v := range s {
		inside := i < rows*ld && i%ld < cols
		if !inside && math.Float64bits(v) != math.Float64bits(gemmCanary) {
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

type gemmCase struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float64
	pad            int // extra row stride of A, B and C
}

func (tc gemmCase) String() string {
	return fmt.Sprintf("tA=%v,tB=%v,m=%d,n=%d,k=%d,alpha=%v,beta=%v,pad=%d",
		tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, tc.beta, tc.pad)
}

// gemmOperands returns random A, B and C for tc, stored with their
// padded strides.
func (tc gemmCase) operands(rng *rand.Rand) (a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	ar, ac := tc.m, tc.k
	if tc.transA {
		ar, ac = tc.k, tc.m
	}
	br, bc := tc.k, tc.n
	if tc.transB {
		br, bc = tc.n, tc.k
	}
	lda, ldb, ldc = max(ac, 1)+tc.pad, max(bc, 1)+tc.pad, max(tc.n, 1)+tc.pad
	return gemmMatrix(rng, ar, ac, lda), lda, gemmMatrix(rng, br, bc, ldb), ldb, gemmMatrix(rng, tc.m, tc.n, ldc), ldc
}

// gemmCompare checks got against the reference result want: NaN where want
// is NaN, the same infinity where want is infinite, and otherwise an
// error within the rounding bound 2(k+2)·eps·bound[i], where bound holds
// |alpha|·|op(A)|·|op(B)| + |beta|·|C| for the original C.
func gemmCompare(t *testing.T, name string, got, want, bound []float64, m, n, ldc, k int) {
	t.Helper()
	tol := 2 * float64(k+2) * 0x1p-52
	bad := 0
	for i := range m {
		for j := range n {
			g, w, e := got[i*ldc+j], want[i*ldc+j], bound[i*ldc+j]
			var ok bool
			switch {
			case math.IsNaN(w):
				ok = math.IsNaN(g)
			case math.IsInf(w, 0):
				ok = g == w
			default:
				ok = math.Abs(g-w) <= tol*e
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

// gemmBound returns |alpha|·|op(A)|·|op(B)| + |beta|·|C|, elementwise.
func gemmBound(tc gemmCase, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) []float64 {
	abs := func(s []float64) []float64 {
		r := make([]float64, len(s))
		for i, v := range s {
			r[i] = math.Abs(v)
		}
		return r
	}
	bound := abs(c)
	dgemmRef(tc.transA, tc.transB, tc.m, tc.n, tc.k, math.Abs(tc.alpha), abs(a), lda, abs(b), ldb, math.Abs(tc.beta), bound, ldc)
	return bound
}

// runGemmCase checks Dgemm against dgemmRef on tc with random operands,
// on the current path and thread setting.
func runGemmCase(t *testing.T, rng *rand.Rand, tc gemmCase) {
	t.Helper()
	a, lda, b, ldb, c, ldc := tc.operands(rng)
	a0, b0 := slices.Clone(a), slices.Clone(b)
	want := slices.Clone(c)
	dgemmRef(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, want, ldc)
	bound := gemmBound(tc, a, lda, b, ldb, c, ldc)
	Dgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
	name := tc.String()
	gemmCompare(t, name, c, want, bound, tc.m, tc.n, ldc, tc.k)
	gemmCheckCanaries(t, name+" C", c, tc.m, tc.n, ldc)
	if !slices.Equal(math64bits(a), math64bits(a0)) || !slices.Equal(math64bits(b), math64bits(b0)) {
		t.Errorf("%s: A or B modified", name)
	}
}

func math64bits(s []float64) []uint64 {
	r := make([]uint64, len(s))
	for i, v := range s {
		r[i] = math.Float64bits(v)
	}
	return r
}

var gemmTrans = [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}}

// TestDgemmSmall runs every small shape around the micro-tiles (6×8,
// 8×24), each transpose combination, and the alpha/beta values 0, 1, -1,
// 0.7 in turn.
func TestDgemmSmall(t *testing.T) {
	t.Logf("kernel tier at start-up: %s", Name())
	sizes := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 17, 23, 24, 25}
	if testing.Short() {
		sizes = []int{0, 1, 3, 5, 6, 7, 8, 9, 13, 23, 25}
	}
	scalars := []float64{0, 1, -1, 0.7}
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		iter := 0
		for _, tr := range gemmTrans {
			for _, m := range sizes {
				for _, n := range sizes {
					for _, k := range sizes {
						iter++
						runGemmCase(t, rng, gemmCase{
							transA: tr[0], transB: tr[1], m: m, n: n, k: k,
							alpha: scalars[iter%4], beta: scalars[(iter/4)%4], pad: iter % 3,
						})
					}
				}
			}
		}
	})
}

// TestDgemmScalars runs all alpha/beta pairs on shapes with full and
// partial tiles.
func TestDgemmScalars(t *testing.T) {
	scalars := []float64{0, 1, -1, 0.7}
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(2, 2))
		for _, tr := range gemmTrans {
			for _, alpha := range scalars {
				for _, beta := range scalars {
					for _, sz := range [][3]int{{12, 16, 9}, {13, 19, 7}, {6, 8, 1}} {
						runGemmCase(t, rng, gemmCase{
							transA: tr[0], transB: tr[1], m: sz[0], n: sz[1], k: sz[2],
							alpha: alpha, beta: beta, pad: 3,
						})
					}
				}
			}
		}
	})
}

// TestDgemmBlocking runs sizes around the default cache-blocking
// boundaries, and around much smaller boundaries set for the test so that
// every loop of the driver takes several turns.
func TestDgemmBlocking(t *testing.T) {
	type shape struct{ m, n, k int }
	defaults := []shape{
		{63, 64, 65}, {64, 65, 63}, {65, 63, 64}, {127, 129, 128},
		{129, 127, 255}, {145, 9, 257}, {150, 17, 513}, {287, 33, 31}, {289, 10, 3},
	}
	if !testing.Short() {
		defaults = append(defaults, shape{13, 4103, 257}, shape{150, 130, 530})
	}
	small := []shape{
		{11, 23, 15}, {12, 24, 16}, {13, 25, 17}, {35, 47, 33}, {37, 49, 49}, {61, 73, 50},
	}
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 3))
		for i, s := range defaults {
			tr := gemmTrans[i%4]
			runGemmCase(t, rng, gemmCase{tr[0], tr[1], s.m, s.n, s.k, 0.7, -1, i % 2})
		}
		withGemmBlocking(12, 16, 24, func() {
			for i, s := range small {
				for _, tr := range gemmTrans {
					runGemmCase(t, rng, gemmCase{tr[0], tr[1], s.m, s.n, s.k, -1, 0.7, i % 3})
				}
			}
		})
		// One more and one less than each of the tier's own
		// sizes: tile rows and columns, kc, mc and nc.
		g := gemmTierNow()
		edges := []shape{
			{g.mr - 1, g.nr + 1, 3}, {g.mr + 1, g.nr - 1, g.kc - 1}, {g.mr, g.nr, g.kc + 1},
			{g.mc - 1, g.nr + 1, 5}, {g.mc + 1, 2*g.nr - 1, g.kc + 1}, {g.mc, g.nr, g.kc},
			{3, g.nc + 1, 7}, {g.mr + 1, g.nc - 1, 2}, {2*g.mr - 1, g.nc, g.kc + 1},
		}
		for i, s := range edges {
			tr := gemmTrans[i%4]
			runGemmCase(t, rng, gemmCase{tr[0], tr[1], s.m, s.n, s.k, 0.7, -1, i % 2})
		}
	})
}

// TestDgemmSpecialValues checks reference-BLAS semantics for NaN and Inf:
// beta == 0 ignores C, alpha == 0 ignores A and B, and NaN or Inf in A or
// B reach exactly the elements of C they touch.
func TestDgemmSpecialValues(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(4, 4))
		for _, tr := range gemmTrans {
			for _, sz := range [][3]int{{13, 19, 7}, {6, 8, 20}} {
				tc := gemmCase{tr[0], tr[1], sz[0], sz[1], sz[2], 0.7, 0, 1}
				m, n, k := tc.m, tc.n, tc.k
				a, lda, b, ldb, c, ldc := tc.operands(rng)
				// Element (i, p) of op(A) and (p, j) of op(B).
				setA := func(i, p int, v float64) {
					if tc.transA {
						a[p*lda+i] = v
					} else {
						a[i*lda+p] = v
					}
				}
				setB := func(p, j int, v float64) {
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
				run := func(name string, alpha, beta float64, c []float64) {
					want := slices.Clone(c)
					dgemmRef(tc.transA, tc.transB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
					bound := gemmBound(gemmCase{tc.transA, tc.transB, m, n, k, alpha, beta, 1}, a, lda, b, ldb, c, ldc)
					Dgemm(tc.transA, tc.transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
					gemmCompare(t, name+" "+tc.String(), c, want, bound, m, n, ldc, k)
					gemmCheckCanaries(t, name+" C", c, m, n, ldc)
				}
				c2 := slices.Clone(c)
				run("beta=0 over NaN C", 0.7, 0, c)
				// Spot checks independent of the reference.
				if !math.IsNaN(c[(m-1)*ldc+3]) || !math.IsNaN(c[5*ldc+2]) {
					t.Errorf("%v: NaN in A or B did not propagate", tc)
				}
				if c[1*ldc+0] != c[1*ldc+0] || math.IsInf(c[1*ldc+0], 0) {
					t.Errorf("%v: C[1][0] = %v, want finite", tc, c[1*ldc+0])
				}
				// alpha == 0: C = beta*C, A and B unread.
				for i := range m {
					for j := range n {
						c2[i*ldc+j] = float64(i - j)
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

// TestDgemmThreads checks that 1, 2 and 3 goroutines give bitwise equal
// results: the split keeps every element's sequence of operations.
func TestDgemmThreads(t *testing.T) {
	savedWork := gemmMinWork
	gemmMinWork = 1
	defer func() { gemmMinWork = savedWork }()
	defer setThreads(setThreads(1))
	shapes := [][3]int{{70, 90, 300}, {6, 200, 40}, {200, 8, 33}, {13, 7, 5}, {97, 101, 103}}
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 5))
		for i, s := range shapes {
			tr := gemmTrans[i%4]
			tc := gemmCase{tr[0], tr[1], s[0], s[1], s[2], 0.7, -1, 2}
			a, lda, b, ldb, c, ldc := tc.operands(rng)
			var first []float64
			blockings := [][3]int{{0, 0, 0}, {12, 64, 32}} // the tier's own, small
			for _, bl := range blockings {
				withGemmBlocking(bl[0], bl[1], bl[2], func() {
					for _, th := range []int{1, 2, 3} {
						setThreads(th)
						got := slices.Clone(c)
						Dgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, got, ldc)
						if th == 1 {
							first = got
							want := slices.Clone(c)
							dgemmRef(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, want, ldc)
							gemmCompare(t, tc.String(), got, want, gemmBound(tc, a, lda, b, ldb, c, ldc), tc.m, tc.n, ldc, tc.k)
							continue
						}
						if !slices.Equal(math64bits(got), math64bits(first)) {
							t.Errorf("%v, blocking %v: %d goroutines differ from 1", tc, bl, th)
						}
						gemmCheckCanaries(t, tc.String(), got, tc.m, tc.n, ldc)
					}
				})
			}
		}
	})
}

// TestDgemmConcurrentCalls runs Dgemm from several goroutines at once, on
// different shapes, so that the calls compete for internal/par's helpers
// (the ones that find them taken run on plain goroutines). Every result
// must equal the single-goroutine one bit for bit.
func TestDgemmConcurrentCalls(t *testing.T) {
	savedWork := gemmMinWork
	gemmMinWork = 1
	defer func() { gemmMinWork = savedWork }()
	defer setThreads(setThreads(1))
	rng := rand.New(rand.NewPCG(6, 6))
	cases := []gemmCase{
		{false, true, 37, 45, 29, 1, 0, 1},
		{true, false, 6, 300, 70, -1, 0.7, 0},
		{false, false, 150, 9, 300, 0.7, 1, 2},
		{true, true, 1, 1, 5, 1, 0, 0}, // one tile: always on the caller
	}
	type job struct {
		tc            gemmCase
		a, b, c, want []float64
		lda, ldb, ldc int
	}
	jobs := make([]job, len(cases))
	for i, tc := range cases {
		j := job{tc: tc}
		j.a, j.lda, j.b, j.ldb, j.c, j.ldc = tc.operands(rng)
		j.want = slices.Clone(j.c)
		Dgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, j.a, j.lda, j.b, j.ldb, tc.beta, j.want, j.ldc)
		jobs[i] = j
	}
	setThreads(3)
	iters := 30
	if testing.Short() {
		iters = 8
	}
	errs := make(chan string, len(jobs))
	for _, j := range jobs {
		go func() {
			for range iters {
				got := slices.Clone(j.c)
				Dgemm(j.tc.transA, j.tc.transB, j.tc.m, j.tc.n, j.tc.k, j.tc.alpha, j.a, j.lda, j.b, j.ldb, j.tc.beta, got, j.ldc)
				if !slices.Equal(math64bits(got), math64bits(j.want)) {
					errs <- fmt.Sprintf("%v: concurrent call differs from the single-goroutine result", j.tc)
					return
				}
			}
			errs <- ""
		}()
	}
	for range jobs {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// TestDgemmAllocs checks that steady-state calls allocate nothing, on one
// goroutine and on two.
func TestDgemmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	savedWork := gemmMinWork
	gemmMinWork = 1
	defer func() { gemmMinWork = savedWork }()
	rng := rand.New(rand.NewPCG(7, 7))
	tc := gemmCase{false, false, 40, 50, 60, 1, 1, 0}
	a, lda, b, ldb, c, ldc := tc.operands(rng)
	for _, th := range []int{1, 2} {
		prev := setThreads(th)
		allocs := testing.AllocsPerRun(20, func() {
			Dgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
		})
		setThreads(prev)
		if allocs != 0 {
			t.Errorf("threads=%d: %v allocations per call, want 0", th, allocs)
		}
	}
}

func TestThreads(t *testing.T) {
	defer setThreads(setThreads(0))
	if got := Threads(); got < 1 {
		t.Errorf("Threads() = %d with the default setting, want >= 1", got)
	}
	if prev := setThreads(3); prev != 0 {
		t.Errorf("setThreads(3) returned %d, want 0 (the default)", prev)
	}
	if got := Threads(); got != 3 {
		t.Errorf("Threads() = %d after setThreads(3)", got)
	}
	if prev := setThreads(-5); prev != 3 {
		t.Errorf("setThreads(-5) returned %d, want 3", prev)
	}
	if got := Threads(); got < 1 {
		t.Errorf("Threads() = %d after setThreads(-5), want >= 1", got)
	}
}

// FuzzDgemm compares Dgemm with dgemmRef on small shapes drawn from the
// fuzz input, in every tier the CPU runs, with the tier's own blocking and
// with small blocks (several kc, mc and nc blocks on small shapes).
func FuzzDgemm(f *testing.F) {
	f.Add(uint8(6), uint8(8), uint8(5), uint8(0), uint8(0), uint64(1))
	f.Add(uint8(13), uint8(17), uint8(3), uint8(3), uint8(7), uint64(2))
	f.Add(uint8(1), uint8(1), uint8(0), uint8(1), uint8(9), uint64(3))
	f.Add(uint8(25), uint8(9), uint8(33), uint8(2), uint8(14), uint64(4))
	f.Add(uint8(17), uint8(25), uint8(9), uint8(1), uint8(21), uint64(5))
	f.Add(uint8(39), uint8(39), uint8(39), uint8(3), uint8(16), uint64(6))
	scalars := []float64{0, 1, -1, 0.7}
	f.Fuzz(func(t *testing.T, m, n, k, trans, scal uint8, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		tc := gemmCase{
			transA: trans&1 != 0, transB: trans&2 != 0,
			m: int(m % 40), n: int(n % 50), k: int(k % 40),
			alpha: scalars[scal%4], beta: scalars[(scal/4)%4], pad: int(trans>>2) % 4,
		}
		for _, tier := range gemmRunnable() {
			withGemmTier(tier, func() {
				if scal&16 != 0 {
					withGemmBlocking(9, 7, 20, func() { runGemmCase(t, rng, tc) })
					return
				}
				runGemmCase(t, rng, tc)
			})
		}
	})
}

// TestGemmPack compares the packing routines' assembly with their Go
// forms, for every tail length of the 4-step loops, and checks that
// nothing beyond the packed values is written (rows8s writes eight of every
// 24 values). A routine whose tier the CPU lacks is skipped by name.
func TestGemmPack(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	type packer struct {
		name      string
		tier      string // the tier whose instructions the assembly uses
		fast, ref func(k int, src []float64, ld int, dst []float64)
		width     int                 // values written per step
		stride    int                 // distance of the steps in dst
		srcLen    func(k, ld int) int // elements of src read
	}
	asm := func(kind int) func(int, []float64, int, []float64) {
		return func(k int, src []float64, ld int, dst []float64) { packPanel(kind, true, k, src, ld, dst) }
	}
	goForm := func(kind int) func(int, []float64, int, []float64) { return packGo[kind] }
	packers := []packer{
		{"rows6", TierAVX2, asm(packRows6), goForm(packRows6), 6, 6, func(k, ld int) int { return 5*ld + k }},
		{"rows8", TierAVX2, asm(packRows8), goForm(packRows8), 8, 8, func(k, ld int) int { return 7*ld + k }},
		{"cols6", TierAVX2, asm(packCols6), goForm(packCols6), 6, 6, func(k, ld int) int { return max(0, (k-1)*ld+6) }},
		{"cols8", TierAVX2, asm(packCols8), goForm(packCols8), 8, 8, func(k, ld int) int { return max(0, (k-1)*ld+8) }},
		{"rows8s", TierAVX2, asm(packRows8x24), goForm(packRows8x24), 8, 24, func(k, ld int) int { return 7*ld + k }},
		{"cols24", TierAVX512, asm(packCols24), goForm(packCols24), 24, 24, func(k, ld int) int { return max(0, (k-1)*ld+24) }},
	}
	for _, pk := range packers {
		t.Run(pk.name, func(t *testing.T) {
			if !supported(pk.tier) {
				t.Skipf("tier %s not run: this binary or CPU cannot run it", pk.tier)
			}
			for _, k := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 64} {
				for _, ld := range []int{k + 24, k + 27} {
					n := pk.srcLen(k, ld)
					src := make([]float64, n)
					for i := range src {
						src[i] = rng.NormFloat64()
					}
					got := make([]float64, pk.stride*k+gemmGuard)
					for i := range got {
						got[i] = gemmCanary
					}
					want := slices.Clone(got)
					pk.ref(k, src, ld, want)
					pk.fast(k, src, ld, got)
					if !slices.Equal(math64bits(got), math64bits(want)) {
						t.Errorf("%s k=%d ld=%d: packed panel differs from the Go form", pk.name, k, ld)
					}
					gemmCheckCanaries(t, pk.name, got, k, pk.width, pk.stride)
				}
			}
		})
	}
}
