package oddl

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
)

// randomState builds a state with unit atoms and statistics accumulated
// from random sparse codes, leaving the atoms in unused without any use.
func randomState(rng *rand.Rand, k, n, q, samples, l int, unused map[int]bool) *state {
	st := newState(k, n, q)
	s := st.stride()
	for j := range k {
		row := st.dt[j*s : (j+1)*s]
		var ss float64
		for i := range n {
			row[i] = rng.NormFloat64()
			ss += row[i] * row[i]
		}
		for i := range n {
			row[i] /= math.Sqrt(ss)
		}
		for i := n; i < s; i++ {
			row[i] = 0.1 * rng.NormFloat64()
		}
	}
	x := make([]float64, n)
	for range samples {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		y := rng.IntN(q)
		var idx []int
		for _, j := range rng.Perm(k)[:l] {
			if !unused[j] {
				idx = append(idx, j)
			}
		}
		val := make([]float64, len(idx))
		for i := range val {
			val[i] = rng.NormFloat64()
		}
		for a, j := range idx {
			for b, j2 := range idx {
				st.m[j*k+j2] += val[a] * val[b]
			}
			axpy(val[a], x, st.nt[j*s:j*s+n])
			st.nt[j*s+n+y] += val[a]
		}
	}
	return st
}

func cloneState(st *state) *state {
	c := newState(st.k, st.n, st.q)
	copy(c.dt, st.dt)
	copy(c.m, st.m)
	copy(c.nt, st.nt)
	return c
}

// The blocked Gauss–Seidel sweep (GEMM form) and the per-column GEMV form
// compute the same update up to rounding, across block edges, with unused
// atoms, over several sweeps.
func TestBlockedMatchesColumn(t *testing.T) {
	impl := defaultBackend(t)
	for _, k := range []int{1, 7, 63, 64, 65, 150} {
		rng := rand.New(rand.NewPCG(uint64(k), 2))
		unused := map[int]bool{0: true, k / 2: true, k - 1: true}
		if k == 1 {
			unused = nil
		}
		n, q := 17, 4
		st := randomState(rng, k, n, q, 40*k, min(3, k), unused)
		a, b := cloneState(st), cloneState(st)
		upA := updater{impl: impl, updateW: true}
		upB := updater{impl: impl, updateW: true}
		for sweep := range 3 {
			ua := upA.sweep(a, true)
			ub := upB.sweep(b, false)
			if ua != ub {
				t.Fatalf("K=%d sweep %d: %d unused atoms blocked, %d per column", k, sweep, ua, ub)
			}
			if k > 1 && ua != len(unused) {
				t.Fatalf("K=%d: %d unused atoms reported, want %d", k, ua, len(unused))
			}
		}
		var worst float64
		for i := range a.dt {
			worst = max(worst, math.Abs(a.dt[i]-b.dt[i]))
		}
		if worst > 1e-10 {
			t.Errorf("K=%d: blocked and per-column updates differ by %g", k, worst)
		}
		// The update must have moved the used atoms and kept the unused.
		moved := false
		s := st.stride()
		for j := range k {
			for i := range s {
				if a.dt[j*s+i] != st.dt[j*s+i] {
					if unused[j] {
						t.Fatalf("K=%d: unused atom %d changed", k, j)
					}
					moved = true
				}
			}
		}
		if !moved {
			t.Fatalf("K=%d: no atom changed", k)
		}
		// Every dictionary part stays of unit norm.
		for j := range k {
			var ss float64
			for _, v := range a.dt[j*s : j*s+n] {
				ss += v * v
			}
			if math.Abs(ss-1) > 1e-12 {
				t.Fatalf("K=%d: atom %d has squared norm %v", k, j, ss)
			}
		}
	}
}

