package omp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
)

// to32 returns M rounded to float32, and the rounded values back in a
// float64 matrix, so that a Coder and a Coder32 can code the same numbers.
func to32(M *mat.Dense) (blas32.General, *mat.Dense) {
	r, c := M.Dims()
	g := blas32.General{Rows: r, Cols: c, Stride: c, Data: make([]float32, r*c)}
	back := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			v := float32(M.At(i, j))
			g.Data[i*c+j] = v
			back.Set(i, j, float64(v))
		}
	}
	return g, back
}

// agreement compares the codes of a Coder32 with those of a Coder on the
// same samples: the share of samples whose supports (sets of atoms) are
// the same, the share whose atoms come in the same order, and, over the
// samples with the same support, the largest difference of a coefficient
// relative to the sample's largest float64 coefficient (normwise) and to
// the coefficient itself (entrywise).
type agreement struct {
	samples          int
	sameSet, inOrder float64
	normwise         float64
	entrywise        float64
}

func (a agreement) String() string {
	return fmt.Sprintf("%d samples: same support %.2f%% (same order %.2f%%); where the same, largest coefficient difference %.2g of the sample's largest, %.2g of its own",
		a.samples, 100*a.sameSet, 100*a.inOrder, a.normwise, a.entrywise)
}

func compareCodes(t *testing.T, c32 *Codes32, c64 *Codes) agreement {
	t.Helper()
	if c32.Len() != c64.Len() {
		t.Fatalf("%d float32 codes, %d float64 codes", c32.Len(), c64.Len())
	}
	a := agreement{samples: c64.Len()}
	var same, order int
	for i := range c64.Len() {
		i32, v32 := c32.Row(i)
		i64, v64 := c64.Row(i)
		if slices.Equal(i32, i64) {
			order++
		}
		s32, s64 := slices.Clone(i32), slices.Clone(i64)
		slices.Sort(s32)
		slices.Sort(s64)
		if !slices.Equal(s32, s64) {
			continue
		}
		same++
		var big float64
		for _, v := range v64 {
			big = max(big, math.Abs(v))
		}
		for m, j := range i32 {
			w := v64[slices.Index(i64, j)]
			d := math.Abs(float64(v32[m]) - w)
			if big > 0 {
				a.normwise = max(a.normwise, d/big)
			}
			if w != 0 {
				a.entrywise = max(a.entrywise, d/math.Abs(w))
			}
		}
	}
	if a.samples > 0 {
		a.sameSet = float64(same) / float64(a.samples)
		a.inOrder = float64(order) / float64(a.samples)
	}
	return a
}

// TestCoder32MatchesFloat64 codes random problems (those of
// TestMatchesReference) with a Coder32 and with a Coder on the same
// float32 numbers, on every backend and 1 to 3 goroutines: supports must
// agree on almost every sample and coefficients to float32 accuracy. A
// float32 path that erred in anything but rounding — a wrong row of G, a
// coefficient not updated, a stopping rule on the wrong norm — gives other
// supports.
func TestCoder32MatchesFloat64(t *testing.T) {
	problems := []problem{
		{n: 20, k: 50, l: 5, unit: true},
		// Not L = n = K: the last atoms of such codes fit residuals
		// below float32's noise, which the float32 coder stops at.
		{n: 16, k: 16, l: 10, unit: true},
		{n: 40, k: 24, l: 12},
		{n: 30, k: 90, l: 10, tol: 0.05, hasTol: true},
		{n: 25, k: 60, tol: 1e-3, hasTol: true},
		{n: 24, k: 70, l: 1},
		{n: 64, k: 300, l: 8, unit: true},
	}
	N := 400
	if testing.Short() {
		N = 100
	}
	for pi, p := range problems {
		rng := rand.New(rand.NewPCG(uint64(pi), 32))
		D32, D := to32(randDict(rng, p.k, p.n))
		X32, X := to32(randSamples(rng, N, p.n, p.unit))
		want := mustEncode(t, mustNew(t, D, p.options()...), X)
		for _, name := range blas.Available() {
			b, err := blas.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			var first *Codes32
			for _, th := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%v/%s/threads=%d", p, name, th), func(t *testing.T) {
					c, err := New32(D32, append(p.options(), WithBackend(b), WithThreads(th), WithBlockSize(32))...)
					if err != nil {
						t.Fatal(err)
					}
					got, err := c.Encode(X32)
					if err != nil {
						t.Fatal(err)
					}
					a := compareCodes(t, got, want)
					// A tolerance stops the pursuits on a residual energy
					// that float32 knows to about 1e-7: a sample whose
					// energy lands that close to eps may take one atom
					// more or less.
					if a.sameSet < 0.99 || a.normwise > 1e-4 {
						t.Errorf("float32 against float64: %v", a)
					}
					// The codes do not depend on the goroutines, where
					// the GEMM's rounding does not depend on the shape.
					if first == nil {
						first = got
					} else if blas.RoundsAsKernel(b) && !sameCodes32(got, first) {
						t.Errorf("codes on %d goroutines differ from those on 1", th)
					}
				})
			}
		}
	}
}

