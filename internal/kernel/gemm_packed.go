package kernel

import "github.com/oddl-go/oddl/internal/par"

// PackedB is the second operand of Dgemm packed once for the micro-kernel,
// for many products with the same B: DgemmPacked skips the packing that
// Dgemm does on every call. The zero value is empty; Pack fills it.
//
// The layout is the one of the tier that runs when Pack (or PackRows) lays
// it out: its panel width and blocking, recorded with the data. Products
// on a PackedB run that tier's micro-kernel, so that they give the values
// Dgemm gives in that tier; the tier is chosen once at start-up, so in a
// program the two are always the same.
type PackedB struct {
	k, n   int
	kc, nc int
	tier   gemmTier // the GEMM the data is packed for
	// data holds the packed (jc, pc) blocks in the order Dgemm visits
	// them: for each block of nc columns, each block of kc rows.
	data []float64
	offs []int // start of each block in data
}

// Pack packs op(B), a k×n matrix (op(B)[p][j] is b[p*ldb+j], or b[j*ldb+p]
// when transB is set), into p, reusing p's memory when it is large enough.
// Later changes to b do not affect p.
func (p *PackedB) Pack(transB bool, k, n int, b []float64, ldb int) {
	p.layout(k, n, gemmTierNow())
	nr := p.tier.nr
	if k == 0 || n == 0 {
		return
	}
	type part struct{ off, pc, kb, jc, nb, np int }
	var parts [16]part
	list := parts[:0]
	for jc := 0; jc < n; jc += p.nc {
		nb := min(p.nc, n-jc)
		for pc := 0; pc < k; pc += p.kc {
			list = append(list, part{p.offs[len(list)], pc, min(p.kc, k-pc), jc, nb, ceilDiv(nb, nr)})
		}
	}
	// The panels are independent: large packings share them out among
	// the kernel's threads (the same bytes whatever the split).
	workers := min(Threads(), max(1, k*n/packMinPerThread))
	forRange := func(w int) {
		for _, q := range list {
			lo, hi := w*q.np/workers, (w+1)*q.np/workers
			packB(&p.tier, transB, b, ldb, q.pc, q.kb, q.jc, q.nb, lo, hi, p.data[q.off:q.off+q.np*nr*q.kb])
		}
	}
	par.Do(workers, forRange)
}

// PackRows packs rows r0..r1−1 of op(B), a k×n matrix given as to Pack,
// into their places in p: after rows covering 0..k−1 have been packed this
// way, in any order and any pieces, p holds what Pack would have packed,
// bit for bit. If p does not have the shape k×n or the layout of the
// running tier, its layout is set up first (reusing its memory) and the
// rows not packed since are unspecified. It
// runs on the calling goroutine: for packing a matrix while it is being
// produced, a few rows at a time, while they are still in cache.
func (p *PackedB) PackRows(transB bool, k, n int, b []float64, ldb int, r0, r1 int) {
	if r0 < 0 || r1 > k || r0 > r1 {
		panic("kernel: PackedB.PackRows: rows out of range")
	}
	t := gemmTierNow()
	if kc, nc := t.blocksKN(k, n); p.k != k || p.n != n || len(p.offs) == 0 || p.tier != t || p.kc != kc || p.nc != nc {
		p.layout(k, n, t)
	}
	if r0 == r1 || n == 0 {
		return
	}
	nr := t.nr
	npc := ceilDiv(k, p.kc)
	bj := 0
	for jc := 0; jc < n; jc += p.nc {
		nb := min(p.nc, n-jc)
		np := ceilDiv(nb, nr)
		for bp, pc := 0, 0; pc < k; bp, pc = bp+1, pc+p.kc {
			kb := min(p.kc, k-pc)
			lo, hi := max(r0, pc), min(r1, pc+kb)
			if lo >= hi {
				continue
			}
			off := p.offs[bj*npc+bp]
			packBStride(&p.tier, transB, b, ldb, lo, hi-lo, jc, nb, 0, np, p.data[off+(lo-pc)*nr:off+np*nr*kb], nr*kb)
		}
		bj++
	}
}

