package ksvd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/omp"
)

// Default values of Config fields left at zero.
const (
	// DefaultIterations is the number of K-SVD iterations when
	// Config.Iterations is 0.
	DefaultIterations = 10
	// DefaultMaxCoherence is the largest |correlation| allowed between two
	// atoms when Config.MaxCoherence is 0.
	DefaultMaxCoherence = 0.99
)

// maxAtoms bounds K so that the K×K Gram matrix stays addressable.
const maxAtoms = 1 << 16

// Config holds the settings of one K-SVD run. K and L must be set; the other
// fields have usable zero values.
type Config struct {
	// K is the number of atoms. It may be 0 when Init is set; it is then
	// the number of rows of Init.
	K int
	// L is the sparsity: every sample is coded with at most L atoms.
	L int
	// Iterations is the largest number of iterations (sparse coding of every
	// sample, then one update of every atom); 0 means DefaultIterations.
	Iterations int
	// Tolerance stops the run early, after the iteration whose
	// root-mean-square representation error changed by less than this
	// fraction of the previous iteration's. 0 runs every iteration.
	Tolerance float64
	// MaxCoherence is the largest |correlation| two atoms may have: after
	// each iteration but the last, an atom closer than this to another one
	// is replaced by the worst-represented sample. 0 means
	// DefaultMaxCoherence; 1 or more turns the check off.
	MaxCoherence float64
	// Seed drives every random choice: the initial atoms and the order in
	// which atoms are updated. The same seed and data give the same result.
	Seed uint64
	// Init is the starting dictionary, K×n with one atom per row; its rows
	// are normalised (a copy is made, Init is not modified). nil starts from
	// K distinct random non-zero samples, normalised.
	Init *mat.Dense
	// Threads is the number of goroutines of the sparse coder and of the
	// residual computation; 0 means GOMAXPROCS. With the Go backends the
	// result does not depend on it; OpenBLAS may round differently when the
	// work is split differently.
	Threads int
	// Backend is the BLAS implementation of the sparse coder and of the
	// Gram matrices; nil means blas.Default() bound to Threads (an
	// ODDL_BLAS naming a backend that is not there is then an error).
	Backend gblas.Float64
	// Progress, when set, is called after the sparse coding of every
	// iteration (1-based) with the root-mean-square representation error
	// sqrt(‖X − A·D‖²_F / (N·n)) of the codes just computed.
	Progress func(iter int, rmse float64)
}

// Dictionary is the result of Train.
type Dictionary struct {
	// D holds the K atoms, one unit-norm row of length n each.
	D *mat.Dense
	// RMSE holds, for every iteration run, the root-mean-square
	// representation error of the iteration's sparse codes (the value passed
	// to Config.Progress).
	RMSE []float64
	// Replaced counts the atoms replaced by a sample because no sample used
	// them, their update vanished, or they were too close to another atom.
	Replaced int
}

// settings is a validated Config with defaults filled in.
type settings struct {
	Config
	n, N         int
	iters        int
	maxCoherence float64
	threads      int
	backend      gblas.Float64
}

