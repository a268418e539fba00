package omp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
)

// backends returns every backend compiled in, by name.
func backends(t testing.TB) map[string]gblas.Float64 {
	out := map[string]gblas.Float64{}
	for _, name := range blas.Available() {
		b, err := blas.Lookup(name)
		if err != nil {
			t.Fatalf("blas.Lookup(%q): %v", name, err)
		}
		out[name] = b
	}
	return out
}

func TestMain(m *testing.M) {
	fmt.Printf("omp tests: kernel %s, backends %v\n", kernel.Name(), blas.Available())
	m.Run()
}

// problem is one random test case for the reference comparison.
type problem struct {
	n, k, l int
	tol     float64
	hasTol  bool
	unit    bool // unit-norm samples
}

func (p problem) String() string {
	s := fmt.Sprintf("n=%d,K=%d,L=%d", p.n, p.k, p.l)
	if p.hasTol {
		s += fmt.Sprintf(",eps=%g", p.tol)
	}
	return s
}

func (p problem) options() []Option {
	var o []Option
	if p.l > 0 {
		o = append(o, WithSparsity(p.l))
	}
	if p.hasTol {
		o = append(o, WithTolerance(p.tol))
	}
	return o
}

// TestMatchesReference compares Batch-OMP with the plain reference OMP on
// random problems, for every backend and thread count, with blocks of 16 so
// that the sample counts fall on, below and above block edges.
func TestMatchesReference(t *testing.T) {
	problems := []problem{
		{n: 20, k: 50, l: 5, unit: true},
		{n: 16, k: 16, l: 16, unit: true},              // L = n = K
		{n: 40, k: 24, l: 12},                          // K < n
		{n: 30, k: 90, l: 10, tol: 0.05, hasTol: true}, // both limits
		{n: 25, k: 60, tol: 1e-3, hasTol: true},        // tolerance only: L = 25
		{n: 24, k: 70, l: 1},
	}
	sizes := []int{1, 15, 16, 17, 33, 64}
	threads := []int{1, 2, 3}
	if testing.Short() {
		sizes = []int{1, 17, 64}
	}
	bk := backends(t)
	for _, p := range problems {
		for seed := uint64(1); seed <= 3; seed++ {
			rng := rand.New(rand.NewPCG(seed, 7))
			D := randDict(rng, p.k, p.n)
			X := randSamples(rng, sizes[len(sizes)-1], p.n, p.unit)
			ref := make([]refCode, X.RawMatrix().Rows)
			wantL := p.l
			if wantL == 0 {
				wantL = min(p.n, p.k)
			}
			for i := range ref {
				ref[i] = refOMP(D, X.RawRowView(i), wantL, p.tol, p.hasTol)
			}
			for name, b := range bk {
				for _, th := range threads {
					c, err := New(D, append(p.options(), WithBackend(b), WithThreads(th), WithBlockSize(16))...)
					if err != nil {
						t.Fatal(err)
					}
					if c.Sparsity() != wantL {
						t.Fatalf("%v: Sparsity() = %d, want %d", p, c.Sparsity(), wantL)
					}
					for _, N := range sizes {
						t.Run(fmt.Sprintf("%v/seed=%d/%s/threads=%d/N=%d", p, seed, name, th, N), func(t *testing.T) {
							got, err := c.Encode(X.Slice(0, N, 0, p.n).(*mat.Dense))
							if err != nil {
								t.Fatal(err)
							}
							checkAgainst(t, got, ref[:N], 1e-9)
						})
					}
				}
			}
		}
	}
}