// One sweep is a block-coordinate descent step on the surrogate
// tr(D~ M D~ᵀ)/2 − tr(D~ Nᵀ) (up to the normalisation): with the
// normalisation switched off in effect (a state at its fixed point), it
// leaves the atoms unchanged.
func TestSweepFixedPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	k, n, q := 20, 9, 3
	st := randomState(rng, k, n, q, 500, 3, nil)
	// Make N consistent with D~: N = M·D~, the stationarity condition, so
	// u = d~_j for every atom and the sweep is a no-op.
	s := st.stride()
	for j := range k {
		row := st.nt[j*s : (j+1)*s]
		clear(row)
		for i := range k {
			axpy(st.m[j*k+i], st.dt[i*s:(i+1)*s], row)
		}
	}
	before := append([]float64(nil), st.dt...)
	up := updater{impl: defaultBackend(t), updateW: true}
	up.sweep(st, true)
	for i := range before {
		if math.Abs(before[i]-st.dt[i]) > 1e-10 {
			t.Fatalf("element %d moved from %v to %v at the fixed point", i, before[i], st.dt[i])
		}
	}
}

// The product P = M·D~ that the blocked sweep and the statistics keep up
// to date between mini-batches equals the product computed afresh, after
// training with forgetting, reseeded atoms, both phases and the ridge fit
// of W at the phase change.
func TestKeptProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	_, X, labels := planted(rng, 40, 20, 3, 4, 600, 0.05)
	_, X2, labels2 := planted(rng, 2*bcdBlock+40, 20, 3, 2, 2*(2*bcdBlock+40), 0.05)
	for _, tc := range []struct {
		name   string
		change func(*Config)
	}{
		{"defaults", func(*Config) {}},
		// Class blocks larger than the sweep's blocks.
		{"two classes, large blocks", func(c *Config) { c.K = 2*bcdBlock + 40; c.InitSamples = 2 * c.K }},
		{"forgetting", func(c *Config) { c.Research.Forget = 1 }},
		{"reconstructive", func(c *Config) { c.Lambda0 = 0 }},
		{"codes on D, shared init", func(c *Config) { c.Coding, c.Init = CodingDictionary, InitShared }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig(40, 3)
			cfg.Epochs = 2
			tc.change(&cfg)
			src := mustSource(t, X, labels, 4)
			if cfg.K > 40 {
				src = mustSource(t, X2, labels2, 2)
			}
			m, err := Train(context.Background(), cfg, src)
			if err != nil {
				t.Fatal(err)
			}
			st := m.st
			if !st.pValid {
				t.Fatal("no kept product after training")
			}
			k, s := st.k, st.stride()
			var want mat.Dense
			want.Mul(mat.NewDense(k, k, st.m), mat.NewDense(k, s, st.dt))
			var maxDiff, scale float64
			for i := range k {
				for j := range s {
					maxDiff = math.Max(maxDiff, math.Abs(st.p[i*s+j]-want.At(i, j)))
					scale = math.Max(scale, math.Abs(want.At(i, j)))
				}
			}
			if maxDiff > 1e-10*scale {
				t.Fatalf("kept P differs from M·D~ by %g (scale %g)", maxDiff, scale)
			}
		})
	}
}

