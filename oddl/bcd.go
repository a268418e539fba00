package oddl

import (
	"math"
	"sync/atomic"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
)

// bcdBlock is the number of atoms per block of the blocked update: large
// enough for the trailing GEMM to run near peak, small enough that the
// in-block corrections (sub-blocks of bcdSub) stay cheap.
const bcdBlock = 128

// bcdSub is the number of atoms per sub-block inside a block: the GEMVs
// reach back at most bcdSub−1 rows, and a small GEMM per sub-block carries
// its changes to the rest of the block.
const bcdSub = 32

// unusedTol reports the threshold under which M_jj counts as zero: a tiny
// fraction of the mean diagonal, so that it scales with the statistics.
func (st *state) unusedTol() float64 {
	var tr float64
	for j := 0; j < st.k; j++ {
		tr += st.m[j*st.k+j]
	}
	return 1e-12 * tr / float64(st.k)
}

// updater runs the block-coordinate descent sweeps over the atoms.
type updater struct {
	impl gblas.Float64
	// p holds one row of M·D~ for the column form; delta holds a block's
	// changes of D~ and work a copy of its rows of P, which the in-block
	// updates correct (P's own rows keep their values from before).
	p, delta, work, u []float64
	// gi and gv list the nonzero M_ji of a row in a sub-block (inBlock),
	// tmp holds a row's sum for kernel.AddRowsSum.
	gi  []int
	gv  []float64
	tmp []float64
	// reseed, when set, is called for an unused atom j and writes the new
	// row into its argument; it reports whether it did.
	reseed func(j int, row []float64) bool
	// updateW tells whether the classifier part of D~ follows the update;
	// when false (λ0 = 0) only the dictionary part moves and W is kept.
	updateW bool
	// perClass says that M is block diagonal over the class blocks of
	// state.block (the InitClass initialisation codes each sample on its
	// class's atoms only): a block's changes then reach only its own rows
	// of P, and the blocked sweep works class by class.
	perClass bool
	// lookahead, when set, runs the blocked sweep with the kernel's GEMM
	// directly and overlaps each block's product with the next block's
	// Gauss–Seidel updates (sweepAhead); it needs a backend that rounds
	// as the kernel's GEMM (blas.KernelRounding) and two threads.
	lookahead bool
	// pd holds a block's changes packed for its product, dense or sparse
	// (kernel.AxpyRowsPacked), so that the next block's updates can fill
	// delta while it runs: sweepBlocked packs into pd[0] after each block,
	// sweepAhead packs each sub-block's rows as soon as they are final
	// (packTo), the blocks taking pd[0] and pd[1] in turn, so that a block's
	// products read one while the next block fills the other.
	pd     [2]kernel.PackedB
	packTo *kernel.PackedB
	// threads is how many goroutines the sparse products may use (< 2:
	// one).
	threads int
	// terms holds the nonzero entries of M in each block of atoms (one
	// for sweepBlocked, every block for sweepAhead), dec whether each
	// block's product runs sparse.
	terms []blockTerms
	dec   []bool
}

// blockTerms lists the nonzero M[r, j0:j1] of rows lo..hi-1 of a block of
// atoms in compressed sparse row form: row r's entries are idx[m] (atom
// offsets in the block) and val[m] for m in ptr[r-lo]..ptr[r-lo+1]-1, in
// order of the atom.
type blockTerms struct {
	lo  int
	ptr []int
	idx []int
	val []float64
}

// sweep runs one Gauss–Seidel sweep over the atoms j = 0..K−1:
//
//	u = d~_j + (n_j − Σ_k M_jk d~_k)/M_jj,  d~_j = u / ||u[:n]||
//
// where the sum sees the atoms < j already updated. blocked selects the
// GEMM form. It returns the number of atoms skipped or reseeded as unused.
func (up *updater) sweep(st *state, blocked bool) (unused int) {
	if blocked && up.lookahead && !up.perClass {
		return up.sweepAhead(st)
	}
	if blocked {
		return up.sweepBlocked(st)
	}
	return up.sweepColumn(st)
}