// TestProperties checks what any OMP code must satisfy: at most L distinct
// atoms, a residual orthogonal to the chosen atoms, residual norms that
// match the codes, and (since OMP is greedy) codes with sparsity L' that are
// prefixes of the codes with L > L', with residuals that never grow.
func TestProperties(t *testing.T) {
	const n, k, N, maxL = 48, 120, 70, 9
	rng := rand.New(rand.NewPCG(3, 3))
	D := randDict(rng, k, n)
	X := randSamples(rng, N, n, false)
	var prev *Codes
	for l := 1; l <= maxL; l++ {
		c, err := New(D, WithSparsity(l), WithResiduals(), WithBlockSize(32))
		if err != nil {
			t.Fatal(err)
		}
		codes, err := c.Encode(X)
		if err != nil {
			t.Fatal(err)
		}
		for i := range N {
			idx, val := codes.Row(i)
			if len(idx) > l {
				t.Fatalf("L=%d sample %d: %d atoms", l, i, len(idx))
			}
			seen := map[int]bool{}
			for _, j := range idx {
				if seen[j] || j < 0 || j >= k {
					t.Fatalf("L=%d sample %d: bad or repeated atom %d in %v", l, i, j, idx)
				}
				seen[j] = true
			}
			x := X.RawRowView(i)
			r := append([]float64(nil), x...)
			for m, j := range idx {
				for e := range r {
					r[e] -= val[m] * D.At(j, e)
				}
			}
			var rr, xx float64
			for e := range r {
				rr += r[e] * r[e]
				xx += x[e] * x[e]
			}
			if d := math.Abs(math.Sqrt(rr) - codes.Residual[i]); d > 1e-12*math.Sqrt(xx) {
				t.Errorf("L=%d sample %d: Residual %v, recomputed %v", l, i, codes.Residual[i], math.Sqrt(rr))
			}
			for _, j := range idx {
				var dr float64
				for e := range r {
					dr += D.At(j, e) * r[e]
				}
				if math.Abs(dr) > 1e-12*math.Sqrt(xx) {
					t.Errorf("L=%d sample %d: residual·d_%d = %v, not orthogonal", l, i, j, dr)
				}
			}
			if prev != nil {
				pidx, _ := prev.Row(i)
				if len(idx) < len(pidx) || !equalInts(idx[:len(pidx)], pidx) {
					t.Errorf("sample %d: L=%d atoms %v do not extend L=%d atoms %v", i, l, idx, l-1, pidx)
				}
				if codes.Residual[i] > prev.Residual[i]*(1+1e-12) {
					t.Errorf("sample %d: residual grew from %v (L=%d) to %v (L=%d)",
						i, prev.Residual[i], l-1, codes.Residual[i], l)
				}
			}
		}
		prev = codes
	}
}

// TestResidualNonIncreasing checks the reference's residual energies step by
// step, and that Batch-OMP's final residual matches the reference's.
func TestResidualNonIncreasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	const n, k, N, L = 32, 64, 40, 12
	D := randDict(rng, k, n)
	X := randSamples(rng, N, n, true)
	c, err := New(D, WithSparsity(L), WithResiduals())
	if err != nil {
		t.Fatal(err)
	}
	codes, err := c.Encode(X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range N {
		ref := refOMP(D, X.RawRowView(i), L, 0, false)
		for s := 1; s < len(ref.res2); s++ {
			if ref.res2[s] > ref.res2[s-1]*(1+1e-12) {
				t.Errorf("sample %d: residual energy rose at step %d: %v -> %v", i, s, ref.res2[s-1], ref.res2[s])
			}
		}
		last := ref.res2[len(ref.res2)-1]
		if d := math.Abs(codes.Residual[i]*codes.Residual[i] - last); d > 1e-12 {
			t.Errorf("sample %d: residual² %v, reference %v", i, codes.Residual[i]*codes.Residual[i], last)
		}
	}
}

// hadamardDict returns the 2n×n dictionary [I; H/sqrt(n)] for n a power of
// two: its mutual coherence is 1/sqrt(n), so OMP recovers every signal with
// fewer than (1+sqrt(n))/2 atoms exactly (Tropp 2004).
func hadamardDict(n int) *mat.Dense {
	D := mat.NewDense(2*n, n, nil)
	s := 1 / math.Sqrt(float64(n))
	for i := range n {
		D.Set(i, i, 1)
		for j := range n {
			v := s
			if popcount(i&j)%2 == 1 {
				v = -s
			}
			D.Set(n+i, j, v)
		}
	}
	return D
}

func popcount(v int) int {
	c := 0
	for ; v != 0; v &= v - 1 {
		c++
	}
	return c
}