// layout sets p up for a k×n matrix packed for tier t as Pack does,
// without packing: the block sizes, the offsets and room for the data,
// whose values are left as they are.
func (p *PackedB) layout(k, n int, t gemmTier) {
	nr := t.nr
	p.k, p.n, p.tier = k, n, t
	p.data, p.offs = p.data[:0], p.offs[:0]
	if k == 0 || n == 0 {
		return
	}
	p.kc, p.nc = t.blocksKN(k, n)
	size := 0
	for jc := 0; jc < n; jc += p.nc {
		nb := min(p.nc, n-jc)
		for pc := 0; pc < k; pc += p.kc {
			kb := min(p.kc, k-pc)
			p.offs = append(p.offs, size)
			size += roundUp(nb, nr) * kb
		}
	}
	if cap(p.data) < size {
		p.data = make([]float64, size)
	}
	p.data = p.data[:size]
}

// packMinPerThread is the number of elements of B per goroutine below
// which Pack uses fewer goroutines: starting one costs about a
// microsecond, packing 1<<16 elements several tens. (A variable so that
// the tests can push small shapes through the parallel packing.)
var packMinPerThread = 1 << 16

// Dims returns the shape k×n of the packed op(B).
func (p *PackedB) Dims() (k, n int) { return p.k, p.n }

// DgemmPacked computes C = alpha*op(A)*B + beta*C as Dgemm does, with B
// the matrix packed in pb (k×n, k = pb's rows); op(A) is m×k. It gives
// the same result as Dgemm with the unpacked B, bit for bit, on any number
// of threads — except for products of at most 128 multiply-adds, which
// Dgemm computes by plain loops. Unchecked like Dgemm.
func DgemmPacked(transA bool, m int, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	DgemmPackedOn(0, transA, m, alpha, a, lda, pb, beta, c, ldc)
}

// DgemmPackedOn is DgemmPacked on at most threads goroutines, the caller's
// included (threads < 1: Threads()), as DgemmOn is Dgemm.
func DgemmPackedOn(threads int, transA bool, m int, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	dgemmPacked(threads, false, transA, m, alpha, a, lda, pb, beta, c, ldc)
}

// DgemmPackedUpper computes the upper triangle of the square product
// C = alpha*op(A)*B + beta*C (op(A) is n×k, B packed in pb is k×n): every
// C[i][j] with j >= i gets exactly the value DgemmPacked would give it,
// while only the micro-tiles that reach the upper triangle are computed,
// about half the work. Entries strictly below the diagonal are left
// unspecified (some, near the diagonal, are written). It is the Gram
// matrix G = D·Dᵀ in half a GEMM when pb holds Dᵀ and op(A) is D.
// Unchecked like Dgemm; pb must be k×n with n the order of C.
func DgemmPackedUpper(transA bool, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	dgemmPacked(0, true, transA, pb.n, alpha, a, lda, pb, beta, c, ldc)
}

// DgemmPackedUpperOn is DgemmPackedUpper on at most threads goroutines, the
// caller's included (threads < 1: Threads()), as DgemmPackedOn is
// DgemmPacked: the same values on any number.
func DgemmPackedUpperOn(threads int, transA bool, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	dgemmPacked(threads, true, transA, pb.n, alpha, a, lda, pb, beta, c, ldc)
}

// dgemmPacked runs a product on the packed B on at most threads goroutines
// (threads < 1: Threads()); upper skips the tiles below the diagonal.
func dgemmPacked(threads int, upper, transA bool, m int, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	n, k := pb.n, pb.k
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	g := gemmCallPool.Get().(*gemmCall)
	g.transA = transA
	g.m, g.n, g.k = m, n, k
	g.alpha, g.beta = alpha, beta
	g.a, g.lda, g.c, g.ldc = a, lda, c, ldc
	g.packed, g.upper = pb, upper
	g.tmax = threads
	g.run()
	g.a, g.b, g.c, g.packed, g.upper, g.tmax = nil, nil, nil, nil, false, 0
	gemmCallPool.Put(g)
}

// at returns element (i, j) of the packed k×n matrix.
func (p *PackedB) at(i, j int) float64 {
	nr := p.tier.nr
	bj, bp := j/p.nc, i/p.kc
	npc := ceilDiv(p.k, p.kc)
	kb := min(p.kc, p.k-bp*p.kc)
	jj, ii := j-bj*p.nc, i-bp*p.kc
	return p.data[p.offs[bj*npc+bp]+(jj/nr)*nr*kb+ii*nr+jj%nr]
}
