package omp

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/oddl-go/oddl/blas"
	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"
)

func TestNewErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	D := randDict(rng, 10, 6)
	withNaN := mat.DenseCopyOf(D)
	withNaN.Set(3, 2, math.NaN())
	withInf := mat.DenseCopyOf(D)
	withInf.Set(8, 5, math.Inf(-1))
	notUnit := mat.DenseCopyOf(D)
	notUnit.Set(4, 0, notUnit.At(4, 0)+1e-3)
	zero := mat.DenseCopyOf(D)
	zero.SetRow(7, make([]float64, 6))

	for _, tc := range []struct {
		name string
		D    *mat.Dense
		opts []Option
		err  error
		msg  string // must appear in the message
	}{
		{"nil", nil, nil, ErrEmpty, "empty"},
		{"empty", &mat.Dense{}, nil, ErrEmpty, "empty"},
		{"NaN", withNaN, nil, ErrNonFinite, "atom 3, entry 2 is NaN"},
		{"Inf", withInf, nil, ErrNonFinite, "atom 8, entry 5 is -Inf"},
		{"not unit", notUnit, nil, ErrNotUnit, "atom 4"},
		{"zero atom", zero, []Option{WithNormalize()}, ErrZeroAtom, "atom 7"},
		{"zero atom unnormalised", zero, nil, ErrZeroAtom, "atom 7"},
		{"L < 1", D, []Option{WithSparsity(0)}, ErrOption, "sparsity 0"},
		{"L > min(n,K)", D, []Option{WithSparsity(7)}, ErrOption, "sparsity 7 > min(n, K)"},
		{"eps < 0", D, []Option{WithTolerance(-1)}, ErrOption, "tolerance -1"},
		{"eps NaN", D, []Option{WithTolerance(math.NaN())}, ErrOption, "tolerance NaN"},
		{"eps Inf", D, []Option{WithTolerance(math.Inf(1))}, ErrOption, "tolerance +Inf"},
		{"threads", D, []Option{WithThreads(0)}, ErrOption, "threads 0"},
		{"block", D, []Option{WithBlockSize(-2)}, ErrOption, "block size -2"},
		{"backend", D, []Option{WithBackend(nil)}, ErrOption, "nil backend"},
		{"nil option", D, []Option{nil}, ErrOption, "nil Option"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.D, tc.opts...)
			if c != nil || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("New: %v, %v; want error %v containing %q", c, err, tc.err, tc.msg)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	for _, tc := range []struct {
		n, k int
		opts []Option
		want int
	}{
		{50, 80, nil, 5},   // n/10
		{5, 80, nil, 1},    // at least 1
		{200, 12, nil, 12}, // at most K
		{30, 80, []Option{WithTolerance(0.1)}, 30}, // tolerance alone: min(n, K)
		{30, 20, []Option{WithTolerance(0.1)}, 20}, // tolerance alone: min(n, K)
		{30, 80, []Option{WithTolerance(0.1), WithSparsity(4)}, 4},
	} {
		c := mustNew(t, randDict(rng, tc.k, tc.n), tc.opts...)
		if c.Sparsity() != tc.want || c.Atoms() != tc.k || c.Dim() != tc.n {
			t.Errorf("n=%d K=%d: Sparsity %d Atoms %d Dim %d, want %d %d %d",
				tc.n, tc.k, c.Sparsity(), c.Atoms(), c.Dim(), tc.want, tc.k, tc.n)
		}
	}
}

func TestGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 4))
	for _, k := range []int{1, 63, 64, 65, 130} {
		D := randDict(rng, k, 9)
		for name, b := range backends(t) {
			c := mustNew(t, D, WithSparsity(1), WithBackend(b))
			var want mat.Dense
			want.Mul(D, D.T())
			G := c.Gram()
			if !mat.EqualApprox(G, &want, 1e-14) {
				t.Errorf("%s K=%d: Gram differs from D Dᵀ", name, k)
			}
			if !mat.Equal(G, G.T()) {
				t.Errorf("%s K=%d: Gram is not exactly symmetric", name, k)
			}
		}
	}
}