// TestExactRecovery builds L-sparse signals on an incoherent dictionary and
// checks that the support and coefficients are recovered exactly.
func TestExactRecovery(t *testing.T) {
	const n, L, N = 64, 4, 200
	D := hadamardDict(n)
	k := 2 * n
	rng := rand.New(rand.NewPCG(11, 2))
	X := mat.NewDense(N, n, nil)
	supp := make([]map[int]float64, N)
	for i := range N {
		supp[i] = map[int]float64{}
		for _, j := range rng.Perm(k)[:L] {
			v := (1 + rng.Float64()) * float64(1-2*rng.IntN(2))
			supp[i][j] = v
			for e := range n {
				X.Set(i, e, X.At(i, e)+v*D.At(j, e))
			}
		}
	}
	for name, b := range backends(t) {
		for _, opts := range [][]Option{{WithSparsity(L)}, {WithSparsity(L + 3)}, {WithTolerance(1e-20)}} {
			c, err := New(D, append(opts, WithBackend(b), WithResiduals())...)
			if err != nil {
				t.Fatal(err)
			}
			codes, err := c.Encode(X)
			if err != nil {
				t.Fatal(err)
			}
			for i := range N {
				idx, val := codes.Row(i)
				if len(idx) != L {
					t.Fatalf("%s sample %d: %d atoms %v, want %d", name, i, len(idx), idx, L)
				}
				for m, j := range idx {
					want, ok := supp[i][j]
					if !ok || math.Abs(val[m]-want) > 1e-12 {
						t.Fatalf("%s sample %d: atom %d coefficient %v, want support %v", name, i, j, val[m], supp[i])
					}
				}
				if codes.Residual[i] > 1e-13 {
					t.Errorf("%s sample %d: residual %v after exact recovery", name, i, codes.Residual[i])
				}
			}
		}
	}
}