// The look-ahead sweep (the kernel's GEMM, each block's product shared with
// a helper goroutine while the next block's atoms update) gives the blocked
// sweep's dictionary and kept product P bit for bit: across block edges,
// with a last block shorter than aheadRows and unused atoms, over several
// sweeps, with reseeding writing rows during the overlap, and with M dense
// or mostly zero (the products dense or sparse).
func TestSweepAheadMatchesBlocked(t *testing.T) {
	var impl blas.Native
	for _, c := range []struct{ k, samples int }{{1, 30}, {100, 3000}, {128, 3840}, {129, 3870}, {300, 9000}, {400, 12000}, {300, 100}, {400, 150}} {
		k := c.k
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		unused := map[int]bool{k / 3: true, k - 1: true}
		n, q := 37, 5
		// Many samples fill M (dense products); few leave it mostly zero
		// (sparse products).
		st := randomState(rng, k, n, q, c.samples, min(4, k), unused)
		a, b := cloneState(st), cloneState(st)
		s := st.stride()
		// Unused atoms are reseeded to a fixed new direction.
		reseed := func(j int, row []float64) bool {
			for i := range row {
				row[i] = 0
			}
			row[j%n] = 1
			return true
		}
		upA := updater{impl: impl, updateW: true, reseed: reseed, threads: 2}
		upB := updater{impl: impl, updateW: true, reseed: reseed, lookahead: true}
		for sweep := range 3 {
			ua := upA.sweep(a, true)
			ub := upB.sweep(b, true)
			if ua != ub {
				t.Fatalf("K=%d sweep %d: %d unused atoms blocked, %d look-ahead", k, sweep, ua, ub)
			}
			if !a.pValid || !b.pValid {
				t.Fatalf("K=%d sweep %d: P not kept", k, sweep)
			}
			for i := range a.dt {
				if math.Float64bits(a.dt[i]) != math.Float64bits(b.dt[i]) {
					t.Fatalf("K=%d sweep %d: D~[%d][%d] = %v look-ahead, %v blocked", k, sweep, i/s, i%s, b.dt[i], a.dt[i])
				}
			}
			for i := range a.p {
				if math.Float64bits(a.p[i]) != math.Float64bits(b.p[i]) {
					t.Fatalf("K=%d sweep %d: P[%d][%d] = %v look-ahead, %v blocked", k, sweep, i/s, i%s, b.p[i], a.p[i])
				}
			}
		}
	}
}

// With M mostly zero the blocked sweep's products run sparse (per row, the
// nonzero M_rj by multi-row axpys) and still agree with the per-column
// form to rounding and keep P = M·D~, on one and on two goroutines, with
// rows of D~ narrower than a column panel of the packed changes and wider.
func TestSparseProducts(t *testing.T) {
	impl := defaultBackend(t)
	for _, tc := range []struct{ threads, n int }{{1, 23}, {2, 23}, {1, 77}, {2, 77}} {
		threads, n := tc.threads, tc.n
		rng := rand.New(rand.NewPCG(4, uint64(threads)))
		const k, q = 300, 4
		st := randomState(rng, k, n, q, 120, 3, nil)
		if !blockSparse(st, 0, k, 0, bcdBlock, new(blockTerms)) {
			t.Fatal("the test's M is not sparse enough for the sparse products")
		}
		a, b := cloneState(st), cloneState(st)
		upA := updater{impl: impl, updateW: true, threads: threads}
		upB := updater{impl: impl, updateW: true}
		for range 2 {
			upA.sweep(a, true)
			upB.sweep(b, false)
		}
		var worst float64
		for i := range a.dt {
			worst = max(worst, math.Abs(a.dt[i]-b.dt[i]))
		}
		if worst > 1e-10 {
			t.Errorf("threads=%d n=%d: sparse blocked and per-column updates differ by %g", threads, n, worst)
		}
		s := st.stride()
		want := make([]float64, k*s)
		impl.Dgemm('N', 'N', k, s, k, 1, a.m, k, a.dt, s, 0, want, s)
		for i := range want {
			if d := math.Abs(a.p[i] - want[i]); d > 1e-10*(1+math.Abs(want[i])) {
				t.Fatalf("threads=%d n=%d: kept P[%d][%d] = %v, M·D~ = %v", threads, n, i/s, i%s, a.p[i], want[i])
			}
		}
	}
}