// TestNormalize checks that WithNormalize codes a scaled dictionary as its
// normalised version, without touching the caller's matrix.
func TestNormalize(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	D := randDict(rng, 30, 10)
	scaled := mat.DenseCopyOf(D)
	for j := range 30 {
		row := scaled.RawRowView(j)
		for e := range row {
			row[e] *= float64(j + 1)
		}
	}
	keep := mat.DenseCopyOf(scaled)
	X := randSamples(rng, 20, 10, true)
	want := mustEncode(t, mustNew(t, D, WithSparsity(4)), X)
	c := mustNew(t, scaled, WithSparsity(4), WithNormalize())
	got := mustEncode(t, c, X)
	if !equalInts(got.Index, want.Index) || !mat.EqualApprox(got.Dense(), want.Dense(), 1e-12) {
		t.Error("normalised dictionary codes differ from the unit-norm dictionary's")
	}
	if !mat.Equal(scaled, keep) {
		t.Error("WithNormalize modified the caller's dictionary")
	}
	// Near-unit atoms are accepted and coded as given.
	near := mat.DenseCopyOf(D)
	near.Scale(1+NormTolerance/2, near)
	if _, err := New(near); err != nil {
		t.Errorf("atoms within NormTolerance: %v", err)
	}
}

func TestSetDictionary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 6))
	const n, k = 14, 40
	D1, D2 := randDict(rng, k, n), randDict(rng, k, n)
	X := randSamples(rng, 25, n, true)
	c := mustNew(t, D1, WithSparsity(5), WithBackend(gonum.Implementation{}), WithThreads(1))
	want2 := mustEncode(t, mustNew(t, D2, WithSparsity(5)), X)
	want1 := mustEncode(t, c, X)

	// A view with a wider stride.
	wide := mat.NewDense(k, n+3, nil)
	wide.Slice(0, k, 2, 2+n).(*mat.Dense).Copy(D2)
	if err := c.SetDictionary(wide.Slice(0, k, 2, 2+n).(*mat.Dense)); err != nil {
		t.Fatal(err)
	}
	if got := mustEncode(t, c, X); !mat.EqualApprox(got.Dense(), want2.Dense(), 1e-13) {
		t.Error("codes after SetDictionary differ from a new coder's")
	}

	// Errors leave the coder as it was.
	bad := mat.DenseCopyOf(D1)
	bad.Set(11, 3, math.Inf(1))
	if err := c.SetDictionary(bad); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "atom 11") {
		t.Errorf("SetDictionary(Inf): %v", err)
	}
	if err := c.SetDictionary(randDict(rng, k+1, n)); !errors.Is(err, ErrShape) {
		t.Errorf("SetDictionary(wrong shape): %v", err)
	}
	if err := c.SetDictionary(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("SetDictionary(nil): %v", err)
	}
	if got := mustEncode(t, c, X); !mat.EqualApprox(got.Dense(), want2.Dense(), 1e-13) {
		t.Error("a failed SetDictionary changed the coder")
	}

	if err := c.SetDictionary(D1); err != nil {
		t.Fatal(err)
	}
	if got := mustEncode(t, c, X); !mat.Equal(got.Dense(), want1.Dense()) {
		t.Error("codes after switching back differ")
	}
	if a := testing.AllocsPerRun(5, func() {
		if err := c.SetDictionary(D2); err != nil {
			t.Fatal(err)
		}
	}); a > 8 {
		t.Errorf("SetDictionary allocates %v times (want at most the few of its goroutines)", a)
	}
}