func (up *updater) sweepColumn(st *state) (unused int) {
	k, s := st.k, st.stride()
	st.pValid = false
	if len(up.p) < s {
		up.p = make([]float64, s)
	}
	p := up.p[:s]
	tol := st.unusedTol()
	for j := 0; j < k; j++ {
		// p = Σ_k M_jk d~_k = D~ᵀ m_j (M symmetric, so row j of M is m_j).
		up.impl.Dgemv(gblas.Trans, k, s, 1, st.dt, s, st.m[j*k:(j+1)*k], 1, 0, p, 1)
		if !up.atom(st, j, p, tol) {
			unused++
		}
	}
	return unused
}

// sweepBlocked is the sweep in blocks of bcdBlock atoms. Row j of P =
// M·D~ must be exact with the atoms < j updated when atom j's turn comes.
// Within a block the atoms go in sub-blocks of bcdSub: one GEMV per atom
// applies the changes of its sub-block's earlier atoms, and after each
// sub-block a small GEMM applies its changes to the block's later rows;
// after each block one GEMM applies all its changes to every row of P (the
// block's own rows from their values before the in-block corrections). P is
// thus M·D~ for the updated dictionary at the end, ready for the next
// mini-batch: a sweep costs one K×K×(n+q) product in all, plus the first
// computation of P.
func (up *updater) sweepBlocked(st *state) (unused int) {
	k, s := st.k, st.stride()
	p := up.prepareBlocked(st)
	tol := st.unusedTol()
	c, lo, hi := 0, 0, k // the rows of P a block's changes reach
	if up.perClass {
		lo, hi = st.block(c)
	}
	for j0 := 0; j0 < k; {
		for up.perClass && j0 == hi && c+1 < st.q {
			c++
			lo, hi = st.block(c)
		}
		j1 := min(j0+bcdBlock, hi)
		b := j1 - j0
		delta, work := up.delta[:b*s], up.work[:b*s]
		copy(work, p[j0*s:j1*s])
		unused += up.inBlock(st, j0, j1, tol, up.impl.Dgemm, work)
		// P += M[:, j0:j1]·Δ for every row it reaches (M[i, j0:j1] = 0
		// outside [lo, hi)), the block's own rows from before their
		// in-block corrections (which went to the copy).
		if len(up.terms) == 0 {
			up.terms = make([]blockTerms, 1)
		}
		if bt := &up.terms[0]; blockSparse(st, lo, hi, j0, j1, bt) {
			up.sparseParallel(st, lo, hi, b, bt)
		} else {
			up.impl.Dgemm(gblas.NoTrans, gblas.NoTrans, hi-lo, s, b, 1, st.m[lo*k+j0:], k, delta, s, 1, p[lo*s:], s)
		}
		j0 = j1
	}
	return unused
}

// sparseLimit is the largest fraction of nonzero entries of M[rows, block]
// for which a block's product runs sparse (sparseRows): with class-pure
// atoms most pairs of atoms never share a code, and a multi-row axpy over
// the nonzero entries then costs less than the dense product.
const sparseLimit = 0.3

// sparseAhead is how many rows ahead blockSparse asks for M's entries.
const sparseAhead = 4

// blockSparse reports whether the product of atoms j0..j1 over rows lo..hi
// of P runs sparse: whether at most sparseLimit of the entries of M there
// are nonzero. It depends on M only, so every form of the sweep decides
// alike. When it does, bt lists those entries (blockTerms); it stops
// counting as soon as the limit is passed.
func blockSparse(st *state, lo, hi, j0, j1 int, bt *blockTerms) bool {
	k, b := st.k, j1-j0
	limit := int(sparseLimit * float64((hi-lo)*b)) // the largest count that is sparse
	// Room for the limit and one more row (kernel.CompressNonzero may
	// write a whole row's length).
	if need := limit + b; cap(bt.idx) < need {
		bt.idx = make([]int, need)
		bt.val = make([]float64, need)
	}
	idx, val := bt.idx[:cap(bt.idx)], bt.val[:cap(bt.val)]
	bt.lo = lo
	ptr := append(bt.ptr[:0], 0)
	nnz := 0
	for r := lo; r < hi; r++ {
		// The rows' pieces lie a row of M apart, too far for the
		// hardware to foresee: ask for the one a few rows on.
		if r+sparseAhead < hi {
			kernel.Prefetch(st.m[(r+sparseAhead)*k+j0 : (r+sparseAhead)*k+j1])
		}
		nnz += kernel.CompressNonzero(st.m[r*k+j0:r*k+j1], idx[nnz:nnz+b], val[nnz:nnz+b])
		if nnz > limit {
			bt.ptr = ptr
			return false
		}
		ptr = append(ptr, nnz)
	}
	bt.ptr = ptr
	return true
}

