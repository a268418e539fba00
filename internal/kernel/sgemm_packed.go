package kernel

import "github.com/oddl-go/oddl/internal/par"

// PackedB32 is the second operand of Sgemm packed once for the
// micro-kernel, for many products with the same B, as PackedB is Dgemm's:
// SgemmPacked skips the packing that Sgemm does on every call. The zero
// value is empty; Pack fills it. The layout is the one of the float32 GEMM
// of the tier that runs when Pack lays it out, recorded with the data.
type PackedB32 struct {
	k, n   int
	kc, nc int
	tier   sgemmTier
	// data holds the packed (jc, pc) blocks in the order Sgemm visits
	// them: for each block of nc columns, each block of kc rows.
	data []float32
	offs []int // start of each block in data
}

// Dims returns the shape k×n of the packed op(B).
func (p *PackedB32) Dims() (k, n int) { return p.k, p.n }

// Pack packs op(B), a k×n matrix (op(B)[p][j] is b[p*ldb+j], or b[j*ldb+p]
// when transB is set), into p, reusing p's memory when it is large enough.
// Later changes to b do not affect p. Large packings share the panels out
// among up to Threads() goroutines (the same bytes whatever the split).
func (p *PackedB32) Pack(transB bool, k, n int, b []float32, ldb int) {
	p.PackOn(0, transB, k, n, b, ldb)
}

// PackOn is Pack on at most threads goroutines, the caller's included
// (threads < 1: Threads()).
func (p *PackedB32) PackOn(threads int, transB bool, k, n int, b []float32, ldb int) {
	p.layout(k, n, sgemmTierFor(n))
	if k == 0 || n == 0 {
		return
	}
	nr := p.tier.nr
	workers := Threads()
	if threads > 0 {
		workers = threads
	}
	workers = min(workers, max(1, k*n/packMinPerThread))
	par.Do(workers, func(w int) {
		i := 0
		for jc := 0; jc < n; jc += p.nc {
			nb := min(p.nc, n-jc)
			np := ceilDiv(nb, nr)
			for pc := 0; pc < k; pc += p.kc {
				kb := min(p.kc, k-pc)
				off := p.offs[i]
				i++
				lo, hi := w*np/workers, (w+1)*np/workers
				sgemmPackB(&p.tier, transB, b, ldb, pc, kb, jc, nb, lo, hi, p.data[off:off+np*nr*kb])
			}
		}
	})
}

// layout sets p up for a k×n matrix packed for tier t, without packing.
func (p *PackedB32) layout(k, n int, t sgemmTier) {
	nr := t.nr
	p.k, p.n, p.tier = k, n, t
	p.data, p.offs = p.data[:0], p.offs[:0]
	if k == 0 || n == 0 {
		return
	}
	p.kc = ceilDiv(k, ceilDiv(k, t.kc))
	p.nc = roundUp(min(n, t.nc), nr)
	size := 0
	for jc := 0; jc < n; jc += p.nc {
		nb := min(p.nc, n-jc)
		for pc := 0; pc < k; pc += p.kc {
			p.offs = append(p.offs, size)
			size += roundUp(nb, nr) * min(p.kc, k-pc)
		}
	}
	if cap(p.data) < size {
		p.data = make([]float32, size)
	}
	p.data = p.data[:size]
}

// SgemmPacked computes C = alpha*op(A)*B + beta*C as Sgemm does, with B the
// matrix packed in pb (k×n); op(A) is m×k. It gives the same result as
// Sgemm with the unpacked B, bit for bit, on any number of threads, except
// for products of at most 128 multiply-adds, which Sgemm computes by plain
// loops. Unchecked like Sgemm.
func SgemmPacked(transA bool, m int, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int) {
	sgemmPacked(0, false, transA, m, alpha, a, lda, pb, beta, c, ldc)
}

// SgemmPackedOn is SgemmPacked on at most threads goroutines, the caller's
// included (threads < 1: Threads()).
func SgemmPackedOn(threads int, transA bool, m int, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int) {
	sgemmPacked(threads, false, transA, m, alpha, a, lda, pb, beta, c, ldc)
}

// SgemmPackedUpperOn computes the upper triangle of the square product
// C = alpha*op(A)*B + beta*C (op(A) n×k, B packed in pb k×n), as
// DgemmPackedUpperOn does: every C[i][j] with j >= i gets exactly the
// value SgemmPacked would give it, only the micro-tiles that reach the
// upper triangle are computed, and entries below the diagonal are
// unspecified. threads < 1 means Threads().
func SgemmPackedUpperOn(threads int, transA bool, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int) {
	sgemmPacked(threads, true, transA, pb.n, alpha, a, lda, pb, beta, c, ldc)
}

func sgemmPacked(threads int, upper, transA bool, m int, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int) {
	n, k := pb.n, pb.k
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleC32(m, n, beta, c, ldc)
		return
	}
	if t := pb.tier; !upper && !transA && t.kernel != sgemmKernelGoID && !raceEnabled && len(pb.offs) == 1 &&
		float64(m)*float64(n)*float64(k) < 2*float64(gemmMinWork) && roundUp(n, t.nr)*k <= sgemmDirectMaxB {
		// A small product on one goroutine that run would do in one unit
		// by macroDirect: the same tiles without the call's set-up.
		sgemmDirectBlock(t.kernel, a, lda, m, 0, k, pb.data, 0, n, c, ldc, alpha, beta, false,
			0, ceilDiv(m, t.mr), 0, ceilDiv(n, t.nr), nil)
		return
	}
	g := sgemmCallPool.Get().(*sgemmCall)
	g.transA = transA
	g.m, g.n, g.k = m, n, k
	g.alpha, g.beta = alpha, beta
	g.a, g.lda, g.c, g.ldc = a, lda, c, ldc
	g.packed, g.upper = pb, upper
	g.tmax = threads
	g.run()
	g.a, g.b, g.c, g.packed, g.upper, g.tmax = nil, nil, nil, nil, false, 0
	sgemmCallPool.Put(g)
}