// TestEncodeToReuse checks that EncodeTo into a reused Codes allocates
// nothing with one thread, and a bounded few per call with several.
func TestEncodeToReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 7))
	D := randDict(rng, 50, 20)
	X := randSamples(rng, 300, 20, true)
	for _, tc := range []struct {
		opts []Option
		max  float64
	}{
		{[]Option{WithSparsity(5), WithThreads(1)}, 0},
		{[]Option{WithTolerance(0.01), WithThreads(1), WithResiduals()}, 0},
		{[]Option{WithSparsity(5), WithThreads(3)}, 8},
	} {
		c := mustNew(t, D, append(tc.opts, WithBackend(gonum.Implementation{}), WithBlockSize(64))...)
		var dst Codes
		if err := c.EncodeTo(&dst, X); err != nil {
			t.Fatal(err)
		}
		want := dst.Dense()
		a := testing.AllocsPerRun(5, func() {
			if err := c.EncodeTo(&dst, X); err != nil {
				t.Fatal(err)
			}
		})
		if a > tc.max {
			t.Errorf("EncodeTo of 300 samples: %v allocations per call, want <= %v", a, tc.max)
		}
		if !mat.Equal(dst.Dense(), want) {
			t.Error("reused Codes differ")
		}
		// Fewer samples into the same Codes.
		if err := c.EncodeTo(&dst, X.Slice(0, 7, 0, 20).(*mat.Dense)); err != nil {
			t.Fatal(err)
		}
		if dst.Len() != 7 || !mat.Equal(dst.Dense(), want.Slice(0, 7, 0, 50)) {
			t.Error("codes of a smaller batch into a reused Codes differ")
		}
	}
}

func TestCodes(t *testing.T) {
	c := Codes{
		Samples: 3, Atoms: 4,
		Indptr: []int{0, 2, 2, 3},
		Index:  []int{3, 0, 1},
		Value:  []float64{0.5, -1, 2},
	}
	want := mat.NewDense(3, 4, []float64{
		-1, 0, 0, 0.5,
		0, 0, 0, 0,
		0, 2, 0, 0,
	})
	if !mat.Equal(c.Dense(), want) {
		t.Errorf("Dense:\n%v", mat.Formatted(c.Dense()))
	}
	if idx, val := c.Row(2); !equalInts(idx, []int{1}) || val[0] != 2 {
		t.Errorf("Row(2) = %v %v", idx, val)
	}
	if c.Len() != 3 || c.Nnz() != 3 {
		t.Errorf("Len %d Nnz %d", c.Len(), c.Nnz())
	}
	defer func() {
		if recover() == nil {
			t.Error("Row(3) did not panic")
		}
	}()
	c.Row(3)
}

// spyBackend is gonum's BLAS that can be bound to a thread count
// (blas.Threaded) and records the count of the value each Dgemm ran on.
type spyBackend struct {
	gonum.Implementation
	threads int
	mu      *sync.Mutex
	calls   *[]int
}

func (s spyBackend) Threads() int { return s.threads }

func (s spyBackend) WithThreads(n int) blas.Threaded { s.threads = n; return s }

func (s spyBackend) Dgemm(tA, tB gblas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	s.mu.Lock()
	*s.calls = append(*s.calls, s.threads)
	s.mu.Unlock()
	s.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// TestThreadsBound checks that an Encode on several goroutines runs each
// part's GEMM on the backend bound to one thread, and one on a single
// goroutine on the backend as given, without changing the caller's value.
func TestThreadsBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 8))
	D := randDict(rng, 30, 12)
	X := randSamples(rng, 100, 12, true)
	var calls []int
	spy := spyBackend{threads: 3, mu: new(sync.Mutex), calls: &calls}
	for _, tc := range []struct{ threads, want int }{{2, 1}, {1, 3}} {
		calls = calls[:0]
		c := mustNew(t, D, WithSparsity(3), WithBackend(spy), WithThreads(tc.threads))
		mustEncode(t, c, X)
		if len(calls) == 0 {
			t.Fatalf("coder threads %d: no GEMM on the backend", tc.threads)
		}
		for _, got := range calls {
			if got != tc.want {
				t.Fatalf("coder threads %d: a GEMM ran on a backend bound to %d threads, want %d (%v)", tc.threads, got, tc.want, calls)
			}
		}
	}
	if spy.threads != 3 {
		t.Errorf("the caller's backend value changed to %d threads", spy.threads)
	}
}