// check validates cfg against the N×n data X and fills in the defaults.
func (cfg Config) check(X *mat.Dense) (settings, error) {
	s := settings{Config: cfg}
	if X == nil || X.IsEmpty() {
		return s, dataErr("no samples")
	}
	s.N, s.n = X.Dims()
	if cfg.Init != nil {
		if cfg.Init.IsEmpty() {
			return s, configErr("initial dictionary is empty")
		}
		r, c := cfg.Init.Dims()
		if cfg.K == 0 {
			s.K = r
		} else if r != cfg.K {
			return s, configErr("initial dictionary has %d atoms, K = %d", r, cfg.K)
		}
		if c != s.n {
			return s, configErr("initial dictionary atoms have length %d, samples have dimension %d", c, s.n)
		}
	}
	switch {
	case s.K < 1:
		return s, configErr("K = %d atoms, need at least 1", s.K)
	case s.K > maxAtoms:
		return s, configErr("K = %d atoms, at most %d are supported", s.K, maxAtoms)
	case cfg.L < 1:
		return s, configErr("sparsity L = %d, need at least 1", cfg.L)
	case cfg.L > s.K:
		return s, configErr("sparsity L = %d is larger than the number of atoms K = %d", cfg.L, s.K)
	case cfg.L > s.n:
		return s, configErr("sparsity L = %d is larger than the sample dimension %d", cfg.L, s.n)
	case cfg.Iterations < 0:
		return s, configErr("iterations = %d, need at least 0 (0 = %d)", cfg.Iterations, DefaultIterations)
	case !(cfg.Tolerance >= 0) || math.IsInf(cfg.Tolerance, 0):
		return s, configErr("tolerance = %v, need a finite value ≥ 0", cfg.Tolerance)
	case !(cfg.MaxCoherence >= 0) || math.IsInf(cfg.MaxCoherence, 0):
		return s, configErr("max coherence = %v, need a finite value ≥ 0", cfg.MaxCoherence)
	case cfg.Threads < 0:
		return s, configErr("threads = %d, need at least 0 (0 = all cores)", cfg.Threads)
	}
	s.iters = cfg.Iterations
	if s.iters == 0 {
		s.iters = DefaultIterations
	}
	s.maxCoherence = cfg.MaxCoherence
	if s.maxCoherence == 0 {
		s.maxCoherence = DefaultMaxCoherence
	}
	s.threads = cfg.Threads
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	s.backend = cfg.Backend
	if s.backend == nil {
		b, err := blas.Default(blas.WithThreads(s.threads))
		if err != nil {
			return s, fmt.Errorf("ksvd: %w", err)
		}
		s.backend = b
	}
	return s, nil
}

// firstNonFinite returns the position and value of the first NaN or ±Inf
// of X, and ok = false if there is none.
func firstNonFinite(X *mat.Dense) (i, j int, v float64, ok bool) {
	raw := X.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return i, j, v, true
			}
		}
	}
	return 0, 0, 0, false
}

// checkFinite returns an error naming the first NaN or ±Inf of the samples X.
func checkFinite(X *mat.Dense, what string) error {
	if i, j, v, bad := firstNonFinite(X); bad {
		return dataErr("%s: value %v at row %d, column %d", what, v, i, j)
	}
	return nil
}

// Train learns a dictionary of cfg.K atoms for the samples X (N×n, one
// sample per row) with the approximate K-SVD algorithm. See the package
// documentation for the iteration. Bad settings or data give an error
// wrapping ErrConfig or ErrData. When ctx is done the run stops (the
// context is checked between atoms and between iterations) with the
// context's error.
func Train(ctx context.Context, X *mat.Dense, cfg Config) (*Dictionary, error) {
	s, err := cfg.check(X)
	if err != nil {
		return nil, err
	}
	if err := checkFinite(X, "samples"); err != nil {
		return nil, err
	}
	t, err := newTrainer(X, s)
	if err != nil {
		return nil, err
	}
	return t.run(ctx)
}

// trainer holds the state and workspace of one K-SVD run.
type trainer struct {
	s    settings
	xm   *mat.Dense
	x    []float64 // samples, row i at i*xs
	xs   int       // row stride of x
	n, N int
	K    int

	d    []float64  // dictionary, K×n, row j is atom j
	dm   *mat.Dense // view of d
	r    []float64  // residuals X − A·D, N×n
	errs []float64  // squared residual norm of every sample
	// taken marks the samples already used as a replacement atom since the
	// errors were last computed.
	taken []bool

	coder *omp.Coder
	codes omp.Codes
	byAtom

	xrms float64 // root-mean-square of the samples' entries
	updateScratch
	perm     []int // order of the atom updates
	rng      *rand.Rand
	replaced int
}

// byAtom holds the entries of the codes grouped by atom:
// atomRef[atomPtr[j]:atomPtr[j+1]] are the positions in codes.Value of atom
// j's coefficients, and refSample[q] the sample of entry atomRef[q] (in
// the order of atomRef, so that an atom's update reads its samples in
// sequence and can ask for their residuals ahead).
type byAtom struct {
	atomPtr   []int
	atomRef   []int
	refSample []int
}

// updateScratch holds the buffers of the atom updates and of the
// coherence check.
type updateScratch struct {
	acc, old []float64 // n-vectors
	gram     []float64 // K×K, for the coherence check
	grow     []float64 // K-vector
}