// sparseRows adds M[r, j0:j1]·Δ to row r of P for r in r0..r1 (rows of the
// block's terms bt), Δ the block's changes packed in pd, with the nonzero
// M_rj only, in order of j: one fused multiply-add per term, as separate
// axpys would.
func sparseRows(st *state, r0, r1 int, bt *blockTerms, pd *kernel.PackedB) {
	s := st.stride()
	kernel.AxpyRowsPacked(r1-r0, bt.ptr[r0-bt.lo:], bt.idx, bt.val, pd, st.p[r0*s:], s)
}

// sparseParallel runs sparseRows over rows lo..hi on up.threads
// goroutines, each taking contiguous rows (rows are independent), the
// block's changes packed first.
func (up *updater) sparseParallel(st *state, lo, hi, b int, bt *blockTerms) {
	s := st.stride()
	up.pd[0].Pack(false, b, s, up.delta[:b*s], s)
	w := max(1, min(up.threads, (hi-lo)/16))
	par.Do(w, func(i int) {
		sparseRows(st, lo+i*(hi-lo)/w, lo+(i+1)*(hi-lo)/w, bt, &up.pd[0])
	})
}

// prepareBlocked sizes the blocked sweeps' buffers and returns P = M·D~,
// computing it first unless it is kept.
func (up *updater) prepareBlocked(st *state) []float64 {
	k, s := st.k, st.stride()
	if len(st.p) != k*s {
		st.p = make([]float64, k*s)
		st.pValid = false
	}
	if len(up.delta) < bcdBlock*s {
		up.delta = make([]float64, bcdBlock*s)
		up.work = make([]float64, bcdBlock*s)
	}
	if !st.pValid {
		up.impl.Dgemm(gblas.NoTrans, gblas.NoTrans, k, s, k, 1, st.m, k, st.dt, s, 0, st.p, s)
		st.pValid = true
	}
	return st.p
}

// gemmFunc is the signature of the GEMM the in-block sub-block products
// run on (a backend's Dgemm, or the kernel's on one thread).
type gemmFunc func(tA, tB gblas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)