// blockSparse lists exactly the nonzero entries of M in a block (either
// sign of zero counts as zero), row by row in order of the atom, and calls
// the block sparse exactly when at most sparseLimit of them are nonzero,
// also for a block narrower than bcdBlock and rows not starting at 0.
func TestBlockSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	const k = 50
	st := &state{k: k, m: make([]float64, k*k)}
	for _, tc := range []struct {
		lo, hi, j0, j1 int
		density        float64
	}{{0, k, 0, 32, 0.1}, {5, 45, 7, 50, 0.25}, {0, k, 10, 20, 0.3}, {3, 40, 0, 50, 0.31}, {0, k, 0, 50, 0.6}} {
		for i := range st.m {
			st.m[i] = 0
			switch u := rng.Float64(); {
			case u < tc.density:
				st.m[i] = rng.Float64() - 0.5
			case u < tc.density+0.05:
				st.m[i] = math.Copysign(0, -1)
			}
		}
		cells := (tc.hi - tc.lo) * (tc.j1 - tc.j0)
		var want struct {
			ptr, idx []int
			val      []float64
		}
		want.ptr = []int{0}
		for r := tc.lo; r < tc.hi; r++ {
			for j := tc.j0; j < tc.j1; j++ {
				if v := st.m[r*k+j]; v != 0 {
					want.idx = append(want.idx, j-tc.j0)
					want.val = append(want.val, v)
				}
			}
			want.ptr = append(want.ptr, len(want.idx))
		}
		sparse := float64(len(want.idx)) <= sparseLimit*float64(cells)
		var bt blockTerms
		if got := blockSparse(st, tc.lo, tc.hi, tc.j0, tc.j1, &bt); got != sparse {
			t.Fatalf("%+v: sparse = %v with %d of %d nonzero, want %v", tc, got, len(want.idx), cells, sparse)
		}
		if !sparse {
			continue
		}
		if bt.lo != tc.lo || !slices.Equal(bt.ptr, want.ptr) {
			t.Fatalf("%+v: lo %d ptr %v, want %d %v", tc, bt.lo, bt.ptr, tc.lo, want.ptr)
		}
		n := len(want.idx)
		if !slices.Equal(bt.idx[:n], want.idx) || !slices.Equal(bt.val[:n], want.val) {
			t.Fatalf("%+v: terms differ", tc)
		}
	}
	// On the limit: 30 % of the 2 500 entries nonzero is sparse, one more
	// is not (the last row decides).
	for _, extra := range []int{0, 1} {
		clear(st.m)
		for _, i := range rng.Perm(k * k)[:750+extra] {
			st.m[i] = 1
		}
		if got := blockSparse(st, 0, k, 0, k, new(blockTerms)); got != (extra == 0) {
			t.Errorf("%d nonzero of 2500: sparse = %v", 750+extra, got)
		}
	}
}

// nativeUnnamed is the native backend under another type, so that the
// sweep does not know its GEMM is the kernel's and keeps the dense
// sub-block products.
type nativeUnnamed struct{ blas.Native }

// With the kernel's GEMM the in-block sub-block products run over the
// nonzero entries of M only (kernel.AddRowsSum) and give the GEMM's values
// bit for bit: the blocked sweep with the native backend agrees exactly
// with the same sweep on a backend it cannot recognise, on a mostly-zero M
// and on a dense one.
func TestSparseSubBlocksAreExact(t *testing.T) {
	for _, samples := range []int{150, 9000} {
		rng := rand.New(rand.NewPCG(21, uint64(samples)))
		const k, n, q = 300, 37, 5
		st := randomState(rng, k, n, q, samples, 4, nil)
		a, b := cloneState(st), cloneState(st)
		upA := updater{impl: blas.Native{}, updateW: true}
		upB := updater{impl: nativeUnnamed{}, updateW: true}
		for sweep := range 2 {
			upA.sweep(a, true)
			upB.sweep(b, true)
			for i := range a.dt {
				if math.Float64bits(a.dt[i]) != math.Float64bits(b.dt[i]) {
					t.Fatalf("samples=%d sweep %d: D~[%d][%d] = %v sparse, %v dense", samples, sweep, i/a.stride(), i%a.stride(), a.dt[i], b.dt[i])
				}
			}
		}
	}
}

// defaultBackend returns blas.Default() or stops the test.
func defaultBackend(t *testing.T) gblas.Float64 {
	t.Helper()
	impl, err := blas.Default()
	if err != nil {
		t.Fatal(err)
	}
	return impl
}