// TestDegenerate covers the cases where OMP must stop early and cleanly.
func TestDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n, k = 12, 20
	D := randDict(rng, k, n)

	t.Run("zero signal", func(t *testing.T) {
		c := mustNew(t, D, WithSparsity(4), WithResiduals())
		codes := mustEncode(t, c, mat.NewDense(3, n, nil))
		for i := range 3 {
			if idx, _ := codes.Row(i); len(idx) != 0 {
				t.Errorf("sample %d: atoms %v for a zero signal", i, idx)
			}
			if codes.Residual[i] != 0 {
				t.Errorf("sample %d: residual %v", i, codes.Residual[i])
			}
		}
	})

	t.Run("signal is an atom", func(t *testing.T) {
		c := mustNew(t, D, WithSparsity(4), WithResiduals())
		X := mat.NewDense(2, n, nil)
		X.SetRow(0, D.RawRowView(7))
		for e := range n {
			X.Set(1, e, -3.5*D.At(3, e))
		}
		codes := mustEncode(t, c, X)
		for i, want := range []struct {
			atom int
			v    float64
		}{{7, 1}, {3, -3.5}} {
			idx, val := codes.Row(i)
			if len(idx) != 1 || idx[0] != want.atom || math.Abs(val[0]-want.v) > 1e-14 {
				t.Errorf("sample %d: atoms %v values %v, want atom %d value %v", i, idx, val, want.atom, want.v)
			}
			if codes.Residual[i] > 1e-14 {
				t.Errorf("sample %d: residual %v", i, codes.Residual[i])
			}
		}
	})

	t.Run("duplicate atoms", func(t *testing.T) {
		Dd := mat.DenseCopyOf(D)
		Dd.SetRow(5, D.RawRowView(2))
		Dd.SetRow(9, D.RawRowView(2))
		X := randSamples(rng, 30, n, true)
		for i := range 10 { // signals dominated by the duplicated atom
			row := X.RawRowView(i)
			for e := range row {
				row[e] = 0.1*row[e] + D.At(2, e)
			}
		}
		c := mustNew(t, Dd, WithSparsity(n), WithResiduals())
		codes := mustEncode(t, c, X)
		checkFinite(t, codes)
		for i := range 30 {
			idx, _ := codes.Row(i)
			dup := 0
			for _, j := range idx {
				if j == 2 || j == 5 || j == 9 {
					dup++
				}
			}
			if dup > 1 {
				t.Errorf("sample %d: atoms %v use the duplicated atom %d times", i, idx, dup)
			}
		}
	})

	t.Run("rank deficient, L >= rank", func(t *testing.T) {
		// 10 atoms in a 3-dimensional subspace of R^8, L = 8.
		const dim, rank, K = 8, 3, 10
		var qr mat.QR
		qr.Factorize(randSamples(rng, dim, rank, false))
		var Q mat.Dense
		qr.QTo(&Q)
		B := mat.DenseCopyOf(Q.Slice(0, dim, 0, rank).T()) // orthonormal rows
		Dr := mat.NewDense(K, dim, nil)
		Dr.Mul(randSamples(rng, K, rank, true), B)
		c := mustNew(t, Dr, WithSparsity(dim), WithResiduals(), WithNormalize())
		X := randSamples(rng, 50, dim, true)
		codes := mustEncode(t, c, X)
		checkFinite(t, codes)
		for i := range 50 {
			idx, _ := codes.Row(i)
			if len(idx) > rank {
				t.Errorf("sample %d: %d atoms %v from a rank-%d dictionary", i, len(idx), idx, rank)
			}
			// The residual is x minus its projection on the subspace.
			var p mat.VecDense
			p.MulVec(B, mat.NewVecDense(dim, X.RawRowView(i)))
			want := math.Sqrt(max(0, 1-mat.Dot(&p, &p)))
			if math.Abs(codes.Residual[i]-want) > 1e-10 {
				t.Errorf("sample %d: residual %v, distance to the subspace %v", i, codes.Residual[i], want)
			}
		}
	})

	t.Run("tolerance met at start", func(t *testing.T) {
		c := mustNew(t, D, WithTolerance(1.01))
		codes := mustEncode(t, c, randSamples(rng, 5, n, true))
		if codes.Nnz() != 0 {
			t.Errorf("%d coefficients for signals already within the tolerance", codes.Nnz())
		}
	})

	t.Run("scale", func(t *testing.T) {
		X := randSamples(rng, 20, n, true)
		for _, opts := range [][]Option{{WithSparsity(6)}, {WithTolerance(1e-4)}} {
			c := mustNew(t, D, append(opts, WithResiduals())...)
			base := mustEncode(t, c, X)
			for _, s := range []float64{1e-150, 1e150, 1e-300, 1e300} {
				Xs := mat.NewDense(20, n, nil)
				Xs.Scale(s, X)
				var tol []Option
				if c.hasTol {
					tol = []Option{WithTolerance(1e-4 * s * s)}
					if s*s == 0 || math.IsInf(s*s, 0) {
						continue
					}
				}
				cs := mustNew(t, D, append(append(opts, tol...), WithResiduals())...)
				got := mustEncode(t, cs, Xs)
				checkFinite(t, got)
				const rel = 1e-12
				for i := range 20 {
					bi, bv := base.Row(i)
					gi, gv := got.Row(i)
					if !equalInts(bi, gi) {
						t.Fatalf("scale %g sample %d: atoms %v, unscaled %v", s, i, gi, bi)
					}
					for m := range gv {
						if d := math.Abs(gv[m]/s - bv[m]); d > rel*math.Abs(bv[m]) {
							t.Errorf("scale %g sample %d: coefficient/scale %v, unscaled %v", s, i, gv[m]/s, bv[m])
						}
					}
					if d := math.Abs(got.Residual[i]/s - base.Residual[i]); d > rel {
						t.Errorf("scale %g sample %d: residual/scale %v, unscaled %v", s, i, got.Residual[i]/s, base.Residual[i])
					}
				}
			}
		}
	})

	t.Run("non-finite sample", func(t *testing.T) {
		c := mustNew(t, D, WithSparsity(3), WithBlockSize(4))
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			X := randSamples(rng, 10, n, true)
			X.Set(6, 4, bad)
			X.Set(9, 0, bad)
			_, err := c.Encode(X)
			if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "sample 6 ") ||
				!strings.Contains(err.Error(), "feature 4") {
				t.Errorf("%v in row 6: error %v", bad, err)
			}
		}
		// A huge but finite sample is coded, not rejected.
		X := randSamples(rng, 2, n, true)
		X.Set(1, 0, 1e308)
		codes, err := c.Encode(X)
		if err != nil {
			t.Fatalf("sample with an entry 1e308: %v", err)
		}
		checkFinite(t, codes)
	})

	t.Run("wrong width", func(t *testing.T) {
		c := mustNew(t, D, WithSparsity(3))
		_, err := c.Encode(mat.NewDense(2, n+1, nil))
		if !errors.Is(err, ErrShape) {
			t.Errorf("error %v, want ErrShape", err)
		}
	})

	t.Run("empty", func(t *testing.T) {
		c := mustNew(t, D, WithSparsity(3))
		for _, X := range []*mat.Dense{nil, {}} {
			codes, err := c.Encode(X)
			if err != nil || codes.Len() != 0 || codes.Nnz() != 0 || len(codes.Indptr) != 1 {
				t.Errorf("empty X: %+v, %v", codes, err)
			}
			if !codes.Dense().IsEmpty() {
				t.Error("Dense of empty codes is not empty")
			}
		}
	})
}