// inBlock updates atoms j0..j1-1 of a block in order, in sub-blocks of
// bcdSub: one GEMV per atom (over the nonzero M_ji only) applies the
// changes of its sub-block's earlier atoms to its row of P, and after each
// sub-block one product (gemm) applies its changes to the block's later
// rows. The block's rows of P are read and corrected in pw (row j at
// pw[(j−j0)·s:]), a copy, so that P keeps them as they were for the
// block's product. It leaves the block's changes Δ in up.delta and returns
// the number of unused atoms.
func (up *updater) inBlock(st *state, j0, j1 int, tol float64, gemm gemmFunc, pw []float64) (unused int) {
	k, s := st.k, st.stride()
	delta := up.delta
	if len(up.gi) < bcdSub {
		up.gi = make([]int, bcdSub)
		up.gv = make([]float64, bcdSub)
	}
	if len(up.tmp) < s {
		up.tmp = make([]float64, s)
	}
	// With the kernel's GEMM the sub-block products skip the zero M_ri
	// and still give its values (kernel.AddRowsSum).
	kernelGEMM := up.lookahead || blas.RoundsAsKernel(up.impl)
	for i0 := j0; i0 < j1; i0 += bcdSub {
		i1 := min(i0+bcdSub, j1)
		dsub := delta[(i0-j0)*s:]
		for j := i0; j < i1; j++ {
			pj := pw[(j-j0)*s : (j-j0+1)*s]
			// Bring p_j up to date with the atoms of this sub-block
			// already changed: p_j += Δ[i0:j]ᵀ·M[j, i0:j], one FMA per
			// term in order of the atom, the zero M_ji skipped (M is
			// mostly zero; adding zeros would change nothing).
			if j > i0 {
				gi, gv := up.gi[:j-i0], up.gv[:j-i0]
				if c := kernel.CompressNonzero(st.m[j*k+i0:j*k+j], gi, gv); c > 0 {
					kernel.AxpyRows(gv[:c], dsub, s, gi[:c], pj)
				}
			}
			dj := delta[(j-j0)*s : (j-j0+1)*s]
			copy(dj, st.dt[j*s:(j+1)*s])
			if !up.atom(st, j, pj, tol) {
				unused++
			}
			// Δ_j = new − old.
			kernel.Axpby(dj, st.dt[j*s:(j+1)*s], dj, 1, -1)
		}
		if up.packTo != nil {
			// The sub-block's changes are final: pack them while they
			// are in cache.
			up.packTo.PackRows(false, j1-j0, s, delta[:(j1-j0)*s], s, i0-j0, i1-j0)
		}
		// The block's later rows: P[i1:j1] += M[i1:j1, i0:i1]·Δ[i0:i1].
		switch {
		case i1 == j1:
		case kernelGEMM:
			for r := i1; r < j1; r++ {
				gi, gv := up.gi[:i1-i0], up.gv[:i1-i0]
				if c := kernel.CompressNonzero(st.m[r*k+i0:r*k+i1], gi, gv); c > 0 {
					kernel.AddRowsSum(gv[:c], dsub, s, gi[:c], pw[(r-j0)*s:(r-j0+1)*s], up.tmp)
				}
			}
		default:
			gemm(gblas.NoTrans, gblas.NoTrans, j1-i1, s, i1-i0, 1, st.m[i1*k+i0:], k, dsub, s, 1, pw[(i1-j0)*s:], s)
		}
	}
	return unused
}

// aheadRows is the number of rows of P in one product of sweepAhead's
// shared work: small enough that the goroutines finish together.
const aheadRows = 48