// sameCodes32 reports whether a and b are the same codes bit for bit.
func sameCodes32(a, b *Codes32) bool {
	return a.Samples == b.Samples && a.Atoms == b.Atoms && slices.Equal(a.Indptr, b.Indptr) &&
		slices.Equal(a.Index, b.Index) && slices.Equal(a.Value, b.Value) && slices.Equal(a.Residual, b.Residual)
}

// TestCoder32Reference holds the float32 codes to the plain OMP of
// ref_test.go on the float32 numbers: the same atoms on almost every
// sample, and small residual norms that agree with those of the codes.
func TestCoder32Reference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 32))
	D32, D := to32(randDict(rng, 80, 30))
	X32, X := to32(randSamples(rng, 200, 30, false))
	c, err := New32(D32, WithSparsity(6), WithResiduals())
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Encode(X32)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i := range 200 {
		ref := refOMP(D, X.RawRowView(i), 6, 0, false)
		idx, val := got.Row(i)
		if !slices.Equal(idx, ref.idx) {
			bad++
			continue
		}
		var scale float64
		for _, v := range ref.val {
			scale = max(scale, math.Abs(v))
		}
		for m := range val {
			if d := math.Abs(float64(val[m]) - ref.val[m]); !(d <= 1e-4*scale) {
				t.Errorf("sample %d, atom %d: coefficient %g, reference %g", i, idx[m], val[m], ref.val[m])
			}
		}
		r := math.Sqrt(max(0, ref.res2[len(ref.res2)-1]))
		if d := math.Abs(float64(got.Residual[i]) - r); !(d <= 1e-4*math.Sqrt(ref.res2[0])) {
			t.Errorf("sample %d: residual norm %g, reference %g", i, got.Residual[i], r)
		}
	}
	if bad > 2 {
		t.Errorf("%d of 200 samples have other atoms than the reference", bad)
	}
}