// TestBatchOMPDependent drives the recurrence directly with a Gram matrix of
// two equal atoms and correlations no real sample has, so that the second
// choice depends on the first: it must stop after one atom.
func TestBatchOMPDependent(t *testing.T) {
	g := []float64{1, 1, 1, 1}
	w := newWorker[float64](2, 2, 2, false)
	idx, val := make([]int, 2), make([]float64, 2)
	diag := newGramDiag([]float64{1, 1})
	p := w.batchOMP(g, &diag, 2, []float64{1, 0.9}, 0, 1, 0, false, idx, val)
	if p != 1 || idx[0] != 0 || val[0] != 1 {
		t.Errorf("got %d atoms %v values %v, want atom 0 value 1", p, idx[:p], val[:p])
	}
}

// TestStrided codes with D and X given as views into wider matrices and
// compares with contiguous copies.
func TestStrided(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const n, k, N, L = 17, 33, 45, 5
	wideD := randSamples(rng, k+3, n+9, false)
	D := wideD.Slice(2, 2+k, 5, 5+n).(*mat.Dense)
	for j := range k { // unit-normalise the view in place
		row := D.RawRowView(j)
		s := math.Sqrt(kernel.SumSqUnitary(row))
		for e := range row {
			row[e] /= s
		}
	}
	wideX := randSamples(rng, N+4, n+7, false)
	X := wideX.Slice(1, 1+N, 3, 3+n).(*mat.Dense)
	for name, b := range backends(t) {
		cv := mustNew(t, D, WithSparsity(L), WithBackend(b), WithResiduals(), WithBlockSize(8))
		cc := mustNew(t, mat.DenseCopyOf(D), WithSparsity(L), WithBackend(b), WithResiduals(), WithBlockSize(8))
		got := mustEncode(t, cv, X)
		want := mustEncode(t, cc, mat.DenseCopyOf(X))
		ref := make([]refCode, N)
		for i := range N {
			ref[i] = refOMP(mat.DenseCopyOf(D), X.RawRowView(i), L, 0, false)
		}
		checkAgainst(t, got, ref, 1e-9)
		if !mat.EqualApprox(got.Dense(), want.Dense(), 1e-14) {
			t.Errorf("%s: strided and contiguous codes differ", name)
		}
	}
}

// TestThreadsAndBackendsAgree checks that neither the thread count, the
// block size nor the backend changes the codes beyond rounding: the samples' rows go to
// different GEMM calls with different thread counts, and a backend's GEMM
// may round differently for different shapes.
func TestThreadsAndBackendsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	const n, k, N = 36, 80, 101
	D := randDict(rng, k, n)
	X := randSamples(rng, N, n, false)
	var first *Codes
	for name, b := range backends(t) {
		var base *Codes
		for _, th := range []int{1, 2, 3} {
			for _, blk := range []int{20, 1, 7, 1000} {
				c := mustNew(t, D, WithSparsity(7), WithBackend(b), WithThreads(th), WithBlockSize(blk))
				got := mustEncode(t, c, X)
				if base == nil {
					base = got
					continue
				}
				if !equalInts(got.Index, base.Index) || !equalInts(got.Indptr, base.Indptr) {
					t.Fatalf("%s threads=%d block=%d: atoms differ from threads=1", name, th, blk)
				}
				for i := range got.Value {
					if d := math.Abs(got.Value[i] - base.Value[i]); d > 1e-12*math.Abs(base.Value[i]) {
						t.Fatalf("%s threads=%d block=%d: value %d = %v, threads=1 %v", name, th, blk, i, got.Value[i], base.Value[i])
					}
				}
			}
		}
		if first == nil {
			first = base
		} else if !equalInts(first.Index, base.Index) || !mat.EqualApprox(first.Dense(), base.Dense(), 1e-10) {
			t.Errorf("backend %s disagrees with the first backend", name)
		}
	}
}