// rngSalt is the second word of the PCG of a run, seeded by Config.Seed:
// the ASCII of "ksvd", so that the stream differs from other streams keyed
// by the same seed.
const rngSalt = 0x6b737664

func newTrainer(X *mat.Dense, s settings) (*trainer, error) {
	raw := X.RawMatrix()
	t := &trainer{
		s: s, xm: X, x: raw.Data, xs: raw.Stride, n: s.n, N: s.N, K: s.K,
		d:             make([]float64, s.K*s.n),
		r:             make([]float64, s.N*s.n),
		errs:          make([]float64, s.N),
		taken:         make([]bool, s.N),
		byAtom:        byAtom{atomPtr: make([]int, s.K+1)},
		updateScratch: updateScratch{acc: make([]float64, s.n), old: make([]float64, s.n)},
		rng:           rand.New(rand.NewPCG(s.Seed, rngSalt)),
	}
	t.dm = mat.NewDense(s.K, s.n, t.d)
	var ss float64
	for i := 0; i < t.N; i++ {
		ss += kernel.SumSqUnitary(t.sample(i))
	}
	t.xrms = math.Sqrt(ss / float64(t.N*t.n))
	if s.Init != nil {
		if i, j, v, bad := firstNonFinite(s.Init); bad {
			return nil, configErr("initial dictionary: value %v at atom %d, entry %d", v, i, j)
		}
		for j := 0; j < t.K; j++ {
			dj := t.atom(j)
			mat.Row(dj, j, s.Init)
			nrm := kernel.Nrm2Unitary(dj)
			if !(nrm > 0) {
				return nil, configErr("initial dictionary: atom %d is zero", j)
			}
			kernel.ScalUnitary(1/nrm, dj)
		}
	} else if err := t.initRandom(); err != nil {
		return nil, err
	}
	return t, nil
}

// initRandom sets the atoms to K distinct random non-zero samples.
func (t *trainer) initRandom() error {
	perm := t.rng.Perm(t.N)
	j := 0
	for _, i := range perm {
		if j == t.K {
			break
		}
		xi := t.sample(i)
		nrm := kernel.Nrm2Unitary(xi)
		if !(nrm > 0) {
			continue
		}
		dj := t.atom(j)
		copy(dj, xi)
		kernel.ScalUnitary(1/nrm, dj)
		j++
	}
	if j < t.K {
		return dataErr("K = %d atoms but only %d non-zero samples to start them from", t.K, j)
	}
	return nil
}

func (t *trainer) sample(i int) []float64   { return t.x[i*t.xs : i*t.xs+t.n] }
func (t *trainer) atom(j int) []float64     { return t.d[j*t.n : (j+1)*t.n] }
func (t *trainer) residual(i int) []float64 { return t.r[i*t.n : (i+1)*t.n] }

func (t *trainer) run(ctx context.Context) (*Dictionary, error) {
	res := &Dictionary{}
	for it := 1; it <= t.s.iters; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := t.code(); err != nil {
			return nil, err
		}
		rmse := t.computeResiduals()
		res.RMSE = append(res.RMSE, rmse)
		if t.s.Progress != nil {
			t.s.Progress(it, rmse)
		}
		if err := t.updateAtoms(ctx); err != nil {
			return nil, err
		}
		if it == t.s.iters || t.converged(res.RMSE) {
			break
		}
		if t.s.maxCoherence < 1 {
			t.computeErrors()
			t.clearCoherent()
		}
	}
	res.D = t.dm
	res.Replaced = t.replaced
	return res, nil
}

// converged reports whether the last relative change of the error is below
// the tolerance.
func (t *trainer) converged(rmse []float64) bool {
	k := len(rmse)
	if k == 0 {
		return false
	}
	if rmse[k-1] <= 1e-12*t.xrms {
		return true // exact up to rounding: nothing left to improve
	}
	if t.s.Tolerance == 0 || k < 2 {
		return false
	}
	prev := rmse[k-2]
	return math.Abs(prev-rmse[k-1]) < t.s.Tolerance*prev
}