// TestCoder32Paths checks that the float32 coder gives the same codes
// from samples, from correlations (on a coder with a dictionary and on one
// of its Gram matrix alone, set three ways), with the dictionary packed and
// not, after SetDictionary, and into reused Codes without allocating.
func TestCoder32Paths(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 32))
	D32, _ := to32(randDict(rng, 120, 40))
	E32, _ := to32(randDict(rng, 120, 40))
	X32, X := to32(randSamples(rng, 300, 40, false))
	c, err := New32(D32, WithSparsity(7), WithBackend(blas.Native{}), WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.Encode(X32)
	if err != nil {
		t.Fatal(err)
	}
	if !c.gm.packed() || !c.chunked() {
		t.Fatal("native: the float32 coder does not run packed and in chunks")
	}
	// Unpacked, not chunked: gonum's SGEMM (a backend without a packed
	// GEMM), whose values differ by rounding only.
	cg, err := New32(D32, WithSparsity(7), WithBackend(gonum.Implementation{}), WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	got, err := cg.Encode(X32)
	if err != nil {
		t.Fatal(err)
	}
	if a := compareCodes32(got, want); a < 0.99 {
		t.Errorf("gonum against native: %.3f of the supports the same", a)
	}

	// From correlations and norms.
	A0 := blas32.General{Rows: 300, Cols: 120, Stride: 120, Data: make([]float32, 300*120)}
	if err := c.CorrelationsTo(A0, X32); err != nil {
		t.Fatal(err)
	}
	xx := make([]float64, 300)
	for i := range xx {
		xx[i] = mat.Dot(X.RowView(i), X.RowView(i))
	}
	var dst Codes32
	if err := c.EncodeGramTo(&dst, A0, xx); err != nil {
		t.Fatal(err)
	}
	if !sameCodes32(&dst, want) {
		t.Error("EncodeGramTo differs from Encode")
	}
	g := c.Gram()
	G := blas32.General{Rows: 120, Cols: 120, Stride: 120, Data: slices.Clone(g.Data)}
	for i := range 120 { // only the upper triangle is read
		for j := range i {
			G.Data[i*120+j] = float32(math.NaN())
		}
	}
	gc, err := NewGram32(G, WithSparsity(7))
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"NewGram32", "SetGram", "FillGram", "NewGramFill32"} {
		switch set {
		case "NewGramFill32":
			if gc, err = NewGramFill32(120, func(g []float32) { copy(g, G.Data) }, WithSparsity(7)); err != nil {
				t.Fatal(err)
			}
		case "SetGram":
			if err := gc.SetGram(G); err != nil {
				t.Fatal(err)
			}
		case "FillGram":
			if err := gc.FillGram(func(g []float32) { copy(g, G.Data) }); err != nil {
				t.Fatal(err)
			}
		}
		if err := gc.EncodeGramTo(&dst, A0, xx); err != nil {
			t.Fatal(err)
		}
		if !sameCodes32(&dst, want) {
			t.Errorf("%s, EncodeGramTo differs from Encode", set)
		}
	}

	// Another dictionary, and back.
	if err := c.SetDictionary(E32); err != nil {
		t.Fatal(err)
	}
	other, err := c.Encode(X32)
	if err != nil {
		t.Fatal(err)
	}
	if sameCodes32(other, want) {
		t.Error("SetDictionary: the same codes on another dictionary")
	}
	if err := c.SetDictionary(D32); err != nil {
		t.Fatal(err)
	}
	if err := c.EncodeTo(&dst, X32); err != nil {
		t.Fatal(err)
	}
	if !sameCodes32(&dst, want) {
		t.Error("SetDictionary back: other codes")
	}
	// One goroutine: nothing allocated (see TestEncodeToReuse), the
	// GEMMs included with the native backend.
	for name, b := range map[string]Option{"native": WithBackend(blas.Native{})} {
		c1, err := New32(D32, WithSparsity(7), b, WithThreads(1))
		if err != nil {
			t.Fatal(err)
		}
		if err := c1.EncodeTo(&dst, X32); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(5, func() {
			if err := c1.EncodeTo(&dst, X32); err != nil {
				t.Fatal(err)
			}
		}); a > 0 && !raceOn {
			t.Errorf("%s: EncodeTo into reused Codes32 on one goroutine: %v allocations", name, a)
		}
	}
}

// compareCodes32 returns the share of samples whose atoms are the same in
// a and b.
func compareCodes32(a, b *Codes32) float64 {
	same := 0
	for i := range a.Len() {
		ia, _ := a.Row(i)
		ib, _ := b.Row(i)
		if slices.Equal(ia, ib) {
			same++
		}
	}
	return float64(same) / float64(a.Len())
}