// sweepAhead is sweepBlocked (the same blocks, sub-blocks and products, so
// the same result bit for bit) on the kernel's GEMM with one block of look-
// ahead. Once a block's changes Δ are known (and packed, for the dense or
// the sparse product), a helper goroutine starts on the products for the
// rows of P outside the next block, aheadRows rows each, while the
// calling goroutine gives the next block's rows their product and runs
// that block's Gauss–Seidel updates (which read and write only its rows
// of P and D~), then joins in on what is left. Both run their products
// on one thread.
func (up *updater) sweepAhead(st *state) (unused int) {
	k, s := st.k, st.stride()
	p := up.prepareBlocked(st)
	tol := st.unusedTol()
	one := func(tA, tB gblas.Transpose, m, n, kk int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
		kernel.DgemmOn(1, tA == gblas.Trans, tB == gblas.Trans, m, n, kk, alpha, a, lda, b, ldb, beta, c, ldc)
	}

	// The pending work: P[r0:r1] += M[r0:r1, pj0:pj0+b]·Δ for each span,
	// claimed in turn through next by both goroutines.
	type span struct{ r0, r1 int }
	var (
		spans  []span
		pj0    int
		sparse bool            // whether the pending block's product runs sparse
		ppd    *kernel.PackedB // the pending block's changes, packed
		next   atomic.Int64
	)
	// Whether each block's product runs sparse depends on M only, which the
	// sweep does not change: decide for every block at once, on both
	// threads, instead of on one thread between blocks, and list the
	// sparse blocks' terms.
	nb := (k + bcdBlock - 1) / bcdBlock
	if cap(up.dec) < nb {
		up.dec = make([]bool, nb)
	}
	for len(up.terms) < nb {
		up.terms = append(up.terms, blockTerms{})
	}
	dec := up.dec[:nb]
	par.Do(2, func(w int) {
		for b := w; b < nb; b += 2 {
			j0 := b * bcdBlock
			dec[b] = blockSparse(st, 0, k, j0, min(j0+bcdBlock, k), &up.terms[b])
		}
	})
	// A block's changes are read packed (up.pd[0] or up.pd[1]); the next
	// block's updates pack theirs into the other.
	run := func() {
		for {
			c := int(next.Add(1)) - 1
			if c >= len(spans) {
				return
			}
			sp := spans[c]
			if sparse {
				sparseRows(st, sp.r0, sp.r1, &up.terms[pj0/bcdBlock], ppd)
			} else {
				kernel.DgemmPackedOn(1, false, sp.r1-sp.r0, 1, st.m[sp.r0*k+pj0:], k, ppd, 1, p[sp.r0*s:], s)
			}
		}
	}
	add := func(lo, hi int) {
		for r := lo; r < hi; r += aheadRows {
			spans = append(spans, span{r, min(r+aheadRows, hi)})
		}
	}
	// block runs the Gauss–Seidel updates of the block from atom j0 on,
	// packing its changes into up.pd[(j0/bcdBlock)%2].
	block := func(j0 int, gemm gemmFunc) int {
		j1 := min(j0+bcdBlock, k)
		pw := up.work[:(j1-j0)*s]
		copy(pw, p[j0*s:j1*s])
		up.packTo = &up.pd[(j0/bcdBlock)%2]
		u := up.inBlock(st, j0, j1, tol, gemm, pw)
		up.packTo = nil
		return u
	}

	unused += block(0, up.impl.Dgemm)
	for j0 := 0; j0 < k; j0 += bcdBlock {
		j1, bi := min(j0+bcdBlock, k), j0/bcdBlock
		j2 := min(j1+bcdBlock, k)
		spans = spans[:0]
		add(0, j1)
		add(j2, k)
		pj0, sparse, ppd = j0, dec[bi], &up.pd[bi%2]
		next.Store(0)
		// The helper starts on the other rows of P at once, while this
		// goroutine gives the next block's rows their product first, runs
		// that block's updates (its products on one thread) and then
		// joins in.
		par.Do(2, func(w int) {
			if w == 0 && j2 > j1 {
				if sparse {
					sparseRows(st, j1, j2, &up.terms[bi], ppd)
				} else {
					kernel.DgemmPackedOn(1, false, j2-j1, 1, st.m[j1*k+j0:], k, ppd, 1, p[j1*s:], s)
				}
				unused += block(j1, one)
			}
			run()
		})
	}
	return unused
}

// atom updates atom j given p = Σ_k M_jk d~_k with the current D~. It
// reports false when the atom is unused (M_jj ≈ 0), in which case it is
// reseeded or kept.
func (up *updater) atom(st *state, j int, p []float64, tol float64) bool {
	k, n, s := st.k, st.n, st.stride()
	row := st.dt[j*s : (j+1)*s]
	mjj := st.m[j*k+j]
	if !(mjj > tol) {
		if up.reseed != nil && up.reseed(j, row) && st.single {
			kernel.Round32(row)
		}
		return false
	}
	if len(up.u) < s {
		up.u = make([]float64, s)
	}
	u := up.u[:s]
	nj := st.nt[j*s : (j+1)*s]
	inv := 1 / mjj
	copy(u, row)
	kernel.AxpyUnitary(inv, nj, u)
	kernel.AxpyUnitary(-inv, p[:s], u)
	norm := math.Sqrt(kernel.SumSqUnitary(u[:n]))
	if !(norm > 1e-150) || math.IsInf(norm, 0) {
		// The dictionary part vanished (or overflowed): no direction to
		// normalise, keep the atom as it is.
		return true
	}
	inv = 1 / norm
	m := n
	if up.updateW {
		m = s
	}
	copy(row[:m], u[:m])
	kernel.ScalUnitary(inv, row[:m])
	if st.single {
		kernel.Round32(row[:m])
	}
	return true
}

// axpy computes y += alpha·x.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}