// code computes the sparse codes of every sample on the current dictionary.
func (t *trainer) code() error {
	if t.coder == nil {
		c, err := omp.New(t.dm, omp.WithSparsity(t.s.L), omp.WithThreads(t.s.threads), omp.WithBackend(t.s.backend))
		if err != nil {
			return fmt.Errorf("ksvd: sparse coder: %w", err)
		}
		t.coder = c
	} else if err := t.coder.SetDictionary(t.dm); err != nil {
		return fmt.Errorf("ksvd: sparse coder: %w", err)
	}
	if err := t.coder.EncodeTo(&t.codes, t.xm); err != nil {
		return fmt.Errorf("ksvd: sparse coding: %w", err)
	}
	t.groupByAtom()
	return nil
}

// groupByAtom builds the per-atom lists of code entries (a CSC view of the
// CSR codes, pointing into them so updates land in the codes directly).
func (t *trainer) groupByAtom() {
	c := &t.codes
	nnz := c.Indptr[t.N]
	if cap(t.atomRef) < nnz {
		// At most L entries a sample: allocate for that once.
		size := max(nnz, t.N*t.s.L)
		t.atomRef = make([]int, size)
		t.refSample = make([]int, size)
	}
	t.atomRef = t.atomRef[:nnz]
	t.refSample = t.refSample[:nnz]
	ptr := t.atomPtr
	clear(ptr)
	for _, j := range c.Index[:nnz] {
		ptr[j+1]++
	}
	for j := 0; j < t.K; j++ {
		ptr[j+1] += ptr[j]
	}
	// Fill with ptr[j] as the running position of atom j, then shift back.
	for i := 0; i < t.N; i++ {
		for p := c.Indptr[i]; p < c.Indptr[i+1]; p++ {
			j := c.Index[p]
			t.atomRef[ptr[j]] = p
			t.refSample[ptr[j]] = i
			ptr[j]++
		}
	}
	copy(ptr[1:], ptr[:t.K])
	ptr[0] = 0
}

// parallel runs f over [0, N) split into one contiguous block per thread.
func (t *trainer) parallel(f func(lo, hi int)) {
	th := t.s.threads
	if th > t.N {
		th = t.N
	}
	if th <= 1 || t.N*t.n < 1<<15 {
		f(0, t.N)
		return
	}
	var wg sync.WaitGroup
	for b := 0; b < th; b++ {
		lo, hi := b*t.N/th, (b+1)*t.N/th
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// computeResiduals sets r = X − A·D and the per-sample squared errors, and
// returns the root-mean-square error.
func (t *trainer) computeResiduals() float64 {
	c := &t.codes
	t.parallel(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ri := t.residual(i)
			copy(ri, t.sample(i))
			for p := c.Indptr[i]; p < c.Indptr[i+1]; p++ {
				kernel.AxpyUnitary(-c.Value[p], t.atom(c.Index[p]), ri)
			}
			t.errs[i] = kernel.SumSqUnitary(ri)
		}
	})
	clear(t.taken)
	return t.rmse()
}

// computeErrors refreshes the per-sample squared errors from the residuals.
func (t *trainer) computeErrors() {
	t.parallel(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			t.errs[i] = kernel.SumSqUnitary(t.residual(i))
		}
	})
	clear(t.taken)
}

func (t *trainer) rmse() float64 {
	var sum float64
	for _, e := range t.errs {
		sum += e
	}
	return math.Sqrt(sum / float64(t.N*t.n))
}

