package kernel

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/oddl-go/oddl/internal/par"
)

// The single-precision GEMM. Its driver follows Dgemm's design — the
// GotoBLAS/BLIS loop nest with a kc×nc block of op(B) packed once and
// shared by all goroutines, an mc×kc block of op(A) packed per goroutine,
// and a register-blocked micro-kernel per tier — in a form of its own, so
// that the float64 path is untouched. It has Dgemm's packed-B and
// upper-triangle variants (sgemm_packed.go), not yet PackedB's PackRows or
// the float64 AVX-512 tier's lazy packing.

// sgemmTier is the SGEMM of one kernel tier, as gemmTier is Dgemm's.
type sgemmTier struct {
	kernel     int // sgemmKernelGoID, sgemmKernelAVX2ID, sgemmKernelAVX512ID or sgemmKernelAVX512NarrowID
	mr, nr     int // the micro-tile
	kc, mc, nc int // the cache blocking (see gemmTier)
}

// The float32 micro-kernels.
const (
	sgemmKernelGoID           = iota // sgemmKernelGo, 6×16, plain Go
	sgemmKernelAVX2ID                // sgemmKernel6x16AVX2, 6×16 on 12 YMM accumulators
	sgemmKernelAVX512ID              // sgemmKernel6x48AVX512, 6×48 on 18 ZMM accumulators
	sgemmKernelAVX512NarrowID        // sgemmKernel6x32AVX512, 6×32 on 12 ZMM accumulators
)

// sgemmTiers holds each tier's SGEMM, indexed by its kernel. The values
// are variables only so that tests can explore other blocking.
//
// A YMM register holds eight float32, so the AVX2 tile is 6×16: the
// float64 6×8 kernel's register use, twice the columns. The blocking keeps
// the bytes of the float64 AVX2 tier in each cache level: the 16×256
// micro-panel of B (16 KB) in L1, the 288×256 block of A (288 KB) in L2.
// It is not tuned by timing yet.
//
// A ZMM register holds sixteen, and the AVX-512 tile is 6×48: six rows, so
// that A is packed and read in place as for the AVX2 tile, and three
// vectors a row, for eighteen accumulators (the float64 AVX-512 kernel has
// 24 on 8×24). Its blocking keeps the AVX2 tier's depth and A block; the
// 48×256 micro-panel of B (48 KB) then fills the L1 of the AVX-512 CPUs of
// today rather than a half of it. A sweep of kc and mc on an AVX-512 CPU
// found nothing faster beyond the noise (docs/benchmarks/float32.md), and
// the same depth keeps the two tiers' products the same bit for bit. Its
// narrow form, 6×32 on twelve accumulators with the same blocking, runs
// the products that 48-wide tiles would pad by half or more
// (sgemmWidePad).
var sgemmTiers = [...]sgemmTier{
	sgemmKernelGoID:     {kernel: sgemmKernelGoID, mr: 6, nr: 16, kc: 256, mc: 288, nc: 4096},
	sgemmKernelAVX2ID:   {kernel: sgemmKernelAVX2ID, mr: 6, nr: 16, kc: 256, mc: 288, nc: 4096},
	sgemmKernelAVX512ID: {kernel: sgemmKernelAVX512ID, mr: 6, nr: 48, kc: 256, mc: 288, nc: 4080},
	// The avx512 tier's narrow kernel, with the wide one's blocking.
	sgemmKernelAVX512NarrowID: {kernel: sgemmKernelAVX512NarrowID, mr: 6, nr: 32, kc: 256, mc: 288, nc: 4096},
}

// sgemmTileMax is the largest micro-tile (mr·nr) of any tier.
const sgemmTileMax = 6 * 48