// TestCoder32Options checks residuals, normalisation and the tolerance on
// the float32 coder: residual norms that match the codes, codes of the
// normalised dictionary, and residual energies at most the target.
func TestCoder32Options(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 32))
	D := randDict(rng, 60, 24)
	for j := range 60 { // norms from 0.5 to 2
		s := 0.5 + 1.5*rng.Float64()
		row := D.RawRowView(j)
		for i := range row {
			row[i] *= s
		}
	}
	D32, D64 := to32(D)
	X32, X := to32(randSamples(rng, 100, 24, true))
	if _, err := New32(D32); !errors.Is(err, ErrNotUnit) {
		t.Fatalf("atoms of norm 0.5 to 2: %v, want ErrNotUnit", err)
	}
	c, err := New32(D32, WithNormalize(), WithTolerance(0.02), WithResiduals())
	if err != nil {
		t.Fatal(err)
	}
	if c.Sparsity() != 24 {
		t.Errorf("Sparsity() = %d with a tolerance alone, want min(n, K) = 24", c.Sparsity())
	}
	got, err := c.Encode(X32)
	if err != nil {
		t.Fatal(err)
	}
	want := mustEncode(t, mustNew(t, D64, WithNormalize(), WithTolerance(0.02), WithResiduals()), X)
	if a := compareCodes(t, got, want); a.sameSet < 0.97 || a.normwise > 1e-4 {
		t.Errorf("float32 against float64: %v", a)
	}
	for i := range 100 {
		idx, val := got.Row(i)
		// The residual from the codes, in float64, on the normalised atoms.
		r := slices.Clone(X.RawRowView(i))
		for m, j := range idx {
			d := D64.RawRowView(j)
			nrm := math.Sqrt(mat.Dot(D64.RowView(j), D64.RowView(j)))
			for q := range r {
				r[q] -= float64(val[m]) * d[q] / nrm
			}
		}
		res := math.Sqrt(dotSelf(r))
		if d := math.Abs(res - float64(got.Residual[i])); d > 1e-5 {
			t.Errorf("sample %d: residual norm %g, from the codes %g", i, got.Residual[i], res)
		}
		if len(idx) < 24 && res*res > 0.02*(1+1e-4) {
			t.Errorf("sample %d: %d atoms and residual energy %g > 0.02", i, len(idx), res*res)
		}
	}
}

func dotSelf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

// TestCoder32Dependent checks the float32 stopping rules, whose threshold
// is float32's epsilon: samples that are exact combinations of one or two
// atoms (up to their rounding to float32) get those atoms and no more,
// even with L = 4 and a dictionary holding a copy of an atom and a
// combination of two others; what is left after the true atoms is
// rounding noise, which float64's epsilon would take for signal, choosing
// more atoms with coefficients of noise.
func TestCoder32Dependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	D := randDict(rng, 40, 20)
	copy(D.RawRowView(1), D.RawRowView(0))
	r2, r3, r4 := D.RawRowView(2), D.RawRowView(3), D.RawRowView(4)
	for i := range r4 {
		r4[i] = (r2[i] + r3[i])
	}
	nrm := math.Sqrt(dotSelf(r4))
	for i := range r4 {
		r4[i] /= nrm
	}
	D32, D := to32(D)
	type sample struct {
		atoms []int
		w     []float64
	}
	var samples []sample
	for range 60 {
		a := []int{[]int{0, 2, 3, 4, 5}[rng.IntN(5)]}
		if rng.IntN(2) == 1 {
			a = append(a, 5+rng.IntN(35))
		}
		w := make([]float64, len(a))
		for m := range w {
			w[m] = 0.5 + rng.Float64()
		}
		samples = append(samples, sample{a, w})
	}
	X := mat.NewDense(len(samples), 20, nil)
	for i, s := range samples {
		row := X.RawRowView(i)
		for m, j := range s.atoms {
			for q := range row {
				row[q] += s.w[m] * D.At(j, q)
			}
		}
	}
	X32, _ := to32(X)
	c, err := New32(D32, WithSparsity(4))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Encode(X32)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range samples {
		idx, val := got.Row(i)
		want := slices.Clone(s.atoms)
		if len(want) == 2 && want[0] == want[1] {
			want = want[:1]
		}
		sorted := slices.Clone(idx)
		slices.Sort(sorted)
		slices.Sort(want)
		// Atom 4 is in the span of atoms 2 and 3: both codes are exact.
		alt := slices.Clone(want)
		if k := slices.Index(alt, 4); k >= 0 {
			alt = append(slices.Delete(alt, k, k+1), 2, 3)
			slices.Sort(alt)
		}
		if !slices.Equal(sorted, want) && !slices.Equal(sorted, alt) {
			t.Errorf("sample %d, %v·atoms %v: coded on atoms %v, values %v", i, s.w, s.atoms, idx, val)
		}
	}
}