// updateAtoms runs one approximate K-SVD update of every atom, in a random
// order. With g the coefficients of atom j on the samples S that use it and
// E = X_S − A_S·D + g·d_jᵀ the residual of those samples without atom j:
//
//	d_j ← Eᵀg / ‖Eᵀg‖,   g ← E·d_j
//
// (one power-method step towards the rank-one approximation of E). The
// residuals r_i, i ∈ S, are kept exact: r_i ← r_i + g_i·d_j,old − g_i,new·d_j.
func (t *trainer) updateAtoms(ctx context.Context) error {
	v := t.codes.Value
	acc, old := t.acc, t.old
	if len(t.perm) != t.K {
		t.perm = make([]int, t.K)
	}
	for j := range t.perm {
		t.perm[j] = j
	}
	t.rng.Shuffle(t.K, func(a, b int) { t.perm[a], t.perm[b] = t.perm[b], t.perm[a] })
	for k, j := range t.perm {
		if k&63 == 63 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		lo, hi := t.atomPtr[j], t.atomPtr[j+1]
		refs, smp := t.atomRef[lo:hi], t.refSample[lo:hi]
		dj := t.atom(j)
		if len(refs) == 0 {
			t.replace(j)
			continue
		}
		copy(old, dj)
		clear(acc)
		var gg float64
		for q, p := range refs {
			t.prefetchResidual(smp, q+residualAhead)
			g := v[p]
			kernel.AxpyUnitary(g, t.residual(smp[q]), acc)
			gg += g * g
		}
		kernel.AxpyUnitary(gg, old, acc)
		nrm := kernel.Nrm2Unitary(acc)
		if !(nrm > 1e-150) || math.IsInf(nrm, 0) {
			// What the samples leave for this atom is nothing: drop its
			// coefficients and give the atom a new start.
			for q, p := range refs {
				kernel.AxpyUnitary(v[p], old, t.residual(smp[q]))
				v[p] = 0
			}
			t.replace(j)
			continue
		}
		kernel.ScalUnitary(1/nrm, acc)
		c := kernel.DotUnitary(old, acc)
		for q, p := range refs {
			t.prefetchResidual(smp, q+residualAhead)
			ri := t.residual(smp[q])
			g := v[p]
			gn := kernel.DotUnitary(ri, acc) + g*c
			kernel.AxpyUnitary(g, old, ri)
			kernel.AxpyUnitary(-gn, acc, ri)
			v[p] = gn
		}
		copy(dj, acc)
	}
	return nil
}

// residualAhead is how many code entries ahead updateAtoms asks for the
// residual of the sample it will read.
const residualAhead = 8

// prefetchResidual asks for the residual of sample smp[q], if there is
// one. The samples that use an atom lie anywhere in the residuals, which
// are larger than the caches on a large training set (the patch front
// end's 100 000 patches): read in turn, each sample's residual would wait
// for memory.
func (t *trainer) prefetchResidual(smp []int, q int) {
	if q < len(smp) {
		kernel.Prefetch(t.residual(smp[q]))
	}
}

// replace sets atom j to the normalised sample with the largest error among
// those not taken yet, and returns false (leaving the atom alone) when there
// is none.
func (t *trainer) replace(j int) bool {
	best, bestErr := -1, -1.0
	for i, e := range t.errs {
		if !t.taken[i] && e > bestErr {
			best, bestErr = i, e
		}
	}
	for best >= 0 {
		t.taken[best] = true
		xi := t.sample(best)
		if nrm := kernel.Nrm2Unitary(xi); nrm > 0 {
			dj := t.atom(j)
			copy(dj, xi)
			kernel.ScalUnitary(1/nrm, dj)
			t.replaced++
			return true
		}
		// A zero sample makes no atom; try the next worst.
		best, bestErr = -1, -1.0
		for i, e := range t.errs {
			if !t.taken[i] && e > bestErr {
				best, bestErr = i, e
			}
		}
	}
	return false
}

// clearCoherent replaces every atom whose |correlation| with another atom
// exceeds the coherence limit by the worst-represented sample.
func (t *trainer) clearCoherent() {
	K, n := t.K, t.n
	if K < 2 {
		return
	}
	if t.gram == nil {
		t.gram = make([]float64, K*K)
		t.grow = make([]float64, K)
	}
	g := t.gram
	// Upper triangle of D·Dᵀ, then mirrored.
	t.s.backend.Dsyrk(gblas.Upper, gblas.NoTrans, K, n, 1, t.d, n, 0, g, K)
	for i := 0; i < K; i++ {
		for j := i + 1; j < K; j++ {
			g[j*K+i] = g[i*K+j]
		}
	}
	mu := t.s.maxCoherence
	for j := 0; j < K; j++ {
		row := g[j*K : (j+1)*K]
		coherent := false
		for k, v := range row {
			if k != j && math.Abs(v) > mu {
				coherent = true
				break
			}
		}
		if !coherent || !t.replace(j) {
			continue
		}
		// Refresh row and column j of the Gram matrix for the new atom.
		t.s.backend.Dgemv(gblas.NoTrans, K, n, 1, t.d, n, t.atom(j), 1, 0, t.grow, 1)
		for k, v := range t.grow {
			g[j*K+k] = v
			g[k*K+j] = v
		}
	}
}