// sgemmTierFor returns the SGEMM of the running tier for a product with n
// columns: the AVX2 kernel in the avx2 tier, the Go one in the go tier; in
// the avx512 tier the widest AVX-512 kernel, 48 or 32 columns, that is not
// wide against n (see sgemmWidePad), else the AVX2 kernel. Tests may
// force one kernel of the avx512 tier for every n (sgemmForce512).
func sgemmTierFor(n int) sgemmTier {
	switch {
	case use512 && sgemmForce512 >= 0:
		return sgemmTiers[sgemmForce512]
	case use512:
		return sgemmTiers[sgemm512For(n)]
	case useAsm:
		return sgemmTiers[sgemmKernelAVX2ID]
	}
	return sgemmTiers[sgemmKernelGoID]
}

// sgemm512For returns the kernel of the avx512 tier for a product of n
// columns by the rule of sgemmWidePad.
func sgemm512For(n int) int {
	switch {
	case sgemmFits(n, 48):
		return sgemmKernelAVX512ID
	case sgemmFits(n, 32):
		return sgemmKernelAVX512NarrowID
	}
	return sgemmKernelAVX2ID
}

// sgemmWidePad is the most columns, relative to those of the 16-wide
// AVX2 tiles, that the AVX-512 tiles (48 or 32 wide) may compute for a
// product of n columns (both padded to whole tiles): their padding is
// computed and dropped, and their last partial tiles go through a scratch
// tile. Timed on an AVX-512 CPU, the 48-wide kernel against the AVX2 one
// by turns on products of 16 to 480 columns and depths 36 to 784
// (docs/benchmarks/float32.md): where the wide kernel computes 1.15 to 1.3
// times the columns (80, 112, 160, 208) it won or broke even; at 1.5 times
// it broke even or lost, a little at 64 columns (96: the patch front
// end's atoms), by far at 32 (48). Hence 1.4, between the two: the 48-wide
// kernel runs products of 33 to 48 columns and more than 64, the 32-wide
// one those of 17 to 32 and of 49 to 64, the AVX2 kernel those of up to
// 16. The 32-wide kernel, timed against the AVX2 one on the same CPU
// (BenchmarkSgemmKernels, docs/benchmarks/float32.md), broke even or won
// at 24 columns, where both compute 32, and was well ahead at 32 and 64.
const sgemmWidePad = 1.4

// sgemmForce512, when a kernel's ID rather than −1, is the kernel that
// every product of the avx512 tier runs, whatever its width: the tests
// set it so that each AVX-512 kernel's driver meets every shape.
var sgemmForce512 = -1

// sgemmFits reports whether tiles nr columns wide compute at most
// sgemmWidePad times the columns of 16-wide ones for a product of n
// columns.
func sgemmFits(n, nr int) bool {
	return float64(roundUp(n, nr)) <= sgemmWidePad*float64(roundUp(n, 16))
}