// SetDictionary checks the atoms in bands on several threads; the error
// must still name the first bad atom, and the coder keep its dictionary.
func TestSetDictionaryFirstBadAtom(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	const n, k = 12, 300
	D := randDict(rng, k, n)
	X := randSamples(rng, 20, n, true)
	c := mustNew(t, D, WithSparsity(4), WithThreads(3))
	want := mustEncode(t, c, X)
	bad := randDict(rng, k, n)
	bad.Set(250, 0, math.NaN())          // a later band
	bad.RawRowView(130)[1] *= 2          // not of unit norm, an earlier band
	for i := range bad.RawRowView(200) { // zero, in between
		bad.Set(200, i, 0)
	}
	err := c.SetDictionary(bad)
	if !errors.Is(err, ErrNotUnit) || !strings.Contains(err.Error(), "atom 130 ") {
		t.Fatalf("SetDictionary: %v, want the error of atom 130", err)
	}
	if got := mustEncode(t, c, X); !mat.Equal(got.Dense(), want.Dense()) {
		t.Error("a rejected dictionary changed the codes")
	}
	bad.RawRowView(130)[1] /= 2
	if err := c.SetDictionary(bad); !errors.Is(err, ErrZeroAtom) || !strings.Contains(err.Error(), "atom 200 ") {
		t.Fatalf("SetDictionary: %v, want the error of atom 200", err)
	}
}

// The coder keeps what it needs of the dictionary: changing the caller's D
// (or its view) after New or SetDictionary changes no code, no Gram entry
// and no correlation, on every backend, with and without residuals.
func TestCoderOwnsDictionary(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	const k, n, N = 70, 30, 40
	X := randSamples(rng, N, n, false)
	for name, b := range backends(t) {
		for _, res := range []bool{false, true} {
			opts := []Option{WithSparsity(4), WithBackend(b)}
			if res {
				opts = append(opts, WithResiduals())
			}
			big := mat.NewDense(k, n+5, nil)
			D := big.Slice(0, k, 0, n).(*mat.Dense)
			D.Copy(randDict(rng, k, n))
			c := mustNew(t, D, opts...)
			want, err := c.Encode(X)
			if err != nil {
				t.Fatal(err)
			}
			wantG := mat.DenseCopyOf(c.Gram())
			wantA0 := mat.NewDense(N, k, nil)
			if err := c.CorrelationsTo(wantA0, X); err != nil {
				t.Fatal(err)
			}
			check := func(when string) {
				t.Helper()
				got, err := c.Encode(X)
				if err != nil {
					t.Fatalf("%s residuals=%v %s: %v", name, res, when, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s residuals=%v %s: the codes changed", name, res, when)
				}
				if !mat.Equal(c.Gram(), wantG) {
					t.Errorf("%s residuals=%v %s: the Gram matrix changed", name, res, when)
				}
				a0 := mat.NewDense(N, k, nil)
				if err := c.CorrelationsTo(a0, X); err != nil {
					t.Fatal(err)
				}
				if !mat.Equal(a0, wantA0) {
					t.Errorf("%s residuals=%v %s: the correlations changed", name, res, when)
				}
			}
			scribble := func() {
				for i := range big.RawMatrix().Data {
					big.RawMatrix().Data[i] = math.NaN()
				}
			}
			scribble()
			check("after New")
			D2 := mat.NewDense(k, n, nil)
			D2.Copy(randDict(rng, k, n))
			D.Copy(D2)
			if err := c.SetDictionary(D); err != nil {
				t.Fatal(err)
			}
			want, _ = c.Encode(X)
			wantG = mat.DenseCopyOf(c.Gram())
			if err := c.CorrelationsTo(wantA0, X); err != nil {
				t.Fatal(err)
			}
			scribble()
			check("after SetDictionary")
		}
	}
}