// TestCoder32Errors checks the float32 entry points' errors: empty and
// malformed matrices, bad atoms and samples, the backend options, and the
// calls that need a dictionary or a Gram matrix.
func TestCoder32Errors(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 32))
	D32, _ := to32(randDict(rng, 10, 6))
	X32, _ := to32(randSamples(rng, 5, 6, true))
	bad := func(f func(g *blas32.General)) blas32.General {
		g := blas32.General{Rows: D32.Rows, Cols: D32.Cols, Stride: D32.Stride, Data: slices.Clone(D32.Data)}
		f(&g)
		return g
	}
	cases := []struct {
		name string
		err  error
		run  func() error
	}{
		{"empty", ErrEmpty, func() error { _, err := New32(blas32.General{}); return err }},
		{"short data", ErrShape, func() error {
			_, err := New32(bad(func(g *blas32.General) { g.Data = g.Data[:len(g.Data)-1] }))
			return err
		}},
		{"stride < cols", ErrShape, func() error { _, err := New32(bad(func(g *blas32.General) { g.Stride = 5 })); return err }},
		{"NaN atom", ErrNonFinite, func() error {
			_, err := New32(bad(func(g *blas32.General) { g.Data[13] = float32(math.NaN()) }))
			return err
		}},
		{"zero atom", ErrZeroAtom, func() error {
			_, err := New32(bad(func(g *blas32.General) { clear(g.Data[6:12]) }), WithNormalize())
			return err
		}},
		{"sparsity", ErrOption, func() error { _, err := New32(D32, WithSparsity(7)); return err }},
		{"WithBackend32 on New", ErrOption, func() error {
			D := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
			_, err := New(D, WithBackend32(gonum.Implementation{}))
			return err
		}},
		{"nil WithBackend32", ErrOption, func() error { _, err := New32(D32, WithBackend32(nil)); return err }},
		{"sample width", ErrShape, func() error {
			c, err := New32(D32)
			if err != nil {
				return err
			}
			_, err = c.Encode(blas32.General{Rows: 2, Cols: 5, Stride: 5, Data: make([]float32, 10)})
			return err
		}},
		{"Inf sample", ErrNonFinite, func() error {
			c, err := New32(D32)
			if err != nil {
				return err
			}
			X := blas32.General{Rows: 5, Cols: 6, Stride: 6, Data: slices.Clone(X32.Data)}
			X.Data[20] = float32(math.Inf(-1))
			_, err = c.Encode(X)
			return err
		}},
		{"Gram not square", ErrShape, func() error {
			_, err := NewGram32(blas32.General{Rows: 2, Cols: 3, Stride: 3, Data: make([]float32, 6)})
			return err
		}},
		{"Gram diagonal", ErrNotUnit, func() error {
			_, err := NewGram32(blas32.General{Rows: 2, Cols: 2, Stride: 2, Data: []float32{1, 0, 0, 1.01}})
			return err
		}},
		{"Encode on a Gram coder", ErrShape, func() error {
			c, err := NewGram32(blas32.General{Rows: 2, Cols: 2, Stride: 2, Data: []float32{1, 0, 0, 1}})
			if err != nil {
				return err
			}
			_, err = c.Encode(X32)
			return err
		}},
		{"norms of EncodeGramTo", ErrShape, func() error {
			c, err := New32(D32)
			if err != nil {
				return err
			}
			var dst Codes32
			return c.EncodeGramTo(&dst, blas32.General{Rows: 2, Cols: 10, Stride: 10, Data: make([]float32, 20)}, []float64{1})
		}},
	}
	for _, tc := range cases {
		err := tc.run()
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error of several lines: %q", tc.name, err)
		}
	}
	c, err := New32(D32)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetGram(D32); err == nil {
		t.Error("SetGram on a coder with a dictionary: no error")
	}
	var dst Codes32
	if err := c.EncodeTo(&dst, blas32.General{}); err != nil || dst.Len() != 0 {
		t.Errorf("empty samples: %v, %d codes", err, dst.Len())
	}
}