// Sgemm computes C = alpha*op(A)*op(B) + beta*C in single precision,
// row-major; op(X) = X or Xᵀ. op(A) is m×k, op(B) is k×n, C is m×n.
// lda/ldb/ldc are row strides (>= the stored row length). Unchecked: the
// caller (package blas) validates.
//
// It is Dgemm's float32 twin, with the same contract: beta == 0
// overwrites C without reading it, alpha == 0 or k == 0 only scales C by
// beta, NaN and Inf in A or B propagate otherwise; each element of C is
// accumulated in float32 with fused multiply-adds (in the SIMD tiers) in
// one order whatever the number of goroutines, so the result does not
// depend on Threads(). Steady-state calls allocate nothing.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	SgemmOn(0, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SgemmOn is Sgemm on at most threads goroutines, the caller's included
// (threads < 1: Threads()). The result is the same on any number.
func SgemmOn(threads int, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleC32(m, n, beta, c, ldc)
		return
	}
	if float64(m)*float64(n)*float64(k) <= gemmTinyWork {
		sgemmTiny(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	g := sgemmCallPool.Get().(*sgemmCall)
	g.transA, g.transB = transA, transB
	g.m, g.n, g.k = m, n, k
	g.alpha, g.beta = alpha, beta
	g.a, g.lda, g.b, g.ldb, g.c, g.ldc = a, lda, b, ldb, c, ldc
	g.tier = sgemmTierFor(n)
	g.tmax = threads
	g.run()
	g.a, g.b, g.c, g.tmax = nil, nil, nil, 0
	sgemmCallPool.Put(g)
}

// sgemmTiny is Sgemm by dot products, for tiny problems (alpha != 0,
// k > 0).
func sgemmTiny(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ai, ap, bp, bj := lda, 1, ldb, 1
	if transA {
		ai, ap = 1, lda
	}
	if transB {
		bp, bj = 1, ldb
	}
	for i := range m {
		for j := range n {
			var s float32
			for p := range k {
				s += a[i*ai+p*ap] * b[p*bp+j*bj]
			}
			cij := &c[i*ldc+j]
			if beta == 0 {
				*cij = alpha * s
			} else {
				*cij = alpha*s + beta**cij
			}
		}
	}
}

// scaleC32 sets C = beta*C, writing zeros when beta == 0.
func scaleC32(m, n int, beta float32, c []float32, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// sgemmCall holds one Sgemm call (see gemmCall): its arguments, the block
// being worked on, the packing buffers and the work counter of the
// current phase. Calls are pooled.
type sgemmCall struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	a, b, c        []float32
	lda, ldb, ldc  int
	tier           sgemmTier
	t, tmax        int // goroutines used; the cap asked for (0: none)

	kc, mc, nc int

	// The current (jc, pc) block, its beta and its serial number.
	jc, nb, pc, kb int
	betaBlk        float32
	block          int

	// The current phase: units 0..units-1, claimed through next.
	phase                            int
	units                            int
	next                             atomic.Int64
	packPanels, chunkPanels, nChunks int
	helpFn                           func(w int)

	bufB  []float32 // packed kc×nc block of op(B), shared
	slots []sgemmSlot

	// packed, when set (SgemmPacked), holds op(B) already packed with its
	// own tier and blocking, which the call then takes: bufB points into
	// it and nothing is packed. upper, when set (SgemmPackedUpperOn),
	// skips the micro-tiles of C that lie wholly below its diagonal.
	packed *PackedB32
	upper  bool

	// direct is set when the micro-kernel may read op(A) in place
	// (sgemmDirect) rather than packed: A not transposed, the assembly
	// kernel, no race detector (which does not see the assembly's reads).
	direct bool
}

// sgemmSlot is the private state of one goroutine taking part in a call.
type sgemmSlot struct {
	bufA      []float32 // packed mc×kc block of op(A)
	block, ib int       // bufA holds row block ib of block; block < 0: nothing
}

var sgemmCallPool = sync.Pool{New: func() any {
	g := new(sgemmCall)
	g.helpFn = func(w int) { g.help(w) }
	return g
}}

// run performs the call.
func (g *sgemmCall) run() {
	m, n, k := g.m, g.n, g.k
	if pb := g.packed; pb != nil {
		g.tier = pb.tier
	}
	mr, nr := g.tier.mr, g.tier.nr
	g.kc = ceilDiv(k, ceilDiv(k, g.tier.kc))
	g.nc = roundUp(min(n, g.tier.nc), nr)
	g.mc = roundUp(ceilDiv(m, ceilDiv(m, g.tier.mc)), mr)
	if pb := g.packed; pb != nil {
		g.kc, g.nc = pb.kc, pb.nc
	}

	t := 1
	if work := float64(m) * float64(n) * float64(k); work >= 2*float64(gemmMinWork) {
		t = min(Threads(), int(work/float64(gemmMinWork)), ceilDiv(m, mr)*ceilDiv(n, nr))
		if g.tmax > 0 {
			t = min(t, g.tmax)
		}
	}
	g.t = t
	g.direct = !g.transA && g.tier.kernel != sgemmKernelGoID && !raceEnabled

	if g.packed == nil {
		if need := g.kc * g.nc; cap(g.bufB) < need {
			g.bufB = make([]float32, need)
		}
		g.bufB = g.bufB[:g.kc*g.nc]
	}
	own := g.bufB
	for len(g.slots) < t {
		g.slots = append(g.slots, sgemmSlot{})
	}
	for w := range t {
		sl := &g.slots[w]
		if need := g.kc * g.mc; cap(sl.bufA) < need {
			sl.bufA = make([]float32, need)
		}
		sl.block = -1
	}
	mBlocks := ceilDiv(ceilDiv(m, mr), g.mc/mr)

	for jc := 0; jc < n; jc += g.nc {
		g.jc, g.nb = jc, min(g.nc, n-jc)
		np := ceilDiv(g.nb, nr)
		g.packPanels, g.chunkPanels = np, np
		if t > 1 {
			g.packPanels = ceilDiv(np, min(np, gemmUnitsPerThread*t))
			g.chunkPanels = ceilDiv(np, min(np, ceilDiv(gemmUnitsPerThread*t, mBlocks)))
		}
		g.nChunks = ceilDiv(np, g.chunkPanels)
		for pc := 0; pc < k; pc += g.kc {
			g.pc, g.kb = pc, min(g.kc, k-pc)
			g.betaBlk = g.beta
			if pc > 0 {
				g.betaBlk = 1
			}
			g.block++
			if pb := g.packed; pb != nil {
				off := pb.offs[(jc/g.nc)*ceilDiv(k, g.kc)+pc/g.kc]
				g.bufB = pb.data[off : off+np*nr*g.kb]
			} else {
				g.runPhase(gemmPhasePackB, ceilDiv(np, g.packPanels))
			}
			g.runPhase(gemmPhaseCompute, mBlocks*g.nChunks)
		}
	}
	g.bufB = own
}

// runPhase runs units 0..units-1 of a phase on up to g.t goroutines, the
// calling one included, and returns when all are done (par.Do returns
// only when every goroutine has).
func (g *sgemmCall) runPhase(phase, units int) {
	g.phase, g.units = phase, units
	g.next.Store(0)
	par.Do(min(g.t, units), g.helpFn)
}

// help claims and runs units of the current phase until none is left, as
// goroutine slot.
func (g *sgemmCall) help(slot int) {
	for {
		u := int(g.next.Add(1) - 1)
		if u >= g.units {
			return
		}
		g.doUnit(slot, u)
	}
}

// doUnit runs unit u of the current phase as goroutine slot: the packing
// of packPanels column panels of B, or the update of one row block of C
// times chunkPanels column panels.
func (g *sgemmCall) doUnit(slot, u int) {
	mr, nr := g.tier.mr, g.tier.nr
	np := ceilDiv(g.nb, nr)
	if g.phase == gemmPhasePackB {
		q0 := u * g.packPanels
		sgemmPackB(&g.tier, g.transB, g.b, g.ldb, g.pc, g.kb, g.jc, g.nb, q0, min(np, q0+g.packPanels), g.bufB)
		return
	}
	ib, ch := u/g.nChunks, u%g.nChunks
	mcp := g.mc / mr
	r0, r1 := ib*mcp, min(ceilDiv(g.m, mr), (ib+1)*mcp)
	q0, q1 := ch*g.chunkPanels, min(np, (ch+1)*g.chunkPanels)
	if g.upper && g.jc+min(q1*nr, g.nb) <= r0*mr {
		return // every tile of the unit is below the diagonal
	}
	if g.direct && (q1-q0)*nr*g.kb <= sgemmDirectMaxB {
		g.macroDirect(slot, r0, r1, q0, q1)
		return
	}
	sl := &g.slots[slot]
	if sl.block != g.block || sl.ib != ib {
		i0 := r0 * mr
		sgemmPackA(&g.tier, g.transA, g.a, g.lda, i0, min(r1*mr, g.m)-i0, g.pc, g.kb, sl.bufA)
		sl.block, sl.ib = g.block, ib
	}
	g.macro(r0, r1, q0, q1, sl.bufA)
}

// macro updates the tiles in row panels r0..r1-1 and column panels
// q0..q1-1 of the current block of C; bufA holds those row panels packed.
// Edge tiles are computed into a scratch tile and stored by storeTile32.
func (g *sgemmCall) macro(r0, r1, q0, q1 int, bufA []float32) {
	mr, nr, kern := g.tier.mr, g.tier.nr, g.tier.kernel
	m, kb, ldc := g.m, g.kb, g.ldc
	alpha, beta := g.alpha, g.betaBlk
	c := g.c
	raceWriteBlock32(c, ldc, r0*mr, min(r1*mr, m)-r0*mr, g.jc+q0*nr, min(q1*nr, g.nb)-q0*nr)
	raceRead32(g.bufB[q0*nr*kb : q1*nr*kb])
	var tile [sgemmTileMax]float32
	for q := q0; q < q1; q++ {
		bp := g.bufB[q*nr*kb : (q+1)*nr*kb]
		j := g.jc + q*nr
		cols := min(nr, g.jc+g.nb-j)
		re := r1
		if g.upper {
			re = min(re, ceilDiv(j+cols, mr)) // the rest is below the diagonal
		}
		r := r0
		if rf := min(re, m/mr); cols == nr && rf > r0 {
			// The full tiles of the column in one call.
			sgemmTiles(kern, kb, bufA[:(rf-r0)*mr*kb], bp, rf-r0, c[r0*mr*ldc+j:(rf*mr-1)*ldc+j+nr], ldc, alpha, beta)
			r = rf
		}
		for ; r < re; r++ {
			ap := bufA[(r-r0)*mr*kb : (r-r0+1)*mr*kb]
			i := r * mr
			sgemmMicro(kern, kb, ap, bp, tile[:mr*nr], nr, 1, 0)
			storeTile32(min(mr, m-i), cols, tile[:mr*nr], nr, c[i*ldc+j:], ldc, alpha, beta)
		}
	}
}

// sgemmDirectMaxB is the most values of packed B (column panels times
// depth) for which a unit of work reads A in place. Packing a row panel of
// A costs about as much as a few of its tiles, so it pays only when the
// panel meets many column panels; the direct kernel walks the panels of B
// once per row panel of A, which then should stay in L1 (32 KB).
const sgemmDirectMaxB = 8192

// macroDirect is macro for units of few column panels, by
// sgemmDirectBlock; a last partial row panel is packed into the slot's
// buffer. The values are macro's.
func (g *sgemmCall) macroDirect(slot, r0, r1, q0, q1 int) {
	sl := &g.slots[slot]
	if r1*g.tier.mr > g.m {
		sl.block = -1 // bufA is to hold the partial row panel
	}
	sgemmDirectBlock(g.tier.kernel, g.a, g.lda, g.m, g.pc, g.kb, g.bufB, g.jc, g.nb, g.c, g.ldc,
		g.alpha, g.betaBlk, g.upper, r0, r1, q0, q1, sl.bufA)
}

// sgemmDirectBlock computes the tiles of row panels r0..r1-1 and column
// panels q0..q1-1 of C (of m rows; the columns jc..jc+nb-1 of the block,
// B its packed panels, depth kb from column pc of A) with the full row
// panels of an untransposed A read in place by sgemmDirect, all the column
// panels of a row panel in one call. A last partial row panel is packed
// into scratch (a buffer of its own if that is too short) and goes tile by
// tile through the micro-kernel kern, as in macro. With upper, the tiles
// wholly below the diagonal are skipped. The values are macro's.
func sgemmDirectBlock(kern int, a []float32, lda, m, pc, kb int, b []float32, jc, nb int, c []float32, ldc int,
	alpha, beta float32, upper bool, r0, r1, q0, q1 int, scratch []float32) {
	const mr = 6
	nr := sgemmTiers[kern].nr
	qf := q1 // the full column panels are q0..qf-1
	if q1*nr > nb {
		qf--
	}
	var tile [sgemmTileMax]float32
	for r := r0; r < r1; r++ {
		i := r * mr
		qs := q0
		for upper && qs < q1 && jc+min((qs+1)*nr, nb) <= i {
			qs++ // below the diagonal
		}
		if i+mr > m {
			sgemmPartialPanel(kern, a, lda, i, m-i, pc, kb, b, jc, nb, qs, q1, c, ldc, alpha, beta, scratch)
			continue
		}
		o := i*lda + pc
		ar := a[o : o+5*lda+kb]
		if qs < qf {
			j := jc + qs*nr
			sgemmDirect(kern, kb, ar, lda, b[qs*nr*kb:qf*nr*kb], qf-qs, c[i*ldc+j:i*ldc+j+5*ldc+(qf-qs)*nr], ldc, alpha, beta)
		}
		if qf < q1 && qs <= qf {
			j := jc + qf*nr
			sgemmDirect(kern, kb, ar, lda, b[qf*nr*kb:q1*nr*kb], 1, tile[:mr*nr], nr, 1, 0)
			storeTile32(mr, jc+nb-j, tile[:mr*nr], nr, c[i*ldc+j:], ldc, alpha, beta)
		}
	}
}

// sgemmPartialMaxK is the deepest partial row panel packed on the stack
// (6 KB; any tier's kc).
const sgemmPartialMaxK = 256

// sgemmPartialPanelOnStack is sgemmPartialPanel with the packed rows on
// the stack, so that a small product allocates nothing; kb <=
// sgemmPartialMaxK. The buffer is in a function of its own, so that only
// the calls that need it clear it.
func sgemmPartialPanelOnStack(kern int, a []float32, lda, i, rows, pc, kb int, b []float32, jc, nb, q0, q1 int, c []float32, ldc int, alpha, beta float32) {
	var buf [6 * sgemmPartialMaxK]float32
	sgemmPartialPanel(kern, a, lda, i, rows, pc, kb, b, jc, nb, q0, q1, c, ldc, alpha, beta, buf[:])
}

// sgemmPartialPanel computes the tiles q0..q1-1 of the partial row panel
// of rows rows (< 6) from row i of C as macro does: the rows packed (into
// scratch, or a buffer of its own if that is too short), then the
// micro-kernel kern into a scratch tile, stored by storeTile32.
func sgemmPartialPanel(kern int, a []float32, lda, i, rows, pc, kb int, b []float32, jc, nb, q0, q1 int, c []float32, ldc int, alpha, beta float32, scratch []float32) {
	const mr = 6
	nr := sgemmTiers[kern].nr
	if len(scratch) < mr*kb {
		if kb <= sgemmPartialMaxK {
			sgemmPartialPanelOnStack(kern, a, lda, i, rows, pc, kb, b, jc, nb, q0, q1, c, ldc, alpha, beta)
			return
		}
		scratch = make([]float32, mr*kb)
	}
	ap := scratch[:mr*kb]
	packRowsF32(a, lda, i, rows, pc, kb, mr, ap)
	var tile [sgemmTileMax]float32
	for q := q0; q < q1; q++ {
		j := jc + q*nr
		sgemmMicro(kern, kb, ap, b[q*nr*kb:(q+1)*nr*kb], tile[:mr*nr], nr, 1, 0)
		storeTile32(rows, min(nr, jc+nb-j), tile[:mr*nr], nr, c[i*ldc+j:], ldc, alpha, beta)
	}
}

// storeTile32 writes C = alpha*T + beta*C for the top-left rows×cols
// corner of a micro-tile T (row stride nr): beta*C rounded to float32, then
// alpha*T added with one rounding, as the SIMD micro-kernels do (the fused
// multiply-add is taken in float64 and rounded to float32; alpha*T is exact
// there, so the two agree but for rare double-rounding ties).
func storeTile32(rows, cols int, t []float32, nr int, c []float32, ldc int, alpha, beta float32) {
	for i := range rows {
		row := c[i*ldc : i*ldc+cols]
		tr := t[i*nr : i*nr+cols]
		if beta == 0 {
			for j, v := range tr {
				row[j] = alpha * v
			}
			continue
		}
		for j, v := range tr {
			row[j] = float32(math.FMA(float64(alpha), float64(v), float64(beta*row[j])))
		}
	}
}

// sgemmPackA packs op(A)[i0:i0+mb, p0:p0+kb] into dst as ⌈mb/mr⌉ row
// panels of mr·kb values each, in the layout of packA: panel r holds, step
// by step, the mr values of op(A) rows r·mr.., zeros past the last row.
// Full six-row panels of an A as stored go through sgemmPackPanelA (the
// assembly in the AVX2 kernel's tiers, except under the race detector).
func sgemmPackA(t *sgemmTier, trans bool, a []float32, lda, i0, mb, p0, kb int, dst []float32) {
	mr := t.mr
	asm := t.kernel != sgemmKernelGoID && !raceEnabled
	for r := 0; r < mb; r += mr {
		rows := min(mr, mb-r)
		panel := dst[r*kb : r*kb+mr*kb]
		switch {
		case trans:
			packColsF32(a, lda, p0, kb, i0+r, rows, mr, panel)
		case rows == 6 && mr == 6:
			o := (i0+r)*lda + p0
			sgemmPackPanelA(asm, kb, a[o:o+5*lda+kb], lda, panel)
		default:
			packRowsF32(a, lda, i0+r, rows, p0, kb, mr, panel)
		}
	}
}

// sgemmPackB packs the column panels q0..q1-1 of op(B)[p0:p0+kb,
// j0:j0+nb] into dst; panel q starts at dst[q*nr*kb] and holds, step by
// step, the nr values of op(B) columns q·nr.., zeros past the last column.
// Full panels go through sgemmPackPanelB (the assembly in the SIMD
// kernels' tiers, except under the race detector, which does not see its
// memory).
func sgemmPackB(t *sgemmTier, trans bool, b []float32, ldb, p0, kb, j0, nb, q0, q1 int, dst []float32) {
	nr := t.nr
	asm := t.kernel != sgemmKernelGoID && !raceEnabled
	for q := q0; q < q1; q++ {
		c := q * nr
		cols := min(nr, nb-c)
		panel := dst[q*nr*kb : (q+1)*nr*kb]
		switch {
		case cols == nr && trans:
			o := (j0+c)*ldb + p0
			sgemmPackPanelB(asm, true, nr, kb, b[o:o+(nr-1)*ldb+kb], ldb, panel)
		case cols == nr:
			o := p0*ldb + j0 + c
			sgemmPackPanelB(asm, false, nr, kb, b[o:o+(kb-1)*ldb+nr], ldb, panel)
		case trans:
			packRowsF32(b, ldb, j0+c, cols, p0, kb, nr, panel)
		default:
			packColsF32(b, ldb, p0, kb, j0+c, cols, nr, panel)
		}
	}
}

// packRowsF32 interleaves rows r0..r0+rows-1 (rows <= w), columns
// p0..p0+kb-1, of a row-major matrix into w-wide groups: row r0+i, column
// p0+p goes to dst[p*w+i]; a partial group is padded with zeros.
func packRowsF32(a []float32, lda, r0, rows, p0, kb, w int, dst []float32) {
	if rows == 6 && w == 6 {
		packRows6F32(a, lda, r0, p0, kb, dst)
		return
	}
	dst = dst[:w*kb]
	if rows < w {
		clear(dst)
	}
	for i := range rows {
		row := a[(r0+i)*lda+p0 : (r0+i)*lda+p0+kb]
		for p, v := range row {
			dst[p*w+i] = v
		}
	}
}

// packRows6F32 is packRowsF32 of a full group of six rows (the A panel of
// the 6×16 tiles): it reads the six rows side by side and writes each
// group of six contiguously, rather than one row at a time with a stride
// of six, which the A panels of small products (the patch front end's)
// spend a noticeable share of their time on.
func packRows6F32(a []float32, lda, r0, p0, kb int, dst []float32) {
	o := r0*lda + p0
	x0 := a[o : o+kb]
	x1 := a[o+lda : o+lda+kb]
	x2 := a[o+2*lda : o+2*lda+kb]
	x3 := a[o+3*lda : o+3*lda+kb]
	x4 := a[o+4*lda : o+4*lda+kb]
	x5 := a[o+5*lda : o+5*lda+kb]
	n := len(x0)
	x1, x2, x3, x4, x5 = x1[:n], x2[:n], x3[:n], x4[:n], x5[:n]
	dst = dst[:6*n]
	for p := range x0 {
		g := dst[6*p : 6*p+6 : 6*p+6]
		g[0], g[1], g[2] = x0[p], x1[p], x2[p]
		g[3], g[4], g[5] = x3[p], x4[p], x5[p]
	}
}

// packColsF32 copies rows p0..p0+kb-1, columns j0..j0+cols-1 (cols <= w),
// of a row-major matrix to dst[p*w+j]; a partial run is padded with zeros.
func packColsF32(b []float32, ldb, p0, kb, j0, cols, w int, dst []float32) {
	dst = dst[:w*kb]
	if cols < w {
		clear(dst)
	}
	for p := range kb {
		o := (p0+p)*ldb + j0
		copy(dst[p*w:p*w+cols], b[o:o+cols])
	}
}

// sgemmTilesGo is the Go form of sgemmTiles: sgemmKernelGo on each tile.
func sgemmTilesGo(k int, a, b []float32, nt int, c []float32, ldc int, alpha, beta float32) {
	for t := range nt {
		sgemmKernelGo(k, a[6*k*t:6*k*(t+1)], b, c[6*t*ldc:], ldc, alpha, beta)
	}
}

// sgemmDirectGo is the Go form of sgemmDirect: each of the np tiles by
// sgemmKernelGo on the six rows of A packed.
func sgemmDirectGo(k int, a []float32, lda int, b []float32, np int, c []float32, ldc int, alpha, beta float32) {
	var buf [6 * 256]float32
	ap := buf[:]
	if 6*k > len(ap) {
		ap = make([]float32, 6*k)
	}
	ap = ap[:6*k]
	packRowsF32(a, lda, 0, 6, 0, k, 6, ap)
	for q := range np {
		sgemmKernelGo(k, ap, b[16*k*q:16*k*(q+1)], c[16*q:], ldc, alpha, beta)
	}
}

// sgemmKernelGo is the pure-Go micro-kernel: with T = Σ_p a[6p:6p+6] ⊗
// b[16p:16p+16] (a 6×16 outer-product sum over the packed panels a and b
// of depth k, accumulated in float32 in order p = 0, 1, ..., k-1), it
// writes
//
//	c[i*ldc+j] = alpha*T[i][j] + beta*c[i*ldc+j]   (i < 6, j < 16)
//
// through storeTile32, reading no C when beta == 0. It walks the tile in
// 3×2 sub-tiles, as gemmKernelGo does, so that the accumulators stay in
// registers.
func sgemmKernelGo(k int, a, b, c []float32, ldc int, alpha, beta float32) {
	const mr, nr = 6, 16
	var t [mr * nr]float32
	a = a[:mr*k]
	b = b[:nr*k]
	for i := 0; i < mr; i += 3 {
		for j := 0; j < nr; j += 2 {
			var c00, c01, c10, c11, c20, c21 float32
			for p := range k {
				aa := a[p*mr+i : p*mr+i+3 : p*mr+i+3]
				bb := b[p*nr+j : p*nr+j+2 : p*nr+j+2]
				b0, b1 := bb[0], bb[1]
				a0 := aa[0]
				c00 += a0 * b0
				c01 += a0 * b1
				a0 = aa[1]
				c10 += a0 * b0
				c11 += a0 * b1
				a0 = aa[2]
				c20 += a0 * b0
				c21 += a0 * b1
			}
			t[i*nr+j], t[i*nr+j+1] = c00, c01
			t[(i+1)*nr+j], t[(i+1)*nr+j+1] = c10, c11
			t[(i+2)*nr+j], t[(i+2)*nr+j+1] = c20, c21
		}
	}
	storeTile32(mr, nr, t[:], nr, c, ldc, alpha, beta)
}