// TestChunks checks that coding a part in chunks (a GEMM and the pursuits
// of a few samples at a time, as the native backend does for small
// dictionaries) gives the same codes, bit for bit, as one GEMM a part, for
// chunks that divide the part, that do not, and that are longer than it.
func TestChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	const n, k, N = 40, 90, 157
	D := randDict(rng, k, n)
	X := randSamples(rng, N, n, false)
	for _, th := range []int{1, 2} {
		c := mustNew(t, D, WithSparsity(6), WithThreads(th), WithBlockSize(64))
		c.chunkMax = 0
		want := mustEncode(t, c, X)
		c.chunkMax = n * k
		for _, ch := range []int{6, 48, 13, 200} {
			c.chunk = ch
			got := mustEncode(t, c, X)
			if !equalInts(got.Index, want.Index) || !equalInts(got.Indptr, want.Indptr) {
				t.Fatalf("threads=%d chunk=%d: atoms differ from one GEMM a part", th, ch)
			}
			for i, v := range got.Value {
				if math.Float64bits(v) != math.Float64bits(want.Value[i]) {
					t.Fatalf("threads=%d chunk=%d: value %d = %v, one GEMM a part %v", th, ch, i, v, want.Value[i])
				}
			}
		}
		// A coder whose first Encode ran in chunks, which leave the
		// round's buffer of correlations unallocated, then codes from
		// given correlations and in one GEMM a part.
		c2 := mustNew(t, D, WithSparsity(6), WithThreads(th), WithBlockSize(64))
		c2.chunk, c2.chunkMax = 48, n*k
		mustEncode(t, c2, X)
		a0 := mat.NewDense(N, k, nil)
		if err := c2.CorrelationsTo(a0, X); err != nil {
			t.Fatal(err)
		}
		xx := make([]float64, N)
		for i := range xx {
			xx[i] = mat.Dot(X.RowView(i), X.RowView(i))
		}
		var fromGram Codes
		if err := c2.EncodeGramTo(&fromGram, a0, xx); err != nil {
			t.Fatal(err)
		}
		c2.chunkMax = 0
		got := mustEncode(t, c2, X)
		if !equalInts(fromGram.Index, want.Index) || !equalInts(got.Index, want.Index) {
			t.Fatalf("threads=%d: after a chunked Encode, EncodeGramTo or Encode chose other atoms", th)
		}
		// Bad samples in later chunks of both parts: the first is named.
		c.chunk = 6
		bad := mat.DenseCopyOf(X)
		bad.Set(100, 2, math.NaN())
		bad.Set(50, 3, math.Inf(-1))
		bad.Set(20, 1, math.NaN())
		if _, err := c.Encode(bad); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "sample 20 ") {
			t.Errorf("threads=%d: samples 20, 50 and 100 bad: error %v, want one naming sample 20", th, err)
		}
	}
}

// TestConcurrentEncode runs Encode from several goroutines on one coder.
func TestConcurrentEncode(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 8))
	D := randDict(rng, 40, 16)
	X := randSamples(rng, 50, 16, true)
	c := mustNew(t, D, WithSparsity(4), WithThreads(2), WithBlockSize(8))
	want := mustEncode(t, c, X)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range 4 {
		wg.Go(func() {
			for range 5 {
				got, err := c.Encode(X)
				if err == nil && !mat.Equal(got.Dense(), want.Dense()) {
					err = fmt.Errorf("goroutine %d: codes differ", g)
				}
				if err != nil {
					errs[g] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func mustNew(t *testing.T, D *mat.Dense, opts ...Option) *Coder {
	t.Helper()
	c, err := New(D, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustEncode(t *testing.T, c *Coder, X *mat.Dense) *Codes {
	t.Helper()
	codes, err := c.Encode(X)
	if err != nil {
		t.Fatal(err)
	}
	return codes
}

func checkFinite(t *testing.T, c *Codes) {
	t.Helper()
	for i, v := range c.Value {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("coefficient %d is %v", i, v)
		}
	}
	for i, v := range c.Residual {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("residual %d is %v", i, v)
		}
	}
}

// TestManyAtoms codes with more atoms than the GEMV update keeps copies of
// (gemvMaxRows), so the update runs as a GEMV and then axpys, and compares
// with the reference.
func TestManyAtoms(t *testing.T) {
	const n, k, N = 90, 100, 6
	L := gemvMaxRows + 6
	rng := rand.New(rand.NewPCG(12, 1))
	D := randDict(rng, k, n)
	X := randSamples(rng, N, n, true)
	ref := make([]refCode, N)
	for i := range ref {
		ref[i] = refOMP(D, X.RawRowView(i), L, 0, false)
	}
	got := mustEncode(t, mustNew(t, D, WithSparsity(L)), X)
	checkAgainst(t, got, ref, 1e-9)
}