// mnistAgreement codes the first n MNIST training digits, preprocessed as
// the paper does (zero mean, unit norm), with L atoms of a dictionary of k
// other training digits (preprocessed, chosen at random by a fixed seed)
// by a Coder and a Coder32 on the same float32 numbers, and compares them.
// It returns too the agreement of the Coder32 with a Coder on the float64
// data, what a user who changes the precision sees.
func mnistAgreement(t *testing.T, n, k, l int) (same, user agreement) {
	train, _, err := dataset.MNIST()
	if err != nil {
		t.Skipf("MNIST not available: %v", err)
	}
	dim := train.Rows * train.Cols
	rows, _ := train.X.Dims()
	if rows < n+k {
		t.Fatalf("MNIST has %d training digits, want %d", rows, n+k)
	}
	perm := rand.New(rand.NewPCG(960, 5)).Perm(rows - n)
	D := mat.NewDense(k, dim, nil)
	for j := range k {
		D.SetRow(j, train.X.RawRowView(n+perm[j]))
	}
	X := mat.DenseCopyOf(train.X.Slice(0, n, 0, dim))
	if z := dataset.Preprocess(D); len(z) > 0 {
		t.Fatalf("constant digits among the atoms: %v", z)
	}
	dataset.Preprocess(X)
	D32, D32as64 := to32(D)
	X32, X32as64 := to32(X)
	c32, err := New32(D32, WithSparsity(l))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c32.Encode(X32)
	if err != nil {
		t.Fatal(err)
	}
	want := mustEncode(t, mustNew(t, D32as64, WithSparsity(l)), X32as64)
	wantUser := mustEncode(t, mustNew(t, D, WithSparsity(l)), X)
	return compareCodes(t, got, want), compareCodes(t, got, wantUser)
}

// TestMNIST32 measures how often the float32 coder chooses the atoms of
// the float64 one on MNIST: 10000 training digits, a dictionary of 960
// other digits, L = 5 (docs/benchmarks/float32.md gives the figures; run
// with -v to see them). Digits are much alike, so near-ties between atoms
// are common and some supports differ by rounding; a float32 path with an
// error beyond rounding differs on most.
func TestMNIST32(t *testing.T) {
	if testing.Short() {
		t.Skip("codes 10000 digits twice")
	}
	same, user := mnistAgreement(t, 10000, 960, 5)
	t.Logf("float32 against float64 on the same float32 numbers: %v", same)
	t.Logf("float32 against float64 on the float64 data: %v", user)
	if same.sameSet < 0.98 || same.normwise > 1e-3 {
		t.Errorf("float32 against float64: %v", same)
	}
	if user.sameSet < 0.98 || user.normwise > 1e-3 {
		t.Errorf("float32 against float64 on the float64 data: %v", user)
	}
}

// spy32 is gonum's BLAS that can be bound to a thread count
// (blas.Threaded) and records the count of the value each Sgemm ran on.
type spy32 struct {
	gonum.Implementation
	threads int
	mu      *sync.Mutex
	calls   *[]int
}

func (s spy32) Threads() int { return s.threads }

func (s spy32) WithThreads(n int) blas.Threaded { s.threads = n; return s }

func (s spy32) Sgemm(tA, tB gblas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	s.mu.Lock()
	*s.calls = append(*s.calls, s.threads)
	s.mu.Unlock()
	s.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// f64only is a backend without float32 routines.
type f64only struct{ gblas.Float64 }

// TestCoder32Backends checks that the float32 coder runs each part's SGEMM
// on the backend bound to one thread when several goroutines share a round,
// and on the backend as given with one, as the float64 coder does
// (TestThreadsBound); that WithBackend32 takes a float32 backend; and that
// a backend without float32 routines is refused.
func TestCoder32Backends(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 32))
	D32, _ := to32(randDict(rng, 30, 12))
	X32, _ := to32(randSamples(rng, 100, 12, true))
	var calls []int
	spy := spy32{threads: 3, mu: new(sync.Mutex), calls: &calls}
	for _, opt := range []func(spy32) Option{
		func(s spy32) Option { return WithBackend(s) },
		func(s spy32) Option { return WithBackend32(s) },
	} {
		for _, tc := range []struct{ threads, want int }{{2, 1}, {1, 3}} {
			calls = calls[:0]
			c, err := New32(D32, WithSparsity(3), opt(spy), WithThreads(tc.threads))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Encode(X32); err != nil {
				t.Fatal(err)
			}
			if len(calls) == 0 {
				t.Fatalf("coder threads %d: no SGEMM on the backend", tc.threads)
			}
			for _, got := range calls {
				if got != tc.want {
					t.Fatalf("coder threads %d: an SGEMM ran on a backend bound to %d threads, want %d (%v)", tc.threads, got, tc.want, calls)
				}
			}
		}
	}
	if _, err := New32(D32, WithBackend(f64only{gonum.Implementation{}})); !errors.Is(err, ErrOption) {
		t.Errorf("a backend without float32 routines: %v, want ErrOption", err)
	}
}
